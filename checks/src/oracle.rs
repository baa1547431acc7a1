//! Oracles: slow, plain reference implementations of what the fast code
//! computes, written apart from it, and the checks that compare the two.
//!
//! The references share nothing with the code they judge but the map's raw
//! tiles: their own direction table, their own step rule, their own field of
//! view (Albert Ford's published algorithm as written, recursive, with exact
//! fractions and the sight radius applied afterwards rather than during the
//! scan), their own breadth-first search. A bug in `geom`, `map`, `fov` or
//! `paths` therefore makes the two disagree instead of fooling both.
//!
//! They cost tens of microseconds a call, so the harness runs them on a
//! sample of turns (`harness::run::runner`) and on every input of the `sight`
//! fuzz target.

use game_core::fov::SIGHT_RADIUS;
use game_core::game::{CHASE_RADIUS, Game};
use game_core::geom::{Dir, Pos};
use game_core::map::{BitGrid, Map, Tile};
use game_core::paths::{self, DijkstraMap, UNREACHABLE};

use crate::catalogue::{Id, Violation, violation};

/// The eight neighbours as (dx, dy), clockwise from north: the order the
/// game's searches break ties in (`Dir::ALL`).
pub const NEIGHBOURS: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// The reference's (dx, dy) for a direction, from [`NEIGHBOURS`].
pub fn offset_of(dir: Dir) -> (i32, i32) {
    let index = match dir {
        Dir::N => 0,
        Dir::NE => 1,
        Dir::E => 2,
        Dir::SE => 3,
        Dir::S => 4,
        Dir::SW => 5,
        Dir::W => 6,
        Dir::NW => 7,
    };
    NEIGHBOURS[index]
}

/// The tile at (x, y) read straight from the grid; rock off the map.
#[inline]
fn tile_at(map: &Map, x: i32, y: i32) -> Tile {
    if x < 0 || y < 0 || x >= map.width() || y >= map.height() {
        return Tile::Wall;
    }
    map.tiles()[(y as usize) * (map.width() as usize) + x as usize]
}

#[inline]
fn open(map: &Map, x: i32, y: i32) -> bool {
    tile_at(map, x, y) != Tile::Wall
}

/// The step rule as the design states it: the destination must be walkable,
/// and a diagonal may not squeeze between two blocking tiles. Always
/// inlined: the key checks' flood (`keys::explore_has_target`, before most
/// auto-explore keys) asks it for every step it takes, and the call cost
/// more than the rule.
#[inline(always)]
pub fn can_step(map: &Map, from: Pos, dx: i32, dy: i32) -> bool {
    let (x, y) = (from.x + dx, from.y + dy);
    if !open(map, x, y) {
        return false;
    }
    dx == 0 || dy == 0 || open(map, from.x + dx, from.y) || open(map, from.x, from.y + dy)
}

/// Steps from `from` to every cell (row-major), [`UNREACHABLE`] where none.
pub fn distances(map: &Map, from: Pos) -> Vec<u32> {
    let mut ground = Ground::rock(map);
    let width = map.width() as usize;
    for y in 0..map.height() {
        let (start, tiles) = (ground.padded(0, y), y as usize * width);
        let row = &map.tiles()[tiles..tiles + width];
        for (cell, &tile) in ground.open[start..start + width].iter_mut().zip(row) {
            *cell = tile != Tile::Wall;
        }
    }
    ground.search(from, None)
}

/// Breadth-first steps from `from` over the cells `open` admits, by the step
/// rule applied to them: a diagonal may not squeeze between two cells `open`
/// refuses. Stops early once `until` is labelled. Only the tests search
/// over other ground than the map's (the key checks' test holds their one
/// flood to a flood and a search over known ground).
#[cfg(test)]
pub fn distances_over(
    map: &Map,
    from: Pos,
    open: impl Fn(i32, i32) -> bool,
    until: Option<Pos>,
) -> Vec<u32> {
    let mut ground = Ground::rock(map);
    for y in 0..map.height() {
        for x in 0..map.width() {
            let at = ground.padded(x, y);
            ground.open[at] = open(x, y);
        }
    }
    ground.search(from, until)
}

/// The cells a search may stand on, asked once a cell, in a grid with a
/// border of rock around the map: the search then reads a neighbour by
/// adding an offset, with no test for the map's edge, instead of asking
/// about the same cell again for every step that looks at it.
struct Ground {
    width: i32,
    height: i32,
    /// Padded row-major, `width + 2` a row.
    open: Vec<bool>,
}

impl Ground {
    /// All rock, the map's cells included.
    fn rock(map: &Map) -> Ground {
        let (width, height) = (map.width(), map.height());
        let cells = (width as usize + 2) * (height as usize + 2);
        Ground {
            width,
            height,
            open: vec![false; cells],
        }
    }

    /// The padded index of the map's (x, y), which may lie one cell outside
    /// the map.
    fn padded(&self, x: i32, y: i32) -> usize {
        (y + 1) as usize * (self.width as usize + 2) + (x + 1) as usize
    }

    /// Breadth-first from `from` in [`NEIGHBOURS`] order, stopping once
    /// `until` leaves the queue; the steps in the map's own row-major layout.
    fn search(&self, from: Pos, until: Option<Pos>) -> Vec<u32> {
        let (w, h) = (self.width, self.height);
        let row = w as isize + 2;
        let inside = |p: Pos| p.x >= 0 && p.y >= 0 && p.x < w && p.y < h;
        let mut dist = vec![UNREACHABLE; self.open.len()];
        let start = inside(from).then(|| self.padded(from.x, from.y));
        if let Some(start) = start.filter(|&start| self.open[start]) {
            let stop = until.filter(|&p| inside(p)).map(|p| self.padded(p.x, p.y));
            // Each neighbour as its offset and, for a diagonal, the offsets
            // of the two cells it passes between.
            let steps = NEIGHBOURS.map(|(dx, dy)| {
                let (across, down) = (dx as isize, dy as isize * row);
                (
                    across + down,
                    (dx != 0 && dy != 0).then_some((across, down)),
                )
            });
            dist[start] = 0;
            let mut queue = Vec::with_capacity(self.open.len());
            queue.push(start);
            let mut head = 0;
            while let Some(&here) = queue.get(head) {
                head += 1;
                if Some(here) == stop {
                    break;
                }
                let next_dist = dist[here] + 1;
                for &(offset, squeeze) in &steps {
                    let next = here.wrapping_add_signed(offset);
                    // A cell labelled already is passed over before asking
                    // whether the step is legal: the answer could not
                    // change its label.
                    let legal = || {
                        self.open[next]
                            && squeeze.is_none_or(|(across, down)| {
                                self.open[here.wrapping_add_signed(across)]
                                    || self.open[here.wrapping_add_signed(down)]
                            })
                    };
                    if dist[next] == UNREACHABLE && legal() {
                        dist[next] = next_dist;
                        queue.push(next);
                    }
                }
            }
        }
        let mut out = Vec::with_capacity((w * h) as usize);
        for y in 0..h {
            let start = self.padded(0, y);
            out.extend_from_slice(&dist[start..start + w as usize]);
        }
        out
    }
}

/// An exact fraction `num / den`, `den > 0`.
#[derive(Clone, Copy, Debug)]
struct Fraction {
    num: i64,
    den: i64,
}

impl Fraction {
    fn new(num: i64, den: i64) -> Fraction {
        debug_assert!(den > 0);
        Fraction { num, den }
    }

    /// `depth * self`, rounded to the nearest integer with ties going up.
    fn times_round_ties_up(self, depth: i64) -> i64 {
        floor_div(2 * depth * self.num + self.den, 2 * self.den)
    }

    /// `depth * self`, rounded to the nearest integer with ties going down.
    fn times_round_ties_down(self, depth: i64) -> i64 {
        -floor_div(self.den - 2 * depth * self.num, 2 * self.den)
    }

    /// `col >= depth * self`.
    fn at_or_below(self, col: i64, depth: i64) -> bool {
        col * self.den >= depth * self.num
    }

    /// `col <= depth * self`.
    fn at_or_above(self, col: i64, depth: i64) -> bool {
        col * self.den <= depth * self.num
    }
}

/// Rounds toward negative infinity; `b > 0`.
fn floor_div(a: i64, b: i64) -> i64 {
    let q = a / b;
    if a % b != 0 && a < 0 { q - 1 } else { q }
}

/// Every cell visible from `origin` within `radius` (squared distance at
/// most `radius²`), by symmetric shadowcasting as Albert Ford publishes it:
/// scan each quadrant row by row, then keep what lies within the radius.
///
/// The scan stops at the row `radius` away: a row's cells are at least its
/// depth from the origin, so no deeper row holds a cell within the radius,
/// and a row's marks never depend on the rows behind it. Scanning on to the
/// map's edge gives the same cells (a test holds the two together); the
/// record and key checks ask for this view after many keys, where a scan
/// to the edge of an open cavern would cost a twentieth of a sweep.
pub fn field_of_view(map: &Map, origin: Pos, radius: i32) -> BitGrid {
    shadowcast(map, origin, radius, i64::from(radius))
}

/// Whether `at` lies within the sight radius of `viewer`, by a squared
/// distance as the field of view measures it: the checks that scan the
/// reference view only when something lies within sight ask this first.
pub fn within_sight(viewer: Pos, at: Pos) -> bool {
    viewer.distance_squared(at) <= SIGHT_RADIUS * SIGHT_RADIUS
}

/// [`field_of_view`] for the cells at most `rows` rows from `origin` (their
/// Chebyshev distance): the same marks there, as a row's marks never depend
/// on the rows behind it, and none farther out. What a check asks when it
/// only wants to know whether a few cells near the origin are in view: the
/// scan's cost grows with the square of its depth.
pub fn field_of_view_within(map: &Map, origin: Pos, radius: i32, rows: i32) -> BitGrid {
    shadowcast(map, origin, radius, i64::from(rows.min(radius)))
}

/// [`field_of_view`], scanning rows up to `rows` deep (and never past the
/// map's edge).
fn shadowcast(map: &Map, origin: Pos, radius: i32, rows: i64) -> BitGrid {
    let (w, h) = (map.width(), map.height());
    let mut sight = Sight {
        origin,
        radius,
        width: w,
        height: h,
        seen: BitGrid::new(map.len()),
    };
    if origin.x < 0 || origin.y < 0 || origin.x >= w || origin.y >= h {
        return sight.seen;
    }
    sight.mark(origin.x, origin.y);
    // North, east, south, west.
    let quadrants = [
        Quadrant::new((1, 0), (0, -1)),
        Quadrant::new((0, 1), (1, 0)),
        Quadrant::new((1, 0), (0, 1)),
        Quadrant::new((0, 1), (-1, 0)),
    ];
    // Map edges are rock, so every scan ends within the map's extent.
    let deepest = rows.min(i64::from(w.max(h)) + 1);
    for quadrant in quadrants {
        let (start, end) = (Fraction::new(-1, 1), Fraction::new(1, 1));
        scan(map, &mut sight, quadrant, 1, start, end, deepest);
    }
    sight.seen
}

/// What a scan has marked seen so far, and from where.
struct Sight {
    origin: Pos,
    radius: i32,
    width: i32,
    height: i32,
    seen: BitGrid,
}

impl Sight {
    /// Marks (x, y) seen when it lies on the map and within the radius.
    /// Always inlined: the record checks ask for thousands of views a
    /// sweep, and it is called for every cell of each.
    #[inline(always)]
    fn mark(&mut self, x: i32, y: i32) {
        let (dx, dy) = (x - self.origin.x, y - self.origin.y);
        let on_map = x >= 0 && y >= 0 && x < self.width && y < self.height;
        if on_map && dx * dx + dy * dy <= self.radius * self.radius {
            self.seen
                .insert((y as usize) * (self.width as usize) + x as usize);
        }
    }
}

/// A quadrant as the steps, in the map's (x, y), one column across and one
/// row out from the origin.
#[derive(Clone, Copy)]
struct Quadrant {
    across: (i32, i32),
    out: (i32, i32),
}

impl Quadrant {
    fn new(across: (i32, i32), out: (i32, i32)) -> Quadrant {
        Quadrant { across, out }
    }

    /// The map's (x, y) of the cell `col` across and `depth` out from
    /// `origin`.
    #[inline(always)]
    fn place(self, origin: Pos, depth: i64, col: i64) -> (i32, i32) {
        let (depth, col) = (depth as i32, col as i32);
        (
            origin.x + col * self.across.0 + depth * self.out.0,
            origin.y + col * self.across.1 + depth * self.out.1,
        )
    }
}

/// One row of a quadrant and, recursively, the rows behind it.
fn scan(
    map: &Map,
    sight: &mut Sight,
    quadrant: Quadrant,
    depth: i64,
    mut start: Fraction,
    end: Fraction,
    deepest: i64,
) {
    if depth > deepest {
        return;
    }
    let mut previous: Option<bool> = None;
    for col in start.times_round_ties_up(depth)..=end.times_round_ties_down(depth) {
        let (x, y) = quadrant.place(sight.origin, depth, col);
        let is_wall = !open(map, x, y);
        let symmetric = start.at_or_below(col, depth) && end.at_or_above(col, depth);
        if is_wall || symmetric {
            sight.mark(x, y);
        }
        if previous == Some(true) && !is_wall {
            start = Fraction::new(2 * col - 1, 2 * depth);
        }
        if previous == Some(false) && is_wall {
            let end = Fraction::new(2 * col - 1, 2 * depth);
            scan(map, sight, quadrant, depth + 1, start, end, deepest);
        }
        previous = Some(is_wall);
    }
    if previous == Some(false) {
        scan(map, sight, quadrant, depth + 1, start, end, deepest);
    }
}

/// The oracles against the game as it stands: what the player sees against
/// the reference field of view, and the game's distances, chase map and A*
/// routes from the player against the reference search.
pub fn check_oracles(game: &Game) -> Vec<Violation> {
    let state = game.state();
    let map = &state.floor.map;
    let player = state.player.pos;
    if !map.in_bounds(player) {
        return Vec::new(); // entity.in_bounds says so
    }
    let mut found: Vec<Violation> = check_view(map, player, SIGHT_RADIUS, &map.visible)
        .into_iter()
        .collect();
    let mut targets: Vec<Pos> = state.monsters.iter().map(|m| m.pos).take(1).collect();
    targets.push(state.floor.goal);
    let reference = distances(map, player);
    check_paths_against(map, player, &targets, &reference, &mut found);
    // The chase map the monsters actually walk by, kept between turns. It
    // is usually the player's own, so the reference is usually at hand.
    if let Some(chase) = game.chase_map() {
        let from = chase.origin();
        let elsewhere;
        let reference = if from == player {
            &reference
        } else {
            elsewhere = distances(map, from);
            &elsewhere
        };
        check_chase_map(map, chase, reference, &mut found);
    }
    found
}

/// `visible`, what the fast code sees from `origin`, against the reference.
pub fn check_view(map: &Map, origin: Pos, radius: i32, visible: &BitGrid) -> Option<Violation> {
    let expected = field_of_view(map, origin, radius);
    if expected == *visible {
        return None;
    }
    let at = (0..map.len())
        .find(|&i| expected.get(i) != visible.get(i))
        .map(|i| map.idx_pos(i))?;
    Some(violation(
        Id::FovOracle,
        format!(
            "from {origin} the game {} {at}, the reference field of view {}",
            if visible.get(map.xy_idx(at)) {
                "sees"
            } else {
                "does not see"
            },
            if expected.get(map.xy_idx(at)) {
                "does"
            } else {
                "does not"
            }
        ),
    ))
}

/// The fast distances, chase map and A* routes (to `targets`) from `origin`
/// against the reference search.
pub fn check_paths(map: &Map, origin: Pos, targets: &[Pos]) -> Vec<Violation> {
    let mut found = Vec::new();
    check_paths_against(map, origin, targets, &distances(map, origin), &mut found);
    found
}

/// [`check_paths`] with the reference distances from `origin` at hand.
fn check_paths_against(
    map: &Map,
    origin: Pos,
    targets: &[Pos],
    reference: &[u32],
    found: &mut Vec<Violation>,
) {
    check_distances(map, origin, reference, found);
    for &to in targets {
        check_route(map, origin, to, reference, found);
    }
}

fn check_distances(map: &Map, from: Pos, reference: &[u32], found: &mut Vec<Violation>) {
    let fast = paths::bfs_distances(map, from);
    // Compared whole first (a memory compare); cell by cell only to name
    // the first cell that differs.
    let first_difference = if fast[..] == reference[..] {
        None
    } else {
        (0..map.len()).find(|&i| fast[i] != reference[i])
    };
    if let Some(i) = first_difference {
        found.push(violation(
            Id::PathsOracle,
            format!(
                "breadth-first distance from {from} to {} is {}, the reference says {}",
                map.idx_pos(i),
                show(fast[i]),
                show(reference[i])
            ),
        ));
    }
    check_chase_map(
        map,
        DijkstraMap::new(map, from, CHASE_RADIUS),
        reference,
        found,
    );
}

/// A chase map's distances against the reference's, out to the chase
/// radius.
fn check_chase_map(
    map: &Map,
    mut chase: DijkstraMap,
    reference: &[u32],
    found: &mut Vec<Violation>,
) {
    let from = chase.origin();
    let searched = chase.searched(map);
    let first_difference = reference.iter().enumerate().find_map(|(i, &steps)| {
        let want = (steps <= u32::from(CHASE_RADIUS)).then_some(steps);
        let got = searched
            .get(i)
            .filter(|&&d| d != DijkstraMap::FAR)
            .map(|&d| u32::from(d));
        (got != want).then_some((i, got, want))
    });
    if let Some((i, got, want)) = first_difference {
        let at = map.idx_pos(i);
        found.push(violation(
            Id::PathsOracle,
            format!(
                "the chase map from {from} puts {at} at {}, the reference at {}",
                got.map_or("out of reach".into(), |d| d.to_string()),
                want.map_or("out of reach".into(), |d| d.to_string())
            ),
        ));
    }
}

/// An A* route from `from` to `to` must exist exactly when the reference
/// reaches `to`, be as short, and take only legal steps.
fn check_route(map: &Map, from: Pos, to: Pos, reference: &[u32], found: &mut Vec<Violation>) {
    if !map.in_bounds(to) {
        return;
    }
    let want = reference[map.xy_idx(to)];
    let route = paths::astar(map, from, to, map.len());
    let problem = match &route {
        None if want != UNREACHABLE => Some(format!("finds no route, the reference {want} steps")),
        Some(route) if route.len() as u32 != want => Some(format!(
            "takes {} steps, the reference {}",
            route.len(),
            show(want)
        )),
        Some(route) => {
            let mut at = from;
            route.iter().find_map(|&next| {
                let (dx, dy) = (next.x - at.x, next.y - at.y);
                let legal = dx.abs() <= 1 && dy.abs() <= 1 && can_step(map, at, dx, dy);
                at = next;
                (!legal).then(|| format!("steps illegally onto {next}"))
            })
        }
        None => None,
    };
    if let Some(problem) = problem {
        found.push(violation(
            Id::PathsOracle,
            format!("A* from {from} to {to} {problem}"),
        ));
    }
}

fn show(d: u32) -> String {
    if d == UNREACHABLE {
        "unreachable".into()
    } else {
        d.to_string()
    }
}

/// Every named stream of a seed is its own: the floors' maps and spawns and
/// the play's dice (`rng.rs`) draw from streams that differ for every domain
/// and index, so no two parts of the game share (or shift) each other's
/// randomness.
pub fn check_streams(seed: game_core::RunSeed) -> Option<Violation> {
    let mut first: Vec<(u32, &str, u64)> = Vec::new();
    for domain in ["mapgen", "spawn", "play"] {
        for index in 0..=game_core::mapgen::LAST_DEPTH {
            let mut stream = seed.stream(domain, u64::from(index));
            let draws = [stream.below(u32::MAX), stream.below(u32::MAX)];
            first.push((
                draws[0] ^ draws[1].rotate_left(16),
                domain,
                u64::from(index),
            ));
        }
    }
    first.sort_unstable();
    first.windows(2).find(|w| w[0].0 == w[1].0).map(|w| {
        violation(
            Id::RngStreams,
            format!(
                "seed {}: the streams ({}, {}) and ({}, {}) draw the same",
                seed.0, w[0].1, w[0].2, w[1].1, w[1].2
            ),
        )
    })
}

/// A run just started draws its dice from its own stream, `("play", 0)`,
/// untouched.
pub fn check_play_stream(game: &Game) -> Option<Violation> {
    let state = game.state();
    let fresh = state.turns_taken == 0 && state.clock.now() == 0;
    (fresh && state.rng != state.seed.stream("play", 0)).then(|| {
        violation(
            Id::RngStreams,
            "the run's dice do not come from its own stream (\"play\", 0)".into(),
        )
    })
}

/// What the player sees on screen, against a plain reading of the state:
/// the map part of `frame` (the rows above the status line and the
/// messages), with the camera centred on the player and held at the map's
/// edges, each cell the tile remembered or in view, or what stands on it in
/// view, the player on top. Only while playing with no screen open (screens
/// draw over the map and move its camera).
pub fn check_frame(game: &Game, frame: &game_core::Frame) -> Option<Violation> {
    use game_core::frame::{Cell, MIN_FRAME_HEIGHT, MIN_FRAME_WIDTH, Style};
    use game_core::game::state::RunStatus;
    let state = game.state();
    if state.status != RunStatus::Playing
        || !state.screens.is_empty()
        || frame.width() < MIN_FRAME_WIDTH
        || frame.height() < MIN_FRAME_HEIGHT
    {
        return None;
    }
    let map = &state.floor.map;
    let (w, h) = (i32::from(frame.width()), i32::from(frame.height()));
    let rows = h - 1 - message_rows(h);
    let player = state.player.pos;
    let left = (player.x - w / 2).min(map.width() - w).max(0);
    let top = (player.y - rows / 2).min(map.height() - rows).max(0);
    let content = game.content();
    for sy in 0..rows {
        for sx in 0..w {
            let at = Pos::new(left + sx, top + sy);
            let inside = at.x >= 0 && at.y >= 0 && at.x < map.width() && at.y < map.height();
            let index = (at.y * map.width() + at.x) as usize;
            let seen_now = inside && map.visible.get(index);
            let mut want = if inside && map.revealed.get(index) {
                let tile = tile_at(map, at.x, at.y);
                Cell::new(
                    tile_glyph(tile),
                    if seen_now {
                        tile_style(tile)
                    } else {
                        Style::Remembered
                    },
                )
            } else {
                Cell::BLANK
            };
            if seen_now {
                for item in state.items.iter().filter(|i| i.pos == at) {
                    want = Cell::new(content.item(item.item).glyph, Style::Item);
                }
                for m in state.monsters.iter().filter(|m| m.pos == at) {
                    want = Cell::new(content.monster(m.kind).glyph, Style::Monster);
                }
            }
            if at == player {
                want = Cell::new('@', Style::Player);
            }
            let got = frame.get(sx as u16, sy as u16);
            if got != Some(want) {
                return Some(violation(
                    Id::FrameOracle,
                    format!(
                        "the frame shows {} at column {sx}, row {sy} (the map's {at}); what is there is {want}",
                        got.map_or_else(|| "no cell".into(), |cell| cell.to_string())
                    ),
                ));
            }
        }
    }
    None
}

/// The layout's rows of messages, under the status line, by the frame's
/// height `h`: the map is above them.
fn message_rows(h: i32) -> i32 {
    if h >= 24 {
        3
    } else if h >= 12 {
        2
    } else {
        1
    }
}

/// A tile's glyph, as the design draws it.
fn tile_glyph(tile: Tile) -> char {
    match tile {
        Tile::Wall => '#',
        Tile::Floor => '.',
        Tile::Door => '+',
        Tile::StairsDown => '>',
        Tile::Exit => 'X',
    }
}

/// A tile's style in view.
fn tile_style(tile: Tile) -> game_core::frame::Style {
    use game_core::frame::Style;
    match tile {
        Tile::Wall => Style::Wall,
        Tile::Floor => Style::Floor,
        Tile::Door => Style::Door,
        Tile::StairsDown => Style::Stairs,
        Tile::Exit => Style::Exit,
    }
}

/// The state hash as docs/state-hash.md defines it (XXH3-64, seed 0, of
/// postcard's encoding of the state), and a save that loads back into the
/// same state and hash.
pub fn check_persistence(game: &Game) -> Vec<Violation> {
    let mut found = Vec::new();
    let bytes = match postcard::to_allocvec(game.state()) {
        Ok(bytes) => bytes,
        Err(e) => {
            found.push(violation(
                Id::StatePersist,
                format!("the state does not encode: {e}"),
            ));
            return found;
        }
    };
    check_decodes(game, &bytes, &mut found);
    let documented = xxhash_rust::xxh3::xxh3_64(&bytes);
    if game.state_hash() != documented {
        found.push(violation(
            Id::StatePersist,
            format!(
                "state_hash says {:016x}, the documented hash of the state is {documented:016x}",
                game.state_hash()
            ),
        ));
    }
    check_play_hash(game, &mut found);
    check_save_loads(game, &mut found);
    found
}

/// The hash is only as good as the encoding it is taken of: one that left
/// something out would give two different states the same hash, and a
/// replay would miss the drift. Decoding the encoding `bytes` back must
/// give the whole state.
fn check_decodes(game: &Game, bytes: &[u8], found: &mut Vec<Violation>) {
    match postcard::from_bytes::<game_core::game::state::GameState>(bytes) {
        Err(e) => found.push(violation(
            Id::StatePersist,
            format!(
                "the hashed encoding of the state does not decode ({e}){}",
                undecodable_part(game.state())
            ),
        )),
        Ok(decoded) if &decoded != game.state() => found.push(violation(
            Id::StatePersist,
            format!(
                "the hashed encoding of the state decodes into a different state{}",
                undecodable_part(game.state())
            ),
        )),
        Ok(_) => {}
    }
}

/// The play hash (what `deja diff` compares on two contents) is the same
/// hash of every field but what the run started with.
fn check_play_hash(game: &Game, found: &mut Vec<Violation>) {
    let s = game.state();
    let play = (
        &s.depth,
        &s.floor,
        &s.player,
        &s.monsters,
        &s.items,
        &s.clock,
        &s.rng,
        &s.screens,
        &s.log,
        &s.status,
        &s.next_monster_id,
        &s.turns_taken,
        &s.kills,
    );
    match postcard::to_allocvec(&play) {
        Ok(bytes) if game.play_hash() != xxhash_rust::xxh3::xxh3_64(&bytes) => {
            found.push(violation(
                Id::StatePersist,
                format!(
                    "play_hash says {:016x}, the documented hash of the state without seed, content and canaries is {:016x}",
                    game.play_hash(),
                    xxhash_rust::xxh3::xxh3_64(&bytes)
                ),
            ));
        }
        _ => {}
    }
}

/// A save of the state loads back into the same state and hash.
fn check_save_loads(game: &Game, found: &mut Vec<Violation>) {
    match Game::load(&game.save(), game.content().clone()) {
        Err(e) => found.push(violation(
            Id::StatePersist,
            format!("a save of this state does not load: {e}"),
        )),
        Ok(loaded) if loaded.state() != game.state() => found.push(violation(
            Id::StatePersist,
            "a save of this state loads into a different state".into(),
        )),
        Ok(loaded) if loaded.state_hash() != game.state_hash() => found.push(violation(
            Id::StatePersist,
            "a save of this state loads with a different hash".into(),
        )),
        Ok(_) => {}
    }
}

/// Which part of the state does not come back through its binary
/// encoding, for the report: ", in the player", or nothing.
fn undecodable_part(state: &game_core::game::state::GameState) -> String {
    fn back<T>(part: &T) -> bool
    where
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq,
    {
        postcard::to_allocvec(part)
            .ok()
            .and_then(|bytes| postcard::from_bytes::<T>(&bytes).ok())
            .is_some_and(|decoded| &decoded == part)
    }
    let parts = [
        ("the map", back(&state.floor.map)),
        ("the floor", back(&state.floor)),
        ("the player", back(&state.player)),
        ("the monsters", back(&state.monsters)),
        ("the floor items", back(&state.items)),
        ("the turn queue", back(&state.clock)),
        ("the dice stream", back(&state.rng)),
        ("the screens", back(&state.screens)),
        ("the message log", back(&state.log)),
        ("the run's status", back(&state.status)),
    ];
    parts
        .iter()
        .find(|(_, ok)| !ok)
        .map_or_else(String::new, |(name, _)| format!(", in {name}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::fov;

    /// A map from rows of text, `#` for rock and anything else for floor.
    fn map_from(rows: &[&str]) -> Map {
        let mut map = Map::new(rows[0].len() as i32, rows.len() as i32);
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                if c != '#' {
                    map.set(Pos::new(x as i32, y as i32), Tile::Floor);
                }
            }
        }
        map
    }

    #[test]
    fn the_reference_field_of_view_agrees_with_the_game_on_a_room_of_pillars() {
        let map = map_from(&[
            "##############",
            "#............#",
            "#.#..#...#.#.#",
            "#....#.......#",
            "#.#......##..#",
            "#...#..#.....#",
            "#.#....#..#..#",
            "#............#",
            "##############",
        ]);
        for origin in map.walkable_cells().collect::<Vec<_>>() {
            for radius in [1, 3, 9, 30] {
                let mut fast = BitGrid::new(map.len());
                fov::compute(&map, origin, radius, &mut fast);
                assert_eq!(
                    field_of_view(&map, origin, radius),
                    fast,
                    "{origin} r{radius}"
                );
            }
        }
    }

    /// The first floor of a game on each seed, with the embedded content.
    fn first_floors(
        seeds: std::ops::RangeInclusive<u64>,
    ) -> impl Iterator<Item = (u64, game_core::game::Game)> {
        let content = game_core::content::Content::shared_embedded();
        seeds.map(move |seed| {
            let config = game_core::GameConfig::new(seed).with_content(content.clone());
            let game =
                game_core::game::Game::new(config).expect("the embedded content starts a game");
            (seed, game)
        })
    }

    #[test]
    fn the_reference_view_stops_at_its_radius_and_sees_what_a_scan_to_the_edge_sees() {
        let mut origins = 0;
        for (seed, game) in first_floors(1..=12) {
            let map = &game.state().floor.map;
            let edge = i64::from(map.width().max(map.height())) + 1;
            for origin in map.walkable_cells().step_by(7) {
                for radius in [0, 1, 4, SIGHT_RADIUS, 30] {
                    assert_eq!(
                        field_of_view(map, origin, radius),
                        shadowcast(map, origin, radius, edge),
                        "seed {seed}, from {origin}, radius {radius}"
                    );
                }
                origins += 1;
            }
        }
        assert!(origins > 500, "only {origins} origins");
    }

    #[test]
    fn a_view_within_some_rows_sees_there_what_the_whole_view_sees_and_nothing_past() {
        let mut compared = 0;
        for (seed, game) in first_floors(1..=6) {
            let map = &game.state().floor.map;
            for origin in map.walkable_cells().step_by(11) {
                let whole = field_of_view(map, origin, SIGHT_RADIUS);
                for rows in 0..=SIGHT_RADIUS + 1 {
                    let within = field_of_view_within(map, origin, SIGHT_RADIUS, rows);
                    for cell in map.bounds().cells() {
                        let near = cell.chebyshev(origin) <= rows;
                        let idx = map.xy_idx(cell);
                        assert_eq!(
                            within.get(idx),
                            near && whole.get(idx),
                            "seed {seed}, from {origin}, {rows} rows, at {cell}"
                        );
                    }
                    compared += 1;
                }
            }
        }
        assert!(compared > 1_000, "only {compared} views compared");
    }

    /// The search written plainly, cell by cell with a check for the
    /// map's edge at every step, for [`distances_over`] to agree with.
    fn plain_distances_over(
        map: &Map,
        from: Pos,
        open: impl Fn(i32, i32) -> bool,
        until: Option<Pos>,
    ) -> Vec<u32> {
        let (w, h) = (map.width(), map.height());
        let index = |p: Pos| (p.y as usize) * (w as usize) + p.x as usize;
        let mut dist = vec![UNREACHABLE; (w as usize) * (h as usize)];
        let inside = |x: i32, y: i32| x >= 0 && y >= 0 && x < w && y < h;
        if !inside(from.x, from.y) || !open(from.x, from.y) {
            return dist;
        }
        dist[index(from)] = 0;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(here) = queue.pop_front() {
            if Some(here) == until {
                break;
            }
            let next_dist = dist[index(here)] + 1;
            for (dx, dy) in NEIGHBOURS {
                let (x, y) = (here.x + dx, here.y + dy);
                let next = Pos::new(x, y);
                let legal = || {
                    open(x, y)
                        && (dx == 0
                            || dy == 0
                            || open(here.x + dx, here.y)
                            || open(here.x, here.y + dy))
                };
                if inside(x, y) && dist[index(next)] == UNREACHABLE && legal() {
                    dist[index(next)] = next_dist;
                    queue.push_back(next);
                }
            }
        }
        dist
    }

    /// Random maps of every shape (down to one cell, with open edges and
    /// walled-in or off-map starts), with and without a cell to stop at.
    #[test]
    fn the_padded_search_labels_what_the_plain_search_labels() {
        for seed in 0..400u64 {
            let mut rng = game_core::rng::RunSeed(seed).stream("oracle-bfs-test", 0);
            let (w, h) = (1 + rng.below(12) as i32, 1 + rng.below(9) as i32);
            let mut map = Map::new(w, h);
            for p in map.bounds().cells() {
                if rng.below(3) > 0 {
                    map.set(p, Tile::Floor);
                }
            }
            let mut somewhere = || {
                let x = rng.below(w as u32 + 2) as i32 - 1;
                Pos::new(x, rng.below(h as u32 + 2) as i32 - 1)
            };
            let (from, until) = (somewhere(), somewhere());
            let open = |x, y| open(&map, x, y);
            assert_eq!(
                distances(&map, from),
                plain_distances_over(&map, from, open, None),
                "seed {seed}"
            );
            let hidden = |x: i32, y: i32| open(x, y) && (x * 7 + y * 3) % 5 != 0;
            assert_eq!(
                distances_over(&map, from, hidden, Some(until)),
                plain_distances_over(&map, from, hidden, Some(until)),
                "seed {seed}, until {until}"
            );
        }
    }

    #[test]
    fn reference_distances_step_around_corners_not_through_them() {
        let map = map_from(&["#####", "#.#.#", "##..#", "#####"]);
        let dist = distances(&map, Pos::new(1, 1));
        // (2, 2) is a diagonal squeeze between two walls from (1, 1).
        assert_eq!(dist[map.xy_idx(Pos::new(2, 2))], UNREACHABLE);
        let dist = distances(&map, Pos::new(3, 1));
        assert_eq!(dist[map.xy_idx(Pos::new(2, 2))], 1);
        assert_eq!(dist[map.xy_idx(Pos::new(1, 1))], UNREACHABLE);
    }

    #[test]
    fn floor_division_rounds_down() {
        assert_eq!(floor_div(7, 2), 3);
        assert_eq!(floor_div(-7, 2), -4);
        assert_eq!(floor_div(-8, 2), -4);
        assert_eq!(floor_div(0, 5), 0);
    }

    /// The game's index-based search gives the distances the plain
    /// reference search gives, on generated floors and on random maps
    /// (whose start may be walled in or on the edge).
    #[test]
    fn bfs_follows_the_step_rule() {
        use game_core::map::{DEFAULT_HEIGHT, DEFAULT_WIDTH};
        use game_core::mapgen::generate_floor;
        use game_core::paths::bfs_distances;
        use game_core::rng::RunSeed;
        // The plain reference search, which applies the rule cell by cell.
        let by_the_rule = distances;
        for seed in 1..=12 {
            let floor = generate_floor(
                RunSeed(seed),
                (seed % 6) as u32 + 1,
                DEFAULT_WIDTH,
                DEFAULT_HEIGHT,
            );
            assert_eq!(
                bfs_distances(&floor.map, floor.start),
                by_the_rule(&floor.map, floor.start),
                "seed {seed}"
            );
        }
        for seed in 0..200u64 {
            let mut rng = RunSeed(seed).stream("bfs-test", 0);
            let (w, h) = (1 + rng.below(12) as i32, 1 + rng.below(9) as i32);
            let mut map = Map::new(w, h);
            for p in map.bounds().cells() {
                if rng.below(3) > 0 {
                    map.set(p, Tile::Floor);
                }
            }
            let start = Pos::new(rng.below(w as u32) as i32, rng.below(h as u32) as i32);
            assert_eq!(
                bfs_distances(&map, start),
                by_the_rule(&map, start),
                "seed {seed}"
            );
        }
    }
}
