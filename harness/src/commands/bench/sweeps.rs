//! The sweep rows: the explorer bot's turns per second and floors per
//! second, the sweep's own library timed in process.

use std::sync::Arc;
use std::time::Instant;

use game_core::content::Content;

use crate::sweep::bots::BotKind;
use crate::sweep::{Saving, SeedRange, SweepSpec};

use super::{BenchArgs, BenchFigure, Row, SWEEP_JOBS, Target, grouped, runs_text, seed_range_text};
use crate::plumbing::error::Error;

/// A sweep timed: what it was, its seeds as text, and each run's report
/// and wall time.
pub(super) struct TimedSweeps {
    spec: crate::sweep::SweepSpec,
    seeds: String,
    runs: Vec<(crate::sweep::SweepReport, f64)>,
}

/// The sweep with `bot` over `seeds`, run `runs` times: as `deja sweep
/// --bot BOT --seeds SEEDS` runs it, the spec's defaults for the rest.
pub(super) fn timed_sweeps(
    bot: BotKind,
    seeds: (u64, u128),
    runs: u32,
) -> Result<TimedSweeps, Error> {
    let spec = SweepSpec {
        seeds: SeedRange {
            start: seeds.0,
            end: seeds.1,
        },
        ..SweepSpec::new(bot)
    };
    let content = Content::shared_embedded();
    let seeds = seed_range_text(seeds);
    crate::plumbing::output::note(format_args!(
        "bench: sweep of seeds {seeds} with bot {bot}, {}",
        runs_text(runs)
    ));
    let runs = time_sweeps(&spec, &content, runs)?;
    Ok(TimedSweeps { spec, seeds, runs })
}

/// Runs the sweep `runs` times; each run's report and wall time.
pub(super) fn time_sweeps(
    spec: &crate::sweep::SweepSpec,
    content: &Arc<Content>,
    runs: u32,
) -> Result<Vec<(crate::sweep::SweepReport, f64)>, Error> {
    let mut timed = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        let report = crate::sweep::run(
            spec,
            content,
            SWEEP_JOBS,
            &Saving { dir: None },
            crate::sweep::RunOptions::default(),
            &|_| {},
            &mut |_| {},
        )?;
        timed.push((report, started.elapsed().as_secs_f64().max(1e-9)));
    }
    Ok(timed)
}

/// What a note says of a sweep that found failures (the figures still
/// count, but the game has a bug to fix first).
pub(super) fn failures_said(failures: u64, command: &str) -> String {
    if failures == 0 {
        return String::new();
    }
    crate::plumbing::output::note(format_args!(
        "bench: the sweep found {failures} failures; `{command}` shows them"
    ));
    format!("; FOUND {failures} FAILURES (`{command}` shows them)")
}

pub(super) fn explorer_row(args: &BenchArgs) -> Result<Row, Error> {
    let TimedSweeps {
        spec,
        seeds,
        runs: timed,
    } = timed_sweeps(BotKind::Explorer, args.explorer_seeds, args.sweep_runs)?;
    let turns_of =
        |report: &crate::sweep::SweepReport| report.summary.bot.as_ref().map_or(0, |b| b.turns);
    let samples = timed
        .iter()
        .map(|(report, seconds)| turns_of(report) as f64 / seconds)
        .collect();
    let (report, _) = &timed[0];
    let keys = report.summary.bot.as_ref().map_or(0, |b| b.keys);
    Ok(Row::new(
        BenchFigure::Explorer,
        "explorer-bot sweep",
        "bot turns/s",
        samples,
        Some(Target::at_least(250_000.0, "")),
        format!(
            "deja sweep --seeds {seeds} --jobs {SWEEP_JOBS} in process (depths 1..=6, at most {} keys a seed): {} bot turns ({} keys) a run over its wall time{}",
            grouped(spec.keys as f64, 0),
            grouped(turns_of(report) as f64, 0),
            grouped(keys as f64, 0),
            failures_said(
                report.summary.failures,
                &format!("deja sweep --seeds {seeds}")
            )
        ),
    ))
}

pub(super) fn floors_row(args: &BenchArgs) -> Result<Row, Error> {
    let TimedSweeps {
        seeds, runs: timed, ..
    } = timed_sweeps(BotKind::None, args.floor_seeds, args.sweep_runs)?;
    let samples = timed
        .iter()
        .map(|(report, seconds)| report.summary.floors as f64 / seconds)
        .collect();
    let (report, _) = &timed[0];
    Ok(Row::new(
        BenchFigure::Floors,
        "floors generated and validated",
        "floors/s",
        samples,
        Some(Target::at_least(30_000.0, "")),
        format!(
            "deja sweep --seeds {seeds} --bot none --jobs {SWEEP_JOBS} in process (depths 1..=6, every floor and spawn invariant): {} floors a run over its wall time{}",
            grouped(report.summary.floors as f64, 0),
            failures_said(
                report.summary.failures,
                &format!("deja sweep --seeds {seeds} --bot none")
            )
        ),
    ))
}
