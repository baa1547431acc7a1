//! `deja sweep` and `deja merge`.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::cli::{MergeArgs, SweepArgs};
use crate::exit;
use crate::sweep::{self, DepthRange, Saving, SeedRange, Shard, SweepReport, SweepSpec};

pub fn run(args: SweepArgs) -> Result<u8, String> {
    let content = super::load_content(&args.content)?;
    let spec = SweepSpec {
        seeds: SeedRange {
            start: args.seeds.0,
            end: args.seeds.1,
        },
        depths: DepthRange {
            first: args.depths.0,
            last: args.depths.1,
        },
        bot: args.bot,
        turns: args.turns,
        map_width: i32::from(args.map_size.0),
        map_height: i32::from(args.map_size.1),
        canaries: args.canary.iter().map(|c| c.name().to_string()).collect(),
        shard: args.shard.map(|(index, count)| Shard { index, count }),
    };
    if !spec.canaries.is_empty() && !game_core::canary::Canaries::AVAILABLE {
        return Err(game_core::game::ConfigError::CanariesUnavailable.to_string());
    }
    if let Some(dir) = &args.save_failures {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    let total = spec.seeds().count() as u64;
    let progress = Progress::new(total);
    let started = Instant::now();
    let saving = Saving {
        dir: args.save_failures.clone(),
    };
    let options = sweep::RunOptions {
        keep_all: args.json.is_some(),
        fail_fast: args.fail_fast,
    };
    let report = sweep::run(&spec, &content, jobs, &saving, options, &|result| {
        progress.seed_done(result)
    })?;
    progress.finish();
    let elapsed = started.elapsed();
    if let Some(path) = &args.json {
        std::fs::write(path, sweep::to_json(&report))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    print_summary(&report, elapsed)?;
    Ok(if report.summary.failures > 0 {
        exit::FAILURE
    } else {
        exit::OK
    })
}

/// The end-of-sweep summary: what was checked, what the game looked like,
/// and every failure with the command that reproduces it.
fn print_summary(report: &SweepReport, elapsed: Duration) -> Result<(), String> {
    let s = &report.summary;
    let seconds = elapsed.as_secs_f64().max(1e-9);
    super::out(format!(
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
        super::out(format!(
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
        super::out(format!(
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
        super::out(format!("  deepest floor reached: {}", deepest.join(", ")))?;
        let mut deaths: Vec<(&String, &u64)> = bot.deaths.iter().collect();
        deaths.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (cause, n) in deaths.iter().take(8) {
            super::out(format!("  {n} {cause}"))?;
        }
    }
    for result in &report.results {
        for f in &result.failures {
            super::out(format!(
                "FAILURE seed {} depth {} step {}: {}\n  reproduce: {}",
                f.seed, f.depth, f.step, f.kind, f.reproduce
            ))?;
        }
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
        let bar = std::io::stderr().is_terminal().then(|| {
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
        let tenth = (done * 10 / self.total.max(1)).min(10);
        let mut last = self
            .last_line
            .lock()
            .expect("the progress lock is never poisoned");
        if tenth > *last {
            *last = tenth;
            let seconds = self.started.elapsed().as_secs_f64().max(1e-9);
            eprintln!(
                "sweep: {done}/{} seeds ({:.0}/s), {failures} failures",
                self.total,
                done as f64 / seconds
            );
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

pub fn merge(args: MergeArgs) -> Result<u8, String> {
    let mut reports = Vec::new();
    for file in &args.files {
        let text = crate::files::read_text(file, 256 * 1024 * 1024)?;
        let report: SweepReport = serde_json::from_str(&text)
            .map_err(|e| format!("{}:{}:{}: {e}", file.display(), e.line(), e.column()))?;
        reports.push(report);
    }
    let merged = sweep::merge(reports)?;
    let json = sweep::to_json(&merged);
    match &args.output {
        Some(path) => std::fs::write(path, json).map_err(|e| format!("{}: {e}", path.display()))?,
        None => super::out(json.trim_end())?,
    }
    Ok(if merged.summary.failures > 0 {
        exit::FAILURE
    } else {
        exit::OK
    })
}
