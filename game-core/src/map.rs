//! The map: a flat row-major grid of tiles with `revealed` and `visible`
//! layers, and the one definition of a step.
//!
//! [`Map::can_step`] is the only place that decides whether a step from a tile
//! in a direction is legal. Generation's connectivity checks, pathfinding,
//! auto-explore, monsters and the player all ask it, so "reachable when built"
//! and "walkable when played" cannot drift apart.

use std::sync::Arc;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::geom::{Dir, Pos, Rect};

/// The smallest map the game generates or plays on.
pub const MIN_WIDTH: i32 = 20;
pub const MIN_HEIGHT: i32 = 10;
/// The largest, to bound memory and generation time for sizes from outside.
pub const MAX_WIDTH: i32 = 256;
pub const MAX_HEIGHT: i32 = 256;
/// The default play size.
pub const DEFAULT_WIDTH: i32 = 80;
pub const DEFAULT_HEIGHT: i32 = 40;

/// What a cell of the map is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Tile {
    /// Solid rock. The default: generators carve everything else out of it.
    Wall = 0,
    Floor = 1,
    /// An open doorway, such as the temple vault's single entrance.
    Door = 2,
    /// Stairs down to the next floor.
    StairsDown = 3,
    /// The way out of the Undercroft, on the last floor. Taking it wins.
    Exit = 4,
}

impl Tile {
    pub const fn is_walkable(self) -> bool {
        !matches!(self, Tile::Wall)
    }

    /// Whether the tile stops sight. Only rock does: a doorway is open.
    pub const fn is_opaque(self) -> bool {
        matches!(self, Tile::Wall)
    }

    const fn from_byte(b: u8) -> Option<Tile> {
        Some(match b {
            0 => Tile::Wall,
            1 => Tile::Floor,
            2 => Tile::Door,
            3 => Tile::StairsDown,
            4 => Tile::Exit,
            _ => return None,
        })
    }
}

/// A fixed-size set of cells, one bit each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "BitGridIn")]
pub struct BitGrid {
    len: usize,
    words: Vec<u64>,
}

impl BitGrid {
    pub fn new(len: usize) -> Self {
        Self {
            len,
            words: vec![0; len.div_ceil(64)],
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, i: usize) -> bool {
        debug_assert!(i < self.len);
        self.words[i / 64] & (1 << (i % 64)) != 0
    }

    pub fn insert(&mut self, i: usize) {
        debug_assert!(i < self.len);
        self.words[i / 64] |= 1 << (i % 64);
    }

    /// Clears one bit. The game never does (a grid is cleared whole); the
    /// blind-spot canary and the tests do.
    pub fn remove(&mut self, i: usize) {
        debug_assert!(i < self.len);
        self.words[i / 64] &= !(1 << (i % 64));
    }

    /// Sets every bit set in `other`, a grid of the same length.
    pub fn insert_all(&mut self, other: &BitGrid) {
        assert_eq!(self.len, other.len, "grids of two sizes");
        for (word, theirs) in self.words.iter_mut().zip(&other.words) {
            *word |= theirs;
        }
    }

    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    pub fn fill(&mut self) {
        self.words.fill(u64::MAX);
        let spare = self.words.len() * 64 - self.len;
        if spare > 0
            && let Some(last) = self.words.last_mut()
        {
            *last >>= spare;
        }
    }

    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when every bit set here is also set in `other`.
    pub fn is_subset_of(&self, other: &BitGrid) -> bool {
        self.len == other.len
            && self
                .words
                .iter()
                .zip(&other.words)
                .all(|(a, b)| a & !b == 0)
    }

    /// The words holding the bits `start..end`, each with its first bit's
    /// index and the bits outside `start..end` cleared.
    pub fn words_in(&self, start: usize, end: usize) -> impl Iterator<Item = (usize, u64)> + '_ {
        let end = end.min(self.len);
        let words = if start < end {
            start / 64..end.div_ceil(64)
        } else {
            0..0
        };
        words.map(move |w| {
            let base = w * 64;
            let mut bits = self.words[w];
            if base < start {
                bits &= u64::MAX << (start - base);
            }
            if base + 64 > end {
                bits &= u64::MAX >> (base + 64 - end);
            }
            (base, bits)
        })
    }

    /// The word whose first bit is `base` (a multiple of 64), whole.
    pub fn word_at(&self, base: usize) -> u64 {
        self.words[base / 64]
    }

    /// How many bits in `start..end` are set, a word at a time: the screen
    /// check counts a row of the view's revealed and visible cells on every
    /// key.
    pub fn count_in(&self, start: usize, end: usize) -> usize {
        self.words_in(start, end)
            .map(|(_, bits)| bits.count_ones() as usize)
            .sum()
    }

    /// Indices of the set bits, in increasing order.
    pub fn iter_ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(w * 64 + bit)
            })
        })
    }
}

/// The unchecked form read from a save; [`BitGrid`]'s `TryFrom` validates it.
#[derive(Deserialize)]
struct BitGridIn {
    len: usize,
    words: Vec<u64>,
}

impl TryFrom<BitGridIn> for BitGrid {
    type Error = String;

    fn try_from(raw: BitGridIn) -> Result<Self, Self::Error> {
        if raw.words.len() != raw.len.div_ceil(64) {
            return Err(format!(
                "a bit grid of {} cells needs {} words, found {}",
                raw.len,
                raw.len.div_ceil(64),
                raw.words.len()
            ));
        }
        let spare = raw.words.len() * 64 - raw.len;
        if spare > 0
            && raw
                .words
                .last()
                .is_some_and(|w| w.leading_zeros() < spare as u32)
        {
            return Err(format!(
                "a bit grid of {} cells has bits set past its end",
                raw.len
            ));
        }
        Ok(BitGrid {
            len: raw.len,
            words: raw.words,
        })
    }
}

/// A floor's grid. Tiles are fixed once generation returns; `revealed`
/// accumulates what the player has ever seen and `visible` is what the player
/// sees now, recomputed every turn.
#[derive(Clone, Debug, Eq)]
pub struct Map {
    width: i32,
    height: i32,
    tiles: Vec<Tile>,
    pub revealed: BitGrid,
    pub visible: BitGrid,
}

/// [`Map::same_as`].
impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.same_as(other)
    }
}

impl Map {
    /// A map of solid rock. Sizes outside `MIN..=MAX` are allowed here (tests
    /// build tiny maps); the game's config validates the sizes it accepts.
    pub fn new(width: i32, height: i32) -> Self {
        assert!(width > 0 && height > 0, "map size {width}x{height}");
        let len = (width * height) as usize;
        Self {
            width,
            height,
            tiles: vec![Tile::Wall; len],
            revealed: BitGrid::new(len),
            visible: BitGrid::new(len),
        }
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    pub fn bounds(&self) -> Rect {
        Rect::with_size(0, 0, self.width, self.height)
    }

    #[inline]
    pub fn in_bounds(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    /// The index of `p` in the row-major layers. The one place that does the
    /// arithmetic. `p` must be in bounds.
    #[inline]
    pub fn xy_idx(&self, p: Pos) -> usize {
        debug_assert!(
            self.in_bounds(p),
            "{p} outside {}x{}",
            self.width,
            self.height
        );
        (p.y * self.width + p.x) as usize
    }

    pub fn idx_pos(&self, idx: usize) -> Pos {
        let idx = idx as i32;
        Pos::new(idx % self.width, idx / self.width)
    }

    /// The tile at `p`; rock outside the map.
    #[inline]
    pub fn tile(&self, p: Pos) -> Tile {
        if self.in_bounds(p) {
            self.tiles[self.xy_idx(p)]
        } else {
            Tile::Wall
        }
    }

    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// `self == other`, in a pass over the tiles that the compiler can
    /// vectorise (a derived comparison stops at each tile to ask). The
    /// state digest asks it after every key, keeping the floor it last
    /// encoded, and the fuzz targets and the save oracle compare whole
    /// states, of which the map is most of the bytes.
    pub fn same_as(&self, other: &Map) -> bool {
        // Every field named, so a new one fails to compile here until it
        // is compared.
        let Map {
            width,
            height,
            tiles,
            revealed,
            visible,
        } = self;
        let differing = if tiles.len() == other.tiles.len() {
            tiles
                .iter()
                .zip(&other.tiles)
                .fold(0u8, |bits, (&a, &b)| bits | (a as u8 ^ b as u8))
        } else {
            1
        };
        *width == other.width
            && *height == other.height
            && differing == 0
            && *revealed == other.revealed
            && *visible == other.visible
    }

    pub fn set(&mut self, p: Pos, tile: Tile) {
        let idx = self.xy_idx(p);
        self.tiles[idx] = tile;
    }

    #[inline]
    pub fn is_walkable(&self, p: Pos) -> bool {
        self.tile(p).is_walkable()
    }

    pub fn is_opaque(&self, p: Pos) -> bool {
        self.tile(p).is_opaque()
    }

    pub fn is_visible(&self, p: Pos) -> bool {
        self.in_bounds(p) && self.visible.get(self.xy_idx(p))
    }

    pub fn is_revealed(&self, p: Pos) -> bool {
        self.in_bounds(p) && self.revealed.get(self.xy_idx(p))
    }

    /// **The one definition of a step.** A step from `from` in `dir` is legal
    /// when the destination is walkable and, for a diagonal, the two tiles it
    /// passes between are not both blocking (no squeezing through a crack
    /// between two walls). Creatures are not considered: they move.
    #[inline]
    pub fn can_step(&self, from: Pos, dir: Dir) -> bool {
        if !self.is_walkable(from.step(dir)) {
            return false;
        }
        if dir.is_diagonal() {
            let (dx, dy) = dir.delta();
            let beside_x = Pos::new(from.x + dx, from.y);
            let beside_y = Pos::new(from.x, from.y + dy);
            if !self.is_walkable(beside_x) && !self.is_walkable(beside_y) {
                return false;
            }
        }
        true
    }

    /// Whether `p` is off the map's edge, so that each of its neighbours is
    /// on the map, [`Map::neighbour_offsets`] away in the row-major index.
    /// Every floor the generators make has rock all round its edge, so a
    /// tile a search stands on (walkable) always is: the path by position
    /// in [`Map::neighbour_index`] is there for a map that has no such
    /// border.
    pub fn away_from_edge(&self, p: Pos) -> bool {
        p.x > 0 && p.y > 0 && p.x < self.width - 1 && p.y < self.height - 1
    }

    /// The step in the row-major index from a tile to its neighbour in each
    /// direction, in [`Dir::ALL`] order: worked out once a search.
    pub fn neighbour_offsets(&self) -> [isize; 8] {
        Dir::ALL.map(|dir| {
            let (dx, dy) = dir.delta();
            (dx + dy * self.width) as isize
        })
    }

    /// The index of the neighbour of `here` (at index `at`) in `dir`, or
    /// `None` off the map: `offset` ([`Map::neighbour_offsets`]) away when
    /// `here` is [`Map::away_from_edge`] (`inside`), else by position with
    /// its bounds checked. How the searches over the whole map (the chase
    /// map, auto-explore's frontier) read a neighbour; each asks
    /// `away_from_edge` once a tile and loops itself, which costs a few
    /// percent of a replay less than an iterator or a visitor over the
    /// neighbours.
    #[inline(always)]
    pub fn neighbour_index(
        &self,
        (here, at): (Pos, usize),
        inside: bool,
        dir: Dir,
        offset: isize,
    ) -> Option<usize> {
        if inside {
            Some(at.wrapping_add_signed(offset))
        } else {
            self.neighbour_on_edge(here, dir)
        }
    }

    /// The index of the neighbour of `here` in `dir`, or `None` when it is
    /// off the map.
    fn neighbour_on_edge(&self, here: Pos, dir: Dir) -> Option<usize> {
        let next = here.step(dir);
        self.in_bounds(next).then(|| self.xy_idx(next))
    }

    /// The legal steps out of `from`, in [`Dir::ALL`] order.
    pub fn exits(&self, from: Pos) -> impl Iterator<Item = (Dir, Pos)> + '_ {
        Dir::ALL
            .into_iter()
            .filter(move |&d| self.can_step(from, d))
            .map(move |d| (d, from.step(d)))
    }

    /// Every walkable cell, in row-major order.
    pub fn walkable_cells(&self) -> impl Iterator<Item = Pos> + '_ {
        self.tiles
            .iter()
            .enumerate()
            .filter(|(_, t)| t.is_walkable())
            .map(|(i, _)| self.idx_pos(i))
    }

    pub fn count_walkable(&self) -> usize {
        self.tiles.iter().filter(|t| t.is_walkable()).count()
    }

    /// Reveal the whole floor, as magic mapping does.
    pub fn reveal_all(&mut self) {
        self.revealed.fill();
    }
}

/// A floor's map shared between copies of a game until one of them changes
/// it (copy on write). The harness copies the game after every key on a
/// screen (to check that Esc closes it), the fuzz targets copy started
/// games, and the state hash keeps the floor it last encoded; the map is
/// most of a state's bytes, and most keys leave it as it was. Reads see the
/// map (`Deref`); a write (`DerefMut`) first copies it if it is shared, so
/// no copy ever sees another's change. Written, read and compared as the
/// map itself.
#[derive(Clone, Debug)]
pub struct SharedMap(Arc<Map>);

impl SharedMap {
    pub fn new(map: Map) -> SharedMap {
        SharedMap(Arc::new(map))
    }

    /// `self == other`: at once when the two share one map (a shared map is
    /// never written, so it is the same), else by [`Map::same_as`].
    pub fn same_as(&self, other: &SharedMap) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.same_as(&other.0)
    }
}

impl From<Map> for SharedMap {
    fn from(map: Map) -> SharedMap {
        SharedMap::new(map)
    }
}

impl std::ops::Deref for SharedMap {
    type Target = Map;

    fn deref(&self) -> &Map {
        &self.0
    }
}

impl std::ops::DerefMut for SharedMap {
    fn deref_mut(&mut self) -> &mut Map {
        Arc::make_mut(&mut self.0)
    }
}

/// [`SharedMap::same_as`].
impl PartialEq for SharedMap {
    fn eq(&self, other: &SharedMap) -> bool {
        self.same_as(other)
    }
}

impl Eq for SharedMap {}

impl Serialize for SharedMap {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SharedMap {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Map::deserialize(deserializer).map(SharedMap::new)
    }
}

/// How a map is written. Binary formats (the state hash's postcard encoding)
/// get the tiles as one byte string, which keeps hashing fast; human-readable
/// formats (RON saves) get one string of glyphs per row, which a person can
/// read. `MapOut` borrows for writing and `MapIn` owns for reading; the two
/// list the same fields in one order.
#[derive(Serialize)]
struct MapOut<'a> {
    width: i32,
    height: i32,
    tiles: TileLayer,
    revealed: &'a BitGrid,
    visible: &'a BitGrid,
}

#[derive(Deserialize)]
struct MapIn {
    width: i32,
    height: i32,
    tiles: TileLayer,
    revealed: BitGrid,
    visible: BitGrid,
}

/// The tile layer in either of its two written forms.
enum TileLayer {
    Bytes(Vec<u8>),
    Rows(Vec<String>),
}

impl Tile {
    /// The glyph a tile is written as in a save (and drawn as on screen).
    pub const fn glyph(self) -> char {
        match self {
            Tile::Wall => '#',
            Tile::Floor => '.',
            Tile::Door => '+',
            Tile::StairsDown => '>',
            Tile::Exit => 'X',
        }
    }

    fn from_glyph(c: char) -> Option<Tile> {
        [
            Tile::Wall,
            Tile::Floor,
            Tile::Door,
            Tile::StairsDown,
            Tile::Exit,
        ]
        .into_iter()
        .find(|t| t.glyph() == c)
    }
}

impl Serialize for TileLayer {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            TileLayer::Bytes(bytes) => serializer.serialize_bytes(bytes),
            TileLayer::Rows(rows) => rows.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for TileLayer {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            Vec::<String>::deserialize(deserializer).map(TileLayer::Rows)
        } else {
            serde_bytes::ByteBuf::deserialize(deserializer).map(|b| TileLayer::Bytes(b.into_vec()))
        }
    }
}

impl Serialize for Map {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tiles = if serializer.is_human_readable() {
            TileLayer::Rows(
                self.tiles
                    .chunks(self.width as usize)
                    .map(|row| row.iter().map(|t| t.glyph()).collect())
                    .collect(),
            )
        } else {
            TileLayer::Bytes(self.tiles.iter().map(|&t| t as u8).collect())
        };
        MapOut {
            width: self.width,
            height: self.height,
            tiles,
            revealed: &self.revealed,
            visible: &self.visible,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Map {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let repr = MapIn::deserialize(deserializer)?;
        let (width, height) = (repr.width, repr.height);
        if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) || !(MIN_HEIGHT..=MAX_HEIGHT).contains(&height)
        {
            return Err(D::Error::custom(format!(
                "map size {width}x{height} is outside {MIN_WIDTH}x{MIN_HEIGHT}..={MAX_WIDTH}x{MAX_HEIGHT}"
            )));
        }
        let len = (width * height) as usize;
        if repr.revealed.len() != len || repr.visible.len() != len {
            return Err(D::Error::custom(format!(
                "map layers do not match its {width}x{height} size"
            )));
        }
        let tiles = match repr.tiles {
            TileLayer::Bytes(bytes) => {
                if bytes.len() != len {
                    return Err(D::Error::custom(format!(
                        "{} tiles for a {width}x{height} map",
                        bytes.len()
                    )));
                }
                bytes
                    .iter()
                    .map(|&b| {
                        Tile::from_byte(b)
                            .ok_or_else(|| D::Error::custom(format!("unknown tile byte {b}")))
                    })
                    .collect::<Result<Vec<_>, _>>()?
            }
            TileLayer::Rows(rows) => {
                if rows.len() != height as usize {
                    return Err(D::Error::custom(format!(
                        "{} tile rows for a map {height} high",
                        rows.len()
                    )));
                }
                let mut tiles = Vec::with_capacity(len);
                for (y, row) in rows.iter().enumerate() {
                    let before = tiles.len();
                    for (x, c) in row.chars().enumerate() {
                        let tile = Tile::from_glyph(c).ok_or_else(|| {
                            D::Error::custom(format!(
                                "tile row {y}, column {x}: {c:?} is not a tile; use # . + > X"
                            ))
                        })?;
                        tiles.push(tile);
                    }
                    if tiles.len() - before != width as usize {
                        return Err(D::Error::custom(format!(
                            "tile row {y} has {} tiles for a map {width} wide",
                            tiles.len() - before
                        )));
                    }
                }
                tiles
            }
        };
        Ok(Map {
            width,
            height,
            tiles,
            revealed: repr.revealed,
            visible: repr.visible,
        })
    }
}

/// Builds a map from rows of text, `#` for rock and anything else for floor:
/// unit tests draw their maps with it.
#[cfg(test)]
pub(crate) fn map_from(rows: &[&str]) -> Map {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_are_equal_only_tile_for_tile_and_bit_for_bit() {
        let mut map = Map::new(70, 9);
        map.set(Pos::new(3, 4), Tile::Floor);
        map.revealed.insert(5);
        assert_eq!(map, map.clone());
        let changes: [fn(&mut Map); 5] = [
            |m| m.set(Pos::new(69, 8), Tile::Door),
            |m| m.set(Pos::new(3, 4), Tile::Wall),
            |m| m.revealed.insert(629),
            |m| m.visible.insert(0),
            |m| *m = Map::new(9, 70),
        ];
        for change in changes {
            let mut other = map.clone();
            change(&mut other);
            assert_ne!(map, other);
            assert_ne!(other, map);
        }
    }

    #[test]
    fn a_shared_map_is_copied_when_written_and_compares_as_the_map() {
        let mut map = Map::new(30, 9);
        map.set(Pos::new(3, 4), Tile::Floor);
        let shared = SharedMap::new(map.clone());
        let mut copy = shared.clone();
        assert_eq!(copy, shared, "a copy shares the map");
        assert_eq!(SharedMap::new(map.clone()), shared, "two equal maps apart");
        copy.visible.insert(7);
        assert!(!shared.visible.get(7), "the write went to the copy alone");
        assert!(copy.visible.get(7));
        assert_ne!(copy, shared);
        assert_ne!(shared, copy);
        assert_eq!(*shared, map, "the original is as it was");
        copy.visible.remove(7);
        assert_eq!(copy, shared, "equal again, though no longer shared");
    }

    #[test]
    fn ones_in_a_range_are_the_ones_of_the_whole_within_it() {
        let mut grid = BitGrid::new(200);
        for i in [0, 1, 63, 64, 65, 127, 128, 150, 199] {
            grid.insert(i);
        }
        for (start, end) in [
            (0, 200),
            (1, 64),
            (63, 65),
            (64, 64),
            (100, 90),
            (129, 500),
            (0, 1),
        ] {
            let want: Vec<usize> = grid
                .iter_ones()
                .filter(|&i| i >= start && i < end)
                .collect();
            let ones_in: Vec<usize> = grid
                .words_in(start, end)
                .flat_map(|(base, bits)| {
                    (0..64)
                        .filter(move |i| bits >> i & 1 == 1)
                        .map(move |i| base + i)
                })
                .collect();
            assert_eq!(ones_in, want, "{start}..{end}");
            assert_eq!(grid.count_in(start, end), want.len(), "{start}..{end}");
        }
    }

    #[test]
    fn inserting_all_of_a_grid_is_the_union() {
        let (mut a, mut b) = (BitGrid::new(130), BitGrid::new(130));
        for i in [0, 64, 129] {
            a.insert(i);
        }
        for i in [1, 64, 100] {
            b.insert(i);
        }
        a.insert_all(&b);
        assert_eq!(a.iter_ones().collect::<Vec<_>>(), [0, 1, 64, 100, 129]);
        assert_eq!(b.iter_ones().collect::<Vec<_>>(), [1, 64, 100]);
    }

    #[test]
    fn a_new_map_is_solid_rock() {
        let map = Map::new(5, 4);
        assert_eq!(map.count_walkable(), 0);
        assert_eq!(map.tile(Pos::new(-1, 0)), Tile::Wall);
    }

    #[test]
    fn xy_idx_and_idx_pos_are_inverse() {
        let map = Map::new(7, 3);
        for p in map.bounds().cells() {
            assert_eq!(map.idx_pos(map.xy_idx(p)), p);
        }
    }

    #[test]
    fn a_diagonal_may_not_squeeze_between_two_walls() {
        let map = map_from(&[
            "####", //
            "#.##", //
            "##.#", //
            "####",
        ]);
        assert!(!map.can_step(Pos::new(1, 1), Dir::SE));
        assert!(!map.can_step(Pos::new(2, 2), Dir::NW));
    }

    #[test]
    fn a_diagonal_past_one_wall_is_allowed() {
        let map = map_from(&[
            "####", //
            "#..#", //
            "##.#", //
            "####",
        ]);
        assert!(map.can_step(Pos::new(1, 1), Dir::SE));
        assert!(map.can_step(Pos::new(2, 2), Dir::NW));
    }

    #[test]
    fn steps_into_walls_or_off_the_map_are_refused() {
        let map = map_from(&["..", ".."]);
        assert!(map.can_step(Pos::new(0, 0), Dir::E));
        assert!(!map.can_step(Pos::new(0, 0), Dir::W));
        assert!(!map.can_step(Pos::new(1, 1), Dir::SE));
        assert_eq!(map.exits(Pos::new(0, 0)).count(), 3);
    }

    #[test]
    fn bit_grid_fill_sets_exactly_len_bits() {
        for len in [1, 63, 64, 65, 200] {
            let mut g = BitGrid::new(len);
            g.fill();
            assert_eq!(g.count(), len);
            assert_eq!(g.iter_ones().count(), len);
            g.remove(0);
            assert_eq!(g.count(), len - 1);
            assert!(!g.get(0));
        }
    }

    #[test]
    fn bit_grid_subset() {
        let mut a = BitGrid::new(100);
        let mut b = BitGrid::new(100);
        a.insert(70);
        assert!(!a.is_subset_of(&b));
        b.insert(70);
        b.insert(3);
        assert!(a.is_subset_of(&b));
        assert_eq!(b.iter_ones().collect::<Vec<_>>(), vec![3, 70]);
    }

    #[test]
    fn a_map_round_trips_through_ron_and_refuses_bad_tiles() {
        let mut map = Map::new(MIN_WIDTH, MIN_HEIGHT);
        map.set(Pos::new(3, 4), Tile::StairsDown);
        map.revealed.insert(5);
        let text = ron::to_string(&map).expect("maps serialize");
        let back: Map = ron::from_str(&text).expect("and deserialize");
        assert_eq!(back, map);

        assert!(text.contains("\"###>"), "rows of glyphs: {text}");
        let bad = text.replacen("###>", "###?", 1);
        let err = ron::from_str::<Map>(&bad).unwrap_err().to_string();
        assert!(err.contains("not a tile"), "{err}");
        let short = text.replacen("###>", "##>", 1);
        assert!(ron::from_str::<Map>(&short).is_err());

        let bytes = postcard::to_allocvec(&map).expect("binary serialize");
        let back: Map = postcard::from_bytes(&bytes).expect("binary deserialize");
        assert_eq!(back, map);
    }
}
