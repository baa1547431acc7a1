//! What the player does, and the rules every creature shares: stepping,
//! attacking, dying.
//!
//! A player action either spends time (the monsters then act until the
//! player's turn comes round again) or is refused, which costs nothing.

use crate::content::{ItemEffect, Poison};
use crate::dice::Dice;
use crate::geom::{Dir, Pos, line};
use crate::map::Tile;
use crate::rules::{self, BASE_ACTION_COST, StepResult, StepTarget};
use crate::text::capitalise;

use super::Game;
use super::Stuck;
use super::events::{Event, HpCause, Place, StatusChange, Who};
use super::state::{Death, FloorItem, MAX_STACK, Poisoned, RunStatus, Statuses, slot_letter};
use super::turn::Actor;

/// A player action, decided by the screens from keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    Step(Dir),
    Run(Dir),
    Wait,
    PickUp,
    Descend,
    AutoExplore,
    Drop(u8),
    Use { slot: u8, target: Option<Pos> },
    Throw { slot: u8, target: Pos },
    Wear(u8),
    Quit,
}

/// Whether an action took time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Spent {
    /// It happened and took this much time (hundredths of a step).
    Yes(u64),
    /// It was refused: nothing changed but perhaps a message, and no time.
    No,
}

/// How someone died, for the message and the tombstone.
pub(super) enum DeathCause {
    /// Killed in a fight (or by a thrown dart) by this creature.
    Blow(Who),
    /// Poison, from "a giant newt".
    Poison(String),
}

impl Game {
    pub(super) fn perform(&mut self, action: Action) -> Result<(), Stuck> {
        match action {
            Action::AutoExplore => self.auto_explore(),
            Action::Run(dir) => self.run(dir),
            Action::Quit => {
                let turn = self.state.clock.turn();
                self.say("You leave the Undercroft, for now.");
                self.state.status = RunStatus::Quit { turn };
                Ok(())
            }
            other => match self.player_act(other) {
                Spent::Yes(cost) => self.end_player_turn(cost),
                Spent::No => Ok(()),
            },
        }
    }

    /// One single-turn player action.
    pub(super) fn player_act(&mut self, action: Action) -> Spent {
        match action {
            Action::Step(dir) => self.player_step(dir),
            Action::Wait => Spent::Yes(BASE_ACTION_COST),
            Action::PickUp => self.pick_up(),
            Action::Descend => self.take_stairs(),
            Action::Drop(slot) => self.drop_item(slot),
            Action::Use { slot, target } => self.use_item(slot, target),
            Action::Throw { slot, target } => self.throw(slot, target),
            Action::Wear(slot) => self.wear(slot),
            Action::Run(_) | Action::AutoExplore | Action::Quit => {
                unreachable!("multi-turn and meta actions are performed, not acted")
            }
        }
    }

    /// The player's time is spent: put them back in the queue after `cost`
    /// and let the monsters act until their turn comes round.
    pub(super) fn end_player_turn(&mut self, cost: u64) -> Result<(), Stuck> {
        self.record(Event::PlayerActed { cost });
        self.state.turns_taken += 1;
        let at = self.state.clock.now() + rules::scaled_cost(cost, rules::PLAYER_SPEED);
        self.state.clock.schedule(Actor::Player, at);
        self.refresh_view();
        self.run_monsters()
    }

    // ----- stepping and fighting, shared by everyone -----

    pub(super) fn pos_of(&self, who: Who) -> Option<Pos> {
        match who {
            Who::Player => Some(self.state.player.pos),
            Who::Monster(id) => self.monster(id).map(|m| m.pos),
        }
    }

    pub(super) fn occupant(&self, at: Pos) -> Option<Who> {
        if self.state.player.pos == at && !self.is_over() {
            return Some(Who::Player);
        }
        self.state
            .monsters
            .iter()
            .find(|m| m.pos == at)
            .map(|m| Who::Monster(m.id))
    }

    /// A step by anyone, through the one step rule: move, attack whoever is
    /// there, or bump. A `confused` creature's step always spends the turn
    /// (see [`rules::resolve_step`]).
    pub(super) fn step_creature(&mut self, who: Who, dir: Dir, confused: bool) -> StepResult {
        let Some(from) = self.pos_of(who) else {
            return StepResult::Refused;
        };
        let to = from.step(dir);
        let occupant = self.occupant(to);
        let target = if !self.state.floor.map.can_step(from, dir) {
            StepTarget::Blocked
        } else if occupant.is_some() {
            StepTarget::Occupied
        } else {
            StepTarget::Open
        };
        let result = rules::resolve_step(target, confused);
        self.record(Event::Step {
            who,
            from,
            dir,
            confused,
            result,
        });
        match result {
            StepResult::Move => {
                self.set_pos(who, to);
                self.planted_double_step(who, to, dir);
            }
            StepResult::Attack => {
                if let Some(defender) = occupant {
                    self.attack(who, defender);
                }
            }
            StepResult::Wasted => {
                self.narrate(who, "You stumble into the wall.", |name| {
                    format!("{name} stumbles into the wall.")
                });
            }
            StepResult::Refused => {}
        }
        result
    }

    fn set_pos(&mut self, who: Who, to: Pos) {
        match who {
            Who::Player => self.state.player.pos = to,
            Who::Monster(id) => {
                if let Some(m) = self.monster_mut(id) {
                    m.pos = to;
                }
            }
        }
    }

    /// Whether the player can see `who` (the player always sees themself).
    pub(super) fn is_seen(&self, who: Who) -> bool {
        match who {
            Who::Player => true,
            Who::Monster(_) => self
                .pos_of(who)
                .is_some_and(|p| self.state.floor.map.is_visible(p)),
        }
    }

    /// "you", "the goblin", or "something" when unseen.
    pub(super) fn name_of(&self, who: Who) -> String {
        match who {
            Who::Player => "you".into(),
            Who::Monster(id) if self.is_seen(who) => match self.monster(id) {
                Some(m) => format!("the {}", self.content.monster(m.kind).name),
                None => UNSEEN.into(),
            },
            Who::Monster(_) => UNSEEN.into(),
        }
    }

    /// [`Game::name_of`] for a message, noting in the record which monster
    /// the message names, so the checks can hold it to being in view.
    pub(super) fn named(&mut self, who: Who) -> String {
        let name = self
            .planted_loose_lips(who)
            .unwrap_or_else(|| self.name_of(who));
        if matches!(who, Who::Monster(_)) && name != UNSEEN {
            self.record(Event::Named { who });
        }
        name
    }

    /// "a goblin", "an orc": how the tombstone names a killer.
    fn indefinite_name(&self, who: Who) -> String {
        match who {
            Who::Player => "yourself".into(),
            Who::Monster(id) => match self.monster(id) {
                Some(m) => with_article(&self.content.monster(m.kind).name),
                None => "something".into(),
            },
        }
    }

    /// The player's attack bonus and damage, with whatever is wielded.
    fn player_weapon(&self) -> (i32, Dice) {
        let fists: Dice = rules::PLAYER_FISTS
            .parse()
            .expect("the fists dice constant is valid");
        let wielded = self
            .state
            .player
            .wielded
            .and_then(|slot| self.state.player.pack.get(slot))
            .map(|stack| &self.content.item(stack.item).effect);
        match wielded {
            Some(ItemEffect::Weapon { to_hit, damage }) => (rules::PLAYER_ATTACK + to_hit, *damage),
            _ => (rules::PLAYER_ATTACK, fists),
        }
    }

    pub(super) fn player_defence(&self) -> i32 {
        let worn = self
            .state
            .player
            .worn
            .and_then(|slot| self.state.player.pack.get(slot))
            .map(|stack| &self.content.item(stack.item).effect);
        match worn {
            Some(ItemEffect::Armour { defence }) => rules::PLAYER_DEFENCE + defence,
            _ => rules::PLAYER_DEFENCE,
        }
    }

    /// A melee swing: d20 to hit, damage, and on a hit whatever the attacker
    /// inflicts (poison, confusion). The same code serves the player's bump,
    /// a monster's bite and a confused monster brawling with its neighbour.
    pub(super) fn attack(&mut self, attacker: Who, defender: Who) {
        let (attack, damage, poison, confuses) = match attacker {
            Who::Player => {
                let (attack, damage) = self.player_weapon();
                (attack, damage, None, None)
            }
            Who::Monster(id) => {
                let Some(m) = self.monster(id) else { return };
                let def = self.content.monster(m.kind);
                (def.att, def.damage, def.poison.clone(), def.confuses)
            }
        };
        let defence = match defender {
            Who::Player => self.player_defence(),
            Who::Monster(id) => match self.monster(id) {
                Some(m) => self.content.monster(m.kind).dv,
                None => return,
            },
        };
        let narrated = self.is_seen(attacker) || self.is_seen(defender);
        let roll = self.state.rng.range(1, 20);
        let lucky = self.planted_lucky_one(attacker, roll);
        if !rules::hit_connects(roll, attack, defence) && !lucky {
            self.missed(attacker, defender, roll, narrated);
            return;
        }
        let dealt = rules::damage_dealt(damage.roll(&mut self.state.rng));
        self.record(Event::Attack {
            attacker,
            defender,
            missile: None,
            roll,
            hit: true,
            damage: dealt,
        });
        if narrated {
            let line = format!(
                "{} {} {} for {dealt}.",
                capitalise(&self.named(attacker)),
                verb(attacker, "hit", "hits"),
                self.named(defender)
            );
            self.say(line);
        }
        if self.wound(defender, dealt, DeathCause::Blow(attacker)) {
            return;
        }
        if let Some(poison) = poison {
            let source = self.indefinite_name(attacker);
            self.poison(defender, &poison, source);
        }
        if let Some(rounds) = confuses {
            self.confuse(defender, rounds);
        }
    }

    /// A melee swing that missed: recorded, and told when `narrated`.
    fn missed(&mut self, attacker: Who, defender: Who, roll: i32, narrated: bool) {
        self.record(Event::Attack {
            attacker,
            defender,
            missile: None,
            roll,
            hit: false,
            damage: 0,
        });
        if narrated {
            let line = format!(
                "{} {} {}.",
                capitalise(&self.named(attacker)),
                verb(attacker, "miss", "misses"),
                self.named(defender)
            );
            self.say(line);
        }
    }

    /// Takes `amount` hit points; returns true when that killed.
    pub(super) fn wound(&mut self, who: Who, amount: i32, cause: DeathCause) -> bool {
        let (before, hp) = match who {
            Who::Player => {
                let before = self.state.player.hp;
                self.state.player.hp -= amount;
                (before, self.state.player.hp)
            }
            Who::Monster(id) => match self.monster_mut(id) {
                Some(m) => {
                    let before = m.hp;
                    m.hp -= amount;
                    (before, m.hp)
                }
                None => return false,
            },
        };
        self.record(Event::HitPoints {
            who,
            before,
            after: hp,
            cause: match cause {
                DeathCause::Blow(_) => HpCause::Blow,
                DeathCause::Poison(_) => HpCause::Poison,
            },
        });
        if hp <= 0 {
            self.kill(who, cause);
            true
        } else {
            false
        }
    }

    fn kill(&mut self, victim: Who, cause: DeathCause) {
        self.record(Event::Died { who: victim });
        match victim {
            Who::Player => {
                let cause = match cause {
                    DeathCause::Blow(killer) => {
                        format!("killed by {}", self.indefinite_name(killer))
                    }
                    DeathCause::Poison(source) => format!("died of poison from {source}"),
                };
                self.say("You die...");
                self.state.status = RunStatus::Died(Death {
                    cause,
                    depth: self.state.depth,
                    turn: self.state.clock.turn(),
                });
            }
            Who::Monster(id) => {
                let seen = self.is_seen(victim);
                let name = self.named(victim);
                let line = match cause {
                    DeathCause::Blow(Who::Player) => {
                        self.state.kills += 1;
                        Some(format!("You kill {name}."))
                    }
                    DeathCause::Blow(_) if seen => Some(format!("{} dies.", capitalise(&name))),
                    DeathCause::Poison(_) if seen => {
                        Some(format!("{} dies of poison.", capitalise(&name)))
                    }
                    _ => None,
                };
                if let Some(line) = line {
                    self.say(line);
                }
                if self.planted_undead() {
                    return; // left on the floor and in the queue, hit points spent
                }
                self.state.monsters.retain(|m| m.id != id);
                self.state.clock.remove(Actor::Monster(id));
            }
        }
    }

    /// The statuses of a creature, if it is still alive.
    pub(super) fn statuses_mut(&mut self, who: Who) -> Option<&mut Statuses> {
        match who {
            Who::Player => Some(&mut self.state.player.statuses),
            Who::Monster(id) => self.monster_mut(id).map(|m| &mut m.statuses),
        }
    }

    /// Says `player_line` or `monster_line` (with the creature's name) when
    /// the player can see it happen.
    pub(super) fn narrate(
        &mut self,
        who: Who,
        player_line: &str,
        monster_line: impl FnOnce(String) -> String,
    ) {
        if !self.is_seen(who) {
            return;
        }
        let line = match who {
            Who::Player => player_line.to_string(),
            Who::Monster(_) => monster_line(capitalise(&self.named(who))),
        };
        self.say(line);
    }

    /// A dose of poison. Said only when it starts: a fresh bite while
    /// already poisoned lengthens it quietly.
    fn poison(&mut self, who: Who, poison: &Poison, source: String) {
        let Some(statuses) = self.statuses_mut(who) else {
            return;
        };
        let already = statuses.poison.is_some();
        let remaining = statuses.poison.as_ref().map_or(0, |p| p.rounds);
        let rounds = rules::poison_rounds_after_dose(remaining, poison.turns);
        statuses.poison = Some(Poisoned {
            rounds,
            damage: poison.damage,
            source,
        });
        self.record(Event::Status {
            who,
            change: StatusChange::Poisoned { rounds },
        });
        if !already {
            self.narrate(who, "You are poisoned!", |name| {
                format!("{name} is poisoned.")
            });
        }
    }

    /// Confusion for `rounds`, said only when it starts.
    pub(super) fn confuse(&mut self, who: Who, rounds: u32) {
        let Some(statuses) = self.statuses_mut(who) else {
            return;
        };
        let already = statuses.is_confused();
        statuses.confused = statuses.confused.max(rounds);
        let rounds = statuses.confused;
        self.record(Event::Status {
            who,
            change: StatusChange::Confused { rounds },
        });
        if !already {
            self.narrate(who, "You are confused!", |name| {
                format!("{name} looks confused.")
            });
        }
    }

    // ----- the player's actions -----

    fn player_step(&mut self, intended: Dir) -> Spent {
        let confused = self.state.player.statuses.is_confused();
        let dir = if confused {
            let hijack = self.state.rng.below(100);
            let direction = self.state.rng.below(8);
            self.record(Event::Lurch {
                who: Who::Player,
                intended,
                hijack,
                direction,
            });
            if rules::stumbles(hijack) {
                self.say("You stumble.");
            }
            rules::confused_direction(intended, hijack, direction)
        } else {
            intended
        };
        match self.step_creature(Who::Player, dir, confused) {
            StepResult::Refused => Spent::No,
            StepResult::Wasted if self.planted_free_stumble() => Spent::No,
            StepResult::Move => {
                self.mention_items_here();
                Spent::Yes(BASE_ACTION_COST)
            }
            StepResult::Attack | StepResult::Wasted => Spent::Yes(BASE_ACTION_COST),
        }
    }

    fn mention_items_here(&mut self) {
        let here = self.state.player.pos;
        let lines: Vec<String> = self
            .state
            .items
            .iter()
            .filter(|i| i.pos == here)
            .map(|i| {
                format!(
                    "You see here {}.",
                    self.content.item(i.item).describe(i.count)
                )
            })
            .collect();
        for line in lines {
            self.say(line);
        }
        match self.state.floor.map.tile(here) {
            Tile::StairsDown => self.say("There are stairs down here."),
            Tile::Exit => self.say("The way out is here. Press > to take it."),
            _ => {}
        }
    }

    fn pick_up(&mut self) -> Spent {
        let here = self.state.player.pos;
        let Some(index) = self.state.items.iter().position(|i| i.pos == here) else {
            self.say("There is nothing here to pick up.");
            return Spent::No;
        };
        let FloorItem { item, count, .. } = self.state.items[index];
        let def = self.content.item(item);
        let Some(slot) = self.state.player.pack.slot_for(item, count, def.stackable) else {
            self.say("Your pack is full.");
            return Spent::No;
        };
        let line = format!(
            "You pick up {} ({}).",
            def.describe(count),
            slot_letter(slot)
        );
        self.record(Event::Items {
            item,
            count,
            from: Place::Floor(here),
            to: Place::Pack(slot),
        });
        self.state.items.remove(index);
        self.state.player.pack.add(slot, item, count);
        self.say(line);
        Spent::Yes(BASE_ACTION_COST)
    }

    fn take_stairs(&mut self) -> Spent {
        match self.state.floor.map.tile(self.state.player.pos) {
            Tile::StairsDown => {
                self.descend();
                Spent::Yes(BASE_ACTION_COST)
            }
            Tile::Exit => {
                let turn = self.state.clock.turn();
                self.say("You climb out of the Undercroft into the light. You win!");
                self.state.status = RunStatus::Won { turn };
                Spent::No
            }
            _ => {
                self.say("There are no stairs here.");
                Spent::No
            }
        }
    }

    /// Takes one of (or all of) a pack slot out, unequipping it if it leaves.
    fn take_from_pack(&mut self, slot: u8, count: u32) -> Option<super::state::Stack> {
        let taken = self.state.player.pack.take(slot, count)?;
        if self.state.player.pack.get(slot).is_none() {
            let player = &mut self.state.player;
            if player.wielded == Some(slot) {
                player.wielded = None;
            }
            if player.worn == Some(slot) {
                player.worn = None;
            }
        }
        Some(taken)
    }

    /// Leaves items on the floor, on an existing pile of the same stackable
    /// item if there is one.
    fn place_on_floor(&mut self, item: crate::content::ItemId, count: u32, at: Pos) {
        let stackable = self.content.item(item).stackable;
        if stackable
            && !self.planted_loose_piles()
            && let Some(pile) = self
                .state
                .items
                .iter_mut()
                .find(|i| i.pos == at && i.item == item && i.count + count <= MAX_STACK)
        {
            pile.count += count;
            return;
        }
        self.state.items.push(FloorItem {
            item,
            count,
            pos: at,
            seen: true,
        });
    }

    fn drop_item(&mut self, slot: u8) -> Spent {
        let Some(stack) = self.take_from_pack(slot, MAX_STACK) else {
            self.say("You have no such item.");
            return Spent::No;
        };
        let line = format!(
            "You drop {}.",
            self.content.item(stack.item).describe(stack.count)
        );
        let here = self.state.player.pos;
        self.record(Event::Items {
            item: stack.item,
            count: stack.count,
            from: Place::Pack(slot),
            to: Place::Floor(here),
        });
        if !self.planted_vanishing_drop() {
            self.place_on_floor(stack.item, stack.count, here);
        }
        self.say(line);
        Spent::Yes(BASE_ACTION_COST)
    }

    fn wear(&mut self, slot: u8) -> Spent {
        let Some(stack) = self.state.player.pack.get(slot) else {
            self.say("You have no such item.");
            return Spent::No;
        };
        let def = self.content.item(stack.item);
        let name = def.describe(1);
        let player = &mut self.state.player;
        let line = match def.effect {
            ItemEffect::Weapon { .. } if player.wielded == Some(slot) => {
                self.say("You are already wielding that.");
                return Spent::No;
            }
            ItemEffect::Armour { .. } if player.worn == Some(slot) => {
                self.say("You are already wearing that.");
                return Spent::No;
            }
            ItemEffect::Weapon { .. } => {
                player.wielded = Some(slot);
                self.record(Event::Equipped { slot, worn: false });
                format!("You wield {name}.")
            }
            ItemEffect::Armour { .. } => {
                player.worn = Some(slot);
                self.record(Event::Equipped { slot, worn: true });
                format!("You put on {name}.")
            }
            _ => {
                self.say("You can't wear or wield that.");
                return Spent::No;
            }
        };
        self.say(line);
        Spent::Yes(BASE_ACTION_COST)
    }

    fn use_item(&mut self, slot: u8, target: Option<Pos>) -> Spent {
        let Some(stack) = self.state.player.pack.get(slot) else {
            self.say("You have no such item.");
            return Spent::No;
        };
        let def = self.content.item(stack.item);
        let name = def.describe(1);
        match def.effect.clone() {
            ItemEffect::Thrown { .. } => match target {
                Some(target) => self.throw(slot, target),
                None => {
                    self.say("Throw it at something.");
                    Spent::No
                }
            },
            ItemEffect::Weapon { .. } | ItemEffect::Armour { .. } => self.wear(slot),
            ItemEffect::Confuse { turns } => {
                self.read_confusion(slot, stack.item, &name, turns, target)
            }
            ItemEffect::Heal { amount } => self.drink_healing(slot, stack.item, &name, amount),
            ItemEffect::CurePoison => self.drink_cure(slot, stack.item, &name),
            ItemEffect::MagicMapping => {
                self.use_up(slot, stack.item);
                self.state.floor.map.reveal_all();
                self.record(Event::MapRevealed);
                self.say(format!(
                    "You read {name}. A map of the floor forms in your mind."
                ));
                Spent::Yes(BASE_ACTION_COST)
            }
            ItemEffect::Teleport => {
                self.use_up(slot, stack.item);
                self.say(format!("You read {name}."));
                self.teleport_player();
                Spent::Yes(BASE_ACTION_COST)
            }
        }
    }

    /// An item that confuses, read at `target`: it needs a creature the
    /// player sees there.
    fn read_confusion(
        &mut self,
        slot: u8,
        item: crate::content::ItemId,
        name: &str,
        turns: u32,
        target: Option<Pos>,
    ) -> Spent {
        let victim = target
            .and_then(|t| self.occupant(t))
            .filter(|&w| w != Who::Player);
        let Some(victim) = victim.filter(|&w| self.is_seen(w)) else {
            self.say("There is nobody there to read it at.");
            return Spent::No;
        };
        self.use_up(slot, item);
        let victim_name = self.named(victim);
        self.say(format!("You read {name} at {victim_name}."));
        self.confuse(victim, turns);
        Spent::Yes(BASE_ACTION_COST)
    }

    /// An item that heals, drunk: the player gains what it rolls, up to the
    /// most hit points.
    fn drink_healing(
        &mut self,
        slot: u8,
        item: crate::content::ItemId,
        name: &str,
        amount: Dice,
    ) -> Spent {
        self.planted_panicking_potion(name);
        self.use_up(slot, item);
        let rolled = amount.roll(&mut self.state.rng);
        let weak = self.planted_weak_potion();
        let player = &mut self.state.player;
        let before = player.hp;
        if !weak {
            player.hp = rules::healed(player.hp, player.max_hp, rolled);
        }
        let after = player.hp;
        self.record(Event::HitPoints {
            who: Who::Player,
            before,
            after,
            cause: HpCause::Heal { rolled },
        });
        self.say(format!("You drink {name}. You feel better."));
        Spent::Yes(BASE_ACTION_COST)
    }

    /// An item that cures poison, drunk: it ends a poisoning, if any.
    fn drink_cure(&mut self, slot: u8, item: crate::content::ItemId, name: &str) -> Spent {
        self.use_up(slot, item);
        let line = if self.state.player.statuses.poison.take().is_some() {
            self.record(Event::Status {
                who: Who::Player,
                change: StatusChange::Cured,
            });
            format!("You drink {name}. The poison leaves your veins.")
        } else {
            format!("You drink {name}. Nothing happens.")
        };
        self.say(line);
        Spent::Yes(BASE_ACTION_COST)
    }

    /// One of the item in `slot` drunk or read: it leaves the pack for good.
    fn use_up(&mut self, slot: u8, item: crate::content::ItemId) {
        self.record(Event::Items {
            item,
            count: 1,
            from: Place::Pack(slot),
            to: Place::Used,
        });
        self.take_from_pack(slot, 1);
    }

    /// Moves the player to a uniformly random free walkable tile.
    fn teleport_player(&mut self) {
        let map = &self.state.floor.map;
        let here = self.state.player.pos;
        let free: Vec<Pos> = map
            .walkable_cells()
            .filter(|&p| p != here && !self.state.monsters.iter().any(|m| m.pos == p))
            .collect();
        let free = self.planted_fizzling_teleport(free);
        match self.state.rng.pick(&free) {
            Some(&to) => {
                self.record(Event::Teleported { from: here, to });
                self.state.player.pos = to;
                self.say("You are yanked elsewhere.");
            }
            None => self.say("You shudder for a moment."),
        }
    }

    fn throw(&mut self, slot: u8, target: Pos) -> Spent {
        let Some(stack) = self.state.player.pack.get(slot) else {
            self.say("You have no such item.");
            return Spent::No;
        };
        let def = self.content.item(stack.item);
        let ItemEffect::Thrown { to_hit, damage } = def.effect else {
            self.say("You can't throw that.");
            return Spent::No;
        };
        let name = def.name.clone();
        let from = self.state.player.pos;
        if target == from {
            self.say("You can't aim at yourself.");
            return Spent::No;
        }
        self.take_from_pack(slot, 1);
        let (landing, struck) = self.flight(from, target);
        self.say(format!("You throw {}.", with_article(&name)));
        self.record(Event::Thrown {
            item: stack.item,
            slot,
            landing,
        });
        if let Some(victim) = struck {
            self.missile_strikes(victim, stack.item, &name, to_hit, damage);
        }
        self.place_on_floor(stack.item, 1, landing);
        Spent::Yes(BASE_ACTION_COST)
    }

    /// Where a missile thrown from `from` at `target` lands, and whom it
    /// strikes: it flies along the line, each hop a legal step, until it
    /// meets a creature, a wall, the target or the end of its range.
    fn flight(&self, from: Pos, target: Pos) -> (Pos, Option<Who>) {
        let mut landing = from;
        let mut struck = None;
        for next in line(from, target)
            .into_iter()
            .skip(1)
            .take(rules::THROW_RANGE as usize)
        {
            let Some(dir) = landing.direction_to(next) else {
                break;
            };
            if !self.state.floor.map.can_step(landing, dir) {
                break;
            }
            landing = next;
            if let Some(who) = self.occupant(next) {
                struck = Some(who);
                break;
            }
        }
        (landing, struck)
    }

    /// A thrown `item` (called `name`) meets `victim`: d20 to hit with its
    /// bonus, and its damage on a hit.
    fn missile_strikes(
        &mut self,
        victim: Who,
        item: crate::content::ItemId,
        name: &str,
        to_hit: i32,
        damage: Dice,
    ) {
        let roll = self.state.rng.range(1, 20);
        let victim_name = self.named(victim);
        let defence = match victim {
            Who::Monster(id) => self
                .monster(id)
                .map_or(0, |m| self.content.monster(m.kind).dv),
            Who::Player => self.player_defence(),
        };
        let hit = rules::hit_connects(roll, rules::PLAYER_ATTACK + to_hit, defence);
        let dealt = if hit {
            rules::damage_dealt(damage.roll(&mut self.state.rng))
        } else {
            0
        };
        self.record(Event::Attack {
            attacker: Who::Player,
            defender: victim,
            missile: Some(item),
            roll,
            hit,
            damage: dealt,
        });
        if hit {
            self.say(format!("The {name} hits {victim_name} for {dealt}."));
            self.wound(victim, dealt, DeathCause::Blow(Who::Player));
        } else {
            self.say(format!("The {name} misses {victim_name}."));
        }
    }
}

/// What a message calls a creature the player cannot see.
const UNSEEN: &str = "something";

/// "a goblin", "an orc".
pub(super) fn with_article(name: &str) -> String {
    match name.chars().next() {
        Some(c) if "aeiouAEIOU".contains(c) => format!("an {name}"),
        _ => format!("a {name}"),
    }
}

/// "you hit" / "the goblin hits".
fn verb(who: Who, second_person: &'static str, third_person: &'static str) -> &'static str {
    match who {
        Who::Player => second_person,
        Who::Monster(_) => third_person,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn articles() {
        assert_eq!(with_article("orc"), "an orc");
        assert_eq!(with_article("goblin"), "a goblin");
    }
}
