//! The press row: what the checks add to a key. The keys the explorer bot
//! presses in a sweep are pressed twice, through a runner that checks every
//! key as the sweep does and on a bare `Game::press`, and the row is the
//! ratio of the two times.
//!
//! The explorer's keys, not the replayed runs' mix: they are what a sweep
//! presses, mostly walks and fights whose press moves monsters and sight.
//! The mix is mostly look mode, the pack and the help, whose press is a
//! screen opening (about a microsecond) while the frame is still drawn
//! and read after it; its ratio is in the row's note, as it stands.

use std::sync::Arc;
use std::time::{Duration, Instant};

use game_core::Game;
use game_core::content::Content;

use crate::recording::Recording;
use crate::replay;
use crate::run::runner::Runner;

use super::{BenchArgs, BenchFigure, Row, Target, counted, grouped, median, runs_text};
use crate::plumbing::error::Error;

/// The checked press against the bare one, on the same keys: each measure
/// presses every run's keys both ways (the runs started untimed), and the
/// ratio of the two totals is its sample.
pub(super) fn press_row(
    args: &BenchArgs,
    mix: &[Recording],
    content: &Arc<Content>,
) -> Result<Row, Error> {
    crate::plumbing::output::note(format_args!(
        "bench: the checked press against the bare press, {}",
        runs_text(args.runs)
    ));
    let explored = explorer_runs(args.seed, args.press_seeds, content)?;
    let keys: usize = explored.iter().map(|r| r.keys.len()).sum();
    let mut ratios = Vec::new();
    let mut rates = (Vec::new(), Vec::new());
    let mut mix_ratios = Vec::new();
    for _ in 0..args.runs {
        let (bare, checked) = time_both(&explored, content)?;
        ratios.push(checked / bare);
        rates.0.push(keys as f64 / bare);
        rates.1.push(keys as f64 / checked);
        let (bare, checked) = time_both(mix, content)?;
        mix_ratios.push(checked / bare);
    }
    let (bare_rate, checked_rate) = (median(&rates.0), median(&rates.1));
    Ok(Row::new(
        BenchFigure::Press,
        "checked press against the bare press",
        "x",
        ratios,
        Some(Target::at_most(2.0, "")),
        format!(
            "the explorer bot's {} on {} from {} (as its sweep presses them) through a runner with every per-key check (the turn and record checks, the key contracts, the progress watch, the frame drawn and read on every eighth key, the oracles on their sample; no state hash, as a sweep) against Game::press alone, each run started untimed: the time's ratio; medians {} keys/s checked, {} keys/s bare. The replayed runs' mix (look mode, the pack, the help): {:.1}x",
            counted(keys as u64, "key"),
            counted(args.press_seeds, "seed"),
            args.seed,
            grouped(checked_rate, 0),
            grouped(bare_rate, 0),
            median(&mix_ratios),
        ),
    ))
}

/// Seconds the runs' keys take bare and checked.
fn time_both(runs: &[Recording], content: &Arc<Content>) -> Result<(f64, f64), Error> {
    let (mut bare, mut checked) = (Duration::ZERO, Duration::ZERO);
    for run in runs {
        bare += bare_presses(run, content)?;
        checked += checked_presses(run, content)?;
    }
    let seconds = |d: Duration| d.as_secs_f64().max(1e-9);
    Ok((seconds(bare), seconds(checked)))
}

/// The explorer bot's runs on `seeds` seeds from `seed`, as its sweep plays
/// them (its key limit and progress limit).
fn explorer_runs(seed: u64, seeds: u64, content: &Arc<Content>) -> Result<Vec<Recording>, Error> {
    use crate::sweep::bots::{BotKind, bot};
    let settings = crate::run::runner::Settings {
        progress_limit: Some(crate::sweep::default_progress_limit(BotKind::Explorer)),
        ..crate::run::runner::Settings::default()
    };
    let mut runs = Vec::new();
    for run_seed in (0..seeds).map(|i| seed.wrapping_add(i)) {
        let config = game_core::GameConfig::new(run_seed).with_content(content.clone());
        // Hashing, as the run is written down below (a runner without
        // would play the run again to hash it).
        let mut runner = Runner::with_settings(config, 1, settings)?;
        let mut explorer = bot(BotKind::Explorer, run_seed).expect("the explorer is a bot");
        'run: while !runner.game().is_over() && runner.step() < EXPLORER_KEYS {
            for key in runner.driving(|game| explorer.next_keys(game)) {
                if runner.press(key).is_err() || runner.game().is_over() {
                    break 'run;
                }
            }
        }
        if let Some(failure) = runner.failure() {
            return Err(format!(
                "the explorer's bench run on seed {run_seed} failed at step {}: {}",
                failure.step, failure.kind
            )
            .into());
        }
        runs.push(runner.recording("deja bench: the explorer's keys".into()));
    }
    Ok(runs)
}

/// Keys an explorer run presses at most, as its sweep's default.
const EXPLORER_KEYS: u64 = 3000;

/// The time `Game::press` alone takes over the run's keys.
fn bare_presses(recording: &Recording, content: &Arc<Content>) -> Result<Duration, Error> {
    let config = replay::config_of(recording, content.clone());
    let mut game = Game::new_at_depth(config, recording.start_depth).map_err(|e| e.to_string())?;
    let started = Instant::now();
    for &key in &recording.keys {
        if let Err(stuck) = game.press(key) {
            return Err(format!("a bench run got stuck on a bare press: {stuck}").into());
        }
    }
    Ok(started.elapsed())
}

/// The time a checking runner (as a sweep's, no state hash) takes over the
/// run's keys.
fn checked_presses(recording: &Recording, content: &Arc<Content>) -> Result<Duration, Error> {
    let mut runner = replay::start(recording, content.clone())?.without_hashing();
    let started = Instant::now();
    for &key in &recording.keys {
        if let Err(failure) = runner.press(key) {
            return Err(format!(
                "a bench run failed at step {}: {}",
                failure.step, failure.kind
            )
            .into());
        }
    }
    Ok(started.elapsed())
}
