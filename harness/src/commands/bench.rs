//! `deja bench`: how fast a recording replays, hashing every step.
//!
//! Runs of `--keys` keys in all are played first (a seeded mix weighted
//! toward exploring and fighting, one run per seed until it ends), then
//! replayed `--runs` times with every step's state hash checked. The median
//! is reported: the machines are shared, so read medians and ratios.
//!
//! Then two costs of playing and watching: writing a played run to disk
//! after every key (the crash-safe recording of `deja play`, at several run
//! lengths), and the viewer's step back in a 100,000-key recording
//! (`replay --watch`: keyframe, keys pressed again, frame drawn).

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
    let keys = usize::try_from(args.keys).map_err(|_| "--keys is too large here".to_string())?;
    let recordings = bench_runs(args.seed, keys, content.clone())?;
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
    bench_autosave(&recordings)?;
    bench_step_back(args.seed, &recordings, content)?;
    Ok(exit::OK)
}

/// The cost per key of keeping a played run on disk: after every key the
/// whole run is serialised and written atomically (temporary file, fsync,
/// rename, directory fsync), so the cost grows with the run's length.
fn bench_autosave(recordings: &[Recording]) -> Result<(), String> {
    let Some(longest) = recordings.iter().max_by_key(|r| r.keys.len()) else {
        return Ok(());
    };
    let dir = std::env::temp_dir().join(format!("deja-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join("autosave.ron");
    let mut lines = Vec::new();
    for keys in [1_000, 10_000, 100_000] {
        // A run of this length: the longest bench run's keys and hashes,
        // repeated (the file's size is what costs, not what it holds).
        let mut run = longest.clone();
        run.failure = None;
        while run.keys.len() < keys {
            run.keys.extend_from_slice(&longest.keys);
            run.step_hashes.extend_from_slice(&longest.step_hashes[1..]);
            run.part_digests
                .extend_from_slice(&longest.part_digests[1..]);
        }
        run.keys.truncate(keys);
        run.step_hashes.truncate(keys + 1);
        run.part_digests.truncate(keys + 1);
        let mut times = Vec::new();
        for _ in 0..9 {
            let started = Instant::now();
            crate::recording::write(&path, &run)?;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
        lines.push(format!(
            "{keys} keys ({} KiB): median {:.2} ms (min {:.2}, max {:.2})",
            bytes / 1024,
            times[times.len() / 2],
            times[0],
            times[times.len() - 1]
        ));
    }
    let _ = std::fs::remove_dir_all(&dir);
    super::out(format_args!(
        "recording a played run, per key (serialise + atomic write + fsync): {}",
        lines.join("; ")
    ))
}

/// The viewer's step back in a 100,000-key recording: from a step, the
/// game one step before (keyframe + keys pressed again) and its frame.
fn bench_step_back(
    seed: u64,
    recordings: &[Recording],
    content: Arc<Content>,
) -> Result<(), String> {
    const KEYS: usize = 100_000;
    let long = long_run(seed, KEYS, content.clone())?;
    let started = Instant::now();
    let timeline = crate::timeline::Timeline::build(long, content.clone())?;
    let build = started.elapsed().as_secs_f64();
    let (median, p95, max, jumps) = step_back_times(&timeline, seed);
    super::out(format_args!(
        "viewer step back in a {KEYS}-key recording: median {median:.2} ms, 95th percentile {p95:.2} ms, max {max:.2} ms over {jumps} jumps (keyframe every {} steps, {} kept; opening it took {build:.1} s)",
        timeline.spacing(),
        timeline.keyframe_count(),
    ))?;
    // The long run mostly looks around; the bench mix spends a turn on
    // most keys, so its keys cost the most to press again.
    if let Some(busy) = recordings.iter().max_by_key(|r| r.keys.len()) {
        let timeline = crate::timeline::Timeline::build(busy.clone(), content)?;
        let (median, p95, max, jumps) = step_back_times(&timeline, seed);
        super::out(format_args!(
            "viewer step back in the bench mix's longest run ({} keys, a turn on most): median {median:.2} ms, 95th percentile {p95:.2} ms, max {max:.2} ms over {jumps} jumps",
            busy.keys.len()
        ))?;
    }
    Ok(())
}

/// Median, 95th percentile and largest time in milliseconds of going one
/// step back from random steps and drawing the frame there.
fn step_back_times(timeline: &crate::timeline::Timeline, seed: u64) -> (f64, f64, f64, usize) {
    let mut rng = RunSeed(seed).stream("bench-seek", 0);
    let mut times = Vec::new();
    let last = u32::try_from(timeline.marks.last)
        .unwrap_or(u32::MAX)
        .max(1);
    for _ in 0..200 {
        let step = 1 + u64::from(rng.below(last));
        let started = Instant::now();
        let game = timeline.game_at(step - 1);
        std::hint::black_box(game.frame(80, 24));
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    (
        times[times.len() / 2],
        times[times.len() * 95 / 100],
        times[times.len() - 1],
        times.len(),
    )
}

/// One run of `keys` keys that is still alive at its end: a player who
/// mostly looks around (look mode, the pack, the help) and now and then
/// explores, steps or waits, on the first seed from `seed` that survives.
fn long_run(seed: u64, keys: usize, content: Arc<Content>) -> Result<Recording, String> {
    let looking = Key::parse_all(";hjkl<Tab><Esc>i<Esc>?<Esc>").expect("valid notation");
    let acting = Key::parse_all("ohjkl.").expect("valid notation");
    for run_seed in (0..50).map(|i| seed.wrapping_add(i)) {
        let mut rng = RunSeed(run_seed).stream("bench-long-run", 0);
        let mut runner = Runner::new(GameConfig::new(run_seed).with_content(content.clone()))?;
        for _ in 0..keys {
            let mix = if rng.below(20) == 0 {
                &acting
            } else {
                &looking
            };
            let key = *rng.pick(mix).expect("a non-empty mix");
            if let Err(failure) = runner.press(key) {
                return Err(format!(
                    "the long bench run on seed {run_seed} failed at step {}: {}",
                    failure.step, failure.kind
                ));
            }
            if runner.game().is_over() {
                break;
            }
        }
        if !runner.game().is_over() {
            return Ok(runner.recording("deja bench: a long run".into()));
        }
    }
    Err(format!(
        "no seed from {seed} to {} kept a {keys}-key run alive",
        seed.wrapping_add(49)
    ))
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
    // Seeds from `seed` on, wrapping past u64::MAX to 0: the same runs in
    // debug and release builds, whatever the seed.
    for run_seed in (0..).map(|i| seed.wrapping_add(i)) {
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
