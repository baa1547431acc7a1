//! What a floor holds when the player arrives, against the spawn rules: the
//! check the turn record makes on a descent, and the floor sweep and the
//! start of a run make on every floor they build, so a spawn defect is found
//! with no key pressed on any depth, not only on the depths a bot reaches.

use game_core::game::{BASE_ITEMS, BASE_MONSTERS, Game, START_CLEARANCE};
use game_core::geom::Pos;

use crate::catalogue::{Id, Violation, violation};

/// The first way the floor `game` has just arrived on breaks the spawn
/// rules: monsters whole, unafflicted, away from the start and off the way
/// down, no more than the depth allows, none out of depth on the first
/// floors; items one each, off the start and
/// the way down, no more than the base; nothing sharing a tile.
pub fn check_spawns(game: &Game) -> Option<Violation> {
    let state = game.state();
    let floor = &state.floor;
    let content = game.content();
    let depth = state.depth;
    let mut taken: Vec<Pos> = Vec::with_capacity(state.monsters.len() + state.items.len());
    let mut problems = Vec::new();
    for m in &state.monsters {
        let def = content.monster(m.kind);
        if m.hp != def.max_hp || m.statuses.is_poisoned() || m.statuses.is_confused() {
            problems.push(format!("monster {} arrived hurt or afflicted", m.id.0));
        }
        if m.pos.chebyshev(floor.start) <= START_CLEARANCE || m.pos == floor.goal {
            problems.push(format!(
                "monster {} spawned at {}, within {START_CLEARANCE} of the start {} or on the way down",
                m.id.0, m.pos, floor.start
            ));
        }
        if depth < game_core::spawn::NUDGES_FROM
            && def.danger > depth.saturating_add(game_core::spawn::OUT_OF_DEPTH)
        {
            problems.push(format!(
                "monster {} is {} of danger {} on depth {depth}, more than {} above it before nudges happen (depth {})",
                m.id.0,
                def.name,
                def.danger,
                game_core::spawn::OUT_OF_DEPTH,
                game_core::spawn::NUDGES_FROM
            ));
        }
        taken.push(m.pos);
    }
    for item in &state.items {
        if item.count != 1 || item.pos == floor.start || item.pos == floor.goal {
            problems.push(format!(
                "{} {} spawned at {}",
                item.count,
                content.item(item.item).name,
                item.pos
            ));
        }
        taken.push(item.pos);
    }
    if state.monsters.len() as u32 > BASE_MONSTERS + depth + 2 {
        problems.push(format!("{} monsters spawned", state.monsters.len()));
    }
    if state.items.len() as u32 > BASE_ITEMS + 2 {
        problems.push(format!("{} items spawned", state.items.len()));
    }
    taken.sort_unstable();
    if taken.windows(2).any(|w| w[0] == w[1]) {
        problems.push("two things spawned on one tile".into());
    }
    problems
        .into_iter()
        .next()
        .map(|problem| violation(Id::SpawnRules, format!("depth {depth}: {problem}")))
}
