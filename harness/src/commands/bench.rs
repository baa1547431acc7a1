//! `deja bench`: how fast a recording replays, hashing every step.
//!
//! A run of `--keys` keys is played first (a seeded mix weighted toward
//! exploring and fighting, so it goes down the floors), then replayed
//! `--runs` times with every step's state hash checked. The median is
//! reported: the machines are shared, so read medians and ratios.

use std::sync::Arc;
use std::time::Instant;

use game_core::content::Content;
use game_core::{GameConfig, Key, RunSeed};

use crate::cli::BenchArgs;
use crate::exit;
use crate::replay::{self, Verdict};
use crate::runner::Runner;

pub fn run(args: BenchArgs) -> Result<u8, String> {
    let content = Arc::new(Content::embedded());
    let recording = bench_run(args.seed, args.keys, content.clone())?;
    let steps = recording.keys.len();
    let mut rates = Vec::new();
    let mut turns = 0;
    for _ in 0..args.runs {
        let started = Instant::now();
        let report = replay::replay(&recording, content.clone(), None, |_, _, _| {})?;
        let seconds = started.elapsed().as_secs_f64();
        if report.verdict != Verdict::Same {
            return Err(format!(
                "the bench run did not replay the same: {:?}",
                report.verdict
            ));
        }
        turns = report.turns;
        rates.push(steps as f64 / seconds);
    }
    rates.sort_by(f64::total_cmp);
    let median = rates[rates.len() / 2];
    println!(
        "replay with hashing: median {:.0} steps/s over {} runs ({} steps, {} turns each; min {:.0}, max {:.0})",
        median,
        args.runs,
        steps,
        turns,
        rates[0],
        rates[rates.len() - 1]
    );
    Ok(exit::OK)
}

/// Plays a seeded key mix and returns it recorded. Runs that die are
/// restarted on the next seed and their keys kept, so the run has the
/// requested length whatever happens.
fn bench_run(
    seed: u64,
    keys: usize,
    content: Arc<Content>,
) -> Result<crate::recording::Recording, String> {
    let mix = Key::parse_all("oooooohjklyubn..g>>iatdw;<Esc><Esc><Tab><Enter>HJKL")
        .expect("valid notation");
    let mut rng = RunSeed(seed).stream("bench-keys", 0);
    let config = GameConfig::new(seed).with_content(content);
    let mut runner = Runner::new(config)?;
    while runner.keys().len() < keys && !runner.game().is_over() {
        let key = *rng.pick(&mix).expect("a non-empty mix");
        if let Err(failure) = runner.press(key) {
            return Err(format!(
                "the bench run failed at step {}: {}",
                failure.step, failure.kind
            ));
        }
    }
    // A run that ended early is padded with keys a finished game ignores, so
    // the replay still presses the requested number.
    while runner.keys().len() < keys {
        runner
            .press(Key::char('.'))
            .map_err(|f| f.kind.to_string())?;
    }
    Ok(runner.recording("deja bench".into()))
}
