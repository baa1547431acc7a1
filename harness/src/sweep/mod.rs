//! Seed sweeps: for every seed, generate and check every floor in range and,
//! with a bot, play the seed from the start through the runner, so every
//! turn invariant is checked after every key and every failure can become a
//! recording.
//!
//! Seeds run in parallel, but the report is a pure function of the seeds
//! swept: results are collected in seed order and every figure is computed
//! from them, so `--jobs` never changes a byte, and merging the reports of
//! all shards gives the unsharded report exactly.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use game_core::content::Content;

use crate::plumbing::error::Error;
use crate::sweep::bots::BotKind;

pub mod baseline;
pub mod bots;
pub mod check;
pub mod figures;
pub mod read;
pub mod report;
pub mod verdict;

mod output;
mod results;
mod seed;
mod spec;
mod summary;

// What the sweep's face offers (the commands, the tests and this folder's
// other files name these), each from the file that defines it.
pub use output::{ResultsFile, to_json};
pub use results::{
    BotResult, BotSummary, DepthPlay, FailureGroup, FoundFailure, Incomplete, KILLER_MEANS,
    MAX_GROUPS, OUT_OF_DEPTH, Outcomes, Reached, SeedResult, Summary, SweepReport, killer, killers,
    signature, without_numbers,
};
pub use seed::{Saving, bot_name, hang_reports_into, sweep_seed};
pub use spec::{
    DepthRange, MOST_KEYS, MOST_SHARDS, MapSize, SEEDS_END, SeedRange, Shard, SweepSpec,
    default_progress_limit,
};
pub use summary::{Tally, catalog, command_table, commands_that_never_work, merge};

/// The version of the sweep report format. 2 adds the progress limit, what
/// each bot run did (kills, items used, ground revealed, commands) and the
/// figures' moments; 3 the failures grouped by signature; 4 names the key
/// budget `spec.keys` (it was `spec.turns`, though it counts keys) and counts
/// how every run ended (`summary.bot.outcomes`); 5 the situations each run
/// reached (`bot.reach`, `summary.bot.reach`).
pub const REPORT_FORMAT: u32 = 5;

/// Results of more seeds than this wait for the seeds before them (a slow
/// seed, a hang being timed) before workers go on: the most results held in
/// memory to put them in seed order.
const REORDER_WINDOW: usize = 1024;

/// Runs every seed of `spec` on `jobs` threads and gathers the report.
/// `progress` is told after each seed, as it finishes; `each` is given
/// every seed's result in seed order (what `--format json` writes). The report
/// holds the summary of the seeds covered, its failures grouped by
/// signature, and no results (they went to `each`): memory stays flat
/// however many seeds are swept. With `fail_fast`, the sweep stops at the
/// lowest failing seed: seeds above a failure are skipped and the report
/// covers the seeds up to the lowest failing one, so it is the same
/// whatever the number of jobs and however the threads are scheduled.
pub fn run(
    spec: &SweepSpec,
    content: &Arc<Content>,
    jobs: usize,
    saving: &Saving,
    options: RunOptions,
    progress: &(dyn Fn(&SeedResult) + Sync),
    each: &mut (dyn FnMut(&SeedResult) + Send),
) -> Result<SweepReport, Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| format!("starting {jobs} worker threads: {e}"))?;
    let gathered = Mutex::new(InOrder {
        order: spec.seeds().peekable(),
        waiting: BTreeMap::new(),
        tally: Tally::new(spec.bot != BotKind::None),
        failed: false,
        fail_fast: options.fail_fast,
        each,
    });
    pool.install(|| sweep_in_order(spec, content, saving, options, progress, &gathered));
    let gathered = gathered
        .into_inner()
        .expect("no worker panicked while holding the lock");
    let summary = gathered.tally.finish();
    let stopped = options.stop.is_some_and(|stop| stop.load(Ordering::SeqCst));
    let incomplete = (stopped && summary.seeds < spec.seed_count()).then(|| Incomplete {
        reason: "interrupted".into(),
        covered: summary.seeds,
        of: spec.seed_count(),
    });
    Ok(SweepReport {
        format: REPORT_FORMAT,
        game: format!("{} {}", game_core::GAME_NAME, game_core::GAME_VERSION),
        content: format!("{:016x}", content.fingerprint()),
        summary,
        spec: spec.clone(),
        incomplete,
        results: Vec::new(),
    })
}

/// The seeds of `spec` swept on the current pool's threads, each result put
/// into `gathered` (which hands them on in seed order) as it finishes, until
/// a stop or, with `fail_fast`, a failure below every seed left.
fn sweep_in_order<I: Iterator<Item = u64> + Send>(
    spec: &SweepSpec,
    content: &Arc<Content>,
    saving: &Saving,
    options: RunOptions,
    progress: &(dyn Fn(&SeedResult) + Sync),
    gathered: &Mutex<InOrder<'_, I>>,
) {
    use rayon::iter::{ParallelBridge as _, ParallelIterator as _};
    // The lowest seed that failed so far: with `fail_fast`, nothing above it
    // is started.
    let lowest_failed = AtomicU64::new(u64::MAX);
    let advanced = Condvar::new();
    // Seeds are handed to the workers as they are drawn from the range,
    // never collected: memory does not grow with the range.
    let stopped = || options.stop.is_some_and(|stop| stop.load(Ordering::SeqCst));
    // Drawing ends at a stop, or above a failure with `fail_fast`, so
    // the rest of a long range is never walked.
    let seeds = spec.seeds().take_while(|&seed| {
        let past_failure = options.fail_fast && seed > lowest_failed.load(Ordering::Relaxed);
        !stopped() && !past_failure
    });
    seeds.par_bridge().for_each(|seed| {
        let skip = options.fail_fast && seed > lowest_failed.load(Ordering::Relaxed);
        let result = (!skip).then(|| sweep_seed(spec, content, seed, saving));
        if let Some(result) = &result {
            if !result.failures.is_empty() {
                lowest_failed.fetch_min(seed, Ordering::Relaxed);
            }
            progress(result);
        }
        let mut gathered = gathered
            .lock()
            .expect("no worker panics while holding the lock");
        // The seed everything waits for never waits, so this ends.
        while gathered.order.peek() != Some(&seed) && gathered.waiting.len() >= REORDER_WINDOW {
            gathered = advanced
                .wait(gathered)
                .expect("no worker panics while holding the lock");
        }
        gathered.put(seed, result);
        advanced.notify_all();
    });
}

/// Seeds' results put back in seed order as the workers finish them, then
/// tallied and handed on.
struct InOrder<'a, I: Iterator<Item = u64>> {
    /// The seeds still to hand on, in order.
    order: std::iter::Peekable<I>,
    /// Results that came before the seeds below them; `None` for a seed
    /// skipped (above a failure, with `fail_fast`).
    waiting: BTreeMap<u64, Option<SeedResult>>,
    tally: Tally,
    failed: bool,
    fail_fast: bool,
    each: &'a mut (dyn FnMut(&SeedResult) + Send),
}

impl<I: Iterator<Item = u64>> InOrder<'_, I> {
    fn put(&mut self, seed: u64, result: Option<SeedResult>) {
        self.waiting.insert(seed, result);
        while let Some(next) = self.order.peek() {
            let Some(result) = self.waiting.remove(next) else {
                break;
            };
            self.order.next();
            // With `fail_fast`, nothing after the first failure counts.
            if let Some(result) = result
                && !(self.fail_fast && self.failed)
            {
                self.tally.add(&result);
                (self.each)(&result);
                self.failed |= !result.failures.is_empty();
            }
        }
    }
}

/// How `run` gathers.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions<'a> {
    pub fail_fast: bool,
    /// Set (by a signal) to stop taking seeds: the seeds in flight finish,
    /// and the report says it is incomplete.
    pub stop: Option<&'a std::sync::atomic::AtomicBool>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recording::{FailureKind, RecordedOutcome};
    use game_core::map::{DEFAULT_HEIGHT, DEFAULT_WIDTH};

    fn spec(seeds: std::ops::Range<u64>, canaries: &[&str]) -> SweepSpec {
        SweepSpec {
            seeds: SeedRange {
                start: seeds.start,
                end: u128::from(seeds.end),
            },
            depths: DepthRange { first: 1, last: 2 },
            bot: BotKind::Explorer,
            keys: 200,
            map_width: DEFAULT_WIDTH,
            map_height: DEFAULT_HEIGHT,
            canaries: canaries.iter().map(|c| c.to_string()).collect(),
            shard: None,
            progress_limit: default_progress_limit(BotKind::Explorer),
        }
    }

    /// A sweep's report and every seed's result, as `each` was given them.
    fn swept(spec: &SweepSpec, jobs: usize, fail_fast: bool) -> (SweepReport, Vec<SeedResult>) {
        let content = Arc::new(Content::embedded());
        let options = RunOptions {
            fail_fast,
            stop: None,
        };
        let mut all = Vec::new();
        let saving = Saving { dir: None };
        let report = run(spec, &content, jobs, &saving, options, &|_| {}, &mut |r| {
            all.push(r.clone())
        })
        .expect("a sweep");
        (report, all)
    }

    #[test]
    fn a_report_written_from_its_results_file_is_the_report_held_in_memory() {
        let dir = std::env::temp_dir().join(format!("deja-results-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (mut report, all) = swept(&spec(1..7, &[]), 2, false);
        report.results = all;
        let cases = [
            (report.clone(), "whole"),
            (
                SweepReport {
                    incomplete: Some(Incomplete {
                        reason: "interrupted".into(),
                        covered: 6,
                        of: 10,
                    }),
                    ..report.clone()
                },
                "incomplete",
            ),
            (
                SweepReport {
                    results: Vec::new(),
                    ..report.clone()
                },
                "empty",
            ),
        ];
        for (report, name) in cases {
            // ReportOut writes exactly SweepReport's fields.
            let derived = serde_json::to_string_pretty(&report).unwrap() + "\n";
            assert_eq!(to_json(&report), derived, "{name}");
            let path = dir.join(format!("{name}.json"));
            let mut file = ResultsFile::beside(&path).unwrap();
            for result in &report.results {
                file.add(result);
            }
            file.write(&report).unwrap();
            assert_eq!(std::fs::read_to_string(&path).unwrap(), derived, "{name}");
        }
        // The scratch files are gone with their writers.
        let mut left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, ["empty.json", "incomplete.json", "whole.json"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn results_come_in_seed_order_and_fail_fast_ends_at_the_lowest_failure_whatever_the_jobs() {
        let (_, all) = swept(&spec(1..13, &[]), 2, false);
        let seeds: Vec<u64> = all.iter().map(|r| r.seed).collect();
        assert_eq!(seeds, (1..13).collect::<Vec<_>>());
        // crowded-start fails every floor below the first: every seed fails.
        let failing = spec(5..40, &["crowded-start"]);
        let (one, _) = swept(&failing, 1, true);
        let (two, all) = swept(&failing, 2, true);
        assert_eq!(one, two, "fail-fast's report is the same with 1 and 2 jobs");
        assert_eq!(two.summary.seeds, 1, "{:?}", two.summary);
        assert_eq!(all.iter().map(|r| r.seed).collect::<Vec<_>>(), [5]);
        assert_eq!(two.summary.groups[0].first_seed, 5);
    }

    #[test]
    fn failures_group_by_signature_whatever_the_order() {
        // crowded-start fails every floor below the first.
        let failing = SweepSpec {
            bot: BotKind::None,
            keys: 0,
            depths: DepthRange { first: 1, last: 3 },
            ..spec(3..40, &["crowded-start"])
        };
        let (report, all) = swept(&failing, 2, false);
        let failures: Vec<&FoundFailure> = all.iter().flat_map(|r| &r.failures).collect();
        assert_eq!(
            report.summary.groups.len(),
            1,
            "{:?}",
            report.summary.groups
        );
        let group = &report.summary.groups[0];
        assert_eq!(group.signature, "invariant spawn.rules broken");
        assert_eq!(group.count, failures.len() as u64);
        assert_eq!(group.first_seed, 3);
        assert_eq!((group.smallest.seed, group.smallest.depth), (3, 2));
        // The same groups, tallied backwards.
        let mut tally = Tally::new(false);
        for result in all.iter().rev() {
            tally.add(result);
        }
        assert_eq!(tally.finish().groups, report.summary.groups);
        assert!(report.results.is_empty(), "results go to `each` only");
    }

    /// A kind's deaths are its blows' and its poison's together, ranked
    /// most first and equal counts by name.
    #[test]
    fn killers_add_a_kinds_blows_and_poison_and_rank_them() {
        let bot = BotSummary {
            deaths: BTreeMap::from([
                ("killed by an orc".to_string(), 5),
                ("killed by a basilisk".to_string(), 3),
                ("died of poison from a basilisk".to_string(), 3),
                ("killed by an imp".to_string(), 5),
            ]),
            ..BotSummary::default()
        };
        let ranked = killers(&bot);
        let ranked: Vec<(&str, u64)> = ranked.iter().map(|(k, n)| (k.as_str(), *n)).collect();
        assert_eq!(ranked, [("basilisk", 6), ("imp", 5), ("orc", 5)]);
    }

    /// Every way a run ends has its count, a failed run by its failure's
    /// kind.
    #[test]
    fn outcomes_count_each_end_once() {
        let stuck = FailureKind::Stuck {
            message: "no".into(),
        };
        let broken = FailureKind::Invariant {
            id: "x".into(),
            message: "y".into(),
        };
        let mut outcomes = Outcomes::default();
        let ends = [
            (RecordedOutcome::Won { turn: 1 }, None),
            (
                RecordedOutcome::Died {
                    cause: "killed by an orc".into(),
                    depth: 1,
                    turn: 1,
                },
                None,
            ),
            (RecordedOutcome::Quit { depth: 1, turn: 1 }, None),
            (RecordedOutcome::Running { depth: 1, turn: 1 }, None),
            (RecordedOutcome::Failed, Some(&stuck)),
            (RecordedOutcome::Failed, Some(&broken)),
            (RecordedOutcome::Failed, None),
        ];
        for (outcome, failure) in &ends {
            outcomes.add(outcome, *failure);
        }
        let counts: Vec<u64> = outcomes.named().iter().map(|&(_, n)| n).collect();
        assert_eq!(counts, [1, 1, 1, 1, 1, 2]);
        assert_eq!(outcomes.total(), ends.len() as u128);
    }

    #[test]
    fn a_signature_keeps_what_names_the_bug_and_drops_the_numbers() {
        let panic = |message: &str, at: &str| FailureKind::Panic {
            message: message.into(),
            location: Some(at.into()),
        };
        let a = panic(
            "index out of bounds: the len is 3 but the index is 17",
            "src/a.rs:71:13",
        );
        let b = panic(
            "index out of bounds: the len is 40 but the index is 4",
            "src/a.rs:71:13",
        );
        let elsewhere = panic(
            "index out of bounds: the len is 3 but the index is 17",
            "src/b.rs:9:1",
        );
        assert_eq!(signature(&a), signature(&b));
        assert_eq!(
            signature(&a),
            "panic: index out of bounds: the len is N but the index is N (at src/a.rs:71:13)"
        );
        assert_ne!(signature(&a), signature(&elsewhere));
        let broken = |id: &str, message: &str| FailureKind::Invariant {
            id: id.into(),
            message: message.into(),
        };
        assert_eq!(
            signature(&broken("fov.oracle", "(3, 4) unseen")),
            signature(&broken("fov.oracle", "(70, 1) seen"))
        );
        assert_ne!(
            signature(&broken("fov.oracle", "x")),
            signature(&broken("fov.symmetric", "x"))
        );
        let stuck = FailureKind::Stuck {
            message: "no progress in 200 keys".into(),
        };
        assert_eq!(signature(&stuck), "stuck: no progress in N keys");
    }
}
