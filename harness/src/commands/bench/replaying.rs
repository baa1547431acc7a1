//! The replay, recording and viewer rows: replay with a hash at every
//! step, a recording's bytes and write time per key, the viewer's step back.

use std::sync::Arc;
use std::time::Instant;

use game_core::RunSeed;
use game_core::content::Content;

use crate::recording::Recording;
use crate::replay::{self, Verdict};

use super::runs::long_run;
use super::{
    BenchArgs, BenchFigure, Row, Scratch, Target, VIEWER_JUMPS, VIEWER_KEYS, counted, decimals_for,
    grouped, runs_text,
};
use crate::plumbing::error::Error;

pub(super) fn replay_row(
    args: &BenchArgs,
    recordings: &[Recording],
    content: &Arc<Content>,
) -> Result<Row, Error> {
    crate::plumbing::output::note(format_args!("bench: replay, {}", runs_text(args.runs)));
    let steps: usize = recordings.iter().map(|r| r.keys.len()).sum();
    let mut rates = Vec::new();
    let mut turns = 0;
    for _ in 0..args.runs {
        turns = 0;
        let started = Instant::now();
        for recording in recordings {
            let report = replay::replay(recording, content.clone(), None, |_, _, _| {})?;
            if report.verdict != Verdict::Same {
                return Err(
                    format!("a bench run did not replay the same: {}", report.verdict).into(),
                );
            }
            turns += report.turns;
        }
        let seconds = started.elapsed().as_secs_f64().max(1e-9);
        rates.push(steps as f64 / seconds);
    }
    Ok(Row::new(
        BenchFigure::Replay,
        "replay, a hash at every step",
        "steps/s",
        rates,
        Some(Target::at_least(200_000.0, "")),
        format!(
            "{} ({}, {}) of a seeded key mix from seed {}, every step's state hash checked",
            counted(steps as u64, "step"),
            counted(turns, "turn"),
            counted(recordings.len() as u64, "recording"),
            args.seed
        ),
    ))
}

/// The cost per key of keeping a played run on disk: after every key the
/// whole run is serialised and written atomically (temporary file, fsync,
/// rename, directory fsync), so the cost grows with the run's length.
pub(super) fn recording_rows(
    args: &BenchArgs,
    recordings: &[Recording],
    scratch: &Scratch,
) -> Result<Vec<Row>, Error> {
    let Some(longest) = recordings.iter().max_by_key(|r| r.keys.len()) else {
        return Ok(Vec::new());
    };
    crate::plumbing::output::note(format_args!(
        "bench: the recording's cost per key, {}",
        runs_text(args.runs)
    ));
    let path = scratch.dir.join("autosave.ron");
    let mut rows = Vec::new();
    let mut sizes = Vec::new();
    for keys in [1_000, 10_000, 100_000] {
        let run = run_of_length(longest, keys);
        let mut times = Vec::new();
        for _ in 0..args.runs {
            let started = Instant::now();
            crate::recording::write(&path, &run)?;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
        sizes.push((keys, bytes));
        rows.push(Row::new(
            BenchFigure::Recording,
            format!("autosave per key, {}-key run", grouped(keys as f64, 0)),
            "ms/key",
            times,
            None,
            format!(
                "the whole run ({} KiB) serialised and written atomically (temporary file, fsync, rename) after every key, as deja play does",
                grouped(bytes as f64 / 1024.0, 0)
            ),
        ));
    }
    rows.insert(0, size_row(&sizes));
    Ok(rows)
}

/// A run of `keys` keys: the longest bench run's keys and hashes, repeated
/// (the file's size is what costs, not what it holds).
fn run_of_length(longest: &Recording, keys: usize) -> Recording {
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
    run
}

/// The recording's bytes per key, from the file of the largest of `sizes`
/// (keys, bytes), the others in its note.
fn size_row(sizes: &[(usize, u64)]) -> Row {
    let &(keys, bytes) = sizes.last().expect("three sizes");
    let others: Vec<String> = sizes
        .iter()
        .map(|&(k, b)| {
            let per_key = b as f64 / k as f64;
            format!(
                "{} at {} keys",
                grouped(per_key, decimals_for(per_key)),
                grouped(k as f64, 0)
            )
        })
        .collect();
    Row::new(
        BenchFigure::Recording,
        "recording size per key",
        "bytes/key",
        vec![bytes as f64 / keys as f64],
        None,
        format!(
            "a {}-key recording's file (key notation, a state hash and part digests per step) over its keys, the same every run; bytes per key: {}",
            grouped(keys as f64, 0),
            others.join(", ")
        ),
    )
}

/// The viewer's step back in a 100,000-key recording: from a step, the
/// game one step before (keyframe + keys pressed again) and its frame.
pub(super) fn viewer_rows(
    seed: u64,
    recordings: &[Recording],
    content: Arc<Content>,
) -> Result<Vec<Row>, Error> {
    crate::plumbing::output::note(format_args!(
        "bench: the viewer's step back in a {}-key recording",
        grouped(VIEWER_KEYS as f64, 0)
    ));
    let long = long_run(seed, VIEWER_KEYS, content.clone())?;
    let started = Instant::now();
    let timeline = crate::replay::timeline::Timeline::build(long, content.clone())?;
    let build = started.elapsed().as_secs_f64();
    let times = step_back_times(&timeline, seed);
    let mut rows = vec![Row::new(
        BenchFigure::Viewer,
        format!(
            "viewer step back, {}-key recording",
            grouped(VIEWER_KEYS as f64, 0)
        ),
        "ms",
        times.clone(),
        None,
        format!(
            "one step back from {} random steps and its frame drawn (runs are jumps): 95th percentile {} ms; keyframe every {} steps, {} kept; opening it took {:.1} s",
            grouped(times.len() as f64, 0),
            percentile_95(&times),
            timeline.spacing(),
            grouped(timeline.keyframe_count() as f64, 0),
            build
        ),
    )];
    // The long run mostly looks around; the bench mix spends a turn on
    // most keys, so its keys cost the most to press again.
    if let Some(busy) = recordings.iter().max_by_key(|r| r.keys.len()) {
        let timeline = crate::replay::timeline::Timeline::build(busy.clone(), content)?;
        let times = step_back_times(&timeline, seed);
        rows.push(Row::new(
            BenchFigure::Viewer,
            "viewer step back, replayed runs' longest",
            "ms",
            times.clone(),
            None,
            format!(
                "the same in the longest replayed run ({} keys, a turn on most): 95th percentile {} ms",
                grouped(busy.keys.len() as f64, 0),
                percentile_95(&times)
            ),
        ));
    }
    Ok(rows)
}

/// The 95th percentile of `times`, as the table writes it.
pub(super) fn percentile_95(times: &[f64]) -> String {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let value = sorted[sorted.len() * 95 / 100];
    grouped(value, decimals_for(value))
}

/// Times in milliseconds of going one step back from random steps and
/// drawing the frame there.
pub(super) fn step_back_times(timeline: &crate::replay::timeline::Timeline, seed: u64) -> Vec<f64> {
    let mut rng = RunSeed(seed).stream("bench-seek", 0);
    let mut times = Vec::new();
    let last = u32::try_from(timeline.marks.last)
        .unwrap_or(u32::MAX)
        .max(1);
    for _ in 0..VIEWER_JUMPS {
        let step = 1 + u64::from(rng.below(last));
        let started = Instant::now();
        let game = timeline.game_at(step - 1);
        std::hint::black_box(game.frame(80, 24));
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    times
}
