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
        // Side by side, with no index to check and with adds that cannot
        // overflow (at most a tile each), which compile to whole vectors at a
        // time where `count` or `sum` would check every add: this runs for
        // every floor a sweep makes.
        let (mut walkable, mut reachable) = (0usize, 0usize);
        for (tile, &steps) in map.tiles().iter().zip(distances) {
            let on_foot = usize::from(tile.is_walkable());
            walkable = walkable.wrapping_add(on_foot);
            reachable = reachable.wrapping_add(on_foot & usize::from(steps != UNREACHABLE));
        }
        let start_to_goal = Some(floor.goal)
            .filter(|&goal| map.in_bounds(goal))
            .map(|goal| distances[map.xy_idx(goal)])
            .filter(|&steps| steps != UNREACHABLE);
        FloorStats {
            generator: floor.generator,
            rooms: floor.rooms,
            regions: floor.regions.len(),
            walkable,
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
