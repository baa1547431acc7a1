//! `deja replay`: re-run recordings and say whether they still hold.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use game_core::content::Content;
use serde::Serialize;

use crate::commands::args::{ContentArgs, Format};
use crate::play::frames::FramePrinter;
use crate::play::frames::Frames;
use crate::play::watch;
use crate::plumbing::error::{CommandResult, Error};
use crate::plumbing::exit::Exit;
use crate::recording::{self, Recording};
use crate::replay::{self, Report, Verdict};

#[derive(Args)]
pub struct ReplayArgs {
    /// Recording files, or directories of them (every *.ron inside, sorted;
    /// a directory implies --summary).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Group the verdicts (same, drift and which parts, reproduced, fixed,
    /// new failure, unmet, unreadable) with counts and a few files each,
    /// for triaging a corpus, instead of a report per file.
    #[arg(long, conflicts_with_all = ["watch", "cast", "frames"])]
    pub summary: bool,
    /// Stop after this many keys.
    #[arg(long, value_name = "N")]
    pub to_step: Option<u64>,
    /// Which frames to print (text format only).
    #[arg(long, value_enum, default_value = "none")]
    pub frames: Frames,
    /// Frame size, WIDTHxHEIGHT.
    #[arg(long, default_value = "80x24", value_parser = crate::play::frames::parse_frame_size)]
    pub size: (u16, u16),
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Watch the recording in the terminal: pause, step back and forth, jump
    /// to a floor, a step, a turn or the failure, take control (? lists the
    /// keys). One file.
    #[arg(long, conflicts_with_all = ["format", "frames", "cast"])]
    pub watch: bool,
    /// Write the playback as an asciicast v2 movie (what asciinema plays) to
    /// -o: one frame per key, at --speed keys per second. One file.
    #[arg(long, conflicts_with_all = ["format", "frames"], requires = "output")]
    pub cast: bool,
    /// Keys per second for --cast, and where --watch starts.
    #[arg(long, default_value_t = crate::play::viewer::DEFAULT_SPEED, value_name = "KEYS", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub speed: u32,
    /// With --cast, where the movie goes (`-`: standard output); with
    /// --watch, where a run taken over (`p`) is recorded (default: a new
    /// file in the platform's state directory).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub content: ContentArgs,
}

pub fn run(args: ReplayArgs) -> CommandResult {
    let content = super::load_content(&args.content)?;
    if args.watch || args.cast {
        let [file] = args.files.as_slice() else {
            return Err(format!(
                "--watch and --cast take one recording; {} were given",
                args.files.len()
            )
            .into());
        };
        if let Some(path) = &args.output {
            if args.watch && crate::plumbing::files::is_stdout(path) {
                return Err(
                    "-o -: the terminal is the viewer's; give a file for a run taken over".into(),
                );
            }
            let inputs = [vec![file.clone()], args.content.files()].concat();
            crate::plumbing::files::check_output_file(path, &inputs)?;
        }
        return match (&args.output, args.cast) {
            (Some(out), true) => {
                watch::cast(file, out, args.size, args.to_step, args.speed, content)
            }
            _ => watch::watch(file, args.speed, args.output.as_deref(), content),
        };
    }
    if args.output.is_some() {
        return Err(
            "-o is where --cast writes its movie or --watch records a run taken over; give one of them"
                .into(),
        );
    }
    let (files, had_directory) = expand_directories(&args.files)?;
    // A signal stops the replays at the next key: the verdicts reached are
    // said, with how many of the files they cover, and the exit is 130.
    crate::plumbing::interrupt::stop_on_signals(true);
    if args.summary || had_directory {
        return summarize(&files, &args, &content);
    }
    replay_each(&files, &args, &content)
}

/// Each file replayed and its verdict said in turn; the worst exit code.
fn replay_each(files: &[PathBuf], args: &ReplayArgs, content: &Arc<Content>) -> CommandResult {
    use crate::plumbing::interrupt;
    let mut worst = Exit::Ok;
    for (replayed, file) in files.iter().enumerate() {
        let replay = if interrupt::requested() {
            Err(Error::Interrupted)
        } else {
            replay_file(file, args, content)
        };
        let code = match replay {
            Ok(code) => code,
            Err(Error::Interrupted) => {
                return interrupted(replayed, files.len(), args.format);
            }
            // The reader went away (`deja replay *.ron | head`): stop
            // quietly, not with an error for every file left.
            Err(Error::OutputClosed) => return Err(Error::OutputClosed),
            Err(error) => {
                if say_unreadable(file, &error, args.format).is_err() {
                    return Ok(worst.max(Exit::Error));
                }
                Exit::Error
            }
        };
        worst = worst.max(code);
    }
    Ok(worst)
}

/// Why `file` could not be replayed, as its line: an error on standard
/// error, or in JSON an object shaped as a readable file's.
fn say_unreadable(file: &Path, error: &Error, format: Format) -> Result<(), Error> {
    // Reading errors name the file already; the rest get it here.
    let name = crate::plumbing::printable::path(file);
    let message = error.to_string();
    let message = match message.strip_prefix(&name) {
        // "FILE: message" or "FILE:LINE:COL: message".
        Some(rest) => rest.strip_prefix(": ").unwrap_or(rest).to_string(),
        None => message,
    };
    if format == Format::Json {
        // One object per file given, unreadable ones too, so a script can
        // pair inputs with outputs.
        let line = serde_json::json!({
            "file": file.to_string_lossy(),
            "verdict": {"verdict": "unreadable", "error": message.trim_start_matches(':')},
        });
        return crate::plumbing::output::out(line);
    }
    if message.starts_with(':') {
        crate::plumbing::output::err(format_args!("error: {name}{message}"));
    } else {
        crate::plumbing::output::err(format_args!("error: {name}: {message}"));
    }
    Ok(())
}

/// Says that a signal stopped the replays after `replayed` of `of` files
/// (on standard output after the verdicts, or on standard error beside
/// JSON); exit 130.
fn interrupted(replayed: usize, of: usize, format: Format) -> CommandResult {
    let line = format!("INTERRUPTED: replayed {replayed} of {of} recordings");
    match format {
        Format::Json => crate::plumbing::output::err(format_args!("{line}")),
        Format::Text => crate::plumbing::output::out(line)?,
    }
    Ok(Exit::Interrupted)
}

/// The most recordings one directory may give (each is read and replayed
/// on its own; the summary keeps their names).
const MAX_DIRECTORY_RECORDINGS: usize = 100_000;

/// The files given, with each directory replaced by the recordings
/// (`*.ron`) in it, sorted; and whether there was a directory.
fn expand_directories(given: &[PathBuf]) -> Result<(Vec<PathBuf>, bool), Error> {
    let mut files = Vec::new();
    let mut had_directory = false;
    for path in given {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        had_directory = true;
        let mut found: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(path)))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "ron") && !p.is_dir())
            .take(MAX_DIRECTORY_RECORDINGS + 1)
            .collect();
        if found.len() > MAX_DIRECTORY_RECORDINGS {
            return Err(format!(
                "{}: more than {MAX_DIRECTORY_RECORDINGS} recordings; give a smaller directory, or the files",
                crate::plumbing::printable::path(path)
            ).into());
        }
        if found.is_empty() {
            return Err(format!(
                "{}: is a directory with no recordings (*.ron) in it",
                crate::plumbing::printable::path(path)
            )
            .into());
        }
        found.sort();
        files.extend(found);
    }
    Ok((files, had_directory))
}

/// Files named in a summary's group, at most.
const FILES_PER_GROUP: usize = 5;

/// `--summary`: every file replayed quietly, the verdicts grouped by what
/// they are (for a drift, which parts differ; for a failure, its
/// signature), largest group first; those reached when a signal stops it.
fn summarize(files: &[PathBuf], args: &ReplayArgs, content: &Arc<Content>) -> CommandResult {
    let (groups, worst, replayed) = grouped_verdicts(files, args, content);
    let stopped = replayed < files.len();
    if args.format == Format::Json {
        let groups: Vec<serde_json::Value> = groups
            .iter()
            .map(|(class, names)| {
                serde_json::json!({"verdict": class, "count": names.len(), "files": names})
            })
            .collect();
        crate::plumbing::output::out(
            serde_json::json!({"recordings": replayed, "groups": groups}),
        )?;
    } else {
        say_groups(&groups, replayed)?;
    }
    if stopped {
        return interrupted(replayed, files.len(), args.format);
    }
    Ok(worst)
}

/// Verdict classes, each with the files it holds.
type Groups = Vec<(String, Vec<String>)>;

/// The files' verdicts by class, largest group first, until a signal
/// stops the replays: the groups, the worst exit code, and how many files
/// were replayed.
fn grouped_verdicts(
    files: &[PathBuf],
    args: &ReplayArgs,
    content: &Arc<Content>,
) -> (Groups, Exit, usize) {
    use std::collections::BTreeMap;
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut worst = Exit::Ok;
    let mut replayed = 0;
    for file in files {
        if crate::plumbing::interrupt::requested() {
            break;
        }
        let name = crate::plumbing::printable::path(file);
        let (class, code) = match recording::read(file).and_then(|recording| {
            replay::report_hangs_against(&recording, name.clone());
            replay::replay(&recording, content.clone(), args.to_step, |_, _, _| {})
        }) {
            Ok(report) => (verdict_class(&report.verdict), report.exit()),
            Err(Error::Interrupted) => break,
            Err(error) => {
                let message = error.to_string();
                // "FILE:LINE:COL: what", grouped by what.
                let what = message.strip_prefix(&name).unwrap_or(&message);
                let what = what.trim_start_matches(|c: char| c == ':' || c.is_ascii_digit());
                let what = crate::sweep::without_numbers(what.trim());
                (format!("unreadable: {what}"), Exit::Error)
            }
        };
        worst = worst.max(code);
        replayed += 1;
        groups
            .entry(class)
            .or_default()
            .push(file.to_string_lossy().into_owned());
    }
    let mut groups: Groups = groups.into_iter().collect();
    groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    (groups, worst, replayed)
}

/// The summary for people: a line per group, with its count and a few of
/// its files.
fn say_groups(groups: &[(String, Vec<String>)], replayed: usize) -> Result<(), Error> {
    crate::plumbing::output::out(format!("replayed {replayed} recordings:"))?;
    let width = groups
        .iter()
        .map(|(_, names)| names.len().to_string().len())
        .max()
        .unwrap_or(1);
    for (class, names) in groups {
        let shown: Vec<&str> = names
            .iter()
            .take(FILES_PER_GROUP)
            .map(String::as_str)
            .collect();
        let more = names.len().saturating_sub(FILES_PER_GROUP);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        // A failure's signature and a file's name are the files' text:
        // each escaped where it is put (the JSON above has its own).
        let escape = crate::plumbing::printable::escape;
        let shown: Vec<String> = shown.iter().map(|n| escape(n).into_owned()).collect();
        crate::plumbing::output::out(format!(
            "  {:>width$}  {}: {}{more}",
            names.len(),
            escape(class),
            shown.join(", ")
        ))?;
    }
    Ok(())
}

/// What a verdict is, for grouping: its kind, and which parts a drift
/// moved or what a failure's signature is.
fn verdict_class(verdict: &Verdict) -> String {
    use crate::sweep::signature;
    match verdict {
        Verdict::Same => "same".into(),
        Verdict::Drift(drift) if drift.parts_differ.is_empty() => {
            format!("drift ({})", drift.what)
        }
        Verdict::Drift(drift) => {
            format!("drift ({} differ)", replay::and_list(&drift.parts_differ))
        }
        Verdict::Reproduced { failure } => format!("reproduced: {}", signature(&failure.kind)),
        Verdict::Fixed { failure } => format!("fixed: {}", signature(&failure.kind)),
        Verdict::NewFailure { failure } => format!("new failure: {}", signature(&failure.kind)),
        Verdict::Unmet { .. } => "unmet: not what it says it shows".into(),
    }
}

/// One line of `--format json` output.
#[derive(Serialize)]
struct JsonReport<'a> {
    file: String,
    #[serde(flatten)]
    report: &'a Report,
}

fn replay_file(file: &Path, args: &ReplayArgs, content: &Arc<Content>) -> CommandResult {
    let recording = recording::read(file)?;
    if let Some(step) = args.to_step
        && step > recording.keys.len() as u64
    {
        return Err(format!(
            "--to-step {step} is past the recording's end: it has {}, so give 0 to {}",
            crate::replay::shrink::count_keys(recording.keys.len()),
            recording.keys.len()
        )
        .into());
    }
    replay::report_hangs_against(&recording, crate::plumbing::printable::path(file));
    let printer = FramePrinter {
        mode: if args.format == Format::Text {
            args.frames
        } else {
            crate::play::frames::Frames::None
        },
        width: args.size.0,
        height: args.size.1,
    };
    // Not locked for the whole run: the watchdog must be able to say a
    // hang's verdict while the key that hangs holds this thread.
    let mut out = std::io::stdout();
    let mut io_error = None;
    let mut last_game = None;
    let report = replay::replay(
        &recording,
        content.clone(),
        args.to_step,
        |step, key, game| {
            if let Err(e) = printer.step(&mut out, step, key, game) {
                io_error.get_or_insert(e);
            }
            if printer.mode == crate::play::frames::Frames::Last {
                last_game = Some(game.clone());
            }
        },
    )?;
    if let Some(e) = io_error {
        return Err(crate::plumbing::output::output_error(e));
    }
    if let Some(game) = &last_game {
        printer
            .finish(&mut out, game)
            .map_err(crate::plumbing::output::output_error)?;
    }
    if args.format == Format::Json {
        // The name as it is: JSON escapes what it must itself.
        let line = serde_json::to_string(&JsonReport {
            file: file.to_string_lossy().into_owned(),
            report: &report,
        })
        .map_err(|e| format!("writing the report: {e}"))?;
        crate::plumbing::output::line_to(&mut out, format_args!("{line}"))?;
        return Ok(report.exit());
    }
    let name = crate::plumbing::printable::path(file);
    say_verdict(&mut out, &name, &report, &recording, content, args.size)?;
    Ok(report.exit())
}

/// A replay's verdict in words, after its warnings; a drift with its frames,
/// a new failure with its bug report written.
fn say_verdict(
    out: &mut std::io::Stdout,
    name: &str,
    report: &replay::Report,
    recording: &Recording,
    content: &Arc<Content>,
    size: (u16, u16),
) -> Result<(), Error> {
    replay::say_warnings(name, &report.warnings);
    let summary = format!(
        "{} steps, {} turns, {}",
        report.steps, report.turns, report.outcome
    );
    match &report.verdict {
        Verdict::Same if crate::plumbing::output::quiet() => {}
        Verdict::Same => {
            crate::plumbing::output::line_to(out, format_args!("{name}: same: {summary}"))?;
        }
        Verdict::Unmet { .. } => {
            crate::plumbing::output::line_to(
                out,
                format_args!("{name}: {}; replayed the same: {summary}", report.verdict),
            )?;
        }
        Verdict::Drift(drift) => {
            crate::plumbing::output::line_to(out, format_args!("{name}: {drift}"))?;
            show_drift(out, drift.step, recording, content, size)?;
        }
        Verdict::Reproduced { failure } => {
            crate::plumbing::output::line_to(
                out,
                format_args!(
                    "{name}: reproduced at step {}: {}",
                    failure.step, failure.kind
                ),
            )?;
        }
        Verdict::Fixed { failure } => {
            crate::plumbing::output::line_to(
                out,
                format_args!(
                    "{name}: fixed: the recorded failure at step {} ({}) no longer happens; {summary}. Run `deja bless {name}` to update the recording",
                    failure.step, failure.kind
                ),
            )?;
        }
        Verdict::NewFailure { failure } => {
            crate::plumbing::output::line_to(
                out,
                format_args!("{name}: failure at step {}: {}", failure.step, failure.kind),
            )?;
            let bug_report = bug_report(recording, content.clone(), name)?;
            super::write_bug_report(
                &recording::default_report(recording.seed, failure.step),
                &bug_report,
            )?;
        }
    }
    Ok(())
}

/// A drift's frames: the start as replayed when nothing matched, or the last
/// matching frame beside the first differing one.
fn show_drift(
    out: &mut std::io::Stdout,
    step: u64,
    recording: &Recording,
    content: &Arc<Content>,
    (w, h): (u16, u16),
) -> Result<(), Error> {
    if step == 0 {
        // Nothing matched: the start itself differs.
        let start = replay::game_at(recording, content.clone(), 0)?
            .frame(w, h)
            .to_text();
        crate::plumbing::output::line_to(out, format_args!("the start, as replayed:\n{start}"))?;
        return Ok(());
    }
    let before = step - 1;
    let left = replay::game_at(recording, content.clone(), before)?
        .frame(w, h)
        .to_text();
    let right = replay::game_at(recording, content.clone(), step)?
        .frame(w, h)
        .to_text();
    write!(
        out,
        "{}",
        replay::two_frames(
            (&format!("last matching frame (step {before})"), &left),
            (
                &format!("first differing frame (step {step}, replayed)"),
                &right
            ),
            usize::from(w),
            crate::play::terminal::output_columns(),
        )
    )
    .map_err(crate::plumbing::output::output_error)?;
    Ok(())
}

/// The recording's keys re-run up to and including the failure, written as a
/// bug report.
fn bug_report(
    recording: &Recording,
    content: Arc<Content>,
    from: &str,
) -> Result<Recording, Error> {
    let mut runner = replay::start(recording, content)?;
    for &key in &recording.keys {
        if runner.press(key).is_err() {
            break;
        }
    }
    let note: String = format!("Found replaying {from}. {}", recording.note)
        .chars()
        .take(crate::recording::MAX_NOTE_CHARS)
        .collect();
    Ok(runner.recording(note))
}
