//! Floor generation: five generators behind one trait, and the one function
//! that decides which floor uses which.
//!
//! A generator carves a [`Map`] out of solid rock and reports where the player
//! starts, where the way down is, and the spawn regions (region 0 holds the
//! start, so nothing spawns on top of the player). Every generator answers to
//! [`Map::can_step`] for connectivity, so what is reachable when built is what
//! is walkable when played.
//!
//! The sizes each generator builds on ([`Generator::min_size`] up to
//! [`MAX_WIDTH`] x [`MAX_HEIGHT`], 256x256):
//!
//! | generator | smallest map | why |
//! |---|---|---|
//! | [`rooms::RoomsGenerator`] | 20x10 (`map::MIN_WIDTH` x `MIN_HEIGHT`) | every legal size: the fallback |
//! | [`caverns::CavernsGenerator`] | 20x10 | every legal size |
//! | [`bsp::BspGenerator`] | 20x10 | every legal size |
//! | [`prefab::BigRoomGenerator`] | 70x18 | the drawing's own size |
//! | [`temple::TempleGenerator`] | 28x11 | the vault (15x9), its moat and a west part with rooms |
//!
//! Which floor uses which is [`generator_for_depth`]; [`generate_floor`] is
//! the one entry point the game calls. The properties every floor must keep
//! are in the invariant catalogue (the checks crate's `check_floor`);
//! [`stats`] measures a floor.

use serde::{Deserialize, Serialize};

use crate::canary::Canaries;
use crate::geom::{Pos, Rect};
use crate::map::{MAX_HEIGHT, MAX_WIDTH, Map, Tile};
use crate::rng::{RunSeed, Stream};

pub mod bsp;
pub mod caverns;
pub mod prefab;
mod regions;
pub mod rooms;
pub mod stats;
pub mod temple;

/// The deepest floor. It holds the exit that wins the run.
pub const LAST_DEPTH: u32 = 6;

/// Which algorithm built a floor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum GeneratorKind {
    /// Rooms and L-shaped corridors, bounded by a rectangle.
    Rooms,
    /// Cellular-automaton caverns.
    Caverns,
    /// The Big Room prefab: one vast hall drawn by hand.
    BigRoom,
    /// Rooms to the west, the temple vault to the east behind a moat.
    Temple,
    /// Binary space partition rooms with pruned connections.
    Bsp,
}

impl GeneratorKind {
    pub const ALL: [GeneratorKind; 5] = [
        GeneratorKind::Rooms,
        GeneratorKind::Caverns,
        GeneratorKind::BigRoom,
        GeneratorKind::Temple,
        GeneratorKind::Bsp,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            GeneratorKind::Rooms => "rooms",
            GeneratorKind::Caverns => "caverns",
            GeneratorKind::BigRoom => "big-room",
            GeneratorKind::Temple => "temple",
            GeneratorKind::Bsp => "bsp",
        }
    }
}

/// A group of walkable tiles the spawner treats as one place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub cells: Vec<Pos>,
}

/// The temple vault: its outer wall rectangle and its single doorway.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vault {
    /// The vault's outer walls, inclusive.
    pub rect: Rect,
    /// The one walkable tile in those walls.
    pub entrance: Pos,
}

/// What a generator hands back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltFloor {
    pub map: Map,
    pub generator: GeneratorKind,
    pub start: Pos,
    /// Where the way down is (stairs; the exit on the last floor).
    pub goal: Pos,
    /// Spawn regions. Region 0 contains `start`.
    pub regions: Vec<Region>,
    /// Rooms carved, for the floor's stats; 0 for shapeless levels.
    pub rooms: u32,
    pub vault: Option<Vault>,
}

/// One floor-building algorithm.
pub trait Generator {
    fn kind(&self) -> GeneratorKind;

    /// The smallest map this generator builds on, as `(width, height)`.
    fn min_size(&self) -> (i32, i32);

    /// Whether this generator can build on a map of this size: at least
    /// [`Generator::min_size`], at most [`MAX_WIDTH`] x [`MAX_HEIGHT`].
    fn fits(&self, width: i32, height: i32) -> bool {
        let (min_width, min_height) = self.min_size();
        (min_width..=MAX_WIDTH).contains(&width) && (min_height..=MAX_HEIGHT).contains(&height)
    }

    /// Builds a floor. The goal tile is left as `Tile::StairsDown`;
    /// [`generate_floor`] turns it into the exit on the last floor.
    ///
    /// Panics when the size does not [`fit`](Generator::fits): that is a bug in
    /// the caller, which [`generate_floor`] and [`build_with`] never make.
    /// Draws only from `rng`, and a bounded number of times.
    fn build(&self, width: i32, height: i32, rng: &mut Stream) -> BuiltFloor;

    /// Builds with planted defects switched on (`crate::canary`); only a
    /// generator with a canary of its own does anything different.
    fn build_planted(
        &self,
        width: i32,
        height: i32,
        rng: &mut Stream,
        canaries: Canaries,
    ) -> BuiltFloor {
        let _ = canaries;
        self.build(width, height, rng)
    }
}

/// The generator for `kind`.
pub fn generator(kind: GeneratorKind) -> &'static dyn Generator {
    match kind {
        GeneratorKind::Rooms => &rooms::RoomsGenerator,
        GeneratorKind::Caverns => &caverns::CavernsGenerator,
        GeneratorKind::BigRoom => &prefab::BigRoomGenerator,
        GeneratorKind::Temple => &temple::TempleGenerator,
        GeneratorKind::Bsp => &bsp::BspGenerator,
    }
}

/// Which generator floor `depth` uses. Floor 1 is always rooms, because a first
/// impression should be legible; floors 3 (the temple) and 5 (the Big Room)
/// are landmarks every run shares. Every other depth draws once from `rng`,
/// uniformly among rooms, caverns and BSP rooms; the landmark depths draw
/// nothing.
pub fn generator_for_depth(depth: u32, rng: &mut Stream) -> GeneratorKind {
    const RANDOM_SHAPES: [GeneratorKind; 3] = [
        GeneratorKind::Rooms,
        GeneratorKind::Caverns,
        GeneratorKind::Bsp,
    ];
    match depth {
        1 => GeneratorKind::Rooms,
        3 => GeneratorKind::Temple,
        5 => GeneratorKind::BigRoom,
        _ => *rng
            .pick(&RANDOM_SHAPES)
            .expect("the list of random shapes is not empty"),
    }
}

/// Builds floor `depth` of the run `seed` on a `width` x `height` map, from
/// the stream `("mapgen", depth)` alone, so a floor never depends on what
/// happened above it.
///
/// When the generator [`generator_for_depth`] chose does not fit the map (the
/// Big Room on a map smaller than its drawing, the temple on a narrow one),
/// the floor falls back to rooms and corridors, which fit every legal size;
/// the floor's `generator` names what really built it. On [`LAST_DEPTH`] the
/// goal is the exit instead of stairs down.
///
/// Panics when the size is outside `map::MIN_WIDTH` x `MIN_HEIGHT` ..=
/// [`MAX_WIDTH`] x [`MAX_HEIGHT`]; the game's configuration validates sizes
/// before they get here.
pub fn generate_floor(seed: RunSeed, depth: u32, width: i32, height: i32) -> BuiltFloor {
    generate_floor_planted(seed, depth, width, height, Canaries::NONE)
}

/// [`generate_floor`] with planted defects switched on: how a canary run
/// (and its replay) builds its floors.
pub fn generate_floor_planted(
    seed: RunSeed,
    depth: u32,
    width: i32,
    height: i32,
    canaries: Canaries,
) -> BuiltFloor {
    let mut rng = seed.stream("mapgen", u64::from(depth));
    let chosen = generator_for_depth(depth, &mut rng);
    let kind = if generator(chosen).fits(width, height) {
        chosen
    } else {
        GeneratorKind::Rooms
    };
    assert!(
        generator(kind).fits(width, height),
        "no generator builds a {width}x{height} map: the size is outside the legal bounds"
    );
    let mut floor = generator(kind).build_planted(width, height, &mut rng, canaries);
    if depth == LAST_DEPTH {
        floor.map.set(floor.goal, Tile::Exit);
    }
    floor
}

/// Builds a floor with a particular generator, for tests, fuzzers and the
/// CLI; `None` when it does not fit a `width` x `height` map.
pub fn build_with(
    kind: GeneratorKind,
    width: i32,
    height: i32,
    rng: &mut Stream,
) -> Option<BuiltFloor> {
    let builder = generator(kind);
    builder
        .fits(width, height)
        .then(|| builder.build(width, height, rng))
}

/// The cells of each rectangle, one region per rectangle, in order.
fn room_regions(rooms: &[Rect]) -> Vec<Region> {
    rooms
        .iter()
        .map(|room| Region {
            cells: room.cells().collect(),
        })
        .collect()
}
