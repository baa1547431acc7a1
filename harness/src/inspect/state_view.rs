//! The game state as a person reads it: one vocabulary of field paths for
//! `deja diff`, `deja show --state` and `deja when`.
//!
//! The state is serde data, and its raw form (what `show --state --raw` and
//! `diff --format json` print) is exact but unreadable: bit grids as
//! hundreds of 64-bit words, monster kinds as `(5)`, entities by index.
//! Here the state becomes a tree of named fields in the order the state
//! hash's parts go (player, monsters, items, map, clock, rng,
//! screens/messages): ids become what they name (`kind: cave spider`), a
//! bit grid becomes a set of tiles, a monster is known by its id across two
//! runs even when another died before it, and every field has a path
//! (`monsters[3].hp`) that `deja when` conditions name.
//!
//! [`FIELDS`] lists every path the tree holds, with its kind: the help of
//! `deja when` and its condition checker read it, and a test holds it to
//! what [`tree`] builds.

use std::fmt;

use checks::describe::Words;
use game_core::content::Content;
use game_core::game::state::{GameState, Poisoned, RunStatus, Statuses, slot_letter};
use game_core::game::turn::Actor;
use game_core::geom::Pos;
use game_core::map::{BitGrid, Tile};

/// A leaf of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Number(i128),
    Flag(bool),
    Text(String),
    Place(Pos),
    /// A set of map cells (a bit grid, or where one kind of tile lies),
    /// sorted, as indices into a map `width` wide.
    Tiles {
        width: i32,
        cells: Vec<u32>,
    },
    /// An optional field that is empty: no poison, no vault, no screen.
    None,
}

impl Value {
    /// Whether a condition naming the field alone holds: a true flag, a
    /// number other than 0, text, a place, a set with a tile in it.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Number(n) => *n != 0,
            Value::Flag(b) => *b,
            Value::Text(s) => !s.is_empty(),
            Value::Place(_) => true,
            Value::Tiles { cells, .. } => !cells.is_empty(),
            Value::None => false,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Number(n) => write!(f, "{n}"),
            Value::Flag(b) => write!(f, "{b}"),
            Value::Text(s) => f.write_str(s),
            Value::Place(p) => write!(f, "{p}"),
            Value::Tiles { cells, .. } if cells.len() == 1 => f.write_str("1 tile"),
            Value::Tiles { cells, .. } => write!(f, "{} tiles", cells.len()),
            Value::None => f.write_str("none"),
        }
    }
}

/// A node of the tree: a value, named fields, or a list of entities.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Leaf(Value),
    Group(Vec<(&'static str, Node)>),
    List(Vec<Entity>),
}

/// One monster, item, pack slot or queue entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entity {
    /// What goes between the brackets of its path: its index in the list,
    /// or its pack letter.
    pub shown: String,
    /// What it is known by across two runs: a monster's id, a letter, an
    /// index where nothing steadier exists.
    pub key: String,
    /// What it is, for people: "cave spider #12", "dart".
    pub name: String,
    pub fields: Vec<(&'static str, Node)>,
}

impl Entity {
    /// Its path under the list's: `monsters[3] (cave spider #12)`.
    pub fn label(&self, list: &str) -> String {
        format!("{list}[{}] ({})", self.shown, self.name)
    }
}

/// What kind of value a field holds, for the condition checker and help.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Number,
    Flag,
    Text,
    Place,
    Tiles,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Number => "a number",
            Kind::Flag => "true or false",
            Kind::Text => "text",
            Kind::Place => "a place (x, y)",
            Kind::Tiles => "a set of tiles (compared by its count)",
        }
    }
}

/// Every leaf path of the tree, `[]` standing for a list's entries, with
/// its kind, in tree order. A field marked optional may be `none`, and a
/// group whose fields are all optional may be absent as a whole.
pub const FIELDS: &[(&str, Kind)] = &[
    ("player.pos", Kind::Place),
    ("player.hp", Kind::Number),
    ("player.max_hp", Kind::Number),
    ("player.statuses.poison.rounds", Kind::Number),
    ("player.statuses.poison.damage", Kind::Text),
    ("player.statuses.poison.source", Kind::Text),
    ("player.statuses.confused", Kind::Number),
    ("player.pack[].kind", Kind::Text),
    ("player.pack[].count", Kind::Number),
    ("player.wielded", Kind::Text),
    ("player.worn", Kind::Text),
    ("status", Kind::Text),
    ("death.cause", Kind::Text),
    ("death.depth", Kind::Number),
    ("death.turn", Kind::Number),
    ("turns_taken", Kind::Number),
    ("kills", Kind::Number),
    ("monsters[].id", Kind::Number),
    ("monsters[].kind", Kind::Text),
    ("monsters[].pos", Kind::Place),
    ("monsters[].hp", Kind::Number),
    ("monsters[].statuses.poison.rounds", Kind::Number),
    ("monsters[].statuses.poison.damage", Kind::Text),
    ("monsters[].statuses.poison.source", Kind::Text),
    ("monsters[].statuses.confused", Kind::Number),
    ("monsters[].awake", Kind::Flag),
    ("next_monster_id", Kind::Number),
    ("items[].kind", Kind::Text),
    ("items[].count", Kind::Number),
    ("items[].pos", Kind::Place),
    ("items[].seen", Kind::Flag),
    ("depth", Kind::Number),
    ("floor.generator", Kind::Text),
    ("floor.start", Kind::Place),
    ("floor.goal", Kind::Place),
    ("floor.rooms", Kind::Number),
    ("floor.vault", Kind::Text),
    ("map.size", Kind::Text),
    ("map.tiles.wall", Kind::Tiles),
    ("map.tiles.floor", Kind::Tiles),
    ("map.tiles.door", Kind::Tiles),
    ("map.tiles.stairs", Kind::Tiles),
    ("map.tiles.exit", Kind::Tiles),
    ("map.revealed", Kind::Tiles),
    ("map.visible", Kind::Tiles),
    ("clock.turn", Kind::Number),
    ("clock.now", Kind::Number),
    ("clock.next_round", Kind::Number),
    ("clock.next_seq", Kind::Number),
    ("clock.queue[].actor", Kind::Text),
    ("clock.queue[].at", Kind::Number),
    ("rng.position", Kind::Number),
    ("screens", Kind::Text),
    ("screen", Kind::Text),
    ("messages.said", Kind::Number),
    ("messages.last", Kind::Text),
    ("seed", Kind::Number),
    ("content_fingerprint", Kind::Text),
    ("canaries", Kind::Text),
];

/// The fields at the top of the tree, in order, and the part of the state
/// hash each belongs to (none for what the run started with).
pub const ROOTS: &[(&str, Option<&str>)] = &[
    ("player", Some("player")),
    ("status", Some("player")),
    ("death", Some("player")),
    ("turns_taken", Some("player")),
    ("kills", Some("player")),
    ("monsters", Some("monsters")),
    ("next_monster_id", Some("monsters")),
    ("items", Some("items")),
    ("depth", Some("map")),
    ("floor", Some("map")),
    ("map", Some("map")),
    ("clock", Some("clock")),
    ("rng", Some("rng")),
    ("screens", Some("screens/messages")),
    ("screen", Some("screens/messages")),
    ("messages", Some("screens/messages")),
    ("seed", None),
    ("content_fingerprint", None),
    ("canaries", None),
];

/// The whole state as a tree, in [`ROOTS`] order.
pub fn tree(state: &GameState, content: &Content) -> Vec<(&'static str, Node)> {
    ROOTS
        .iter()
        .map(|(name, _)| {
            (
                *name,
                root(state, content, name).expect("every root is built"),
            )
        })
        .collect()
}

/// One top-level field of the tree (none for a name not in [`ROOTS`]):
/// a condition builds only the roots it reads.
pub fn root(state: &GameState, content: &Content, name: &str) -> Option<Node> {
    let number = |n: u64| Node::Leaf(Value::Number(i128::from(n)));
    let text = |t: String| Node::Leaf(Value::Text(t));
    Some(match name {
        "player" => player(state, content),
        "status" => text(status_word(&state.status).into()),
        "death" => death(&state.status),
        "turns_taken" => number(u64::from(state.turns_taken)),
        "kills" => number(u64::from(state.kills)),
        "monsters" => monsters(state, content),
        "next_monster_id" => number(u64::from(state.next_monster_id)),
        "items" => items(state, content),
        "depth" => number(u64::from(state.depth)),
        "floor" => floor(state),
        "map" => map(state),
        "clock" => clock(state, content),
        "rng" => Node::Group(vec![(
            "position",
            Node::Leaf(Value::Number(state.rng.position() as i128)),
        )]),
        "screens" => Node::Leaf(if state.screens.is_empty() {
            Value::None
        } else {
            Value::Text(
                state
                    .screens
                    .iter()
                    .map(|screen| screen.words().to_string())
                    .collect::<Vec<_>>()
                    .join(" > "),
            )
        }),
        "screen" => Node::Leaf(
            state
                .screens
                .last()
                .map_or(Value::None, |s| Value::Text(s.words().to_string())),
        ),
        "messages" => Node::Group(vec![
            ("said", number(state.log.total())),
            (
                "last",
                Node::Leaf(
                    state
                        .log
                        .messages()
                        .back()
                        .map_or(Value::None, |m| Value::Text(m.text.clone())),
                ),
            ),
        ]),
        "seed" => number(state.seed.0),
        "content_fingerprint" => text(format!("{:016x}", state.content_fingerprint)),
        "canaries" => Node::Leaf(if state.canaries.is_empty() {
            Value::None
        } else {
            Value::Text(
                state
                    .canaries
                    .list()
                    .iter()
                    .map(|c| c.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        }),
        _ => return None,
    })
}

/// "playing", "died", "won" or "quit".
fn status_word(status: &RunStatus) -> &'static str {
    match status {
        RunStatus::Playing => "playing",
        RunStatus::Died(_) => "died",
        RunStatus::Won { .. } => "won",
        RunStatus::Quit { .. } => "quit",
    }
}

/// How the player died (cause, depth, turn), or none.
fn death(status: &RunStatus) -> Node {
    let number = |n: u64| Node::Leaf(Value::Number(i128::from(n)));
    match status {
        RunStatus::Died(death) => Node::Group(vec![
            ("cause", Node::Leaf(Value::Text(death.cause.clone()))),
            ("depth", number(u64::from(death.depth))),
            ("turn", number(death.turn)),
        ]),
        _ => Node::Leaf(Value::None),
    }
}

/// The monsters, each known by its id.
fn monsters(state: &GameState, content: &Content) -> Node {
    let number = |n: u64| Node::Leaf(Value::Number(i128::from(n)));
    Node::List(
        state
            .monsters
            .iter()
            .enumerate()
            .map(|(index, monster)| Entity {
                shown: index.to_string(),
                key: format!("#{}", monster.id.0),
                name: monster_name(content, monster.kind, monster.id.0),
                fields: vec![
                    ("id", number(u64::from(monster.id.0))),
                    (
                        "kind",
                        Node::Leaf(Value::Text(content.monster(monster.kind).name.clone())),
                    ),
                    ("pos", Node::Leaf(Value::Place(monster.pos))),
                    ("hp", Node::Leaf(Value::Number(i128::from(monster.hp)))),
                    ("statuses", statuses(&monster.statuses)),
                    ("awake", Node::Leaf(Value::Flag(monster.awake))),
                ],
            })
            .collect(),
    )
}

/// The piles on the floor.
fn items(state: &GameState, content: &Content) -> Node {
    let number = |n: u64| Node::Leaf(Value::Number(i128::from(n)));
    Node::List(
        state
            .items
            .iter()
            .enumerate()
            .map(|(index, item)| Entity {
                shown: index.to_string(),
                // Items have no id: a pile is known by what and where it
                // is, so one picked up early does not make every later pile
                // read as changed.
                key: format!("{} at {}", item.item.0, item.pos),
                name: content.item(item.item).name.clone(),
                fields: vec![
                    (
                        "kind",
                        Node::Leaf(Value::Text(content.item(item.item).name.clone())),
                    ),
                    ("count", number(u64::from(item.count))),
                    ("pos", Node::Leaf(Value::Place(item.pos))),
                    ("seen", Node::Leaf(Value::Flag(item.seen))),
                ],
            })
            .collect(),
    )
}

/// How the floor was built: its generator, start, way down, rooms, vault.
fn floor(state: &GameState) -> Node {
    let floor = &state.floor;
    Node::Group(vec![
        (
            "generator",
            Node::Leaf(Value::Text(floor.generator.name().into())),
        ),
        ("start", Node::Leaf(Value::Place(floor.start))),
        ("goal", Node::Leaf(Value::Place(floor.goal))),
        ("rooms", Node::Leaf(Value::Number(i128::from(floor.rooms)))),
        (
            "vault",
            Node::Leaf(floor.vault.as_ref().map_or(Value::None, |vault| {
                Value::Text(format!("{}, entrance {}", vault.rect, vault.entrance))
            })),
        ),
    ])
}

/// "cave spider #12": the kind and the id that stays with it all run.
pub fn monster_name(content: &Content, kind: game_core::content::MonsterId, id: u32) -> String {
    format!("{} #{id}", content.monster(kind).name)
}

fn player(state: &GameState, content: &Content) -> Node {
    let player = &state.player;
    let slot_name = |slot: Option<u8>| {
        Node::Leaf(
            match slot.and_then(|s| player.pack.get(s).map(|stack| (s, stack))) {
                Some((s, stack)) => Value::Text(format!(
                    "{} (slot {})",
                    content.item(stack.item).name,
                    slot_letter(s)
                )),
                None => Value::None,
            },
        )
    };
    Node::Group(vec![
        ("pos", Node::Leaf(Value::Place(player.pos))),
        ("hp", Node::Leaf(Value::Number(i128::from(player.hp)))),
        (
            "max_hp",
            Node::Leaf(Value::Number(i128::from(player.max_hp))),
        ),
        ("statuses", statuses(&player.statuses)),
        (
            "pack",
            Node::List(
                player
                    .pack
                    .slots()
                    .map(|(slot, stack)| {
                        let letter = slot_letter(slot).to_string();
                        Entity {
                            shown: letter.clone(),
                            key: letter,
                            name: content.item(stack.item).name.clone(),
                            fields: vec![
                                (
                                    "kind",
                                    Node::Leaf(Value::Text(content.item(stack.item).name.clone())),
                                ),
                                ("count", Node::Leaf(Value::Number(i128::from(stack.count)))),
                            ],
                        }
                    })
                    .collect(),
            ),
        ),
        ("wielded", slot_name(player.wielded)),
        ("worn", slot_name(player.worn)),
    ])
}

fn statuses(statuses: &Statuses) -> Node {
    let poison = match &statuses.poison {
        Some(Poisoned {
            rounds,
            damage,
            source,
        }) => Node::Group(vec![
            ("rounds", Node::Leaf(Value::Number(i128::from(*rounds)))),
            ("damage", Node::Leaf(Value::Text(damage.to_string()))),
            ("source", Node::Leaf(Value::Text(source.clone()))),
        ]),
        None => Node::Leaf(Value::None),
    };
    Node::Group(vec![
        ("poison", poison),
        (
            "confused",
            Node::Leaf(Value::Number(i128::from(statuses.confused))),
        ),
    ])
}

fn map(state: &GameState) -> Node {
    let map = &state.floor.map;
    let width = map.width();
    let mut kinds: [Vec<u32>; 5] = Default::default();
    for (i, tile) in map.tiles().iter().enumerate() {
        let kind = match tile {
            Tile::Wall => 0,
            Tile::Floor => 1,
            Tile::Door => 2,
            Tile::StairsDown => 3,
            Tile::Exit => 4,
        };
        kinds[kind].push(i as u32);
    }
    let [wall, floor, door, stairs, exit] =
        kinds.map(|cells| Node::Leaf(Value::Tiles { width, cells }));
    let grid = |grid: &BitGrid| {
        Node::Leaf(Value::Tiles {
            width,
            cells: grid.iter_ones().map(|i| i as u32).collect(),
        })
    };
    Node::Group(vec![
        (
            "size",
            Node::Leaf(Value::Text(format!("{width}x{}", map.height()))),
        ),
        (
            "tiles",
            Node::Group(vec![
                ("wall", wall),
                ("floor", floor),
                ("door", door),
                ("stairs", stairs),
                ("exit", exit),
            ]),
        ),
        ("revealed", grid(&map.revealed)),
        ("visible", grid(&map.visible)),
    ])
}

fn clock(state: &GameState, content: &Content) -> Node {
    let clock = &state.clock;
    // The queue's counters are private to the game; its serde form names
    // them, and is what the state hash encodes.
    let raw = serde_json::to_value(clock).unwrap_or_default();
    let counter = |name: &str| {
        Node::Leaf(
            raw.get(name)
                .and_then(serde_json::Value::as_u64)
                .map_or(Value::None, |n| Value::Number(i128::from(n))),
        )
    };
    let actor_name = |actor: Actor| match actor {
        Actor::Player => "the player".to_string(),
        Actor::Monster(id) => state.monsters.iter().find(|m| m.id == id).map_or_else(
            || format!("#{}", id.0),
            |m| monster_name(content, m.kind, id.0),
        ),
    };
    let key = |actor: Actor| match actor {
        Actor::Player => "player".to_string(),
        Actor::Monster(id) => format!("#{}", id.0),
    };
    Node::Group(vec![
        ("turn", Node::Leaf(Value::Number(i128::from(clock.turn())))),
        ("now", Node::Leaf(Value::Number(i128::from(clock.now())))),
        ("next_round", counter("next_round")),
        ("next_seq", counter("next_seq")),
        (
            "queue",
            Node::List(
                clock
                    .entries()
                    .iter()
                    .enumerate()
                    .map(|(index, entry)| Entity {
                        shown: index.to_string(),
                        key: key(entry.actor),
                        name: actor_name(entry.actor),
                        fields: vec![
                            ("actor", Node::Leaf(Value::Text(actor_name(entry.actor)))),
                            ("at", Node::Leaf(Value::Number(i128::from(entry.at)))),
                        ],
                    })
                    .collect(),
            ),
        ),
    ])
}

/// The cells of a set as places, at most `most` of them.
fn places(width: i32, cells: &[u32], most: usize) -> String {
    cells
        .iter()
        .take(most)
        .map(|&c| {
            let c = c as i32;
            format!("({},{})", c % width, c / width)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A node on one line: a value, or its fields as `name value` pairs.
pub fn summary(node: &Node) -> String {
    match node {
        Node::Leaf(value) => value.to_string(),
        Node::Group(fields) => fields
            .iter()
            .map(|(name, node)| match node {
                Node::Group(_) => format!("{name} ({})", summary(node)),
                _ => format!("{name} {}", summary(node)),
            })
            .collect::<Vec<_>>()
            .join(", "),
        Node::List(entities) if entities.is_empty() => "none".into(),
        Node::List(entities) => entities
            .iter()
            .map(|e| e.name.clone())
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The tree as lines for `show --state`: a field a line, an entity a line.
pub fn lines(tree: &[(&'static str, Node)]) -> Vec<String> {
    let mut out = Vec::new();
    for (name, node) in tree {
        node_lines(name, node, &mut out);
    }
    out
}

fn node_lines(path: &str, node: &Node, out: &mut Vec<String>) {
    match node {
        Node::Leaf(value) => out.push(format!("{path}: {value}")),
        Node::Group(fields) => {
            for (name, child) in fields {
                node_lines(&format!("{path}.{name}"), child, out);
            }
        }
        Node::List(entities) if entities.is_empty() => out.push(format!("{path}: none")),
        Node::List(entities) => {
            for entity in entities {
                out.push(format!(
                    "{}: {}",
                    entity.label(path),
                    summary(&Node::Group(entity.fields.clone()))
                ));
            }
        }
    }
}

/// One field that differs between two trees, said in a line:
/// `player.hp: 11 -> 14`, `map.visible: 14 tiles differ, e.g. (31,7)`.
pub fn differences(a: &[(&'static str, Node)], b: &[(&'static str, Node)]) -> Vec<String> {
    let mut out = Vec::new();
    let group = |t: &[(&'static str, Node)]| Node::Group(t.to_vec());
    differ_fields("", &group(a), &group(b), &mut out);
    out
}

/// Places of a set that differ shown at most.
const PLACES_SHOWN: usize = 4;

fn differ_fields(path: &str, a: &Node, b: &Node, out: &mut Vec<String>) {
    if a == b {
        return;
    }
    match (a, b) {
        (Node::Group(fa), Node::Group(fb)) => differ_groups(path, fa, fb, out),
        (Node::List(ea), Node::List(eb)) => differ_lists(path, ea, eb, out),
        (
            Node::Leaf(Value::Tiles { width, cells: ca }),
            Node::Leaf(Value::Tiles { cells: cb, .. }),
        ) => out.push(differ_tiles(path, *width, ca, cb)),
        _ => out.push(format!("{path}: {} -> {}", summary(a), summary(b))),
    }
}

/// `name` within `path`: `path.name`, or `name` at the top.
fn joined(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// The fields of two groups that differ, by name: those of both compared,
/// then those of one only.
fn differ_groups(
    path: &str,
    fa: &[(&'static str, Node)],
    fb: &[(&'static str, Node)],
    out: &mut Vec<String>,
) {
    for (name, na) in fa {
        match fb.iter().find(|(n, _)| n == name) {
            Some((_, nb)) => differ_fields(&joined(path, name), na, nb, out),
            None => out.push(format!(
                "{}: {} -> (absent)",
                joined(path, name),
                summary(na)
            )),
        }
    }
    for (name, nb) in fb {
        if !fa.iter().any(|(n, _)| n == name) {
            out.push(format!(
                "{}: (absent) -> {}",
                joined(path, name),
                summary(nb)
            ));
        }
    }
}

/// The entities of two lists that differ, by key: those of both compared,
/// then those of one only.
fn differ_lists(path: &str, ea: &[Entity], eb: &[Entity], out: &mut Vec<String>) {
    for entity in ea {
        match eb.iter().find(|e| e.key == entity.key) {
            Some(other) => differ_fields(
                &entity.label(path),
                &Node::Group(entity.fields.clone()),
                &Node::Group(other.fields.clone()),
                out,
            ),
            None => out.push(format!(
                "{}: {} -> (absent)",
                entity.label(path),
                summary(&Node::Group(entity.fields.clone()))
            )),
        }
    }
    for entity in eb {
        if !ea.iter().any(|e| e.key == entity.key) {
            out.push(format!(
                "{}: (absent) -> {}",
                entity.label(path),
                summary(&Node::Group(entity.fields.clone()))
            ));
        }
    }
}

/// Two sets of tiles that differ, in a line: how many tiles differ, of how
/// many, and a few of them.
fn differ_tiles(path: &str, width: i32, ca: &[u32], cb: &[u32]) -> String {
    let differ = symmetric_difference(ca, cb);
    let counts = if ca.len() == cb.len() {
        format!("{} tiles each", ca.len())
    } else {
        format!("{} -> {} tiles", ca.len(), cb.len())
    };
    format!(
        "{path}: {} {} differ ({counts}), e.g. {}",
        differ.len(),
        if differ.len() == 1 { "tile" } else { "tiles" },
        places(width, &differ, PLACES_SHOWN)
    )
}

/// The cells in one sorted set and not the other, sorted.
fn symmetric_difference(a: &[u32], b: &[u32]) -> Vec<u32> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x == y => {
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => {
                out.push(*x);
                i += 1;
            }
            (Some(_), Some(y)) => {
                out.push(*y);
                j += 1;
            }
            (Some(x), None) => {
                out.push(*x);
                i += 1;
            }
            (None, Some(y)) => {
                out.push(*y);
                j += 1;
            }
            (None, None) => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::game::state::{Death, FloorItem, Monster, MonsterRef};
    use game_core::{Game, GameConfig};

    /// A state with every optional field filled: poison, a death, a
    /// monster, an item, a screen.
    fn full_state() -> (GameState, std::sync::Arc<Content>) {
        let content = Content::shared_embedded();
        let game = Game::new(GameConfig::new(7)).expect("starts");
        let mut state = game.state().clone();
        let poison = Some(Poisoned {
            rounds: 3,
            damage: "1d2".parse().expect("dice"),
            source: "a giant newt".into(),
        });
        state.player.statuses.poison = poison.clone();
        state.monsters.push(Monster {
            id: MonsterRef(99),
            kind: game_core::content::MonsterId(0),
            pos: Pos::new(1, 1),
            hp: 3,
            statuses: Statuses {
                poison,
                confused: 2,
            },
            awake: true,
        });
        state.items.push(FloorItem {
            item: game_core::content::ItemId(0),
            count: 2,
            pos: Pos::new(2, 2),
            seen: true,
        });
        state.status = RunStatus::Died(Death {
            cause: "killed by a rat".into(),
            depth: 1,
            turn: 4,
        });
        state
            .screens
            .push(game_core::game::screens::Screen::Help { top: 0 });
        (state, content)
    }

    /// The leaf paths of a tree with list entries as `[]`.
    fn leaf_patterns(path: &str, node: &Node, out: &mut Vec<String>) {
        match node {
            Node::Leaf(_) => out.push(path.to_string()),
            Node::Group(fields) => {
                for (name, child) in fields {
                    let here = if path.is_empty() {
                        name.to_string()
                    } else {
                        format!("{path}.{name}")
                    };
                    leaf_patterns(&here, child, out);
                }
            }
            // The last entry of each list (the test's own, with every
            // optional field filled) stands for them all.
            Node::List(entities) => {
                if let Some(entity) = entities.last() {
                    leaf_patterns(
                        &format!("{path}[]"),
                        &Node::Group(entity.fields.clone()),
                        out,
                    );
                }
            }
        }
    }

    #[test]
    fn the_field_list_is_what_the_tree_holds_in_its_order() {
        let (state, content) = full_state();
        let mut found = Vec::new();
        leaf_patterns("", &Node::Group(tree(&state, &content)), &mut found);
        let listed: Vec<&str> = FIELDS.iter().map(|(p, _)| *p).collect();
        assert_eq!(found, listed);
    }

    #[test]
    fn ids_read_as_names_and_bit_grids_as_counts() {
        let (state, content) = full_state();
        let text = lines(&tree(&state, &content)).join("\n");
        let rat = &content.monster(game_core::content::MonsterId(0)).name;
        assert!(
            text.contains(&format!(
                "monsters[{}] ({rat} #99): id 99, kind {rat}",
                state.monsters.len() - 1
            )),
            "{text}"
        );
        assert!(
            text.contains("player.statuses.poison.source: a giant newt"),
            "{text}"
        );
        assert!(text.contains("status: died"), "{text}");
        assert!(text.contains("screen: the help screen"), "{text}");
        let visible = state.floor.map.visible.count();
        assert!(
            text.contains(&format!("map.visible: {visible} tiles")),
            "{text}"
        );
        // No line is a dump: no run of more than 20 numbers.
        for line in text.lines() {
            let numbers = line
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty())
                .count();
            assert!(numbers <= 20, "{line}");
        }
    }

    #[test]
    fn differences_name_entities_by_id_and_count_tiles() {
        let (a, content) = full_state();
        let mut b = a.clone();
        // Another monster before it in B's list: still matched by id.
        let first = b.monsters[0].clone();
        b.monsters.insert(
            0,
            Monster {
                id: MonsterRef(500),
                ..first
            },
        );
        let last = b.monsters.len() - 1;
        b.monsters[last].hp = 1;
        b.player.hp -= 2;
        let width = b.floor.map.width() as usize;
        let unseen = (0..b.floor.map.visible.len())
            .find(|&i| !b.floor.map.visible.get(i))
            .expect("some tile is out of sight");
        b.floor.map.visible.insert(unseen);
        let found = differences(&tree(&a, &content), &tree(&b, &content));
        let rat = &content.monster(game_core::content::MonsterId(0)).name;
        assert_eq!(
            found[0],
            format!("player.hp: {} -> {}", a.player.hp, b.player.hp)
        );
        assert!(
            found.contains(&format!(
                "monsters[{}] ({rat} #99).hp: 3 -> 1",
                a.monsters.len() - 1
            )),
            "{found:?}"
        );
        assert!(
            found.iter().any(|f| f.contains("(absent) -> id 500")),
            "{found:?}"
        );
        let visible = found
            .iter()
            .find(|f| f.starts_with("map.visible:"))
            .expect("the visible set differs");
        assert!(visible.contains("1 tile differ"), "{visible}");
        let place = format!("e.g. ({},{})", unseen % width, unseen / width);
        assert!(visible.ends_with(&place), "{visible}");
        assert!(!found.iter().any(|f| f.contains("words")), "{found:?}");
    }

    #[test]
    fn symmetric_difference_of_sorted_sets() {
        assert_eq!(symmetric_difference(&[1, 3, 5], &[1, 4, 5, 9]), [3, 4, 9]);
        assert_eq!(symmetric_difference(&[], &[2]), [2]);
    }
}
