//! The checks of the Undercroft game core: the invariant catalogue, what
//! must always hold, each with a stable id.
//!
//! The game does not depend on this crate; it reads the game only through
//! game-core's public API, so a bug in the game's code is judged by code
//! that does not share it. Tests, the sweep and the fuzz targets all use
//! this one catalogue (documented in docs/invariants.md). Floor invariants
//! are checked once per generated floor; turn invariants after every key,
//! against the state before it and the record of what the key did; the
//! oracles on a sample of turns; the progress of a bot over its run.
//!
//! - `floor`: connectivity, the way down, spawn regions, the temple vault.
//! - [`check_state`]: what the state after a key must be on its own: the
//!   validity check a load also runs (game-core's `validity`).
//! - `record`: the state change explained by the record, within the rules.
//! - `keys`: every key does what the help promises.
//! - `oracle`: slow reference implementations against the fast code.
//! - `reach`: not a check but its proof: which situations a key reached,
//!   counted from the same record, so a sweep can show its checks ran.
//! - `describe`: how reports word the game's values.

#![forbid(unsafe_code)]
#![deny(clippy::float_arithmetic, clippy::float_cmp)]

pub mod describe;
mod floor;
mod keys;
pub(crate) mod oracle;
pub mod reach;
mod record;
pub mod screen;
mod spawns;

use std::fmt;

use game_core::content::{ItemId, MonsterId};
use game_core::dice::Dice;
use game_core::game::Game;
use game_core::game::Outcome;
use game_core::game::events::Who;
use game_core::game::screens::Screen;
use game_core::game::state::{Pack, RunStatus};
use game_core::game::turn::Actor;
use game_core::geom::Pos;
use game_core::keys::Key;
use game_core::map::Tile;
use game_core::validity::Rule;

use crate::describe::{Words, describe_top};

pub use floor::{
    check_floor, check_floor_given, check_floor_map, vault_crossings, vault_wall_openings,
};
pub use keys::{Aiming, Command, key_effect, map_command};
pub use oracle::{
    check_frame, check_oracles, check_paths, check_persistence, check_play_stream, check_streams,
    check_view,
};
pub use screen::{check_screen, check_screen_closely};
pub use spawns::check_spawns;

/// The reference implementations, for the fuzz target that compares them
/// with the fast code on arbitrary maps.
pub mod reference {
    pub use super::oracle::{can_step, distances, field_of_view};
}

/// When an invariant is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Once per generated floor.
    Floor,
    /// After every key.
    Turn,
    /// On a sample of keys (every [`ORACLE_EVERY`]th): the slow oracles.
    Sampled,
    /// Over a bot's run: progress (`harness::run::runner`).
    Run,
}

/// The oracles run, and the frames are read closely, after every this many
/// keys (steps 1, 257, ...; every 128 before issue 27, and a recording
/// without `oracle_every` replays so): they are the dearest checks, and
/// what they hold to the reference (the game's searches and views) is at
/// work on most keys, so a bug shows on many samples, not one
/// (docs/performance.md has the figures, docs/mutation.md the mutation
/// sample). The save and load oracle runs after every [`PERSIST_EVERY`].
pub const ORACLE_EVERY: u64 = 256;
pub const PERSIST_EVERY: u64 = 512;
/// The frame at the run's size is drawn and read after every this many
/// keys (steps 1, 9, 17, ...; and on the oracles' sample, and at a run's
/// end): drawing and reading it after every key was half of what the
/// checks added to a key, and a bug in drawing shows on most frames it
/// touches, not one (docs/performance.md has the figures, docs/mutation.md
/// the mutation sample with and without).
pub const FRAME_EVERY: u64 = 8;

/// Declares the catalogue: each invariant's name in the code, its stable
/// id, when it is checked and what it asserts. The compiler checks every id
/// a check names; reports, recordings and docs/invariants.md use the text.
macro_rules! catalogue {
    ($($name:ident = $id:literal, $when:ident: $asserts:literal,)*) => {
        /// An invariant of the catalogue.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Id {
            $($name,)*
        }

        impl Id {
            /// The stable id, as reports, recordings and the docs write it.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Id::$name => $id,)*
                }
            }
        }

        /// Every invariant, in the order they are documented.
        pub const CATALOGUE: &[Invariant] = &[
            $(Invariant { id: Id::$name, when: When::$when, asserts: $asserts },)*
        ];
    };
}

/// One entry of the catalogue.
#[derive(Clone, Copy, Debug)]
pub struct Invariant {
    pub id: Id,
    pub when: When,
    pub asserts: &'static str,
}

impl Id {
    /// The invariant whose stable id is `name`, if the catalogue has one.
    pub fn named(name: &str) -> Option<Id> {
        CATALOGUE.iter().map(|i| i.id).find(|id| id.name() == name)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

catalogue! {
    MapConnected = "map.connected", Floor:
        "every walkable tile is reachable from the start by legal steps",
    MapHasExit = "map.has_exit", Floor:
        "the goal is stairs (the exit on the last floor), is not the start, and is reachable",
    MapStartInRegion0 = "map.start_in_region0", Floor:
        "spawn region 0 contains the start, and every region's cells are walkable",
    MapVaultSingleEntrance = "map.vault_single_entrance", Floor:
        "a temple vault has exactly one opening in its walls and one crossing of the moat",
    EntityInBounds = "entity.in_bounds", Turn:
        "the player, every monster and every floor item is on the map",
    EntityInWall = "entity.in_wall", Turn:
        "the player, every monster and every floor item stands on a walkable tile",
    EntityOverlap = "entity.overlap", Turn:
        "no two creatures share a tile",
    HpRange = "hp.range", Turn:
        "hit points are within 1..=max for the living; the player is at 0 or below only when dead",
    InventoryCapacity = "inventory.capacity", Turn:
        "stacks hold 1..=99, unstackable items one each, piles of one stackable item on one tile are put together while they fit, and wielded/worn slots hold a weapon/armour",
    ClockMonotonic = "clock.monotonic", Turn:
        "the turn clock never runs backwards",
    ClockAdvances = "clock.advances", Turn:
        "a key that spends the player's turns moves the clock on",
    ClockQueue = "clock.queue", Turn:
        "on the player's turn every monster is queued exactly once, no later-than-now entry is missing, and the player is not queued",
    RngOnlyWithTime = "rng.only_with_time", Turn:
        "the in-play dice are rolled only by keys that spend time, so no roll can be retried for free",
    FovSymmetric = "fov.symmetric", Turn:
        "every monster the player can see can see the player",
    FovRevealedCoversVisible = "fov.revealed_covers_visible", Turn:
        "every visible tile is also revealed",
    ScreenEscapable = "screen.escapable", Turn:
        "Esc closes the top screen without spending time",
    PressOutcome = "press.outcome", Turn:
        "what a press returns is what happened: the turns it spent, the messages it said, how the run ended",
    FovAroundPlayer = "fov.around_player", Turn:
        "the player's own tile and its open neighbours are always in view",
    MoveLegal = "move.legal", Turn:
        "creatures move only by recorded steps, one tile at a time, one per action, each resolved by the step rule (move, attack, refused, or wasted when confused)",
    CombatRules = "combat.rules", Turn:
        "every swing is at a neighbour, rolls a d20 that hits by the to-hit rule, and deals damage within the attacker's dice",
    HpExplained = "hp.explained", Turn:
        "hit points change only by recorded blows, poison bites within their dice and heals capped at the maximum; a creature dies exactly when they reach 0",
    StatusRules = "status.rules", Turn:
        "a poisoner's or confuser's hit, a scroll and an antidote set statuses as the rules say, and statuses count down once a round and end",
    ItemsConserved = "items.conserved", Turn:
        "items are never made or lost except by a recorded spawn, pickup, drop, throw or use, and equipment changes only by wearing or losing it",
    ClockRounds = "clock.rounds", Turn:
        "statuses tick once for every hundred the clock passes, and every turn counted is a recorded action",
    ClockTime = "clock.time", Turn:
        "the clock moves from one player turn to the next by the cost of the player's action at the player's speed, and every monster takes each turn its speed gives it, in the player's action it falls in, no more and no fewer",
    MonsterNotice = "monster.notice", Turn:
        "a monster wakes exactly when the player can see its tile (the reference field of view): every one in view after the player acts and when the player's turn comes round, none out of view; an asleep monster does not walk unless confused",
    MessageUnseen = "message.unseen", Turn:
        "a message names a monster only when the player can see it",
    MessageForm = "message.form", Turn:
        "every message a key says is a sentence: it starts with a capital letter or a digit, ends with `.`, `!` or `?`, and has no space at either end or two in a row (names are single-spaced labels, so a word left out shows as a doubled space)",
    SpawnRules = "spawn.rules", Floor:
        "a new floor's monsters arrive whole, away from the start, no more than the rules allow and none out of depth on the first floors; items one each, off the start and the way down (checked on every floor a sweep or a run builds, and again on arriving by the stairs)",
    KeyContract = "key.contract", Turn:
        "every key does what the help promises when its conditions hold: a move key steps, `o` explores while there is somewhere to go, `i` opens a pack that holds something",
    RngStreams = "rng.streams", Floor:
        "a seed's named streams (maps, spawns and play, for every depth) are all different, so no part of the game shares another's randomness",
    FovOracle = "fov.oracle", Sampled:
        "what the player sees is the reference symmetric shadowcasting from where they stand",
    PathsOracle = "paths.oracle", Sampled:
        "distances, the chase map and A* routes from the player agree with a plain breadth-first search",
    FrameOracle = "frame.oracle", Sampled:
        "the map part of the frame shows what the state holds: the camera on the player, each tile remembered or in view, and what stands on it in view",
    ScreenSize = "screen.size", Turn:
        "the frame holds as many cells as its size says, and one below the smallest size shows only the notice of the size it needs",
    ScreenStatus = "screen.status", Turn:
        "the status line shows the depth, hit points, the statuses that hold and the turn, in the widest form that fits, the head an alarm at a third of the hit points or less",
    ScreenMap = "screen.map", Turn:
        "the map rows show, through the camera on the focus, unknown ground blank, known ground remembered or in view, every creature and item in view where it stands and none where none is, and the reticle's path and cursor",
    ScreenBox = "screen.box", Turn:
        "the top screen's box, centred over the map and inside the frame, shows its title and its rows from where it is scrolled to, counting the lines above and below",
    ScreenMessages = "screen.messages", Turn:
        "the message rows end with the newest message, read from its start, this key's lines bright and older ones dim, no row blank while the log holds more; under a reticle, what the cursor is on and the keys",
    ScreenEnding = "screen.ending", Turn:
        "the end of a run shows how it ended, the depth, the turn and the kills the state holds, in a box on a blank frame",
    StatePersist = "state.persist", Sampled:
        "the state hash is the documented hash of the state, and a save loads back into the same state",
    PlayProgress = "play.progress", Run:
        "a bot's run reveals ground, changes floor, fights, picks up or uses something, or comes nearer than ever since then to the unknown or the way down, at least once in every stretch of keys of the stated length",
}

/// The state invariants: game-core's validity check, which a load of a save
/// also runs, with each broken rule named by its catalogue id.
pub fn check_state(game: &Game) -> Vec<Violation> {
    game_core::validity::check_state(game)
        .into_iter()
        .map(|invalid| violation(invalid.rule.into(), invalid.message))
        .collect()
}

/// Each rule of a valid state is the catalogue's invariant of the same id.
impl From<Rule> for Id {
    fn from(rule: Rule) -> Id {
        match rule {
            Rule::EntityInBounds => Id::EntityInBounds,
            Rule::EntityInWall => Id::EntityInWall,
            Rule::EntityOverlap => Id::EntityOverlap,
            Rule::HpRange => Id::HpRange,
            Rule::InventoryCapacity => Id::InventoryCapacity,
            Rule::ClockQueue => Id::ClockQueue,
            Rule::FovRevealedCoversVisible => Id::FovRevealedCoversVisible,
            Rule::FovAroundPlayer => Id::FovAroundPlayer,
            Rule::MonsterNotice => Id::MonsterNotice,
            Rule::FovSymmetric => Id::FovSymmetric,
        }
    }
}

/// A broken invariant: its id and what was seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub id: Id,
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.id, self.message)
    }
}

fn violation(id: Id, message: String) -> Violation {
    Violation { id, message }
}

/// A creature as the watch saw it before the key.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Seen {
    who: Who,
    kind: Option<MonsterId>,
    pos: Pos,
    hp: i32,
    max_hp: i32,
    poison: Option<(u32, Dice)>,
    confused: u32,
    awake: bool,
    alive: bool,
    /// In the player's view (the player's own entry: always).
    visible: bool,
    /// When the turn queue has it act next (a monster's; `None` for the
    /// player, whose turn it is, or a monster the queue does not hold).
    due: Option<u64>,
}

/// What the turn invariants compare against: the state before the key, and
/// the key. Taken with [`TurnWatch::before`], handed to [`check_turn`] with
/// the state after the key and the key's [`game_core::Outcome`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnWatch {
    pub clock: u64,
    /// Player actions that had spent time.
    pub turns_taken: u32,
    /// How far the in-play random stream had been drawn.
    pub rng: u128,
    key: Key,
    playing: bool,
    /// Messages said so far, ever.
    log_total: u64,
    /// The player's turn had not come round: a press that got stuck left the
    /// turn loop to finish first.
    queued_player: bool,
    depth: u32,
    screens: Vec<Screen>,
    kills: u32,
    standing_on: Tile,
    monster_in_view: bool,
    /// Floor items the player has seen (a newly seen one stops a walk).
    items_seen: usize,
    /// Whether the reticle's cursor, if one is open, is on a tile in view.
    cursor_visible: bool,
    player: Seen,
    pack: Pack,
    wielded: Option<u8>,
    worn: Option<u8>,
    monsters: Vec<Seen>,
    /// Floor items, in the state's order: (where, what, how many).
    items: Vec<(Pos, ItemId, u32)>,
    /// Where the floor items the player has not seen yet lie.
    unseen_items: Vec<Pos>,
    /// For `o` on the map: whether the reference finds somewhere to go.
    explore_target: Option<bool>,
}

impl TurnWatch {
    /// The watch for pressing `key` on `game` as it stands.
    pub fn before(game: &Game, key: Key) -> TurnWatch {
        let state = game.state();
        let map = &state.floor.map;
        let content = game.content();
        let status = |s: &game_core::game::state::Statuses| {
            (s.poison.as_ref().map(|p| (p.rounds, p.damage)), s.confused)
        };
        let (poison, confused) = status(&state.player.statuses);
        let player = Seen {
            who: Who::Player,
            kind: None,
            pos: state.player.pos,
            hp: state.player.hp,
            max_hp: state.player.max_hp,
            poison,
            confused,
            awake: true,
            alive: !matches!(state.status, RunStatus::Died(_)),
            visible: true,
            due: None,
        };
        let monsters = state
            .monsters
            .iter()
            .map(|m| {
                let (poison, confused) = status(&m.statuses);
                Seen {
                    who: Who::Monster(m.id),
                    kind: Some(m.kind),
                    pos: m.pos,
                    hp: m.hp,
                    max_hp: content.monster(m.kind).max_hp,
                    poison,
                    confused,
                    awake: m.awake,
                    alive: true,
                    visible: map.is_visible(m.pos),
                    due: state
                        .clock
                        .entries()
                        .iter()
                        .find(|e| e.actor == Actor::Monster(m.id))
                        .map(|e| e.at),
                }
            })
            .collect();
        let playing = state.status == RunStatus::Playing;
        let queued_player = state.clock.contains(Actor::Player);
        let explore_target = (playing
            && !queued_player
            && state.screens.is_empty()
            && map_command(key) == Some(Command::Explore))
        .then(|| keys::explore_has_target(game));
        let cursor_visible = match state.screens.last() {
            Some(Screen::Reticle(r)) => map.is_visible(r.cursor),
            _ => false,
        };
        TurnWatch {
            clock: state.clock.now(),
            turns_taken: state.turns_taken,
            rng: state.rng.position(),
            key,
            playing,
            log_total: state.log.total(),
            queued_player,
            depth: state.depth,
            screens: state.screens.clone(),
            kills: state.kills,
            standing_on: map.tile(state.player.pos),
            monster_in_view: state.monsters.iter().any(|m| map.is_visible(m.pos)),
            items_seen: state.items.iter().filter(|i| i.seen).count(),
            cursor_visible,
            player,
            pack: state.player.pack.clone(),
            wielded: state.player.wielded,
            worn: state.player.worn,
            monsters,
            items: state
                .items
                .iter()
                .map(|i| (i.pos, i.item, i.count))
                .collect(),
            unseen_items: state
                .items
                .iter()
                .filter(|i| !i.seen)
                .map(|i| i.pos)
                .collect(),
            explore_target,
        }
    }

    /// The key this watch was taken for.
    pub fn key(&self) -> Key {
        self.key
    }
}

/// Every turn invariant, after the key `before` was taken for: `game` is
/// the state after it and `outcome` what the press returned.
pub fn check_turn(before: &TurnWatch, game: &Game, outcome: &Outcome) -> Vec<Violation> {
    let events = &outcome.events;
    let mut found = check_state(game);
    let now = game.state().clock.now();
    if now < before.clock {
        found.push(violation(
            Id::ClockMonotonic,
            format!("the clock went back from {} to {now}", before.clock),
        ));
    }
    let spent = game.state().turns_taken.saturating_sub(before.turns_taken);
    if spent > 0 && now == before.clock && game.state().status == RunStatus::Playing {
        found.push(violation(
            Id::ClockAdvances,
            format!("{spent} player turns were spent but the clock stayed at {now}"),
        ));
    }
    let drawn = game.state().rng.position() != before.rng;
    if drawn && now == before.clock && game.state().status == RunStatus::Playing {
        found.push(violation(
            Id::RngOnlyWithTime,
            format!("the dice were rolled but the clock stayed at {now}: a free reroll"),
        ));
    }
    found.extend(check_escapable(game));
    found.extend(check_outcome(before, game, outcome));
    found.extend(outcome.messages.iter().find_map(|m| message_form(m)));
    record::check_record(before, game, events, &mut found);
    keys::check_keys(before, game, events, &mut found);
    found
}

/// What a press returns is what happened: the turns it spent, the messages
/// it said, and how the run stands when it has ended.
fn check_outcome(before: &TurnWatch, game: &Game, outcome: &Outcome) -> Option<Violation> {
    let state = game.state();
    let spent = state.turns_taken.wrapping_sub(before.turns_taken);
    let said = state.log.total().saturating_sub(before.log_total);
    // The log's lines written out, each repeat as often as it was said,
    // and the last `said` of them: what the press said.
    let mut newest: Vec<&String> = Vec::new();
    for message in state.log.messages().iter().rev() {
        if newest.len() as u64 >= said {
            break;
        }
        let room = said - newest.len() as u64;
        for _ in 0..message.count.min(room) {
            newest.push(&message.text);
        }
    }
    newest.reverse();
    let ended = match &state.status {
        RunStatus::Playing => None,
        RunStatus::Died(death) => Some(game_core::game::RunEnd::Died {
            cause: death.cause.clone(),
        }),
        RunStatus::Won { .. } => Some(game_core::game::RunEnd::Won),
        RunStatus::Quit { .. } => Some(game_core::game::RunEnd::Quit),
    };
    let problem = if outcome.turns != spent {
        format!(
            "the press says it spent {} turns; {spent} were",
            outcome.turns
        )
    } else if outcome.messages.iter().collect::<Vec<_>>() != newest {
        format!(
            "the press says it said {}; the log's newest {said} are {}",
            quoted(outcome.messages.iter()),
            quoted(newest.iter().copied())
        )
    } else if outcome.ended != ended {
        format!(
            "the press says the run {}, but the run is {}",
            outcome.ended.as_ref().map_or_else(
                || "goes on".into(),
                |end| format!("was {end}", end = end.words())
            ),
            state.status
        )
    } else {
        return None;
    };
    Some(violation(Id::PressOutcome, problem))
}

/// Messages as a report quotes them: `"You hit it.", "It dies."`, or
/// "nothing".
/// What is wrong with `message` as a sentence, if anything. A word the
/// game leaves out ("You  the goblin for 3.") shows here: content
/// names are labels of single-spaced words, never empty, with no space at
/// either end (the content's validation holds them to that).
fn message_form(message: &str) -> Option<Violation> {
    let first = message.chars().next();
    let problem = if first.is_none_or(|c| !(c.is_ascii_uppercase() || c.is_ascii_digit())) {
        "it should start with a capital letter or a digit"
    } else if !message.ends_with(['.', '!', '?']) {
        "it should end with '.', '!' or '?'"
    } else if message.contains("  ") {
        "it has two spaces in a row, where a word is missing"
    } else {
        return None;
    };
    Some(violation(
        Id::MessageForm,
        format!("the key said {message:?}: {problem}"),
    ))
}

fn quoted<'a>(messages: impl Iterator<Item = &'a String>) -> String {
    let quoted: Vec<String> = messages.map(|m| format!("{m:?}")).collect();
    if quoted.is_empty() {
        "nothing".into()
    } else {
        quoted.join(", ")
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
            "Esc on {} left {} screens open, not {}",
            describe_top(game.state().screens.last()),
            copy.state().screens.len(),
            depth - 1
        )),
        Ok(_) => None,
    };
    message
        .map(|m| vec![violation(Id::ScreenEscapable, m)])
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_a_sentence_with_every_word() {
        for good in [
            "You hit the goblin for 3.",
            "3 darts lie here.",
            "You climb out of the Undercroft into the light. You win!",
            "Really?",
        ] {
            assert!(message_form(good).is_none(), "{good}");
        }
        for (bad, why) in [
            ("You  the goblin for 3.", "two spaces"),
            ("", "capital"),
            (" You wait.", "capital"),
            ("you wait.", "capital"),
            ("You wait", "end with"),
            ("You wait. ", "end with"),
        ] {
            let found = message_form(bad).expect(bad);
            assert_eq!(found.id, Id::MessageForm);
            assert!(found.message.contains(why), "{bad}: {}", found.message);
        }
    }

    #[test]
    fn ids_are_unique_and_the_required_ones_are_there() {
        let mut ids: Vec<&str> = CATALOGUE.iter().map(|i| i.id.name()).collect();
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), before, "duplicate ids");
        for required in [
            Id::MapConnected,
            Id::MapHasExit,
            Id::MapStartInRegion0,
            Id::MapVaultSingleEntrance,
            Id::EntityInBounds,
            Id::EntityInWall,
            Id::EntityOverlap,
            Id::HpRange,
            Id::InventoryCapacity,
            Id::ClockMonotonic,
            Id::FovSymmetric,
            Id::FovRevealedCoversVisible,
            Id::ScreenEscapable,
        ] {
            assert!(ids.contains(&required.name()), "{required} missing");
        }
        for invariant in CATALOGUE {
            assert_eq!(Id::named(invariant.id.name()), Some(invariant.id));
        }
        assert_eq!(Id::named("map.conected"), None);
    }

    #[test]
    fn each_rule_of_a_valid_state_is_the_invariant_of_its_id() {
        for rule in Rule::ALL {
            assert_eq!(Id::from(rule).name(), rule.id());
        }
    }
}
