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
use std::time::Instant;

use clap::Args;
use game_core::content::Content;
use serde::Serialize;

use crate::commands::args::{Format, parse_seed_range};

mod fuzz;
mod memory;
mod pressing;
mod replaying;
mod runs;
mod sweeps;

use crate::plumbing::error::{CommandResult, Error};
use crate::plumbing::exit::Exit;
use fuzz::fuzz_row;
use memory::memory_rows;
use pressing::press_row;
use replaying::{recording_rows, replay_row, viewer_rows};
use runs::bench_runs;
use sweeps::{explorer_row, floors_row};

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
    /// Explorer runs (one a seed from --seed) whose keys the press row
    /// presses checked and bare.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub press_seeds: u64,
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
    /// The replayed runs' keys through a checking runner against `Game::press` alone: the time's ratio.
    Press,
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
    pub const ALL: [BenchFigure; 8] = [
        BenchFigure::Explorer,
        BenchFigure::Floors,
        BenchFigure::Replay,
        BenchFigure::Press,
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
            BenchFigure::Press => "press",
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

    fn at_most(value: f64, text: &str) -> Target {
        Target {
            at_least: None,
            at_most: Some(value),
            text: format!("<= {}{text}", grouped(value, 1)),
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
        let median = median(&samples);
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

/// The middle sample, or the mean of the two middle ones.
fn median(samples: &[f64]) -> f64 {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[middle]
    } else {
        (sorted[middle - 1] + sorted[middle]) / 2.0
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

pub fn run(args: BenchArgs) -> CommandResult {
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
    let say = |line: String| -> Result<(), Error> {
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
    Ok(Exit::Ok)
}

/// Every figure `--only` chose, measured in the table's groups: memory
/// first, while this process is small (see the module's note), then the
/// sweeps, the replayed runs' figures and the fuzz body.
fn measure(args: &BenchArgs, laps: &mut Laps) -> Result<Vec<Row>, Error> {
    let chosen = |figure: BenchFigure| args.only.is_empty() || args.only.contains(&figure);
    let mut rows = Vec::new();
    let scratch = Scratch::new()?;
    if chosen(BenchFigure::Memory) {
        rows.extend(memory_rows(args, &scratch)?);
        laps.lap("memory");
    }
    if chosen(BenchFigure::Explorer) || chosen(BenchFigure::Floors) {
        crate::sweep::hang_reports_into(None);
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
    if [
        BenchFigure::Replay,
        BenchFigure::Press,
        BenchFigure::Recording,
        BenchFigure::Viewer,
    ]
    .into_iter()
    .any(chosen)
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
        if chosen(BenchFigure::Press) {
            rows.push(press_row(args, &recordings, &content)?);
            laps.lap("press");
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
fn write_record(path: &Path, rows: &[Row], seconds: f64) -> Result<(), Error> {
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
        crate::plumbing::output::note(format_args!(
            "wrote {}",
            crate::plumbing::printable::path(path)
        ));
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
    fn new() -> Result<Scratch, Error> {
        let dir = crate::plumbing::files::fresh_dir(
            &std::env::temp_dir(),
            &format!("deja-bench-{}", std::process::id()),
        )?;
        Ok(Scratch { dir })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
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
