//! `deja bench`: every speed figure in one run, in one table.
//!
//! Each row is one figure measured several times: its median, min and max,
//! how many runs, its unit, and its target where it has one. The machines
//! are shared, so read medians and ratios; `met` says where the median
//! stands against the target, and the command exits 0 whatever it says.
//!
//! - the explorer bot's sweep, bot turns per second, and floors generated
//!   and validated per second (a sweep without a bot): the sweep's own
//!   library, in process, on a pool of 2 threads, over fixed seed ranges;
//! - replay with the state hash checked at every step: runs of `--keys`
//!   keys in all are played first (a seeded mix weighted toward exploring
//!   and fighting, one run per seed until it ends), then replayed;
//! - the `intents` fuzz target's body, natively on one thread, on the
//!   inputs `cargo bench -p harness --bench fuzz` uses (`fuzz::bench`);
//! - the peak memory of a random-bot sweep writing its JSON report, for
//!   `--memory-seeds` seeds and a tenth of them: memory is flat in the seeds
//!   when the two are alike. Each is a child process of this executable,
//!   its peak read from `wait4`'s rusage;
//! - the cost of a played run's recording: its bytes per key, and the
//!   time of writing it after every key (the crash-safe recording of `deja
//!   play`) at several run lengths;
//! - the viewer's step back in a 100,000-key recording and in the replayed
//!   runs' longest (`replay --watch`: keyframe, keys pressed again, frame
//!   drawn).
//!
//! The memory sweeps run first: Linux counts the peak of the process that
//! started a child into the child's, so they are measured while this one
//! is still small (the row's note says how small).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::{Args, Parser};
use game_core::content::Content;
use game_core::{GameConfig, Key, RunSeed};
use serde::Serialize;

use crate::commands::args::{Format, parse_seed_range};
use crate::commands::sweep::SweepArgs;
use crate::plumbing::exit;
use crate::recording::Recording;
use crate::replay::{self, Verdict};
use crate::run::runner::Runner;
use crate::sweep::{Saving, SeedRange};

#[derive(Args)]
pub struct BenchArgs {
    /// Keys in the runs that are replayed, at most ten million (the replay,
    /// recording and viewer figures use these runs).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub keys: u64,
    /// How many times each quick figure is measured (replay, the fuzz body,
    /// each autosave); the median is reported with the min and max.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub runs: u32,
    /// How many times each sweep runs (the explorer's and the floors'):
    /// fewer than --runs, as they take seconds each.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub sweep_runs: u32,
    /// How many times each memory sweep runs: once, as a 10,000-seed sweep
    /// takes half a minute and its peak hardly moves from run to run.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub memory_runs: u32,
    /// The first seed of the replayed runs and of the viewer's long run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seeds of the explorer-bot sweep, START..END or START..=LAST.
    #[arg(long, default_value = "1..201", value_parser = parse_seed_range)]
    pub explorer_seeds: (u64, u128),
    /// Seeds of the floors-only sweep (`--bot none`, depths 1..=6).
    #[arg(long, default_value = "1..2001", value_parser = parse_seed_range)]
    pub floor_seeds: (u64, u128),
    /// Seeds of the larger random-bot sweep whose peak memory is measured;
    /// the smaller one has a tenth of them.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(10..=10_000_000))]
    pub memory_seeds: u64,
    /// `intents` inputs (of 64 intents each, the fuzz bench's first ones)
    /// the fuzz body runs per measure, each run once first as a fuzzer's
    /// started games are kept.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub fuzz_inputs: u64,
    /// Measure only these figures (comma-separated; default: all).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "FIGURES")]
    pub only: Vec<BenchFigure>,
    /// `text`, the table on standard output; or `json` as well: every row
    /// (name, unit, median, min, max, runs, samples, target, met) as the
    /// JSON record, written to -o.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Where the JSON record goes (`-`: standard output, the default, and
    /// the table then goes to standard error).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write the JSON record to FILE and the table to standard output: the
    /// same as `--format json -o FILE`.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["format", "output"])]
    pub json: Option<PathBuf>,
}

/// The figures `deja bench` measures, in the order of its table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum BenchFigure {
    /// Explorer-bot sweep, bot turns per second, 2 jobs.
    Explorer,
    /// Floors generated and validated per second (a sweep without a bot), 2 jobs.
    Floors,
    /// Replay with the state hash checked at every step, steps per second.
    Replay,
    /// The `intents` fuzz target's body, natively, 64-intent inputs, execs per second.
    Fuzz,
    /// Peak memory of random-bot sweeps of --memory-seeds seeds and a tenth of them (child processes).
    Memory,
    /// A played run's recording: bytes per key, and the autosave per key at 1k, 10k and 100k keys.
    Recording,
    /// The viewer's step back, in a 100,000-key recording and in the replayed runs' longest.
    Viewer,
}

impl BenchFigure {
    /// Every figure, in the table's order.
    pub const ALL: [BenchFigure; 7] = [
        BenchFigure::Explorer,
        BenchFigure::Floors,
        BenchFigure::Replay,
        BenchFigure::Fuzz,
        BenchFigure::Memory,
        BenchFigure::Recording,
        BenchFigure::Viewer,
    ];

    /// The name `--only` takes.
    pub fn name(self) -> &'static str {
        match self {
            BenchFigure::Explorer => "explorer",
            BenchFigure::Floors => "floors",
            BenchFigure::Replay => "replay",
            BenchFigure::Fuzz => "fuzz",
            BenchFigure::Memory => "memory",
            BenchFigure::Recording => "recording",
            BenchFigure::Viewer => "viewer",
        }
    }
}

/// The JSON record's format; a change of meaning moves it.
const RECORD_FORMAT: u32 = 1;
/// Threads of the sweep rows' pool: their targets are set for two.
const SWEEP_JOBS: usize = 2;
/// The larger memory sweep may peak this much above the smaller one and
/// still count as flat (as `tests/sweep.rs` holds a sweep's report to).
const FLAT_MIB: f64 = 8.0;
/// Keys in the viewer's long recording.
const VIEWER_KEYS: usize = 100_000;
/// Jumps the viewer's step back is timed over.
const VIEWER_JUMPS: usize = 200;

/// One figure: every sample, and what they are of.
#[derive(Serialize)]
struct Row {
    /// The `--only` value that measures it.
    figure: &'static str,
    name: String,
    unit: &'static str,
    median: f64,
    min: f64,
    max: f64,
    runs: usize,
    samples: Vec<f64>,
    target: Option<Target>,
    /// Whether the median meets the target (null where there is none).
    met: Option<bool>,
    /// What was measured, on what, and how to read it.
    note: String,
    /// Digits after the point in the table.
    #[serde(skip)]
    decimals: usize,
}

/// A figure's aim: at least or at most a value.
#[derive(Serialize)]
struct Target {
    #[serde(skip_serializing_if = "Option::is_none")]
    at_least: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    at_most: Option<f64>,
    /// As the table says it.
    text: String,
}

impl Target {
    fn at_least(value: f64, text: &str) -> Target {
        Target {
            at_least: Some(value),
            at_most: None,
            text: format!(">= {}{text}", grouped(value, 0)),
        }
    }

    fn met_by(&self, value: f64) -> bool {
        self.at_least.is_none_or(|low| value >= low)
            && self.at_most.is_none_or(|high| value <= high)
    }
}

impl Row {
    fn new(
        figure: BenchFigure,
        name: impl Into<String>,
        unit: &'static str,
        samples: Vec<f64>,
        target: Option<Target>,
        note: impl Into<String>,
    ) -> Row {
        let mut sorted = samples.clone();
        sorted.sort_by(f64::total_cmp);
        let middle = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 {
            sorted[middle]
        } else {
            (sorted[middle - 1] + sorted[middle]) / 2.0
        };
        let met = target.as_ref().map(|t| t.met_by(median));
        Row {
            figure: figure.name(),
            name: name.into(),
            unit,
            median,
            min: sorted[0],
            max: sorted[sorted.len() - 1],
            runs: samples.len(),
            samples,
            target,
            met,
            note: note.into(),
            decimals: decimals_for(median),
        }
    }
}

/// The JSON record: the rows and what they were measured on.
#[derive(Serialize)]
struct Record<'a> {
    format: u32,
    game: String,
    build: &'static str,
    cores: usize,
    seconds: f64,
    rows: &'a [Row],
}

pub fn run(args: BenchArgs) -> Result<u8, String> {
    let json_to = args.json.clone().or_else(|| {
        (args.format == Format::Json).then(|| args.output.clone().unwrap_or_else(|| "-".into()))
    });
    if args.format == Format::Text && args.output.is_some() {
        return Err(
            "-o takes the JSON record; add --format json (the table goes to standard output)"
                .into(),
        );
    }
    if let Some(path) = &json_to {
        crate::plumbing::files::check_output_file(path, &[])?;
    }
    let table_to_stderr = json_to
        .as_deref()
        .is_some_and(crate::plumbing::files::is_stdout);
    if cfg!(debug_assertions) {
        crate::plumbing::output::note(
            "bench: this is a debug build; its figures are far below a release build's (cargo build --release -p harness)",
        );
    }
    let started = Instant::now();
    let mut laps = Laps::new();
    let mut rows = measure(&args, &mut laps)?;
    let seconds = started.elapsed().as_secs_f64();
    rows.sort_by_key(|row| {
        BenchFigure::ALL
            .iter()
            .position(|f| f.name() == row.figure)
            .unwrap_or(usize::MAX)
    });
    let say = |line: String| -> Result<(), String> {
        if table_to_stderr {
            crate::plumbing::output::err(format_args!("{line}"));
            Ok(())
        } else {
            crate::plumbing::output::out(line)
        }
    };
    for line in table(&rows) {
        say(line)?;
    }
    if let Some(path) = &json_to {
        write_record(path, &rows, seconds)?;
    }
    crate::plumbing::output::note(format_args!(
        "bench: {} in {:.0} s ({})",
        counted(rows.len() as u64, "figure"),
        seconds,
        laps.spent.join(", ")
    ));
    Ok(exit::OK)
}

/// Every figure `--only` chose, measured in the table's groups: memory
/// first, while this process is small (see the module's note), then the
/// sweeps, the replayed runs' figures and the fuzz body.
fn measure(args: &BenchArgs, laps: &mut Laps) -> Result<Vec<Row>, String> {
    let chosen = |figure: BenchFigure| args.only.is_empty() || args.only.contains(&figure);
    let mut rows = Vec::new();
    let scratch = Scratch::new()?;
    if chosen(BenchFigure::Memory) {
        rows.extend(memory_rows(args, &scratch)?);
        laps.lap("memory");
    }
    if chosen(BenchFigure::Explorer) || chosen(BenchFigure::Floors) {
        super::sweep::hang_reports_into(None);
        if chosen(BenchFigure::Explorer) {
            rows.push(explorer_row(args)?);
            laps.lap("explorer");
        }
        if chosen(BenchFigure::Floors) {
            rows.push(floors_row(args)?);
            laps.lap("floors");
        }
        crate::run::watchdog::on_hang(Box::new(crate::run::watchdog::write_to_working_directory));
    }
    let content = Content::shared_embedded();
    if chosen(BenchFigure::Replay) || chosen(BenchFigure::Recording) || chosen(BenchFigure::Viewer)
    {
        let keys =
            usize::try_from(args.keys).map_err(|_| "--keys is too large here".to_string())?;
        crate::plumbing::output::note(format_args!(
            "bench: playing {} keys to replay",
            grouped(keys as f64, 0)
        ));
        let recordings = bench_runs(args.seed, keys, content.clone())?;
        laps.lap("playing the runs");
        if chosen(BenchFigure::Replay) {
            rows.push(replay_row(args, &recordings, &content)?);
            laps.lap("replay");
        }
        if chosen(BenchFigure::Recording) {
            rows.extend(recording_rows(args, &recordings, &scratch)?);
            laps.lap("recording");
        }
        if chosen(BenchFigure::Viewer) {
            rows.extend(viewer_rows(args.seed, &recordings, content)?);
            laps.lap("viewer");
        }
    }
    if chosen(BenchFigure::Fuzz) {
        rows.push(fuzz_row(args)?);
        laps.lap("fuzz");
    }
    Ok(rows)
}

/// The JSON record of every row, written to `path`.
fn write_record(path: &Path, rows: &[Row], seconds: f64) -> Result<(), String> {
    let record = Record {
        format: RECORD_FORMAT,
        game: format!("{} {}", game_core::GAME_NAME, game_core::GAME_VERSION),
        build: if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        seconds,
        rows,
    };
    let mut text = serde_json::to_string_pretty(&record)
        .map_err(|e| format!("the bench record as JSON: {e}"))?;
    text.push('\n');
    crate::plumbing::files::write_atomic(path, text.as_bytes())?;
    if !crate::plumbing::files::is_stdout(path) {
        crate::plumbing::output::note(format_args!("wrote {}", path.display()));
    }
    Ok(())
}

/// The table: a header, a line per row, then each row's note.
fn table(rows: &[Row]) -> Vec<String> {
    let header = [
        "figure", "median", "min", "max", "runs", "unit", "target", "met",
    ]
    .map(String::from);
    let cells: Vec<[String; 8]> = std::iter::once(header)
        .chain(rows.iter().map(|row| {
            [
                row.name.clone(),
                grouped(row.median, row.decimals),
                grouped(row.min, row.decimals),
                grouped(row.max, row.decimals),
                grouped(row.runs as f64, 0),
                row.unit.to_string(),
                row.target
                    .as_ref()
                    .map_or_else(|| "-".to_string(), |t| t.text.clone()),
                match row.met {
                    Some(true) => "yes",
                    Some(false) => "NO",
                    None => "-",
                }
                .to_string(),
            ]
        }))
        .collect();
    let width = |column: usize| {
        cells
            .iter()
            .map(|c| c[column].chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..8).map(width).collect();
    let mut lines: Vec<String> = cells
        .iter()
        .map(|c| {
            let line = format!(
                "{:<w0$}  {:>w1$}  {:>w2$}  {:>w3$}  {:>w4$}  {:<w5$}  {:<w6$}  {}",
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                c[5],
                c[6],
                c[7],
                w0 = widths[0],
                w1 = widths[1],
                w2 = widths[2],
                w3 = widths[3],
                w4 = widths[4],
                w5 = widths[5],
                w6 = widths[6],
            );
            line.trim_end().to_string()
        })
        .collect();
    if !rows.is_empty() {
        lines.push(String::new());
        lines.push("notes:".into());
        for row in rows {
            lines.push(format!("  {}: {}", row.name, row.note));
        }
    }
    lines
}

/// Digits after the point for a figure of this size: three significant
/// digits at least, none from a hundred up.
fn decimals_for(value: f64) -> usize {
    match value.abs() {
        v if v >= 100.0 => 0,
        v if v >= 10.0 => 1,
        v if v >= 1.0 => 2,
        _ => 3,
    }
}

/// `value` with `decimals` digits after the point and its whole part in
/// groups of three: 1,234,567.8.
fn grouped(value: f64, decimals: usize) -> String {
    let text = format!("{:.*}", decimals, value.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let mut out = String::new();
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    if !fraction.is_empty() {
        out.push('.');
        out.push_str(fraction);
    }
    if value < 0.0 && out.chars().any(|c| c.is_ascii_digit() && c != '0') {
        out.insert(0, '-');
    }
    out
}

/// Where the time went, part by part.
struct Laps {
    since: Instant,
    spent: Vec<String>,
}

impl Laps {
    fn new() -> Laps {
        Laps {
            since: Instant::now(),
            spent: Vec::new(),
        }
    }

    /// The part just done took the time since the last.
    fn lap(&mut self, part: &str) {
        let now = Instant::now();
        self.spent.push(format!(
            "{part} {:.0} s",
            now.duration_since(self.since).as_secs_f64()
        ));
        self.since = now;
    }
}

/// "1 run", "3 runs".
fn runs_text(runs: u32) -> String {
    counted(u64::from(runs), "run")
}

/// `n` things, grouped in thousands: "1 recording", "1,200 recordings".
fn counted(n: u64, thing: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{} {thing}{s}", grouped(n as f64, 0))
}

/// `START..END` as people write it, END excluded (`START..=LAST` when END
/// is past the last seed a u64 holds).
fn seed_range_text((start, end): (u64, u128)) -> String {
    match u64::try_from(end) {
        Ok(end) => format!("{start}..{end}"),
        Err(_) => format!("{start}..={}", u64::MAX),
    }
}

/// A directory for the bench's own files (the memory sweeps' reports, the
/// autosaved runs), removed when dropped.
struct Scratch {
    dir: std::path::PathBuf,
}

impl Scratch {
    fn new() -> Result<Scratch, String> {
        let dir = std::env::temp_dir().join(format!("deja-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(Scratch { dir })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

// ----- sweeps -----

/// A sweep as `deja sweep` would run it with these arguments (its defaults
/// for the rest), and the content it runs on.
fn sweep_spec(
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
    let mut spec = super::sweep::spec(&line.args);
    spec.seeds = SeedRange {
        start: seeds.0,
        end: seeds.1,
    };
    Ok((spec, super::load_content(&line.args.content)?))
}

/// A sweep timed: what it was, its seeds as text, and each run's report
/// and wall time.
struct TimedSweeps {
    spec: crate::sweep::SweepSpec,
    seeds: String,
    runs: Vec<(crate::sweep::SweepReport, f64)>,
}

/// The sweep with `bot` over `seeds`, run `runs` times.
fn timed_sweeps(bot: &str, seeds: (u64, u128), runs: u32) -> Result<TimedSweeps, String> {
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
fn time_sweeps(
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
fn failures_said(failures: u64, command: &str) -> String {
    if failures == 0 {
        return String::new();
    }
    crate::plumbing::output::note(format_args!(
        "bench: the sweep found {failures} failures; `{command}` shows them"
    ));
    format!("; FOUND {failures} FAILURES (`{command}` shows them)")
}

fn explorer_row(args: &BenchArgs) -> Result<Row, String> {
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
        Some(Target::at_least(300_000.0, "")),
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

fn floors_row(args: &BenchArgs) -> Result<Row, String> {
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
        Some(Target::at_least(40_000.0, "")),
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

// ----- peak memory -----

/// The peak memory of a random-bot sweep writing its JSON report, for
/// `--memory-seeds` seeds and a tenth of them.
#[cfg(unix)]
fn memory_rows(args: &BenchArgs, scratch: &Scratch) -> Result<Vec<Row>, String> {
    let many = args.memory_seeds;
    let few = (many / 10).max(1);
    let floor = own_peak_kib();
    let mut peaks = [Vec::new(), Vec::new()];
    let mut found = [0_u32, 0_u32];
    crate::plumbing::output::note(format_args!(
        "bench: peak memory of sweeps of {} and {} seeds, {} each",
        grouped(few as f64, 0),
        grouped(many as f64, 0),
        runs_text(args.memory_runs)
    ));
    for _ in 0..args.memory_runs {
        for (i, seeds) in [few, many].into_iter().enumerate() {
            let (code, kib) = peak_of_child(&memory_sweep_args(seeds), &scratch.dir)?;
            match code {
                exit::OK => {}
                exit::FAILURE => found[i] += 1,
                code => {
                    return Err(format!(
                        "the memory sweep `deja {}` exited with {code}",
                        memory_sweep_args(seeds).join(" ")
                    ));
                }
            }
            peaks[i].push(kib as f64 / 1024.0);
        }
    }
    let [few_peaks, many_peaks] = peaks;
    let note = |seeds: u64, found: u32| {
        let command = memory_sweep_args(seeds).join(" ");
        let failures = if found > 0 {
            crate::plumbing::output::note(format_args!(
                "bench: `deja {command}` found failures (exit 4); its peak still counts"
            ));
            "; the sweep FOUND FAILURES (exit 4)"
        } else {
            ""
        };
        format!(
            "deja {command}, a child process; its peak resident memory (wait4's ru_maxrss); this process's own peak when it began was {:.1} MiB, a floor under it (Linux counts a child's peak from its parent's){failures}",
            floor as f64 / 1024.0
        )
    };
    let small = Row::new(
        BenchFigure::Memory,
        format!("peak memory, {}-seed sweep", grouped(few as f64, 0)),
        "MiB",
        few_peaks,
        None,
        note(few, found[0]),
    );
    let limit = small.median + FLAT_MIB;
    let target = Target {
        at_least: None,
        at_most: Some(limit),
        text: format!(
            "<= {} (flat: {}-seed peak + {FLAT_MIB:.0} MiB)",
            grouped(limit, 1),
            grouped(few as f64, 0)
        ),
    };
    let large = Row::new(
        BenchFigure::Memory,
        format!("peak memory, {}-seed sweep", grouped(many as f64, 0)),
        "MiB",
        many_peaks,
        Some(target),
        note(many, found[1]),
    );
    Ok(vec![small, large])
}

#[cfg(not(unix))]
fn memory_rows(_args: &BenchArgs, _scratch: &Scratch) -> Result<Vec<Row>, String> {
    crate::plumbing::output::note(
        "bench: peak memory is measured on Unix only (wait4's rusage); left out",
    );
    Ok(Vec::new())
}

/// The arguments of a memory sweep of seeds 1..=`seeds`.
fn memory_sweep_args(seeds: u64) -> Vec<String> {
    [
        "sweep",
        "--seeds",
        &format!("1..{}", u128::from(seeds) + 1),
        "--bot",
        "random",
        "--jobs",
        &SWEEP_JOBS.to_string(),
        "--format",
        "json",
        "-o",
        "memory-sweep.json",
        "-q",
    ]
    .map(String::from)
    .to_vec()
}

/// Runs this executable with `args` in `dir` to its end; its exit code and
/// its peak resident memory in KiB. The child is reaped by `wait4`, not
/// by `Child::wait`: wait4 gives its rusage.
#[cfg(unix)]
fn peak_of_child(args: &[String], dir: &std::path::Path) -> Result<(u8, u64), String> {
    use std::process::{Command, Stdio};
    let exe = std::env::current_exe().map_err(|e| format!("finding deja's own executable: {e}"))?;
    let child = Command::new(&exe)
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("{}: {e}", exe.display()))?;
    let pid = libc::pid_t::try_from(child.id()).map_err(|_| "a child's pid out of range")?;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: pid is our child, not yet waited for; both pointers are valid.
        let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if waited == pid {
            break;
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(format!("waiting for the memory sweep: {e}"));
        }
    }
    if !libc::WIFEXITED(status) {
        return Err(format!(
            "the memory sweep `deja {}` did not exit: ended by signal {}",
            args.join(" "),
            libc::WTERMSIG(status)
        ));
    }
    let code = u8::try_from(libc::WEXITSTATUS(status)).unwrap_or(u8::MAX);
    Ok((code, max_rss_kib(usage.ru_maxrss)))
}

/// This process's peak resident memory so far, in KiB.
#[cfg(unix)]
fn own_peak_kib() -> u64 {
    // SAFETY: a zeroed rusage is a valid value for getrusage to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a rusage.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0;
    }
    max_rss_kib(usage.ru_maxrss)
}

/// `ru_maxrss` in KiB: macOS gives bytes, the others KiB.
#[cfg(unix)]
fn max_rss_kib(max_rss: libc::c_long) -> u64 {
    let value = u64::try_from(max_rss).unwrap_or(0);
    if cfg!(target_os = "macos") {
        value / 1024
    } else {
        value
    }
}

// ----- replay, recording, viewer -----

fn replay_row(
    args: &BenchArgs,
    recordings: &[Recording],
    content: &Arc<Content>,
) -> Result<Row, String> {
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
                return Err(format!(
                    "a bench run did not replay the same: {}",
                    report.verdict
                ));
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
        Some(Target::at_least(1_000_000.0, "")),
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
fn recording_rows(
    args: &BenchArgs,
    recordings: &[Recording],
    scratch: &Scratch,
) -> Result<Vec<Row>, String> {
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
    rows.insert(
        0,
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
        ),
    );
    Ok(rows)
}

/// The viewer's step back in a 100,000-key recording: from a step, the
/// game one step before (keyframe + keys pressed again) and its frame.
fn viewer_rows(
    seed: u64,
    recordings: &[Recording],
    content: Arc<Content>,
) -> Result<Vec<Row>, String> {
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
fn percentile_95(times: &[f64]) -> String {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let value = sorted[sorted.len() * 95 / 100];
    grouped(value, decimals_for(value))
}

/// Times in milliseconds of going one step back from random steps and
/// drawing the frame there.
fn step_back_times(timeline: &crate::replay::timeline::Timeline, seed: u64) -> Vec<f64> {
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

// ----- the fuzz body -----

/// The `intents` target's body on 64-intent inputs, natively on this
/// thread, as `cargo bench -p harness --bench fuzz` runs it: every input
/// once first (a fuzzer's started games are kept), then timed.
fn fuzz_row(args: &BenchArgs) -> Result<Row, String> {
    use crate::fuzz::bench::{INTENTS_EACH, SEEDS, intents_inputs};
    let count = usize::try_from(args.fuzz_inputs).map_err(|_| "--fuzz-inputs is too large here")?;
    crate::plumbing::output::note(format_args!(
        "bench: the intents fuzz body, {} inputs, {}",
        grouped(count as f64, 0),
        runs_text(args.runs)
    ));
    let inputs = intents_inputs(count, INTENTS_EACH);
    // The body's first call makes a hang abort the process, as a fuzzer
    // wants; here a hang is reported as every other command reports it.
    let _ = crate::fuzz::planted();
    crate::run::watchdog::on_hang(Box::new(crate::run::watchdog::write_to_working_directory));
    let mut failed = 0_u64;
    for input in &inputs {
        failed += u64::from(crate::fuzz::intents(input).is_err());
    }
    let mut rates = Vec::new();
    for _ in 0..args.runs {
        let started = Instant::now();
        for input in &inputs {
            std::hint::black_box(crate::fuzz::intents(input).is_err());
        }
        rates.push(count as f64 / started.elapsed().as_secs_f64().max(1e-9));
    }
    let failures = if failed > 0 {
        crate::plumbing::output::note(format_args!(
            "bench: {failed} of the fuzz inputs fail; the figure still counts"
        ));
        format!("; {failed} of the inputs FAIL")
    } else {
        String::new()
    };
    Ok(Row::new(
        BenchFigure::Fuzz,
        "intents fuzz body, 64 intents",
        "execs/s",
        rates,
        Some(Target::at_least(10_000.0, " (libFuzzer)")),
        format!(
            "harness::fuzz::intents natively on one thread over {} inputs of {INTENTS_EACH} intents on {SEEDS} seeds, each run once first (as cargo bench -p harness --bench fuzz); libFuzzer's figure is lower, its coverage instrumentation costing (docs/fuzzing.md), so this is its ceiling and met says whether the ceiling reaches the target{failures}",
            grouped(count as f64, 0),
        ),
    ))
}

// ----- the runs -----

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_in_thousands() {
        assert_eq!(grouped(0.0, 0), "0");
        assert_eq!(grouped(999.0, 0), "999");
        assert_eq!(grouped(1000.0, 0), "1,000");
        assert_eq!(grouped(1_234_567.89, 1), "1,234,567.9");
        assert_eq!(grouped(0.0412, 3), "0.041");
        assert_eq!(grouped(-12_345.0, 0), "-12,345");
    }

    #[test]
    fn a_row_is_its_samples_median_and_spread() {
        let row = Row::new(
            BenchFigure::Replay,
            "r",
            "steps/s",
            vec![3.0, 1.0, 2.0, 10.0],
            Some(Target::at_least(2.0, "")),
            "",
        );
        assert_eq!(
            (row.median, row.min, row.max, row.runs),
            (2.5, 1.0, 10.0, 4)
        );
        assert_eq!(row.met, Some(true));
        assert_eq!(row.samples, vec![3.0, 1.0, 2.0, 10.0]);
    }

    #[test]
    fn seed_ranges_read_as_they_are_written() {
        assert_eq!(seed_range_text((1, 201)), "1..201");
        assert_eq!(
            seed_range_text((5, crate::sweep::SEEDS_END)),
            format!("5..={}", u64::MAX)
        );
    }
}
