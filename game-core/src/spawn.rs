//! What turns up on a floor: danger-based spawning around the floor's depth.
//!
//! Every monster and item has a danger, the depth it is at home at. Each
//! encounter rolls a target around the floor's depth, and every definition
//! within [`WINDOW`] of the target is eligible, weighted by its own weight
//! times how close its danger is. So creatures fade in above their home depth
//! and out below it instead of switching at a boundary, and one encounter in
//! [`NUDGE_ONE_IN`] reaches [`NUDGE`] deeper, which is where the stories come
//! from.
//!
//! Past the deepest danger in a table the window comes up empty, and the
//! deepest entries hold the fort rather than leaving an empty abyss. A gap in
//! the middle of the table stays a quiet spawn: falling back there would bring
//! the worst things up far too early.
//!
//! Monsters have a ceiling items do not: one more than [`OUT_OF_DEPTH`]
//! levels above the floor's depth comes only from a nudged encounter, and
//! there are no nudges before [`NUDGES_FROM`]. The first floors are where the
//! game is learnt, and without the ceiling a dire wolf on depth 1 would kill
//! more players there than everything that lives there (docs/balance.md
//! has the figures). An item out of depth is a windfall, and stays.

use crate::content::{Content, ItemId, MonsterId};
use crate::rng::Stream;

/// How far from the target a danger may be and still spawn.
pub const WINDOW: u32 = 2;
/// One encounter in this many is nudged deeper.
pub const NUDGE_ONE_IN: u32 = 20;
/// How much deeper a nudged encounter reaches.
pub const NUDGE: i32 = 3;

/// How far above the floor's depth an unnudged monster's danger may be.
pub const OUT_OF_DEPTH: u32 = 2;
/// The first depth whose monster encounters may be nudged.
pub const NUDGES_FROM: u32 = 3;

/// What an encounter aims at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub danger: i32,
    /// Whether this encounter was nudged deeper.
    pub nudged: bool,
}

/// The danger an encounter on floor `depth` aims at: `depth + 2d3 - 4`, a
/// wobble of two either way, and one time in twenty three more.
pub fn danger_target(depth: u32, rng: &mut Stream) -> Target {
    let depth = i32::try_from(depth).unwrap_or(i32::MAX);
    let wobble = rng.roll(2, 3) - 4;
    let nudged = rng.one_in(NUDGE_ONE_IN);
    let nudge = if nudged { NUDGE } else { 0 };
    Target {
        danger: depth.saturating_add(wobble).saturating_add(nudge),
        nudged,
    }
}

/// Whether a monster of `danger` may come from an encounter aiming at
/// `target` on floor `depth`: at most [`OUT_OF_DEPTH`] above the depth,
/// unless nudged on a floor where nudges happen.
pub fn monster_allowed(danger: u32, depth: u32, target: Target) -> bool {
    danger <= depth.saturating_add(OUT_OF_DEPTH) || target.nudged && depth >= NUDGES_FROM
}

/// One row of a spawn table: a definition's danger and weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpawnRow {
    pub danger: u32,
    pub weight: u32,
}

/// The chance of each row for an encounter aiming at `target`, as weights
/// (all zero when nothing may spawn). A row within [`WINDOW`] of the target
/// weighs `weight * (WINDOW + 1 - distance)`. If nothing is in the window and
/// the target is past the deepest danger that can spawn at all, the rows at
/// that deepest danger weigh their plain weight.
pub fn spawn_weights(table: &[SpawnRow], target: i32) -> Vec<u32> {
    let window = i64::from(WINDOW);
    let target = i64::from(target);
    let in_window: Vec<u32> = table
        .iter()
        .map(|row| {
            let distance = (i64::from(row.danger) - target).abs();
            if distance > window {
                return 0;
            }
            // distance <= WINDOW, so the factor is 1..=WINDOW + 1.
            let closeness = u32::try_from(window + 1 - distance).unwrap_or(0);
            row.weight.saturating_mul(closeness)
        })
        .collect();
    if in_window.iter().any(|&weight| weight > 0) {
        return in_window;
    }
    let deepest = table
        .iter()
        .filter(|row| row.weight > 0)
        .map(|row| row.danger)
        .max();
    match deepest {
        Some(deepest) if target > i64::from(deepest) => table
            .iter()
            .map(|row| if row.danger == deepest { row.weight } else { 0 })
            .collect(),
        _ => in_window,
    }
}

/// Picks a row for floor `depth`, or `None` for a quiet spawn; `allowed`
/// may rule rows out for the target rolled.
fn choose(
    table: &[SpawnRow],
    depth: u32,
    rng: &mut Stream,
    allowed: impl Fn(&SpawnRow, Target) -> bool,
) -> Option<u16> {
    let target = danger_target(depth, rng);
    let mut weights = spawn_weights(table, target.danger);
    for (weight, row) in weights.iter_mut().zip(table) {
        if !allowed(row, target) {
            *weight = 0;
        }
    }
    let index = rng.weighted(&weights)?;
    // Content holds at most MAX_ENTRIES (500) definitions per list.
    u16::try_from(index).ok()
}

/// The monster for one encounter on floor `depth`, or `None` when the table
/// has nothing near the rolled target.
pub fn choose_monster(content: &Content, depth: u32, rng: &mut Stream) -> Option<MonsterId> {
    let table: Vec<SpawnRow> = content
        .monsters()
        .iter()
        .map(|monster| SpawnRow {
            danger: monster.danger,
            weight: monster.weight,
        })
        .collect();
    choose(&table, depth, rng, |row, target| {
        monster_allowed(row.danger, depth, target)
    })
    .map(MonsterId)
}

/// The item for one find on floor `depth`, or `None` when the table has
/// nothing near the rolled target.
pub fn choose_item(content: &Content, depth: u32, rng: &mut Stream) -> Option<ItemId> {
    let table: Vec<SpawnRow> = content
        .items()
        .iter()
        .map(|item| SpawnRow {
            danger: item.danger,
            weight: item.weight,
        })
        .collect();
    choose(&table, depth, rng, |_, _| true).map(ItemId)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RunSeed;

    fn rows(rows: &[(u32, u32)]) -> Vec<SpawnRow> {
        rows.iter()
            .map(|&(danger, weight)| SpawnRow { danger, weight })
            .collect()
    }

    #[test]
    fn weight_falls_off_with_distance_from_the_target() {
        let table = rows(&[(1, 10), (2, 10), (3, 10), (4, 10), (5, 10), (6, 10)]);
        assert_eq!(spawn_weights(&table, 3), vec![10, 20, 30, 20, 10, 0]);
        assert_eq!(spawn_weights(&table, -1), vec![10, 0, 0, 0, 0, 0]);
        assert_eq!(spawn_weights(&table, -2), vec![0; 6]);
    }

    #[test]
    fn past_the_deepest_danger_the_deepest_hold_the_fort() {
        let table = rows(&[(1, 10), (5, 4), (5, 6), (7, 0)]);
        // Within the window of 5, scaled as usual.
        assert_eq!(spawn_weights(&table, 7), vec![0, 4, 6, 0]);
        assert_eq!(spawn_weights(&table, 6), vec![0, 8, 12, 0]);
        // Past it: the deepest that can spawn, at plain weight. The danger-7
        // row has weight 0, so it is not the deepest.
        assert_eq!(spawn_weights(&table, 8), vec![0, 4, 6, 0]);
        assert_eq!(spawn_weights(&table, 40), vec![0, 4, 6, 0]);
        assert_eq!(spawn_weights(&table, i32::MAX), vec![0, 4, 6, 0]);
    }

    #[test]
    fn a_gap_in_the_middle_stays_quiet() {
        let table = rows(&[(1, 10), (9, 10)]);
        assert_eq!(spawn_weights(&table, 5), vec![0, 0]);
        let mut rng = RunSeed(1).stream("test", 0);
        assert_eq!(rng.weighted(&spawn_weights(&table, 5)), None);
    }

    #[test]
    fn shallow_floors_never_get_a_monster_out_of_depth() {
        let table = rows(&[
            (1, 10),
            (2, 10),
            (3, 10),
            (4, 10),
            (5, 10),
            (6, 10),
            (7, 10),
        ]);
        let mut rng = RunSeed(3).stream("test", 0);
        for depth in 1..=7 {
            let mut deepest = 0;
            for _ in 0..5_000 {
                let row = choose(&table, depth, &mut rng, |row, target| {
                    monster_allowed(row.danger, depth, target)
                });
                deepest = deepest.max(row.map_or(0, |i| table[usize::from(i)].danger));
            }
            if depth < NUDGES_FROM {
                assert_eq!(deepest, depth + OUT_OF_DEPTH, "depth {depth}");
            } else {
                // A nudge reaches past the ceiling (or to the table's end).
                assert!(
                    deepest > depth + OUT_OF_DEPTH || deepest == 7,
                    "depth {depth}"
                );
            }
        }
    }

    #[test]
    fn an_empty_table_spawns_nothing() {
        assert_eq!(spawn_weights(&[], 3), Vec::<u32>::new());
        assert_eq!(spawn_weights(&rows(&[(2, 0)]), 9), vec![0]);
    }

    #[test]
    fn targets_wobble_two_either_way_and_sometimes_reach_three_deeper() {
        let mut rng = RunSeed(2).stream("test", 0);
        let mut seen = [0u32; 11];
        for _ in 0..20_000 {
            let target = danger_target(5, &mut rng).danger;
            assert!((3..=10).contains(&target), "{target}");
            seen[usize::try_from(target).expect("positive")] += 1;
        }
        // 2d3 - 4 is -2..=2 with weights 1, 2, 3, 2, 1 out of 9; the nudge
        // adds 3 one time in 20, so 8, 9 and 10 only come from it.
        assert!(seen[3..=7].iter().all(|&count| count > 0), "{seen:?}");
        let nudged: u32 = seen[8..].iter().sum();
        // Expected about 20_000 * 1/20 * (1+2+3)/9 = 667 of the nudged land
        // above 7; allow a wide margin.
        assert!((450..900).contains(&nudged), "{seen:?}");
        assert!(danger_target(u32::MAX, &mut rng).danger > i32::MAX - 3);
    }
}
