//! What every part of deja uses to meet the outside world: files (read with
//! a limit, written atomically), the exit codes, signals, escaping text for
//! a terminal, and content directories. Uses nothing else in the harness.

pub mod content_dir;
pub mod error;
pub mod exit;
pub mod files;
pub mod interrupt;
pub mod output;
pub mod printable;
