//! Exit codes, the same for every command.

/// As expected.
pub const OK: u8 = 0;
/// An error: unreadable file, bad arguments beyond clap's own.
pub const ERROR: u8 = 1;
/// Clap's own code for bad usage.
pub const USAGE: u8 = 2;
/// A replay's state differs from its recording.
pub const DRIFT: u8 = 3;
/// A failure was found: panic, broken invariant, stuck turn.
pub const FAILURE: u8 = 4;
/// Ended by Ctrl-C, SIGINT or SIGTERM, whatever the command, as shells
/// report SIGINT (see `crate::plumbing::interrupt`).
pub const INTERRUPTED: u8 = 130;

/// The table printed under `--help`.
pub const TABLE: &str = "\
Exit codes:
  0  as expected
  1  error (unreadable file, bad arguments)
  2  bad usage (from the argument parser)
  3  drift: a replay's state differs from its recording, or the run no longer
     shows its expect list (bless: refused, the outcome would change; when:
     the condition never holds)
  4  failure found: panic, broken invariant or stuck turn
  130  ended by Ctrl-C or a signal (the work done so far is kept)";
