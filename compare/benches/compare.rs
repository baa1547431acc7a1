//! `cargo bench --manifest-path compare/Cargo.toml`: game-core's field of view,
//! distance maps and A* against reference implementations from crates.io, on
//! the same generated floors and the same cases:
//!
//! - `fov`: `fov::compute` against bracket-pathfinding 0.8.7's symmetric
//!   shadowcasting (`FieldOfViewAlg::SymmetricShadowcasting`), both Albert
//!   Ford's algorithm;
//! - `flood`: `paths::bfs_distances` and `paths::DijkstraMap` against
//!   pathfinding's `dijkstra_all`;
//! - `astar`: `paths::astar` against pathfinding's `astar`; and
//!   `paths::astar_on`, game-core's A* over the step rule worked out once per
//!   floor (`paths::Exits`, made outside the timing), which auto-explore uses:
//!   not a like-for-like pair, but the same routes.
//!
//! Before anything is timed, `main` checks that each pair agrees on every
//! case the benches time, and panics naming the floor, the origin and the
//! first differing tile when they do not. So the bench can fail, and a figure
//! it prints is always for two implementations giving the same answers.
//!
//! The reference implementations see the map through game-core's own rules:
//! opacity is `Tile::is_opaque`, a step is `Map::can_step` over `Dir::ALL`
//! costing one, and the A* heuristic is game-core's (Chebyshev distance).
//!
//! One iteration is one pass over a pair's whole case list, the same list for
//! both, so the medians compare directly. Machines here are shared and noisy:
//! read medians and ratios, not single numbers.

use std::sync::LazyLock;

use bracket_pathfinding::prelude::{Algorithm2D, BaseMap, FieldOfViewAlg, Point};
use divan::{Bencher, black_box};
use game_core::RunSeed;
use game_core::fov::SIGHT_RADIUS;
use game_core::geom::Pos;
use game_core::map::{BitGrid, DEFAULT_HEIGHT, DEFAULT_WIDTH, Map};
use game_core::mapgen::{LAST_DEPTH, generate_floor};
use game_core::paths::{self, DijkstraMap, Exits, UNREACHABLE};

/// Floors: every seed in `SEEDS` at every depth of a run (180 floors).
const SEEDS: std::ops::RangeInclusive<u64> = 1..=30;
const DEPTHS: std::ops::RangeInclusive<u32> = 1..=LAST_DEPTH;
/// Sight origins: every walkable tile of every floor, about 200,000, all of
/// them checked. bracket-pathfinding takes about 20 µs for one, so a pass
/// over all of them would take 4 s; the benches time every `SIGHT_STRIDE`th
/// (about 20,000).
const SIGHT_STRIDE: usize = 10;
/// Flood origins per floor: the start and this many sampled walkable tiles.
const FLOOD_SAMPLES: usize = 3;
/// A* pairs per floor: start to goal and this many sampled pairs of walkable
/// tiles.
const ASTAR_SAMPLES: usize = 19;
/// Cutoff for `DijkstraMap`: beyond any distance on an 80x40 floor, so it
/// searches as far as `dijkstra_all` does.
const NO_CUTOFF: u16 = u16::MAX - 1;

fn main() {
    let cases = &*CASES;
    let agreement = check_agreement(cases);
    eprintln!(
        "agreement: {} floors (seeds {}..={}, depths {}..={}); \
         {} sight origins ({} visible tiles; {} origins timed); \
         {} flood origins ({} cells, {} reachable); \
         {} A* pairs ({} reachable, {} steps in all)",
        cases.floors.len(),
        SEEDS.start(),
        SEEDS.end(),
        DEPTHS.start(),
        DEPTHS.end(),
        group(cases.sight.len()),
        group(agreement.visible_tiles),
        group(cases.sight_timed.len()),
        group(cases.flood.len()),
        group(agreement.flood_cells),
        group(agreement.flood_reachable),
        group(cases.astar.len()),
        group(agreement.astar_reachable),
        group(agreement.astar_steps),
    );
    divan::main();
}

struct Floor {
    seed: u64,
    depth: u32,
    map: Map,
    exits: Exits,
}

impl Floor {
    fn name(&self) -> String {
        format!("seed {} depth {}", self.seed, self.depth)
    }
}

/// Every case, as (floor index, position...).
struct Cases {
    floors: Vec<Floor>,
    sight: Vec<(usize, Pos)>,
    /// Every `SIGHT_STRIDE`th of `sight`.
    sight_timed: Vec<(usize, Pos)>,
    flood: Vec<(usize, Pos)>,
    astar: Vec<(usize, Pos, Pos)>,
}

static CASES: LazyLock<Cases> = LazyLock::new(build_cases);

fn build_cases() -> Cases {
    let mut cases = Cases {
        floors: Vec::new(),
        sight: Vec::new(),
        sight_timed: Vec::new(),
        flood: Vec::new(),
        astar: Vec::new(),
    };
    for seed in SEEDS {
        for depth in DEPTHS {
            let built = generate_floor(RunSeed(seed), depth, DEFAULT_WIDTH, DEFAULT_HEIGHT);
            let f = cases.floors.len();
            let walkable: Vec<Pos> = built.map.walkable_cells().collect();
            let mut rng = SplitMix(seed << 8 | u64::from(depth));
            let mut pick = || walkable[rng.below(walkable.len())];
            cases.sight.extend(walkable.iter().map(|&p| (f, p)));
            cases.flood.push((f, built.start));
            cases.flood.extend((0..FLOOD_SAMPLES).map(|_| (f, pick())));
            cases.astar.push((f, built.start, built.goal));
            cases
                .astar
                .extend((0..ASTAR_SAMPLES).map(|_| (f, pick(), pick())));
            cases.floors.push(Floor {
                seed,
                depth,
                exits: Exits::of(&built.map),
                map: built.map,
            });
        }
    }
    cases.sight_timed = cases.sight.iter().copied().step_by(SIGHT_STRIDE).collect();
    cases
}

/// A fixed sampler (SplitMix64), so the cases are the same on every run.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % n as u64) as usize
    }
}

/// game-core's map as bracket-pathfinding sees it: its size and which tiles
/// stop sight (`Tile::is_opaque`). Off the map, bracket-pathfinding treats
/// every tile as opaque itself, as game-core's `Map::tile` does.
struct Bracket<'a>(&'a Map);

impl BaseMap for Bracket<'_> {
    fn is_opaque(&self, idx: usize) -> bool {
        self.0.tiles()[idx].is_opaque()
    }
}

impl Algorithm2D for Bracket<'_> {
    fn dimensions(&self) -> Point {
        Point::new(self.0.width(), self.0.height())
    }
}

fn bracket_fov(map: &Map, origin: Pos) -> impl Iterator<Item = Pos> {
    FieldOfViewAlg::SymmetricShadowcasting
        .field_of_view_set(Point::new(origin.x, origin.y), SIGHT_RADIUS, &Bracket(map))
        .into_iter()
        .map(|p| Pos::new(p.x, p.y))
}

/// The legal steps out of `p`, each costing one: `Map::can_step` over
/// `Dir::ALL`, as game-core's searches take them.
fn steps(map: &Map, p: Pos) -> impl Iterator<Item = (Pos, u32)> + '_ {
    map.exits(p).map(|(_, next)| (next, 1))
}

fn reference_flood(map: &Map, origin: Pos) -> impl Iterator<Item = (Pos, u32)> {
    pathfinding::directed::dijkstra::dijkstra_all(&origin, |&p| steps(map, p))
        .into_iter()
        .map(|(p, (_, cost))| (p, cost))
}

/// pathfinding's A* with game-core's step rule and heuristic: the route
/// including `from`, and its cost.
fn reference_astar(map: &Map, from: Pos, to: Pos) -> Option<(Vec<Pos>, u32)> {
    pathfinding::directed::astar::astar(
        &from,
        |&p| steps(map, p),
        |&p| p.chebyshev(to) as u32,
        |&p| p == to,
    )
}

/// game-core's A* with no node limit that could bite: it never expands more
/// tiles than the map has.
fn game_core_astar(map: &Map, from: Pos, to: Pos) -> Option<Vec<Pos>> {
    paths::astar(map, from, to, map.len())
}

#[derive(Default)]
struct Agreement {
    visible_tiles: usize,
    flood_cells: usize,
    flood_reachable: usize,
    astar_reachable: usize,
    astar_steps: usize,
}

fn check_agreement(cases: &Cases) -> Agreement {
    let mut agreement = Agreement::default();
    let r2 = SIGHT_RADIUS * SIGHT_RADIUS;

    for &(f, origin) in &cases.sight {
        let floor = &cases.floors[f];
        let map = &floor.map;
        let mut ours = BitGrid::new(map.len());
        game_core::fov::compute(map, origin, SIGHT_RADIUS, &mut ours);
        // bracket-pathfinding's radius rule is dx² + dy² <= r² + r (it tests
        // against (r + 1/2)²); game-core's is dx² + dy² <= r². Compare within
        // game-core's circle.
        let mut theirs = BitGrid::new(map.len());
        for p in bracket_fov(map, origin) {
            assert!(
                map.in_bounds(p),
                "{}: bracket-pathfinding sees {p} off the map from {origin}",
                floor.name()
            );
            if origin.distance_squared(p) <= r2 {
                theirs.insert(map.xy_idx(p));
            }
        }
        if ours != theirs {
            let idx = (0..map.len())
                .find(|&i| ours.get(i) != theirs.get(i))
                .expect("the sets differ somewhere");
            let p = map.idx_pos(idx);
            panic!(
                "fov: {}, origin {origin}: first differing tile {p} ({:?}, distance² {}): \
                 game-core {}, bracket-pathfinding {}\n{}",
                floor.name(),
                map.tile(p),
                origin.distance_squared(p),
                seen(ours.get(idx)),
                seen(theirs.get(idx)),
                picture(map, origin, &ours, &theirs),
            );
        }
        agreement.visible_tiles += ours.count();
    }

    for &(f, origin) in &cases.flood {
        let floor = &cases.floors[f];
        let map = &floor.map;
        let bfs = paths::bfs_distances(map, origin);
        let mut dm = DijkstraMap::new(map, origin, NO_CUTOFF);
        let mut reference = vec![None; map.len()];
        reference[map.xy_idx(origin)] = Some(0);
        for (p, cost) in reference_flood(map, origin) {
            assert!(
                map.in_bounds(p) && p != origin,
                "flood: {}, origin {origin}: dijkstra_all reaches {p}",
                floor.name()
            );
            reference[map.xy_idx(p)] = Some(cost);
        }
        for (idx, &expected) in reference.iter().enumerate() {
            let p = map.idx_pos(idx);
            let bfs = Some(bfs[idx]).filter(|&d| d != UNREACHABLE);
            let dm = dm.distance(map, p).map(u32::from);
            assert!(
                bfs == expected && dm == expected,
                "flood: {}, origin {origin}: first differing tile {p} ({:?}): \
                 bfs_distances {bfs:?}, DijkstraMap {dm:?}, dijkstra_all {expected:?}",
                floor.name(),
                map.tile(p),
            );
            agreement.flood_reachable += usize::from(expected.is_some());
        }
        agreement.flood_cells += map.len();
    }

    for &(f, from, to) in &cases.astar {
        let floor = &cases.floors[f];
        let map = &floor.map;
        let ours = game_core_astar(map, from, to);
        let theirs = reference_astar(map, from, to);
        let case = format!("astar: {}, {from} -> {to}", floor.name());
        assert_eq!(
            paths::astar_on(map, &floor.exits, from, to, map.len()),
            ours,
            "{case}: astar_on and astar take different routes"
        );
        match (&ours, &theirs) {
            (None, None) => continue,
            (Some(route), Some((path, cost))) => {
                let mut at = from;
                for &next in route {
                    let legal = at
                        .direction_to(next)
                        .is_some_and(|dir| map.can_step(at, dir));
                    assert!(legal, "{case}: game-core's route steps {at} -> {next}");
                    at = next;
                }
                assert_eq!(at, to, "{case}: game-core's route ends at {at}");
                assert_eq!(
                    path.len() - 1,
                    *cost as usize,
                    "{case}: pathfinding's route and cost differ"
                );
                assert_eq!(
                    route.len(),
                    *cost as usize,
                    "{case}: game-core takes {} steps, pathfinding {cost}",
                    route.len()
                );
                agreement.astar_reachable += 1;
                agreement.astar_steps += route.len();
            }
            _ => panic!(
                "{case}: game-core {}, pathfinding {}",
                found(ours.is_some()),
                found(theirs.is_some())
            ),
        }
    }
    agreement
}

fn seen(b: bool) -> &'static str {
    if b { "sees it" } else { "does not" }
}

fn found(b: bool) -> &'static str {
    if b { "finds a route" } else { "finds none" }
}

/// The view around `origin`: `@` the origin, `G` seen by game-core only, `B`
/// by bracket-pathfinding only, the tile's glyph when both see it, blank when
/// neither does.
fn picture(map: &Map, origin: Pos, ours: &BitGrid, theirs: &BitGrid) -> String {
    let r = SIGHT_RADIUS + 1;
    let mut out = String::new();
    for y in origin.y - r..=origin.y + r {
        for x in origin.x - r..=origin.x + r {
            let p = Pos::new(x, y);
            let (a, b) = if map.in_bounds(p) {
                let i = map.xy_idx(p);
                (ours.get(i), theirs.get(i))
            } else {
                (false, false)
            };
            out.push(match (p == origin, a, b) {
                (true, ..) => '@',
                (_, true, true) => map.tile(p).glyph(),
                (_, true, false) => 'G',
                (_, false, true) => 'B',
                (_, false, false) => ' ',
            });
        }
        out.push('\n');
    }
    out
}

/// 1234567 as "1,234,567".
fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Field of view from every timed sight origin, radius `SIGHT_RADIUS`.
#[divan::bench_group(sample_count = 20, sample_size = 1)]
mod fov {
    use super::*;

    #[divan::bench]
    fn game_core(bencher: Bencher) {
        let cases = &*CASES;
        let mut visible: Vec<BitGrid> = cases
            .floors
            .iter()
            .map(|f| BitGrid::new(f.map.len()))
            .collect();
        bencher.bench_local(|| {
            for &(f, origin) in &cases.sight_timed {
                let grid = &mut visible[f];
                game_core::fov::compute(&cases.floors[f].map, origin, SIGHT_RADIUS, grid);
                black_box(&*grid);
            }
        });
    }

    #[divan::bench]
    fn bracket_pathfinding(bencher: Bencher) {
        let cases = &*CASES;
        bencher.bench_local(|| {
            for &(f, origin) in &cases.sight_timed {
                let map = &Bracket(&cases.floors[f].map);
                black_box(FieldOfViewAlg::SymmetricShadowcasting.field_of_view_set(
                    Point::new(origin.x, origin.y),
                    SIGHT_RADIUS,
                    map,
                ));
            }
        });
    }
}

/// Distances from every flood origin to the whole floor.
#[divan::bench_group(sample_count = 20, sample_size = 1)]
mod flood {
    use super::*;

    #[divan::bench]
    fn game_core_bfs(bencher: Bencher) {
        let cases = &*CASES;
        bencher.bench_local(|| {
            for &(f, origin) in &cases.flood {
                black_box(paths::bfs_distances(&cases.floors[f].map, origin));
            }
        });
    }

    #[divan::bench]
    fn game_core_dijkstra_map(bencher: Bencher) {
        let cases = &*CASES;
        bencher.bench_local(|| {
            for &(f, origin) in &cases.flood {
                black_box(DijkstraMap::new(&cases.floors[f].map, origin, NO_CUTOFF));
            }
        });
    }

    #[divan::bench]
    fn pathfinding_dijkstra_all(bencher: Bencher) {
        let cases = &*CASES;
        bencher.bench_local(|| {
            for &(f, origin) in &cases.flood {
                let map = &cases.floors[f].map;
                black_box(pathfinding::directed::dijkstra::dijkstra_all(
                    &origin,
                    |&p| steps(map, p),
                ));
            }
        });
    }
}

/// A shortest route for every A* pair.
#[divan::bench_group(sample_count = 20, sample_size = 1)]
mod astar {
    use super::*;

    #[divan::bench]
    fn game_core(bencher: Bencher) {
        let cases = &*CASES;
        bencher.bench_local(|| {
            for &(f, from, to) in &cases.astar {
                black_box(game_core_astar(&cases.floors[f].map, from, to));
            }
        });
    }

    /// Over `Exits` made once per floor, outside the timing.
    #[divan::bench]
    fn game_core_exits(bencher: Bencher) {
        let cases = &*CASES;
        bencher.bench_local(|| {
            for &(f, from, to) in &cases.astar {
                let floor = &cases.floors[f];
                black_box(paths::astar_on(
                    &floor.map,
                    &floor.exits,
                    from,
                    to,
                    floor.map.len(),
                ));
            }
        });
    }

    #[divan::bench]
    fn pathfinding(bencher: Bencher) {
        let cases = &*CASES;
        bencher.bench_local(|| {
            for &(f, from, to) in &cases.astar {
                black_box(reference_astar(&cases.floors[f].map, from, to));
            }
        });
    }
}
