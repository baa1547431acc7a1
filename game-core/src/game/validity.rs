//! Whether a state is one the game could be in: where everything stands,
//! hit points, stacks, the queue and sight, judged from the state alone.
//!
//! A load refuses a save that fails it ([`crate::Game::from_state`]): a
//! save is a file from outside, and a state the game cannot reach may index
//! past a map or a pack. The checks' crate runs it after every key too, as
//! the state invariants of its catalogue, which name each [`Rule`] by its
//! [`Rule::id`].

use std::fmt;

use crate::content::ItemEffect;
use crate::fov::{self, SIGHT_RADIUS};
use crate::game::Game;
use crate::game::state::{MAX_STACK, MonsterRef, RunStatus, slot_letter};
use crate::game::turn::Actor;
use crate::geom::Pos;

/// A rule of a valid state: each is an invariant of the checks' catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rule {
    EntityInBounds,
    EntityInWall,
    EntityOverlap,
    HpRange,
    InventoryCapacity,
    ClockQueue,
    FovRevealedCoversVisible,
    FovAroundPlayer,
    MonsterNotice,
    FovSymmetric,
}

impl Rule {
    /// Every rule, in the order the state is checked.
    pub const ALL: [Rule; 10] = [
        Rule::EntityInBounds,
        Rule::EntityInWall,
        Rule::EntityOverlap,
        Rule::HpRange,
        Rule::InventoryCapacity,
        Rule::ClockQueue,
        Rule::FovRevealedCoversVisible,
        Rule::FovAroundPlayer,
        Rule::MonsterNotice,
        Rule::FovSymmetric,
    ];

    /// The rule's id, as the invariant catalogue and a refused load name it.
    pub const fn id(self) -> &'static str {
        match self {
            Rule::EntityInBounds => "entity.in_bounds",
            Rule::EntityInWall => "entity.in_wall",
            Rule::EntityOverlap => "entity.overlap",
            Rule::HpRange => "hp.range",
            Rule::InventoryCapacity => "inventory.capacity",
            Rule::ClockQueue => "clock.queue",
            Rule::FovRevealedCoversVisible => "fov.revealed_covers_visible",
            Rule::FovAroundPlayer => "fov.around_player",
            Rule::MonsterNotice => "monster.notice",
            Rule::FovSymmetric => "fov.symmetric",
        }
    }
}

/// A broken rule and what was seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub rule: Rule,
    pub message: String,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule.id(), self.message)
    }
}

fn violation(rule: Rule, message: String) -> Invalid {
    Invalid { rule, message }
}

/// How the run stands, after "the run is": "in play", "won (turn 300)",
/// "lost (killed by a goblin on depth 3, turn 120)". A refused load says
/// it, and so do the checks' reports.
impl fmt::Display for RunStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunStatus::Playing => f.write_str("in play"),
            RunStatus::Died(death) => write!(
                f,
                "lost ({} on depth {}, turn {})",
                death.cause, death.depth, death.turn
            ),
            RunStatus::Won { turn } => write!(f, "won (turn {turn})"),
            RunStatus::Quit { turn } => write!(f, "quit (turn {turn})"),
        }
    }
}

/// "the player", "monster 3".
impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Player => f.write_str("the player"),
            Actor::Monster(id) => write!(f, "{id}"),
        }
    }
}

/// "monster 3": its id, which stays the same all the run.
impl fmt::Display for MonsterRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "monster {}", self.0)
    }
}

/// The eight tiles around one, as (dx, dy).
const AROUND: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Every way the state breaks a rule, without history or key presses; an
/// empty list for a valid state. The passing path allocates nothing.
pub fn check_state(game: &Game) -> Vec<Invalid> {
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

fn check_entities(game: &Game, found: &mut Vec<Invalid>) {
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
                Rule::EntityInBounds,
                format!("{} is at {pos}, off the map", entity.name(game)),
            ));
        } else if !map.is_walkable(pos) {
            found.push(violation(
                Rule::EntityInWall,
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
                Rule::EntityOverlap,
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

fn check_hit_points(game: &Game, found: &mut Vec<Invalid>) {
    let state = game.state();
    let player = &state.player;
    let dead = matches!(state.status, RunStatus::Died(_));
    if player.hp > player.max_hp || (!dead && player.hp <= 0) || (dead && player.hp > 0) {
        found.push(violation(
            Rule::HpRange,
            format!(
                "the player has {}/{} hp while the run is {}",
                player.hp, player.max_hp, state.status
            ),
        ));
    }
    for m in &state.monsters {
        let max = game.content().monster(m.kind).max_hp;
        if m.hp <= 0 || m.hp > max {
            found.push(violation(
                Rule::HpRange,
                format!(
                    "monster {} has {}/{max} hp but is still on the floor",
                    m.id.0, m.hp
                ),
            ));
        }
    }
}

fn check_inventory(game: &Game, found: &mut Vec<Invalid>) {
    check_stack_sizes(game, found);
    check_piles_joined(game, found);
    check_equipped(game, found);
}

/// Each stack in the pack and each pile on the floor holds at least one, and
/// no more than its item stacks to.
fn check_stack_sizes(game: &Game, found: &mut Vec<Invalid>) {
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
                Rule::InventoryCapacity,
                format!(
                    "pack slot {} ({}) holds {}, outside 1..={limit}",
                    slot_letter(slot),
                    def.name,
                    stack.count
                ),
            ));
        }
    }
    for item in &state.items {
        let def = content.item(item.item);
        if let Some(limit) = out_of_range(item.count, def.stackable) {
            found.push(violation(
                Rule::InventoryCapacity,
                format!(
                    "the pile of {} at {} holds {}, outside 1..={limit}",
                    def.name, item.pos, item.count
                ),
            ));
        }
    }
}

/// A stackable item dropped or thrown onto its own kind joins the pile when
/// there is room: two piles of one stackable item on one tile must not fit
/// in one.
fn check_piles_joined(game: &Game, found: &mut Vec<Invalid>) {
    let state = game.state();
    let content = game.content();
    let mut stackable: Vec<(Pos, u16, u32)> = state
        .items
        .iter()
        .filter(|i| content.item(i.item).stackable)
        .map(|i| (i.pos, i.item.0, i.count))
        .collect();
    if stackable.len() > 1 {
        stackable.sort_unstable();
        for pair in stackable.windows(2) {
            let ((pos, item, a), (pos2, item2, b)) = (pair[0], pair[1]);
            if pos == pos2 && item == item2 && a + b <= MAX_STACK {
                let name = &content.item(crate::content::ItemId(item)).name;
                found.push(violation(
                    Rule::InventoryCapacity,
                    format!("two piles of {name} at {pos} ({a} and {b}) were not put together"),
                ));
            }
        }
    }
}

/// What the player wields is a weapon and what they wear is armour.
fn check_equipped(game: &Game, found: &mut Vec<Invalid>) {
    let state = game.state();
    let content = game.content();
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
                Rule::InventoryCapacity,
                format!(
                    "the {what} slot {} does not hold something to be {what}",
                    slot_letter(slot)
                ),
            ));
        }
    }
}

fn check_queue(game: &Game, found: &mut Vec<Invalid>) {
    let state = game.state();
    if state.status != RunStatus::Playing {
        return;
    }
    let clock = &state.clock;
    if clock.contains(Actor::Player) {
        found.push(violation(
            Rule::ClockQueue,
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
                Rule::ClockQueue,
                format!("monster {} is queued {entries} times, not once", m.id.0),
            ));
        }
    }
    for entry in clock.entries() {
        if let Actor::Monster(id) = entry.actor
            && !state.monsters.iter().any(|m| m.id == id)
        {
            found.push(violation(
                Rule::ClockQueue,
                format!("monster {} is queued but not on the floor", id.0),
            ));
        }
        if entry.at < clock.now() {
            found.push(violation(
                Rule::ClockQueue,
                format!(
                    "{} is queued at {}, before now ({})",
                    entry.actor,
                    entry.at,
                    clock.now()
                ),
            ));
        }
    }
}

fn check_sight(game: &Game, found: &mut Vec<Invalid>) {
    let map = &game.state().floor.map;
    if !map.visible.is_subset_of(&map.revealed) {
        let first = map
            .visible
            .iter_ones()
            .find(|&i| !map.revealed.get(i))
            .map(|i| map.idx_pos(i));
        found.push(violation(
            Rule::FovRevealedCoversVisible,
            match first {
                Some(at) => format!("the tile at {at} is visible but not revealed"),
                None => "a tile is visible but not revealed".into(),
            },
        ));
    }
    let player = game.state().player.pos;
    if map.in_bounds(player) {
        // Every neighbour of the viewer lies inside the first row of every
        // quadrant's scan, so it is seen: a blind player is a broken view.
        let around = std::iter::once((0, 0)).chain(AROUND);
        for (dx, dy) in around {
            let p = Pos::new(player.x + dx, player.y + dy);
            if map.in_bounds(p) && map.is_walkable(p) && !map.is_visible(p) {
                found.push(violation(
                    Rule::FovAroundPlayer,
                    format!("the player at {player} cannot see {p}"),
                ));
                break;
            }
        }
    }
    let playing = game.state().status == RunStatus::Playing;
    for m in &game.state().monsters {
        if playing && !m.awake && map.is_visible(m.pos) {
            found.push(violation(
                Rule::MonsterNotice,
                format!(
                    "monster {} at {} is in view but has not noticed the player",
                    m.id.0, m.pos
                ),
            ));
        }
        if map.is_visible(m.pos) && !fov::can_see(map, m.pos, player, SIGHT_RADIUS) {
            found.push(violation(
                Rule::FovSymmetric,
                format!(
                    "the player sees monster {} at {} but it cannot see the player at {player}",
                    m.id.0, m.pos
                ),
            ));
        }
    }
}
