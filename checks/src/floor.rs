//! The floor invariants: checked once on every generated floor, and on the
//! floor a game is playing.

use game_core::geom::Pos;
use game_core::map::{BitGrid, Map, Tile};
use game_core::mapgen::{BuiltFloor, Vault};
use game_core::paths::{self, UNREACHABLE};

use crate::describe::Words;

use crate::catalogue::{Id, Violation, violation};

/// The floor invariants of a freshly generated floor. `last_floor` says
/// whether its goal must be the exit rather than stairs.
pub fn check_floor(floor: &BuiltFloor, last_floor: bool) -> Vec<Violation> {
    check_floor_given(
        floor,
        last_floor,
        &paths::bfs_distances(&floor.map, floor.start),
    )
}

/// [`check_floor`] with the steps from the floor's start to every tile
/// ([`paths::bfs_distances`]) at hand: a sweep measures the floor with
/// the same distances ([`game_core::mapgen::stats::FloorStats::given`]).
pub fn check_floor_given(
    floor: &BuiltFloor,
    last_floor: bool,
    distances: &[u32],
) -> Vec<Violation> {
    let mut found = map_violations(
        &floor.map,
        floor.start,
        floor.goal,
        floor.vault.as_ref(),
        last_floor,
        distances,
    );
    if !floor
        .regions
        .first()
        .is_some_and(|region| region.cells.contains(&floor.start))
    {
        found.push(violation(
            Id::MapStartInRegion0,
            format!("the start {} is not in region 0", floor.start),
        ));
    }
    let map = &floor.map;
    let mut claimed = BitGrid::new(map.len());
    for (i, region) in floor.regions.iter().enumerate() {
        if region.cells.is_empty() {
            found.push(violation(
                Id::MapStartInRegion0,
                format!("region {i} is empty"),
            ));
        }
        for &p in &region.cells {
            if !map.is_walkable(p) {
                found.push(violation(
                    Id::MapStartInRegion0,
                    format!("region {i} holds the unwalkable tile {p}"),
                ));
            } else if claimed.get(map.xy_idx(p)) {
                found.push(violation(
                    Id::MapStartInRegion0,
                    format!("region {i} shares the tile {p} with an earlier region"),
                ));
            } else {
                claimed.insert(map.xy_idx(p));
            }
        }
    }
    found
}

/// The floor invariants that need only the map, start, goal and vault: also
/// checked on the floor a game is playing.
pub fn check_floor_map(
    map: &Map,
    start: Pos,
    goal: Pos,
    vault: Option<&Vault>,
    last_floor: bool,
) -> Vec<Violation> {
    let distances = paths::bfs_distances(map, start);
    map_violations(map, start, goal, vault, last_floor, &distances)
}

/// [`check_floor_map`] with the steps from `start` at hand.
fn map_violations(
    map: &Map,
    start: Pos,
    goal: Pos,
    vault: Option<&Vault>,
    last_floor: bool,
    dist: &[u32],
) -> Vec<Violation> {
    let mut found = Vec::new();
    if !map.is_walkable(start) {
        found.push(violation(
            Id::MapConnected,
            format!("the start {start} is not walkable"),
        ));
        return found;
    }
    found.extend(connectivity(map, start, dist));
    found.extend(way_down(map, start, goal, last_floor, dist));
    if let Some(vault) = vault {
        vault_violations(map, vault, goal, &mut found);
    }
    found
}

/// map.connected: every walkable tile is a number of steps from the start.
fn connectivity(map: &Map, start: Pos, dist: &[u32]) -> Option<Violation> {
    // Counted first, with wrapping adds (one a tile at most) that vectorise:
    // on a sound floor there is nothing more to look for.
    let cut_off = |(tile, steps): (&Tile, &u32)| tile.is_walkable() && *steps == UNREACHABLE;
    let unreachable = (map.tiles().iter().zip(dist))
        .fold(0usize, |n, tile| n.wrapping_add(usize::from(cut_off(tile))));
    let first = (unreachable > 0)
        .then(|| map.tiles().iter().zip(dist).position(cut_off))
        .flatten();
    first.map(|i| map.idx_pos(i)).map(|first| {
        violation(
            Id::MapConnected,
            format!(
                "{unreachable} walkable tiles cannot be reached from the start {start}, the first at {first}"
            ),
        )
    })
}

/// map.has_exit: one way down, at the goal, which is not the start and can
/// be reached from it.
fn way_down(map: &Map, start: Pos, goal: Pos, last_floor: bool, dist: &[u32]) -> Option<Violation> {
    let expected = if last_floor {
        Tile::Exit
    } else {
        Tile::StairsDown
    };
    // Wrapping adds (at most one a tile), which vectorise where `count`'s
    // checked ones do not.
    let ways_down = (map.tiles().iter()).fold(0usize, |n, t| {
        n.wrapping_add(usize::from(matches!(t, Tile::StairsDown | Tile::Exit)))
    });
    let message = if map.tile(goal) != expected {
        format!(
            "the goal {goal} is {}, not {}",
            map.tile(goal).words(),
            expected.words()
        )
    } else if ways_down != 1 {
        format!("the floor has {ways_down} ways down, not 1")
    } else if goal == start {
        format!("the goal is the start {start}")
    } else if dist[map.xy_idx(goal)] == UNREACHABLE {
        format!("the goal {goal} cannot be reached from the start {start}")
    } else {
        return None;
    };
    Some(violation(Id::MapHasExit, message))
}

/// map.vault_single_entrance: one opening, one crossing of the moat, a
/// doorway at the entrance and the goal inside.
fn vault_violations(map: &Map, vault: &Vault, goal: Pos, found: &mut Vec<Violation>) {
    let openings = vault_wall_openings(map, vault);
    if openings != 1 {
        found.push(violation(
            Id::MapVaultSingleEntrance,
            format!("the vault's walls have {openings} openings, not 1"),
        ));
    }
    let crossings = vault_crossings(map, vault);
    if crossings != 1 {
        found.push(violation(
            Id::MapVaultSingleEntrance,
            format!("{crossings} walkable tiles cross the column west of the vault, not 1"),
        ));
    }
    if map.tile(vault.entrance) != Tile::Door {
        found.push(violation(
            Id::MapVaultSingleEntrance,
            format!(
                "the vault's entrance {} is {}, not a doorway",
                vault.entrance,
                map.tile(vault.entrance).words()
            ),
        ));
    }
    if !vault.rect.grow(-1).contains(goal) {
        found.push(violation(
            Id::MapVaultSingleEntrance,
            format!("the goal {goal} is not inside the vault"),
        ));
    }
}

/// Walkable tiles on the vault's outer wall. A sound temple has exactly one,
/// its entrance.
pub fn vault_wall_openings(map: &Map, vault: &Vault) -> usize {
    let inside = vault.rect.grow(-1);
    vault
        .rect
        .cells()
        .filter(|&p| !inside.contains(p) && map.is_walkable(p))
        .count()
}

/// Walkable tiles in the column just west of the vault's wall, over the whole
/// height of the map. The vault sits against the east edge behind its moat,
/// so every way in crosses this column: a sound temple has exactly one.
pub fn vault_crossings(map: &Map, vault: &Vault) -> usize {
    (0..map.height())
        .filter(|&y| map.is_walkable(Pos::new(vault.rect.x1 - 1, y)))
        .count()
}
