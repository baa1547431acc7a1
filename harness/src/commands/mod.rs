//! The work of each `deja` command. `crate::cli` parses; these run.

pub mod bench;
pub mod bless;
pub mod corpus;
pub mod diff;
pub mod from_fuzz;
pub mod map;
pub mod play;
pub mod probe;
pub mod replay;
pub mod report;
pub mod show;
pub mod shrink;
pub mod sweep;
pub mod watch;
pub mod when;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use game_core::content::Content;

use crate::cli::ContentArgs;
use crate::recording::{self, Recording};

static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

static COLORS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `--color` and `NO_COLOR`, decided once, before a command runs.
pub fn set_colors(on: bool) {
    COLORS.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// Whether what deja draws is coloured.
pub fn colors() -> bool {
    COLORS.load(std::sync::atomic::Ordering::Relaxed)
}

/// `--quiet`: set once, before a command runs.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, std::sync::atomic::Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(std::sync::atomic::Ordering::Relaxed)
}

/// A note on standard error (what was written, what was read), which
/// `--quiet` leaves out.
pub fn note(text: impl std::fmt::Display) {
    if !quiet() {
        err(text);
    }
}

/// A line on standard error for a person: a warning, an error, what to run
/// next. Escaped (`crate::plumbing::printable`), as everything deja prints for a
/// person is, since it may quote a file; a standard error that cannot be
/// written to has no one to tell.
pub fn err(text: impl std::fmt::Display) {
    use std::io::Write;
    let text = text.to_string();
    let _ = writeln!(
        std::io::stderr().lock(),
        "{}",
        crate::plumbing::printable::lines(&text)
    );
}

/// Writes a line to standard output, escaped as [`err`] is. A closed pipe
/// (`deja map | head`) is [`OUTPUT_CLOSED`], never a panic.
pub fn out(text: impl std::fmt::Display) -> Result<(), String> {
    line_to(&mut std::io::stdout().lock(), text)
}

/// Writes a line for a person to `to` (standard output, held by a command
/// that prints frames between its lines), escaped as [`out`] is.
pub fn line_to(to: &mut dyn std::io::Write, text: impl std::fmt::Display) -> Result<(), String> {
    let text = text.to_string();
    writeln!(to, "{}", crate::plumbing::printable::lines(&text)).map_err(output_error)
}

/// The error of a write to standard output whose reader has gone: commands
/// end quietly on it (see `cli::run`).
pub const OUTPUT_CLOSED: &str = "the output was closed";

/// A write error on standard output, in words; a broken pipe is
/// [`OUTPUT_CLOSED`].
pub fn output_error(e: std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        OUTPUT_CLOSED.to_string()
    } else {
        format!("writing output: {e}")
    }
}

/// The content a command runs with: the directory given, or the embedded.
pub fn load_content(args: &ContentArgs) -> Result<Arc<Content>, String> {
    match &args.content {
        Some(dir) => crate::plumbing::content_dir::load(dir),
        None => Ok(Content::shared_embedded()),
    }
}

/// Where a bug report goes when no `-o` path was given: the current
/// directory, named by seed and step, and never over a file already there
/// (`-2`, `-3`, ... when the name is taken), so a report from another run,
/// or an earlier one of this, is not lost.
pub fn default_report_path(seed: u64, step: u64) -> Result<PathBuf, String> {
    crate::plumbing::files::free_name(
        Path::new("."),
        &format!("deja-failure-seed{seed}-step{step}"),
        "ron",
    )
}

/// Writes a bug report and tells the user how to reproduce it.
pub fn write_bug_report(path: &Path, recording: &Recording) -> Result<(), String> {
    recording::write(path, recording)?;
    err(format_args!(
        "wrote a bug report that reproduces it: {}",
        path.display()
    ));
    err(format_args!(
        "reproduce with: deja replay {}",
        path.display()
    ));
    Ok(())
}
