//! Where deja's words go: standard output for results, standard error for a
//! person (notes, warnings, errors), both escaped (`printable`) at this one
//! place lines are written; `--quiet` and `--color`, decided once before a
//! command runs.

use crate::plumbing::error::Error;

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
/// (`deja map | head`) is [`Error::OutputClosed`], never a panic.
pub fn out(text: impl std::fmt::Display) -> Result<(), Error> {
    line_to(&mut std::io::stdout().lock(), text)
}

/// Writes a line for a person to `to` (standard output, held by a command
/// that prints frames between its lines), escaped as [`out`] is.
pub fn line_to(to: &mut dyn std::io::Write, text: impl std::fmt::Display) -> Result<(), Error> {
    let text = text.to_string();
    writeln!(to, "{}", crate::plumbing::printable::lines(&text)).map_err(output_error)
}

/// A write error on standard output; a broken pipe, whose reader has gone,
/// is [`Error::OutputClosed`], on which commands end quietly (see
/// `cli::run`).
pub fn output_error(e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Error::OutputClosed
    } else {
        Error::Refused(format!("writing output: {e}"))
    }
}
