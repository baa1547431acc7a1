//! `deja`: play, record, replay and check the Undercroft game core.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, Parser, Subcommand};
use game_core::content::Content;
use game_core::{Game, GameConfig, RunSeed};
use harness::exit;
use harness::play::{Frames, PlayEnd};

#[derive(Parser)]
#[command(name = "deja", version, about = "Deterministic replay and fuzzing harness for the Undercroft roguelike", after_help = exit::TABLE)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play headlessly from scripted keys and print frames.
    Play(PlayArgs),
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("script").required(true).args(["keys", "keys_file"])))]
struct PlayArgs {
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Keys in key notation, e.g. 'llll>' or 'i<Esc>;<Tab><Enter>'.
    #[arg(long)]
    keys: Option<String>,
    /// A file of key notation (line breaks are ignored; write <Enter>).
    #[arg(long, value_name = "FILE")]
    keys_file: Option<PathBuf>,
    /// Which frames to print.
    #[arg(long, value_enum, default_value = "last")]
    frames: Frames,
    /// Frame size, WIDTHxHEIGHT.
    #[arg(long, default_value = "80x24", value_parser = harness::play::parse_size)]
    size: (u16, u16),
    /// Load monsters.ron and items.ron from this directory instead of the
    /// embedded content.
    #[arg(long, value_name = "DIR")]
    content: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(args) => play(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(exit::ERROR)
        }
    }
}

fn play(args: PlayArgs) -> Result<u8, String> {
    let keys = match (&args.keys, &args.keys_file) {
        (Some(text), _) => harness::keys_input::from_arg(text)?,
        (None, Some(path)) => harness::keys_input::from_file(path)?,
        (None, None) => unreachable!("clap requires --keys or --keys-file"),
    };
    let content = match &args.content {
        Some(dir) => harness::content_dir::load(dir)?,
        None => Arc::new(Content::embedded()),
    };
    let config = GameConfig {
        seed: RunSeed(args.seed),
        content,
        width: game_core::map::DEFAULT_WIDTH,
        height: game_core::map::DEFAULT_HEIGHT,
    };
    let mut game = Game::new(config).map_err(|e| e.to_string())?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let end = harness::play::play(&mut game, &keys, args.frames, args.size, &mut out)
        .map_err(|e| format!("writing frames: {e}"))?;
    out.flush().map_err(|e| format!("writing frames: {e}"))?;
    match end {
        PlayEnd::Finished => Ok(exit::OK),
        PlayEnd::Stuck { step, key, stuck } => {
            eprintln!("failure at step {step} (key {key}): {stuck}");
            Ok(exit::FAILURE)
        }
    }
}
