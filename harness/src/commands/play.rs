//! `deja play`: play at the terminal, recording every key, or press
//! scripted keys and print frames. Either may start from a step of another
//! recording (`--from FILE --at STEP`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use game_core::canary::Canaries;
use game_core::content::Content;
use game_core::{GameConfig, Key, RunSeed};

use crate::commands::args::{ContentArgs, parse_canary};
use crate::play::frames::{FramePrinter, Frames};
use crate::play::session::Autosave;
use crate::plumbing::error::{CommandResult, Error};
use crate::plumbing::exit::Exit;
use crate::plumbing::files::Destination;
use crate::recording::Origin;
use crate::run::runner::Runner;

#[derive(Args)]
#[command(group(clap::ArgGroup::new("script").args(["keys", "keys_file"])))]
pub struct PlayArgs {
    /// The run's seed (default: 1 for scripted keys, a fresh one from the
    /// OS for a player at the terminal).
    #[arg(long, conflicts_with = "from")]
    pub seed: Option<u64>,
    /// Keys in key notation, e.g. 'llll>' or 'i<Esc>;<Tab><Enter>'. Without
    /// --keys or --keys-file the game opens in the terminal.
    #[arg(long)]
    pub keys: Option<String>,
    /// A file of key notation (line breaks are ignored; write <Enter>; `#`
    /// and the spaces before it start a comment to the end of the line: the
    /// key `#` is <U+23>, a space there <Space>); `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    pub keys_file: Option<PathBuf>,
    /// Take control of this recording: replay it (checked against its
    /// hashes) to --at, then go on from there.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// With --from: the step to take control at (default: its last good
    /// step).
    #[arg(long, value_name = "STEP", requires = "from")]
    pub at: Option<u64>,
    /// Which frames to print (scripted keys only).
    #[arg(long, value_enum, default_value = "last")]
    pub frames: Frames,
    /// Frame size, WIDTHxHEIGHT, that the checks draw and read the run's
    /// frames at, and that the recording keeps (the terminal shows the game at its
    /// own size). Default: 80x24, or with --from the recording's own.
    #[arg(long, value_parser = crate::play::frames::parse_frame_size)]
    pub size: Option<(u16, u16)>,
    /// Map size, WIDTHxHEIGHT.
    #[arg(long, default_value = "80x40", value_parser = crate::play::frames::parse_map_size, conflicts_with = "from")]
    pub map_size: (u16, u16),
    /// Write the run as a recording here (`-`: standard output, for a
    /// scripted run with --frames none). Scripted runs are written only when
    /// given (a failure is always written, here or to a default path); a run
    /// at the terminal is always recorded, by default to a new file in the
    /// platform's state directory, and the file is whole after every key.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The recording's note: what it shows.
    #[arg(long, default_value = "")]
    pub note: String,
    /// Switch on a planted defect (testing the harness; needs a build with
    /// the `canary` feature). Repeatable.
    #[arg(long, value_name = "NAME", value_parser = parse_canary(), conflicts_with = "from")]
    pub canary: Vec<game_core::canary::Canary>,
    #[command(flatten)]
    pub content: ContentArgs,
}

pub fn run(args: PlayArgs) -> CommandResult {
    let note_chars = args.note.chars().count();
    if note_chars > crate::recording::MAX_NOTE_CHARS {
        return Err(format!(
            "--note is {note_chars} characters; a recording's note holds at most {}",
            crate::recording::MAX_NOTE_CHARS
        )
        .into());
    }
    let keys = read_keys_and_check_outputs(&args)?;
    let content = super::load_content(&args.content)?;
    let (runner, origin) = match &args.from {
        Some(from) => match take_over(from, args.at, args.size, content)? {
            Ok(found) => found,
            Err(code) => return Ok(code),
        },
        None => (new_run(&args, keys.is_some(), content)?, None),
    };
    match keys {
        Some(keys) => {
            // Checked before a key is pressed: a run longer than a
            // recording holds could not be written down at the end.
            let taken_over = runner.keys().len();
            if taken_over + keys.len() > crate::recording::MAX_KEYS {
                return Err(format!(
                    "{taken_over} keys taken over and {} scripted make {}, over the {} a recording holds; script fewer",
                    keys.len(),
                    taken_over + keys.len(),
                    crate::recording::MAX_KEYS
                ).into());
            }
            play_script(&args, runner, origin, &keys)
        }
        None => {
            let note = args.note.clone();
            let autosave = match &args.output {
                Some(path) => Autosave::named(path.clone(), note, origin),
                None => Autosave::in_state_dir(&runner, note, origin)?,
            };
            // Taken before the terminal goes raw, so a signal never ends
            // the process with the terminal left so.
            crate::plumbing::interrupt::stop_on_signals(false);
            let screen = crate::play::terminal::Screen::open(crate::plumbing::output::colors())?;
            crate::play::session::play(screen, runner, &autosave)
        }
    }
}

/// The scripted keys, if any, and the command's outputs checked before a
/// key is pressed: a terminal to play in, `-o -` only where it fits, the
/// recording never over an input, canaries only in a canary build.
fn read_keys_and_check_outputs(args: &PlayArgs) -> Result<Option<Vec<Key>>, Error> {
    let keys = match (&args.keys, &args.keys_file) {
        (Some(text), _) => Some(crate::recording::keys_input::from_arg(text)?),
        (None, Some(path)) => Some(crate::recording::keys_input::from_file(path)?),
        (None, None) => None,
    };
    if keys.is_none() && !crate::play::terminal::is_terminal() {
        return Err(
            "there is no terminal to play in; give --keys or --keys-file to play scripted keys"
                .into(),
        );
    }
    if args
        .output
        .as_deref()
        .is_some_and(crate::plumbing::files::is_stdout)
    {
        if keys.is_none() {
            return Err("-o -: the terminal is the game's; give a file for the recording".into());
        }
        if args.frames != crate::play::frames::Frames::None {
            return Err(
                "-o - puts the recording on standard output, where the frames go; add --frames none"
                    .into(),
            );
        }
    }
    if let Some(record) = &args.output {
        let inputs: Vec<PathBuf> = [args.from.clone(), args.keys_file.clone()]
            .into_iter()
            .flatten()
            .chain(args.content.files())
            .collect();
        crate::plumbing::files::check_output_file(record, &inputs)?;
    }
    if !args.canary.is_empty() && !Canaries::AVAILABLE {
        return Err(game_core::game::ConfigError::CanariesUnavailable
            .to_string()
            .into());
    }
    Ok(keys)
}

/// A new run from the seed given (1 for scripted keys, a fresh one for a
/// player at the terminal), at the map and frame sizes asked for.
fn new_run(args: &PlayArgs, scripted: bool, content: Arc<Content>) -> Result<Runner, Error> {
    let seed = match (args.seed, scripted) {
        (Some(seed), _) => seed,
        (None, true) => 1,
        (None, false) => fresh_seed()?,
    };
    let config = GameConfig {
        seed: RunSeed(seed),
        content,
        width: i32::from(args.map_size.0),
        height: i32::from(args.map_size.1),
        canaries: args
            .canary
            .iter()
            .fold(Canaries::NONE, |set, &c| set.with(c)),
    };
    // A player sees every frame, so the checks read every one: a frame
    // that cannot be drawn is then a failure the recording reproduces,
    // whichever key it came after.
    let settings = crate::run::runner::Settings {
        frame: args.size.unwrap_or(crate::recording::DEFAULT_FRAME),
        frame_every: 1,
        ..crate::run::runner::Settings::default()
    };
    Runner::with_settings(config, 1, settings)
}

/// A fresh seed from the OS for a player who gave none. It is printed on
/// screen and kept in the recording, so the run replays.
fn fresh_seed() -> Result<u64, Error> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| format!("asking the OS for a seed: {e}"))?;
    Ok(u64::from_le_bytes(bytes))
}

/// A runner at `at` of the recording in `from`, checked against it on the
/// way, and where it came from; or the exit code of the drift or failure
/// that stopped it (said on standard error, as replay says it).
pub fn take_over(
    from: &Path,
    at: Option<u64>,
    frame: Option<(u16, u16)>,
    content: std::sync::Arc<game_core::content::Content>,
) -> Result<Result<(Runner, Option<Origin>), Exit>, Error> {
    let recording = crate::recording::read(from)?;
    let at = at.unwrap_or_else(|| recording.hash_count().saturating_sub(1));
    let name = crate::plumbing::printable::path(from);
    match crate::replay::take_over(&recording, content, at, frame)
        .map_err(|e| format!("{name}: --at {at}: {e}"))?
    {
        Ok(runner) => Ok(Ok((
            runner,
            Some(Origin {
                file: name.to_string(),
                step: at,
            }),
        ))),
        Err(verdict) => {
            crate::plumbing::output::err(format_args!(
                "{name}: cannot take control at step {at}: {verdict}"
            ));
            Ok(Err(verdict.exit()))
        }
    }
}

/// Presses the script's keys, printing frames; writes the recording when
/// asked or when a failure was found.
fn play_script(
    args: &PlayArgs,
    mut runner: Runner,
    origin: Option<Origin>,
    keys: &[game_core::Key],
) -> CommandResult {
    let seed = runner.game().state().seed.0;
    report_hangs_to(args.output.clone());
    press_printing_frames(args, &mut runner, keys)?;
    let mut recording = runner.recording(args.note.clone());
    recording.origin = origin;
    match runner.failure() {
        None => {
            if let Some(path) = &args.output {
                crate::recording::write(path, &recording)?;
                crate::plumbing::output::note(format!(
                    "recorded {} to {}",
                    crate::replay::shrink::count_keys(recording.keys.len()),
                    crate::plumbing::printable::path(path)
                ));
            }
            Ok(Exit::Ok)
        }
        Some(failure) => {
            let key = runner
                .keys()
                .last()
                .filter(|_| failure.step > 0)
                .map_or_else(|| "the start".to_string(), |k| format!("key {k}"));
            crate::plumbing::output::err(format_args!(
                "failure at step {} ({key}): {}",
                failure.step, failure.kind
            ));
            let to = match &args.output {
                Some(path) => Destination::Named(path.clone()),
                None => crate::recording::default_report(seed, failure.step),
            };
            super::write_bug_report(&to, &recording)?;
            Ok(Exit::Failure)
        }
    }
}

/// A hang's report goes where the run's recording would (`-o`), or to a
/// new bug report.
fn report_hangs_to(output: Option<PathBuf>) {
    crate::run::watchdog::on_hang(Box::new(move |hang| {
        let step = hang.recording.failure.as_ref().map_or(0, |f| f.step);
        let to = match &output {
            Some(path) => Destination::Named(path.clone()),
            None => crate::recording::default_report(hang.recording.seed, step),
        };
        crate::run::watchdog::report_written(hang, &to);
    }));
}

/// Presses `keys` until one fails, printing the frames `--frames` asks for:
/// the ones the runner draws and the recording keeps.
fn press_printing_frames(
    args: &PlayArgs,
    runner: &mut Runner,
    keys: &[game_core::Key],
) -> Result<(), Error> {
    let (width, height) = runner.settings().frame;
    let printer = FramePrinter {
        mode: args.frames,
        width,
        height,
    };
    // Not locked for the whole run: the watchdog must be able to say a
    // hang's verdict while the key that hangs holds this thread.
    let mut out = std::io::stdout();
    let io = |e: std::io::Error| match crate::plumbing::output::output_error(e) {
        Error::Refused(why) => Error::Refused(format!("writing frames: {why}")),
        closed => closed,
    };
    printer
        .step(&mut out, runner.step(), None, runner.game())
        .map_err(io)?;
    for &key in keys {
        if runner.failure().is_some() {
            break;
        }
        let pressed = runner.press(key);
        printer
            .step(&mut out, runner.step(), Some(key), runner.game())
            .map_err(io)?;
        if pressed.is_err() {
            break;
        }
    }
    printer.finish(&mut out, runner.game()).map_err(io)?;
    out.flush().map_err(io)
}
