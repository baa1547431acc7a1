//! Levels drawn by hand. A prefab is a text drawing embedded at compile time
//! from `game-core/prefabs/`: level structure is code by another name, so a
//! broken drawing fails the test that parses every embedded prefab rather than
//! a run three floors in.
//!
//! The glyphs are close to what the screen shows:
//!
//! | glyph | meaning |
//! |---|---|
//! | `#` | wall |
//! | `.` | floor |
//! | `>` | the way down (the floor's goal); at most one |
//! | `@` | the player's start (floor underneath); at most one |
//! | `+` | a doorway |
//! | space | leave whatever the map already had |
//!
//! Lines may be ragged: a short line is padded with spaces, which is how a
//! drawing gets irregular edges.

use super::regions::chunk_regions;
use super::{BuiltFloor, Generator, GeneratorKind};
use crate::geom::{Pos, Rect};
use crate::map::{MAX_HEIGHT, MAX_WIDTH, Map, Tile};
use crate::rng::Stream;

/// The Big Room: one vast hall with a few pillars, nowhere to hide.
const BIG_ROOM: &str = include_str!("../../prefabs/big_room.txt");
/// The temple vault the hybrid temple floor stamps against the east edge.
pub(crate) const TEMPLE: &str = include_str!("../../prefabs/temple.txt");

/// Every embedded drawing with its file name, so one test parses them all.
pub const EMBEDDED: [(&str, &str); 2] = [("big_room.txt", BIG_ROOM), ("temple.txt", TEMPLE)];

/// A drawn cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Glyph {
    Wall,
    Floor,
    Stairs,
    Start,
    Door,
}

impl Glyph {
    /// The glyph a character draws; `None` for anything else (space included,
    /// which is not a glyph but the absence of one).
    pub const fn from_char(c: char) -> Option<Glyph> {
        Some(match c {
            '#' => Glyph::Wall,
            '.' => Glyph::Floor,
            '>' => Glyph::Stairs,
            '@' => Glyph::Start,
            '+' => Glyph::Door,
            _ => return None,
        })
    }

    /// The tile a stamp writes. The start is plain floor: the player stands
    /// on it, the map does not remember it.
    pub const fn tile(self) -> Tile {
        match self {
            Glyph::Wall => Tile::Wall,
            Glyph::Floor | Glyph::Start => Tile::Floor,
            Glyph::Stairs => Tile::StairsDown,
            Glyph::Door => Tile::Door,
        }
    }
}

/// Why a drawing does not parse. Lines and columns count from 1, columns in
/// characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrefabError {
    /// No line has any character.
    Empty,
    /// Wider or higher than any map.
    TooLarge { width: usize, height: usize },
    UnknownGlyph {
        line: usize,
        column: usize,
        found: char,
    },
    /// A second `@` or `>`: a floor has one start and one way down.
    Repeated {
        line: usize,
        column: usize,
        glyph: char,
    },
}

impl std::fmt::Display for PrefabError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PrefabError::Empty => write!(f, "the drawing is empty"),
            PrefabError::TooLarge { width, height } => write!(
                f,
                "the drawing is {width}x{height}, larger than the largest map ({MAX_WIDTH}x{MAX_HEIGHT})"
            ),
            PrefabError::UnknownGlyph {
                line,
                column,
                found,
            } => write!(
                f,
                "line {line}, column {column}: {found:?} is not a prefab glyph; use # . > @ + or a space"
            ),
            PrefabError::Repeated {
                line,
                column,
                glyph,
            } => write!(
                f,
                "line {line}, column {column}: a second {glyph:?}; a drawing has at most one"
            ),
        }
    }
}

impl std::error::Error for PrefabError {}

/// A parsed drawing: rows of cells as drawn, `None` where the map shows through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prefab {
    width: i32,
    height: i32,
    /// Ragged like the text: a missing cell at the end of a row is a space.
    rows: Vec<Vec<Option<Glyph>>>,
}

impl Prefab {
    /// Parses a drawing, rejecting unknown characters and a second `@` or `>`
    /// with the line and column of the first offence.
    pub fn parse(text: &str) -> Result<Prefab, PrefabError> {
        let mut rows = Vec::new();
        let mut seen_start = false;
        let mut seen_stairs = false;
        for (line_index, line) in text.lines().enumerate() {
            let mut row = Vec::new();
            for (column_index, c) in line.chars().enumerate() {
                let (line, column) = (line_index + 1, column_index + 1);
                if c == ' ' {
                    row.push(None);
                    continue;
                }
                let glyph = Glyph::from_char(c).ok_or(PrefabError::UnknownGlyph {
                    line,
                    column,
                    found: c,
                })?;
                let seen = match glyph {
                    Glyph::Start => Some(&mut seen_start),
                    Glyph::Stairs => Some(&mut seen_stairs),
                    _ => None,
                };
                if let Some(seen) = seen {
                    if *seen {
                        return Err(PrefabError::Repeated {
                            line,
                            column,
                            glyph: c,
                        });
                    }
                    *seen = true;
                }
                row.push(Some(glyph));
            }
            rows.push(row);
        }
        let width = rows.iter().map(Vec::len).max().unwrap_or(0);
        let height = rows.len();
        if width == 0 {
            return Err(PrefabError::Empty);
        }
        match (i32::try_from(width), i32::try_from(height)) {
            (Ok(w), Ok(h)) if w <= MAX_WIDTH && h <= MAX_HEIGHT => Ok(Prefab {
                width: w,
                height: h,
                rows,
            }),
            _ => Err(PrefabError::TooLarge { width, height }),
        }
    }

    /// The widest line.
    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    /// The rectangle the drawing covers when its top-left corner is at `origin`.
    pub fn footprint(&self, origin: Pos) -> Rect {
        Rect::with_size(origin.x, origin.y, self.width, self.height)
    }

    /// What is drawn at `at` (relative to the drawing's top-left corner);
    /// `None` for a space or outside the drawing.
    pub fn glyph_at(&self, at: Pos) -> Option<Glyph> {
        let row = self.rows.get(usize::try_from(at.y).ok()?)?;
        row.get(usize::try_from(at.x).ok()?).copied().flatten()
    }

    /// Every drawn cell and its glyph, row by row; spaces are skipped.
    pub fn glyphs(&self) -> impl Iterator<Item = (Pos, Glyph)> + '_ {
        (0i32..).zip(&self.rows).flat_map(|(y, row)| {
            (0i32..)
                .zip(row)
                .filter_map(move |(x, cell)| cell.map(|glyph| (Pos::new(x, y), glyph)))
        })
    }

    /// Where `glyph` is first drawn, row by row, relative to the top-left corner.
    pub fn find(&self, glyph: Glyph) -> Option<Pos> {
        self.glyphs().find(|&(_, g)| g == glyph).map(|(p, _)| p)
    }

    /// Draws the prefab onto `map` with its top-left corner at `origin`,
    /// leaving the map as it was under spaces. Panics when the drawing does
    /// not lie wholly on the map: callers place it, so that is their bug.
    pub fn stamp(&self, map: &mut Map, origin: Pos) {
        let footprint = self.footprint(origin);
        assert!(
            map.in_bounds(Pos::new(footprint.x1, footprint.y1))
                && map.in_bounds(Pos::new(footprint.x2, footprint.y2)),
            "a {}x{} prefab at {origin} does not fit the {}x{} map",
            self.width,
            self.height,
            map.width(),
            map.height()
        );
        for (at, glyph) in self.glyphs() {
            map.set(origin.offset(at.x, at.y), glyph.tile());
        }
    }
}

/// The Big Room drawing, parsed once: it is asked for its size whenever a
/// generator is chosen, and a sweep chooses thousands a second. A test
/// parses every embedded prefab, so this cannot fail in a build whose tests
/// pass.
fn big_room() -> &'static Prefab {
    static DRAWING: std::sync::OnceLock<Prefab> = std::sync::OnceLock::new();
    DRAWING.get_or_init(|| {
        Prefab::parse(BIG_ROOM).expect("prefabs/big_room.txt parses (pinned by a test)")
    })
}

/// A NetHack homage: the whole floor is one vast hall drawn in
/// `prefabs/big_room.txt`, stamped in the middle of the map, with the start
/// and the stairs at opposite ends. Fits maps at least as large as the drawing
/// (70x18) up to `MAX_WIDTH` x `MAX_HEIGHT` (256x256).
pub struct BigRoomGenerator;

impl Generator for BigRoomGenerator {
    fn kind(&self) -> GeneratorKind {
        GeneratorKind::BigRoom
    }

    fn min_size(&self) -> (i32, i32) {
        let drawing = big_room();
        (drawing.width(), drawing.height())
    }

    /// Draws nothing from `rng`: a set piece is the same on every visit.
    fn build(&self, width: i32, height: i32, _rng: &mut Stream) -> BuiltFloor {
        assert!(
            self.fits(width, height),
            "the Big Room does not fit a {width}x{height} map"
        );
        let drawing = big_room();
        let origin = Pos::new(
            (width - drawing.width()) / 2,
            (height - drawing.height()) / 2,
        );
        let mut map = Map::new(width, height);
        drawing.stamp(&mut map, origin);
        let at = |glyph| {
            let p = drawing
                .find(glyph)
                .expect("the Big Room draws its start and its stairs (pinned by a test)");
            origin.offset(p.x, p.y)
        };
        let (start, goal) = (at(Glyph::Start), at(Glyph::Stairs));
        let regions = chunk_regions(&map, start);
        BuiltFloor {
            map,
            generator: GeneratorKind::BigRoom,
            start,
            goal,
            regions,
            rooms: 1,
            vault: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_prefab_parses() {
        for (name, text) in EMBEDDED {
            if let Err(e) = Prefab::parse(text) {
                panic!("prefabs/{name}: {e}");
            }
        }
    }

    #[test]
    fn the_big_room_fits_the_default_map_with_its_ends_apart() {
        let drawing = big_room();
        assert!(drawing.width() <= crate::map::DEFAULT_WIDTH);
        assert!(drawing.height() <= crate::map::DEFAULT_HEIGHT);
        let start = drawing.find(Glyph::Start).expect("a start");
        let stairs = drawing.find(Glyph::Stairs).expect("stairs");
        assert!(start.x < drawing.width() / 4 && stairs.x > drawing.width() * 3 / 4);
    }

    #[test]
    fn unknown_glyphs_are_reported_with_line_and_column() {
        let err = Prefab::parse("###\n#.x\n###").unwrap_err();
        assert_eq!(
            err,
            PrefabError::UnknownGlyph {
                line: 2,
                column: 3,
                found: 'x'
            }
        );
        assert!(err.to_string().starts_with("line 2, column 3:"), "{err}");
        assert!(matches!(
            Prefab::parse("#\t#"),
            Err(PrefabError::UnknownGlyph { column: 2, .. })
        ));
    }

    #[test]
    fn a_second_start_or_stairs_is_refused() {
        assert_eq!(
            Prefab::parse(".@.\n.@.").unwrap_err(),
            PrefabError::Repeated {
                line: 2,
                column: 2,
                glyph: '@'
            }
        );
        assert!(Prefab::parse(">>").is_err());
        assert!(Prefab::parse("@>").is_ok());
    }

    #[test]
    fn empty_drawings_are_refused() {
        assert_eq!(Prefab::parse(""), Err(PrefabError::Empty));
        assert_eq!(Prefab::parse("\n\n"), Err(PrefabError::Empty));
    }

    #[test]
    fn ragged_lines_are_padded_with_spaces_that_keep_the_map() {
        let drawing = Prefab::parse("####\n#.\n#+ #").expect("ragged is fine");
        assert_eq!((drawing.width(), drawing.height()), (4, 3));
        assert_eq!(drawing.glyph_at(Pos::new(1, 1)), Some(Glyph::Floor));
        assert_eq!(drawing.glyph_at(Pos::new(3, 1)), None);
        assert_eq!(drawing.glyph_at(Pos::new(2, 2)), None);
        assert_eq!(drawing.find(Glyph::Door), Some(Pos::new(1, 2)));

        let mut map = Map::new(6, 5);
        map.set(Pos::new(4, 2), Tile::Floor);
        map.set(Pos::new(3, 3), Tile::StairsDown);
        drawing.stamp(&mut map, Pos::new(1, 1));
        assert_eq!(map.tile(Pos::new(2, 2)), Tile::Floor);
        assert_eq!(map.tile(Pos::new(4, 2)), Tile::Floor, "past a short line");
        assert_eq!(map.tile(Pos::new(3, 3)), Tile::StairsDown, "under a space");
        assert_eq!(map.tile(Pos::new(2, 3)), Tile::Door);
    }

    #[test]
    fn windows_line_endings_are_accepted() {
        let drawing = Prefab::parse("##\r\n#.\r\n").expect("CRLF is fine");
        assert_eq!((drawing.width(), drawing.height()), (2, 2));
    }
}
