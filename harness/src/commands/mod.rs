//! Each `deja` command in its own file: its arguments (`XArgs`, clap's
//! derive) beside its `run`. `args` holds the arguments several share;
//! `crate::cli` parses and dispatches.

pub mod args;
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

use crate::commands::args::ContentArgs;
use crate::recording::{self, Recording};

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
    crate::plumbing::output::err(format_args!(
        "wrote a bug report that reproduces it: {}",
        path.display()
    ));
    crate::plumbing::output::err(format_args!(
        "reproduce with: deja replay {}",
        path.display()
    ));
    Ok(())
}
