//! The sweep rows: the explorer bot's turns per second and floors per
//! second, the sweep's own library timed in process.

use std::sync::Arc;
use std::time::Instant;

use clap::Parser;
use game_core::content::Content;

use crate::commands::sweep::SweepArgs;
use crate::sweep::{Saving, SeedRange};

use super::*;

/// A sweep as `deja sweep` would run it with these arguments (its defaults
/// for the rest), and the content it runs on.
pub(super) fn sweep_spec(
    bot: &str,
    seeds: (u64, u128),
) -> Result<(crate::sweep::SweepSpec, Arc<Content>), String> {
    #[derive(Parser)]
    struct SweepLine {
        #[command(flatten)]
        args: SweepArgs,
    }
    let jobs = SWEEP_JOBS.to_string();
    let line =
        SweepLine::try_parse_from(["sweep", "--bot", bot, "--depths", "1..=6", "--jobs", &jobs])
            .map_err(|e| format!("the bench's sweep: {e}"))?;
    let mut spec = crate::commands::sweep::spec(&line.args);
    spec.seeds = SeedRange {
        start: seeds.0,
        end: seeds.1,
    };
    Ok((spec, crate::commands::load_content(&line.args.content)?))
}

/// A sweep timed: what it was, its seeds as text, and each run's report
/// and wall time.
pub(super) struct TimedSweeps {
    spec: crate::sweep::SweepSpec,
    seeds: String,
    runs: Vec<(crate::sweep::SweepReport, f64)>,
}

/// The sweep with `bot` over `seeds`, run `runs` times.
pub(super) fn timed_sweeps(
    bot: &str,
    seeds: (u64, u128),
    runs: u32,
) -> Result<TimedSweeps, String> {
    let (spec, content) = sweep_spec(bot, seeds)?;
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
) -> Result<Vec<(crate::sweep::SweepReport, f64)>, String> {
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

pub(super) fn explorer_row(args: &BenchArgs) -> Result<Row, String> {
    let TimedSweeps {
        spec,
        seeds,
        runs: timed,
    } = timed_sweeps("explorer", args.explorer_seeds, args.sweep_runs)?;
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

pub(super) fn floors_row(args: &BenchArgs) -> Result<Row, String> {
    let TimedSweeps {
        seeds, runs: timed, ..
    } = timed_sweeps("none", args.floor_seeds, args.sweep_runs)?;
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
