//! Driving the game: the runner presses keys through `game_core::Game` with
//! every per-key check, keeps the run's trail and tells a failure (panic,
//! broken invariant, stuck turn); the watchdog turns a key that hangs into a
//! recording. Uses the recording format and the plumbing.

pub mod runner;
pub mod settings;
pub mod watchdog;
