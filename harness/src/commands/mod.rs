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
pub mod when;

use std::sync::Arc;

use game_core::content::Content;

use crate::commands::args::ContentArgs;
use crate::plumbing::error::Error;
use crate::plumbing::files::Destination;
use crate::recording::{self, Recording};

/// The content a command runs with: the directory given, or the embedded.
pub fn load_content(args: &ContentArgs) -> Result<Arc<Content>, Error> {
    match &args.content {
        Some(dir) => crate::plumbing::content_dir::load(dir),
        None => Ok(Content::shared_embedded()),
    }
}

/// Writes a bug report and tells the user how to reproduce it, naming the
/// file written.
pub fn write_bug_report(to: &Destination, recording: &Recording) -> Result<(), Error> {
    let path = recording::write_to(to, recording)?;
    crate::plumbing::output::err(format_args!(
        "wrote a bug report that reproduces it: {}",
        crate::plumbing::printable::path(&path)
    ));
    crate::plumbing::output::err(format_args!(
        "reproduce with: deja replay {}",
        crate::plumbing::printable::path(&path)
    ));
    Ok(())
}
