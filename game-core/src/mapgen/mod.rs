//! Floor generation: five generators behind one trait, and the one function
//! that decides which floor uses which.
//!
//! A generator carves a [`Map`] out of solid rock and reports where the player
//! starts, where the way down is, and the spawn regions (region 0 holds the
//! start, so nothing spawns on top of the player). Every generator answers to
//! [`Map::can_step`] for connectivity, so what is reachable when built is what
//! is walkable when played.

use serde::{Deserialize, Serialize};

use crate::geom::{Pos, Rect};
use crate::map::Map;
use crate::rng::{RunSeed, Stream};

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

    /// Whether this generator can build on a map of this size.
    fn fits(&self, width: i32, height: i32) -> bool;

    /// Builds a floor. The goal tile is left as `Tile::StairsDown`;
    /// [`generate_floor`] turns it into the exit on the last floor.
    fn build(&self, width: i32, height: i32, rng: &mut Stream) -> BuiltFloor;
}
