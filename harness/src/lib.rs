//! deja: the harness around the Undercroft game core.
//!
//! Everything that touches the outside world lives here: files, the terminal,
//! clocks, threads, processes. The game core stays a pure function of (seed,
//! content, keys); this crate feeds it and reports what happened.

pub mod cli;
pub mod commands;
pub mod fuzz;
pub mod inspect;
pub mod play;
pub mod plumbing;
pub mod recording;
pub mod replay;
pub mod run;
pub mod sweep;
