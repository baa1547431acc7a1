//! Pathfinding over [`Map::can_step`]: breadth-first distances (connectivity,
//! farthest tiles, auto-explore), the per-turn Dijkstra map from the player
//! that chasing monsters descend, and A* for a single route.
//!
//! Every step costs one (Chebyshev moves), so "Dijkstra" is a breadth-first
//! search; the name says what it is used for. All of them expand neighbours
//! in [`Dir::ALL`] order, so ties always break the same way.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::geom::{Dir, Pos};
use crate::map::Map;

/// Distance value for a tile that cannot be reached.
pub const UNREACHABLE: u32 = u32::MAX;

/// Steps from `start` to every tile, [`UNREACHABLE`] where no path exists.
/// Indexed like the map's layers.
pub fn bfs_distances(map: &Map, start: Pos) -> Vec<u32> {
    // Rock is marked up front so the search never asks the step rule about
    // it: a neighbour already marked (seen, or rock) is skipped with one load.
    const ROCK: u32 = UNREACHABLE - 1;
    let mut dist: Vec<u32> = map
        .tiles()
        .iter()
        .map(|t| if t.is_walkable() { UNREACHABLE } else { ROCK })
        .collect();
    if map.is_walkable(start) {
        let mut queue = VecDeque::with_capacity(map.len() / 4);
        dist[map.xy_idx(start)] = 0;
        queue.push_back(start);
        // Each tile is queued once, when it is first labelled.
        let mut bound = crate::bound::Bound::visits_each_once("breadth-first search", map.len());
        while let Some(here) = queue.pop_front() {
            bound.tick();
            let next_dist = dist[map.xy_idx(here)] + 1;
            for dir in Dir::ALL {
                let next = here.step(dir);
                if !map.in_bounds(next) || dist[map.xy_idx(next)] != UNREACHABLE {
                    continue;
                }
                if map.can_step(here, dir) {
                    dist[map.xy_idx(next)] = next_dist;
                    queue.push_back(next);
                }
            }
        }
    }
    for d in &mut dist {
        if *d == ROCK {
            *d = UNREACHABLE;
        }
    }
    dist
}

/// The reachable tile farthest from `start` by steps; ties go to the first in
/// row-major order. `None` when `start` is off the map.
pub fn farthest_tile(map: &Map, start: Pos) -> Option<(Pos, u32)> {
    let dist = bfs_distances(map, start);
    dist.iter()
        .enumerate()
        .filter(|(_, d)| **d != UNREACHABLE)
        // max_by_key keeps the last maximum; reverse the index to keep the first.
        .max_by_key(|(i, d)| (**d, Reverse(*i)))
        .map(|(i, d)| (map.idx_pos(i), *d))
}

/// Distances from one origin, out to a cutoff: the map every chasing monster
/// walks downhill on.
///
/// The search is lazy. It labels tiles in breadth-first order only as far as
/// someone has asked, and resumes from where it stopped when asked about a
/// tile it has not reached. The labelled tiles are therefore always a prefix
/// of the full search's order, so every answer is the one a full search would
/// give: the map is a pure function of (floor, origin, cutoff), however and
/// whenever it is queried, and a game may keep it while the player stands
/// still.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DijkstraMap {
    origin: Pos,
    max_steps: u16,
    dist: Vec<u16>,
    /// Labelled tiles whose neighbours are not yet labelled, in search order.
    frontier: VecDeque<Pos>,
    /// Tiles taken off the frontier so far: each is labelled once, so never
    /// more than the map holds.
    bound: crate::bound::Bound,
}

impl DijkstraMap {
    /// Distance value beyond the cutoff or unreachable.
    pub const FAR: u16 = u16::MAX;

    /// A map from `origin` that has searched nothing yet.
    pub fn lazy(map: &Map, origin: Pos, max_steps: u16) -> Self {
        let mut dist = vec![Self::FAR; map.len()];
        let mut frontier = VecDeque::new();
        if map.in_bounds(origin) {
            dist[map.xy_idx(origin)] = 0;
            frontier.push_back(origin);
        }
        Self {
            origin,
            max_steps,
            bound: crate::bound::Bound::visits_each_once("chase map search", dist.len()),
            dist,
            frontier,
        }
    }

    /// A map from `origin` searched out to `max_steps`.
    pub fn new(map: &Map, origin: Pos, max_steps: u16) -> Self {
        let mut dm = Self::lazy(map, origin, max_steps);
        dm.search_until(map, |_| false);
        dm
    }

    pub fn origin(&self) -> Pos {
        self.origin
    }

    /// Steps from the origin to `p`, searching further if needed; `None`
    /// beyond the cutoff or when `p` cannot be reached.
    pub fn distance(&mut self, map: &Map, p: Pos) -> Option<u16> {
        if !map.in_bounds(p) {
            return None;
        }
        let idx = map.xy_idx(p);
        self.search_until(map, |dist| dist[idx] != Self::FAR);
        Some(self.dist[idx]).filter(|&d| d != Self::FAR)
    }

    /// The legal steps from `from` that go strictly downhill, best first (ties
    /// in [`Dir::ALL`] order). A monster takes the first one it is free to.
    /// Breadth-first order labels a whole ring before the next, so once
    /// `from` is labelled every nearer neighbour is too.
    pub fn downhill(&mut self, map: &Map, from: Pos) -> Vec<Dir> {
        let Some(here) = self.distance(map, from) else {
            return Vec::new();
        };
        let mut steps: Vec<(u16, Dir)> = map
            .exits(from)
            .filter_map(|(dir, to)| {
                let d = self.dist[map.xy_idx(to)];
                (d < here).then_some((d, dir))
            })
            .collect();
        steps.sort_by_key(|&(d, dir)| (d, dir.index()));
        steps.into_iter().map(|(_, dir)| dir).collect()
    }

    /// Runs the breadth-first search onward until `done` holds or nothing is
    /// left within the cutoff.
    fn search_until(&mut self, map: &Map, done: impl Fn(&[u16]) -> bool) {
        while !done(&self.dist) {
            let Some(here) = self.frontier.pop_front() else {
                return;
            };
            self.bound.tick();
            let d = self.dist[map.xy_idx(here)];
            if d >= self.max_steps {
                continue;
            }
            for dir in Dir::ALL {
                let next = here.step(dir);
                if !map.in_bounds(next) {
                    continue;
                }
                let idx = map.xy_idx(next);
                if self.dist[idx] == Self::FAR && map.can_step(here, dir) {
                    self.dist[idx] = d + 1;
                    self.frontier.push_back(next);
                }
            }
        }
    }
}

/// A shortest route from `from` to `to` over legal steps, as the tiles after
/// `from` up to and including `to`; `None` when there is none. Gives up after
/// expanding `max_nodes` tiles, so a search can never run away.
pub fn astar(map: &Map, from: Pos, to: Pos, max_nodes: usize) -> Option<Vec<Pos>> {
    if !map.in_bounds(from) || !map.is_walkable(to) {
        return None;
    }
    if from == to {
        return Some(Vec::new());
    }
    let mut cost = vec![u32::MAX; map.len()];
    let mut came_from = vec![usize::MAX; map.len()];
    // Min-heap on (estimated total, steps so far reversed so deeper nodes win
    // ties, tile index) — a total order, so the pop sequence is deterministic.
    let mut open = BinaryHeap::new();
    let start = map.xy_idx(from);
    let goal = map.xy_idx(to);
    cost[start] = 0;
    open.push(Reverse((from.chebyshev(to) as u32, Reverse(0u32), start)));
    let mut expanded = 0;
    // A tile is pushed again only when a cheaper way to it is found, once per
    // neighbour at most.
    let mut bound = crate::bound::Bound::astar(map.len());
    while let Some(Reverse((_, Reverse(g), idx))) = open.pop() {
        bound.tick();
        if idx == goal {
            let mut route = vec![to];
            let mut at = goal;
            let mut walk_back = crate::bound::Bound::visits_each_once("A* route", map.len());
            while came_from[at] != start {
                walk_back.tick();
                at = came_from[at];
                route.push(map.idx_pos(at));
            }
            route.reverse();
            return Some(route);
        }
        if g > cost[idx] {
            continue; // a stale entry: a cheaper way here was found later
        }
        expanded += 1;
        if expanded > max_nodes {
            return None;
        }
        let here = map.idx_pos(idx);
        for (_, next) in map.exits(here) {
            let n = map.xy_idx(next);
            let g_next = g + 1;
            if g_next < cost[n] {
                cost[n] = g_next;
                came_from[n] = idx;
                let f = g_next + next.chebyshev(to) as u32;
                open.push(Reverse((f, Reverse(g_next), n)));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::map_from;

    /// One winding corridor from (1, 1) to its dead end at (7, 5).
    const SNAKE: [&str; 7] = [
        "#########", //
        "#.......#", //
        "#######.#", //
        "#.......#", //
        "#.#######", //
        "#.......#", //
        "#########",
    ];

    #[test]
    fn bfs_counts_diagonal_steps_as_one() {
        let map = map_from(&["#####", "#...#", "#...#", "#...#", "#####"]);
        let dist = bfs_distances(&map, Pos::new(1, 1));
        assert_eq!(dist[map.xy_idx(Pos::new(3, 3))], 2);
        assert_eq!(dist[map.xy_idx(Pos::new(0, 0))], UNREACHABLE);
    }

    #[test]
    fn bfs_respects_the_diagonal_squeeze_rule() {
        let map = map_from(&["####", "#.##", "##.#", "####"]);
        let dist = bfs_distances(&map, Pos::new(1, 1));
        assert_eq!(dist[map.xy_idx(Pos::new(2, 2))], UNREACHABLE);
    }

    #[test]
    fn farthest_tile_follows_the_corridor() {
        let map = map_from(&SNAKE);
        let (far, d) = farthest_tile(&map, Pos::new(1, 1)).expect("start on map");
        assert_eq!(far, Pos::new(7, 5));
        // 5 + 5 + 5 along the rows, and each of the four turns is one
        // diagonal step (passing one wall, never two).
        assert_eq!(d, 18);
    }

    #[test]
    fn astar_finds_a_shortest_route() {
        let map = map_from(&SNAKE);
        let route = astar(&map, Pos::new(1, 1), Pos::new(7, 5), 1000).expect("connected");
        let dist = bfs_distances(&map, Pos::new(1, 1));
        assert_eq!(route.len() as u32, dist[map.xy_idx(Pos::new(7, 5))]);
        assert_eq!(route.last(), Some(&Pos::new(7, 5)));
        let mut at = Pos::new(1, 1);
        for &next in &route {
            let dir = at.direction_to(next).expect("adjacent");
            assert!(map.can_step(at, dir));
            at = next;
        }
    }

    #[test]
    fn astar_gives_up_on_walls_and_budgets() {
        let map = map_from(&SNAKE);
        assert_eq!(astar(&map, Pos::new(1, 1), Pos::new(0, 0), 1000), None);
        assert_eq!(astar(&map, Pos::new(1, 1), Pos::new(7, 5), 3), None);
        assert_eq!(
            astar(&map, Pos::new(1, 1), Pos::new(1, 1), 10),
            Some(vec![])
        );
    }

    #[test]
    fn dijkstra_map_descends_toward_its_origin_and_stops_at_the_cutoff() {
        let map = map_from(&SNAKE);
        let mut dm = DijkstraMap::new(&map, Pos::new(7, 5), 30);
        let mut at = Pos::new(1, 1);
        for _ in 0..18 {
            let dir = dm.downhill(&map, at)[0];
            at = at.step(dir);
        }
        assert_eq!(at, Pos::new(7, 5));
        assert!(dm.downhill(&map, at).is_empty());

        let mut short = DijkstraMap::new(&map, Pos::new(7, 5), 5);
        assert_eq!(short.distance(&map, Pos::new(1, 1)), None);
        assert_eq!(short.distance(&map, Pos::new(2, 5)), Some(5));
    }

    #[test]
    fn a_lazy_map_answers_as_a_full_one_whatever_the_order_of_questions() {
        let map = map_from(&SNAKE);
        let origin = Pos::new(7, 5);
        let full = DijkstraMap::new(&map, origin, 30);
        let mut lazy = DijkstraMap::lazy(&map, origin, 30);
        let mut asked: Vec<Pos> = map.walkable_cells().collect();
        asked.reverse();
        for p in asked {
            let mut full = full.clone();
            assert_eq!(lazy.distance(&map, p), full.distance(&map, p), "{p}");
            assert_eq!(lazy.downhill(&map, p), full.downhill(&map, p), "{p}");
        }
        for p in map.bounds().cells() {
            let mut full = full.clone();
            assert_eq!(lazy.distance(&map, p), full.distance(&map, p), "{p}");
        }
    }
}
