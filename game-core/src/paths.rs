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
    let mut grid = Flood::of(map);
    if map.is_walkable(start) {
        grid.fill_from(grid.index(start), 0, |steps| steps + 1);
    }
    grid.labels(UNREACHABLE)
}

/// Labels on a copy of a map with a border of rock round it, for the floods
/// that run several times for every floor generated and checked (distances,
/// connected areas): every neighbour is a fixed offset away and needs no
/// bounds check, and a neighbour already labelled, or rock, is skipped with
/// one load. [`Map::can_step`] is the rule the floods follow; a test holds
/// the distances to a search over it.
pub(crate) struct Flood {
    width: usize,
    height: usize,
    /// Row-major with the border: [`Flood::ROCK`], [`Flood::UNLABELLED`] or
    /// a label.
    cells: Vec<u32>,
    /// Each direction's offset and, for a diagonal, the offsets of the two
    /// tiles it passes between, in [`Dir::ALL`] order.
    steps: [(isize, Option<(isize, isize)>); 8],
    /// Tiles to go on from, in the order they were labelled.
    queue: Vec<usize>,
}

impl Flood {
    const ROCK: u32 = u32::MAX - 1;
    /// A walkable tile no flood has reached; never a label.
    pub(crate) const UNLABELLED: u32 = u32::MAX;

    pub(crate) fn of(map: &Map) -> Flood {
        let (width, height) = (map.width() as usize, map.height() as usize);
        let padded_width = width + 2;
        let mut cells = vec![Self::ROCK; padded_width * (height + 2)];
        for (y, row) in map.tiles().chunks_exact(width.max(1)).enumerate() {
            let padded_row = (y + 1) * padded_width + 1;
            // Every cell written, rock or not, so the copy runs without a
            // branch (whole vectors at a time).
            for (cell, tile) in cells[padded_row..padded_row + width].iter_mut().zip(row) {
                *cell = if tile.is_walkable() {
                    Self::UNLABELLED
                } else {
                    Self::ROCK
                };
            }
        }
        let w = padded_width as isize;
        let steps = Dir::ALL.map(|dir| {
            let (dx, dy) = dir.delta();
            let (dx, dy) = (dx as isize, dy as isize);
            (dy * w + dx, dir.is_diagonal().then_some((dx, dy * w)))
        });
        Flood {
            width,
            height,
            cells,
            steps,
            queue: Vec::with_capacity(map.len() / 2),
        }
    }

    /// Where `p`, on the map, is in the padded cells.
    pub(crate) fn index(&self, p: Pos) -> usize {
        (p.y as usize + 1) * (self.width + 2) + p.x as usize + 1
    }

    pub(crate) fn label(&self, index: usize) -> u32 {
        self.cells[index]
    }

    /// Labels the unlabelled walkable tile at `first` with `label`, then
    /// breadth-first every unlabelled tile reachable from it, each with
    /// `next(label of the tile it was reached from)`. Returns how many tiles
    /// it labelled.
    pub(crate) fn fill_from(
        &mut self,
        first: usize,
        label: u32,
        next: impl Fn(u32) -> u32,
    ) -> usize {
        debug_assert_eq!(self.cells[first], Self::UNLABELLED);
        self.cells[first] = label;
        self.queue.clear();
        self.queue.push(first);
        let mut head = 0;
        let mut bound =
            crate::bound::Bound::visits_each_once("flood fill", self.width * self.height);
        let steps = self.steps;
        while let Some(&here) = self.queue.get(head) {
            head += 1;
            bound.tick();
            let onward = next(self.cells[here]);
            for &(offset, beside) in &steps {
                let to = here.wrapping_add_signed(offset);
                if self.cells[to] != Self::UNLABELLED {
                    continue; // labelled already, or rock
                }
                // A diagonal may not squeeze between two blocking tiles.
                if let Some((across, along)) = beside
                    && self.cells[here.wrapping_add_signed(across)] == Self::ROCK
                    && self.cells[here.wrapping_add_signed(along)] == Self::ROCK
                {
                    continue;
                }
                self.cells[to] = onward;
                self.queue.push(to);
            }
        }
        self.queue.len()
    }

    /// The labels in the map's own layout; rock and unlabelled tiles as
    /// `unlabelled`.
    pub(crate) fn labels(&self, unlabelled: u32) -> Vec<u32> {
        let padded_width = self.width + 2;
        let mut out = Vec::with_capacity(self.width * self.height);
        for y in 0..self.height {
            let padded_row = (y + 1) * padded_width + 1;
            out.extend(
                self.cells[padded_row..padded_row + self.width]
                    .iter()
                    .map(|&label| {
                        if label >= Self::ROCK {
                            unlabelled
                        } else {
                            label
                        }
                    }),
            );
        }
        out
    }
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

    /// Every tile's steps from the origin, [`DijkstraMap::FAR`] beyond the
    /// cutoff or out of reach, in the map's tile order: the search run to
    /// its end first. One pass over them is how the oracle holds a chase
    /// map to the reference, where asking tile by tile cost a call each.
    pub fn searched(&mut self, map: &Map) -> &[u16] {
        self.search_until(map, |_| false);
        &self.dist
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
        let offsets = map.neighbour_offsets();
        while !done(&self.dist) {
            let Some(here) = self.frontier.pop_front() else {
                return;
            };
            self.bound.tick();
            let at = map.xy_idx(here);
            let d = self.dist[at];
            if d >= self.max_steps {
                continue;
            }
            let inside = map.away_from_edge(here);
            for (dir, offset) in Dir::ALL.into_iter().zip(offsets) {
                let Some(idx) = map.neighbour_index((here, at), inside, dir, offset) else {
                    continue;
                };
                if self.dist[idx] == Self::FAR && map.can_step(here, dir) {
                    self.dist[idx] = d + 1;
                    self.frontier.push_back(here.step(dir));
                }
            }
        }
    }
}

/// An entry of A*'s open set: estimated total, steps so far and tile index
/// in one integer, ordered as `(total, Reverse(steps), tile)`. Maps are at
/// most 256 tiles a side, so each field fits its 21 bits.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct OpenEntry(u64);

impl OpenEntry {
    const BITS: u32 = 21;
    const MASK: u64 = (1 << Self::BITS) - 1;

    fn new(total: u32, steps: u32, tile: usize) -> Self {
        let (total, steps, tile) = (u64::from(total), u64::from(steps), tile as u64);
        assert!(
            total <= Self::MASK && steps <= Self::MASK && tile <= Self::MASK,
            "A* on a map of at most 256 a side"
        );
        OpenEntry(total << (2 * Self::BITS) | (Self::MASK - steps) << Self::BITS | tile)
    }

    fn total(self) -> u32 {
        (self.0 >> (2 * Self::BITS)) as u32
    }

    fn steps(self) -> u32 {
        (Self::MASK - (self.0 >> Self::BITS & Self::MASK)) as u32
    }

    fn tile(self) -> usize {
        (self.0 & Self::MASK) as usize
    }
}

/// A*'s open set, a queue that gives the least entry first, in three
/// parts by estimated total: a heap of the entries at the least total (the
/// level), and a list each for the two totals past it. A step costs one and
/// moves the Chebyshev estimate by at most one, so a tile popped at the
/// level pushes its neighbours at the level or one or two past it: nothing
/// is ever pushed farther out. The lists cost nothing to push to, the heap
/// holds one total's entries, and when it runs dry the next list becomes
/// the heap in one pass (its storage kept for reuse). Every entry is
/// distinct (a tile is pushed again only with fewer steps), so a queue
/// that gives the least first pops them in the one order a single heap
/// would: the same search, the same route.
struct OpenSet {
    level: u32,
    heap: BinaryHeap<Reverse<OpenEntry>>,
    next: [Vec<Reverse<OpenEntry>>; 2],
}

impl OpenSet {
    fn new(first: OpenEntry) -> OpenSet {
        let mut heap = BinaryHeap::with_capacity(32);
        heap.push(Reverse(first));
        OpenSet {
            level: first.total(),
            heap,
            next: [Vec::with_capacity(32), Vec::with_capacity(32)],
        }
    }

    fn push(&mut self, entry: OpenEntry) {
        match entry.total().checked_sub(self.level) {
            Some(0) => self.heap.push(Reverse(entry)),
            Some(ahead @ (1 | 2)) => self.next[ahead as usize - 1].push(Reverse(entry)),
            _ => panic!(
                "A* pushed a total of {} at level {}: a step costs one and moves the estimate by one at most",
                entry.total(),
                self.level
            ),
        }
    }

    fn pop(&mut self) -> Option<OpenEntry> {
        while self.heap.is_empty() {
            if self.next.iter().all(Vec::is_empty) {
                return None;
            }
            self.level += 1;
            let emptied = std::mem::take(&mut self.heap).into_vec();
            let later = std::mem::take(&mut self.next[1]);
            let soon = std::mem::replace(&mut self.next[0], later);
            self.next[1] = emptied;
            self.heap = BinaryHeap::from(soon);
        }
        self.heap.pop().map(|Reverse(entry)| entry)
    }
}

/// The legal steps out of every tile of a map, one bit per [`Dir`] (bit
/// `dir.index()`), worked out once: a search that runs many times over the
/// same ground (auto-explore's walk to the stairs) reads a byte a tile
/// instead of asking the step rule eight times.
#[derive(Clone, Debug)]
pub struct Exits {
    width: i32,
    masks: Vec<u8>,
}

impl Exits {
    /// The exits of every walkable tile; rock has none here. A search only
    /// ever stands on its start or on a tile a step reached, which is
    /// walkable, and [`astar_on`] works its start's exits out afresh.
    pub fn of(map: &Map) -> Exits {
        let masks = (0..map.len())
            .map(|idx| {
                let p = map.idx_pos(idx);
                if map.is_walkable(p) {
                    exits_mask(map, p)
                } else {
                    0
                }
            })
            .collect();
        Exits {
            width: map.width(),
            masks,
        }
    }
}

/// The legal steps out of `from` as a bit per direction.
fn exits_mask(map: &Map, from: Pos) -> u8 {
    map.exits(from)
        .fold(0, |mask, (dir, _)| mask | 1 << dir.index())
}

/// A shortest route from `from` to `to` over legal steps, as the tiles after
/// `from` up to and including `to`; `None` when there is none. Gives up after
/// expanding `max_nodes` tiles, so a search can never run away.
pub fn astar(map: &Map, from: Pos, to: Pos, max_nodes: usize) -> Option<Vec<Pos>> {
    if !map.in_bounds(from) || !map.is_walkable(to) {
        return None;
    }
    astar_by(map, from, to, max_nodes, |idx| {
        exits_mask(map, map.idx_pos(idx))
    })
}

/// [`astar`] over exits worked out beforehand with [`Exits::of`] on `map`:
/// the same route.
pub fn astar_on(
    map: &Map,
    exits: &Exits,
    from: Pos,
    to: Pos,
    max_nodes: usize,
) -> Option<Vec<Pos>> {
    if !map.in_bounds(from) || !map.is_walkable(to) {
        return None;
    }
    assert_eq!(
        (exits.width, exits.masks.len()),
        (map.width(), map.len()),
        "exits of another map"
    );
    let start = map.xy_idx(from);
    astar_by(map, from, to, max_nodes, |idx| {
        if idx == start {
            exits_mask(map, from)
        } else {
            exits.masks[idx]
        }
    })
}

/// A* with the legal steps out of a tile given as a bit per direction.
fn astar_by(
    map: &Map,
    from: Pos,
    to: Pos,
    max_nodes: usize,
    exits: impl Fn(usize) -> u8,
) -> Option<Vec<Pos>> {
    if from == to {
        return Some(Vec::new());
    }
    let mut cost = vec![u32::MAX; map.len()];
    let mut came_from = vec![u32::MAX; map.len()];
    // The open set gives the least of (estimated total, steps so far
    // reversed so deeper nodes win ties, tile index), packed into one
    // integer whose order is that order: a total order, so the pop
    // sequence is deterministic.
    let start = map.xy_idx(from);
    let goal = map.xy_idx(to);
    cost[start] = 0;
    let mut open = OpenSet::new(OpenEntry::new(from.chebyshev(to) as u32, 0, start));
    let mut expanded = 0;
    // A tile is pushed again only when a cheaper way to it is found, once per
    // neighbour at most.
    let mut bound = crate::bound::Bound::astar(map.len());
    while let Some(entry) = open.pop() {
        bound.tick();
        let (g, idx) = (entry.steps(), entry.tile());
        if idx == goal {
            let mut route = vec![to];
            let mut at = goal;
            let mut walk_back = crate::bound::Bound::visits_each_once("A* route", map.len());
            while came_from[at] as usize != start {
                walk_back.tick();
                at = came_from[at] as usize;
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
        let mut mask = exits(idx);
        // Neighbours in Dir::ALL order, as the tie-breaking rule requires.
        while mask != 0 {
            let dir = Dir::ALL[mask.trailing_zeros() as usize];
            mask &= mask - 1;
            let next = here.step(dir);
            let n = map.xy_idx(next);
            let g_next = g + 1;
            if g_next < cost[n] {
                cost[n] = g_next;
                came_from[n] = idx as u32;
                let f = g_next + next.chebyshev(to) as u32;
                open.push(OpenEntry::new(f, g_next, n));
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

    /// The packed open-set entry orders as the tuple it stands for, so the
    /// pop sequence (and every route) is the tuple heap's.
    #[test]
    fn open_entries_order_as_their_tuples() {
        use proptest::prelude::*;
        let side = 256 * 256;
        let field = || (0u32..side + 512, 0u32..side, 0usize..side as usize);
        proptest!(|(a in field(), b in field())| {
            let key = |(f, g, i): (u32, u32, usize)| (f, Reverse(g), i);
            let (ea, eb) = (OpenEntry::new(a.0, a.1, a.2), OpenEntry::new(b.0, b.1, b.2));
            prop_assert_eq!(ea.cmp(&eb), key(a).cmp(&key(b)));
            prop_assert_eq!((ea.steps(), ea.tile()), (a.1, a.2));
        });
    }

    /// Routes over exits worked out beforehand are the routes over the map,
    /// tile for tile, on generated floors.
    #[test]
    fn astar_on_worked_out_exits_takes_the_same_routes() {
        use crate::map::{DEFAULT_HEIGHT, DEFAULT_WIDTH};
        use crate::mapgen::generate_floor;
        use crate::rng::RunSeed;
        for seed in 1..=6 {
            let floor = generate_floor(RunSeed(seed), seed as u32, DEFAULT_WIDTH, DEFAULT_HEIGHT);
            let map = &floor.map;
            let exits = Exits::of(map);
            let cells: Vec<Pos> = map.walkable_cells().collect();
            // From walkable tiles, and from every rock tile next to one.
            let rock_starts = map.bounds().cells().filter(|&p| {
                !map.is_walkable(p) && Dir::ALL.iter().any(|&d| map.is_walkable(p.step(d)))
            });
            let starts: Vec<Pos> = cells
                .iter()
                .copied()
                .step_by(37)
                .chain(rock_starts.step_by(11))
                .collect();
            for (i, &from) in starts.iter().enumerate() {
                let to = cells[(i * 7919) % cells.len()];
                assert_eq!(
                    astar_on(map, &exits, from, to, map.len()),
                    astar(map, from, to, map.len()),
                    "seed {seed}: {from} to {to}"
                );
            }
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
