//! The turn loop after the player acts: monsters by the clock, statuses by
//! the round, and what the player sees when control comes back.
//!
//! A monster reads the floor and decides (attack if adjacent, else walk
//! downhill on the one Dijkstra map from the player), then acts through the
//! same step and attack code the player uses. A monster's action is always
//! charged at least a wait: a monster handed a free retry would ask again
//! forever.

use crate::fov;
use crate::geom::Dir;
use crate::paths::DijkstraMap;
use crate::rules::{self, BASE_ACTION_COST};

use super::Game;
use super::Stuck;
use super::actions::DeathCause;
use super::events::{Event, Who};
use super::state::{Monster, MonsterRef};
use super::turn::Actor;

/// Bound on monster actions and round ticks between two player turns. A
/// floor's worth of monsters at top speed uses a few hundred; reaching this
/// means the clock has stopped moving.
pub const MAX_ACTIVATIONS: u32 = 10_000;

/// What a monster's turn came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Acted {
    Acted,
    /// It wanted to act and could not: awake, with no free step toward the
    /// player.
    Refused,
}

/// How far (in steps) chasing monsters can follow the player.
pub const CHASE_RADIUS: u16 = 40;

impl Game {
    pub(super) fn monster(&self, id: MonsterRef) -> Option<&Monster> {
        self.state.monsters.iter().find(|m| m.id == id)
    }

    pub(super) fn monster_mut(&mut self, id: MonsterRef) -> Option<&mut Monster> {
        self.state.monsters.iter_mut().find(|m| m.id == id)
    }

    /// Runs everyone else until the player's turn comes round, ticking
    /// statuses at every round boundary on the way.
    pub(super) fn run_monsters(&mut self) -> Result<(), Stuck> {
        for _ in 0..MAX_ACTIVATIONS {
            if self.is_over() {
                return Ok(());
            }
            let Some(next) = self.state.clock.peek() else {
                return Err(Stuck {
                    loop_name: "turn",
                    detail: "the turn queue is empty: the player has no turn to come back to"
                        .into(),
                });
            };
            if self.state.clock.take_round_boundary(next.at) {
                if !self.planted_skipped_round() {
                    self.tick_round();
                }
                continue;
            }
            let Some(entry) = self.state.clock.pop() else {
                continue;
            };
            match entry.actor {
                Actor::Player => {
                    self.wake_and_notice();
                    return Ok(());
                }
                Actor::Monster(id) => self.monster_turn(id),
            }
        }
        Err(Stuck {
            loop_name: "turn",
            detail: format!(
                "{MAX_ACTIVATIONS} monster actions and round ticks at turn {} without the player's turn coming round",
                self.state.clock.turn()
            ),
        })
    }

    fn monster_turn(&mut self, id: MonsterRef) {
        let Some(monster) = self.monster(id) else {
            return; // died before its turn; the dead are not rescheduled
        };
        let speed = self.content.monster(monster.kind).speed;
        self.record(Event::MonsterTurn { id });
        let acted = self.monster_act(id);
        if self.monster(id).is_some() {
            // Every turn is charged at least a wait, a refused one too: a
            // monster handed a free retry asks again forever.
            let now = self.state.clock.now();
            let uncharged = self.planted_uncharged(acted);
            let at = if uncharged {
                now
            } else {
                now + rules::scaled_cost(BASE_ACTION_COST, speed)
            };
            self.state.clock.schedule(Actor::Monster(id), at);
        }
    }

    /// One monster's turn: read the floor, decide, act through the same step
    /// and attack code as the player.
    fn monster_act(&mut self, id: MonsterRef) -> Acted {
        let Some(monster) = self.monster(id) else {
            return Acted::Refused;
        };
        let awake = monster.awake;
        let sleepwalking = self.planted_sleepwalking();
        let intended = if awake || sleepwalking {
            self.chase_step(id)
        } else {
            None
        };
        if self.monster(id).is_some_and(|m| m.statuses.is_confused()) {
            // A confused monster lurches like a confused player: half the
            // time a random way, and its step always spends the turn.
            let hijack = self.state.rng.below(100);
            let direction = self.state.rng.below(8);
            let wanted = intended.unwrap_or(Dir::ALL[direction as usize]);
            self.record(Event::Lurch {
                who: Who::Monster(id),
                intended: wanted,
                hijack,
                direction,
            });
            let dir = rules::confused_direction(wanted, hijack, direction);
            self.step_creature(Who::Monster(id), dir, true);
            Acted::Acted
        } else if let Some(dir) = intended {
            self.step_creature(Who::Monster(id), dir, false);
            Acted::Acted
        } else if awake {
            // Awake with no free step toward the player: the chase is refused.
            Acted::Refused
        } else {
            Acted::Acted // asleep: waiting is what it does
        }
    }

    /// Where an awake monster wants to step: at the player when adjacent,
    /// otherwise the first free downhill step of the one chase map from the
    /// player, which every chaser shares.
    fn chase_step(&mut self, id: MonsterRef) -> Option<Dir> {
        let from = self.monster(id)?.pos;
        let player = self.state.player.pos;
        let map = &self.state.floor.map;
        if let Some(dir) = from.direction_to(player)
            && map.can_step(from, dir)
        {
            return Some(dir);
        }
        let depth = self.state.depth;
        let fresh =
            matches!(&self.cache.chase, Some((d, dm)) if *d == depth && dm.origin() == player);
        if !fresh {
            let reach = self.planted_chase_reach();
            self.cache.chase = Some((depth, DijkstraMap::lazy(map, player, reach)));
        }
        let (_, chase) = self.cache.chase.as_mut()?;
        let downhill = chase.downhill(map, from);
        downhill
            .into_iter()
            .find(|&dir| self.occupant(from.step(dir)).is_none())
    }

    /// Once a round: poison bites and confusion wears off, the player first,
    /// then monsters in spawn order.
    fn tick_round(&mut self) {
        self.record(Event::Round);
        self.tick_statuses(Who::Player);
        let ids: Vec<MonsterRef> = self.state.monsters.iter().map(|m| m.id).collect();
        for id in ids {
            if self.is_over() {
                return;
            }
            self.tick_statuses(Who::Monster(id));
        }
    }

    fn tick_statuses(&mut self, who: Who) {
        let endless = self.planted_endless_confusion();
        let Some(statuses) = self.statuses_mut(who) else {
            return;
        };
        let steadied = statuses.confused == 1;
        if !endless {
            statuses.confused = statuses.confused.saturating_sub(1);
        }
        let mut bite = None;
        let mut wore_off = false;
        if let Some(poison) = &mut statuses.poison {
            poison.rounds -= 1;
            bite = Some((poison.damage, poison.source.clone()));
            if poison.rounds == 0 {
                statuses.poison = None;
                wore_off = true;
            }
        }
        if let Some((damage, source)) = bite {
            let dealt = rules::damage_dealt(damage.roll(&mut self.state.rng));
            if dealt > 0 {
                self.narrate(who, &format!("The poison burns for {dealt}."), |name| {
                    format!("{name} shudders from the poison.")
                });
            }
            if self.wound(who, dealt, DeathCause::Poison(source)) {
                return;
            }
        }
        if steadied {
            self.narrate(who, "You feel less confused.", |name| {
                format!("{name} looks steadier.")
            });
        }
        if wore_off {
            self.narrate(who, "The poison wears off.", |name| {
                format!("{name} looks healthier.")
            });
        }
    }

    /// Recomputes what the player sees (only when they have moved) and lets
    /// monsters in view notice them.
    pub(super) fn refresh_view(&mut self) {
        let origin = (self.state.depth, self.state.player.pos);
        if self.cache.view_origin != Some(origin) {
            let radius = self.planted_sight_radius();
            fov::update(&mut self.state.floor.map, origin.1, radius);
            self.planted_blind_spot();
            self.cache.view_origin = Some(origin);
        }
        self.wake_and_notice();
    }

    /// Monsters on tiles the player can see wake (sight is symmetric, so they
    /// see the player too), and items in view are marked seen.
    pub(super) fn wake_and_notice(&mut self) {
        let map = &self.state.floor.map;
        let mut noticed = Vec::new();
        for m in &mut self.state.monsters {
            if !m.awake && map.is_visible(m.pos) {
                m.awake = true;
                self.events.push(Event::Noticed { id: m.id });
                noticed.push(self.content.monster(m.kind).name.clone());
            }
        }
        for item in &mut self.state.items {
            if !item.seen && map.is_visible(item.pos) {
                item.seen = true;
            }
        }
        for name in noticed {
            self.say(format!("You see {}.", super::actions::with_article(&name)));
        }
    }

    /// A copy of the chase map the monsters walk by on this floor, if one is
    /// kept: for the oracle that checks it against a plain search.
    pub fn chase_map(&self) -> Option<DijkstraMap> {
        match &self.cache.chase {
            Some((depth, map)) if *depth == self.state.depth => Some(map.clone()),
            _ => None,
        }
    }

    /// Whether any monster stands where the player can see.
    pub(super) fn monster_in_view(&self) -> bool {
        let map = &self.state.floor.map;
        self.state.monsters.iter().any(|m| map.is_visible(m.pos))
    }
}
