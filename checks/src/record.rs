//! Rules that explain every change: the record a press returns
//! ([`game_core::game::events`]) replayed against a model of the state before
//! the key, event by event, each held to the rules' own bounds; then the
//! model must be the state after the key.
//!
//! So hit points change only by recorded damage and healing, a swing's d20
//! and damage lie within the rules and the attacker's dice, an item is never
//! made or lost but by a recorded pickup, drop, throw or use, a creature
//! moves only by legal recorded steps, one per action, a status counts down
//! once a round and ends, a round ticks for every hundred of the clock, and a
//! message names only monsters in view. The rules are written here a second
//! time, plainly, from the design (the to-hit roll, the heal cap, the step
//! rule through [`crate::oracle`]), never by calling the functions they
//! check.

use std::collections::VecDeque;

use game_core::content::{ItemEffect, ItemId, MonsterId};
use game_core::dice::Dice;
use game_core::fov::{self, SIGHT_RADIUS};
use game_core::game::Game;
use game_core::game::events::{Event, HpCause, Place, StatusChange, Who};
use game_core::game::state::{MAX_STACK, PACK_SLOTS, Pack, RunStatus, Stack, slot_letter};
use game_core::game::turn::Actor;
use game_core::geom::{Dir, Pos};
use game_core::map::{Map, Tile};
use game_core::rules;

use crate::catalogue::{Id, Violation, violation};
use crate::describe::{Words, describe_event, describe_slot, stack_words};
use crate::oracle;
use crate::watch::{Seen, TurnWatch};

/// A creature as the record has left it so far.
#[derive(Clone, Debug)]
struct Creature {
    who: Who,
    kind: Option<MonsterId>,
    pos: Pos,
    hp: i32,
    max_hp: i32,
    poison: Option<(u32, Dice)>,
    confused: u32,
    awake: bool,
    alive: bool,
    /// It has stepped in its current turn (a monster) or action (the player).
    stepped: bool,
    /// A monster's time: when its first turn of the key is due, how long
    /// each of its turns takes at its speed, and how many it has taken.
    due: Option<u64>,
    interval: u64,
    turns: u64,
}

/// What every action costs, the player's and each monster's turn alike: a
/// step, 100 hundredths (the design's base cost).
const ACTION_COST: u64 = 100;

/// The time an action of `cost` takes an actor of `speed` percent, as the
/// design gives it: the cost scaled by 100 over the speed, in whole
/// hundredths, never less than 1 so that the clock always moves.
fn time_taken(cost: u64, speed: u32) -> u64 {
    (cost * 100 / u64::from(speed.max(1))).max(1)
}

impl Creature {
    fn from_seen(seen: &Seen, game: &Game) -> Creature {
        let speed = seen.kind.map_or(rules::PLAYER_SPEED, |kind| {
            game.content().monster(kind).speed
        });
        Creature {
            who: seen.who,
            kind: seen.kind,
            pos: seen.pos,
            hp: seen.hp,
            max_hp: seen.max_hp,
            poison: seen.poison,
            confused: seen.confused,
            awake: seen.awake,
            alive: seen.alive,
            stepped: false,
            due: seen.due,
            interval: time_taken(ACTION_COST, speed),
            turns: 0,
        }
    }
}

/// What the record must say next.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// A swing or missile, after a step that found someone or a throw that
    /// came down on someone.
    Attack {
        attacker: Who,
        defender: Who,
        missile: Option<ItemId>,
    },
    /// The wound of a swing that connected.
    Blow {
        attacker: Who,
        defender: Who,
        damage: i32,
    },
    Death {
        who: Who,
        by_player: bool,
    },
    /// A poisoner's hit poisons for this many rounds with these dice.
    Dose {
        who: Who,
        rounds: u32,
        dice: Dice,
    },
    /// A confuser's hit confuses for this many rounds.
    Confusion {
        who: Who,
        rounds: u32,
    },
    /// A scroll of confusion read at a monster, for `turns`.
    ScrollConfusion {
        turns: u32,
    },
    Heal {
        dice: Dice,
    },
    Cure,
    Reveal,
    /// A round's poison bite.
    Bite {
        who: Who,
        dice: Dice,
    },
    /// A confused creature's step, the way its roll sent it.
    Lurch {
        who: Who,
        dir: Dir,
    },
}

impl Expect {
    fn id(self) -> Id {
        match self {
            Expect::Attack { .. } | Expect::Blow { .. } => Id::CombatRules,
            Expect::Lurch { .. } => Id::MoveLegal,
            Expect::Death { .. } | Expect::Heal { .. } | Expect::Bite { .. } => Id::HpExplained,
            Expect::Dose { .. }
            | Expect::Confusion { .. }
            | Expect::ScrollConfusion { .. }
            | Expect::Cure => Id::StatusRules,
            Expect::Reveal => Id::ItemsConserved,
        }
    }
}

/// The model the record is replayed on.
struct Model<'a> {
    game: &'a Game,
    /// The player first, then the monsters in spawn order.
    creatures: Vec<Creature>,
    pack: Pack,
    wielded: Option<u8>,
    worn: Option<u8>,
    /// Floor piles: (where, what, how many); several may share a tile.
    items: Vec<(Pos, ItemId, u32)>,
    depth: u32,
    expect: VecDeque<Expect>,
    /// The next creature to tick in the round under way.
    ticking: Option<usize>,
    /// A scroll of teleportation was read: the next event may move the player.
    teleport: bool,
    /// Whose monster turn is under way.
    turn_of: Option<Who>,
    rounds: u64,
    acted: u32,
    kills: u32,
    revealed_all: bool,
    /// Events before this index happened on a floor left behind: their steps
    /// cannot be held to the map the game now has.
    new_floor_from: usize,
    /// The key began on the player's turn with the game in play, so its
    /// time can be held to the rules: the clock stood at the player's turn.
    timed: bool,
    /// When the player's next turn is due, from the actions so far.
    player_time: u64,
    /// The player's action under way, from its start to the player's next
    /// turn: every monster turn of it falls in here.
    action_span: (u64, u64),
    /// Noticing is under way: the player has just acted (monsters in view
    /// notice straight after), so the next event that is not a notice ends it.
    noticing: bool,
    /// The reference field of view, from where the player stood when it was
    /// last needed, out to how many rows it was scanned.
    sight: Option<(Pos, i32, game_core::map::BitGrid)>,
    found: Vec<Violation>,
}

/// Replays `events`, the record of the key `before` was taken for, and
/// checks the state `game` is left in against it.
pub(super) fn check_record(
    before: &TurnWatch,
    game: &Game,
    events: &[Event],
    found: &mut Vec<Violation>,
) {
    let mut model = Model {
        game,
        creatures: std::iter::once(&before.player)
            .chain(&before.monsters)
            .map(|seen| Creature::from_seen(seen, game))
            .collect(),
        pack: before.pack.clone(),
        wielded: before.wielded,
        worn: before.worn,
        items: before.items.clone(),
        depth: before.depth,
        expect: VecDeque::new(),
        ticking: None,
        teleport: false,
        turn_of: None,
        rounds: 0,
        acted: 0,
        kills: 0,
        revealed_all: false,
        new_floor_from: events
            .iter()
            .position(|e| matches!(e, Event::Descended { .. }))
            .unwrap_or(0),
        timed: before.playing && !before.queued_player,
        player_time: before.clock,
        action_span: (before.clock, before.clock),
        noticing: false,
        sight: None,
        found: Vec::new(),
    };
    for (index, &event) in events.iter().enumerate() {
        if model.noticing && !matches!(event, Event::Noticed { .. }) {
            model.noticing = false;
            model.all_in_view_noticed(index, "after the player acted");
        }
        model.on(index, event, before);
        if model.found.len() > 4 {
            break; // the first few say what went wrong; the rest follow from them
        }
        if model.expect.is_empty() {
            model.advance_ticks();
        }
    }
    if model.noticing {
        model.all_in_view_noticed(events.len(), "after the player acted");
    }
    if let Some(&missing) = model.expect.front() {
        model.fail(
            missing.id(),
            format!(
                "the record ends while {} is still owed",
                model.describe_expect(missing)
            ),
        );
    }
    if model.found.is_empty() {
        model.reconcile(before);
    }
    found.append(&mut model.found);
}

impl Model<'_> {
    fn fail(&mut self, id: Id, message: String) {
        self.found.push(violation(id, message));
    }

    fn map(&self) -> &Map {
        &self.game.state().floor.map
    }

    fn index_of(&self, who: Who) -> Option<usize> {
        self.creatures.iter().position(|c| c.who == who)
    }

    fn creature(&self, who: Who) -> Option<&Creature> {
        self.creatures.iter().find(|c| c.who == who)
    }

    fn player(&self) -> &Creature {
        &self.creatures[0]
    }

    fn occupant(&self, at: Pos, except: Who) -> Option<Who> {
        self.creatures
            .iter()
            .find(|c| c.alive && c.pos == at && c.who != except)
            .map(|c| c.who)
    }

    fn name(&self, who: Who) -> String {
        match (who, self.creature(who).and_then(|c| c.kind)) {
            (Who::Player, _) => "the player".into(),
            (Who::Monster(id), Some(kind)) => {
                format!(
                    "monster {} ({})",
                    id.0,
                    self.game.content().monster(kind).name
                )
            }
            (Who::Monster(id), None) => format!("monster {}", id.0),
        }
    }

    /// An owed event, as a report says it.
    fn describe_expect(&self, owed: Expect) -> String {
        match owed {
            Expect::Attack {
                attacker,
                defender,
                missile: None,
            } => format!(
                "a swing by {} at {}",
                self.name(attacker),
                self.name(defender)
            ),
            Expect::Attack {
                attacker,
                defender,
                missile: Some(item),
            } => format!(
                "{} thrown by {} at {}",
                self.game.content().item(item).describe(1),
                self.name(attacker),
                self.name(defender)
            ),
            Expect::Blow {
                attacker,
                defender,
                damage,
            } => format!(
                "the wound of {damage} that {} dealt {}",
                self.name(attacker),
                self.name(defender)
            ),
            Expect::Death { who, .. } => format!("the death of {}", self.name(who)),
            Expect::Dose { who, rounds, dice } => format!(
                "{} being poisoned for {rounds} rounds ({dice} a round)",
                self.name(who)
            ),
            Expect::Confusion { who, rounds } => {
                format!("{} being confused for {rounds} rounds", self.name(who))
            }
            Expect::ScrollConfusion { turns } => {
                format!("a scroll of confusion confusing its target for {turns} rounds")
            }
            Expect::Heal { dice } => format!("a potion healing {dice}"),
            Expect::Cure => "the player being cured of poison".into(),
            Expect::Reveal => "a scroll of magic mapping revealing the floor".into(),
            Expect::Bite { who, dice } => {
                format!("a round's poison bite of {dice} on {}", self.name(who))
            }
            Expect::Lurch { who, dir } => {
                format!("a confused step by {} going {}", self.name(who), dir.name())
            }
        }
    }

    /// What a pack slot holds, as a report says it: "3 darts", "nothing".
    fn describe_stack(&self, stack: Option<Stack>) -> String {
        stack.map_or_else(
            || "nothing".into(),
            |s| stack_words(&s, self.game.content()),
        )
    }

    /// The expectation at the front, taken if `matches` says it is the one.
    fn take(&mut self, matches: impl Fn(Expect) -> bool) -> Option<Expect> {
        let front = *self.expect.front()?;
        if matches(front) {
            self.expect.pop_front();
            Some(front)
        } else {
            None
        }
    }

    fn on(&mut self, index: usize, event: Event, before: &TurnWatch) {
        self.owed_answered(event);
        let teleport = std::mem::take(&mut self.teleport);
        match event {
            Event::PlayerActed { cost } => self.player_acted(cost),
            Event::MonsterTurn { id } => self.monster_turn(id),
            Event::Round => self.round(),
            Event::Lurch {
                who,
                intended,
                hijack,
                direction,
            } => self.lurch(who, intended, hijack, direction),
            Event::Step {
                who,
                from,
                dir,
                confused,
                result,
            } => self.step(index, who, from, dir, confused, result),
            Event::Attack {
                attacker,
                defender,
                missile,
                roll,
                hit,
                damage,
            } => self.attack(attacker, defender, missile, roll, hit, damage),
            Event::HitPoints {
                who,
                before,
                after,
                cause,
            } => self.hit_points(who, before, after, cause),
            Event::Died { who } => self.died(who),
            Event::Status { who, change } => self.status(who, change),
            Event::Items {
                item,
                count,
                from,
                to,
            } => self.items(item, count, from, to),
            Event::Thrown {
                item,
                slot,
                landing,
            } => self.thrown(item, slot, landing),
            Event::Equipped { slot, worn } => self.equipped(slot, worn),
            Event::Teleported { from, to } => self.teleported(teleport, from, to),
            Event::MapRevealed => self.map_revealed(),
            Event::Descended { depth } => self.descended(depth, before),
            Event::Noticed { id } => self.monster_noticed(index, id),
            Event::Named { who } => self.named(index, who),
        }
    }

    /// An event that is not naming or noticing must answer what the record
    /// owes first (a blow's hit points after its attack, and so on), or
    /// what was owed is reported and dropped.
    fn owed_answered(&mut self, event: Event) {
        // Naming and noticing happen alongside everything else: they never
        // stand in for an owed event.
        let out_of_band = matches!(event, Event::Named { .. } | Event::Noticed { .. });
        if !out_of_band && let Some(&owed) = self.expect.front() {
            let answers = matches!(
                (owed, event),
                (Expect::Attack { .. }, Event::Attack { .. })
                    | (Expect::Blow { .. }, Event::HitPoints { .. })
                    | (Expect::Bite { .. }, Event::HitPoints { .. })
                    | (Expect::Heal { .. }, Event::HitPoints { .. })
                    | (Expect::Death { .. }, Event::Died { .. })
                    | (Expect::Dose { .. }, Event::Status { .. })
                    | (Expect::Confusion { .. }, Event::Status { .. })
                    | (Expect::ScrollConfusion { .. }, Event::Status { .. })
                    | (Expect::Cure, Event::Status { .. })
                    | (Expect::Reveal, Event::MapRevealed)
                    | (Expect::Lurch { .. }, Event::Step { .. })
            );
            if !answers {
                self.fail(
                    owed.id(),
                    format!(
                        "{} was owed, but the record goes on: {}",
                        self.describe_expect(owed),
                        describe_event(&event, self.game.content(), |who| self.name(who))
                    ),
                );
                self.expect.clear();
            }
        }
    }

    /// A round began: the creatures tick from the first.
    fn round(&mut self) {
        self.rounds += 1;
        self.turn_of = None;
        self.ticking = Some(0);
    }

    /// Monster `id` noticed the player at the key's event `index`: it must
    /// be on the floor.
    fn monster_noticed(&mut self, index: usize, id: game_core::game::state::MonsterRef) {
        match self.index_of(Who::Monster(id)) {
            Some(i) if self.creatures[i].alive => self.noticed(index, i),
            _ => self.fail(
                Id::MonsterNotice,
                format!(
                    "monster {} noticed the player but is not on the floor",
                    id.0
                ),
            ),
        }
    }

    fn monster_turn(&mut self, id: game_core::game::state::MonsterRef) {
        let who = Who::Monster(id);
        match self.index_of(who) {
            Some(i) if self.creatures[i].alive => {
                self.creatures[i].stepped = false;
                self.turn_of = Some(who);
                self.monster_turn_time(i);
            }
            _ => self.fail(
                Id::MoveLegal,
                format!("monster {} took a turn but is not on the floor", id.0),
            ),
        }
    }

    /// The whole floor revealed: only a scroll of magic mapping does it.
    fn map_revealed(&mut self) {
        if self.take(|e| matches!(e, Expect::Reveal)).is_none() {
            self.fail(
                Id::ItemsConserved,
                "the floor was revealed without a scroll of magic mapping".into(),
            );
        }
        self.revealed_all = true;
    }

    /// The player's action spent `cost`: it is counted, and monsters in view
    /// notice straight after. The cost must be what every action costs, and
    /// the action runs from the player's turn to the next one, the cost at
    /// the player's speed later.
    fn player_acted(&mut self, cost: u64) {
        self.acted += 1;
        self.creatures[0].stepped = false;
        self.turn_of = None;
        self.noticing = true;
        if !self.timed {
            return;
        }
        if cost != ACTION_COST {
            self.fail(
                Id::ClockTime,
                format!(
                    "the player's action cost {cost}; every action costs {ACTION_COST} (a step)"
                ),
            );
        }
        let start = self.player_time;
        self.player_time = start + time_taken(cost, rules::PLAYER_SPEED);
        self.action_span = (start, self.player_time);
    }

    /// A monster's turn came round: by its speed it was due at its first
    /// turn's time and one interval later for each turn since, and that
    /// time lies within the player's action under way (a turn due at the
    /// very moment the player's action starts or ends may fall either side,
    /// as the queue's ties go).
    fn monster_turn_time(&mut self, i: usize) {
        if !self.timed {
            return;
        }
        let c = &mut self.creatures[i];
        let Some(due) = c.due else { return };
        let at = due + c.turns * c.interval;
        c.turns += 1;
        let (start, end) = self.action_span;
        if at < start || at > end {
            let (interval, who) = (c.interval, c.who);
            self.fail(
                Id::ClockTime,
                format!(
                    "{} took its turn due at {at} (one every {interval} from {due}) in the player's action from {start} to {end}",
                    self.name(who)
                ),
            );
        }
    }

    /// Whether the player standing at `viewer` sees `at`, by the reference
    /// field of view (kept while the player stays put).
    fn sees(&mut self, viewer: Pos, at: Pos) -> bool {
        let game = self.game;
        let map = &game.state().floor.map;
        if !map.in_bounds(at) {
            return false;
        }
        if !oracle::within_sight(viewer, at) {
            return false;
        }
        let view = self.look_out(viewer, viewer.chebyshev(at));
        view.get(map.xy_idx(at))
    }

    /// The reference field of view from `viewer` at least `rows` rows out:
    /// the kept one when it is from there and as deep, else scanned again
    /// only as deep as asked (the scan costs the square of its depth).
    fn look_out(&mut self, viewer: Pos, rows: i32) -> &game_core::map::BitGrid {
        let game = self.game;
        let map = &game.state().floor.map;
        if self
            .sight
            .as_ref()
            .is_none_or(|(from, deep, _)| *from != viewer || *deep < rows)
        {
            let view = oracle::field_of_view_within(map, viewer, SIGHT_RADIUS, rows);
            self.sight = Some((viewer, rows, view));
        }
        &self.sight.as_ref().expect("just scanned").2
    }

    /// Monster `i` noticed the player: it was asleep, and the player could
    /// see its tile (sight is symmetric, so it saw the player).
    fn noticed(&mut self, index: usize, i: usize) {
        let (who, at, awake) = {
            let c = &self.creatures[i];
            (c.who, c.pos, c.awake)
        };
        self.creatures[i].awake = true;
        if index < self.new_floor_from {
            return; // on a floor left behind, whose map is gone
        }
        let viewer = self.player().pos;
        if awake {
            self.fail(
                Id::MonsterNotice,
                format!(
                    "{} noticed the player, but it was awake already",
                    self.name(who)
                ),
            );
        } else if !self.sees(viewer, at) {
            self.fail(
                Id::MonsterNotice,
                format!(
                    "{} at {at} noticed the player at {viewer}, who cannot see its tile",
                    self.name(who)
                ),
            );
        }
    }

    /// Every monster asleep on a tile the player can see must have noticed
    /// the player by now (`when`: at which moment of the key). Events from
    /// `index` on have not happened yet.
    fn all_in_view_noticed(&mut self, index: usize, when: &str) {
        if index < self.new_floor_from || !self.player().alive {
            return;
        }
        let viewer = self.player().pos;
        let asleep: Vec<(Who, Pos)> = self.creatures[1..]
            .iter()
            .filter(|c| c.alive && !c.awake)
            .map(|c| (c.who, c.pos))
            .collect();
        // One scan as deep as the farthest of them answers for every one.
        let farthest = asleep
            .iter()
            .filter(|&&(_, at)| oracle::within_sight(viewer, at))
            .map(|&(_, at)| viewer.chebyshev(at))
            .max();
        if let Some(rows) = farthest {
            self.look_out(viewer, rows);
        }
        for (who, at) in asleep {
            if self.sees(viewer, at) {
                self.fail(
                    Id::MonsterNotice,
                    format!(
                        "{} at {at} is asleep {when}, though the player at {viewer} sees its tile",
                        self.name(who)
                    ),
                );
                return;
            }
        }
    }

    /// Ticks the round under way, creature by creature, stopping at each
    /// poisoned one until its bite is recorded.
    fn advance_ticks(&mut self) {
        while let Some(i) = self.ticking {
            if i >= self.creatures.len() || !self.creatures[0].alive {
                self.ticking = None;
                return;
            }
            self.ticking = Some(i + 1);
            let c = &mut self.creatures[i];
            if !c.alive {
                continue;
            }
            c.confused = c.confused.saturating_sub(1);
            if let Some((rounds, dice)) = c.poison {
                let left = rounds.saturating_sub(1);
                c.poison = (left > 0).then_some((left, dice));
                let who = c.who;
                self.expect.push_back(Expect::Bite { who, dice });
                return;
            }
        }
    }

    /// A confused creature's roll for where its step goes, held to the
    /// design's rule: half the time (a roll of 0 to 49 out of 100) the step
    /// goes the way the direction roll names, otherwise the way it meant.
    fn lurch(&mut self, who: Who, intended: Dir, hijack: u32, direction: u32) {
        /// Out of 100: below this, a confused step goes astray.
        const ASTRAY_BELOW: u32 = 50;
        if hijack >= 100 || direction >= 8 {
            self.fail(
                Id::MoveLegal,
                format!(
                    "{} rolled {hijack} of 100 and {direction} of 8 for a confused step",
                    self.name(who)
                ),
            );
            return;
        }
        if self.creature(who).is_none_or(|c| c.confused == 0) {
            self.fail(
                Id::MoveLegal,
                format!(
                    "{} rolled a confused step but is not confused",
                    self.name(who)
                ),
            );
        }
        let dir = if hijack < ASTRAY_BELOW {
            Dir::ALL[direction as usize]
        } else {
            intended
        };
        self.expect.push_back(Expect::Lurch { who, dir });
    }

    fn step(
        &mut self,
        index: usize,
        who: Who,
        from: Pos,
        dir: Dir,
        confused: bool,
        result: rules::StepResult,
    ) {
        use rules::StepResult;
        let Some(i) = self.index_of(who).filter(|&i| self.creatures[i].alive) else {
            self.fail(
                Id::MoveLegal,
                format!("{} stepped but is not on the floor", self.name(who)),
            );
            return;
        };
        let c = self.creatures[i].clone();
        self.check_step_start(&c, from, confused);
        if confused {
            self.lurched_as_rolled(who, dir);
        }
        if let Who::Monster(_) = who {
            self.monster_stepped(who, c.awake, c.confused);
        }
        let (dx, dy) = oracle::offset_of(dir);
        let to = Pos::new(c.pos.x + dx, c.pos.y + dy);
        let occupant = self.occupant(to, who);
        if index >= self.new_floor_from {
            let expected = if !oracle::can_step(self.map(), c.pos, dx, dy) {
                if c.confused > 0 {
                    StepResult::Wasted
                } else {
                    StepResult::Refused
                }
            } else if occupant.is_some() {
                StepResult::Attack
            } else {
                StepResult::Move
            };
            if result != expected {
                self.fail(
                    Id::MoveLegal,
                    format!(
                        "{} stepping {} from {} came to {result}; the step rule says {expected}",
                        self.name(who),
                        dir.name(),
                        c.pos,
                        result = result.words(),
                        expected = expected.words()
                    ),
                );
                return;
            }
        }
        self.take_step(i, to, occupant, result);
    }

    /// A step begins where the creature `c` stands, confused exactly when
    /// it is, and is its only one in the action.
    fn check_step_start(&mut self, c: &Creature, from: Pos, confused: bool) {
        let who = c.who;
        if c.pos != from {
            self.fail(
                Id::MoveLegal,
                format!(
                    "{} stepped from {from} but stood at {}",
                    self.name(who),
                    c.pos
                ),
            );
        }
        if confused != (c.confused > 0) {
            self.fail(
                Id::MoveLegal,
                format!(
                    "{} stepped {} while it had {} rounds of confusion",
                    self.name(who),
                    if confused { "confused" } else { "steadily" },
                    c.confused
                ),
            );
        }
        if c.stepped {
            self.fail(
                Id::MoveLegal,
                format!("{} stepped twice in one action", self.name(who)),
            );
        }
    }

    /// Creature `i`'s step to `to` came to `result`: it moved there, or
    /// attacks `occupant`, which the record now owes.
    fn take_step(&mut self, i: usize, to: Pos, occupant: Option<Who>, result: rules::StepResult) {
        use rules::StepResult;
        let c = &mut self.creatures[i];
        let who = c.who;
        c.stepped = result != StepResult::Refused;
        match result {
            StepResult::Move => c.pos = to,
            StepResult::Attack => match occupant {
                Some(defender) => self.expect.push_back(Expect::Attack {
                    attacker: who,
                    defender,
                    missile: None,
                }),
                None => self.fail(
                    Id::CombatRules,
                    format!("{} attacked the empty tile {to}", self.name(who)),
                ),
            },
            StepResult::Refused | StepResult::Wasted => {}
        }
    }

    /// A confused step goes where its roll sent it.
    fn lurched_as_rolled(&mut self, who: Who, dir: Dir) {
        match self.take(|e| matches!(e, Expect::Lurch { who: w, .. } if w == who)) {
            Some(Expect::Lurch { dir: want, .. }) if want != dir => self.fail(
                Id::MoveLegal,
                format!(
                    "{} stepped {} while confused; its roll sends it {}",
                    self.name(who),
                    dir.name(),
                    want.name()
                ),
            ),
            Some(_) => {}
            None => self.fail(
                Id::MoveLegal,
                format!(
                    "{} stepped while confused without rolling where to",
                    self.name(who)
                ),
            ),
        }
    }

    /// A monster steps only in its own turn, and only awake (or confused).
    fn monster_stepped(&mut self, who: Who, awake: bool, confused: u32) {
        if self.turn_of != Some(who) {
            self.fail(
                Id::MoveLegal,
                format!("{} stepped outside its own turn", self.name(who)),
            );
        }
        if !awake && confused == 0 {
            self.fail(
                Id::MonsterNotice,
                format!("{} walked while asleep", self.name(who)),
            );
        }
    }

    /// A creature's to-hit bonus and damage dice for a swing or a missile.
    fn offence(&self, attacker: Who, missile: Option<ItemId>) -> (i32, Dice) {
        let content = self.game.content();
        match (attacker, missile) {
            (Who::Player, Some(item)) => match &content.item(item).effect {
                ItemEffect::Thrown { to_hit, damage } => (rules::PLAYER_ATTACK + to_hit, *damage),
                _ => (rules::PLAYER_ATTACK, fists()),
            },
            (Who::Player, None) => {
                let weapon = self
                    .wielded
                    .and_then(|slot| self.pack.get(slot))
                    .map(|s| &content.item(s.item).effect);
                match weapon {
                    Some(ItemEffect::Weapon { to_hit, damage }) => {
                        (rules::PLAYER_ATTACK + to_hit, *damage)
                    }
                    _ => (rules::PLAYER_ATTACK, fists()),
                }
            }
            (Who::Monster(_), _) => match self.creature(attacker).and_then(|c| c.kind) {
                Some(kind) => {
                    let def = content.monster(kind);
                    (def.att, def.damage)
                }
                None => (0, fists()),
            },
        }
    }

    fn defence(&self, defender: Who) -> i32 {
        let content = self.game.content();
        match defender {
            Who::Player => {
                let armour = self
                    .worn
                    .and_then(|slot| self.pack.get(slot))
                    .map(|s| &content.item(s.item).effect);
                match armour {
                    Some(ItemEffect::Armour { defence }) => rules::PLAYER_DEFENCE + defence,
                    _ => rules::PLAYER_DEFENCE,
                }
            }
            Who::Monster(_) => self
                .creature(defender)
                .and_then(|c| c.kind)
                .map_or(0, |kind| content.monster(kind).dv),
        }
    }

    fn attack(
        &mut self,
        attacker: Who,
        defender: Who,
        missile: Option<ItemId>,
        roll: i32,
        hit: bool,
        damage: i32,
    ) {
        if !self.attack_owed(attacker, defender, missile) {
            return;
        }
        let (Some(a), Some(d)) = (self.creature(attacker), self.creature(defender)) else {
            return;
        };
        if !a.alive || !d.alive {
            self.fail(
                Id::CombatRules,
                format!(
                    "{} attacked {}, but one of them is dead",
                    self.name(attacker),
                    self.name(defender)
                ),
            );
            return;
        }
        if missile.is_none() && a.pos.chebyshev(d.pos) != 1 {
            self.fail(
                Id::CombatRules,
                format!(
                    "{} at {} swung at {} at {}, which is not next to it",
                    self.name(attacker),
                    a.pos,
                    self.name(defender),
                    d.pos
                ),
            );
        }
        let (attack, dice) = self.offence(attacker, missile);
        let defence = self.defence(defender);
        if !(1..=20).contains(&roll) {
            self.fail(Id::CombatRules, format!("a d20 to hit rolled {roll}"));
            return;
        }
        self.check_to_hit(attacker, roll, (attack, defence), hit);
        self.check_damage(attacker, dice, hit, damage);
        if hit {
            self.expect.push_front(Expect::Blow {
                attacker,
                defender,
                damage,
            });
        }
    }

    /// An attack answers a step or throw that called for it (the record
    /// owes it); whether it did.
    fn attack_owed(&mut self, attacker: Who, defender: Who, missile: Option<ItemId>) -> bool {
        let owed = self.take(|e| {
            matches!(e, Expect::Attack { attacker: a, defender: d, missile: m }
                if a == attacker && d == defender && m == missile)
        });
        if owed.is_none() {
            self.fail(
                Id::CombatRules,
                format!(
                    "{} attacked {} with no step or throw that called for it",
                    self.name(attacker),
                    self.name(defender)
                ),
            );
        }
        owed.is_some()
    }

    /// The to-hit rule: a natural 1 misses, a natural 20 hits, otherwise the
    /// roll plus the attack must reach the defence.
    fn check_to_hit(&mut self, attacker: Who, roll: i32, (attack, defence): (i32, i32), hit: bool) {
        let connects = roll == 20 || (roll != 1 && roll + attack >= defence);
        if hit != connects {
            self.fail(
                Id::CombatRules,
                format!(
                    "{} rolled {roll} +{attack} against defence {defence} and {}; the to-hit rule says it {}",
                    self.name(attacker),
                    if hit { "hit" } else { "missed" },
                    if connects { "hits" } else { "misses" }
                ),
            );
        }
    }

    /// A hit deals what its dice can roll; a miss deals nothing.
    fn check_damage(&mut self, attacker: Who, dice: Dice, hit: bool, damage: i32) {
        let (low, high) = damage_bounds(dice);
        if hit && !(low..=high).contains(&damage) {
            self.fail(
                Id::CombatRules,
                format!(
                    "{} dealt {damage} with {dice}, which deals {low} to {high}",
                    self.name(attacker)
                ),
            );
        }
        if !hit && damage != 0 {
            self.fail(
                Id::CombatRules,
                format!("{} missed but dealt {damage}", self.name(attacker)),
            );
        }
    }

    fn hit_points(&mut self, who: Who, before: i32, after: i32, cause: HpCause) {
        let Some(i) = self.index_of(who).filter(|&i| self.creatures[i].alive) else {
            self.fail(
                Id::HpExplained,
                format!(
                    "{} lost or gained hit points but is not alive",
                    self.name(who)
                ),
            );
            return;
        };
        let c = self.creatures[i].clone();
        if before != c.hp {
            self.fail(
                Id::HpExplained,
                format!(
                    "{}'s hit points went from {before}, but the record left them at {}",
                    self.name(who),
                    c.hp
                ),
            );
        }
        let mut by_player = false;
        let mut attacker_kind = None;
        match cause {
            HpCause::Blow => (by_player, attacker_kind) = self.blow_landed(who, c.hp, after),
            HpCause::Poison => self.poison_bit(who, c.hp, after),
            HpCause::Heal { rolled } => self.healed(who, (c.hp, c.max_hp), rolled, after),
        }
        self.creatures[i].hp = after;
        if after <= 0 {
            self.expect.push_front(Expect::Death { who, by_player });
        } else if let Some(kind) = attacker_kind {
            self.hit_carried(i, kind);
        }
    }

    /// A blow's wound on `who`, from `hp` to `after`: the blow the record
    /// owes, of its damage. Whether the player struck it, and the kind of
    /// monster that did.
    fn blow_landed(&mut self, who: Who, hp: i32, after: i32) -> (bool, Option<MonsterId>) {
        match self.take(|e| matches!(e, Expect::Blow { defender, .. } if defender == who)) {
            Some(Expect::Blow {
                attacker, damage, ..
            }) => {
                let by_player = attacker == Who::Player;
                let attacker_kind = self.creature(attacker).and_then(|a| a.kind);
                if after != hp - damage {
                    self.fail(
                        Id::HpExplained,
                        format!(
                            "a blow of {damage} took {} from {hp} to {after}",
                            self.name(who)
                        ),
                    );
                }
                (by_player, attacker_kind)
            }
            _ => {
                self.fail(
                    Id::HpExplained,
                    format!("{} was wounded by a blow nobody struck", self.name(who)),
                );
                (false, None)
            }
        }
    }

    /// What a hit by a monster of `kind` carries comes after its wound on
    /// creature `i`, in order: its confusion, then its poison.
    fn hit_carried(&mut self, i: usize, kind: MonsterId) {
        let who = self.creatures[i].who;
        let def = self.game.content().monster(kind);
        if let Some(rounds) = def.confuses {
            let rounds = self.creatures[i].confused.max(rounds);
            self.expect.push_front(Expect::Confusion { who, rounds });
        }
        if let Some(poison) = &def.poison {
            let left = self.creatures[i].poison.map_or(0, |(r, _)| r);
            self.expect.push_front(Expect::Dose {
                who,
                rounds: left.max(poison.turns),
                dice: poison.damage,
            });
        }
    }

    /// A poisoning's bite: in its round, within its dice.
    fn poison_bit(&mut self, who: Who, hp: i32, after: i32) {
        match self.take(|e| matches!(e, Expect::Bite { who: w, .. } if w == who)) {
            Some(Expect::Bite { dice, .. }) => {
                let (low, high) = damage_bounds(dice);
                let dealt = hp - after;
                if !(low..=high).contains(&dealt) {
                    self.fail(
                        Id::HpExplained,
                        format!(
                            "poison took {dealt} from {}; its {dice} deals {low} to {high}",
                            self.name(who)
                        ),
                    );
                }
            }
            _ => self.fail(
                Id::HpExplained,
                format!(
                    "poison bit {} outside its round, or when it was not poisoned",
                    self.name(who)
                ),
            ),
        }
    }

    /// A potion's healing: its roll within its dice, the hit points topped
    /// up by it, never past the maximum, never lowering what is above it.
    fn healed(&mut self, who: Who, (hp, max_hp): (i32, i32), rolled: i32, after: i32) {
        match self.take(|e| matches!(e, Expect::Heal { .. })) {
            Some(Expect::Heal { dice }) if who == Who::Player => {
                let (low, high) = (dice_min(dice), dice_max(dice));
                // The heal rule: top up by the roll, never past the
                // maximum, and never lower what is already above it.
                let want = if hp >= max_hp {
                    hp
                } else {
                    (hp + rolled.max(0)).min(max_hp)
                };
                if !(low..=high).contains(&rolled) {
                    self.fail(
                        Id::HpExplained,
                        format!("a potion of {dice} rolled {rolled}, outside {low} to {high}"),
                    );
                } else if after != want {
                    self.fail(
                        Id::HpExplained,
                        format!(
                            "healing {rolled} took the player from {hp}/{max_hp} to {after}, not {want}"
                        ),
                    );
                }
            }
            _ => self.fail(
                Id::HpExplained,
                format!("{} was healed without drinking a potion", self.name(who)),
            ),
        }
    }

    fn died(&mut self, who: Who) {
        match self.take(|e| matches!(e, Expect::Death { who: w, .. } if w == who)) {
            Some(Expect::Death { by_player, .. }) => {
                if by_player && who != Who::Player {
                    self.kills += 1;
                }
                if let Some(i) = self.index_of(who) {
                    self.creatures[i].alive = false;
                }
            }
            _ => self.fail(
                Id::HpExplained,
                format!("{} died with hit points left", self.name(who)),
            ),
        }
    }

    fn status(&mut self, who: Who, change: StatusChange) {
        let Some(i) = self.index_of(who).filter(|&i| self.creatures[i].alive) else {
            self.fail(
                Id::StatusRules,
                format!("{}'s statuses changed but it is not alive", self.name(who)),
            );
            return;
        };
        let owed = self.expect.pop_front();
        let c = &mut self.creatures[i];
        let problem = match (change, owed) {
            (
                StatusChange::Poisoned { rounds },
                Some(Expect::Dose {
                    who: w,
                    rounds: want,
                    dice,
                }),
            ) if w == who => {
                c.poison = Some((rounds, dice));
                (rounds != want)
                    .then(|| format!("a dose left {rounds} rounds of poison, not {want}"))
            }
            (
                StatusChange::Confused { rounds },
                Some(Expect::Confusion {
                    who: w,
                    rounds: want,
                }),
            ) if w == who => {
                c.confused = rounds;
                (rounds != want)
                    .then(|| format!("a confusing hit left {rounds} rounds, not {want}"))
            }
            (StatusChange::Confused { rounds }, Some(Expect::ScrollConfusion { turns }))
                if who != Who::Player =>
            {
                let want = c.confused.max(turns);
                c.confused = rounds;
                (rounds != want)
                    .then(|| format!("a scroll of confusion left {rounds} rounds, not {want}"))
            }
            (StatusChange::Cured, Some(Expect::Cure)) if who == Who::Player => {
                c.poison = None;
                None
            }
            (change, owed) => Some(format!(
                "{change}, where the record owed {}",
                owed.map_or_else(|| "nothing".into(), |owed| self.describe_expect(owed)),
                change = change.words()
            )),
        };
        if let Some(problem) = problem {
            let name = self.name(who);
            self.fail(Id::StatusRules, format!("{name}: {problem}"));
        }
    }

    fn take_from_pack(&mut self, slot: u8, item: ItemId, count: u32) -> bool {
        match self.pack.get(slot) {
            Some(stack) if stack.item == item && stack.count >= count => {
                self.pack.take(slot, count);
                if self.pack.get(slot).is_none() {
                    if self.wielded == Some(slot) {
                        self.wielded = None;
                    }
                    if self.worn == Some(slot) {
                        self.worn = None;
                    }
                }
                true
            }
            other => {
                let name = &self.game.content().item(item).name;
                self.fail(
                    Id::ItemsConserved,
                    format!(
                        "{count} {name} left pack slot {}, which held {}",
                        slot_letter(slot),
                        self.describe_stack(other)
                    ),
                );
                false
            }
        }
    }

    fn items(&mut self, item: ItemId, count: u32, from: Place, to: Place) {
        let def = self.game.content().item(item);
        if count == 0 {
            self.fail(Id::ItemsConserved, format!("0 {} moved", def.name));
            return;
        }
        if self.items_left(from, item, count) {
            self.items_arrived(to, item, count);
        }
    }

    /// Items leaving where they were: a pack slot, the pile underfoot;
    /// whether they could (nothing comes back from being used).
    fn items_left(&mut self, from: Place, item: ItemId, count: u32) -> bool {
        let def = self.game.content().item(item);
        let here = self.player().pos;
        match from {
            Place::Pack(slot) => {
                if !self.take_from_pack(slot, item, count) {
                    return false;
                }
            }
            Place::Floor(at) => {
                let pile = self
                    .items
                    .iter()
                    .position(|&(p, i, n)| p == at && i == item && n >= count);
                match pile {
                    Some(index) if at == here => {
                        self.items[index].2 -= count;
                        if self.items[index].2 == 0 {
                            self.items.swap_remove(index);
                        }
                    }
                    _ => {
                        self.fail(
                            Id::ItemsConserved,
                            format!(
                                "{count} {} were picked up at {at}, where the player at {here} finds no such pile",
                                def.name
                            ),
                        );
                        return false;
                    }
                }
            }
            Place::Used => {
                self.fail(
                    Id::ItemsConserved,
                    format!("{} came back from being used", def.name),
                );
                return false;
            }
        }
        true
    }

    /// Items arriving: in the slot the pack's rule picks, underfoot, or used
    /// up with what their use owes.
    fn items_arrived(&mut self, to: Place, item: ItemId, count: u32) {
        let def = self.game.content().item(item);
        let here = self.player().pos;
        match to {
            Place::Pack(slot) => self.packed(slot, item, count),
            Place::Floor(at) => {
                if at != here {
                    self.fail(
                        Id::ItemsConserved,
                        format!(
                            "{} dropped at {at}, away from the player at {here}",
                            def.name
                        ),
                    );
                }
                self.items.push((at, item, count));
            }
            Place::Used => self.used_up(item),
        }
    }

    /// Items arriving in pack slot `slot`: the one the pack's rule picks,
    /// and no fuller than a stack may be.
    fn packed(&mut self, slot: u8, item: ItemId, count: u32) {
        let def = self.game.content().item(item);
        let want = slot_for(&self.pack, item, count, def.stackable);
        if want != Some(slot) {
            self.fail(
                Id::ItemsConserved,
                format!(
                    "{count} {} went into pack slot {}; the pack's rule picks {}",
                    def.name,
                    slot_letter(slot),
                    describe_slot(want)
                ),
            );
            return;
        }
        let total = self.pack.get(slot).map_or(0, |s| s.count) + count;
        self.pack.add(slot, item, count);
        if total > MAX_STACK {
            self.fail(
                Id::ItemsConserved,
                format!(
                    "pack slot {} would hold {total} {}",
                    slot_letter(slot),
                    def.name
                ),
            );
        }
    }

    /// An item used up: what its use owes next in the record.
    fn used_up(&mut self, item: ItemId) {
        let def = self.game.content().item(item);
        let expect = match def.effect {
            ItemEffect::Heal { amount } => Some(Expect::Heal { dice: amount }),
            ItemEffect::CurePoison => self.player().poison.map(|_| Expect::Cure),
            ItemEffect::Confuse { turns } => Some(Expect::ScrollConfusion { turns }),
            ItemEffect::MagicMapping => Some(Expect::Reveal),
            ItemEffect::Teleport => {
                self.teleport = true;
                None
            }
            ItemEffect::Thrown { .. } | ItemEffect::Weapon { .. } | ItemEffect::Armour { .. } => {
                self.fail(
                    Id::ItemsConserved,
                    format!(
                        "{} was used up, which only a potion or scroll can be",
                        def.name
                    ),
                );
                None
            }
        };
        if let Some(expect) = expect {
            self.expect.push_back(expect);
        }
    }

    fn thrown(&mut self, item: ItemId, slot: u8, landing: Pos) {
        let def = self.game.content().item(item);
        if !matches!(def.effect, ItemEffect::Thrown { .. }) {
            self.fail(Id::ItemsConserved, format!("{} was thrown", def.name));
        }
        if !self.take_from_pack(slot, item, 1) {
            return;
        }
        let from = self.player().pos;
        let reach = from.chebyshev(landing);
        // A missile whose first hop is blocked drops at the thrower's feet.
        if !(0..=rules::THROW_RANGE).contains(&reach)
            || !oracle::can_step(self.map(), landing, 0, 0)
        {
            self.fail(
                Id::ItemsConserved,
                format!("a {} thrown from {from} came down at {landing}", def.name),
            );
        }
        if let Some(victim) = self.occupant(landing, Who::Player) {
            self.expect.push_back(Expect::Attack {
                attacker: Who::Player,
                defender: victim,
                missile: Some(item),
            });
        }
        self.items.push((landing, item, 1));
    }

    fn equipped(&mut self, slot: u8, worn: bool) {
        let effect = self
            .pack
            .get(slot)
            .map(|s| &self.game.content().item(s.item).effect);
        let fits = match effect {
            Some(ItemEffect::Weapon { .. }) => !worn,
            Some(ItemEffect::Armour { .. }) => worn,
            _ => false,
        };
        if !fits {
            let content = self.game.content();
            let holds = self.pack.get(slot).map_or_else(
                || "nothing".into(),
                |s| {
                    format!(
                        "{}, {}",
                        stack_words(&s, content),
                        content.item(s.item).effect
                    )
                },
            );
            self.fail(
                Id::ItemsConserved,
                format!(
                    "pack slot {} was {} but holds {holds}",
                    slot_letter(slot),
                    if worn { "worn" } else { "wielded" },
                ),
            );
        }
        if worn {
            self.worn = Some(slot);
        } else {
            self.wielded = Some(slot);
        }
    }

    fn teleported(&mut self, allowed: bool, from: Pos, to: Pos) {
        if !allowed {
            self.fail(
                Id::MoveLegal,
                "the player was teleported without a scroll".into(),
            );
        }
        let here = self.player().pos;
        if from != here
            || to == from
            || !oracle::can_step(self.map(), to, 0, 0)
            || self.occupant(to, Who::Player).is_some()
        {
            self.fail(
                Id::MoveLegal,
                format!("a teleport from {from} (the player stood at {here}) landed on {to}"),
            );
        }
        self.creatures[0].pos = to;
    }

    fn descended(&mut self, depth: u32, before: &TurnWatch) {
        if depth != self.depth + 1 || before.standing_on != Tile::StairsDown {
            self.fail(
                Id::MoveLegal,
                format!(
                    "the player went from depth {} to {depth}, standing on {}",
                    self.depth,
                    before.standing_on.words()
                ),
            );
        }
        self.depth = depth;
        let state = self.game.state();
        let floor = &state.floor;
        let content = self.game.content();
        self.creatures.truncate(1);
        self.creatures[0].pos = floor.start;
        self.items = state
            .items
            .iter()
            .map(|i| (i.pos, i.item, i.count))
            .collect();
        // What the new floor holds is checked against the spawn rules, then
        // taken as the model from here on.
        for m in &state.monsters {
            let max_hp = content.monster(m.kind).max_hp;
            let interval = time_taken(ACTION_COST, content.monster(m.kind).speed);
            self.creatures.push(Creature {
                who: Who::Monster(m.id),
                kind: Some(m.kind),
                pos: m.pos,
                hp: max_hp,
                max_hp,
                poison: None,
                confused: 0,
                awake: false,
                alive: true,
                stepped: false,
                // A new floor gives the player a turn's grace: its monsters
                // first act a step after the player's arrival, and then
                // take their own turn's time.
                due: Some(self.player_time + ACTION_COST + interval),
                interval,
                turns: 0,
            });
        }
        if let Some(broken) = crate::spawns::check_spawns(self.game) {
            self.fail(broken.id, broken.message);
        }
    }

    fn named(&mut self, index: usize, who: Who) {
        let Who::Monster(_) = who else { return };
        let Some(c) = self.creature(who) else {
            self.fail(
                Id::MessageUnseen,
                format!(
                    "a message names {}, which is not on the floor",
                    self.name(who)
                ),
            );
            return;
        };
        if index < self.new_floor_from {
            return;
        }
        let state = self.game.state();
        let map = &state.floor.map;
        let viewer = self.player().pos;
        let seen = if viewer == state.player.pos {
            map.is_visible(c.pos)
        } else {
            fov::can_see(map, viewer, c.pos, SIGHT_RADIUS)
        };
        if !seen {
            self.fail(
                Id::MessageUnseen,
                format!(
                    "a message names {} at {}, which the player at {viewer} cannot see",
                    self.name(who),
                    c.pos
                ),
            );
        }
    }

    /// The state after the key must be what the record says it left.
    /// The model after the key against the state: the player, the
    /// monsters, the items on the floor, then the counts and the clock, in
    /// that order (the first failure found is the one said).
    fn reconcile(&mut self, before: &TurnWatch) {
        self.reconcile_player();
        self.reconcile_monsters();
        self.reconcile_items();
        self.reconcile_counts(before);
    }

    /// Where the player stands, their hit points, statuses, pack and
    /// equipment, and whether they live.
    fn reconcile_player(&mut self) {
        let state = self.game.state();
        let p = self.player().clone();
        let actual = &state.player;
        let poison = actual.statuses.poison.as_ref().map(|q| q.rounds);
        if p.pos != actual.pos {
            self.fail(
                Id::MoveLegal,
                format!(
                    "the player stands at {}, but the record left them at {}",
                    actual.pos, p.pos
                ),
            );
        }
        if p.hp != actual.hp {
            self.fail(
                Id::HpExplained,
                format!(
                    "the player has {} hp, but the record explains {}",
                    actual.hp, p.hp
                ),
            );
        }
        if poison != p.poison.map(|(r, _)| r) || actual.statuses.confused != p.confused {
            self.fail(
                Id::StatusRules,
                format!(
                    "the player has {} and {}, the record explains {} and {}",
                    poisoning(poison),
                    confusion(actual.statuses.confused),
                    poisoning(p.poison.map(|(r, _)| r)),
                    confusion(p.confused)
                ),
            );
        }
        if actual.pack != self.pack || actual.wielded != self.wielded || actual.worn != self.worn {
            let slot = (0..PACK_SLOTS as u8).find(|&s| actual.pack.get(s) != self.pack.get(s));
            self.fail(
                Id::ItemsConserved,
                match slot {
                    Some(s) => format!(
                        "pack slot {} holds {}, the record explains {}",
                        slot_letter(s),
                        self.describe_stack(actual.pack.get(s)),
                        self.describe_stack(self.pack.get(s))
                    ),
                    None => format!(
                        "the player wields {} and wears {}, the record explains {} and {}",
                        describe_slot(actual.wielded),
                        describe_slot(actual.worn),
                        describe_slot(self.wielded),
                        describe_slot(self.worn)
                    ),
                },
            );
        }
        if p.alive != !matches!(state.status, RunStatus::Died(_)) {
            self.fail(
                Id::HpExplained,
                format!(
                    "the run is {}, but the record says the player is {}",
                    state.status,
                    if p.alive { "alive" } else { "dead" }
                ),
            );
        }
    }

    /// Each monster the record knows: gone only if killed, where it was
    /// left, its hit points, statuses and waking; and none unrecorded.
    fn reconcile_monsters(&mut self) {
        let state = self.game.state();
        let mut problems = Vec::new();
        for c in &self.creatures[1..] {
            let Who::Monster(id) = c.who else { continue };
            let there = state.monsters.iter().find(|m| m.id == id);
            let problem = match (there, c.alive) {
                (None, true) => Some((
                    Id::HpExplained,
                    "is gone from the floor, though nothing killed it".to_string(),
                )),
                (Some(_), false) => {
                    Some((Id::HpExplained, "died but is still on the floor".into()))
                }
                (Some(m), true) if m.pos != c.pos => Some((
                    Id::MoveLegal,
                    format!("stands at {}, the record left it at {}", m.pos, c.pos),
                )),
                (Some(m), true) if m.hp != c.hp => Some((
                    Id::HpExplained,
                    format!("has {} hp, the record explains {}", m.hp, c.hp),
                )),
                (Some(m), true)
                    if m.statuses.poison.as_ref().map(|q| q.rounds) != c.poison.map(|(r, _)| r)
                        || m.statuses.confused != c.confused =>
                {
                    Some((
                        Id::StatusRules,
                        format!(
                            "has {} and {}, the record explains {} and {}",
                            poisoning(m.statuses.poison.as_ref().map(|q| q.rounds)),
                            confusion(m.statuses.confused),
                            poisoning(c.poison.map(|(r, _)| r)),
                            confusion(c.confused)
                        ),
                    ))
                }
                (Some(m), true) if m.awake != c.awake => Some((
                    Id::MonsterNotice,
                    format!(
                        "is {} with no record of it noticing the player",
                        if m.awake { "awake" } else { "asleep" }
                    ),
                )),
                _ => None,
            };
            if let Some((id, problem)) = problem {
                problems.push((id, format!("{} {problem}", self.name(c.who))));
            }
        }
        for (id, problem) in problems {
            self.fail(id, problem);
        }
        if let Some(stray) = state
            .monsters
            .iter()
            .find(|m| self.index_of(Who::Monster(m.id)).is_none())
        {
            self.fail(
                Id::SpawnRules,
                format!(
                    "monster {} is on the floor with no record of arriving",
                    stray.id.0
                ),
            );
        }
    }

    /// The piles on the floor, and a mapping's whole floor revealed.
    fn reconcile_items(&mut self) {
        let state = self.game.state();
        // Most keys move no item: the record's list is then the floor's, in
        // its order, and so are the piles they sum to. Summed and sorted
        // only when the two lists differ.
        let as_listed = self.items.len() == state.items.len()
            && self
                .items
                .iter()
                .zip(&state.items)
                .all(|(&(at, item, count), i)| at == i.pos && item == i.item && count == i.count);
        if !as_listed {
            self.reconcile_piles();
        }
        if self.revealed_all && state.floor.map.revealed.count() != state.floor.map.len() {
            self.fail(
                Id::ItemsConserved,
                "a scroll of magic mapping left part of the floor unrevealed".into(),
            );
        }
    }

    /// The piles the record explains against the floor's, summed per tile
    /// and item.
    fn reconcile_piles(&mut self) {
        let state = self.game.state();
        let mut expected = piles(self.items.iter().copied());
        let mut actual_items = piles(state.items.iter().map(|i| (i.pos, i.item, i.count)));
        expected.retain(|p| p.2 > 0);
        actual_items.retain(|p| p.2 > 0);
        if expected != actual_items {
            let differs = expected
                .iter()
                .find(|e| !actual_items.contains(e))
                .or_else(|| actual_items.iter().find(|a| !expected.contains(a)))
                .copied();
            if let Some((at, item, _)) = differs {
                let count = |list: &[(Pos, ItemId, u32)]| {
                    list.iter()
                        .find(|p| p.0 == at && p.1 == item)
                        .map_or(0, |p| p.2)
                };
                self.fail(
                    Id::ItemsConserved,
                    format!(
                        "{} {} lie at {at}; the record explains {}",
                        count(&actual_items),
                        self.game.content().item(item).name,
                        count(&expected)
                    ),
                );
            }
        }
    }

    /// Turns, kills, the time at the player's turn and the rounds ticked.
    fn reconcile_counts(&mut self, before: &TurnWatch) {
        let state = self.game.state();
        let spent = state.turns_taken.wrapping_sub(before.turns_taken);
        if spent != self.acted {
            self.fail(
                Id::ClockRounds,
                format!(
                    "{spent} turns were counted, the record shows {} actions",
                    self.acted
                ),
            );
        }
        if state.kills.wrapping_sub(before.kills) != self.kills {
            self.fail(
                Id::HpExplained,
                format!(
                    "the kill count went from {} to {}, the record shows {} kills",
                    before.kills, state.kills, self.kills
                ),
            );
        }
        let playing = state.status == RunStatus::Playing;
        if playing && !state.clock.contains(Actor::Player) {
            self.check_time(before);
            self.all_in_view_noticed(usize::MAX, "when the player's turn comes round");
        }
        if before.playing && playing {
            let hundred = rules::BASE_ACTION_COST;
            let passed = state.clock.now() / hundred - before.clock / hundred;
            if passed != self.rounds {
                self.fail(
                    Id::ClockRounds,
                    format!(
                        "the clock went from {} to {}, {passed} rounds, but {} round ticks happened",
                        before.clock,
                        state.clock.now(),
                        self.rounds
                    ),
                );
            }
        }
    }
}

impl Model<'_> {
    /// On the player's turn after the key: the clock stands where the
    /// player's actions brought it, and every monster is due where its
    /// turns brought it, so none skipped a turn or took one early.
    fn check_time(&mut self, before: &TurnWatch) {
        if !self.timed {
            return;
        }
        let clock = &self.game.state().clock;
        let now = clock.now();
        if now != self.player_time {
            self.fail(
                Id::ClockTime,
                format!(
                    "the clock reads {now} on the player's turn; {} from {} at speed {} bring it to {}",
                    match self.acted {
                        1 => "1 action".to_string(),
                        n => format!("{n} actions"),
                    },
                    before.clock,
                    rules::PLAYER_SPEED,
                    self.player_time
                ),
            );
            return;
        }
        let mut problems = Vec::new();
        for c in self.creatures[1..].iter().filter(|c| c.alive) {
            let Some(due) = c.due else { continue };
            let expected = due + c.turns * c.interval;
            let queued = clock
                .entries()
                .iter()
                .find(|e| match (e.actor, c.who) {
                    (Actor::Monster(a), Who::Monster(b)) => a == b,
                    _ => false,
                })
                .map(|e| e.at);
            match queued {
                Some(at) if at != expected => problems.push(format!(
                    "{} is due at {at}; {} from {due}, one every {}, bring it to {expected}",
                    self.name(c.who),
                    match c.turns {
                        1 => "1 turn".to_string(),
                        n => format!("{n} turns"),
                    },
                    c.interval
                )),
                Some(_) if expected < now => problems.push(format!(
                    "{} skipped its turn due at {expected}, before the player's at {now}",
                    self.name(c.who)
                )),
                _ => {} // not queued: clock.queue says so
            }
        }
        if let Some(problem) = problems.into_iter().next() {
            self.fail(Id::ClockTime, problem);
        }
    }
}

/// Piles summed per (tile, item), sorted.
fn piles(list: impl Iterator<Item = (Pos, ItemId, u32)>) -> Vec<(Pos, ItemId, u32)> {
    let mut sorted: Vec<(Pos, ItemId, u32)> = list.collect();
    sorted.sort_unstable_by_key(|&(p, i, _)| (p, i));
    let mut summed: Vec<(Pos, ItemId, u32)> = Vec::with_capacity(sorted.len());
    for (p, i, n) in sorted {
        match summed.last_mut() {
            Some(last) if last.0 == p && last.1 == i => last.2 += n,
            _ => summed.push((p, i, n)),
        }
    }
    summed
}

/// The pack's rule for where new items go: onto a stack of the same
/// stackable item with room, else into the first free slot.
fn slot_for(pack: &Pack, item: ItemId, count: u32, stackable: bool) -> Option<u8> {
    let slots = 0..PACK_SLOTS as u8;
    if stackable
        && let Some(slot) = slots.clone().find(|&s| {
            pack.get(s)
                .is_some_and(|st| st.item == item && st.count + count <= MAX_STACK)
        })
    {
        return Some(slot);
    }
    slots.into_iter().find(|&s| pack.get(s).is_none())
}

/// Rounds of poison left, as a report says them: "3 rounds of poison".
fn poisoning(rounds: Option<u32>) -> String {
    match rounds {
        None => "no poison".into(),
        Some(1) => "1 round of poison".into(),
        Some(n) => format!("{n} rounds of poison"),
    }
}

/// Rounds of confusion left: "no confusion", "2 rounds of confusion".
fn confusion(rounds: u32) -> String {
    match rounds {
        0 => "no confusion".into(),
        1 => "1 round of confusion".into(),
        n => format!("{n} rounds of confusion"),
    }
}

/// Bare hands.
fn fists() -> Dice {
    rules::PLAYER_FISTS
        .parse()
        .expect("the fists dice constant is valid")
}

/// The least a roll of `dice` comes to, from its parts.
fn dice_min(dice: Dice) -> i32 {
    dice.count() as i32 + dice.bonus()
}

fn dice_max(dice: Dice) -> i32 {
    (dice.count() * dice.sides()) as i32 + dice.bonus()
}

/// Damage dealt by a roll of `dice`: the roll, never below zero.
fn damage_bounds(dice: Dice) -> (i32, i32) {
    (dice_min(dice).max(0), dice_max(dice).max(0))
}
