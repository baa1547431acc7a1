//! The two multi-turn walks: running (Shift + direction) and auto-explore
//! (`o`). Each step is an ordinary player step followed by the monsters' turn,
//! and each walk stops when something interesting happens or at its bound, so
//! neither can spin.
//!
//! Auto-explore heads for the nearest frontier (a known walkable tile next to
//! an unknown one) over tiles the player has seen; when none is left it walks
//! to the stairs (or the exit) and stops on them.

use crate::geom::{Dir, Pos};
use crate::map::{BitGrid, Map, Tile};
use crate::paths;
use crate::rules::{BASE_ACTION_COST, StepResult};

use super::Game;
use super::Stuck;
use super::actions::Spent;
use super::events::Who;

/// Most steps one `o` takes before handing control back.
pub const AUTO_EXPLORE_LIMIT: u32 = 1000;
/// Most steps one run takes.
pub const RUN_LIMIT: u32 = 200;

/// What the player would notice and stop for: compared before and after each
/// step of a walk.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Watch {
    hp: i32,
    confused: bool,
    poisoned: bool,
    depth: u32,
    /// Items the player has seen: a new one in view stops the walk.
    items_seen: usize,
}

impl Game {
    fn watch(&self) -> Watch {
        let p = &self.state.player;
        Watch {
            hp: p.hp,
            confused: p.statuses.is_confused(),
            poisoned: p.statuses.is_poisoned(),
            depth: self.state.depth,
            items_seen: self.state.items.iter().filter(|i| i.seen).count(),
        }
    }

    /// Refuses to start a walk the player could not safely take.
    fn walk_refusal(&self) -> Option<&'static str> {
        if self.monster_in_view() {
            Some("Not with a monster in view.")
        } else if self.state.player.statuses.is_confused() {
            Some("You are too confused.")
        } else {
            None
        }
    }

    pub(super) fn run(&mut self, dir: Dir) -> Result<(), Stuck> {
        if let Some(refusal) = self.walk_refusal() {
            self.say(refusal);
            return Ok(());
        }
        let before = self.watch();
        let unseen = self.unseen_items();
        let shape = self.surroundings(dir);
        for step in 0..RUN_LIMIT {
            let ahead = self.state.player.pos.step(dir);
            if !self.state.floor.map.can_step(self.state.player.pos, dir)
                || self.occupant(ahead).is_some()
            {
                return Ok(());
            }
            if step > 0 && self.surroundings(dir) != shape {
                return Ok(()); // an opening or a junction: stop and let the player choose
            }
            if self.step_creature(Who::Player, dir, false) != StepResult::Move {
                return Ok(());
            }
            self.end_player_turn(BASE_ACTION_COST)?;
            if self.is_over()
                || self.watch() != before
                || self.walk_interrupted()
                || self.planted_short_run()
            {
                self.say_items_spotted(&unseen, before.depth);
                return Ok(());
            }
        }
        Ok(())
    }

    /// The floor items the player has not seen yet, by index: a walk notes
    /// them as it starts, to say which came into view when it stops.
    fn unseen_items(&self) -> Vec<usize> {
        let items = self.state.items.iter().enumerate();
        items.filter(|(_, i)| !i.seen).map(|(at, _)| at).collect()
    }

    /// A walk that stopped for an item coming into view says which, as it
    /// says "You see a rat." for a monster: "You see a dart." `unseen` is
    /// [`Game::unseen_items`] at the walk's start on floor `depth`; on
    /// another floor its indices mean nothing, and a new floor's items are
    /// not what stopped the walk.
    fn say_items_spotted(&mut self, unseen: &[usize], depth: u32) {
        if self.state.depth != depth {
            return;
        }
        if self.planted_quiet_walk() {
            return;
        }
        let spotted: Vec<String> = unseen
            .iter()
            .filter_map(|&at| self.state.items.get(at))
            .filter(|item| item.seen)
            .map(|item| self.content.item(item.item).describe(item.count))
            .collect();
        for name in spotted {
            self.say(format!("You see {name}."));
        }
    }

    /// Which of the neighbours beside the direction of travel are walkable: a
    /// run stops when this changes, at a side opening or the end of a room wall.
    fn surroundings(&self, dir: Dir) -> [bool; 8] {
        let here = self.state.player.pos;
        let map = &self.state.floor.map;
        let mut shape = [false; 8];
        for d in Dir::ALL {
            if d != dir {
                shape[d.index()] = map.is_walkable(here.step(d));
            }
        }
        shape
    }

    /// Something that should stop any walk besides a change in the watch: a
    /// monster in view, or standing on an item or the stairs.
    fn walk_interrupted(&self) -> bool {
        let here = self.state.player.pos;
        self.monster_in_view()
            || self.state.items.iter().any(|i| i.pos == here)
            || matches!(
                self.state.floor.map.tile(here),
                Tile::StairsDown | Tile::Exit
            )
    }

    pub(super) fn auto_explore(&mut self) -> Result<(), Stuck> {
        if let Some(refusal) = self.walk_refusal() {
            self.say(refusal);
            return Ok(());
        }
        let before = self.watch();
        let unseen = self.unseen_items();
        let mut plan = None;
        for step in 0..AUTO_EXPLORE_LIMIT {
            let Some(dir) = self.explore_direction(&mut plan) else {
                let on_goal = self.state.player.pos == self.state.floor.goal;
                if step == 0 {
                    self.say(if on_goal {
                        "There is nothing left to explore here."
                    } else {
                        "You can't find anywhere else to go."
                    });
                }
                return Ok(());
            };
            match self.player_act(super::actions::Action::Step(dir)) {
                Spent::Yes(cost) => self.end_player_turn(cost)?,
                Spent::No => return Ok(()),
            }
            if self.is_over() || self.watch() != before || self.walk_interrupted() {
                self.say_items_spotted(&unseen, before.depth);
                return Ok(());
            }
        }
        self.say("You stop exploring for a moment.");
        Ok(())
    }

    /// The first step toward the nearest frontier over known ground, or once
    /// the floor is explored, toward the goal. `None` when there is nowhere to
    /// go (already on the goal, or nothing reachable).
    ///
    /// `plan` is what the previous step of this walk worked out; it is used
    /// only where it gives the answer a fresh search would (see [`Plan`]).
    fn explore_direction(&self, plan: &mut Option<Plan>) -> Option<Dir> {
        let map = &self.state.floor.map;
        let from = self.state.player.pos;
        if let Some(homesick) = self.planted_homesick() {
            return homesick;
        }
        let plan = match plan {
            Some(plan) if plan.made_on(map) && plan.stands_at(from) => plan,
            _ => plan.insert(Plan::search(map, from)),
        };
        let dir = match &mut plan.to_frontier {
            Some(steps) => steps.pop()?,
            None => {
                // Standing on the goal, A* gives an empty route: no step.
                let goal = self.state.floor.goal;
                if !map.is_revealed(goal) {
                    return None;
                }
                let (known, exits) = plan.known.get_or_insert_with(|| {
                    let known = known_ground(map);
                    let exits = paths::Exits::of(&known);
                    (known, exits)
                });
                let route = paths::astar_on(known, exits, from, goal, map.len())?;
                route.first().and_then(|&next| from.direction_to(next))?
            }
        };
        plan.stepped(map, from, dir);
        Some(dir)
    }
}

/// What one `o` has worked out, kept from one step of the walk to the next
/// while the answer it gives is provably the one a fresh search would give.
///
/// The search ([`route_to_frontier`]) finds the shortest route to the nearest
/// frontier that comes first in [`Dir::ALL`] order at every step (the
/// breadth-first order). Take its first step from `p` to `q`: if the known
/// ground is the same at `q` and `p` does not border the unknown, the rest of
/// the route is exactly what a search from `q` finds. No frontier is nearer
/// to `q` than the route's end (it would be nearer to `p` too, by way of `q`,
/// or be `p` itself), and among the routes that near, the first in order is
/// the remainder of the first from `p`. Likewise "no frontier is reachable"
/// still holds one step on. So one search serves every step across ground
/// already seen; a step that reveals anything searches again. Local to one
/// press of `o`: nothing of it reaches the state.
struct Plan {
    /// The revealed layer the plan was made on.
    revealed: BitGrid,
    /// Where the player must stand for the plan to hold.
    at: Option<Pos>,
    /// The rest of the route to the nearest frontier, last step first;
    /// `None` when no frontier could be reached.
    to_frontier: Option<Vec<Dir>>,
    /// The known ground on `revealed` and its exits, for the walk to the
    /// goal.
    known: Option<(Map, paths::Exits)>,
}

impl Plan {
    fn search(map: &Map, from: Pos) -> Plan {
        Plan {
            revealed: map.revealed.clone(),
            at: Some(from),
            to_frontier: route_to_frontier(map, from),
            known: None,
        }
    }

    /// Whether the known ground is what the plan was made on.
    fn made_on(&self, map: &Map) -> bool {
        self.revealed == map.revealed
    }

    /// Whether the player stands where the plan goes on from, with a step
    /// of it left.
    fn stands_at(&self, from: Pos) -> bool {
        self.at == Some(from)
            && self
                .to_frontier
                .as_ref()
                .is_none_or(|steps| !steps.is_empty())
    }

    /// The walk is taking `dir` from `from`: where the plan holds next.
    fn stepped(&mut self, map: &Map, from: Pos, dir: Dir) {
        self.at = (!borders_unknown(map, from)).then(|| from.step(dir));
    }
}

/// Whether `p` has an unrevealed neighbour on the map: a frontier tile.
fn borders_unknown(map: &Map, p: Pos) -> bool {
    Dir::ALL.into_iter().any(|d| {
        let n = p.step(d);
        map.in_bounds(n) && !map.is_revealed(n)
    })
}

/// A copy of the map with every tile the player has not seen as rock, so
/// paths only cross known ground.
pub(super) fn known_ground(map: &Map) -> Map {
    let mut known = Map::new(map.width(), map.height());
    for idx in map.revealed.iter_ones() {
        let p = map.idx_pos(idx);
        known.set(p, map.tile(p));
    }
    known
}

/// Breadth-first over revealed walkable tiles from `from` to the nearest one
/// that borders an unrevealed tile; returns the route there as its steps,
/// last step first, or `None` when no such tile can be reached. The start
/// itself does not count: standing at the edge of the unknown, the walk goes
/// to the nearest other tile that does. Neighbours are taken in [`Dir::ALL`]
/// order, so of the shortest routes the one found is the first in that
/// order at every step.
fn route_to_frontier(map: &Map, from: Pos) -> Option<Vec<Dir>> {
    // How each visited tile was first reached; NOT_SEEN where it was not.
    const NOT_SEEN: u8 = u8::MAX;
    const START: u8 = u8::MAX - 1;
    let revealed = &map.revealed;
    let offsets = map.neighbour_offsets();
    let mut came_by = vec![NOT_SEEN; map.len()];
    came_by[map.xy_idx(from)] = START;
    // Each tile is queued once at most: a list read from a moving head.
    let mut queue: Vec<Pos> = Vec::with_capacity(64);
    queue.push(from);
    let mut head = 0;
    let mut bound = crate::bound::Bound::visits_each_once("frontier search", map.len());
    while let Some(&here) = queue.get(head) {
        head += 1;
        bound.tick();
        let (at, inside) = (map.xy_idx(here), map.away_from_edge(here));
        // One look at each neighbour both tells whether `here` borders the
        // unknown (a frontier: the search ends) and queues the ones to go on to.
        for (dir, offset) in Dir::ALL.into_iter().zip(offsets) {
            let Some(idx) = map.neighbour_index((here, at), inside, dir, offset) else {
                continue;
            };
            if !revealed.get(idx) {
                if here == from {
                    continue; // the start does not count
                }
                return Some(route_back(map, &came_by, here));
            }
            if came_by[idx] != NOT_SEEN || !map.can_step(here, dir) {
                continue;
            }
            came_by[idx] = dir.index() as u8;
            queue.push(here.step(dir));
        }
    }
    None
}

/// The steps that reached `to` in a search that recorded how it first
/// reached each tile, last step first.
fn route_back(map: &Map, came_by: &[u8], to: Pos) -> Vec<Dir> {
    let mut steps = Vec::new();
    let mut at = to;
    let mut bound = crate::bound::Bound::visits_each_once("frontier route", map.len());
    while let Some(&dir) = Dir::ALL.get(usize::from(came_by[map.xy_idx(at)])) {
        bound.tick();
        steps.push(dir);
        let (dx, dy) = dir.delta();
        at = at.offset(-dx, -dy);
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{DEFAULT_HEIGHT, DEFAULT_WIDTH};
    use crate::mapgen::generate_floor;
    use crate::rng::RunSeed;

    /// The first step a fresh search takes from `from`.
    fn fresh(map: &Map, from: Pos) -> Option<Dir> {
        route_to_frontier(map, from).and_then(|steps| steps.last().copied())
    }

    /// Following a plan across ground that stays as it is gives, at every
    /// step, the step a fresh search there gives: on generated floors with
    /// a random part revealed, from every walkable revealed tile, until the
    /// plan stops holding (a step from the edge of the unknown, or its
    /// route's end), and then once more from a fresh plan.
    #[test]
    fn a_plan_steps_as_a_fresh_search_would() {
        let mut followed = 0;
        for seed in 1..=8u64 {
            let mut floor = generate_floor(
                RunSeed(seed),
                (seed % 6) as u32 + 1,
                DEFAULT_WIDTH,
                DEFAULT_HEIGHT,
            );
            let map = &mut floor.map;
            let mut rng = RunSeed(seed).stream("plan-test", 0);
            // Revealed: a few discs of ground, as sight leaves it.
            for _ in 0..6 {
                let centre = Pos::new(
                    rng.below(map.width() as u32) as i32,
                    rng.below(map.height() as u32) as i32,
                );
                for p in map
                    .bounds()
                    .cells()
                    .filter(|p| p.distance_squared(centre) <= 120)
                {
                    let idx = map.xy_idx(p);
                    map.revealed.insert(idx);
                }
            }
            let starts: Vec<Pos> = map
                .walkable_cells()
                .filter(|&p| map.is_revealed(p))
                .collect();
            for &start in starts.iter().step_by(5) {
                let mut plan = Plan::search(map, start);
                let mut at = start;
                for _ in 0..map.len() {
                    if !(plan.made_on(map) && plan.stands_at(at)) {
                        plan = Plan::search(map, at);
                    }
                    let Some(dir) = plan.to_frontier.as_mut().and_then(Vec::pop) else {
                        assert_eq!(fresh(map, at), None, "seed {seed}, from {start} at {at}");
                        break;
                    };
                    assert_eq!(
                        Some(dir),
                        fresh(map, at),
                        "seed {seed}, from {start} at {at}"
                    );
                    followed += 1;
                    plan.stepped(map, at, dir);
                    at = at.step(dir);
                    if borders_unknown(map, at) && plan.at.is_none() {
                        break;
                    }
                }
            }
        }
        assert!(followed > 1000, "only {followed} steps followed");
    }
}
