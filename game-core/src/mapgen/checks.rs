//! What every built floor must satisfy, as plain functions over a
//! [`BuiltFloor`], so the tests, the sweeps and the invariant catalogue all
//! ask the same questions. Connectivity is [`bfs_distances`], which is
//! [`Map::can_step`](crate::map::Map::can_step): the step rule of play.

use super::{BuiltFloor, GeneratorKind, Vault};
use crate::geom::Pos;
use crate::map::{BitGrid, Tile};
use crate::paths::{UNREACHABLE, bfs_distances};

/// Walkable tiles that cannot be reached from the start. Empty on a sound
/// floor: everything you can see, you can walk to.
pub fn unreachable_walkable(floor: &BuiltFloor) -> Vec<Pos> {
    let map = &floor.map;
    let distances = bfs_distances(map, floor.start);
    map.walkable_cells()
        .filter(|&p| distances[map.xy_idx(p)] == UNREACHABLE)
        .collect()
}

/// Whether the goal is the way down (stairs, or the exit on the last floor)
/// and can be walked to from the start.
pub fn goal_reachable(floor: &BuiltFloor) -> bool {
    let map = &floor.map;
    matches!(map.tile(floor.goal), Tile::StairsDown | Tile::Exit)
        && bfs_distances(map, floor.start)[map.xy_idx(floor.goal)] != UNREACHABLE
}

/// Whether region 0 exists and holds the start, so nothing spawns on top of
/// the player.
pub fn start_in_region0(floor: &BuiltFloor) -> bool {
    floor
        .regions
        .first()
        .is_some_and(|region| region.cells.contains(&floor.start))
}

/// Whether the regions are usable by the spawner: at least one, none empty,
/// every cell on the map and walkable, and no cell in two regions.
pub fn regions_well_formed(floor: &BuiltFloor) -> bool {
    let map = &floor.map;
    let mut claimed = BitGrid::new(map.len());
    !floor.regions.is_empty()
        && floor.regions.iter().all(|region| {
            !region.cells.is_empty()
                && region.cells.iter().all(|&p| {
                    if !map.is_walkable(p) || claimed.get(map.xy_idx(p)) {
                        return false;
                    }
                    claimed.set(map.xy_idx(p), true);
                    true
                })
        })
}

/// Walkable tiles in the column just west of the vault's wall, over the
/// whole height of the map; `None` without a vault. The vault sits against
/// the east edge behind its moat, so every way in crosses this column: a
/// sound temple has exactly 1.
pub fn vault_crossings(floor: &BuiltFloor) -> Option<usize> {
    let Vault { rect, .. } = floor.vault?;
    let map = &floor.map;
    Some(
        (0..map.height())
            .filter(|&y| map.is_walkable(Pos::new(rect.x1 - 1, y)))
            .count(),
    )
}

/// Walkable tiles on the vault's outer wall; `None` without a vault. A sound
/// temple has exactly 1, its entrance.
pub fn vault_wall_openings(floor: &BuiltFloor) -> Option<usize> {
    let Vault { rect, .. } = floor.vault?;
    let inside = rect.grow(-1);
    Some(
        rect.cells()
            .filter(|&p| !inside.contains(p) && floor.map.is_walkable(p))
            .count(),
    )
}

/// A floor in numbers, for the CLI and for eyeballing a sweep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloorStats {
    pub generator: GeneratorKind,
    pub rooms: u32,
    pub regions: usize,
    pub walkable: usize,
    /// Walkable tiles reachable from the start; equal to `walkable` on a
    /// sound floor.
    pub reachable: usize,
    /// Steps from the start to the goal; `None` when it cannot be reached.
    pub start_to_goal: Option<u32>,
}

pub fn stats(floor: &BuiltFloor) -> FloorStats {
    let map = &floor.map;
    let distances = bfs_distances(map, floor.start);
    let reachable = map
        .walkable_cells()
        .filter(|&p| distances[map.xy_idx(p)] != UNREACHABLE)
        .count();
    let start_to_goal = Some(floor.goal)
        .filter(|&goal| map.in_bounds(goal))
        .map(|goal| distances[map.xy_idx(goal)])
        .filter(|&steps| steps != UNREACHABLE);
    FloorStats {
        generator: floor.generator,
        rooms: floor.rooms,
        regions: floor.regions.len(),
        walkable: map.count_walkable(),
        reachable,
        start_to_goal,
    }
}

impl std::fmt::Display for FloorStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "generator {}, {} rooms, {} regions, {} walkable, {} reachable, ",
            self.generator.name(),
            self.rooms,
            self.regions,
            self.walkable,
            self.reachable
        )?;
        match self.start_to_goal {
            Some(steps) => write!(f, "{steps} steps to the goal"),
            None => write!(f, "goal unreachable"),
        }
    }
}
