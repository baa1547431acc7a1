//! `deja bench`: how fast a recording replays, hashing every step.
//!
//! Runs of `--keys` keys in all are played first (a seeded mix weighted
//! toward exploring and fighting, one run per seed until it ends), then
//! replayed `--runs` times with every step's state hash checked. The median
//! is reported: the machines are shared, so read medians and ratios.

use std::sync::Arc;
use std::time::Instant;

use game_core::content::Content;
use game_core::{GameConfig, Key, RunSeed};

use crate::cli::BenchArgs;
use crate::exit;
use crate::recording::Recording;
use crate::replay::{self, Verdict};
use crate::runner::Runner;

pub fn run(args: BenchArgs) -> Result<u8, String> {
    let content = Content::shared_embedded();
    let recordings = bench_runs(args.seed, args.keys, content.clone())?;
    let steps: usize = recordings.iter().map(|r| r.keys.len()).sum();
    let mut rates = Vec::new();
    let mut turns = 0;
    for _ in 0..args.runs {
        turns = 0;
        let started = Instant::now();
        for recording in &recordings {
            let report = replay::replay(recording, content.clone(), None, |_, _, _| {})?;
            if report.verdict != Verdict::Same {
                return Err(format!(
                    "a bench run did not replay the same: {}",
                    report.verdict
                ));
            }
            turns += report.turns;
        }
        let seconds = started.elapsed().as_secs_f64();
        rates.push(steps as f64 / seconds);
    }
    rates.sort_by(f64::total_cmp);
    let median = rates[rates.len() / 2];
    super::out(format_args!(
        "replay with hashing: median {:.0} steps/s over {} runs ({} steps, {} turns, {} recordings each; min {:.0}, max {:.0})",
        median,
        args.runs,
        steps,
        turns,
        recordings.len(),
        rates[0],
        rates[rates.len() - 1]
    ))?;
    Ok(exit::OK)
}

/// Plays a seeded key mix until `keys` keys have been pressed in all, one
/// run per seed from `seed` on: a run that ends (most die) is recorded and
/// the next seed starts, so every replayed step is a step of a live game.
fn bench_runs(seed: u64, keys: usize, content: Arc<Content>) -> Result<Vec<Recording>, String> {
    let mix = Key::parse_all("oooooohjklyubn..g>>iatdw;<Esc><Esc><Tab><Enter>HJKL")
        .expect("valid notation");
    let mut rng = RunSeed(seed).stream("bench-keys", 0);
    let mut recordings = Vec::new();
    let mut pressed = 0;
    for run_seed in seed.. {
        if pressed >= keys {
            break;
        }
        let mut runner = Runner::new(GameConfig::new(run_seed).with_content(content.clone()))?;
        while pressed < keys && !runner.game().is_over() {
            let key = *rng.pick(&mix).expect("a non-empty mix");
            if let Err(failure) = runner.press(key) {
                return Err(format!(
                    "the bench run on seed {run_seed} failed at step {}: {}",
                    failure.step, failure.kind
                ));
            }
            pressed += 1;
        }
        recordings.push(runner.recording("deja bench".into()));
    }
    Ok(recordings)
}
