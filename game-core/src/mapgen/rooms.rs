//! Rooms and corridors, the classic: try random rectangles, keep the ones
//! that leave rock between them, and join each new room to the one before it
//! with an L-shaped tunnel.
//!
//! The carving core takes a bounding rectangle and never carves on or outside
//! its outline. That is what lets the temple run the whole algorithm on the
//! west part of a map and trust that nothing leaks into its moat.

use super::{BuiltFloor, Generator, GeneratorKind, room_regions};
use crate::geom::{Pos, Rect};
use crate::map::{MIN_HEIGHT, MIN_WIDTH, Map, Tile};
use crate::paths::farthest_tile;
use crate::rng::Stream;

/// Rectangles tried per call. Each try places a room or is thrown away, so
/// this is also the bound on the placement loop.
const ROOM_ATTEMPTS: u32 = 30;
/// The smallest room side, in floor cells. A bounding rectangle needs this
/// much inside its outline, in both directions, to hold a room at all.
pub(crate) const MIN_ROOM_SIDE: i32 = 3;
/// Room sizes in floor cells, before clamping to what the bounds can hold.
/// Rooms are wider than high because terminal cells are taller than wide.
const ROOM_WIDTHS: (i32, i32) = (5, 12);
const ROOM_HEIGHTS: (i32, i32) = (3, 8);

/// Carves rooms joined by L-shaped tunnels into `map`, every carved tile
/// strictly inside `bounds` (its outline stays as it was), and returns the
/// rooms in carving order. Each room is joined to the one before it, so all of
/// them, and the tunnels, form one connected area.
///
/// The first try always succeeds, so there is at least one room whenever
/// `bounds` has [`MIN_ROOM_SIDE`] cells inside its outline both ways; with less
/// than that, nothing is carved and no rooms are returned.
pub(crate) fn carve_rooms_and_corridors(
    map: &mut Map,
    rng: &mut Stream,
    bounds: Rect,
) -> Vec<Rect> {
    assert!(
        map.in_bounds(Pos::new(bounds.x1, bounds.y1))
            && map.in_bounds(Pos::new(bounds.x2, bounds.y2)),
        "room bounds {bounds} reach outside the {}x{} map",
        map.width(),
        map.height()
    );
    let inside = bounds.grow(-1);
    if inside.width() < MIN_ROOM_SIDE || inside.height() < MIN_ROOM_SIDE {
        return Vec::new();
    }
    let (min_width, max_width) = clamp_sides(ROOM_WIDTHS, inside.width());
    let (min_height, max_height) = clamp_sides(ROOM_HEIGHTS, inside.height());

    let mut rooms: Vec<Rect> = Vec::new();
    for _ in 0..ROOM_ATTEMPTS {
        let width = rng.range(min_width, max_width);
        let height = rng.range(min_height, max_height);
        let x = rng.range(inside.x1, inside.x2 - width + 1);
        let y = rng.range(inside.y1, inside.y2 - height + 1);
        let room = Rect::with_size(x, y, width, height);
        // Growing a placed room by one keeps a tile of rock between
        // neighbours, so two rooms never merge into one odd shape.
        if rooms.iter().any(|placed| placed.grow(1).intersects(&room)) {
            continue;
        }
        carve_room(map, room);
        if let Some(previous) = rooms.last() {
            carve_l_tunnel(map, rng, previous.center(), room.center());
        }
        rooms.push(room);
    }
    rooms
}

/// `(min, max)` room sides limited to `room_for` cells, keeping `min <= max`.
fn clamp_sides((min, max): (i32, i32), room_for: i32) -> (i32, i32) {
    let max = max.min(room_for);
    (min.min(max), max)
}

/// Turns rock into floor; anything already carved (a door, stairs) is kept.
fn dig(map: &mut Map, p: Pos) {
    if map.tile(p) == Tile::Wall {
        map.set(p, Tile::Floor);
    }
}

/// Floors every cell of `room`.
pub(crate) fn carve_room(map: &mut Map, room: Rect) {
    for p in room.cells() {
        dig(map, p);
    }
}

/// Floors row `y` from column `x1` to `x2`, in either order, both included.
pub(crate) fn carve_horizontal(map: &mut Map, x1: i32, x2: i32, y: i32) {
    for x in x1.min(x2)..=x1.max(x2) {
        dig(map, Pos::new(x, y));
    }
}

/// Floors column `x` from row `y1` to `y2`, in either order, both included.
pub(crate) fn carve_vertical(map: &mut Map, y1: i32, y2: i32, x: i32) {
    for y in y1.min(y2)..=y1.max(y2) {
        dig(map, Pos::new(x, y));
    }
}

/// An L-shaped tunnel from `from` to `to`. A coin flip decides which leg
/// comes first, so the corridors do not all bend the same way. Every tile lies
/// in the rectangle spanned by the two ends.
pub(crate) fn carve_l_tunnel(map: &mut Map, rng: &mut Stream, from: Pos, to: Pos) {
    if rng.one_in(2) {
        carve_horizontal(map, from.x, to.x, from.y);
        carve_vertical(map, from.y, to.y, to.x);
    } else {
        carve_vertical(map, from.y, to.y, from.x);
        carve_horizontal(map, from.x, to.x, to.y);
    }
}

/// Rooms and corridors over the whole map: the first room holds the start, the
/// last one the stairs. Fits every legal map, from `map::MIN_WIDTH` x
/// `MIN_HEIGHT` (20x10) to `MAX_WIDTH` x `MAX_HEIGHT` (256x256), which is why
/// it is the fallback when another generator does not fit.
pub struct RoomsGenerator;

impl Generator for RoomsGenerator {
    fn kind(&self) -> GeneratorKind {
        GeneratorKind::Rooms
    }

    fn min_size(&self) -> (i32, i32) {
        (MIN_WIDTH, MIN_HEIGHT)
    }

    fn build(&self, width: i32, height: i32, rng: &mut Stream) -> BuiltFloor {
        assert!(
            self.fits(width, height),
            "rooms do not fit a {width}x{height} map"
        );
        let mut map = Map::new(width, height);
        let bounds = map.bounds();
        let rooms = carve_rooms_and_corridors(&mut map, rng, bounds);
        let start = rooms
            .first()
            .expect("a map of at least 20x10 always has room for the first room")
            .center();
        // Rooms never overlap, so the last room's centre differs from the
        // first's unless there is only one room; then the stairs go as far
        // from the start as that room allows.
        let goal = match rooms.last() {
            Some(last) if rooms.len() > 1 => last.center(),
            _ => {
                farthest_tile(&map, start)
                    .expect("the start is a room's centre, on the map")
                    .0
            }
        };
        map.set(goal, Tile::StairsDown);
        BuiltFloor {
            map,
            generator: GeneratorKind::Rooms,
            start,
            goal,
            regions: room_regions(&rooms),
            rooms: rooms.len() as u32,
            vault: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RunSeed;

    #[test]
    fn every_carved_tile_stays_strictly_inside_the_bounds() {
        let bounds = Rect::with_size(3, 2, 30, 15);
        for seed in 0..200 {
            let mut map = Map::new(40, 20);
            let mut rng = RunSeed(seed).stream("test", 0);
            let rooms = carve_rooms_and_corridors(&mut map, &mut rng, bounds);
            assert!(!rooms.is_empty());
            let inside = bounds.grow(-1);
            for p in map.walkable_cells() {
                assert!(
                    inside.contains(p),
                    "seed {seed}: {p} carved outside {inside:?}"
                );
            }
        }
    }

    #[test]
    fn rooms_keep_a_tile_of_rock_between_them() {
        for seed in 0..200 {
            let mut map = Map::new(80, 40);
            let mut rng = RunSeed(seed).stream("test", 0);
            let bounds = map.bounds();
            let rooms = carve_rooms_and_corridors(&mut map, &mut rng, bounds);
            for (i, a) in rooms.iter().enumerate() {
                for b in &rooms[i + 1..] {
                    assert!(!a.grow(1).intersects(b), "seed {seed}: {a:?} touches {b:?}");
                }
            }
        }
    }

    #[test]
    fn bounds_too_small_for_a_room_carve_nothing() {
        let mut map = Map::new(20, 10);
        let mut rng = RunSeed(1).stream("test", 0);
        let rooms = carve_rooms_and_corridors(&mut map, &mut rng, Rect::with_size(0, 0, 4, 10));
        assert!(rooms.is_empty());
        assert_eq!(map.count_walkable(), 0);
    }

    #[test]
    fn the_smallest_bounds_hold_exactly_one_room() {
        let mut map = Map::new(20, 10);
        let mut rng = RunSeed(1).stream("test", 0);
        let rooms = carve_rooms_and_corridors(&mut map, &mut rng, Rect::with_size(2, 2, 5, 5));
        assert_eq!(rooms, vec![Rect::with_size(3, 3, 3, 3)]);
    }
}
