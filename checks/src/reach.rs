//! Proof of reach: the situations a run met, counted key by key.
//!
//! A check that never runs proves nothing, and a sweep that never reaches
//! the situation a bug lives in cannot catch it. So beside the checks, every
//! key's record is read once more for what it shows happened: a monster of
//! each kind met, fought, killed and killing the player; each item kind
//! found and used; each effect doing what it does (a potion that healed, a
//! scroll that revealed, a teleport that moved); each status applied,
//! ticking and ending; each screen opened and closed; each way a run stops;
//! each depth and kind of floor entered. A sweep adds the counts up
//! (`harness::sweep`), its JSON carries them, and the probe holds them to a
//! baseline: a rule that silently stops working makes its situation vanish.
//!
//! Counting reads only what the checks read: the [`TurnWatch`] taken before
//! the key, the state after it and the key's [`Event`]s. It never presses a
//! key or asks the game anything the state does not hold (no second path
//! into the game), and each situation is counted where the record says it
//! happened: a teleport that moved is a `Teleported` event whose player
//! stands where it says, not a scroll read.
//!
//! The catalogue is [`FIXED`] (situations of the rules themselves) and the
//! templates [`PER_MONSTER`], [`PER_ITEM`], [`PER_DEPTH`] and
//! [`PER_GENERATOR`], one situation for each kind the content (or map
//! generation) has: [`ids`] lists them for a content in the order [`Reach`]
//! counts them. docs/invariants.md documents every one.

use game_core::content::{Content, ItemEffect, ItemId, MonsterId};
use game_core::game::events::{Event, HpCause, Place, StatusChange, Who};
use game_core::game::screens::{PackMode, Screen};
use game_core::game::state::{MonsterRef, RunStatus};
use game_core::game::{Game, RUN_LIMIT};
use game_core::geom::Dir;
use game_core::mapgen::{GeneratorKind, LAST_DEPTH};
use game_core::rules::StepResult;

use crate::command::{Command, map_command};
use crate::watch::{Seen, TurnWatch};

/// Declares the fixed situations: an enum to count them by and the table of
/// their ids and descriptions, in one order.
macro_rules! situations {
    ($($name:ident = $id:literal: $about:literal,)*) => {
        /// A situation of the rules themselves, whatever the content.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum At {
            $($name,)*
        }

        /// Every fixed situation: its id and what it is, in [`At`]'s order.
        pub const FIXED: &[(&str, &str)] = &[$(($id, $about),)*];
    };
}

situations! {
    MeleePlayerHit = "melee.player.hit": "the player's swing hit a monster",
    MeleePlayerMissed = "melee.player.missed": "the player's swing missed",
    MeleeMonsterHit = "melee.monster.hit": "a monster's swing hit the player",
    MeleeMonsterMissed = "melee.monster.missed": "a monster's swing at the player missed",
    MeleeMonsterOnMonster = "melee.monster_on_monster": "a monster swung at another monster (a confused stumble)",
    MonsterWoke = "monster.woke": "an asleep monster noticed the player",
    MonsterLostSight = "monster.lost_sight": "a monster that could see the player (in view, awake) lost sight of them and lives",
    ThrowHit = "throw.hit": "a thrown missile hit a creature",
    ThrowMissed = "throw.missed": "a thrown missile missed the creature it reached",
    ThrowLandedEmpty = "throw.landed_empty": "a thrown missile came down where nobody stood",
    ThrowKilled = "throw.killed": "a thrown missile killed a monster",
    HealHealed = "use.heal.healed": "a healing potion raised the player's hit points",
    HealAtFull = "use.heal.at_full": "a healing potion drunk at full hit points healed nothing (the cap)",
    AntidoteCured = "use.antidote.cured": "an antidote ended a poisoning",
    AntidoteNothing = "use.antidote.nothing": "an antidote drunk unpoisoned did nothing",
    ConfusionTook = "use.confusion.took": "a scroll of confusion confused the monster it was read at",
    MappingRevealed = "use.mapping.revealed": "magic mapping revealed tiles that were not revealed",
    TeleportMoved = "use.teleport.moved": "a scroll of teleportation moved the player elsewhere",
    EquipWeapon = "equip.weapon": "the player wielded a weapon",
    EquipArmour = "equip.armour": "the player put on armour",
    EquipSwapped = "equip.swapped": "the player wielded or put on an item in place of another",
    ItemDropped = "item.dropped": "the player dropped an item",
    PackStackMerged = "pack.stack_merged": "a pickup joined a stack already in the pack",
    PackFull = "pack.full": "a pickup was refused: the pack had no room",
    FloorPileMerged = "floor.pile_merged": "a drop joined a pile of the same item on the floor",
    PoisonApplied = "status.poison.applied": "the player was poisoned",
    PoisonRenewed = "status.poison.renewed": "a poisoned player was poisoned again",
    PoisonTicked = "status.poison.ticked": "a round's poison bite hurt the player",
    PoisonExpired = "status.poison.expired": "the player's poisoning ran out by itself",
    PoisonKilled = "status.poison.killed": "poison killed the player",
    ConfusionPlayerApplied = "status.confusion.player.applied": "the player was confused (a confuser's hit)",
    ConfusionPlayerTicked = "status.confusion.player.ticked": "the player's confusion counted down a round and goes on",
    ConfusionPlayerExpired = "status.confusion.player.expired": "the player's confusion ran out",
    ConfusionMonsterApplied = "status.confusion.monster.applied": "a monster was confused",
    ConfusionMonsterExpired = "status.confusion.monster.expired": "a living monster's confusion ran out",
    LurchPlayer = "confused.lurch.player": "a confused player's step went another way than meant",
    LurchMonster = "confused.lurch.monster": "a confused monster's step went another way than meant",
    LurchWall = "confused.lurch.wall": "a confused creature stumbled into a wall and lost the turn",
    LurchCreature = "confused.lurch.creature": "a confused creature stumbled into another creature",
    RunRefused = "run.refused": "a run refused to start (a monster in view, or confused)",
    RunWall = "run.stopped.wall": "a run stopped before a wall",
    RunOpening = "run.stopped.opening": "a run stopped where the walls beside it changed (an opening, a junction)",
    RunMonster = "run.stopped.monster": "a run stopped for a monster coming into view",
    RunItem = "run.stopped.item": "a run stopped for an item: one seen, or one underfoot",
    RunStairs = "run.stopped.stairs": "a run stopped on the stairs or the exit",
    RunHurt = "run.stopped.hurt": "a run stopped because hit points or statuses changed",
    RunLimit = "run.stopped.limit": "a run went its whole length (the run limit)",
    ScreenPackOpened = "screen.pack.opened": "the pack was opened to browse",
    ScreenPackClosed = "screen.pack.closed": "the browsing pack was closed",
    ScreenDropOpened = "screen.drop.opened": "the pack was opened to drop",
    ScreenDropClosed = "screen.drop.closed": "the drop pack was closed",
    ScreenUseOpened = "screen.use.opened": "the pack was opened to use",
    ScreenUseClosed = "screen.use.closed": "the use pack was closed",
    ScreenThrowOpened = "screen.throw.opened": "the pack was opened to throw",
    ScreenThrowClosed = "screen.throw.closed": "the throw pack was closed",
    ScreenWearOpened = "screen.wear.opened": "the pack was opened to wear or wield",
    ScreenWearClosed = "screen.wear.closed": "the wear pack was closed",
    ScreenItemMenuOpened = "screen.item_menu.opened": "an item's menu was opened",
    ScreenItemMenuClosed = "screen.item_menu.closed": "an item's menu was closed",
    ScreenReticleOpened = "screen.reticle.opened": "the reticle was opened to aim",
    ScreenReticleClosed = "screen.reticle.closed": "the reticle was closed",
    ScreenHelpOpened = "screen.help.opened": "the help was opened",
    ScreenHelpScrolled = "screen.help.scrolled": "the help scrolled",
    ScreenHelpClosed = "screen.help.closed": "the help was closed",
    ScreenHistoryOpened = "screen.history.opened": "the message history was opened",
    ScreenHistoryScrolled = "screen.history.scrolled": "the message history scrolled",
    ScreenHistoryClosed = "screen.history.closed": "the message history was closed",
    ScreenQuitOpened = "screen.quit_prompt.opened": "the quit prompt was opened",
    ScreenQuitClosed = "screen.quit_prompt.closed": "the quit prompt was closed (answered or escaped)",
    RunWon = "end.won": "the player climbed out: the run was won",
    RunDied = "end.died": "the player died",
    RunQuit = "end.quit": "the player quit",
}

/// Situations for each monster kind (`monster.KIND.WHAT`).
pub const PER_MONSTER: [(&str, &str); 4] = [
    ("met", "a monster of the kind came into the player's view"),
    (
        "fought",
        "the player and a monster of the kind swung at each other (each swing either way)",
    ),
    ("killed", "a monster of the kind died"),
    (
        "killed_player",
        "a monster of the kind killed the player, by a blow or its poison",
    ),
];

/// Situations for each item kind (`item.KIND.WHAT`).
pub const PER_ITEM: [(&str, &str); 2] = [
    ("found", "the player picked up an item of the kind"),
    (
        "used",
        "the player drank, read, threw, wielded or put on an item of the kind",
    ),
];

/// Situations for each depth past the first (`depth.N.entered`).
pub const PER_DEPTH: (&str, &str) = ("entered", "the player took the stairs down to the depth");

/// Situations for each map generator (`floor.GENERATOR.entered`).
pub const PER_GENERATOR: (&str, &str) = (
    "entered",
    "the player arrived by the stairs on a floor the generator built",
);

/// Monster and item names as ids use them: lower case, a run of anything
/// but letters and digits written `_` ("will-o'-wisp" is `will_o_wisp`).
pub fn slug(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    out
}

/// Every situation's id for `content`, in the order [`Reach::counts`]
/// holds them: the fixed ones, then each monster kind's, each item kind's,
/// each depth's and each generator's.
pub fn ids(content: &Content) -> Vec<String> {
    let mut ids: Vec<String> = FIXED.iter().map(|(id, _)| (*id).to_string()).collect();
    for (what, _) in PER_MONSTER {
        for m in content.monsters() {
            ids.push(format!("monster.{}.{what}", slug(&m.name)));
        }
    }
    for (what, _) in PER_ITEM {
        for i in content.items() {
            ids.push(format!("item.{}.{what}", slug(&i.name)));
        }
    }
    for depth in 2..=LAST_DEPTH {
        ids.push(format!("depth.{depth}.{}", PER_DEPTH.0));
    }
    for kind in GeneratorKind::ALL {
        ids.push(format!("floor.{}.{}", slug(kind.name()), PER_GENERATOR.0));
    }
    ids
}

/// What one situation id is, for the docs and the reports: its template's
/// description.
pub fn about(id: &str) -> Option<&'static str> {
    if let Some(&(_, about)) = FIXED.iter().find(|(fixed, _)| *fixed == id) {
        return Some(about);
    }
    let mut parts = id.split('.');
    let (family, _, what) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let table: &[(&str, &str)] = match family {
        "monster" => &PER_MONSTER,
        "item" => &PER_ITEM,
        "depth" => std::slice::from_ref(&PER_DEPTH),
        "floor" => std::slice::from_ref(&PER_GENERATOR),
        _ => return None,
    };
    table.iter().find(|(w, _)| *w == what).map(|&(_, a)| a)
}

/// The situations one run reached, counted key by key ([`Reach::count`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// One count per situation, in [`ids`]'s order.
    counts: Vec<u64>,
    monsters: usize,
    items: usize,
    /// The kind of monster whose bite last poisoned the player: poison that
    /// kills later is that kind's kill.
    poisoner: Option<MonsterId>,
}

impl Reach {
    /// Nothing reached yet, for a run of a game with `content`.
    pub fn new(content: &Content) -> Reach {
        let monsters = content.monsters().len();
        let items = content.items().len();
        let len = FIXED.len()
            + PER_MONSTER.len() * monsters
            + PER_ITEM.len() * items
            + (LAST_DEPTH as usize - 1)
            + GeneratorKind::ALL.len();
        Reach {
            counts: vec![0; len],
            monsters,
            items,
            poisoner: None,
        }
    }

    /// How often each situation was reached, in [`ids`]'s order.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    fn add(&mut self, at: At) {
        self.counts[at as usize] += 1;
    }

    /// `which` of [`PER_MONSTER`] for `kind`.
    fn monster(&mut self, which: usize, kind: MonsterId) {
        let kind = usize::from(kind.0);
        if kind < self.monsters {
            self.counts[FIXED.len() + which * self.monsters + kind] += 1;
        }
    }

    /// `which` of [`PER_ITEM`] for `kind`.
    fn item(&mut self, which: usize, kind: ItemId) {
        let kind = usize::from(kind.0);
        if kind < self.items {
            let base = FIXED.len() + PER_MONSTER.len() * self.monsters;
            self.counts[base + which * self.items + kind] += 1;
        }
    }

    fn depth(&mut self, depth: u32) {
        if (2..=LAST_DEPTH).contains(&depth) {
            let base =
                FIXED.len() + PER_MONSTER.len() * self.monsters + PER_ITEM.len() * self.items;
            self.counts[base + depth as usize - 2] += 1;
        }
    }

    fn generator(&mut self, kind: GeneratorKind) {
        let base = FIXED.len()
            + PER_MONSTER.len() * self.monsters
            + PER_ITEM.len() * self.items
            + (LAST_DEPTH as usize - 1);
        if let Some(i) = GeneratorKind::ALL.iter().position(|&k| k == kind) {
            self.counts[base + i] += 1;
        }
    }

    /// Counts what the key `before` was taken for reached: `game` is the
    /// state after it, `events` its record and `revealed_before` the tiles
    /// revealed before it and the floor they were on (counted by the caller,
    /// which counts them after every key anyway, so that a watch taken for
    /// a run nobody tallies need not). Call it after the key passed its
    /// checks, so what is counted is what the rules allow.
    pub fn count(
        &mut self,
        before: &TurnWatch,
        game: &Game,
        events: &[Event],
        revealed_before: (usize, u32),
    ) {
        let key = Key {
            before,
            game,
            events,
            revealed_before,
        };
        self.blows(&key);
        self.sight(&key);
        self.items_moved(&key);
        self.effects(&key);
        self.statuses(&key);
        self.stumbles(&key);
        self.screens(&key);
        if before.playing && before.screens.is_empty() && !before.queued_player {
            if let Some(Command::Run(dir)) = map_command(before.key) {
                self.add(run_stop(&key, dir));
            }
        }
        self.floors_and_ends(&key);
    }

    /// Swings and deaths: who fought whom, who died and who killed the
    /// player.
    fn blows(&mut self, key: &Key) {
        let mut last_blow: Option<Who> = None;
        for (i, event) in key.events.iter().enumerate() {
            match *event {
                Event::Attack {
                    attacker,
                    defender,
                    missile,
                    hit,
                    ..
                } => {
                    last_blow = Some(attacker);
                    self.blow(key, attacker, defender, missile.is_some(), hit);
                }
                Event::Died {
                    who: Who::Monster(id),
                } => self.monster_died(key, i, id),
                Event::Died { who: Who::Player } => self.player_died(key, i, last_blow),
                Event::Status {
                    who: Who::Player,
                    change: StatusChange::Poisoned { .. },
                } => {
                    if let Some(kind) = last_blow.and_then(|who| key.kind_of(who)) {
                        self.poisoner = Some(kind);
                    }
                }
                _ => {}
            }
        }
    }

    /// A swing, thrown (`missile`) or not, and the foe the player fought.
    fn blow(&mut self, key: &Key, attacker: Who, defender: Who, missile: bool, hit: bool) {
        match (attacker, defender, missile) {
            (Who::Player, Who::Monster(_), true) => {
                self.add(if hit { At::ThrowHit } else { At::ThrowMissed });
            }
            (Who::Player, Who::Monster(_), false) => self.add(if hit {
                At::MeleePlayerHit
            } else {
                At::MeleePlayerMissed
            }),
            (Who::Monster(_), Who::Player, _) => self.add(if hit {
                At::MeleeMonsterHit
            } else {
                At::MeleeMonsterMissed
            }),
            (Who::Monster(_), Who::Monster(_), _) => self.add(At::MeleeMonsterOnMonster),
            _ => {}
        }
        let foe = match (attacker, defender) {
            (Who::Player, foe) | (foe, Who::Player) => key.kind_of(foe),
            _ => None,
        };
        if let Some(kind) = foe {
            self.monster(1, kind);
        }
    }

    /// Monster `id` died at the key's event `i`: its kind's death, and
    /// whether a missile killed it.
    fn monster_died(&mut self, key: &Key, i: usize, id: MonsterRef) {
        if let Some(kind) = key.kind_of(Who::Monster(id)) {
            self.monster(2, kind);
        }
        let by_missile = key.events[..i].iter().rev().find_map(|e| match e {
            Event::Attack {
                defender, missile, ..
            } if *defender == Who::Monster(id) => Some(missile.is_some()),
            _ => None,
        });
        if by_missile == Some(true) {
            self.add(At::ThrowKilled);
        }
    }

    /// The player died at the key's event `i`: of poison, or by the last
    /// blow struck (`last_blow`'s attacker), and who the killer was.
    fn player_died(&mut self, key: &Key, i: usize, last_blow: Option<Who>) {
        let by_poison = matches!(
            key.events[..i].last(),
            Some(Event::HitPoints {
                cause: HpCause::Poison,
                ..
            })
        );
        let killer = if by_poison {
            self.add(At::PoisonKilled);
            self.poisoner
        } else {
            last_blow.and_then(|who| key.kind_of(who))
        };
        if let Some(kind) = killer {
            self.monster(3, kind);
        }
    }

    /// Monsters coming into view, noticing the player, and losing sight.
    fn sight(&mut self, key: &Key) {
        let state = key.game.state();
        let map = &state.floor.map;
        let same_floor = state.depth == key.before.depth;
        for m in &state.monsters {
            if !map.is_visible(m.pos) {
                continue;
            }
            let was_in_view = same_floor
                && key
                    .before
                    .monsters
                    .iter()
                    .any(|s| s.who == Who::Monster(m.id) && s.visible);
            if !was_in_view {
                self.monster(0, m.kind);
            }
        }
        for event in key.events {
            if let Event::Noticed { id } = *event
                && key.seen(Who::Monster(id)).is_some_and(|s| !s.awake)
            {
                self.add(At::MonsterWoke);
            }
        }
        if !same_floor || key.game.is_over() {
            return;
        }
        for s in &key.before.monsters {
            if !(s.visible && s.awake) {
                continue;
            }
            let now = state.monsters.iter().find(|m| Who::Monster(m.id) == s.who);
            if now.is_some_and(|m| !map.is_visible(m.pos)) {
                self.add(At::MonsterLostSight);
            }
        }
    }

    /// Items between the pack and the floor: finds, drops, merges, and a
    /// pickup the full pack refused.
    fn items_moved(&mut self, key: &Key) {
        let mut moved = false;
        for event in key.events {
            let Event::Items {
                item,
                count: _,
                from,
                to,
            } = *event
            else {
                continue;
            };
            moved = true;
            match (from, to) {
                (Place::Floor(_), Place::Pack(slot)) => {
                    self.item(0, item);
                    if key.before.pack.get(slot).is_some_and(|s| s.item == item) {
                        self.add(At::PackStackMerged);
                    }
                }
                (Place::Pack(_), Place::Floor(at)) => {
                    self.add(At::ItemDropped);
                    if key
                        .before
                        .items
                        .iter()
                        .any(|&(pos, kind, _)| pos == at && kind == item)
                    {
                        self.add(At::FloorPileMerged);
                    }
                }
                _ => {}
            }
        }
        let picking_up = key.before.playing
            && key.before.screens.is_empty()
            && map_command(key.before.key) == Some(Command::PickUp);
        let here = key.before.player.pos;
        if picking_up && !moved && key.before.items.iter().any(|&(pos, _, _)| pos == here) {
            self.add(At::PackFull);
        }
    }

    /// What each item used did.
    fn effects(&mut self, key: &Key) {
        let content = key.game.content();
        let state = key.game.state();
        let mut scroll_of_confusion = false;
        let mut antidote = false;
        let mut cured = false;
        for event in key.events {
            match *event {
                Event::Items {
                    item,
                    to: Place::Used,
                    ..
                } => {
                    self.item(1, item);
                    match content.item(item).effect {
                        ItemEffect::Confuse { .. } => scroll_of_confusion = true,
                        ItemEffect::CurePoison => antidote = true,
                        _ => {}
                    }
                }
                Event::Thrown { item, .. } => self.item(1, item),
                Event::Equipped { slot, worn } => self.equipped(key, slot, worn),
                Event::HitPoints {
                    who: Who::Player,
                    before,
                    after,
                    cause: HpCause::Heal { .. },
                } => self.add(if after > before {
                    At::HealHealed
                } else {
                    At::HealAtFull
                }),
                Event::Status {
                    who: Who::Player,
                    change: StatusChange::Cured,
                } => cured = true,
                Event::Status {
                    who: Who::Monster(_),
                    change: StatusChange::Confused { .. },
                } if scroll_of_confusion => self.add(At::ConfusionTook),
                Event::MapRevealed
                    if state.depth == key.revealed_before.1
                        && state.floor.map.revealed.count() > key.revealed_before.0 =>
                {
                    self.add(At::MappingRevealed);
                }
                Event::Teleported { from, to } if from != to && state.player.pos == to => {
                    self.add(At::TeleportMoved);
                }
                _ => {}
            }
        }
        if cured {
            self.add(At::AntidoteCured);
        } else if antidote {
            self.add(At::AntidoteNothing);
        }
        self.throws_landed_empty(key);
    }

    /// The item in pack slot `slot` wielded, or `worn`, and whether it took
    /// the place of another.
    fn equipped(&mut self, key: &Key, slot: u8, worn: bool) {
        if let Some(stack) = key.before.pack.get(slot) {
            self.item(1, stack.item);
        }
        self.add(if worn {
            At::EquipArmour
        } else {
            At::EquipWeapon
        });
        let held = if worn {
            key.before.worn
        } else {
            key.before.wielded
        };
        if held.is_some_and(|held| held != slot) {
            self.add(At::EquipSwapped);
        }
    }

    /// Each missile thrown that struck nobody.
    fn throws_landed_empty(&mut self, key: &Key) {
        for (i, event) in key.events.iter().enumerate() {
            if matches!(event, Event::Thrown { .. })
                && !matches!(
                    key.events.get(i + 1),
                    Some(Event::Attack {
                        missile: Some(_),
                        ..
                    })
                )
            {
                self.add(At::ThrowLandedEmpty);
            }
        }
    }

    /// Statuses given, ticking and running out.
    fn statuses(&mut self, key: &Key) {
        let was = &key.before.player;
        let state = key.game.state();
        let now = &state.player.statuses;
        let mut cured = false;
        for event in key.events {
            match *event {
                Event::Status {
                    who: Who::Player,
                    change,
                } => match change {
                    StatusChange::Poisoned { .. } if was.poison.is_some() => {
                        self.add(At::PoisonRenewed)
                    }
                    StatusChange::Poisoned { .. } => self.add(At::PoisonApplied),
                    StatusChange::Confused { .. } => self.add(At::ConfusionPlayerApplied),
                    StatusChange::Cured => cured = true,
                },
                Event::Status {
                    who: Who::Monster(_),
                    change: StatusChange::Confused { .. },
                } => self.add(At::ConfusionMonsterApplied),
                Event::HitPoints {
                    who: Who::Player,
                    cause: HpCause::Poison,
                    ..
                } => self.add(At::PoisonTicked),
                _ => {}
            }
        }
        let alive = !key.game.is_over();
        if alive && state.depth == key.before.depth {
            if was.poison.is_some() && now.poison.is_none() && !cured {
                self.add(At::PoisonExpired);
            }
            if was.confused > 0 && now.confused == 0 {
                self.add(At::ConfusionPlayerExpired);
            }
            if was.confused > now.confused && now.confused > 0 {
                self.add(At::ConfusionPlayerTicked);
            }
            for s in &key.before.monsters {
                let Who::Monster(id) = s.who else { continue };
                if s.confused > 0
                    && state
                        .monsters
                        .iter()
                        .any(|m| m.id == id && m.statuses.confused == 0)
                {
                    self.add(At::ConfusionMonsterExpired);
                }
            }
        }
    }

    /// Confused steps that went astray, and where they went.
    fn stumbles(&mut self, key: &Key) {
        let mut intended: Option<(Who, Dir)> = None;
        for event in key.events {
            match *event {
                Event::Lurch {
                    who, intended: dir, ..
                } => intended = Some((who, dir)),
                Event::Step {
                    who,
                    dir,
                    confused: true,
                    result,
                    ..
                } => {
                    let astray = intended.is_some_and(|(w, meant)| w == who && meant != dir);
                    intended = None;
                    if astray {
                        self.add(if who == Who::Player {
                            At::LurchPlayer
                        } else {
                            At::LurchMonster
                        });
                    }
                    match result {
                        StepResult::Wasted => self.add(At::LurchWall),
                        StepResult::Attack if astray => self.add(At::LurchCreature),
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }

    /// Screens opened, scrolled and closed: the stacks before and after,
    /// told apart by kind past the part they share.
    fn screens(&mut self, key: &Key) {
        let before = &key.before.screens;
        let after = &key.game.state().screens;
        let shared = before
            .iter()
            .zip(after)
            .take_while(|(a, b)| screen_kind(a) == screen_kind(b))
            .count();
        for screen in &before[shared..] {
            self.add(screen_kind(screen).closed);
        }
        for screen in &after[shared..] {
            self.add(screen_kind(screen).opened);
        }
        if shared > 0 {
            match (&before[shared - 1], &after[shared - 1]) {
                (Screen::Help { top: a }, Screen::Help { top: b }) if a != b => {
                    self.add(At::ScreenHelpScrolled)
                }
                (Screen::History { top: a }, Screen::History { top: b }) if a != b => {
                    self.add(At::ScreenHistoryScrolled)
                }
                _ => {}
            }
        }
    }

    /// Floors entered by the stairs, and how the run ended.
    fn floors_and_ends(&mut self, key: &Key) {
        let state = key.game.state();
        for event in key.events {
            if let Event::Descended { depth } = *event {
                self.depth(depth);
                if depth == state.depth {
                    self.generator(state.floor.generator);
                }
            }
        }
        if key.before.playing {
            match state.status {
                RunStatus::Playing => {}
                RunStatus::Won { .. } => self.add(At::RunWon),
                RunStatus::Died(_) => self.add(At::RunDied),
                RunStatus::Quit { .. } => self.add(At::RunQuit),
            }
        }
    }
}

/// One key as counting reads it.
struct Key<'a> {
    before: &'a TurnWatch,
    game: &'a Game,
    events: &'a [Event],
    /// Tiles revealed before the key, and the floor they were on.
    revealed_before: (usize, u32),
}

impl Key<'_> {
    /// The creature as the watch saw it before the key.
    fn seen(&self, who: Who) -> Option<&Seen> {
        self.before.monsters.iter().find(|s| s.who == who)
    }

    /// A monster's kind, from before the key or (for one that arrived
    /// during it) after.
    fn kind_of(&self, who: Who) -> Option<MonsterId> {
        let Who::Monster(id) = who else { return None };
        self.seen(who).and_then(|s| s.kind).or_else(|| {
            let state = self.game.state();
            state.monsters.iter().find(|m| m.id == id).map(|m| m.kind)
        })
    }
}

/// A screen's kind, with the situations of its opening and closing.
#[derive(PartialEq, Eq)]
struct ScreenKind {
    opened: At,
    closed: At,
}

fn screen_kind(screen: &Screen) -> ScreenKind {
    let (opened, closed) = match screen {
        Screen::Pack(PackMode::Browse) => (At::ScreenPackOpened, At::ScreenPackClosed),
        Screen::Pack(PackMode::Drop) => (At::ScreenDropOpened, At::ScreenDropClosed),
        Screen::Pack(PackMode::Apply) => (At::ScreenUseOpened, At::ScreenUseClosed),
        Screen::Pack(PackMode::Throw) => (At::ScreenThrowOpened, At::ScreenThrowClosed),
        Screen::Pack(PackMode::Wear) => (At::ScreenWearOpened, At::ScreenWearClosed),
        Screen::ItemMenu { .. } => (At::ScreenItemMenuOpened, At::ScreenItemMenuClosed),
        Screen::Reticle(_) => (At::ScreenReticleOpened, At::ScreenReticleClosed),
        Screen::Help { .. } => (At::ScreenHelpOpened, At::ScreenHelpClosed),
        Screen::History { .. } => (At::ScreenHistoryOpened, At::ScreenHistoryClosed),
        Screen::QuitPrompt => (At::ScreenQuitOpened, At::ScreenQuitClosed),
    };
    ScreenKind { opened, closed }
}

/// Why a run (Shift + `dir` on the map) stopped where it did, told from the
/// state after it by the stop rule written a second time: refused at the
/// start; or, after its last step, the run over, something the player
/// notices changed (hit points, statuses, an item seen), a monster in view,
/// an item or the stairs underfoot, the whole length gone; or, had it gone
/// on, a wall ahead, or the walls beside it changed.
fn run_stop(key: &Key, dir: Dir) -> At {
    let state = key.game.state();
    let map = &state.floor.map;
    let before = key.before;
    let steps = key
        .events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Step {
                    who: Who::Player,
                    ..
                }
            )
        })
        .count();
    let here = state.player.pos;
    // A creature ahead stops a run too, but is never what stops it: the
    // tiles round the player are always in view, so a creature next to it
    // is a monster in view, which stops the run (or refuses it) first.
    let wall_ahead = !map.can_step(here, dir);
    if steps == 0 {
        if before.monster_in_view || before.player.confused > 0 {
            return At::RunRefused;
        }
        return At::RunWall;
    }
    let player = &before.player;
    let statuses = &state.player.statuses;
    if key.game.is_over()
        || state.player.hp != player.hp
        || statuses.is_poisoned() != player.poison.is_some()
        || statuses.is_confused() != (player.confused > 0)
    {
        return At::RunHurt;
    }
    if state.items.iter().filter(|i| i.seen).count() != before.items_seen
        || state.items.iter().any(|i| i.pos == here)
    {
        return At::RunItem;
    }
    if state.monsters.iter().any(|m| map.is_visible(m.pos)) {
        return At::RunMonster;
    }
    if matches!(
        map.tile(here),
        game_core::map::Tile::StairsDown | game_core::map::Tile::Exit
    ) {
        return At::RunStairs;
    }
    if steps as u32 >= RUN_LIMIT {
        return At::RunLimit;
    }
    if wall_ahead {
        At::RunWall
    } else {
        At::RunOpening
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_each_has_its_description() {
        let content = Content::embedded();
        let ids = ids(&content);
        let mut sorted = ids.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), ids.len(), "duplicate situation ids");
        assert_eq!(ids.len(), Reach::new(&content).counts().len());
        for id in &ids {
            assert!(about(id).is_some(), "{id} has no description");
        }
    }

    #[test]
    fn slugs_keep_letters_and_digits_and_join_the_rest() {
        assert_eq!(slug("will-o'-wisp"), "will_o_wisp");
        assert_eq!(slug("giant newt"), "giant_newt");
        assert_eq!(slug("big-room"), "big_room");
        assert_eq!(slug("  Odd  Name!! "), "odd_name");
    }
}
