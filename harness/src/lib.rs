//! deja: the harness around the Undercroft game core.
//!
//! Everything that touches the outside world lives here: files, the terminal,
//! clocks, threads, processes. The game core stays a pure function of (seed,
//! content, keys); this crate feeds it and reports what happened.

pub mod baseline;
pub mod bots;
pub mod cli;
pub mod commands;
pub mod condition;
pub mod content_dir;
pub mod exit;
pub mod expect;
pub mod figures;
pub mod files;
pub mod frames;
pub mod fuzz;
pub mod keys_input;
pub mod printable;
pub mod recording;
pub mod replay;
pub mod report;
pub mod runner;
pub mod session;
pub mod shrink;
pub mod state_view;
pub mod sweep;
pub mod terminal;
pub mod timeline;
pub mod viewer;
pub mod watchdog;
