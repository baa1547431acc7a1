//! Grid geometry: positions, the eight directions, and rectangles.
//!
//! Everything is integer. Distances are Chebyshev (a diagonal step costs the
//! same as an orthogonal one) because that is what a step on the grid costs.

use serde::{Deserialize, Serialize};

/// A cell on a map, in grid coordinates. `(0, 0)` is the top-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl Pos {
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// The neighbouring cell in `dir`.
    pub const fn step(self, dir: Dir) -> Self {
        let (dx, dy) = dir.delta();
        Self::new(self.x + dx, self.y + dy)
    }

    pub const fn offset(self, dx: i32, dy: i32) -> Self {
        Self::new(self.x + dx, self.y + dy)
    }

    /// Steps needed to walk from `self` to `other` on an open floor.
    pub fn chebyshev(self, other: Pos) -> i32 {
        (self.x - other.x).abs().max((self.y - other.y).abs())
    }

    /// Squared straight-line distance: integer, and symmetric, which is what
    /// a sight radius needs.
    pub fn distance_squared(self, other: Pos) -> i32 {
        let dx = self.x - other.x;
        let dy = self.y - other.y;
        dx * dx + dy * dy
    }

    /// The direction of a single step from `self` to `other`, if they touch.
    pub fn direction_to(self, other: Pos) -> Option<Dir> {
        Dir::from_delta(other.x - self.x, other.y - self.y)
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// "(3, 2) to (10, 8)": the corners, both inclusive.
impl std::fmt::Display for Rect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} to {}",
            Pos::new(self.x1, self.y1),
            Pos::new(self.x2, self.y2)
        )
    }
}

/// One of the eight directions a step can take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Dir {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir {
    /// All eight, clockwise from north. Iteration order is part of the rules:
    /// searches that break ties take the first direction in this order.
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::N => (0, -1),
            Dir::NE => (1, -1),
            Dir::E => (1, 0),
            Dir::SE => (1, 1),
            Dir::S => (0, 1),
            Dir::SW => (-1, 1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, -1),
        }
    }

    pub const fn from_delta(dx: i32, dy: i32) -> Option<Dir> {
        Some(match (dx, dy) {
            (0, -1) => Dir::N,
            (1, -1) => Dir::NE,
            (1, 0) => Dir::E,
            (1, 1) => Dir::SE,
            (0, 1) => Dir::S,
            (-1, 1) => Dir::SW,
            (-1, 0) => Dir::W,
            (-1, -1) => Dir::NW,
            _ => return None,
        })
    }

    pub const fn is_diagonal(self) -> bool {
        let (dx, dy) = self.delta();
        dx != 0 && dy != 0
    }

    /// Index in [`Dir::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Dir::N => "north",
            Dir::NE => "north-east",
            Dir::E => "east",
            Dir::SE => "south-east",
            Dir::S => "south",
            Dir::SW => "south-west",
            Dir::W => "west",
            Dir::NW => "north-west",
        }
    }
}

/// An axis-aligned rectangle of cells, `x1..=x2` by `y1..=y2` (inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rect {
    pub x1: i32,
    pub y1: i32,
    pub x2: i32,
    pub y2: i32,
}

impl Rect {
    /// A rectangle with its top-left corner at `(x, y)`, `w` cells wide and
    /// `h` cells high. `w` and `h` must be at least 1.
    pub fn with_size(x: i32, y: i32, w: i32, h: i32) -> Self {
        debug_assert!(w >= 1 && h >= 1, "empty rectangle {w}x{h}");
        Self {
            x1: x,
            y1: y,
            x2: x + w - 1,
            y2: y + h - 1,
        }
    }

    pub fn width(&self) -> i32 {
        self.x2 - self.x1 + 1
    }

    pub fn height(&self) -> i32 {
        self.y2 - self.y1 + 1
    }

    pub fn area(&self) -> i32 {
        self.width() * self.height()
    }

    pub fn center(&self) -> Pos {
        Pos::new((self.x1 + self.x2) / 2, (self.y1 + self.y2) / 2)
    }

    pub fn contains(&self, p: Pos) -> bool {
        p.x >= self.x1 && p.x <= self.x2 && p.y >= self.y1 && p.y <= self.y2
    }

    /// True when the two share at least one cell.
    pub fn intersects(&self, other: &Rect) -> bool {
        self.x1 <= other.x2 && self.x2 >= other.x1 && self.y1 <= other.y2 && self.y2 >= other.y1
    }

    /// This rectangle grown by `by` cells on every side (shrunk when negative).
    pub fn grow(&self, by: i32) -> Rect {
        Rect {
            x1: self.x1 - by,
            y1: self.y1 - by,
            x2: self.x2 + by,
            y2: self.y2 + by,
        }
    }

    /// Every cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Pos> + use<> {
        let Rect { x1, y1, x2, y2 } = *self;
        (y1..=y2).flat_map(move |y| (x1..=x2).map(move |x| Pos::new(x, y)))
    }
}

/// The cells of a straight line from `from` to `to`, both included
/// (Bresenham, all integer).
pub fn line(from: Pos, to: Pos) -> Vec<Pos> {
    let dx = (to.x - from.x).abs();
    let dy = -(to.y - from.y).abs();
    let sx = if from.x < to.x { 1 } else { -1 };
    let sy = if from.y < to.y { 1 } else { -1 };
    let mut err = dx + dy;
    let mut at = from;
    let mut cells = Vec::with_capacity((dx.max(-dy) + 1) as usize);
    // Each cell is one step nearer: the line has chebyshev + 1 cells.
    let mut bound = crate::bound::Bound::line(dx, dy);
    loop {
        bound.tick();
        cells.push(at);
        if at == to {
            return cells;
        }
        let doubled = 2 * err;
        if doubled >= dy {
            err += dy;
            at.x += sx;
        }
        if doubled <= dx {
            err += dx;
            at.y += sy;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_direction_round_trips_through_its_delta() {
        for dir in Dir::ALL {
            let (dx, dy) = dir.delta();
            assert_eq!(Dir::from_delta(dx, dy), Some(dir));
            assert_eq!(Dir::ALL[dir.index()], dir);
        }
        assert_eq!(Dir::from_delta(0, 0), None);
        assert_eq!(Dir::from_delta(2, 0), None);
    }

    #[test]
    fn exactly_four_directions_are_diagonal() {
        assert_eq!(Dir::ALL.iter().filter(|d| d.is_diagonal()).count(), 4);
    }

    #[test]
    fn rect_geometry() {
        let r = Rect::with_size(2, 3, 4, 2);
        assert_eq!((r.width(), r.height(), r.area()), (4, 2, 8));
        assert_eq!(r.cells().count(), 8);
        assert!(r.contains(Pos::new(5, 4)));
        assert!(!r.contains(Pos::new(6, 4)));
        assert!(r.intersects(&Rect::with_size(5, 4, 3, 3)));
        assert!(!r.intersects(&Rect::with_size(6, 3, 3, 3)));
        assert_eq!(r.grow(1), Rect::with_size(1, 2, 6, 4));
    }

    #[test]
    fn distances() {
        let a = Pos::new(1, 1);
        assert_eq!(a.chebyshev(Pos::new(4, -1)), 3);
        assert_eq!(a.distance_squared(Pos::new(4, -1)), 13);
        assert_eq!(a.direction_to(Pos::new(2, 0)), Some(Dir::NE));
        assert_eq!(a.direction_to(Pos::new(3, 0)), None);
    }

    #[test]
    fn lines_are_connected_and_end_where_asked() {
        for (to_x, to_y) in [(5, 2), (-3, 7), (0, -4), (6, 6), (-8, -1), (0, 0)] {
            let to = Pos::new(to_x, to_y);
            let cells = line(Pos::new(0, 0), to);
            assert_eq!(cells.first(), Some(&Pos::new(0, 0)));
            assert_eq!(cells.last(), Some(&to));
            assert_eq!(cells.len() as i32, Pos::new(0, 0).chebyshev(to) + 1);
            for pair in cells.windows(2) {
                assert!(pair[0].direction_to(pair[1]).is_some(), "{cells:?}");
            }
        }
    }
}
