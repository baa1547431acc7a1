//! A sweep report checks itself before anything is drawn from it or added
//! to it: `deja report` and `deja merge` hold it to what `deja sweep` could
//! have written. Each figure of the summary is recomputed from the per-seed
//! results where the report carries them (with the [`Tally`] a sweep sums
//! with), and bounded where it cannot be: in a report that holds only its
//! summary, and in the results themselves, each held to what one seed's
//! sweep can give before it is added up, so no sum can overflow either.
//!
//! Every refusal names the file and the figure, as the JSON spells it
//! (`summary.bot.wins`), and says what to do.

use std::fmt::Display;

use game_core::canary::Canary;
use game_core::content::MAX_DANGER;
use game_core::game::state::MAX_STACK;
use game_core::map::{MAX_HEIGHT, MAX_WIDTH, MIN_HEIGHT, MIN_WIDTH};
use game_core::mapgen::LAST_DEPTH;
use game_core::rules::PLAYER_MAX_HP;

use super::results::{DepthSummary, FloorResult};
use super::{
    BotResult, BotSummary, DepthPlay, DepthRange, MAX_GROUPS, MOST_KEYS, MOST_SHARDS,
    REPORT_FORMAT, SEEDS_END, SeedRange, SeedResult, Shard, Summary, SweepReport, SweepSpec, Tally,
};
use crate::plumbing::error::Error;
use crate::recording::RecordedOutcome;
use crate::run::runner::FloorVisit;
use crate::sweep::bots::BotKind;

/// Said after every figure no sweep writes.
const SWEEP_AGAIN: &str =
    "deja sweep never writes that (was the file edited?): sweep again with this deja";

/// The most seeds' results one check, or one merge, adds up. Every value a
/// result adds to a sum is below 2^32 once [`Results::add`] has bounded it,
/// so fewer than 2^32 results keep every sum within a u64. (A report is at
/// most 256 MiB: it holds far fewer.)
pub const MOST_RESULTS: u64 = u32::MAX as u64;

fn impossible(name: &str, what: impl Display) -> Error {
    Error::Refused(format!("{name}: {what}; {SWEEP_AGAIN}"))
}

/// Text from a report, quoted and cut short for a message.
fn quoted(text: &str) -> String {
    const SHOWN: usize = 40;
    match text.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{:?}...", &text[..end]),
        None => format!("{text:?}"),
    }
}

/// A report is of the format this deja reads. An older report is refused
/// rather than read: its summary does not say how every run ended (format
/// 4 counts it) or which situations its runs reached (format 5), which only
/// its sweep can, so it is swept again.
pub fn format(name: &str, format: u32) -> Result<(), Error> {
    use std::cmp::Ordering;
    match format.cmp(&REPORT_FORMAT) {
        Ordering::Equal => Ok(()),
        Ordering::Less => Err(format!(
            "{name}: a sweep report of format {format}, written by an older deja; this deja reads format {REPORT_FORMAT}, which names the key budget spec.keys (once spec.turns), counts how every run ended and which situations each run reached, which an older report cannot say: sweep again with this deja (`deja sweep ... --format json -o FILE`; --turns still works as --keys)"
        ).into()),
        Ordering::Greater => Err(format!(
            "{name}: a sweep report of format {format}, written by a newer deja; this deja reads format {REPORT_FORMAT}: use the deja that wrote it, or sweep again with this one"
        ).into()),
    }
}

/// `content` is a content fingerprint as a sweep writes it: 16 lowercase
/// hex digits.
pub fn content(name: &str, content: &str) -> Result<(), Error> {
    let hex = content.len() == 16
        && content
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if hex {
        Ok(())
    } else {
        Err(impossible(
            name,
            format!(
                "content is {}, not a content fingerprint (16 hex digits)",
                quoted(content)
            ),
        ))
    }
}

/// The spec is one `deja sweep` accepts: what every other check (and the
/// seeds a spec names) relies on.
pub fn spec(name: &str, spec: &SweepSpec) -> Result<(), Error> {
    let refuse = |what: String| Err(impossible(name, what));
    let SeedRange { start, end } = spec.seeds;
    if u128::from(start) >= end || end > SEEDS_END {
        return refuse(format!(
            "spec.seeds is {}, not a range of seeds START..END with END above START",
            spec.seeds
        ));
    }
    let DepthRange { first, last } = spec.depths;
    if first < 1 || first > last || last > LAST_DEPTH {
        return refuse(format!(
            "spec.depths is {}, not a range of depths within 1..={LAST_DEPTH}",
            spec.depths
        ));
    }
    if spec.keys > MOST_KEYS {
        return refuse(format!(
            "spec.keys is {}, above the {MOST_KEYS} keys a sweep's bot may press on a seed",
            spec.keys
        ));
    }
    if !(1..=MOST_KEYS).contains(&spec.progress_limit) {
        return refuse(format!(
            "spec.progress_limit is {}, outside 1..={MOST_KEYS}",
            spec.progress_limit
        ));
    }
    let (width, height) = (spec.map_width, spec.map_height);
    if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) || !(MIN_HEIGHT..=MAX_HEIGHT).contains(&height) {
        return refuse(format!(
            "spec.map_width and spec.map_height are {width}x{height}, outside {MIN_WIDTH}x{MIN_HEIGHT}..={MAX_WIDTH}x{MAX_HEIGHT}"
        ));
    }
    if let Some(unknown) = spec
        .canaries
        .iter()
        .find(|c| Canary::from_name(c).is_none())
    {
        return refuse(format!(
            "spec.canaries names {}, which is no canary of this deja",
            quoted(unknown)
        ));
    }
    if let Some(Shard { index, count }) = spec.shard
        && !(index >= 1 && index <= count && count <= MOST_SHARDS)
    {
        return refuse(format!(
            "spec.shard is {index}/{count}, not I/N with 1 <= I <= N <= {MOST_SHARDS}"
        ));
    }
    Ok(())
}

/// Tiles on one of the spec's floors. Only after [`spec`] passed.
fn area(spec: &SweepSpec) -> u64 {
    u64::try_from(i64::from(spec.map_width) * i64::from(spec.map_height))
        .expect("a checked map size is positive")
}

/// What a report's results came to, seed by seed: checked, added up, and
/// the one figure the balance report takes from them beside the summary.
#[derive(Debug)]
pub struct Folded {
    /// How many results there were.
    pub count: u64,
    /// Their summary, as the sweep would have written it.
    pub summary: Summary,
    /// The most hit points any run arrived on a floor with.
    pub most_hp: Option<i32>,
}

/// A report's results, checked one at a time as they come (in order, and
/// each within what one seed's sweep can give) and folded into a
/// [`Tally`], so a report's results need not be held to be checked.
pub struct Results<'a> {
    name: &'a str,
    spec: &'a SweepSpec,
    seeds: std::iter::Peekable<Box<dyn Iterator<Item = u64> + 'a>>,
    tally: Tally,
    count: u64,
    most_hp: Option<i32>,
}

impl<'a> Results<'a> {
    /// The results of a report of `spec`, which [`spec`] has passed.
    pub fn new(name: &'a str, spec: &'a SweepSpec) -> Results<'a> {
        let seeds: Box<dyn Iterator<Item = u64> + 'a> = Box::new(spec.seeds());
        Results {
            name,
            spec,
            seeds: seeds.peekable(),
            tally: Tally::new(spec.bot != BotKind::None),
            count: 0,
            most_hp: None,
        }
    }

    /// Checks the next result and adds it up.
    pub fn add(&mut self, result: &SeedResult) -> Result<(), Error> {
        let name = self.name;
        let seed = result.seed;
        match self.seeds.next() {
            Some(wanted) if wanted == seed => {}
            Some(wanted) => {
                return Err(format!(
                    "{name}: the results hold seed {seed} where seed {wanted} belongs; a report holds each of its seeds once, in order"
                ).into());
            }
            None => {
                return Err(format!(
                    "{name}: the results hold seed {seed}, which is not one of this report's seeds"
                )
                .into());
            }
        }
        if self.count >= MOST_RESULTS {
            return Err(format!(
                "{name}: more than {MOST_RESULTS} seeds' results, the most one report is read with"
            )
            .into());
        }
        bound_result(self.spec, result)
            .map_err(|what| impossible(name, format!("results, seed {seed}: {what}")))?;
        self.tally.add(result);
        self.count += 1;
        let most = result
            .bot
            .iter()
            .flat_map(|run| &run.floors)
            .map(|visit| visit.max_hp)
            .max();
        self.most_hp = self.most_hp.max(most);
        Ok(())
    }

    pub fn finish(self) -> Folded {
        Folded {
            count: self.count,
            summary: self.tally.finish(),
            most_hp: self.most_hp,
        }
    }
}

/// One seed's result is what a sweep of that seed can give: a floor for
/// each of the spec's depths, in order, each within its map, and a bot run
/// within its keys that stood on depths 1, 2, 3... and ended where it
/// stood. Every value it adds to a sum is then below 2^32.
fn bound_result(spec: &SweepSpec, result: &SeedResult) -> Result<(), Error> {
    let area = area(spec);
    let DepthRange { first, last } = spec.depths;
    let depths = usize::try_from(last - first + 1).expect("at most six depths");
    if result.floors.len() != depths {
        return Err(format!(
            "floors holds {} floors, not one for each of spec.depths {}",
            result.floors.len(),
            spec.depths
        )
        .into());
    }
    for (i, (floor, depth)) in result.floors.iter().zip(first..=last).enumerate() {
        bound_generated_floor(spec, area, &format!("floors[{i}]"), floor, depth)?;
    }
    if let Some((i, failure)) = result
        .failures
        .iter()
        .enumerate()
        .find(|(_, f)| f.seed != result.seed)
    {
        return Err(format!("failures[{i}].seed is {}", failure.seed).into());
    }
    if let Some(run) = &result.bot
        && run.outcome == RecordedOutcome::Failed
        && result.failures.is_empty()
    {
        // The summary counts a failed run by its failure's kind.
        return Err("bot.outcome is a failure but failures is empty"
            .to_string()
            .into());
    }
    match (&result.bot, spec.bot) {
        (None, BotKind::None) => Ok(()),
        (Some(_), BotKind::None) => {
            Err("holds a bot's run but spec.bot is none".to_string().into())
        }
        (None, bot) => Err(format!("holds no bot run but spec.bot is {bot}").into()),
        (Some(run), _) => bound_run(spec, area, run),
    }
}

/// One generated floor's result, `at` in the seed's, is of `depth` and
/// within its map: no count past the map's tiles, no more reachable than
/// walkable tiles, no danger past what content can give.
fn bound_generated_floor(
    spec: &SweepSpec,
    area: u64,
    at: &str,
    floor: &FloorResult,
    depth: u32,
) -> Result<(), Error> {
    if floor.depth != depth {
        return Err(format!("{at}.depth is {}, where depth {depth} belongs", floor.depth).into());
    }
    let tiles = [
        ("walkable", floor.walkable as u64),
        ("reachable", floor.reachable as u64),
        ("regions", floor.regions as u64),
        ("rooms", u64::from(floor.rooms)),
        (
            "stairs_distance",
            u64::from(floor.stairs_distance.unwrap_or(0)),
        ),
        ("monsters", floor.monsters as u64),
        ("items", floor.items as u64),
    ];
    if let Some((what, n)) = tiles.iter().find(|(_, n)| *n > area) {
        return Err(format!(
            "{at}.{what} is {n}, more than the {area} tiles of a {}x{} map",
            spec.map_width, spec.map_height
        )
        .into());
    }
    if floor.reachable > floor.walkable {
        return Err(format!(
            "{at}.reachable is {} but {at}.walkable is {}",
            floor.reachable, floor.walkable
        )
        .into());
    }
    if floor.deepest_danger > MAX_DANGER {
        return Err(format!(
            "{at}.deepest_danger is {}, above {MAX_DANGER}, the highest danger content can give",
            floor.deepest_danger
        )
        .into());
    }
    Ok(())
}

/// A bot run's result within what its spec and the rules allow, checked in
/// the order its errors are reported: its presses, its floors, its end.
fn bound_run(spec: &SweepSpec, area: u64, run: &BotResult) -> Result<(), Error> {
    bound_presses(spec, run)?;
    bound_floors(area, run)?;
    bound_end(run)
}

/// Keys, turns, commands and items used: each key is at most one command,
/// and uses at most one item.
fn bound_presses(spec: &SweepSpec, run: &BotResult) -> Result<(), Error> {
    if run.keys > spec.keys {
        return Err(format!(
            "bot.keys is {} but spec.keys, the most keys a run presses, is {}",
            run.keys, spec.keys
        )
        .into());
    }
    if run.turns > u64::from(u32::MAX) {
        return Err(format!("bot.turns is {}, more than a run's clock counts", run.turns).into());
    }
    let mut pressed = 0u64;
    for (command, [times, worked]) in &run.commands {
        if worked > times {
            return Err(format!(
                "bot.commands[{}] worked {worked} times but was pressed {times}",
                quoted(command)
            )
            .into());
        }
        pressed = pressed.saturating_add(*times);
    }
    if pressed > run.keys {
        return Err(format!(
            "bot.commands add up to {pressed} presses but bot.keys is {}",
            run.keys
        )
        .into());
    }
    if run.items_used > run.keys {
        return Err(format!(
            "bot.items_used is {} but bot.keys is {}",
            run.items_used, run.keys
        )
        .into());
    }
    Ok(())
}

/// The floors a run stood on: depths 1, 2, 3... in order, each within the
/// rules, their items used adding up to the run's, and no more ground
/// revealed than they hold.
fn bound_floors(area: u64, run: &BotResult) -> Result<(), Error> {
    let visits = &run.floors;
    if visits.is_empty() && run.keys > 0 {
        return Err(
            "bot.floors is missing: the report was written before deja counted the floors a run stood on"
                .to_string().into(),
        );
    }
    if visits.len() > LAST_DEPTH as usize {
        return Err(format!(
            "bot.floors holds {} floors, more than the game's {LAST_DEPTH}",
            visits.len()
        )
        .into());
    }
    let mut used = 0u64;
    for (i, (visit, depth)) in visits.iter().zip(1..=LAST_DEPTH).enumerate() {
        bound_floor(&format!("bot.floors[{i}]"), visit, depth, area, run.keys)?;
        used = used.saturating_add(visit.items_used);
    }
    if used != run.items_used {
        return Err(format!(
            "bot.floors' items_used add up to {used} but bot.items_used is {}",
            run.items_used
        )
        .into());
    }
    let most_revealed = area * visits.len() as u64;
    if run.revealed > most_revealed {
        return Err(format!(
            "bot.revealed is {} but the run stood on {} of {area} tiles, which reveal at most {most_revealed}",
            run.revealed,
            match visits.len() {
                1 => "1 floor".to_string(),
                n => format!("{n} floors"),
            }
        ).into());
    }
    Ok(())
}

/// One floor a run stood on (`at` names it), the `depth`-th.
fn bound_floor(
    at: &str,
    visit: &FloorVisit,
    depth: u32,
    area: u64,
    keys: u64,
) -> Result<(), Error> {
    // A run starts on depth 1 and the stairs lead one floor down.
    if visit.depth != depth {
        return Err(format!(
            "{at}.depth is {}, where depth {depth} belongs: a run stands on depths 1, 2, 3... in order",
            visit.depth
        ).into());
    }
    if !(1..=PLAYER_MAX_HP).contains(&visit.max_hp) {
        return Err(format!(
            "{at}.max_hp is {}, outside the player's 1..={PLAYER_MAX_HP}",
            visit.max_hp
        )
        .into());
    }
    if visit.hp > visit.max_hp {
        return Err(format!(
            "{at}.hp is {} but {at}.max_hp is {}",
            visit.hp, visit.max_hp
        )
        .into());
    }
    // Monsters spawn only when a floor is built, each on a tile of it.
    if visit.met.len() as u64 > area {
        return Err(format!(
            "{at}.met holds {} monsters, more than the {area} tiles of a floor hold",
            visit.met.len()
        )
        .into());
    }
    if let Some(danger) = visit.met.iter().find(|d| !(1..=MAX_DANGER).contains(*d)) {
        return Err(format!(
            "{at}.met holds a danger of {danger}, outside 1..={MAX_DANGER}, the dangers content can give"
        ).into());
    }
    // A key picks up at most one pile, of at most MAX_STACK.
    let most_found = keys * u64::from(MAX_STACK);
    if visit.items_found > most_found {
        return Err(format!(
            "{at}.items_found is {} but {keys} keys pick up at most {most_found}",
            visit.items_found
        )
        .into());
    }
    Ok(())
}

/// How the run ended against where it ended: its deepest floor, a death on
/// the last floor it stood on, a win on the last depth.
fn bound_end(run: &BotResult) -> Result<(), Error> {
    let Some(last) = run.floors.last().map(|v| v.depth) else {
        return match run.outcome {
            RecordedOutcome::Died { .. } | RecordedOutcome::Won { .. } => Err(format!(
                "bot.outcome is {} but bot.floors is empty: the run stood on no floor",
                run.outcome
            )
            .into()),
            _ if run.deepest != 0 => {
                Err(format!("bot.deepest is {} but bot.floors is empty", run.deepest).into())
            }
            _ => Ok(()),
        };
    };
    if run.deepest != last {
        return Err(format!(
            "bot.deepest is {} but the run's last floor (bot.floors) is depth {last}",
            run.deepest
        )
        .into());
    }
    match &run.outcome {
        RecordedOutcome::Died { depth, .. } if *depth != last => Err(format!(
            "bot.outcome is a death on depth {depth} but the run's last floor is depth {last}"
        ).into()),
        RecordedOutcome::Won { .. } if last != LAST_DEPTH => Err(format!(
            "bot.outcome is a win but the run's last floor is depth {last}, not the last depth, {LAST_DEPTH}"
        ).into()),
        _ => Ok(()),
    }
}

/// Every check of a whole report: its header and spec, how much of its
/// seeds it covers, its summary against `folded` (what its results came to)
/// when it has results, and every figure of the summary within what its
/// spec and its other figures allow.
pub fn whole(name: &str, report: &SweepReport, folded: &Folded) -> Result<(), Error> {
    format(name, report.format)?;
    content(name, &report.content)?;
    spec(name, &report.spec)?;
    coverage(name, report)?;
    if folded.count > 0 {
        if folded.count != report.summary.seeds {
            return Err(impossible(
                name,
                format!(
                    "summary.seeds is {} but the results hold {} seeds",
                    report.summary.seeds, folded.count
                ),
            ));
        }
        if report.summary != folded.summary {
            return Err(format!(
                "{name}: the summary is not the summary of the results (was the file edited?): {}; sweep again with this deja",
                first_difference(&report.summary, &folded.summary)
            ).into());
        }
    }
    bound_summary(report).map_err(|what| impossible(name, what))
}

/// Each sweep is given once: two reports of the same sweep (the same file
/// twice, or a copy: the same spec, shard included, game and content) would
/// be added up twice by `merge` and drawn twice by `report`, so both refuse
/// the second, naming it and the first.
pub fn each_once<'a>(
    reports: impl IntoIterator<Item = (&'a str, &'a SweepReport)>,
) -> Result<(), Error> {
    let reports: Vec<(&str, &SweepReport)> = reports.into_iter().collect();
    for (later, (name, report)) in reports.iter().enumerate() {
        let same = |(_, earlier): &&(&str, &SweepReport)| {
            earlier.spec == report.spec
                && earlier.game == report.game
                && earlier.content == report.content
        };
        let Some((first, _)) = reports[..later].iter().find(same) else {
            continue;
        };
        return Err(if first == name {
            format!("{name}: given twice; give each report once").into()
        } else {
            let spec = &report.spec;
            let shard = spec.shard.map_or_else(String::new, |s| {
                format!("shard {}/{} of ", s.index, s.count)
            });
            format!(
                "{name}: the same sweep as {first} ({shard}the {} sweep of seeds {}..{}), given twice; give each report once",
                spec.bot.name(),
                spec.seeds.start,
                spec.seeds.end
            ).into()
        });
    }
    Ok(())
}

/// A report that passed every check: what `deja report` draws and `deja
/// merge` adds up; only [`super::read`] makes one.
pub struct Checked {
    name: String,
    report: SweepReport,
    most_hp: Option<i32>,
}

impl Checked {
    /// Made once `report` passed [`whole`] against `folded`.
    pub(super) fn new(name: String, report: SweepReport, folded: &Folded) -> Checked {
        Checked {
            name,
            report,
            most_hp: folded.most_hp,
        }
    }

    /// The most hit points any run arrived on a floor with, from the
    /// results (none when the report holds none).
    pub fn most_hp(&self) -> Option<i32> {
        self.most_hp
    }

    /// The file's name and the report.
    pub fn into_parts(self) -> (String, SweepReport) {
        (self.name, self.report)
    }
}

/// Checks a report held in memory, its results with it, as
/// [`super::read`] checks a file as it reads it.
pub fn in_memory(name: &str, report: &SweepReport) -> Result<Folded, Error> {
    format(name, report.format)?;
    spec(name, &report.spec)?;
    let mut results = Results::new(name, &report.spec);
    for result in &report.results {
        results.add(result)?;
    }
    let folded = results.finish();
    whole(name, report, &folded)?;
    Ok(folded)
}

/// The summary covers the seeds it says: all of the spec's, or (cut short)
/// the first of them, marked as an interrupted sweep or ending at a failure
/// (`--fail-fast`).
fn coverage(name: &str, report: &SweepReport) -> Result<(), Error> {
    let count = report.spec.seed_count();
    let seeds = report.summary.seeds;
    let of = if report.spec.shard.is_some() {
        "the spec's shard names"
    } else {
        "spec.seeds names"
    };
    let wrong = match &report.incomplete {
        Some(cut) if cut.reason != "interrupted" => Some(format!(
            "incomplete.reason is {}; a sweep is cut short only when interrupted",
            quoted(&cut.reason)
        )),
        Some(cut) if cut.of != count => Some(format!(
            "incomplete.of is {} but {of} {count} seeds",
            cut.of
        )),
        Some(cut) if cut.covered >= cut.of => Some(format!(
            "incomplete.covered is {} of {}: a sweep that covers its seeds is complete",
            cut.covered, cut.of
        )),
        Some(cut) if seeds != cut.covered => Some(format!(
            "summary.seeds is {seeds} but incomplete.covered is {}",
            cut.covered
        )),
        Some(_) => None,
        None if seeds > count => Some(format!("summary.seeds is {seeds} but {of} {count}")),
        None if seeds < count && report.summary.failures == 0 => Some(format!(
            "summary.seeds is {seeds}, short of the {count} seeds {of}, yet the report is neither marked incomplete nor stopped at a failure (--fail-fast)"
        )),
        None => None,
    };
    wrong.map_or(Ok(()), |what| Err(impossible(name, what)))
}

/// Where `stated` first differs from `recomputed`, as "summary.X is A but
/// the results give B".
fn first_difference(stated: &Summary, recomputed: &Summary) -> String {
    use serde_json::Value;
    fn shown(value: Option<&Value>) -> String {
        match value {
            None => "none".into(),
            Some(Value::Object(_)) => "a table".into(),
            Some(Value::Array(_)) => "a list".into(),
            Some(Value::String(s)) => quoted(s),
            Some(other) => other.to_string(),
        }
    }
    fn child<'v>(value: Option<&'v Value>, key: &str) -> Option<&'v Value> {
        match value {
            Some(Value::Object(m)) => m.get(key),
            Some(Value::Array(l)) => key.parse::<usize>().ok().and_then(|i| l.get(i)),
            _ => None,
        }
    }
    fn walk(path: &mut String, a: Option<&Value>, b: Option<&Value>) -> Option<String> {
        if a == b {
            return None;
        }
        // A table on one side only is walked too: the figure named is the
        // first inside it.
        let keys: Vec<String> = match (a, b) {
            (Some(Value::Object(x)), Some(Value::Object(y))) => {
                let mut keys: Vec<String> = x.keys().chain(y.keys()).cloned().collect();
                keys.sort();
                keys.dedup();
                keys
            }
            (Some(Value::Object(x)), None) | (None, Some(Value::Object(x))) => {
                x.keys().cloned().collect()
            }
            (Some(Value::Array(x)), Some(Value::Array(y))) => {
                (0..x.len().max(y.len())).map(|i| i.to_string()).collect()
            }
            _ => {
                return Some(format!(
                    "{path} is {} but the results give {}",
                    shown(a),
                    shown(b)
                ));
            }
        };
        for key in keys {
            let (x, y) = (child(a, &key), child(b, &key));
            let len = path.len();
            path.push('.');
            path.push_str(&key);
            if let Some(found) = walk(path, x, y) {
                return Some(found);
            }
            path.truncate(len);
        }
        None
    }
    match (
        serde_json::to_value(stated),
        serde_json::to_value(recomputed),
    ) {
        (Ok(a), Ok(b)) => walk(&mut "summary".to_string(), Some(&a), Some(&b)),
        // A sum of squares past a u64 has no JSON value to walk.
        _ => None,
    }
    .unwrap_or_else(|| "a figure differs".to_string())
}

/// The summary's figures against each other and the spec: what a summary
/// is held to when no results recompute it (and what impossible results
/// would come to when they do).
fn bound_summary(report: &SweepReport) -> Result<(), Error> {
    let spec = &report.spec;
    let s = &report.summary;
    bound_summary_floors(spec, s)?;
    let grouped: u128 = s.groups.iter().map(|g| u128::from(g.count)).sum();
    if grouped != u128::from(s.failures) {
        return Err(format!(
            "summary.failures is {} but summary.groups count {grouped}",
            s.failures
        )
        .into());
    }
    if s.groups.len() > MAX_GROUPS + 1 {
        return Err(format!(
            "summary.groups holds {} groups, more than the {} a sweep keeps",
            s.groups.len(),
            MAX_GROUPS + 1
        )
        .into());
    }
    match (&s.bot, spec.bot) {
        (None, BotKind::None) => Ok(()),
        (Some(_), BotKind::None) => {
            Err("summary.bot holds a bot's figures but spec.bot is none".into())
        }
        (None, bot) => Err(format!("summary.bot is missing but spec.bot is {bot}").into()),
        (Some(bot), _) => bound_bot(spec, s.seeds, bot),
    }
}

/// The summary's floors: one a seed and depth, each depth's figures within
/// what its floors can hold.
fn bound_summary_floors(spec: &SweepSpec, s: &Summary) -> Result<(), Error> {
    let DepthRange { first, last } = spec.depths;
    let depths = u128::from(last - first + 1);
    if u128::from(s.floors) != u128::from(s.seeds) * depths {
        return Err(format!(
            "summary.floors is {} but {} seeds of spec.depths {} make {}",
            s.floors,
            s.seeds,
            spec.depths,
            u128::from(s.seeds) * depths
        )
        .into());
    }
    let mut floors = 0u128;
    for (depth, d) in &s.depths {
        if !(first..=last).contains(depth) {
            return Err(format!(
                "summary.depths holds depth {depth}, outside spec.depths {}",
                spec.depths
            )
            .into());
        }
        bound_depth_figures(spec, s.seeds, &format!("summary.depths.{depth}"), d)?;
        floors += u128::from(d.floors);
    }
    if floors != u128::from(s.floors) {
        return Err(format!(
            "summary.floors is {} but summary.depths add up to {floors}",
            s.floors
        )
        .into());
    }
    Ok(())
}

/// One depth's figures (`at` names it): its floors, generators, means and
/// what they hold.
fn bound_depth_figures(
    spec: &SweepSpec,
    seeds: u64,
    at: &str,
    d: &DepthSummary,
) -> Result<(), Error> {
    let area = area(spec);
    if d.floors != seeds {
        return Err(format!(
            "{at}.floors is {} but summary.seeds is {seeds}: each seed builds each depth once",
            d.floors
        )
        .into());
    }
    let built: u128 = d.generators.values().map(|&n| u128::from(n)).sum();
    if built != u128::from(d.floors) {
        return Err(format!(
            "{at}.generators add up to {built} floors but {at}.floors is {}",
            d.floors
        )
        .into());
    }
    if d.out_of_depth > d.floors {
        return Err(format!(
            "{at}.out_of_depth is {} but {at}.floors is {}",
            d.out_of_depth, d.floors
        )
        .into());
    }
    if d.mean_reachable > d.mean_walkable {
        return Err(format!(
            "{at}.mean_reachable is {} but {at}.mean_walkable is {}",
            d.mean_reachable, d.mean_walkable
        )
        .into());
    }
    let means = [
        ("mean_walkable", d.mean_walkable),
        ("mean_rooms", d.mean_rooms),
        ("mean_stairs_distance", d.mean_stairs_distance),
    ];
    if let Some((what, n)) = means.iter().find(|(_, n)| *n > area) {
        return Err(format!(
            "{at}.{what} is {n}, more than the {area} tiles of a {}x{} map",
            spec.map_width, spec.map_height
        )
        .into());
    }
    let most = u128::from(d.floors) * u128::from(area);
    for (what, n) in [("monsters", d.monsters), ("items", d.items)] {
        if u128::from(n) > most {
            return Err(format!(
                "{at}.{what} is {n} but {} floors of {area} tiles hold at most {most}",
                d.floors
            )
            .into());
        }
    }
    Ok(())
}

fn bound_bot(spec: &SweepSpec, seeds: u64, bot: &BotSummary) -> Result<(), Error> {
    bound_bot_presses(spec, seeds, bot)?;
    let depths = Depths {
        bot,
        none: DepthPlay::default(),
    };
    bound_depth_counts(&depths)?;
    let (mut items_used, mut items_found, mut died) = (0u128, 0u128, 0u128);
    for d in 1..=LAST_DEPTH {
        bound_depth(&depths, d, area(spec))?;
        let p = depths.play(d);
        items_used += u128::from(p.items_used);
        items_found += u128::from(p.items_found);
        died += u128::from(p.died);
    }
    let most_found = u128::from(bot.keys) * u128::from(MAX_STACK);
    if items_found > most_found {
        return Err(format!(
            "summary.bot.by_depth's items_found add up to {items_found} but {} keys pick up at most {most_found}",
            bot.keys
        ).into());
    }
    if items_used > u128::from(bot.keys) {
        return Err(format!(
            "summary.bot.by_depth's items_used add up to {items_used} but summary.bot.keys is {}",
            bot.keys
        )
        .into());
    }
    let last = depths.play(LAST_DEPTH);
    if bot.wins > last.entered - last.died {
        return Err(format!(
            "summary.bot.wins is {} but {} runs entered the last depth, {LAST_DEPTH}, and {} died there",
            bot.wins, last.entered, last.died
        ).into());
    }
    let deaths: u128 = bot.deaths.values().map(|&n| u128::from(n)).sum();
    if deaths != died {
        return Err(format!(
            "summary.bot.deaths add up to {deaths} but summary.bot.by_depth's died add up to {died}"
        )
        .into());
    }
    outcomes(bot, deaths)?;
    killers(bot)
}

/// A bot summary's play by depth, a depth no run entered reading as none.
struct Depths<'a> {
    bot: &'a BotSummary,
    none: DepthPlay,
}

impl Depths<'_> {
    fn play(&self, depth: u32) -> &DepthPlay {
        self.bot.by_depth.get(&depth).unwrap_or(&self.none)
    }

    fn entered(&self, depth: u32) -> u64 {
        self.play(depth).entered
    }

    /// The runs whose deepest floor was `depth`.
    fn reached(&self, depth: u32) -> u64 {
        self.bot.deepest.get(&depth).copied().unwrap_or(0)
    }
}

/// Runs, wins, keys, turns and commands: one run a seed, no more wins than
/// runs, no more keys or turns than the runs allow, no more commands than
/// keys.
fn bound_bot_presses(spec: &SweepSpec, seeds: u64, bot: &BotSummary) -> Result<(), Error> {
    let runs = bot.runs;
    if runs != seeds {
        return Err(format!(
            "summary.bot.runs is {runs} but summary.seeds is {seeds}: the bot plays every seed"
        )
        .into());
    }
    if bot.wins > runs {
        return Err(format!(
            "summary.bot.wins is {} but summary.bot.runs is {runs}",
            bot.wins
        )
        .into());
    }
    let rate = u128::from(bot.wins) * 1000 / u128::from(runs.max(1));
    if u128::from(bot.win_rate_permille) != rate {
        return Err(format!(
            "summary.bot.win_rate_permille is {} but {} wins of {runs} runs make {rate}",
            bot.win_rate_permille, bot.wins
        )
        .into());
    }
    let most_keys = u128::from(runs) * u128::from(spec.keys);
    if u128::from(bot.keys) > most_keys {
        return Err(format!(
            "summary.bot.keys is {} but {runs} runs of at most {} keys (spec.keys) press at most {most_keys}",
            bot.keys, spec.keys
        ).into());
    }
    let most_turns = u128::from(runs) * u128::from(u32::MAX);
    if u128::from(bot.turns) > most_turns {
        return Err(format!(
            "summary.bot.turns is {} but {runs} runs' clocks count at most {most_turns}",
            bot.turns
        )
        .into());
    }
    let mut pressed = 0u128;
    for (command, [times, worked]) in &bot.commands {
        if worked > times {
            return Err(format!(
                "summary.bot.commands[{}] worked {worked} times but was pressed {times}",
                quoted(command)
            )
            .into());
        }
        pressed += u128::from(*times);
    }
    if pressed > u128::from(bot.keys) {
        return Err(format!(
            "summary.bot.commands add up to {pressed} presses but summary.bot.keys is {}",
            bot.keys
        )
        .into());
    }
    Ok(())
}

/// The depths the counts are kept by, and the runs at the top: every depth
/// within the game's, the runs that entered depth 1 and those that stood on
/// no floor adding up to the runs, no more deaths on a depth than entered.
fn bound_depth_counts(depths: &Depths) -> Result<(), Error> {
    let bot = depths.bot;
    let runs = bot.runs;
    if let Some(depth) = bot.by_depth.keys().find(|d| !(1..=LAST_DEPTH).contains(*d)) {
        return Err(format!(
            "summary.bot.by_depth holds depth {depth}, outside the game's 1..={LAST_DEPTH}"
        )
        .into());
    }
    if let Some(depth) = bot.deepest.keys().find(|d| **d > LAST_DEPTH) {
        return Err(format!(
            "summary.bot.deepest holds depth {depth}, past the last depth, {LAST_DEPTH}"
        )
        .into());
    }
    if runs > 0 && bot.by_depth.is_empty() && bot.keys > 0 {
        return Err(
            "summary.bot.by_depth is missing: the report was written before deja counted it".into(),
        );
    }
    if depths.entered(1) > runs {
        return Err(format!(
            "summary.bot.by_depth.1.entered is {} but summary.bot.runs is {runs}",
            depths.entered(1)
        )
        .into());
    }
    // A run that never stood on a floor (its start failed) is counted as
    // reaching depth 0.
    if u128::from(depths.reached(0)) != u128::from(runs - depths.entered(1)) {
        return Err(format!(
            "summary.bot.deepest.0 is {} but {runs} runs, {} of which entered depth 1, leave {} that stood on no floor",
            depths.reached(0),
            depths.entered(1),
            runs - depths.entered(1)
        ).into());
    }
    // Deaths where no run entered first: the plainest of what follows.
    for (d, p) in &bot.by_depth {
        if p.died > p.entered {
            return Err(format!(
                "summary.bot.by_depth.{d}.died is {} but summary.bot.by_depth.{d}.entered is {}",
                p.died, p.entered
            )
            .into());
        }
    }
    Ok(())
}

/// One depth's play: runs go deeper only from the floor above, the runs
/// that ended there are its deaths and the rest, its killers add up to its
/// deaths, its arrivals' hit points and the monsters met within the rules.
fn bound_depth(depths: &Depths, d: u32, area: u64) -> Result<(), Error> {
    let p = depths.play(d);
    let at = format!("summary.bot.by_depth.{d}");
    bound_ends(depths, d, &at)?;
    bound_arrivals(p, &at)?;
    bound_met(p, &at, area)
}

/// The runs that entered depth `d` (its play `at`) went deeper only from
/// the floor above, those that ended there are its deaths and the rest, and
/// its killers add up to its deaths.
fn bound_ends(depths: &Depths, d: u32, at: &str) -> Result<(), Error> {
    let p = depths.play(d);
    let deeper = if d == LAST_DEPTH {
        0
    } else {
        depths.entered(d + 1)
    };
    if deeper > p.entered {
        return Err(format!(
            "summary.bot.by_depth.{}.entered is {deeper} but {at}.entered is {}: a run goes deeper only from the floor above",
            d + 1,
            p.entered
        ).into());
    }
    let ended = p.entered - deeper;
    if p.died > ended {
        return Err(format!(
            "{at}.died is {} but of the {} runs that entered, {deeper} went deeper",
            p.died, p.entered
        )
        .into());
    }
    if depths.reached(d) != ended {
        return Err(format!(
            "summary.bot.deepest.{d} is {} but {} runs entered depth {d} and {deeper} went deeper",
            depths.reached(d),
            p.entered
        )
        .into());
    }
    let killed: u128 = p.killers.values().map(|&n| u128::from(n)).sum();
    if killed != u128::from(p.died) {
        return Err(format!(
            "{at}.killers add up to {killed} but {at}.died is {}",
            p.died
        )
        .into());
    }
    Ok(())
}

/// A depth's arrivals (its play `at`): their hit points' deciles add up to
/// the runs that entered, and their hit points are within the rules.
fn bound_arrivals(p: &DepthPlay, at: &str) -> Result<(), Error> {
    if let Some(decile) = p.hp_deciles.keys().find(|k| **k > 10) {
        return Err(format!("{at}.hp_deciles holds {decile}, past 10 (100%)").into());
    }
    let arrivals: u128 = p.hp_deciles.values().map(|&n| u128::from(n)).sum();
    if arrivals != u128::from(p.entered) {
        return Err(format!(
            "{at}.hp_deciles add up to {arrivals} but {at}.entered is {}",
            p.entered
        )
        .into());
    }
    let most_hp = u128::from(p.entered) * u128::from(PLAYER_MAX_HP.unsigned_abs());
    if u128::from(p.hp_on_arrival) > most_hp {
        return Err(format!(
            "{at}.hp_on_arrival is {} but {} runs of at most {PLAYER_MAX_HP} hit points arrive with at most {most_hp}",
            p.hp_on_arrival, p.entered
        ).into());
    }
    Ok(())
}

/// The monsters a depth's runs met (its play `at`): of dangers content can
/// give, and no more than its floors of `area` tiles hold.
fn bound_met(p: &DepthPlay, at: &str, area: u64) -> Result<(), Error> {
    if let Some(danger) = p.met.keys().find(|k| !(1..=MAX_DANGER).contains(*k)) {
        return Err(format!(
            "{at}.met holds a danger of {danger}, outside 1..={MAX_DANGER}, the dangers content can give"
        ).into());
    }
    let met: u128 = p.met.values().map(|&n| u128::from(n)).sum();
    let most_met = u128::from(p.entered) * u128::from(area);
    if met > most_met {
        return Err(format!(
            "{at}.met counts {met} monsters but {} runs on floors of {area} tiles meet at most {most_met}",
            p.entered
        ).into());
    }
    Ok(())
}

/// The outcomes account for every run, once: they add up to the runs, and
/// agree with the wins and the deaths counted beside them.
fn outcomes(bot: &BotSummary, deaths: u128) -> Result<(), Error> {
    let o = &bot.outcomes;
    let counted = o.total();
    if counted != u128::from(bot.runs) {
        let each: Vec<String> = o
            .named()
            .iter()
            .map(|(how, n)| format!("{n} {how}"))
            .collect();
        return Err(format!(
            "summary.bot.outcomes add up to {counted} ({}) but summary.bot.runs is {}: every run ends one way",
            each.join(", "),
            bot.runs
        ).into());
    }
    if o.won != bot.wins {
        return Err(format!(
            "summary.bot.outcomes.won is {} but summary.bot.wins is {}",
            o.won, bot.wins
        )
        .into());
    }
    if u128::from(o.died) != deaths {
        return Err(format!(
            "summary.bot.outcomes.died is {} but summary.bot.deaths add up to {deaths}",
            o.died
        )
        .into());
    }
    Ok(())
}

/// The killers by depth (what the balance report's chart stacks) are the
/// deaths' causes by [`super::killer`] (what the text summary and the key
/// figures rank, [`super::killers`]), kind by kind.
fn killers(bot: &BotSummary) -> Result<(), Error> {
    let mut by_depth = std::collections::BTreeMap::<&str, u128>::new();
    for play in bot.by_depth.values() {
        for (kind, n) in &play.killers {
            *by_depth.entry(kind).or_default() += u128::from(*n);
        }
    }
    let ranked = super::killers(bot);
    let from_deaths: std::collections::BTreeMap<&str, u128> = ranked
        .iter()
        .map(|(kind, n)| (kind.as_str(), u128::from(*n)))
        .collect();
    let kinds = by_depth.keys().chain(from_deaths.keys());
    for kind in kinds {
        let (a, b) = (
            by_depth.get(kind).copied().unwrap_or(0),
            from_deaths.get(kind).copied().unwrap_or(0),
        );
        if a != b {
            return Err(format!(
                "summary.bot.by_depth's killers count {a} deaths by {} but summary.bot.deaths count {b}",
                quoted(kind)
            ).into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use game_core::content::Content;
    use game_core::map::{DEFAULT_HEIGHT, DEFAULT_WIDTH};

    use super::*;
    use crate::sweep::{RunOptions, Saving, default_progress_limit, run};

    fn spec(bot: BotKind, seeds: std::ops::Range<u64>, canaries: &[&str]) -> SweepSpec {
        SweepSpec {
            seeds: SeedRange {
                start: seeds.start,
                end: u128::from(seeds.end),
            },
            depths: DepthRange { first: 1, last: 6 },
            bot,
            keys: 3000,
            map_width: DEFAULT_WIDTH,
            map_height: DEFAULT_HEIGHT,
            canaries: canaries.iter().map(|c| c.to_string()).collect(),
            shard: None,
            progress_limit: default_progress_limit(bot),
        }
    }

    /// The report a sweep of `spec` writes, its results in it.
    fn swept(spec: &SweepSpec, fail_fast: bool, stopped: bool) -> SweepReport {
        let content = Arc::new(Content::embedded());
        let stop = AtomicBool::new(stopped);
        let options = RunOptions {
            fail_fast,
            stop: Some(&stop),
        };
        let mut results = Vec::new();
        let saving = Saving { dir: None };
        let report = run(spec, &content, 2, &saving, options, &|_| {}, &mut |r| {
            results.push(r.clone())
        })
        .expect("a sweep");
        SweepReport { results, ..report }
    }

    /// Every kind of report a sweep writes passes, with its results and with
    /// its summary alone: whole, sharded, floors only, cut short at a
    /// failure, interrupted, and with runs that fail mid-way.
    #[test]
    fn every_report_a_sweep_writes_passes() {
        let mut floors_only = spec(BotKind::None, 1..9, &[]);
        floors_only.depths = DepthRange { first: 2, last: 4 };
        floors_only.keys = 0;
        let sharded = SweepSpec {
            shard: Some(Shard { index: 2, count: 3 }),
            ..spec(BotKind::Explorer, 1..10, &[])
        };
        let cases = [
            (
                "explorer",
                swept(&spec(BotKind::Explorer, 1..9, &[]), false, false),
            ),
            (
                "random",
                swept(&spec(BotKind::Random, 1..9, &[]), false, false),
            ),
            ("floors only", swept(&floors_only, false, false)),
            ("shard 2/3", swept(&sharded, false, false)),
            (
                "fail-fast",
                swept(&spec(BotKind::None, 5..40, &["crowded-start"]), true, false),
            ),
            (
                "interrupted",
                swept(&spec(BotKind::Explorer, 1..9, &[]), false, true),
            ),
            (
                "runs that fail",
                swept(
                    &spec(BotKind::Explorer, 1..4, &["double-step"]),
                    false,
                    false,
                ),
            ),
            (
                "random runs that fail",
                swept(&spec(BotKind::Random, 1..4, &["stuck-north"]), false, false),
            ),
        ];
        for (name, report) in cases {
            let folded = in_memory(name, &report).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(folded.count, report.results.len() as u64, "{name}");
            let alone = SweepReport {
                results: Vec::new(),
                ..report
            };
            in_memory(name, &alone).unwrap_or_else(|e| panic!("{name}, summary alone: {e}"));
        }
    }

    /// Each edit a sweep could not have made is refused, naming the figure,
    /// whether the summary alone is given or its results recompute it.
    #[test]
    fn a_summary_no_sweep_writes_is_refused_naming_the_figure() {
        let real = swept(&spec(BotKind::Explorer, 1..4, &[]), false, false);
        fn bot(r: &mut SweepReport) -> &mut BotSummary {
            r.summary.bot.as_mut().unwrap()
        }
        type Edit = fn(&mut SweepReport);
        let cases: [(&str, Edit, &str); 16] = [
            (
                "a run counted twice",
                |r| bot(r).outcomes.out_of_keys += 1,
                "summary.bot.outcomes add up to 4",
            ),
            (
                "a run left out",
                |r| {
                    let o = &mut bot(r).outcomes;
                    // Whichever way the first run ended, one less of it.
                    let most = [
                        &mut o.won,
                        &mut o.died,
                        &mut o.quit,
                        &mut o.out_of_keys,
                        &mut o.stuck,
                        &mut o.failed,
                    ]
                    .into_iter()
                    .find(|n| **n > 0)
                    .unwrap();
                    *most -= 1;
                },
                "summary.bot.outcomes add up to 2",
            ),
            (
                "wins above runs",
                |r| bot(r).wins = 20,
                "summary.bot.wins is 20 but summary.bot.runs is 3",
            ),
            ("runs", |r| bot(r).runs = 4, "summary.bot.runs is 4"),
            (
                "win rate",
                |r| bot(r).win_rate_permille = 1001,
                "summary.bot.win_rate_permille is 1001",
            ),
            (
                "deaths where nobody entered",
                |r| {
                    let play = bot(r).by_depth.entry(6).or_default();
                    play.entered = 0;
                    play.died = 3;
                },
                "summary.bot.by_depth.6.died is 3 but summary.bot.by_depth.6.entered is 0",
            ),
            (
                "a huge danger",
                |r| {
                    bot(r)
                        .by_depth
                        .entry(1)
                        .or_default()
                        .met
                        .insert(u32::MAX, 1);
                },
                "summary.bot.by_depth.1.met holds a danger of 4294967295",
            ),
            (
                "keys",
                |r| bot(r).keys = u64::MAX,
                "summary.bot.keys is 18446744073709551615",
            ),
            (
                "hit points",
                |r| bot(r).by_depth.entry(1).or_default().hp_on_arrival = u64::MAX,
                "summary.bot.by_depth.1.hp_on_arrival is 18446744073709551615",
            ),
            (
                "a depth outside the game",
                |r| {
                    bot(r).by_depth.insert(9, DepthPlay::default());
                },
                "summary.bot.by_depth holds depth 9",
            ),
            (
                "a floor's depth outside the spec",
                |r| {
                    let d = r.summary.depths[&1].clone();
                    r.summary.depths.insert(7, d);
                },
                "summary.depths holds depth 7",
            ),
            (
                "out of depth over 100%",
                |r| r.summary.depths.get_mut(&1).unwrap().out_of_depth = 40,
                "summary.depths.1.out_of_depth is 40 but summary.depths.1.floors is 3",
            ),
            ("floors", |r| r.summary.floors = 1, "summary.floors is 1"),
            (
                "failures",
                |r| r.summary.failures = 2,
                "summary.failures is 2",
            ),
            (
                "seeds 100..1",
                |r| r.spec.seeds = SeedRange { start: 100, end: 1 },
                "spec.seeds is 100..1",
            ),
            (
                "a non-hex fingerprint",
                |r| r.content = "0123456789abcdeg".into(),
                "content is \"0123456789abcdeg\"",
            ),
        ];
        for (what, edit, said) in cases {
            let mut alone = SweepReport {
                results: Vec::new(),
                ..real.clone()
            };
            edit(&mut alone);
            let err = in_memory("a.json", &alone).expect_err(what).to_string();
            assert!(err.starts_with("a.json: "), "{what}: {err}");
            assert!(err.contains(said), "{what}: {said:?} not in {err}");
            assert!(err.contains("sweep again with this deja"), "{what}: {err}");
            // With its results, the figure is named against theirs (or the
            // spec is refused before any result is read).
            let mut whole = real.clone();
            edit(&mut whole);
            let err = in_memory("a.json", &whole).expect_err(what).to_string();
            let figure = said.split(' ').next().unwrap();
            assert!(err.contains(figure), "{what}: {figure:?} not in {err}");
        }
    }

    /// A seed's result no sweep of that seed could give is refused, naming
    /// the seed and the figure, before it is added up (where some would
    /// overflow the sums).
    #[test]
    fn a_result_no_sweep_writes_is_refused_naming_the_seed_and_figure() {
        let real = swept(&spec(BotKind::Explorer, 1..4, &[]), false, false);
        fn run(r: &mut SweepReport) -> &mut BotResult {
            r.results[1].bot.as_mut().unwrap()
        }
        type Edit = fn(&mut SweepReport);
        let cases: [(&str, Edit, &str); 10] = [
            (
                "a failed run without its failure",
                |r| run(r).outcome = RecordedOutcome::Failed,
                "seed 2: bot.outcome is a failure but failures is empty",
            ),
            (
                "revealed",
                |r| run(r).revealed = 1 << 63,
                "seed 2: bot.revealed is 9223372036854775808",
            ),
            (
                "a floor's depth",
                |r| r.results[1].floors[0].depth = u32::MAX,
                "seed 2: floors[0].depth is 4294967295",
            ),
            (
                "keys",
                |r| run(r).keys = 3001,
                "seed 2: bot.keys is 3001 but spec.keys",
            ),
            (
                "a huge danger met",
                |r| run(r).floors[0].met.push(u32::MAX),
                "seed 2: bot.floors[0].met holds a danger of 4294967295",
            ),
            (
                "a death on a floor not stood on",
                |r| {
                    let last = run(r).floors.last().unwrap().depth;
                    run(r).outcome = RecordedOutcome::Died {
                        cause: "killed by an orc".into(),
                        depth: if last == 1 { 2 } else { 1 },
                        turn: 1,
                    };
                },
                "seed 2: bot.outcome is a death on depth",
            ),
            (
                "hit points",
                |r| run(r).floors[0].max_hp = i32::MAX,
                "seed 2: bot.floors[0].max_hp is 2147483647",
            ),
            (
                "a skipped floor",
                |r| run(r).floors[1].depth = 3,
                "seed 2: bot.floors[1].depth is 3, where depth 2 belongs",
            ),
            (
                "a command that worked more than pressed",
                |r| {
                    run(r).commands.insert("wait".into(), [1, 2]);
                },
                "seed 2: bot.commands[\"wait\"] worked 2 times but was pressed 1",
            ),
            (
                "a seed out of order",
                |r| r.results.swap(0, 1),
                "the results hold seed 2 where seed 1 belongs",
            ),
        ];
        for (what, edit, said) in cases {
            let mut report = real.clone();
            edit(&mut report);
            let err = in_memory("a.json", &report).expect_err(what).to_string();
            assert!(err.starts_with("a.json: "), "{what}: {err}");
            assert!(err.contains(said), "{what}: {said:?} not in {err}");
        }
    }
}
