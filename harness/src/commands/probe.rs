//! `deja probe`: the harness's own dynamic checks, and nothing else, as one
//! measure of the bugs it catches (docs/mutation.md): sweeps of every floor
//! and sweeps with the random bot, the swarm and the explorer ([`SWEEPS`]),
//! each against its baseline (figures and reach) and the commands check, and every committed fuzz input through its body. No
//! unit test, snapshot or replay: those flag any change; this must pass on a
//! change that is not a bug.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use game_core::map::{DEFAULT_HEIGHT, DEFAULT_WIDTH, MIN_HEIGHT, MIN_WIDTH};

use crate::commands::args::ContentArgs;
use crate::plumbing::error::{CommandResult, Error};
use crate::plumbing::exit::Exit;
use crate::sweep::bots::BotKind;
use crate::sweep::verdict::{Text, print_groups};
use crate::sweep::{self, DepthRange, RunOptions, Saving, SeedRange, Shard, SweepSpec};

#[derive(Args)]
pub struct ProbeArgs {
    /// The first seed of every sweep (the floor sweeps cover 2000 seeds from here, the bots' 400 to 1000; the probe prints each range).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=u64::MAX / 2))]
    pub first_seed: u64,
    /// The baselines the sweeps' figures are held to.
    #[arg(long, default_value = "baselines/sweep.ron", value_name = "FILE")]
    pub baselines: PathBuf,
    /// The fuzz corpus to run.
    #[arg(long, default_value = "fuzz/corpus", value_name = "DIR")]
    pub corpus: PathBuf,
    /// Rewrite the baselines from these sweeps (after an intended change).
    #[arg(long)]
    pub bless: bool,
    /// Stop at the first part that finds something (what a mutation run
    /// wants: a caught mutant needs no more).
    #[arg(long, conflicts_with = "bless")]
    pub fail_fast: bool,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
    /// Write a recording that reproduces each failure into this directory.
    #[arg(long, value_name = "DIR")]
    pub save_failures: Option<PathBuf>,
    /// Seconds one key may take before it is reported as a hang.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub hang_seconds: Option<u64>,
    #[command(flatten)]
    pub content: ContentArgs,
}

/// Keys each bot run may press.
pub const KEYS: u64 = 3000;

/// One sweep of the probe: who plays (nobody, for a sweep of floors), on
/// what size of map, over how many seeds.
#[derive(Clone, Copy, Debug)]
pub struct ProbeSweep {
    pub bot: BotKind,
    pub map: (i32, i32),
    pub seeds: u64,
}

const fn floors(map: (i32, i32)) -> ProbeSweep {
    ProbeSweep {
        bot: BotKind::None,
        map,
        seeds: 2000,
    }
}

const DEFAULT_MAP: (i32, i32) = (DEFAULT_WIDTH, DEFAULT_HEIGHT);

/// The probe's sweeps, in the order they run, cheapest catch first (with
/// `--fail-fast`, what a mutation run uses, a caught mutant stops at the
/// first sweep that finds it). Every floor of 2000 seeds on the default
/// map, on a smaller one (where the landmark floors no longer fit and the
/// generators fall back), on the smallest map each generator promises to
/// build on (mapgen's table: 20x10 for rooms, caverns and BSP, where caves
/// are cramped and need mending; 28x11 for the temple; 70x18 for the Big
/// Room) and one column or row short of the landmarks' (where they must not
/// be built): a generator that stops building where it promised, or builds
/// where it cannot, moves their generator shares or breaks their floors.
/// Then the bots, where the time goes (about 50 s of the probe's 55 on 2
/// cores; the seeds are what keeps it under a minute): the random bot,
/// which presses what no player would; the swarm on a small map (whose
/// cells are no whole number of 64-bit words, where magic mapping and the
/// bit grids meet their spare bits); the explorer, one steady way of
/// playing whose figures have the narrowest bands; and the swarm on the
/// default map, each run with its own leanings, which reaches every
/// situation the others do.
pub const SWEEPS: [ProbeSweep; 14] = [
    floors(DEFAULT_MAP),
    floors((60, 20)),
    floors((24, 12)),
    floors((MIN_WIDTH, MIN_HEIGHT)),
    floors((28, 11)),
    floors((27, 11)),
    floors((28, 10)),
    floors((70, 18)),
    floors((69, 18)),
    floors((70, 17)),
    ProbeSweep {
        bot: BotKind::Random,
        map: DEFAULT_MAP,
        seeds: 1000,
    },
    ProbeSweep {
        bot: BotKind::Swarm,
        map: (60, 20),
        seeds: 400,
    },
    ProbeSweep {
        bot: BotKind::Explorer,
        map: DEFAULT_MAP,
        seeds: 500,
    },
    ProbeSweep {
        bot: BotKind::Swarm,
        map: DEFAULT_MAP,
        seeds: 800,
    },
];

/// The sweep `probe` stands for, from `first_seed`.
pub fn spec(probe: ProbeSweep, first_seed: u64) -> SweepSpec {
    let ProbeSweep { bot, map, seeds } = probe;
    SweepSpec {
        seeds: SeedRange {
            start: first_seed,
            end: u128::from(first_seed) + u128::from(seeds),
        },
        depths: DepthRange {
            first: 1,
            last: game_core::mapgen::LAST_DEPTH,
        },
        bot,
        keys: if bot == BotKind::None { 0 } else { KEYS },
        map_width: map.0,
        map_height: map.1,
        canaries: Vec::new(),
        shard: None::<Shard>,
        progress_limit: sweep::default_progress_limit(bot),
    }
}

pub fn run(args: ProbeArgs) -> CommandResult {
    let started = Instant::now();
    let content = super::load_content(&args.content)?;
    let mut baselines = check_inputs(&args)?;
    sweep::hang_reports_into(args.save_failures.clone());
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    let mut found = 0u64;
    let mut lines = Vec::new();
    // The situations of the reach catalogue any bot sweep reached.
    let situations = checks::reach::ids(&content);
    let mut reached = std::collections::BTreeSet::new();
    for probe in SWEEPS {
        let swept = sweep_one(probe, &args, &content, jobs, &mut baselines, &situations)?;
        reached.extend(swept.reached);
        found += swept.problems;
        if args.fail_fast && found > 0 {
            crate::plumbing::output::out(format!(
                "probe: the {} sweep found something; stopping (--fail-fast)",
                sweep_name(probe)
            ))?;
            return Ok(Exit::Failure);
        }
        lines.push(swept.line);
    }
    if args.bless {
        lines.push(write_blessed(&args, &baselines, found)?);
    }
    lines.push(reach_line(&situations, &reached));
    let clock = Instant::now();
    let corpus = crate::fuzz::corpus::check(&args.corpus)?;
    found += corpus.problems.len() as u64;
    lines.push(format!(
        "{:<15} {}: {} inputs, {} failures; {:.1}s",
        "corpus",
        crate::plumbing::printable::path(&args.corpus),
        corpus.ran.iter().map(|(_, n)| n).sum::<usize>(),
        corpus.problems.len(),
        clock.elapsed().as_secs_f64()
    ));
    say_what_was_found(lines, found, started)
}

/// What one of the probe's sweeps found: its problems (failures, commands
/// that never work, figures out of their bands), its line, and the
/// situations its bot reached.
struct Swept {
    problems: u64,
    line: String,
    reached: Vec<String>,
}

/// Runs the sweep `probe` and holds it to its baseline (or, with
/// `--bless`, blesses the baseline from it when it found nothing).
fn sweep_one(
    probe: ProbeSweep,
    args: &ProbeArgs,
    content: &std::sync::Arc<game_core::content::Content>,
    jobs: usize,
    baselines: &mut crate::sweep::baseline::Baselines,
    situations: &[String],
) -> Result<Swept, Error> {
    let spec = spec(probe, args.first_seed);
    let name = sweep_name(probe);
    let clock = Instant::now();
    let options = RunOptions {
        fail_fast: args.fail_fast,
        stop: None,
    };
    let saving = Saving {
        dir: args.save_failures.clone(),
    };
    let report = sweep::run(&spec, content, jobs, &saving, options, &|_| {}, &mut |_| {})?;
    let mut problems = report.summary.failures;
    print_groups(&format!("{name}: "), &report.summary.groups, &Text::STDOUT)?;
    for problem in sweep::commands_that_never_work(&report.summary) {
        crate::plumbing::output::out(format!("FAILURE {name} commands: {problem}"))?;
        problems += 1;
    }
    let against = if args.bless {
        if problems == 0 {
            baselines.bless(&report).map_err(|e| {
                format!("{}: {e}", crate::plumbing::printable::path(&args.baselines))
            })?;
        }
        "blessed".to_string()
    } else {
        let (against, deviations) =
            hold_to_baseline(&name, &report, baselines, &args.baselines, situations)?;
        problems += deviations;
        against
    };
    let line = format!(
        "{name:<15} seeds {}..{}: {} failures, {against}; {:.1}s",
        spec.seeds.start,
        spec.seeds.end,
        report.summary.failures,
        clock.elapsed().as_secs_f64()
    );
    let reached = report
        .summary
        .bot
        .as_ref()
        .map(|bot| bot.reach.keys().cloned().collect())
        .unwrap_or_default();
    Ok(Swept {
        problems,
        line,
        reached,
    })
}

/// `--bless`: writes the blessed baselines when the probe found nothing;
/// the line that says so.
fn write_blessed(
    args: &ProbeArgs,
    baselines: &crate::sweep::baseline::Baselines,
    found: u64,
) -> Result<String, Error> {
    let file = crate::plumbing::printable::path(&args.baselines);
    if found > 0 {
        return Err(format!(
            "{file}: not blessed: the probe found {found} problems; fix them first"
        )
        .into());
    }
    crate::plumbing::files::write_atomic(&args.baselines, baselines.to_text().as_bytes())?;
    Ok(format!("wrote {file}"))
}

/// The probe's lines, one per part, and its verdict; the exit code.
fn say_what_was_found(lines: Vec<String>, found: u64, started: Instant) -> CommandResult {
    crate::plumbing::output::out("probe:")?;
    for line in lines {
        crate::plumbing::output::out(format!("  {line}"))?;
    }
    crate::plumbing::output::out(format!(
        "probe: {} in {:.1}s",
        if found == 0 {
            "nothing found".to_string()
        } else {
            format!("{found} problems found")
        },
        started.elapsed().as_secs_f64()
    ))?;
    Ok(if found > 0 { Exit::Failure } else { Exit::Ok })
}

/// Every input checked before the first seed: the sweeps take minutes, and
/// a missing corpus or baseline file found after them (a probe run outside
/// the repository's root) wastes them. The baselines, read.
fn check_inputs(args: &ProbeArgs) -> Result<crate::sweep::baseline::Baselines, Error> {
    if let Some(seconds) = args.hang_seconds {
        crate::run::watchdog::set_budget(seconds);
    }
    if let Some(dir) = &args.save_failures {
        crate::plumbing::files::check_output_dir(dir)?;
    }
    if !args.bless && std::fs::symlink_metadata(&args.baselines).is_err() {
        return Err(format!(
            "{}: no such file; run from the repository's root, give --baselines FILE, or make it with --bless",
            crate::plumbing::printable::path(&args.baselines)
        ).into());
    }
    let baselines = if args.bless {
        crate::sweep::baseline::Baselines::read_or_empty(&args.baselines)?
    } else {
        crate::sweep::baseline::Baselines::read(&args.baselines)?
    };
    crate::fuzz::corpus::inputs(&args.corpus)?;
    if args.bless {
        // The baselines are read and rewritten on purpose: --bless's job.
        crate::plumbing::files::check_output_file(&args.baselines, &[])?;
    }
    Ok(baselines)
}

/// How a probe sweep is named in its lines: "floors 60x20", "explorer",
/// "swarm 60x20".
fn sweep_name(probe: ProbeSweep) -> String {
    let ProbeSweep { bot, map, .. } = probe;
    match bot {
        BotKind::None => format!("floors {}x{}", map.0, map.1),
        bot if map == DEFAULT_MAP => sweep::bot_name(bot).to_string(),
        bot => format!("{} {}x{}", sweep::bot_name(bot), map.0, map.1),
    }
}

/// A sweep's figures and reach held to its baseline: each deviation and
/// shortfall printed as a FAILURE line; the summary's words ("62/62 figures
/// in their bands, ...") and how many problems were found.
fn hold_to_baseline(
    name: &str,
    report: &sweep::SweepReport,
    baselines: &crate::sweep::baseline::Baselines,
    file: &std::path::Path,
    situations: &[String],
) -> Result<(String, u64), Error> {
    let Some(entry) = baselines.entry(&report.spec) else {
        crate::plumbing::output::out(format!(
            "FAILURE {name}: {} has no baseline for this sweep; run deja probe --bless",
            crate::plumbing::printable::path(file)
        ))?;
        return Ok(("no baseline".to_string(), 1));
    };
    let deviations = crate::sweep::baseline::deviations(entry, &report.summary.figures);
    for deviation in &deviations {
        crate::plumbing::output::out(format!("FAILURE {name} baseline: {deviation}"))?;
    }
    let mut problems = deviations.len() as u64;
    let mut against = format!(
        "{}/{} figures in their bands",
        report
            .summary
            .figures
            .len()
            .saturating_sub(deviations.len()),
        report.summary.figures.len()
    );
    if let Some(bot) = &report.summary.bot {
        let (held, short) = crate::sweep::baseline::compare_reach(entry, bot, situations);
        for shortfall in &short {
            crate::plumbing::output::out(format!("FAILURE {name} reach: {shortfall}"))?;
        }
        if held == 0 {
            crate::plumbing::output::out(format!(
                "FAILURE {name} reach: {} has no reach for this sweep; run deja probe --bless",
                crate::plumbing::printable::path(file)
            ))?;
            problems += 1;
        }
        problems += short.len() as u64;
        let _ = write!(
            against,
            ", {}/{held} situations reached as often",
            held.saturating_sub(short.len())
        );
    }
    Ok((against, problems))
}

/// The reach line: how many of the catalogue's situations any sweep
/// reached, and which none did.
fn reach_line(situations: &[String], reached: &std::collections::BTreeSet<String>) -> String {
    let unreached: Vec<&str> = situations
        .iter()
        .filter(|id| !reached.contains(*id))
        .map(String::as_str)
        .collect();
    format!(
        "{:<15} {} of {} situations reached{}",
        "reach",
        situations.len() - unreached.len(),
        situations.len(),
        if unreached.is_empty() {
            String::new()
        } else {
            format!(
                "; never: {} (docs/invariants.md says why)",
                unreached.join(", ")
            )
        }
    )
}
