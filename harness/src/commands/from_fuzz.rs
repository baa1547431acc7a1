//! `deja from-fuzz`: an `intents` or `keys` artifact becomes a recording that
//! reproduces its failure, through the same code the fuzz target ran.

use std::path::PathBuf;

use arbitrary::{Arbitrary, Unstructured};
use clap::Args;
use game_core::Key;
use game_core::canary::Canaries;

use crate::commands::args::parse_canary;
use crate::fuzz::{self, IntentsInput, KeysInput};
use crate::plumbing::error::{CommandResult, Error};
use crate::plumbing::exit::Exit;
use crate::recording::FailureKind;

#[derive(Args)]
pub struct FromFuzzArgs {
    /// The fuzz target that found it.
    #[arg(value_name = "TARGET", value_enum)]
    pub target: FuzzTarget,
    /// The artifact file libFuzzer wrote (fuzz/artifacts/TARGET/crash-...).
    #[arg(value_name = "ARTIFACT")]
    pub artifact: PathBuf,
    /// Where to write the recording.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// The canaries the fuzz run planted (its DEJA_FUZZ_CANARIES). Repeatable.
    #[arg(long, value_name = "NAME", value_parser = parse_canary())]
    pub canary: Vec<game_core::canary::Canary>,
}

/// The fuzz targets (fuzz/fuzz_targets/), as `from-fuzz` takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FuzzTarget {
    /// A run of the game from a seed and intents: becomes a recording.
    Intents,
    /// A run of the game from a seed and raw keys: becomes a recording.
    Keys,
    /// Floor generation (not a run: reproduce with `cargo fuzz run mapgen ARTIFACT`).
    Mapgen,
    /// The recording reader (not a run: `cargo fuzz run recording ARTIFACT`).
    Recording,
    /// The content loader (not a run: `cargo fuzz run content ARTIFACT`).
    Content,
    /// Sight against its oracle (not a run: `cargo fuzz run sight ARTIFACT`).
    Sight,
}

impl FuzzTarget {
    /// The target's name, as cargo fuzz and fuzz/corpus/ spell it.
    pub fn name(self) -> &'static str {
        match self {
            FuzzTarget::Intents => "intents",
            FuzzTarget::Keys => "keys",
            FuzzTarget::Mapgen => "mapgen",
            FuzzTarget::Recording => "recording",
            FuzzTarget::Content => "content",
            FuzzTarget::Sight => "sight",
        }
    }
}

/// Largest artifact read: libFuzzer's inputs are far smaller.
const MAX_ARTIFACT_BYTES: u64 = 1024 * 1024;

pub fn run(args: FromFuzzArgs) -> CommandResult {
    let bytes = crate::plumbing::files::read_bytes(&args.artifact, MAX_ARTIFACT_BYTES)?;
    crate::plumbing::files::check_output_file(&args.output, std::slice::from_ref(&args.artifact))?;
    let canaries = args
        .canary
        .iter()
        .fold(Canaries::NONE, |set, &c| set.with(c));
    if !canaries.is_empty() && !Canaries::AVAILABLE {
        return Err(game_core::game::ConfigError::CanariesUnavailable
            .to_string()
            .into());
    }
    // A libFuzzer timeout is a hang here too: its recording goes to -o.
    let to = crate::plumbing::files::Destination::Named(args.output.clone());
    crate::run::watchdog::on_hang(Box::new(move |hang| {
        crate::run::watchdog::report_written(hang, &to);
    }));
    let runner = play_artifact(&args, &bytes, canaries)?;
    let note = format!(
        "From the {} fuzz artifact {}.",
        args.target.name(),
        args.artifact
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    );
    if let Some(failure) = runner.failure()
        && driver_failure_reported(failure, &args)
    {
        return Ok(Exit::Failure);
    }
    let recording = runner.recording(note);
    crate::recording::write(&args.output, &recording)?;
    let output = crate::plumbing::printable::path(&args.output);
    let err = |line: String| crate::plumbing::output::err(format_args!("{line}"));
    match runner.failure() {
        Some(failure) => {
            err(format!(
                "{} keys, failing at step {}: {}",
                recording.keys.len(),
                failure.step,
                failure.kind
            ));
            err(format!(
                "wrote {output}; reproduce with: deja replay {output}"
            ));
            err(format!("shrink with: deja shrink {output} -o small.ron"));
            Ok(Exit::Failure)
        }
        None => {
            err(format!(
                "warning: the artifact does not fail in this build (a canary run? pass the same --canary); wrote the run anyway to {output}"
            ));
            Ok(Exit::Ok)
        }
    }
}

/// The artifact's bytes read as libfuzzer-sys reads them into its target's
/// typed input, and played as the target plays it, every key hashed.
fn play_artifact(
    args: &FromFuzzArgs,
    bytes: &[u8],
    canaries: Canaries,
) -> Result<crate::run::runner::Runner, Error> {
    let artifact = crate::plumbing::printable::path(&args.artifact);
    let unstructured = Unstructured::new(bytes);
    match args.target {
        FuzzTarget::Intents => {
            let input = IntentsInput::arbitrary_take_rest(unstructured)
                .map_err(|e| format!("{artifact}: not an intents input: {e}"))?;
            crate::plumbing::output::note(format!(
                "input: seed {}, {} intents",
                input.seed,
                input.intents.len()
            ));
            Ok(fuzz::play_intents_recorded(&input, canaries))
        }
        FuzzTarget::Keys => {
            let input = KeysInput::arbitrary_take_rest(unstructured)
                .map_err(|e| format!("{artifact}: not a keys input: {e}"))?;
            let keys = fuzz::lenient_keys(&input.keys);
            crate::plumbing::output::note(format!(
                "input: seed {}, {} keys: {}",
                input.seed,
                keys.len(),
                Key::format_all(&keys)
            ));
            Ok(fuzz::play_keys_recorded(&input, canaries))
        }
        other => Err(format!(
            "from-fuzz turns intents and keys artifacts into recordings; a {} artifact is not a run of the game. Reproduce it with: cargo fuzz run {} {artifact}",
            other.name(),
            other.name(),
        ).into()),
    }
}

/// A failure of the intents driver's own promise (`Game::apply` against the
/// keys, or an aim), said with the command that reproduces it: a recording
/// replays keys, not intents, so it could not show this, and none is
/// written; the artifact is the reproducer. False for any other failure.
fn driver_failure_reported(failure: &crate::recording::Failure, args: &FromFuzzArgs) -> bool {
    let FailureKind::Invariant { id, .. } = &failure.kind else {
        return false;
    };
    if !fuzz::is_driver_failure(id) {
        return false;
    }
    crate::plumbing::output::err(format_args!(
        "the intents driver failed at step {}: {}",
        failure.step, failure.kind
    ));
    crate::plumbing::output::err(format_args!(
        "this is a failure of the intents (Game::apply, Game::keys_for), not of a key, so no recording of keys can show it and none was written; reproduce it with: cargo fuzz run intents {}",
        crate::plumbing::printable::path(&args.artifact)
    ));
    true
}
