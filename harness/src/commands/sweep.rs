//! `deja sweep` and `deja merge`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::Args;

use crate::commands::args::{
    ContentArgs, Format, parse_canary, parse_depth_range, parse_seed_range, parse_shard,
};
use crate::plumbing::error::CommandResult;
use crate::plumbing::error::Error;
use crate::plumbing::exit::Exit;
use crate::sweep::verdict::{GROUPS_PRINTED, Text, print_groups};
use crate::sweep::{self, DepthRange, MapSize, Saving, SeedRange, Shard, SweepReport, SweepSpec};

#[derive(Args)]
pub struct SweepArgs {
    /// Seeds to sweep, START..END (END excluded) or START..=LAST (LAST may
    /// be 18446744073709551615).
    #[arg(long, default_value_t = SweepSpec::DEFAULT_SEEDS, value_parser = seed_range)]
    pub seeds: SeedRange,
    /// Floors to generate and check for each seed, FIRST..=LAST.
    #[arg(long, default_value_t = SweepSpec::DEFAULT_DEPTHS, value_parser = depth_range)]
    pub depths: DepthRange,
    /// The bot that plays each seed from the start.
    #[arg(long, value_enum, default_value_t = SweepSpec::DEFAULT_BOT)]
    pub bot: crate::sweep::bots::BotKind,
    /// Most keys the bot presses per seed (`--turns`, its old name, still
    /// works).
    #[arg(long, alias = "turns", default_value_t = SweepSpec::DEFAULT_KEYS, value_parser = clap::value_parser!(u64).range(1..=crate::sweep::MOST_KEYS))]
    pub keys: u64,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
    /// Run only part I of N of the seeds, e.g. 2/4.
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<(u32, u32)>,
    /// The report: `text`, the summary for people (on standard output), or
    /// `json`, every seed's result and the summary for scripts and `merge`.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Where the JSON report goes (`-`: standard output, the default, and
    /// the summary then goes to standard error).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write a recording that reproduces each failure into this directory.
    #[arg(long, value_name = "DIR")]
    pub save_failures: Option<PathBuf>,
    /// Shrink the smallest case of each group of failures (as `deja
    /// shrink` does) and save it beside its recording as NAME-shrunk.ron.
    #[arg(long, requires = "save_failures")]
    pub shrink: bool,
    /// Stop at the lowest failing seed: seeds above a failure are skipped,
    /// seeds below it still run, and the report covers the seeds up to it,
    /// so it is the same whatever --jobs is.
    #[arg(long)]
    pub fail_fast: bool,
    /// The most keys in a row a bot may press without revealing ground,
    /// changing floor, fighting, moving an item or coming nearer the unknown
    /// or the way down (default: 200 for the explorer, 1500 for the random
    /// bot).
    #[arg(long, value_name = "KEYS", value_parser = clap::value_parser!(u64).range(1..=crate::sweep::MOST_KEYS))]
    pub progress_limit: Option<u64>,
    /// Compare the sweep's figures with this baseline file's entry for the
    /// same kind of sweep; a figure outside its band fails the sweep.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write this sweep's figures into the baseline file as the entry for its
    /// kind of sweep (after an intended change to the game).
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub bless_baseline: Option<PathBuf>,
    /// Seconds one key may take before it is reported as a hang.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub hang_seconds: Option<u64>,
    /// Map size, WIDTHxHEIGHT.
    #[arg(long, default_value_t = SweepSpec::DEFAULT_MAP, value_parser = map_size)]
    pub map_size: MapSize,
    /// Switch on a planted defect in every run (testing the harness; needs a
    /// build with the `canary` feature). Repeatable.
    #[arg(long, value_name = "NAME", value_parser = parse_canary())]
    pub canary: Vec<game_core::canary::Canary>,
    #[command(flatten)]
    pub content: ContentArgs,
}

#[derive(Args)]
pub struct MergeArgs {
    /// Shard reports (from `sweep --format json -o FILE`).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the merged report here instead of standard output.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

pub fn run(args: SweepArgs) -> CommandResult {
    let content = super::load_content(&args.content)?;
    let spec = spec(&args);
    let (baselines, json_to, text) = check_inputs_and_outputs(&args, &spec)?;
    sweep::hang_reports_into(args.save_failures.clone());
    let (report, elapsed, results_file) = sweep_seeds(&args, &spec, &content, json_to.as_deref())?;
    let mut found = say_what_was_found(&report, elapsed, &content, &text)?;
    if let Some(file) = results_file
        && let Err(message) = file.write(&report)
    {
        crate::plumbing::output::err(format_args!("error: {message}"));
        return Ok(if found > 0 {
            Exit::Failure
        } else {
            Exit::Error
        });
    }
    if report.incomplete.is_some() {
        if let Some(path) = json_to
            .as_deref()
            .filter(|p| !crate::plumbing::files::is_stdout(p))
        {
            text.say(format!(
                "wrote {}, marked incomplete (merge refuses it)",
                crate::plumbing::printable::path(path)
            ))?;
        }
        return Ok(Exit::Interrupted);
    }
    if args.shrink {
        shrink_groups(
            &report.summary.groups,
            &content,
            args.content.content.as_deref(),
            &text,
        )?;
    }
    found += bless_or_compare(&args, baselines, &report, &content, found, &text)?;
    Ok(if found > 0 { Exit::Failure } else { Exit::Ok })
}

/// The sweep itself, with its progress on standard error until a signal
/// stops it: the report, how long it took, and the file of its results
/// (made beside `json_to` before the sweep, so a directory that cannot
/// take the report fails before any seed is spent).
fn sweep_seeds(
    args: &SweepArgs,
    spec: &SweepSpec,
    content: &std::sync::Arc<game_core::content::Content>,
    json_to: Option<&std::path::Path>,
) -> Result<(SweepReport, Duration, Option<sweep::ResultsFile>), Error> {
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    let total = spec.seed_count();
    // SIGINT and SIGTERM stop the sweep taking seeds; what it covered is
    // summed up and written, marked incomplete, and it exits 130.
    let stop = crate::plumbing::interrupt::stop_on_signals(true);
    let progress = Progress::new(total);
    let started = Instant::now();
    let saving = Saving {
        dir: args.save_failures.clone(),
    };
    let options = sweep::RunOptions {
        fail_fast: args.fail_fast,
        stop: Some(stop),
    };
    let mut results_file = json_to.map(sweep::ResultsFile::beside).transpose()?;
    let report = sweep::run(
        spec,
        content,
        jobs,
        &saving,
        options,
        &|result| progress.seed_done(result),
        &mut |result| {
            if let Some(file) = results_file.as_mut() {
                file.add(result);
            }
        },
    )?;
    progress.finish();
    Ok((report, started.elapsed(), results_file))
}

/// The summary, whether a signal cut the sweep short, and the commands that
/// never work, said before the report is written: a report that cannot be
/// written at the end (the disk filled, the directory went) must not hide
/// what the sweep found. How many failures that is.
fn say_what_was_found(
    report: &SweepReport,
    elapsed: Duration,
    content: &game_core::content::Content,
    text: &Text,
) -> Result<u64, Error> {
    let situations = checks::reach::ids(content);
    print_summary(report, elapsed, &situations, text)?;
    if let Some(cut) = &report.incomplete {
        text.say(format!(
            "INTERRUPTED: covered {} of {} seeds; the figures above are of those seeds",
            cut.covered, cut.of
        ))?;
    }
    let mut found = report.summary.failures;
    for problem in sweep::commands_that_never_work(&report.summary) {
        text.say(format!("FAILURE commands: {problem}"))?;
        found += 1;
    }
    Ok(found)
}

/// Every input read and every output checked before the sweep spends its
/// time: the baselines (read), where the JSON report goes (-o, standard
/// output by default) and where the summary for people goes (standard
/// output, or standard error when the report is there).
fn check_inputs_and_outputs(
    args: &SweepArgs,
    spec: &SweepSpec,
) -> Result<
    (
        Option<crate::sweep::baseline::Baselines>,
        Option<PathBuf>,
        Text,
    ),
    Error,
> {
    if let Some(seconds) = args.hang_seconds {
        crate::run::watchdog::set_budget(seconds);
    }
    use crate::sweep::baseline::Baselines;
    let baselines = match (&args.baseline, &args.bless_baseline) {
        (Some(path), _) => Some(Baselines::read(path)?),
        (None, Some(path)) => Some(Baselines::read_or_empty(path)?),
        (None, None) => None,
    };
    if !spec.canaries.is_empty() && !game_core::canary::Canaries::AVAILABLE {
        return Err(game_core::game::ConfigError::CanariesUnavailable
            .to_string()
            .into());
    }
    if let Some(dir) = &args.save_failures {
        crate::plumbing::files::check_output_dir(dir)?;
    }
    let json_to =
        (args.format == Format::Json).then(|| args.output.clone().unwrap_or_else(|| "-".into()));
    if args.format == Format::Text && args.output.is_some() {
        return Err(
            "-o takes the JSON report; add --format json (the text summary goes to standard output)"
                .into(),
        );
    }
    let text = if json_to
        .as_deref()
        .is_some_and(crate::plumbing::files::is_stdout)
    {
        Text::STDERR
    } else {
        Text::STDOUT
    };
    // The baseline blessed is read and rewritten on purpose; the report
    // must not land on it, or on any file the sweep reads.
    let mut read = args.content.files();
    if let Some(path) = &args.bless_baseline {
        crate::plumbing::files::check_output_file(path, &read)?;
    }
    read.extend(args.baseline.clone());
    read.extend(args.bless_baseline.clone());
    if let Some(path) = &json_to {
        crate::plumbing::files::check_output_file(path, &read)?;
    }
    Ok((baselines, json_to, text))
}

/// `--bless-baseline`: the sweep's figures written into the file, unless it
/// found failures. `--baseline`: the figures and reach held to the file's;
/// how many fall short.
fn bless_or_compare(
    args: &SweepArgs,
    baselines: Option<crate::sweep::baseline::Baselines>,
    report: &sweep::SweepReport,
    content: &game_core::content::Content,
    found: u64,
    text: &Text,
) -> Result<u64, Error> {
    let Some(mut baselines) = baselines else {
        return Ok(0);
    };
    if let Some(path) = &args.bless_baseline {
        if found > 0 {
            return Err(format!(
                "{}: not blessed: the sweep found failures; fix them first",
                crate::plumbing::printable::path(path)
            )
            .into());
        }
        baselines
            .bless(report)
            .map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(path)))?;
        crate::plumbing::files::write_atomic(path, baselines.to_text().as_bytes())?;
        text.say(format!(
            "blessed the {} sweep's figures into {}",
            sweep::bot_name(report.spec.bot),
            crate::plumbing::printable::path(path)
        ))?;
        return Ok(0);
    }
    match &args.baseline {
        Some(path) => {
            let situations = checks::reach::ids(content);
            compare_with_baseline(report, &baselines, path, &situations, text)
        }
        None => Ok(0),
    }
}

/// `--seeds START..END`.
fn seed_range(text: &str) -> Result<SeedRange, Error> {
    parse_seed_range(text).map(|(start, end)| SeedRange { start, end })
}

/// `--depths FIRST..=LAST`.
fn depth_range(text: &str) -> Result<DepthRange, Error> {
    parse_depth_range(text).map(|(first, last)| DepthRange { first, last })
}

/// `--map-size WIDTHxHEIGHT`.
fn map_size(text: &str) -> Result<MapSize, Error> {
    crate::play::frames::parse_map_size(text).map(|(width, height)| MapSize {
        width: i32::from(width),
        height: i32::from(height),
    })
}

/// What `args` ask to sweep.
fn spec(args: &SweepArgs) -> SweepSpec {
    SweepSpec {
        seeds: args.seeds,
        depths: args.depths,
        bot: args.bot,
        keys: args.keys,
        map_width: args.map_size.width,
        map_height: args.map_size.height,
        canaries: args.canary.iter().map(|c| c.name().to_string()).collect(),
        shard: args.shard.map(|(index, count)| Shard { index, count }),
        progress_limit: args
            .progress_limit
            .unwrap_or_else(|| sweep::default_progress_limit(args.bot)),
    }
}

/// Prints how the sweep's figures stand against the baseline; returns how
/// many left their band.
fn compare_with_baseline(
    report: &SweepReport,
    baselines: &crate::sweep::baseline::Baselines,
    path: &std::path::Path,
    situations: &[String],
    text: &Text,
) -> Result<u64, Error> {
    let bot = sweep::bot_name(report.spec.bot);
    let Some(entry) = baselines.entry(&report.spec) else {
        return Err(format!(
            "{}: no baseline for the {bot} sweep of {} keys over depths {}..={} on {}x{} maps; make one with --bless-baseline",
            crate::plumbing::printable::path(path),
            report.spec.keys,
            report.spec.depths.first,
            report.spec.depths.last,
            report.spec.map_width,
            report.spec.map_height
        ).into());
    };
    let deviations = crate::sweep::baseline::deviations(entry, &report.summary.figures);
    for deviation in &deviations {
        text.say(format!("FAILURE baseline: {bot}: {deviation}"))?;
    }
    text.say(format!(
        "baseline {}: {} of {} figures within their bands",
        crate::plumbing::printable::path(path),
        report
            .summary
            .figures
            .len()
            .saturating_sub(deviations.len()),
        report.summary.figures.len()
    ))?;
    let mut failed = deviations.len() as u64;
    if let Some(run) = &report.summary.bot {
        let (held, short) = crate::sweep::baseline::compare_reach(entry, run, situations);
        for shortfall in &short {
            text.say(format!("FAILURE reach: {bot}: {shortfall}"))?;
        }
        text.say(format!(
            "baseline {}: {} of {held} situations reached as often as their baseline",
            crate::plumbing::printable::path(path),
            held.saturating_sub(short.len()),
        ))?;
        failed += short.len() as u64;
    }
    Ok(failed)
}

/// The end-of-sweep summary: what was checked, what the game looked like,
/// and every failure with the command that reproduces it.
fn print_summary(
    report: &SweepReport,
    elapsed: Duration,
    situations: &[String],
    text: &Text,
) -> Result<(), Error> {
    let s = &report.summary;
    let seconds = elapsed.as_secs_f64().max(1e-9);
    text.say(format!(
        "swept {} seeds: {} floors ({:.0}/s), {} failures, in {:.1}s",
        s.seeds,
        s.floors,
        s.floors as f64 / seconds,
        s.failures,
        seconds
    ))?;
    for (depth, d) in &s.depths {
        let generators: Vec<String> = d
            .generators
            .iter()
            .map(|(g, n)| format!("{g} {n}"))
            .collect();
        text.say(format!(
            "  depth {depth}: {} floors ({}); mean walkable {}, reachable {}, rooms {}, stairs {} steps; {} monsters, {} items",
            d.floors,
            generators.join(", "),
            d.mean_walkable,
            d.mean_reachable,
            d.mean_rooms,
            d.mean_stairs_distance,
            d.monsters,
            d.items
        ))?;
    }
    if let Some(bot) = &s.bot {
        text.say(format!(
            "bot {}: {} runs, {} won ({:.1}%), {} keys, {} turns ({:.0} turns/s)",
            sweep::bot_name(report.spec.bot),
            bot.runs,
            bot.wins,
            bot.win_rate_permille as f64 / 10.0,
            bot.keys,
            bot.turns,
            bot.turns as f64 / seconds
        ))?;
        let deepest: Vec<String> = bot
            .deepest
            .iter()
            .map(|(d, n)| format!("{d}: {n}"))
            .collect();
        text.say(format!("  {}", ended(&bot.outcomes, bot.runs)))?;
        text.say(format!("  deepest floor reached: {}", deepest.join(", ")))?;
        text.say(format!("  {}", reach_line(bot, situations)))?;
        for line in killer_lines(bot) {
            text.say(line)?;
        }
        text.say("  commands (pressed, worked):")?;
        for line in sweep::command_table(bot) {
            text.say(format!("    {line}"))?;
        }
    }
    print_groups("", &report.summary.groups, text)?;
    Ok(())
}

/// "ended: 101 won, 99 died, 0 quit, 0 out of keys, 0 stuck, 0 failed
/// (200 runs)": every way a run can end, so the counts account for every
/// run.
fn ended(outcomes: &sweep::Outcomes, runs: u64) -> String {
    let counts: Vec<String> = outcomes
        .named()
        .iter()
        .map(|(how, n)| format!("{n} {how}"))
        .collect();
    format!("ended: {} ({runs} runs)", counts.join(", "))
}

/// The most situations the reach line names as rarest, or as never reached.
const SITUATIONS_NAMED: usize = 6;

/// "reached 140 of 157 situations; rarest: pack.full 1, ...; never:
/// run.stopped.limit, ...": how much of the reach catalogue the runs met
/// (docs/invariants.md), the JSON report having every count.
fn reach_line(bot: &sweep::BotSummary, situations: &[String]) -> String {
    let named = |ids: Vec<String>| {
        let more = ids.len().saturating_sub(SITUATIONS_NAMED);
        let mut shown: Vec<String> = ids.into_iter().take(SITUATIONS_NAMED).collect();
        if more > 0 {
            shown.push(format!("and {more} more"));
        }
        shown.join(", ")
    };
    let mut rarest: Vec<(&String, u64)> = situations
        .iter()
        .filter_map(|id| bot.reach.get(id).map(|r| (id, r.times)))
        .collect();
    rarest.sort_by_key(|&(id, times)| (times, id));
    let never: Vec<String> = situations
        .iter()
        .filter(|id| !bot.reach.contains_key(*id))
        .cloned()
        .collect();
    let mut line = format!(
        "reached {} of {} situations",
        rarest.len(),
        situations.len()
    );
    if !rarest.is_empty() {
        let rare: Vec<String> = rarest
            .iter()
            .take(SITUATIONS_NAMED)
            .map(|(id, n)| format!("{id} {n}"))
            .collect();
        line.push_str(&format!("; rarest: {}", rare.join(", ")));
    }
    if !never.is_empty() {
        line.push_str(&format!("; never: {}", named(never)));
    }
    line
}

/// The most killers the text summary names; the rest are counted in one
/// line, and the JSON report has every cause.
const KILLERS_PRINTED: usize = 8;

/// The deaths by killer ([`sweep::killers`], the ranking the balance report
/// shows too), each with the tombstone's causes it stands for when there
/// is more than one (its blows and its poison), then what the first
/// [`KILLERS_PRINTED`] leave out.
fn killer_lines(bot: &sweep::BotSummary) -> Vec<String> {
    let killers = sweep::killers(bot);
    if killers.is_empty() {
        return vec!["  deaths: none".to_string()];
    }
    let mut lines = vec![format!("  deaths by killer ({}):", sweep::KILLER_MEANS)];
    for (kind, n) in killers.iter().take(KILLERS_PRINTED) {
        let mut causes: Vec<(&String, u64)> = bot
            .deaths
            .iter()
            .filter(|(cause, _)| sweep::killer(cause) == *kind)
            .map(|(cause, &n)| (cause, n))
            .collect();
        causes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        let how = if causes.len() > 1 {
            let each: Vec<String> = causes.iter().map(|(c, n)| format!("{n} {c}")).collect();
            format!(" ({})", each.join(", "))
        } else {
            String::new()
        };
        lines.push(format!("    {n} {kind}{how}"));
    }
    let rest = &killers[killers.len().min(KILLERS_PRINTED)..];
    if !rest.is_empty() {
        let deaths: u64 = rest.iter().map(|(_, n)| n).sum();
        lines.push(format!(
            "    and {deaths} more {} by {} other {}",
            if deaths == 1 { "death" } else { "deaths" },
            rest.len(),
            if rest.len() == 1 { "killer" } else { "killers" }
        ));
    }
    lines
}

/// Shrinks the smallest case of each printed group, as `deja shrink` does
/// with its default budget, and saves it beside the case's recording as a
/// new file (`NAME-shrunk.ron`, or `NAME-shrunk-2.ron`, ... when taken).
fn shrink_groups(
    groups: &[sweep::FailureGroup],
    content: &std::sync::Arc<game_core::content::Content>,
    content_dir: Option<&std::path::Path>,
    text: &Text,
) -> Result<(), Error> {
    use crate::replay::shrink::count_keys;
    for group in groups.iter().take(GROUPS_PRINTED) {
        let Some(saved) = &group.smallest.recording else {
            continue;
        };
        let path = std::path::PathBuf::from(saved);
        let recording = crate::recording::read(&path)?;
        let shrunk = crate::replay::shrink::shrink(
            &recording,
            content.clone(),
            content_dir,
            crate::replay::shrink::DEFAULT_MAX_TRIES,
        )
        .map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(&path)))?;
        let stem = path
            .file_stem()
            .map_or_else(|| "failure".into(), |s| s.to_string_lossy());
        let beside = crate::plumbing::files::Destination::New {
            dir: match path.parent() {
                Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
                _ => PathBuf::from("."),
            },
            stem: format!("{stem}-shrunk"),
            extension: "ron",
        };
        let out = crate::recording::write_to(&beside, &shrunk.recording)?;
        text.say(format!(
            "shrunk {}: {} -> {}: deja replay {}",
            crate::plumbing::printable::escape(&group.signature),
            count_keys(shrunk.keys_before),
            count_keys(shrunk.keys_after),
            crate::plumbing::printable::path(&out)
        ))?;
    }
    Ok(())
}

/// Progress on standard error: a bar with rate and ETA on a terminal, plain
/// lines every tenth of the way otherwise (logs stay readable).
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    total: u64,
    done: AtomicU64,
    failures: AtomicU64,
    started: Instant,
    last_line: Mutex<u64>,
}

impl Progress {
    fn new(total: u64) -> Progress {
        let bar =
            (std::io::stderr().is_terminal() && !crate::plumbing::output::quiet()).then(|| {
                let bar = indicatif::ProgressBar::new(total);
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{bar:40} {pos}/{len} seeds  {per_sec}  eta {eta}  {msg}",
                    )
                    .expect("a valid template"),
                );
                bar
            });
        Progress {
            bar,
            total,
            done: AtomicU64::new(0),
            failures: AtomicU64::new(0),
            started: Instant::now(),
            last_line: Mutex::new(0),
        }
    }

    fn seed_done(&self, result: &sweep::SeedResult) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        let failures = self
            .failures
            .fetch_add(result.failures.len() as u64, Ordering::Relaxed)
            + result.failures.len() as u64;
        if let Some(bar) = &self.bar {
            bar.inc(1);
            if failures > 0 {
                bar.set_message(format!("{failures} failures"));
            }
            return;
        }
        if crate::plumbing::output::quiet() {
            return;
        }
        let tenth = (done * 10 / self.total.max(1)).min(10);
        let mut last = self
            .last_line
            .lock()
            .expect("the progress lock is never poisoned");
        if tenth > *last {
            *last = tenth;
            let seconds = self.started.elapsed().as_secs_f64().max(1e-9);
            crate::plumbing::output::err(format_args!(
                "sweep: {done}/{} seeds ({:.0}/s), {failures} failures",
                self.total,
                done as f64 / seconds
            ));
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

pub fn merge(args: MergeArgs) -> CommandResult {
    if let Some(path) = &args.output {
        crate::plumbing::files::check_output_file(path, &args.files)?;
    }
    let mut reports = Vec::new();
    for file in &args.files {
        // The results are kept: the merged report holds them all.
        reports.push(sweep::read::file(file, sweep::read::Keep::Results)?);
    }
    let merged = sweep::merge(reports)?;
    let json = sweep::to_json(&merged);
    match &args.output {
        Some(path) => {
            crate::plumbing::files::write_atomic(path, json.as_bytes())?;
            // As every command that writes a file says so (`--quiet` leaves
            // it out); on standard output the JSON is all there is.
            crate::plumbing::output::note(format!(
                "wrote the merge of {} {} ({} seeds) to {}",
                args.files.len(),
                if args.files.len() == 1 {
                    "report"
                } else {
                    "reports"
                },
                merged.summary.seeds,
                crate::plumbing::printable::path(path)
            ));
        }
        None => crate::plumbing::output::out(json.trim_end())?,
    }
    Ok(if merged.summary.failures > 0 {
        Exit::Failure
    } else {
        Exit::Ok
    })
}

#[cfg(test)]
mod tests {
    use clap::{Parser, ValueEnum};

    use super::*;
    use crate::sweep::bots::BotKind;

    #[derive(Parser)]
    struct SweepLine {
        #[command(flatten)]
        args: SweepArgs,
    }

    /// The command line's defaults are the spec's: `deja sweep --bot BOT`
    /// sweeps `SweepSpec::new(BOT)`, and `deja sweep` its default bot.
    #[test]
    fn the_command_lines_defaults_are_the_specs() {
        let line = SweepLine::try_parse_from(["sweep"]).expect("no arguments parse");
        assert_eq!(spec(&line.args), SweepSpec::new(SweepSpec::DEFAULT_BOT));
        for &bot in BotKind::value_variants() {
            let line = SweepLine::try_parse_from(["sweep", "--bot", bot.name()])
                .expect("a bot's name parses");
            assert_eq!(spec(&line.args), SweepSpec::new(bot), "{bot}");
        }
    }
}
