//! `deja corpus`: every committed fuzz input through its target's body.

use std::path::PathBuf;

use clap::Args;

use crate::plumbing::error::CommandResult;
use crate::plumbing::exit::Exit;

#[derive(Args)]
pub struct CorpusArgs {
    /// The corpus: one folder per fuzz target.
    #[arg(default_value = "fuzz/corpus", value_name = "DIR")]
    pub dir: PathBuf,
}

pub fn run(args: CorpusArgs) -> CommandResult {
    let found = crate::fuzz::corpus::check(&args.dir)?;
    Ok(if found.problems.is_empty() {
        Exit::Ok
    } else {
        Exit::Failure
    })
}
