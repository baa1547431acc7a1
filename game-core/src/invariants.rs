//! The invariant catalogue: what must always hold, each with a stable id.
//!
//! Tests, the sweep, the fuzz targets and save loading all use this one
//! catalogue (documented in docs/invariants.md). Floor invariants are checked
//! once per generated floor; turn invariants after every key.

use std::fmt;

use crate::content::ItemEffect;
use crate::fov::{self, SIGHT_RADIUS};
use crate::game::Game;
use crate::game::state::{MAX_STACK, RunStatus};
use crate::game::turn::Actor;
use crate::geom::Pos;
use crate::keys::Key;
use crate::map::{BitGrid, Map, Tile};
use crate::mapgen::{BuiltFloor, Vault};
use crate::paths::{self, UNREACHABLE};

/// When an invariant is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Once per generated floor.
    Floor,
    /// After every key.
    Turn,
}

/// One entry of the catalogue.
#[derive(Clone, Copy, Debug)]
pub struct Invariant {
    /// Stable id, used in reports, recordings and docs/invariants.md.
    pub id: &'static str,
    pub when: When,
    pub asserts: &'static str,
}

/// Every invariant, in the order they are documented.
pub const CATALOGUE: &[Invariant] = &[
    Invariant {
        id: "map.connected",
        when: When::Floor,
        asserts: "every walkable tile is reachable from the start by legal steps",
    },
    Invariant {
        id: "map.has_exit",
        when: When::Floor,
        asserts: "the goal is stairs (the exit on the last floor), is not the start, and is reachable",
    },
    Invariant {
        id: "map.start_in_region0",
        when: When::Floor,
        asserts: "spawn region 0 contains the start, and every region's cells are walkable",
    },
    Invariant {
        id: "map.vault_single_entrance",
        when: When::Floor,
        asserts: "a temple vault has exactly one opening in its walls and one crossing of the moat",
    },
    Invariant {
        id: "entity.in_bounds",
        when: When::Turn,
        asserts: "the player, every monster and every floor item is on the map",
    },
    Invariant {
        id: "entity.in_wall",
        when: When::Turn,
        asserts: "the player, every monster and every floor item stands on a walkable tile",
    },
    Invariant {
        id: "entity.overlap",
        when: When::Turn,
        asserts: "no two creatures share a tile",
    },
    Invariant {
        id: "hp.range",
        when: When::Turn,
        asserts: "hit points are within 1..=max for the living; the player is at 0 or below only when dead",
    },
    Invariant {
        id: "inventory.capacity",
        when: When::Turn,
        asserts: "stacks hold 1..=99, unstackable items one each, and wielded/worn slots hold a weapon/armour",
    },
    Invariant {
        id: "clock.monotonic",
        when: When::Turn,
        asserts: "the turn clock never runs backwards",
    },
    Invariant {
        id: "clock.advances",
        when: When::Turn,
        asserts: "a key that spends the player's turns moves the clock on",
    },
    Invariant {
        id: "clock.queue",
        when: When::Turn,
        asserts: "on the player's turn every monster is queued exactly once, no later-than-now entry is missing, and the player is not queued",
    },
    Invariant {
        id: "rng.only_with_time",
        when: When::Turn,
        asserts: "the in-play dice are rolled only by keys that spend time, so no roll can be retried for free",
    },
    Invariant {
        id: "fov.symmetric",
        when: When::Turn,
        asserts: "every monster the player can see can see the player",
    },
    Invariant {
        id: "fov.revealed_covers_visible",
        when: When::Turn,
        asserts: "every visible tile is also revealed",
    },
    Invariant {
        id: "screen.escapable",
        when: When::Turn,
        asserts: "Esc closes the top screen without spending time",
    },
];

/// A broken invariant: its id and what was seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub id: &'static str,
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.id, self.message)
    }
}

fn violation(id: &'static str, message: String) -> Violation {
    debug_assert!(
        CATALOGUE.iter().any(|i| i.id == id),
        "{id} is not in the catalogue"
    );
    Violation { id, message }
}

/// The floor invariants of a freshly generated floor. `last_floor` says
/// whether its goal must be the exit rather than stairs.
pub fn check_floor(floor: &BuiltFloor, last_floor: bool) -> Vec<Violation> {
    let mut found = check_floor_map(
        &floor.map,
        floor.start,
        floor.goal,
        floor.vault.as_ref(),
        last_floor,
    );
    if !floor
        .regions
        .first()
        .is_some_and(|region| region.cells.contains(&floor.start))
    {
        found.push(violation(
            "map.start_in_region0",
            format!("the start {} is not in region 0", floor.start),
        ));
    }
    let map = &floor.map;
    let mut claimed = BitGrid::new(map.len());
    for (i, region) in floor.regions.iter().enumerate() {
        if region.cells.is_empty() {
            found.push(violation(
                "map.start_in_region0",
                format!("region {i} is empty"),
            ));
        }
        for &p in &region.cells {
            if !map.is_walkable(p) {
                found.push(violation(
                    "map.start_in_region0",
                    format!("region {i} holds the unwalkable tile {p}"),
                ));
            } else if claimed.get(map.xy_idx(p)) {
                found.push(violation(
                    "map.start_in_region0",
                    format!("region {i} shares the tile {p} with an earlier region"),
                ));
            } else {
                claimed.set(map.xy_idx(p), true);
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
    let mut found = Vec::new();
    if !map.is_walkable(start) {
        found.push(violation(
            "map.connected",
            format!("the start {start} is not walkable"),
        ));
        return found;
    }
    let dist = paths::bfs_distances(map, start);
    let unreachable: Vec<Pos> = map
        .walkable_cells()
        .filter(|&p| dist[map.xy_idx(p)] == UNREACHABLE)
        .collect();
    if let Some(first) = unreachable.first() {
        found.push(violation(
            "map.connected",
            format!(
                "{} walkable tiles cannot be reached from the start {start}, the first at {first}",
                unreachable.len()
            ),
        ));
    }
    let expected = if last_floor {
        Tile::Exit
    } else {
        Tile::StairsDown
    };
    let ways_down = map
        .tiles()
        .iter()
        .filter(|t| matches!(t, Tile::StairsDown | Tile::Exit))
        .count();
    if map.tile(goal) != expected {
        found.push(violation(
            "map.has_exit",
            format!("the goal {goal} is {:?}, not {expected:?}", map.tile(goal)),
        ));
    } else if ways_down != 1 {
        found.push(violation(
            "map.has_exit",
            format!("the floor has {ways_down} ways down, not 1"),
        ));
    } else if goal == start {
        found.push(violation(
            "map.has_exit",
            format!("the goal is the start {start}"),
        ));
    } else if dist[map.xy_idx(goal)] == UNREACHABLE {
        found.push(violation(
            "map.has_exit",
            format!("the goal {goal} cannot be reached from the start {start}"),
        ));
    }
    if let Some(vault) = vault {
        let openings = vault_wall_openings(map, vault);
        if openings != 1 {
            found.push(violation(
                "map.vault_single_entrance",
                format!("the vault's walls have {openings} openings, not 1"),
            ));
        }
        let crossings = vault_crossings(map, vault);
        if crossings != 1 {
            found.push(violation(
                "map.vault_single_entrance",
                format!("{crossings} walkable tiles cross the column west of the vault, not 1"),
            ));
        }
        if map.tile(vault.entrance) != Tile::Door {
            found.push(violation(
                "map.vault_single_entrance",
                format!(
                    "the vault's entrance {} is {:?}, not a door",
                    vault.entrance,
                    map.tile(vault.entrance)
                ),
            ));
        }
        if !vault.rect.grow(-1).contains(goal) {
            found.push(violation(
                "map.vault_single_entrance",
                format!("the goal {goal} is not inside the vault"),
            ));
        }
    }
    found
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

/// What the turn invariants compare against: the state after the previous key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnWatch {
    pub clock: u64,
    /// Player actions that had spent time.
    pub turns_taken: u32,
    /// How far the in-play random stream had been drawn.
    pub rng: u128,
}

impl TurnWatch {
    pub fn of(game: &Game) -> TurnWatch {
        TurnWatch {
            clock: game.state().clock.now(),
            turns_taken: game.state().turns_taken,
            rng: game.state().rng.position(),
        }
    }
}

/// Every turn invariant, after a key. `before` is the watch taken before it.
pub fn check_turn(before: TurnWatch, game: &Game) -> Vec<Violation> {
    let mut found = check_state(game);
    let now = game.state().clock.now();
    if now < before.clock {
        found.push(violation(
            "clock.monotonic",
            format!("the clock went back from {} to {now}", before.clock),
        ));
    }
    let spent = game.state().turns_taken.saturating_sub(before.turns_taken);
    if spent > 0 && now == before.clock && game.state().status == RunStatus::Playing {
        found.push(violation(
            "clock.advances",
            format!("{spent} player turns were spent but the clock stayed at {now}"),
        ));
    }
    let drawn = game.state().rng.position() != before.rng;
    if drawn && now == before.clock && game.state().status == RunStatus::Playing {
        found.push(violation(
            "rng.only_with_time",
            format!("the dice were rolled but the clock stayed at {now}: a free reroll"),
        ));
    }
    found.extend(check_escapable(game));
    found
}

/// The turn invariants that need only the current state (no history, no
/// key presses): also what loading a save checks.
pub fn check_state(game: &Game) -> Vec<Violation> {
    let mut found = Vec::new();
    check_entities(game, &mut found);
    check_hit_points(game, &mut found);
    check_inventory(game, &mut found);
    check_queue(game, &mut found);
    check_sight(game, &mut found);
    found
}

/// Who stands or lies somewhere, named only when a violation needs it: the
/// checks run after every key, so the passing path allocates nothing.
#[derive(Clone, Copy)]
enum Entity {
    Player,
    Monster(usize),
    Item(usize),
}

impl Entity {
    fn pos(self, game: &Game) -> Pos {
        let state = game.state();
        match self {
            Entity::Player => state.player.pos,
            Entity::Monster(i) => state.monsters[i].pos,
            Entity::Item(i) => state.items[i].pos,
        }
    }

    fn name(self, game: &Game) -> String {
        let state = game.state();
        match self {
            Entity::Player => "the player".into(),
            Entity::Monster(i) => {
                let m = &state.monsters[i];
                format!(
                    "monster {} ({})",
                    m.id.0,
                    game.content().monster(m.kind).name
                )
            }
            Entity::Item(i) => format!("item {}", game.content().item(state.items[i].item).name),
        }
    }
}

fn check_entities(game: &Game, found: &mut Vec<Violation>) {
    let state = game.state();
    let map = &state.floor.map;
    let creatures =
        std::iter::once(Entity::Player).chain((0..state.monsters.len()).map(Entity::Monster));
    let everyone = creatures
        .clone()
        .chain((0..state.items.len()).map(Entity::Item));
    for entity in everyone {
        let pos = entity.pos(game);
        if !map.in_bounds(pos) {
            found.push(violation(
                "entity.in_bounds",
                format!("{} is at {pos}, off the map", entity.name(game)),
            ));
        } else if !map.is_walkable(pos) {
            found.push(violation(
                "entity.in_wall",
                format!("{} is inside the wall at {pos}", entity.name(game)),
            ));
        }
    }
    // Creatures sorted by position: two on one tile are neighbours.
    let mut positions: Vec<(Pos, usize)> = creatures.map(|e| e.pos(game)).zip(0..).collect();
    positions.sort_unstable();
    for pair in positions.windows(2) {
        if pair[0].0 == pair[1].0 {
            let name = |index: usize| match index {
                0 => Entity::Player.name(game),
                i => Entity::Monster(i - 1).name(game),
            };
            found.push(violation(
                "entity.overlap",
                format!(
                    "{} and {} both stand at {}",
                    name(pair[0].1),
                    name(pair[1].1),
                    pair[0].0
                ),
            ));
        }
    }
}

fn check_hit_points(game: &Game, found: &mut Vec<Violation>) {
    let state = game.state();
    let player = &state.player;
    let dead = matches!(state.status, RunStatus::Died(_));
    if player.hp > player.max_hp || (!dead && player.hp <= 0) || (dead && player.hp > 0) {
        found.push(violation(
            "hp.range",
            format!(
                "the player has {}/{} hp while {:?}",
                player.hp, player.max_hp, state.status
            ),
        ));
    }
    for m in &state.monsters {
        let max = game.content().monster(m.kind).max_hp;
        if m.hp <= 0 || m.hp > max {
            found.push(violation(
                "hp.range",
                format!(
                    "monster {} has {}/{max} hp but is still on the floor",
                    m.id.0, m.hp
                ),
            ));
        }
    }
}

fn check_inventory(game: &Game, found: &mut Vec<Violation>) {
    let state = game.state();
    let content = game.content();
    let out_of_range = |count: u32, stackable: bool| {
        let limit = if stackable { MAX_STACK } else { 1 };
        (count == 0 || count > limit).then_some(limit)
    };
    for (slot, stack) in state.player.pack.slots() {
        let def = content.item(stack.item);
        if let Some(limit) = out_of_range(stack.count, def.stackable) {
            found.push(violation(
                "inventory.capacity",
                format!(
                    "pack slot {slot} ({}) holds {}, outside 1..={limit}",
                    def.name, stack.count
                ),
            ));
        }
    }
    for item in &state.items {
        let def = content.item(item.item);
        if let Some(limit) = out_of_range(item.count, def.stackable) {
            found.push(violation(
                "inventory.capacity",
                format!(
                    "the pile of {} at {} holds {}, outside 1..={limit}",
                    def.name, item.pos, item.count
                ),
            ));
        }
    }
    let equipped = [
        ("wielded", state.player.wielded, true),
        ("worn", state.player.worn, false),
    ];
    for (what, slot, weapon) in equipped {
        let Some(slot) = slot else { continue };
        let effect = state
            .player
            .pack
            .get(slot)
            .map(|s| &content.item(s.item).effect);
        let fits = match effect {
            Some(ItemEffect::Weapon { .. }) => weapon,
            Some(ItemEffect::Armour { .. }) => !weapon,
            _ => false,
        };
        if !fits {
            found.push(violation(
                "inventory.capacity",
                format!("the {what} slot {slot} does not hold something to be {what}"),
            ));
        }
    }
}

fn check_queue(game: &Game, found: &mut Vec<Violation>) {
    let state = game.state();
    if state.status != RunStatus::Playing {
        return;
    }
    let clock = &state.clock;
    if clock.contains(Actor::Player) {
        found.push(violation(
            "clock.queue",
            "the player is queued while it is the player's turn".into(),
        ));
    }
    for m in &state.monsters {
        let entries = clock
            .entries()
            .iter()
            .filter(|e| e.actor == Actor::Monster(m.id))
            .count();
        if entries != 1 {
            found.push(violation(
                "clock.queue",
                format!("monster {} is queued {entries} times, not once", m.id.0),
            ));
        }
    }
    for entry in clock.entries() {
        if let Actor::Monster(id) = entry.actor
            && !state.monsters.iter().any(|m| m.id == id)
        {
            found.push(violation(
                "clock.queue",
                format!("monster {} is queued but not on the floor", id.0),
            ));
        }
        if entry.at < clock.now() {
            found.push(violation(
                "clock.queue",
                format!(
                    "{:?} is queued at {}, before now ({})",
                    entry.actor,
                    entry.at,
                    clock.now()
                ),
            ));
        }
    }
}

fn check_sight(game: &Game, found: &mut Vec<Violation>) {
    let map = &game.state().floor.map;
    if !map.visible.is_subset_of(&map.revealed) {
        let first = map
            .visible
            .iter_ones()
            .find(|&i| !map.revealed.get(i))
            .map(|i| map.idx_pos(i));
        found.push(violation(
            "fov.revealed_covers_visible",
            format!("tile {first:?} is visible but not revealed"),
        ));
    }
    let player = game.state().player.pos;
    for m in &game.state().monsters {
        if map.is_visible(m.pos) && !fov::can_see(map, m.pos, player, SIGHT_RADIUS) {
            found.push(violation(
                "fov.symmetric",
                format!(
                    "the player sees monster {} at {} but it cannot see the player at {player}",
                    m.id.0, m.pos
                ),
            ));
        }
    }
}

/// Esc on a copy of the game must close exactly the top screen and spend no
/// time.
fn check_escapable(game: &Game) -> Vec<Violation> {
    let depth = game.state().screens.len();
    if depth == 0 || game.is_over() {
        return Vec::new();
    }
    let mut copy = game.clone();
    let clock = copy.state().clock.now();
    let message = match copy.press(Key::ESC) {
        Err(stuck) => Some(format!("Esc got stuck: {stuck}")),
        Ok(outcome) if outcome.turns > 0 || copy.state().clock.now() != clock => {
            Some("Esc spent time".to_string())
        }
        Ok(_) if copy.state().screens.len() + 1 != depth => Some(format!(
            "Esc on {:?} left {} screens open, not {}",
            game.state().screens.last(),
            copy.state().screens.len(),
            depth - 1
        )),
        Ok(_) => None,
    };
    message
        .map(|m| vec![violation("screen.escapable", m)])
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_the_required_ones_are_there() {
        let mut ids: Vec<&str> = CATALOGUE.iter().map(|i| i.id).collect();
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), before, "duplicate ids");
        for required in [
            "map.connected",
            "map.has_exit",
            "map.start_in_region0",
            "map.vault_single_entrance",
            "entity.in_bounds",
            "entity.in_wall",
            "entity.overlap",
            "hp.range",
            "inventory.capacity",
            "clock.monotonic",
            "fov.symmetric",
            "fov.revealed_covers_visible",
            "screen.escapable",
        ] {
            assert!(ids.contains(&required), "{required} missing");
        }
    }
}
