//! `deja play`: press scripted keys, print frames, and write the run down.

use std::io::Write;

use game_core::canary::Canaries;
use game_core::{GameConfig, RunSeed};

use crate::cli::PlayArgs;
use crate::exit;
use crate::frames::FramePrinter;
use crate::runner::Runner;

pub fn run(args: PlayArgs) -> Result<u8, String> {
    let note_chars = args.note.chars().count();
    if note_chars > crate::recording::MAX_NOTE_CHARS {
        return Err(format!(
            "--note is {note_chars} characters; a recording's note holds at most {}",
            crate::recording::MAX_NOTE_CHARS
        ));
    }
    let keys = match (&args.keys, &args.keys_file) {
        (Some(text), _) => crate::keys_input::from_arg(text)?,
        (None, Some(path)) => crate::keys_input::from_file(path)?,
        (None, None) => unreachable!("clap requires --keys or --keys-file"),
    };
    let content = super::load_content(&args.content)?;
    let config = GameConfig {
        seed: RunSeed(args.seed),
        content,
        width: i32::from(args.map_size.0),
        height: i32::from(args.map_size.1),
        canaries: args
            .canary
            .iter()
            .fold(Canaries::NONE, |set, &c| set.with(c)),
    };
    let report_to = args.record.clone();
    crate::watchdog::on_hang(Box::new(move |hang| {
        let step = hang.recording.failure.as_ref().map_or(0, |f| f.step);
        let path = report_to
            .clone()
            .unwrap_or_else(|| super::default_report_path(hang.recording.seed, step));
        crate::watchdog::report_written(hang, &path);
    }));
    let settings = crate::runner::Settings {
        frame: args.size,
        progress_limit: None,
    };
    let mut runner = Runner::with_settings(config, 1, settings)?;
    let printer = FramePrinter {
        mode: args.frames,
        width: args.size.0,
        height: args.size.1,
    };
    // Not locked for the whole run: the watchdog must be able to say a
    // hang's verdict while the key that hangs holds this thread.
    let mut out = std::io::stdout();
    let io = |e: std::io::Error| format!("writing frames: {e}");
    printer.step(&mut out, 0, None, runner.game()).map_err(io)?;
    for &key in &keys {
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
    out.flush().map_err(io)?;

    let recording = runner.recording(args.note.clone());
    match runner.failure() {
        None => {
            if let Some(path) = &args.record {
                crate::recording::write(path, &recording)?;
                eprintln!(
                    "recorded {} keys to {}",
                    recording.keys.len(),
                    path.display()
                );
            }
            Ok(exit::OK)
        }
        Some(failure) => {
            let key = runner
                .keys()
                .last()
                .filter(|_| failure.step > 0)
                .map_or_else(|| "the start".to_string(), |k| format!("key {k}"));
            eprintln!("failure at step {} ({key}): {}", failure.step, failure.kind);
            let path = args
                .record
                .clone()
                .unwrap_or_else(|| super::default_report_path(args.seed, failure.step));
            super::write_bug_report(&path, &recording)?;
            Ok(exit::FAILURE)
        }
    }
}
