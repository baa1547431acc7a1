//! `deja`: play, record, replay and check the Undercroft game core. Parsing
//! and dispatch live in `harness::cli`; the work in `harness::commands`.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(harness::cli::run(harness::cli::parse()))
}
