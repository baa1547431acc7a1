//! `deja show`: seek into a recording and show the frame (and the state) at a
//! step.

use std::path::PathBuf;

use clap::Args;

use crate::commands::args::ContentArgs;
use crate::plumbing::error::CommandResult;
use crate::plumbing::exit::Exit;
use crate::recording;
use crate::replay;

#[derive(Args)]
pub struct ShowArgs {
    /// A recording file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The step to show: 0 is the start, N is after the N-th key.
    #[arg(long, value_name = "STEP")]
    pub at: u64,
    /// Also print the game state: every field in the words `deja diff`
    /// uses and `deja when` conditions name.
    #[arg(long)]
    pub state: bool,
    /// With --state: the whole state as raw RON instead (what a save
    /// holds: bit grids as words, kinds as numbers).
    #[arg(long, requires = "state")]
    pub raw: bool,
    /// Frame size, WIDTHxHEIGHT.
    #[arg(long, default_value = "80x24", value_parser = crate::play::frames::parse_frame_size)]
    pub size: (u16, u16),
    #[command(flatten)]
    pub content: ContentArgs,
}

pub fn run(args: ShowArgs) -> CommandResult {
    let recording = recording::read(&args.file)?;
    let keys = recording.keys.len() as u64;
    if args.at > keys {
        return Err(format!(
            "--at {}: {} has {}, so steps 0 to {keys}",
            args.at,
            crate::plumbing::printable::path(&args.file),
            crate::replay::shrink::count_keys(keys as usize)
        )
        .into());
    }
    if let Some(failure) = recording.failure.as_ref().filter(|f| args.at >= f.step) {
        crate::plumbing::output::err(format_args!(
            "note: the run fails at step {} ({}); the game is shown as that failure left it{}",
            failure.step,
            failure.kind,
            if matches!(failure.kind, crate::recording::FailureKind::Panic { .. }) {
                ", which for a panic is the step before"
            } else {
                ""
            }
        ));
    }
    let content = super::load_content(&args.content)?;
    let name = crate::plumbing::printable::path(&args.file);
    // What is shown is this build's game on this content: say so when that
    // is not the game the file recorded.
    replay::warn(&name.to_string(), &recording, &content);
    let (game, unlike) = replay::checked_game_at(&recording, content, args.at)
        .map_err(|e| format!("{name}: {e}"))?;
    if let Some(verdict) = unlike {
        crate::plumbing::output::err(format_args!(
            "warning: {name}: not the recorded run by step {}: {verdict}; what is shown is the game as this build replays it",
            args.at
        ));
    }
    let key = match args.at {
        0 => "the start".to_string(),
        n => format!("key {}", recording.keys[(n - 1) as usize]),
    };
    crate::plumbing::output::out(format_args!(
        "--- {} at step {} ({key}) ---",
        crate::plumbing::printable::path(&args.file),
        args.at
    ))?;
    crate::plumbing::output::out(format_args!(
        "{}",
        game.frame(args.size.0, args.size.1).to_text()
    ))?;
    if args.raw {
        crate::plumbing::output::out(format_args!("--- state (raw RON) ---"))?;
        crate::plumbing::output::out(format_args!("{}", game.save()))?;
    } else if args.state {
        crate::plumbing::output::out(format_args!("--- state ---"))?;
        let tree = crate::inspect::state_view::tree(game.state(), game.content());
        for line in crate::inspect::state_view::lines(&tree) {
            crate::plumbing::output::out(line)?;
        }
    }
    Ok(Exit::Ok)
}
