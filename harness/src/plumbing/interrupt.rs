//! Ctrl-C, SIGINT and SIGTERM: every command ends with exit 130
//! ([`Exit::Interrupted`]), never with the 143 a shell reports for a
//! process SIGTERM kills.
//!
//! What a signal does depends on the command. One with nothing to keep
//! ends at once: [`end_at_once`], which `cli::run` sets up for every
//! command. One with work worth keeping or saying (a sweep, a shrink, play
//! and watching at the terminal, replay and bless of many files) takes the
//! signals over with [`stop_on_signals`]: the first sets a flag its loops
//! stop at ([`requested`]), and, when it asks, a second ends the process
//! at once.
//!
//! Ending at once never cuts a file short: while a file is written and
//! renamed into place ([`while_writing`], around the one atomic writer's
//! temporary file), the ending waits for it to be whole and in place, so
//! neither the file nor a temporary one beside it is left half written.
//! SIGHUP is left to end the process as it does by default: the terminal
//! has gone, and there is nothing to give back.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::plumbing::exit::Exit;

/// Set by a signal once a command has taken the signals over.
static STOP: AtomicBool = AtomicBool::new(false);
/// A command stops at its own pace ([`stop_on_signals`]).
static TAKEN: AtomicBool = AtomicBool::new(false);
/// With [`TAKEN`]: a second signal ends the process at once.
static SECOND_EXITS: AtomicBool = AtomicBool::new(false);
/// Files being written now, which an ending waits for.
static WRITING: AtomicUsize = AtomicUsize::new(0);
/// An ending is due: the last file being written ends the process.
static ENDING: AtomicBool = AtomicBool::new(false);

/// SIGINT and SIGTERM end the process with 130 at once (after a file being
/// written is whole), unless a command takes them over.
pub fn end_at_once() {
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        // SAFETY: `on_signal` only loads and stores atomics and calls
        // `_exit`, which are async-signal-safe. Registering fails only for
        // forbidden signals, none of these.
        let _ = unsafe { signal_hook::low_level::register(signal, on_signal) };
    }
}

/// What a signal does, in the handler: set the flag of a command that took
/// the signals over, or end the process.
fn on_signal() {
    if TAKEN.load(Ordering::SeqCst) {
        let again = STOP.swap(true, Ordering::SeqCst);
        if !(again && SECOND_EXITS.load(Ordering::SeqCst)) {
            return;
        }
    }
    // Marked before the writers are counted: a writer that finishes after
    // this sees the mark and ends the process itself.
    ENDING.store(true, Ordering::SeqCst);
    if WRITING.load(Ordering::SeqCst) == 0 {
        signal_hook::low_level::exit(i32::from(Exit::Interrupted.code()));
    }
}

/// The command takes SIGINT and SIGTERM over: they set the flag returned,
/// for its loops to stop at, and, with `second_exits`, a second one once
/// the flag is set ends the process at once with 130 (a sweep or shrink
/// whose user presses Ctrl-C twice means it). The terminal loops see the
/// flag within their poll and must give the terminal back themselves, so
/// they do not ask for it.
pub fn stop_on_signals(second_exits: bool) -> &'static AtomicBool {
    SECOND_EXITS.store(second_exits, Ordering::SeqCst);
    TAKEN.store(true, Ordering::SeqCst);
    &STOP
}

/// Whether a signal has asked the command that took them over to stop.
pub fn requested() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// Runs `write`, a file written and renamed into place, with any ending a
/// signal asks for held until it is done.
pub fn while_writing<T>(write: impl FnOnce() -> T) -> T {
    WRITING.fetch_add(1, Ordering::SeqCst);
    // An ending that did not count this writer may be under way on another
    // thread: it must not meet a file begun.
    if ENDING.load(Ordering::SeqCst) {
        signal_hook::low_level::exit(i32::from(Exit::Interrupted.code()));
    }
    let written = write();
    if WRITING.fetch_sub(1, Ordering::SeqCst) == 1 && ENDING.load(Ordering::SeqCst) {
        signal_hook::low_level::exit(i32::from(Exit::Interrupted.code()));
    }
    written
}
