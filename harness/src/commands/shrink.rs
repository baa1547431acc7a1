//! `deja shrink`: the smallest recording that still fails the same way.
//!
//! Each candidate is a run of its keys, so shrinking a long recording takes
//! minutes (5,000 candidates of a 100,000-key recording, over an hour): it
//! says where it stands on standard error as it goes, and SIGINT or SIGTERM
//! stop it at the next candidate with the smallest failing recording found
//! so far written to `-o`, which a second `deja shrink` goes on from.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;

use crate::commands::args::ContentArgs;
use crate::plumbing::error::CommandResult;
use crate::plumbing::exit::Exit;
use crate::replay::shrink::{Status, Watch, count_keys};

#[derive(Args)]
pub struct ShrinkArgs {
    /// A recording that fails (a bug report).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Where to write the shrunk recording.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Most candidate runs to try.
    #[arg(long, default_value_t = crate::replay::shrink::DEFAULT_MAX_TRIES, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_tries: u32,
    #[command(flatten)]
    pub content: ContentArgs,
}

pub fn run(args: ShrinkArgs) -> CommandResult {
    let recording = crate::recording::read(&args.file)?;
    let inputs = [vec![args.file.clone()], args.content.files()].concat();
    crate::plumbing::files::check_output_file(&args.output, &inputs)?;
    let content = super::load_content(&args.content)?;
    // A signal stops the shrink at its next candidate, which then writes
    // what it has. A second one ends the process at once with 130: -o is
    // written atomically, so it is left as it was.
    let stop = crate::plumbing::interrupt::stop_on_signals(true);
    // Said once the recording is seen to fail (the first run), so a file
    // with nothing to shrink gets its refusal alone.
    let intro = format!(
        "shrinking {} ({}), at most {} runs; Ctrl-C stops at the next run and writes the smallest failing recording found so far",
        crate::plumbing::printable::path(&args.file),
        count_keys(recording.keys.len()),
        args.max_tries
    );
    let mut progress = Progress::new(std::io::stderr().is_terminal(), Instant::now(), intro);
    let shrunk = crate::replay::shrink::shrink_watched(
        &recording,
        content,
        args.content.content.as_deref(),
        args.max_tries,
        Watch {
            stop: Some(stop),
            status: &mut |status| progress.show(status, Instant::now()),
        },
    );
    progress.finish();
    let shrunk =
        shrunk.map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(&args.file)))?;
    crate::recording::write(&args.output, &shrunk.recording)?;
    let failure = shrunk
        .recording
        .failure
        .as_ref()
        .map_or_else(String::new, |f| format!(" (step {}: {})", f.step, f.kind));
    let (said, written, code) = if shrunk.interrupted {
        (
            "INTERRUPTED: ",
            ", the smallest failing recording found so far",
            Exit::Interrupted,
        )
    } else {
        ("", "", Exit::Ok)
    };
    let spent = if shrunk.budget_spent {
        " (the budget ran out; a larger --max-tries may shrink further)"
    } else {
        ""
    };
    crate::plumbing::output::out(format!(
        "{said}{}: {} -> {}, the same failure{failure}; {} runs tried{spent}",
        crate::plumbing::printable::path(&args.file),
        count_keys(shrunk.keys_before),
        count_keys(shrunk.keys_after),
        shrunk.tries,
    ))?;
    let out = crate::plumbing::printable::path(&args.output);
    crate::plumbing::output::out(format!(
        "wrote {out}{written}; reproduce with: deja replay {out}"
    ))?;
    if shrunk.interrupted {
        crate::plumbing::output::out(format!(
            "shrink it further, going on from there, with: deja shrink {out} -o SMALLER.ron"
        ))?;
    }
    Ok(code)
}

/// How often the line on a terminal is redrawn, at most.
const REDRAWS_PER_SECOND: u8 = 4;
/// The longest a log goes without a line while the shrink runs.
const PLAIN_LINE_EVERY: Duration = Duration::from_secs(10);

/// Where the shrink stands, on standard error, left out with `--quiet`: on
/// a terminal one line redrawn in place; otherwise a plain line at each
/// tenth of the budget and at least every [`PLAIN_LINE_EVERY`] between, so
/// a CI log stays readable. The clock only paces what is printed.
struct Progress {
    /// What is being shrunk, said before the first status.
    intro: Option<String>,
    bar: Option<indicatif::ProgressBar>,
    plain: bool,
    started: Instant,
    last_line: Instant,
    /// The tenth of the budget the last plain line was at.
    last_tenth: u32,
}

impl Progress {
    fn new(terminal: bool, now: Instant, intro: String) -> Progress {
        let shown = !crate::plumbing::output::quiet();
        let bar = (shown && terminal).then(|| {
            let bar = indicatif::ProgressBar::with_draw_target(
                None,
                indicatif::ProgressDrawTarget::stderr_with_hz(REDRAWS_PER_SECOND),
            );
            bar.set_style(
                indicatif::ProgressStyle::with_template("{wide_msg}").expect("a valid template"),
            );
            bar
        });
        Progress {
            intro: Some(intro),
            bar,
            plain: shown && !terminal,
            started: now,
            last_line: now,
            last_tenth: 0,
        }
    }

    fn show(&mut self, status: &Status, now: Instant) {
        if let Some(intro) = self.intro.take() {
            crate::plumbing::output::note(intro);
        }
        if let Some(bar) = &self.bar {
            bar.set_message(line(status, now - self.started));
            return;
        }
        if self.plain_line_due(status, now) {
            crate::plumbing::output::err(line(status, now - self.started));
        }
    }

    /// Whether a log gets a line for `status` at `now`, noting it if so.
    fn plain_line_due(&mut self, status: &Status, now: Instant) -> bool {
        let tenth = tenth_of(status);
        let due =
            self.plain && (tenth > self.last_tenth || now - self.last_line >= PLAIN_LINE_EVERY);
        if due {
            self.last_tenth = tenth;
            self.last_line = now;
        }
        due
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Which tenth of its budget a shrink has spent, 0 to 10.
fn tenth_of(status: &Status) -> u32 {
    let tenth = u64::from(status.tries) * 10 / u64::from(status.max_tries.max(1));
    tenth.min(10) as u32
}

/// `shrink: 520 of at most 5000 runs, 1500 keys now (from 2001), removing
/// chunks of 2 keys; 1 min 04 s, at most about 9 min more`.
fn line(status: &Status, elapsed: Duration) -> String {
    let mut text = format!(
        "shrink: {} of at most {} runs, {} now (from {}), {}; {}",
        status.tries,
        status.max_tries,
        count_keys(status.keys_now),
        status.keys_before,
        status.pass,
        duration(elapsed)
    );
    // Each run is of at most the keys kept so far, so the pace so far
    // bounds what the rest of the budget takes, give or take.
    if status.tries > 0 {
        let left = status.max_tries.saturating_sub(status.tries);
        let more = elapsed.mul_f64(f64::from(left) / f64::from(status.tries));
        text.push_str(&format!(", at most about {} more", duration(more)));
    }
    text
}

/// `45 s`, `3 min 05 s`, `1 h 10 min`.
fn duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::shrink::Pass;

    fn at(tries: u32, keys_now: usize) -> Status {
        Status {
            tries,
            max_tries: 5000,
            keys_before: 100_000,
            keys_now,
            pass: Pass::RemoveChunks { size: 64 },
        }
    }

    #[test]
    fn the_line_says_runs_keys_pass_and_time() {
        assert_eq!(
            line(&at(0, 100_000), Duration::from_millis(900)),
            "shrink: 0 of at most 5000 runs, 100000 keys now (from 100000), removing chunks of 64 keys; 0 s"
        );
        assert_eq!(
            line(&at(500, 2345), Duration::from_secs(425)),
            "shrink: 500 of at most 5000 runs, 2345 keys now (from 100000), removing chunks of 64 keys; 7 min 05 s, at most about 1 h 03 min more"
        );
    }

    #[test]
    fn a_log_gets_a_line_at_each_tenth_and_after_a_quiet_while() {
        let start = Instant::now();
        let mut progress = Progress {
            intro: None,
            bar: None,
            plain: true,
            started: start,
            last_line: start,
            last_tenth: 0,
        };
        let shown: Vec<u32> = [1, 499, 500, 501, 999, 1000]
            .into_iter()
            .filter(|&tries| {
                let now = start + Duration::from_millis(u64::from(tries));
                progress.plain_line_due(&at(tries, 10), now)
            })
            .collect();
        assert_eq!(shown, [500, 1000], "one line at each tenth");
        let later = start + PLAIN_LINE_EVERY + Duration::from_secs(2);
        assert!(
            progress.plain_line_due(&at(1001, 10), later),
            "and one after a quiet while"
        );
        assert!(!progress.plain_line_due(&at(1002, 10), later));
    }
}
