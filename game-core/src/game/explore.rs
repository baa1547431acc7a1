//! The two multi-turn walks: running (Shift + direction) and auto-explore
//! (`o`). Each step is an ordinary player step followed by the monsters' turn,
//! and each walk stops when something interesting happens or at its bound, so
//! neither can spin.
//!
//! Auto-explore heads for the nearest frontier (a known walkable tile next to
//! an unknown one) over tiles the player has seen; when none is left it walks
//! to the stairs (or the exit) and stops on them.

use std::collections::VecDeque;

use crate::geom::{Dir, Pos};
use crate::map::{Map, Tile};
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
                return Ok(());
            }
        }
        Ok(())
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
        for step in 0..AUTO_EXPLORE_LIMIT {
            let Some(dir) = self.explore_direction() else {
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
                return Ok(());
            }
        }
        self.say("You stop exploring for a moment.");
        Ok(())
    }

    /// The first step toward the nearest frontier over known ground, or once
    /// the floor is explored, toward the goal. `None` when there is nowhere to
    /// go (already on the goal, or nothing reachable).
    fn explore_direction(&self) -> Option<Dir> {
        let map = &self.state.floor.map;
        let from = self.state.player.pos;
        if let Some(homesick) = self.planted_homesick() {
            return homesick;
        }
        if let Some(dir) = first_step_to_frontier(map, from) {
            return Some(dir);
        }
        let goal = self.state.floor.goal;
        if from == goal || !map.is_revealed(goal) {
            return None;
        }
        let known = known_ground(map);
        let route = paths::astar(&known, from, goal, map.len())?;
        route.first().and_then(|&next| from.direction_to(next))
    }
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
/// that borders an unrevealed tile; returns the first step of that route.
/// The start itself does not count: standing at the edge of the unknown,
/// the walk goes to the nearest other tile that does.
fn first_step_to_frontier(map: &Map, from: Pos) -> Option<Dir> {
    let mut visited = crate::map::BitGrid::new(map.len());
    visited.insert(map.xy_idx(from));
    // Each queued tile carries the first step of the route that reached it.
    let mut queue: VecDeque<(Pos, Dir)> = VecDeque::new();
    // One look at each neighbour both tells whether `here` borders the
    // unknown (a frontier: the search ends) and queues the ones to go on to.
    let mut visit = |queue: &mut VecDeque<(Pos, Dir)>, here: Pos, first: Option<Dir>| {
        for dir in Dir::ALL {
            let next = here.step(dir);
            if !map.in_bounds(next) {
                continue;
            }
            if !map.is_revealed(next) {
                // Unknown ground: a frontier, unless `here` is the start.
                if let Some(first) = first {
                    return Some(first);
                }
                continue;
            }
            let idx = map.xy_idx(next);
            if visited.get(idx) || !map.can_step(here, dir) {
                continue;
            }
            visited.insert(idx);
            queue.push_back((next, first.unwrap_or(dir)));
        }
        None
    };
    visit(&mut queue, from, None);
    let mut bound = crate::bound::Bound::visits_each_once("frontier search", map.len());
    while let Some((here, first)) = queue.pop_front() {
        bound.tick();
        if let Some(found) = visit(&mut queue, here, Some(first)) {
            return Some(found);
        }
    }
    None
}
