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

pub mod catalogue;
mod command;
pub mod describe;
mod floor;
mod keys;
pub(crate) mod oracle;
pub mod reach;
mod record;
pub mod screen;
mod spawns;
mod state;
mod turn;
mod watch;

pub use catalogue::{
    CATALOGUE, FRAME_EVERY, Id, Invariant, ORACLE_EVERY, PERSIST_EVERY, Violation, When,
};
pub use command::{Aiming, Command, map_command};
pub use floor::{
    check_floor, check_floor_given, check_floor_map, vault_crossings, vault_wall_openings,
};
pub use keys::key_effect;
pub use oracle::{
    check_frame, check_oracles, check_paths, check_persistence, check_play_stream, check_streams,
    check_view,
};
pub use screen::{check_screen, check_screen_closely};
pub use spawns::check_spawns;
pub use state::check_state;
pub use turn::check_turn;
pub use watch::TurnWatch;

/// The reference implementations, for the fuzz target that compares them
/// with the fast code on arbitrary maps.
pub mod reference {
    pub use super::oracle::{can_step, distances, field_of_view};
}
