//! Field of view: symmetric shadowcasting with exact rational slopes.
//!
//! This is Albert Ford's symmetric shadowcasting. Its property, which the
//! monster AI relies on, is symmetry: if a non-opaque tile B is visible from
//! A, then A is visible from B. Monsters wake when the player can see their
//! tile, and that is only fair because it means they can see the player.
//!
//! Slopes are fractions of integers and every comparison is done by
//! cross-multiplication, so no float or rounding mode can make two platforms
//! disagree about a tile. The sight radius is a squared-distance check, which
//! is symmetric too.

use crate::geom::Pos;
use crate::map::{BitGrid, Map};

/// How far the player sees, in tiles (straight-line).
pub const SIGHT_RADIUS: i32 = 9;

/// A slope `num / den` with `den > 0`.
#[derive(Clone, Copy, Debug)]
struct Slope {
    num: i32,
    den: i32,
}

/// One row of a quadrant scan: tiles at `depth` between two slopes.
#[derive(Clone, Copy, Debug)]
struct Row {
    depth: i32,
    start: Slope,
    end: Slope,
}

impl Row {
    /// Lowest column: `round_ties_up(depth * start)`, i.e.
    /// `floor((2 * depth * num + den) / (2 * den))`.
    fn min_col(&self) -> i32 {
        (2 * self.depth * self.start.num + self.start.den).div_euclid(2 * self.start.den)
    }

    /// Highest column: `round_ties_down(depth * end)`, i.e.
    /// `ceil((2 * depth * num - den) / (2 * den))`.
    fn max_col(&self) -> i32 {
        -(-(2 * self.depth * self.end.num - self.end.den)).div_euclid(2 * self.end.den)
    }

    /// A floor tile is only seen when its centre lies inside the sector: that
    /// is what makes the algorithm symmetric.
    fn is_symmetric(&self, col: i32) -> bool {
        col * self.start.den >= self.depth * self.start.num
            && col * self.end.den <= self.depth * self.end.num
    }
}

/// The slope through the left edge of the tile at (`depth`, `col`).
fn tile_slope(depth: i32, col: i32) -> Slope {
    Slope {
        num: 2 * col - 1,
        den: 2 * depth,
    }
}

/// The four quadrants, in this order: north, east, south, west.
const QUADRANTS: usize = 4;

/// [`scan_quadrant`] in quadrant `quadrant` (of [`QUADRANTS`]), with the map
/// of (depth, column) to an (x, y) offset written out for each: a closure of
/// its own type per quadrant, so the scan of each is compiled with it inline
/// rather than calling through a pointer for every tile.
fn scan_in(
    quadrant: usize,
    map: &Map,
    origin: Pos,
    limits: (i32, i32),
    rows: &mut Vec<Row>,
    seen: impl FnMut(usize),
) {
    match quadrant {
        0 => scan_quadrant(map, origin, limits, rows, |d, c| (c, -d), seen),
        1 => scan_quadrant(map, origin, limits, rows, |d, c| (d, c), seen),
        2 => scan_quadrant(map, origin, limits, rows, |d, c| (c, d), seen),
        _ => scan_quadrant(map, origin, limits, rows, |d, c| (-d, c), seen),
    }
}

/// Marks in `visible` every tile seen from `origin` within `radius`.
/// `visible` is cleared first and must have one bit per map cell.
pub fn compute(map: &Map, origin: Pos, radius: i32, visible: &mut BitGrid) {
    debug_assert_eq!(visible.len(), map.len());
    visible.clear();
    if !map.in_bounds(origin) {
        return;
    }
    visible.insert(map.xy_idx(origin));
    // One list of rows to scan for the four quadrants: each leaves it empty.
    let mut rows = Vec::with_capacity(32);
    for quadrant in 0..QUADRANTS {
        scan_in(quadrant, map, origin, (radius, radius), &mut rows, |idx| {
            visible.insert(idx);
        });
    }
}

/// Scans one quadrant from `origin` out to `max_depth` rows (no farther than
/// `radius`), calling `seen` with the map index of every tile in view within
/// the radius. `transform` maps (depth, column) to an (x, y) offset, and is
/// linear: one of the four rotations of (column, depth).
// Longer than 70 lines: the field of view's inner loop, run every key; split, it scans slower.
fn scan_quadrant(
    map: &Map,
    origin: Pos,
    (radius, max_depth): (i32, i32),
    rows: &mut Vec<Row>,
    transform: impl Fn(i32, i32) -> (i32, i32),
    mut seen: impl FnMut(usize),
) {
    let radius_squared = radius * radius;
    let at = |depth: i32, col: i32| {
        let (dx, dy) = transform(depth, col);
        origin.offset(dx, dy)
    };
    // One column across is a fixed step in the map's row-major index.
    let (across_x, across_y) = transform(0, 1);
    let across = (across_x + across_y * map.width()) as isize;
    let tiles = map.tiles();
    // Rows still to scan. A row spawns at most one deeper row per run of
    // open tiles, and runs at depth d are at most d + 1, so the rows of a
    // quadrant out to the radius number at most (r + 1)(r + 2) / 2 + 1.
    let mut bound = crate::bound::Bound::field_of_view(radius);
    rows.clear();
    rows.push(Row {
        depth: 1,
        start: Slope { num: -1, den: 1 },
        end: Slope { num: 1, den: 1 },
    });
    while let Some(mut row) = rows.pop() {
        bound.tick();
        if row.depth > radius || row.depth > max_depth {
            continue;
        }
        let deeper = row.depth + 1;
        let (first, last) = (row.min_col(), row.max_col());
        let mut previous_opaque: Option<bool> = None;
        // A tile's squared distance is its column's square and its depth's
        // (the transform only turns and flips them).
        let depth_squared = row.depth * row.depth;
        // A row on the map is read by index, a step across at a time; a row
        // off the map's edge tile by tile, off-map tiles counting as walls
        // that are not seen.
        let mut on_map = row_on_map(map, at(row.depth, first), at(row.depth, last));
        for col in first..=last {
            let (is_opaque, index) = match &mut on_map {
                Some(next) => {
                    let index = *next as usize;
                    *next += across;
                    (tiles[index].is_opaque(), Some(index))
                }
                None => {
                    let here = at(row.depth, col);
                    let index = map.in_bounds(here).then(|| map.xy_idx(here));
                    (map.is_opaque(here), index)
                }
            };
            if let Some(index) = index
                && (is_opaque || row.is_symmetric(col))
                && col * col + depth_squared <= radius_squared
            {
                seen(index);
            }
            if previous_opaque == Some(true) && !is_opaque {
                row.start = tile_slope(row.depth, col);
            }
            if previous_opaque == Some(false) && is_opaque {
                rows.push(Row {
                    depth: deeper,
                    start: row.start,
                    end: tile_slope(row.depth, col),
                });
            }
            previous_opaque = Some(is_opaque);
        }
        if previous_opaque == Some(false) {
            rows.push(Row {
                depth: deeper,
                ..row
            });
        }
    }
}

/// The index of a row's first tile when the row lies on the map, which it
/// does when both its ends do (it is straight). Every floor the generators
/// make has rock all round its edge, which ends every row before it, so in
/// play a row is always on the map: the other path is there for a map
/// without such a border.
fn row_on_map(map: &Map, first: Pos, last: Pos) -> Option<isize> {
    (map.in_bounds(first) && map.in_bounds(last)).then(|| map.xy_idx(first) as isize)
}

/// Recomputes the map's `visible` layer from `origin` and adds it to
/// `revealed`.
pub fn update(map: &mut Map, origin: Pos, radius: i32) {
    let mut visible = std::mem::replace(&mut map.visible, BitGrid::new(0));
    compute(map, origin, radius, &mut visible);
    map.revealed.insert_all(&visible);
    map.visible = visible;
}

/// Whether `to` is in view from `from`, by the same scan as [`compute`] but
/// only of the quadrants `to` lies in (two on a diagonal or an axis), and only
/// as deep as `to`: what the `fov.symmetric` check asks after every key.
pub fn can_see(map: &Map, from: Pos, to: Pos, radius: i32) -> bool {
    debug_assert!(
        map.in_bounds(to) && map.in_bounds(from),
        "can_see from {from} to {to}, off the map"
    );
    if from == to {
        return true;
    }
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    // (quadrant, depth of `to` in it) for each quadrant whose wedge holds it,
    // in the order of the quadrants: north, east, south, west.
    let wedges = [
        (dy < 0 && dx.abs() <= -dy, -dy),
        (dx > 0 && dy.abs() <= dx, dx),
        (dy > 0 && dx.abs() <= dy, dy),
        (dx < 0 && dy.abs() <= -dx, -dx),
    ];
    let target = map.xy_idx(to);
    (0..QUADRANTS)
        .zip(wedges)
        .any(|(quadrant, (holds, depth))| {
            let mut found = false;
            if holds {
                let mut rows = Vec::new();
                scan_in(quadrant, map, from, (radius, depth), &mut rows, |idx| {
                    found |= idx == target
                });
            }
            found
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::map_from;

    fn seen(map: &Map, origin: Pos, radius: i32) -> Vec<String> {
        let mut visible = BitGrid::new(map.len());
        compute(map, origin, radius, &mut visible);
        (0..map.height())
            .map(|y| {
                (0..map.width())
                    .map(|x| {
                        let p = Pos::new(x, y);
                        match (p == origin, visible.get(map.xy_idx(p)), map.tile(p)) {
                            (true, _, _) => '@',
                            (false, false, _) => ' ',
                            (false, true, t) => t.glyph(),
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn an_open_room_is_seen_whole_with_its_walls() {
        let map = map_from(&["#######", "#.....#", "#.....#", "#.....#", "#######"]);
        let view = seen(&map, Pos::new(3, 2), 20);
        assert_eq!(
            view,
            vec!["#######", "#.....#", "#..@..#", "#.....#", "#######"]
        );
    }

    #[test]
    fn a_pillar_casts_a_shadow() {
        let map = map_from(&[
            "#########", //
            "#.......#", //
            "#.......#", //
            "#...#...#", //
            "#.......#", //
            "#.......#", //
            "#########",
        ]);
        let view = seen(&map, Pos::new(4, 5), 20);
        // The tile straight behind the pillar is hidden.
        assert_eq!(&view[2][4..5], " ");
        assert_eq!(&view[1][4..5], " ");
        assert_eq!(&view[3][4..5], "#");
    }

    #[test]
    fn walls_stop_sight() {
        let map = map_from(&["#####", "#.#.#", "#####"]);
        let view = seen(&map, Pos::new(1, 1), 20);
        assert_eq!(view[1], "#@#  ");
    }

    #[test]
    fn the_radius_is_a_circle() {
        let row = ".".repeat(21);
        let map = map_from(&[row.as_str(); 21]);
        let mut visible = BitGrid::new(map.len());
        compute(&map, Pos::new(10, 10), 3, &mut visible);
        assert!(visible.get(map.xy_idx(Pos::new(13, 10))));
        assert!(visible.get(map.xy_idx(Pos::new(12, 12))));
        assert!(!visible.get(map.xy_idx(Pos::new(13, 12))));
        assert!(!visible.get(map.xy_idx(Pos::new(14, 10))));
    }

    #[test]
    fn sight_is_symmetric_among_pillars() {
        // crawlfest's test: a room full of pillars; every visible floor tile
        // sees the origin back.
        let rows = [
            "##############", //
            "#............#", //
            "#.#..#...#.#.#", //
            "#....#.......#", //
            "#.#......##..#", //
            "#...#..#.....#", //
            "#.#....#..#..#", //
            "#............#", //
            "##############",
        ];
        let map = map_from(&rows);
        for origin in map.walkable_cells().collect::<Vec<_>>() {
            let mut visible = BitGrid::new(map.len());
            compute(&map, origin, 30, &mut visible);
            for idx in visible.iter_ones() {
                let other = map.idx_pos(idx);
                if map.is_walkable(other) {
                    assert!(
                        can_see(&map, other, origin, 30),
                        "{origin} sees {other} but not back"
                    );
                }
            }
        }
    }

    #[test]
    fn update_accumulates_revealed() {
        let mut map = map_from(&["#######", "#..#..#", "#######"]);
        update(&mut map, Pos::new(1, 1), 9);
        assert!(map.is_visible(Pos::new(2, 1)));
        assert!(!map.is_revealed(Pos::new(5, 1)));
        update(&mut map, Pos::new(5, 1), 9);
        assert!(!map.is_visible(Pos::new(2, 1)));
        assert!(map.is_revealed(Pos::new(2, 1)));
        assert!(map.visible.is_subset_of(&map.revealed));
    }
}
