//! The summary of a sweep, added up seed by seed ([`Tally`]), the merge of
//! shard reports into the whole sweep's, and the floor catalog.

use std::collections::BTreeMap;

use crate::plumbing::error::Error;
use crate::recording::RecordedOutcome;
use crate::sweep::REPORT_FORMAT;
use crate::sweep::bots::BotKind;
use crate::sweep::check;
use crate::sweep::results::{
    BotSummary, FailureGroup, FoundFailure, MAX_GROUPS, MORE_SIGNATURES, OUT_OF_DEPTH, SeedResult,
    Summary, SweepReport, killer, run_failure, signature,
};
use crate::sweep::spec::{Shard, SweepSpec};

/// A command is held to working at least once when pressed this often: a
/// command that works one time in a hundred would fail this by chance about
/// once in 23,000 sweeps.
pub const NEVER_WORKS_AFTER: u64 = 1000;

/// The help's commands a sweep's bot pressed [`NEVER_WORKS_AFTER`] times or
/// more without one working: a command that never works is a bug even when
/// every invariant holds.
pub fn commands_that_never_work(summary: &Summary) -> Vec<String> {
    let Some(bot) = &summary.bot else {
        return Vec::new();
    };
    bot.commands
        .iter()
        .filter(|(_, [pressed, worked])| *pressed >= NEVER_WORKS_AFTER && *worked == 0)
        .map(|(command, [pressed, _])| {
            format!("{command} was pressed {pressed} times and never worked")
        })
        .collect()
}

/// The commands table: every command of the help, pressed or not, with how
/// often it was pressed and worked, then the screens' own keys.
pub fn command_table(bot: &BotSummary) -> Vec<String> {
    use checks::Command;
    let mut names: Vec<String> = Command::on_the_map().iter().map(|c| c.name()).collect();
    for name in bot.commands.keys() {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    names
        .iter()
        .map(|name| {
            let [pressed, worked] = bot.commands.get(name).copied().unwrap_or_default();
            let share = if pressed == 0 {
                "-".to_string()
            } else {
                format!("{:.0}%", worked as f64 * 100.0 / pressed as f64)
            };
            format!("{name:<26} {pressed:>9} {worked:>9} {share:>5}")
        })
        .collect()
}

/// Figures computed from the results alone, so a merged report's summary is
/// the unsharded one's.
pub fn summarize(results: &[SeedResult], with_bot: bool) -> Summary {
    let mut tally = Tally::new(with_bot);
    for result in results {
        tally.add(result);
    }
    tally.finish()
}

/// Running totals, added to seed by seed in any order (every figure is a
/// count or a sum) and finished into a [`Summary`]: a sweep that keeps no
/// per-seed results still has its summary, in constant memory.
#[derive(Debug, Default)]
pub struct Tally {
    summary: Summary,
    /// Per depth: walkable, reachable, rooms and stairs distance, summed.
    sums: BTreeMap<u32, [u64; 4]>,
    /// By signature.
    groups: BTreeMap<String, FailureGroup>,
}

impl Tally {
    pub fn new(with_bot: bool) -> Tally {
        Tally {
            summary: Summary {
                bot: with_bot.then(BotSummary::default),
                ..Summary::default()
            },
            sums: BTreeMap::new(),
            groups: BTreeMap::new(),
        }
    }

    pub fn add(&mut self, result: &SeedResult) {
        for failure in &result.failures {
            self.group(failure);
        }
        let summary = &mut self.summary;
        summary.seeds += 1;
        summary.failures += result.failures.len() as u64;
        for floor in &result.floors {
            summary.floors += 1;
            let depth = summary.depths.entry(floor.depth).or_default();
            depth.floors += 1;
            *depth.generators.entry(floor.generator.clone()).or_default() += 1;
            depth.monsters += floor.monsters as u64;
            depth.items += floor.items as u64;
            depth.out_of_depth += u64::from(floor.deepest_danger > floor.depth + OUT_OF_DEPTH);
            let sum = self.sums.entry(floor.depth).or_default();
            sum[0] += floor.walkable as u64;
            sum[1] += floor.reachable as u64;
            sum[2] += u64::from(floor.rooms);
            sum[3] += u64::from(floor.stairs_distance.unwrap_or(0));
        }
        crate::sweep::figures::add_seed(result, &mut summary.figures);
        if let (Some(bot), Some(run)) = (summary.bot.as_mut(), result.bot.as_ref()) {
            bot.runs += 1;
            bot.keys += run.keys;
            bot.turns += run.turns;
            for (command, [pressed, worked]) in &run.commands {
                let total = bot.commands.entry(command.clone()).or_default();
                total[0] += pressed;
                total[1] += worked;
            }
            *bot.deepest.entry(run.deepest).or_default() += 1;
            for (id, &times) in &run.reach {
                bot.reach.entry(id.clone()).or_default().add(times);
            }
            bot.outcomes.add(&run.outcome, run_failure(result));
            match &run.outcome {
                RecordedOutcome::Won { .. } => bot.wins += 1,
                RecordedOutcome::Died { cause, .. } => {
                    *bot.deaths.entry(cause.clone()).or_default() += 1
                }
                _ => {}
            }
            for visit in &run.floors {
                let play = bot.by_depth.entry(visit.depth).or_default();
                play.entered += 1;
                let hp = u64::try_from(visit.hp.max(0)).unwrap_or(0);
                play.hp_on_arrival += hp;
                let max = u64::try_from(visit.max_hp.max(1)).unwrap_or(1);
                let decile = u32::try_from((hp * 10 / max).min(10)).unwrap_or(10);
                *play.hp_deciles.entry(decile).or_default() += 1;
                for &danger in &visit.met {
                    *play.met.entry(danger).or_default() += 1;
                }
                play.items_found += visit.items_found;
                play.items_used += visit.items_used;
                play.kills += u64::from(visit.kills);
            }
            if let RecordedOutcome::Died { cause, depth, .. } = &run.outcome {
                let play = bot.by_depth.entry(*depth).or_default();
                play.died += 1;
                *play.killers.entry(killer(cause)).or_default() += 1;
            }
        }
    }

    /// Counts `failure` in its group. Every choice is a minimum, so the
    /// groups do not depend on the order seeds come in.
    fn group(&mut self, failure: &FoundFailure) {
        let mut signature = signature(&failure.kind);
        if !self.groups.contains_key(&signature) && self.groups.len() >= MAX_GROUPS {
            signature = MORE_SIGNATURES.to_string();
        }
        let group = self
            .groups
            .entry(signature)
            .or_insert_with_key(|signature| FailureGroup {
                signature: signature.clone(),
                count: 0,
                first_seed: failure.seed,
                smallest: failure.clone(),
            });
        group.count += 1;
        group.first_seed = group.first_seed.min(failure.seed);
        let size = |f: &FoundFailure| (f.step, f.seed, f.depth);
        if size(failure) < size(&group.smallest) {
            group.smallest = failure.clone();
        }
    }

    pub fn finish(mut self) -> Summary {
        for (depth, sum) in self.sums {
            let entry = self.summary.depths.entry(depth).or_default();
            let n = entry.floors.max(1);
            entry.mean_walkable = sum[0] / n;
            entry.mean_reachable = sum[1] / n;
            entry.mean_rooms = sum[2] / n;
            entry.mean_stairs_distance = sum[3] / n;
        }
        if let Some(bot) = self.summary.bot.as_mut() {
            bot.win_rate_permille = bot.wins * 1000 / bot.runs.max(1);
        }
        let mut groups: Vec<FailureGroup> = self.groups.into_values().collect();
        groups.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then(a.first_seed.cmp(&b.first_seed))
                .then(a.signature.cmp(&b.signature))
        });
        self.summary.groups = groups;
        self.summary
    }
}

/// Merges shard reports into the report of the whole sweep. Each checked
/// itself as it was read ([`read::file`]); together they must be the same
/// sweep (spec, game, content), each complete, and hold every shard once.
pub fn merge(checked: Vec<check::Checked>) -> Result<SweepReport, Error> {
    let named: Vec<(String, SweepReport)> = checked
        .into_iter()
        .map(check::Checked::into_parts)
        .collect();
    let Some((first_name, first)) = named.first() else {
        return Err("no reports to merge".into());
    };
    check::each_once(named.iter().map(|(name, report)| (name.as_str(), report)))?;
    let count = match first.spec.shard {
        Some(shard) => shard.count,
        None => 1,
    };
    let mut seen = vec![false; count as usize];
    let unsharded = SweepSpec {
        shard: None,
        ..first.spec.clone()
    };
    let mut seeds = 0u64;
    for (name, report) in &named {
        let shard = shard_of(name, report, (first_name, first), &unsharded, count)?;
        // A shard given twice is the same sweep twice: each_once refused it.
        seen[(shard.index - 1) as usize] = true;
        complete(name, report)?;
        seeds = seeds.saturating_add(report.results.len() as u64);
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(format!("shard {}/{count} is missing", missing + 1).into());
    }
    if seeds > check::MOST_RESULTS {
        return Err(format!(
            "these shards hold {seeds} seeds' results, more than the {} one merge adds up",
            check::MOST_RESULTS
        )
        .into());
    }
    let (game, content) = (first.game.clone(), first.content.clone());
    let mut results: Vec<SeedResult> = named.into_iter().flat_map(|(_, r)| r.results).collect();
    results.sort_by_key(|r| r.seed);
    Ok(SweepReport {
        format: REPORT_FORMAT,
        game,
        content,
        summary: summarize(&results, unsharded.bot != BotKind::None),
        spec: unsharded,
        incomplete: None,
        results,
    })
}

/// Which of the `count` shards of the `unsharded` sweep `report` (read
/// from `name`) is, when it is one of them: made by the game and content
/// that made `first`, the report merged first, and sweeping what it sweeps.
fn shard_of(
    name: &str,
    report: &SweepReport,
    (first_name, first): (&str, &SweepReport),
    unsharded: &SweepSpec,
    count: u32,
) -> Result<Shard, Error> {
    if report.game != first.game || report.content != first.content {
        return Err(format!(
            "{name} was made by {} with content {}, {first_name} by {} with content {}",
            report.game, report.content, first.game, first.content
        )
        .into());
    }
    let this = SweepSpec {
        shard: None,
        ..report.spec.clone()
    };
    if this != *unsharded {
        return Err(format!(
            "{name} sweeps something other than {first_name}: {}",
            this.differences(unsharded).join("; ")
        )
        .into());
    }
    // The check of its spec held the shard's index to 1..=its count.
    let shard = report.spec.shard.unwrap_or(Shard { index: 1, count: 1 });
    if shard.count != count {
        return Err(format!(
            "{name} is shard {}/{}, not one of {count}",
            shard.index, shard.count
        )
        .into());
    }
    Ok(shard)
}

/// A shard is merged only whole: its results are all its seeds (the checks
/// held them to be the first of its seeds, in order, and its summary to be
/// theirs). A report cut short (by --fail-fast or an interruption) is
/// refused, naming the file and seed.
fn complete(name: &str, report: &SweepReport) -> Result<(), Error> {
    if let Some(cut) = &report.incomplete {
        return Err(format!(
            "{name}: the sweep was {} after {} of its {} seeds; an incomplete report cannot be merged (run it again)",
            cut.reason, cut.covered, cut.of
        ).into());
    }
    let held = report.results.len();
    if let Some(wanted) = report.spec.seeds().nth(held) {
        return Err(format!(
            "{name}: the results stop before seed {wanted}; a sweep cut short (--fail-fast, interrupted) cannot be merged"
        ).into());
    }
    Ok(())
}

/// A text table of every floor of the given results, one line per floor: the
/// seed catalog kept as a snapshot, so a change to generation or spawning
/// shows up as a reviewed diff.
pub fn catalog(results: &[SeedResult]) -> String {
    let mut out = String::from(
        "seed depth generator  rooms regions walkable reachable stairs monsters items\n",
    );
    for result in results {
        for f in &result.floors {
            out.push_str(&format!(
                "{:>4} {:>5} {:<10} {:>5} {:>7} {:>8} {:>9} {:>6} {:>8} {:>5}\n",
                result.seed,
                f.depth,
                f.generator,
                f.rooms,
                f.regions,
                f.walkable,
                f.reachable,
                f.stairs_distance
                    .map_or_else(|| "-".to_string(), |d| d.to_string()),
                f.monsters,
                f.items
            ));
        }
    }
    out
}
