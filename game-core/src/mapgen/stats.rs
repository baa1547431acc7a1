//! A floor in numbers: what `deja map` prints and what a sweep reports.

use super::{BuiltFloor, GeneratorKind};
use crate::paths::{UNREACHABLE, bfs_distances};

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

impl FloorStats {
    pub fn of(floor: &BuiltFloor) -> FloorStats {
        FloorStats::given(floor, &bfs_distances(&floor.map, floor.start))
    }

    /// [`FloorStats::of`] with the steps from the floor's start to every
    /// tile ([`bfs_distances`]) at hand.
    pub fn given(floor: &BuiltFloor, distances: &[u32]) -> FloorStats {
        let map = &floor.map;
        // Side by side, with no index to check: this runs for every floor a
        // sweep makes.
        let reachable: usize = (map.tiles().iter().zip(distances))
            .map(|(tile, steps)| usize::from(tile.is_walkable() & (*steps != UNREACHABLE)))
            .sum();
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
