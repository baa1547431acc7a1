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
use std::sync::Arc;

use game_core::content::Content;
use game_core::invariants;
use game_core::map::{DEFAULT_HEIGHT, DEFAULT_WIDTH};
use game_core::mapgen::stats::FloorStats;
use game_core::mapgen::{self, LAST_DEPTH};
use game_core::{Game, GameConfig, RunSeed};
use serde::{Deserialize, Serialize};

use crate::recording::{FailureKind, RecordedOutcome, Recording};
use crate::run::runner::Runner;
use crate::sweep::bots::BotKind;

pub mod baseline;
pub mod bots;
pub mod check;
pub mod figures;
pub mod read;
pub mod report;

/// The version of the sweep report format. 2 adds the progress limit, what
/// each bot run did (kills, items used, ground revealed, commands) and the
/// figures' moments; 3 the failures grouped by signature; 4 names the key
/// budget `spec.keys` (it was `spec.turns`, though it counts keys) and counts
/// how every run ended (`summary.bot.outcomes`); 5 the situations each run
/// reached (`bot.reach`, `summary.bot.reach`).
pub const REPORT_FORMAT: u32 = 5;

/// The most keys a sweep's bot may press on a seed (`--keys`).
pub const MOST_KEYS: u64 = 1_000_000;

/// The most shards a sweep may be split into (`--shard I/N`).
pub const MOST_SHARDS: u32 = 1024;

/// What to sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepSpec {
    /// Seeds `start..end`.
    pub seeds: SeedRange,
    /// Floors `first..=last` generated and checked for each seed.
    pub depths: DepthRange,
    pub bot: BotKind,
    /// Most keys a bot presses per seed (`--keys`).
    pub keys: u64,
    pub map_width: i32,
    pub map_height: i32,
    /// Planted defects switched on in every run (harness tests only), by name.
    pub canaries: Vec<String>,
    /// This report's part of the seeds, `index` of `count` (1-based).
    pub shard: Option<Shard>,
    /// The most keys in a row a bot may press without progress
    /// (`play.progress`).
    pub progress_limit: u64,
}

/// The progress limit a bot's runs are held to unless a sweep says
/// otherwise: several times the longest stretch without progress either bot
/// shows over ten thousand seeds (docs/invariants.md has the figures).
pub fn default_progress_limit(bot: BotKind) -> u64 {
    match bot {
        BotKind::None | BotKind::Explorer => 200,
        BotKind::Random | BotKind::Swarm => 1500,
    }
}

/// Seeds `start` up to `end`, excluded. `end` is one past the last seed,
/// so it is wider than a seed: a range may end at seed u64::MAX (`end` is
/// then 2^64). JSON writes it as the same digits a u64 would.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedRange {
    pub start: u64,
    pub end: u128,
}

/// One past the largest seed.
pub const SEEDS_END: u128 = u64::MAX as u128 + 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepthRange {
    pub first: u32,
    pub last: u32,
}

/// "1..101", as `--seeds` takes it.
impl std::fmt::Display for SeedRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.end == SEEDS_END {
            write!(f, "{}..={}", self.start, u64::MAX)
        } else {
            write!(f, "{}..{}", self.start, self.end)
        }
    }
}

/// "1..=6", as `--depths` takes it.
impl std::fmt::Display for DepthRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..={}", self.first, self.last)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl SweepSpec {
    /// How this spec differs from `other`, one phrase a field: "seeds 1..101
    /// here, 1..201 there".
    pub fn differences(&self, other: &SweepSpec) -> Vec<String> {
        let canaries = |spec: &SweepSpec| {
            if spec.canaries.is_empty() {
                "none".to_string()
            } else {
                spec.canaries.join(", ")
            }
        };
        let shard = |spec: &SweepSpec| {
            spec.shard.map_or_else(
                || "none".to_string(),
                |s| format!("{}/{}", s.index, s.count),
            )
        };
        let fields = [
            ("seeds", self.seeds.to_string(), other.seeds.to_string()),
            ("depths", self.depths.to_string(), other.depths.to_string()),
            ("bot", self.bot.to_string(), other.bot.to_string()),
            (
                "keys per seed",
                self.keys.to_string(),
                other.keys.to_string(),
            ),
            (
                "map size",
                format!("{}x{}", self.map_width, self.map_height),
                format!("{}x{}", other.map_width, other.map_height),
            ),
            ("canaries", canaries(self), canaries(other)),
            ("shard", shard(self), shard(other)),
            (
                "progress limit",
                self.progress_limit.to_string(),
                other.progress_limit.to_string(),
            ),
        ];
        fields
            .into_iter()
            .filter(|(_, here, there)| here != there)
            .map(|(what, here, there)| format!("{what} {here} here, {there} there"))
            .collect()
    }

    /// How many seeds `seeds` yields, without walking them (a range may
    /// hold billions).
    pub fn seed_count(&self) -> u64 {
        let SeedRange { start, end } = self.seeds;
        let all = end.saturating_sub(u128::from(start));
        let count = match self.shard {
            None => all,
            Some(Shard { index, count }) => {
                let (index, count) = (u128::from(index), u128::from(count));
                // Seeds start + (index - 1) + k * count below end.
                all.saturating_sub(index - 1).div_ceil(count)
            }
        };
        // Only 0..=u64::MAX unsharded holds one more than a u64 counts.
        u64::try_from(count).unwrap_or(u64::MAX)
    }

    /// The seeds this spec (and its shard) covers, in order. Seed `s` belongs
    /// to shard `(s - start) % count + 1`.
    pub fn seeds(&self) -> impl Iterator<Item = u64> + '_ {
        let SeedRange { start, end } = self.seeds;
        let (first, step) = match self.shard {
            None => (u128::from(start), 1),
            Some(Shard { index, count }) => (
                u128::from(start) + u128::from(index - 1),
                usize::try_from(count).expect("at most 1024 shards"),
            ),
        };
        (first..end.min(SEEDS_END))
            .step_by(step)
            .map(|seed| u64::try_from(seed).expect("seeds below 2^64"))
    }
}

/// One floor, measured and checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FloorResult {
    pub depth: u32,
    pub generator: String,
    pub rooms: u32,
    pub regions: usize,
    pub walkable: usize,
    pub reachable: usize,
    /// Steps from the start to the way down.
    pub stairs_distance: Option<u32>,
    pub monsters: usize,
    pub items: usize,
    /// The highest danger among the monsters it spawned (0 for none).
    /// Absent from reports written before it was counted.
    #[serde(default)]
    pub deepest_danger: u32,
}

/// How a bot's run of a seed went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotResult {
    pub keys: u64,
    pub turns: u64,
    pub deepest: u32,
    pub outcome: RecordedOutcome,
    pub kills: u32,
    /// Potions drunk, scrolls read and missiles thrown.
    pub items_used: u64,
    /// Tiles revealed, on all floors together.
    pub revealed: u64,
    /// By command: [pressed, worked].
    pub commands: BTreeMap<String, [u64; 2]>,
    /// Every floor the run stood on, in order. Absent from reports written
    /// before it was counted.
    #[serde(default)]
    pub floors: Vec<crate::run::runner::FloorVisit>,
    /// The situations the run reached, by id (`game_core::invariants::reach`),
    /// each reached at least once: how often.
    #[serde(default)]
    pub reach: BTreeMap<String, u64>,
}

/// A failure found in a sweep, and how to reproduce it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundFailure {
    pub seed: u64,
    pub depth: u32,
    /// The key at which a bot run failed; 0 for a floor that failed its
    /// checks when generated.
    pub step: u64,
    pub kind: FailureKind,
    /// The recording that reproduces it, when saved.
    pub recording: Option<String>,
    /// The one line that reproduces it.
    pub reproduce: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedResult {
    pub seed: u64,
    pub floors: Vec<FloorResult>,
    pub bot: Option<BotResult>,
    pub failures: Vec<FoundFailure>,
}

/// The whole report: what was swept, the result of every seed in order, and
/// figures computed from them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepReport {
    pub format: u32,
    pub game: String,
    pub content: String,
    pub spec: SweepSpec,
    /// Set when the sweep was stopped before it covered its seeds (SIGINT,
    /// SIGTERM): the summary and results are of the seeds it covered only.
    /// Absent from a complete report, whose bytes are as they always were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<Incomplete>,
    pub summary: Summary,
    /// Every seed's result, in seed order, in a report read from a file or
    /// merged; none in the report [`run`] returns (they went to its
    /// `each`).
    pub results: Vec<SeedResult>,
}

/// How much of an interrupted sweep was done.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Incomplete {
    /// Why it stopped: "interrupted".
    pub reason: String,
    /// Seeds covered, of the seeds the spec (and its shard) names.
    pub covered: u64,
    pub of: u64,
}

/// Figures over all the seeds of a report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub seeds: u64,
    pub floors: u64,
    pub failures: u64,
    pub depths: BTreeMap<u32, DepthSummary>,
    pub bot: Option<BotSummary>,
    /// Every figure's moments (see `crate::sweep::figures`).
    pub figures: BTreeMap<String, crate::sweep::figures::Moments>,
    /// The failures grouped by signature, the largest group first.
    #[serde(default)]
    pub groups: Vec<FailureGroup>,
}

/// Failures that share a signature: most likely one bug, met many times.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureGroup {
    /// What the failures share (see [`signature`]).
    pub signature: String,
    pub count: u64,
    pub first_seed: u64,
    /// The failure with the fewest keys (the lowest seed of those): the
    /// case to reproduce and shrink.
    pub smallest: FoundFailure,
}

/// The most groups a summary keeps; failures of further signatures are
/// counted in one last group.
pub const MAX_GROUPS: usize = 500;

/// The signature of groups past [`MAX_GROUPS`].
const MORE_SIGNATURES: &str = "(failures of further signatures)";

/// What failures of one bug share: the kind, and the invariant's id, or the
/// panic's message and location, or the message of a stuck or hung turn,
/// with every number in a message written `N` (positions, counts and steps
/// vary from seed to seed; a location's line does not).
pub fn signature(kind: &FailureKind) -> String {
    match kind {
        FailureKind::Panic { message, location } => {
            let at = location
                .as_ref()
                .map_or_else(String::new, |at| format!(" (at {at})"));
            format!("panic: {}{at}", without_numbers(message))
        }
        FailureKind::Invariant { id, .. } => format!("invariant {id} broken"),
        FailureKind::Stuck { message } => format!("stuck: {}", without_numbers(message)),
        FailureKind::Hang { message } => format!("hang: {}", without_numbers(message)),
    }
}

/// `text` with every run of digits written `N`.
pub fn without_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_number = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('N');
            }
            in_number = true;
        } else {
            out.push(c);
            in_number = false;
        }
    }
    out
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepthSummary {
    pub floors: u64,
    /// Floors by the generator that built them.
    pub generators: BTreeMap<String, u64>,
    /// Means, rounded down.
    pub mean_walkable: u64,
    pub mean_reachable: u64,
    pub mean_rooms: u64,
    pub mean_stairs_distance: u64,
    pub monsters: u64,
    pub items: u64,
    /// Floors that spawned a monster more than [`OUT_OF_DEPTH`] danger
    /// levels above their depth.
    #[serde(default)]
    pub out_of_depth: u64,
}

/// How far above a floor's depth a monster's danger may be before the
/// balance report calls it out of depth.
pub const OUT_OF_DEPTH: u32 = 2;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotSummary {
    pub runs: u64,
    pub wins: u64,
    /// Wins per thousand runs.
    pub win_rate_permille: u64,
    /// How the runs ended: every run counted once, so these add up to
    /// `runs`.
    pub outcomes: Outcomes,
    /// Deaths by the cause on the tombstone ("killed by an orc").
    pub deaths: BTreeMap<String, u64>,
    /// Runs by the deepest floor they reached.
    pub deepest: BTreeMap<u32, u64>,
    pub keys: u64,
    pub turns: u64,
    /// By command: [pressed, worked], over every run.
    pub commands: BTreeMap<String, [u64; 2]>,
    /// What the runs met floor by floor: the balance report's figures.
    #[serde(default)]
    pub by_depth: BTreeMap<u32, DepthPlay>,
    /// Each situation reached, by id: how often over every run, and in how
    /// many runs (`game_core::invariants::reach`). A situation no run
    /// reached is absent.
    #[serde(default)]
    pub reach: BTreeMap<String, Reached>,
}

/// How often a sweep's runs reached one situation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reached {
    /// Times reached, over every run.
    pub times: u64,
    /// Runs that reached it at least once.
    pub runs: u64,
    /// The sum of each run's count squared: with `times` and the sweep's
    /// runs, the spread the reach baseline needs.
    pub sum_squares: u128,
}

impl Reached {
    fn add(&mut self, times: u64) {
        self.times = self.times.saturating_add(times);
        self.runs += 1;
        self.sum_squares = self
            .sum_squares
            .saturating_add(u128::from(times) * u128::from(times));
    }

    /// Each run's count as moments over `runs` runs, the runs that did not
    /// reach it counted as 0.
    pub fn moments(&self, runs: u64) -> crate::sweep::figures::Moments {
        crate::sweep::figures::Moments {
            n: runs,
            sum: self.times,
            sum_squares: self.sum_squares,
        }
    }
}

/// How a sweep's bot runs ended, one count for each way a run can end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcomes {
    pub won: u64,
    pub died: u64,
    /// Quit at the game's prompt (the random bot can press `Q`, then `y`).
    pub quit: u64,
    /// Still playing when the key budget (`spec.keys`) ran out.
    pub out_of_keys: u64,
    /// Ended by a loop in the game that gave up (a `Stuck` failure).
    pub stuck: u64,
    /// Ended by any other failure: an invariant broken, a panic (the game's
    /// or the bot's), a hang, or a run that could not start.
    pub failed: u64,
}

impl Outcomes {
    /// Counts the end of one run. `failure` is the run's own failure, when
    /// it ended in one.
    fn add(&mut self, outcome: &RecordedOutcome, failure: Option<&FailureKind>) {
        let count = match outcome {
            RecordedOutcome::Won { .. } => &mut self.won,
            RecordedOutcome::Died { .. } => &mut self.died,
            RecordedOutcome::Quit { .. } => &mut self.quit,
            RecordedOutcome::Running { .. } => &mut self.out_of_keys,
            RecordedOutcome::Failed => match failure {
                Some(FailureKind::Stuck { .. }) => &mut self.stuck,
                _ => &mut self.failed,
            },
        };
        *count += 1;
    }

    /// Every count, with the words the text summary gives it, in the order
    /// it says them.
    pub fn named(&self) -> [(&'static str, u64); 6] {
        [
            ("won", self.won),
            ("died", self.died),
            ("quit", self.quit),
            ("out of keys", self.out_of_keys),
            ("stuck", self.stuck),
            ("failed", self.failed),
        ]
    }

    /// The runs counted, however they ended (wider than a u64, so a
    /// report's impossible figures cannot overflow the sum).
    pub fn total(&self) -> u128 {
        self.named().iter().map(|&(_, n)| u128::from(n)).sum()
    }
}

/// The failure a bot's run ended in, when its outcome is a failure: the
/// last of its seed's failures, since a seed's floors are checked (and
/// their failures listed) before its run is played, and a run ends at its
/// first failure.
pub fn run_failure(result: &SeedResult) -> Option<&FailureKind> {
    match result.bot.as_ref().map(|run| &run.outcome) {
        Some(RecordedOutcome::Failed) => result.failures.last().map(|f| &f.kind),
        _ => None,
    }
}

/// How the runs of a bot fared on the floors of one depth.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepthPlay {
    /// Runs that arrived on a floor of this depth alive.
    pub entered: u64,
    /// Runs that died here, and by what kind of monster (a poisoner counts
    /// for the poison it left).
    pub died: u64,
    pub killers: BTreeMap<String, u64>,
    /// Hit points on arriving, added up, and the runs by the percent of
    /// their maximum they arrived with, in tenths (0 is 0-9%, 10 is 100%).
    pub hp_on_arrival: u64,
    pub hp_deciles: BTreeMap<u32, u64>,
    /// Monsters that came into view, by their danger.
    pub met: BTreeMap<u32, u64>,
    pub items_found: u64,
    pub items_used: u64,
    pub kills: u64,
}

/// What a killer is, as the text summary and the balance report both say
/// it: [`killer`] is the one definition, and [`killers`] the one ranking.
pub const KILLER_MEANS: &str = "a killer is the kind of monster whose blow or poison the death was";

/// The kind of monster a death's cause names: "killed by an orc" and "died
/// of poison from a cave spider" name "orc" and "cave spider". A death by
/// poison counts against the monster whose poison it was, so a kind's
/// deaths are its blows' and its poison's together.
pub fn killer(cause: &str) -> String {
    let who = cause
        .strip_prefix("killed by ")
        .or_else(|| cause.strip_prefix("died of poison from "))
        .unwrap_or(cause);
    ["a ", "an ", "the "]
        .iter()
        .find_map(|article| who.strip_prefix(article))
        .unwrap_or(who)
        .to_string()
}

/// The runs' deaths by [`killer`], the most first (equal counts by name):
/// the ranking both the text summary and the balance report show, so their
/// top killers are the same.
pub fn killers(bot: &BotSummary) -> Vec<(String, u64)> {
    let mut by_kind = BTreeMap::<String, u64>::new();
    for (cause, n) in &bot.deaths {
        let total = by_kind.entry(killer(cause)).or_default();
        // Saturating: a report read back is bounded but not yet added up.
        *total = total.saturating_add(*n);
    }
    let mut ranked: Vec<(String, u64)> = by_kind.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    ranked
}

/// Where a sweep saves the recordings of its failures, if anywhere.
#[derive(Clone, Debug)]
pub struct Saving {
    pub dir: Option<std::path::PathBuf>,
}

/// Sweeps one seed.
pub fn sweep_seed(
    spec: &SweepSpec,
    content: &Arc<Content>,
    seed: u64,
    saving: &Saving,
) -> SeedResult {
    let mut failures = Vec::new();
    let floors = check_floors(spec, content, seed, saving, &mut failures);
    let bot = bots::bot(spec.bot, seed)
        .map(|bot| play_seed(spec, content, seed, saving, bot, &mut failures));
    SeedResult {
        seed,
        floors,
        bot,
        failures,
    }
}

/// Every floor of the spec's depths generated and checked; a floor that
/// breaks an invariant becomes a failure with a recording that starts there.
fn check_floors(
    spec: &SweepSpec,
    content: &Arc<Content>,
    seed: u64,
    saving: &Saving,
    failures: &mut Vec<FoundFailure>,
) -> Vec<FloorResult> {
    let mut floors = Vec::new();
    for depth in spec.depths.first..=spec.depths.last {
        let (floor, found) = check_floor(spec, content, seed, depth);
        floors.push(floor);
        if let Some(kind) = found {
            let config = config(spec, content, seed);
            let recording = crate::run::runner::Runner::new_at_depth(config, depth).map(|runner| {
                runner.recording(format!(
                    "The floor at depth {depth} of seed {seed} breaks an invariant when generated."
                ))
            });
            failures.push(found_failure(
                spec,
                seed,
                depth,
                0,
                kind,
                recording.ok(),
                saving,
            ));
        }
    }
    floors
}

/// The seed played from the start by `bot` through the runner, every check
/// on after every key; what it found goes into `failures`.
fn play_seed(
    spec: &SweepSpec,
    content: &Arc<Content>,
    seed: u64,
    saving: &Saving,
    mut bot: Box<dyn bots::Bot + Send>,
    failures: &mut Vec<FoundFailure>,
) -> BotResult {
    let settings = crate::run::runner::Settings {
        progress_limit: Some(spec.progress_limit),
        ..crate::run::runner::Settings::default()
    };
    // Runs are hashed only when one is written down (see
    // `Runner::recording`), which is when it fails.
    let started = Runner::with_settings(config(spec, content, seed), 1, settings)
        .map(|runner| runner.without_hashing().tallying());
    let mut runner = match started {
        Ok(runner) => runner,
        Err(message) => {
            let kind = FailureKind::Panic {
                message,
                location: None,
            };
            failures.push(found_failure(spec, seed, 1, 0, kind, None, saving));
            return BotResult {
                keys: 0,
                turns: 0,
                deepest: 0,
                outcome: RecordedOutcome::Failed,
                kills: 0,
                items_used: 0,
                revealed: 0,
                commands: BTreeMap::new(),
                floors: Vec::new(),
                reach: BTreeMap::new(),
            };
        }
    };
    let (deepest, bot_panicked) = drive(spec, seed, saving, &mut runner, bot.as_mut(), failures);
    if let Some(failure) = runner.failure().cloned() {
        let note = format!(
            "The {} found this on seed {seed} at step {}: {}",
            bot_described(spec.bot, bot.as_ref()),
            failure.step,
            failure.kind
        );
        failures.push(found_failure(
            spec,
            seed,
            runner.game().state().depth,
            failure.step,
            failure.kind,
            Some(runner.recording(note)),
            saving,
        ));
    }
    let tally = runner.take_tally().unwrap_or_default();
    BotResult {
        keys: runner.step(),
        turns: u64::from(runner.game().state().turns_taken),
        deepest,
        outcome: if bot_panicked {
            RecordedOutcome::Failed
        } else {
            runner.outcome()
        },
        kills: runner.game().state().kills,
        items_used: tally.items_used,
        revealed: tally.revealed,
        commands: tally
            .counts
            .iter()
            .map(|&(command, pressed, worked)| (command.name(), [pressed, worked]))
            .collect(),
        reach: tally.reached(content),
        floors: tally.floors,
    }
}

/// The bot's keys pressed until the spec's keys run out, the game ends or
/// the runner finds a failure; the deepest floor stood on, and whether the
/// bot itself panicked (a failure the runner never saw, reported here).
fn drive(
    spec: &SweepSpec,
    seed: u64,
    saving: &Saving,
    runner: &mut Runner,
    bot: &mut (dyn bots::Bot + Send),
    failures: &mut Vec<FoundFailure>,
) -> (u32, bool) {
    let mut deepest = runner.game().state().depth;
    while runner.step() < spec.keys && !runner.game().is_over() && runner.failure().is_none() {
        let keys =
            match runner.driving(|game| crate::run::runner::catch_panic(|| bot.next_keys(game))) {
                Ok(keys) => keys,
                Err(kind) => {
                    // The bot itself panicked reading the game: report it as
                    // found at the next step, with the keys so far.
                    let recording = runner.recording(format!(
                        "The {} panicked on seed {seed}.",
                        bot_described(spec.bot, bot)
                    ));
                    failures.push(found_failure(
                        spec,
                        seed,
                        deepest,
                        runner.step() + 1,
                        kind,
                        Some(recording),
                        saving,
                    ));
                    return (deepest, true);
                }
            };
        for key in keys {
            if runner.press(key).is_err() {
                break;
            }
            deepest = deepest.max(runner.game().state().depth);
            if runner.step() >= spec.keys {
                break;
            }
        }
    }
    (deepest, false)
}

fn config(spec: &SweepSpec, content: &Arc<Content>, seed: u64) -> GameConfig {
    use game_core::canary::{Canaries, Canary};
    GameConfig {
        seed: RunSeed(seed),
        content: content.clone(),
        width: spec.map_width,
        height: spec.map_height,
        canaries: spec
            .canaries
            .iter()
            .filter_map(|name| Canary::from_name(name))
            .fold(Canaries::NONE, Canaries::with),
    }
}

/// Generates floor `depth` of `seed`, measures it, and checks the floor
/// invariants; a panic in generation is caught and reported like a broken
/// invariant.
fn check_floor(
    spec: &SweepSpec,
    content: &Arc<Content>,
    seed: u64,
    depth: u32,
) -> (FloorResult, Option<FailureKind>) {
    let config = config(spec, content, seed);
    // Generation is watched like a key: a floor that never finishes is a hang.
    let trail = crate::run::watchdog::Trail::new(
        config.clone(),
        depth,
        crate::run::runner::Settings::default(),
        Vec::new(),
    );
    let _busy = trail.busy();
    let generated = crate::run::runner::catch_panic(|| {
        let built = mapgen::generate_floor_planted(
            RunSeed(seed),
            depth,
            spec.map_width,
            spec.map_height,
            config.canaries,
        );
        // One search from the start serves the measure and the checks.
        let distances = game_core::paths::bfs_distances(&built.map, built.start);
        let mut violations = invariants::check_floor_given(&built, depth == LAST_DEPTH, &distances);
        let game = Game::new_on_floor(config, depth, &built).ok();
        violations.extend(game.as_ref().and_then(invariants::check_spawns));
        (FloorStats::given(&built, &distances), violations, game)
    });
    match generated {
        Err(kind) => (empty_floor(depth), Some(kind)),
        Ok((stats, violations, game)) => {
            let (monsters, items, deepest_danger) = game.map_or((0, 0, 0), |g| {
                let state = g.state();
                let deepest_danger = state
                    .monsters
                    .iter()
                    .map(|m| g.content().monster(m.kind).danger)
                    .max()
                    .unwrap_or(0);
                (state.monsters.len(), state.items.len(), deepest_danger)
            });
            let floor = FloorResult {
                depth,
                generator: stats.generator.name().to_string(),
                rooms: stats.rooms,
                regions: stats.regions,
                walkable: stats.walkable,
                reachable: stats.reachable,
                stairs_distance: stats.start_to_goal,
                monsters,
                items,
                deepest_danger,
            };
            let failure = violations
                .into_iter()
                .next()
                .map(|v| FailureKind::Invariant {
                    id: v.id.to_string(),
                    message: v.message,
                });
            (floor, failure)
        }
    }
}

fn empty_floor(depth: u32) -> FloorResult {
    FloorResult {
        depth,
        generator: "(panicked)".into(),
        rooms: 0,
        regions: 0,
        walkable: 0,
        reachable: 0,
        stairs_distance: None,
        monsters: 0,
        items: 0,
        deepest_danger: 0,
    }
}

fn found_failure(
    spec: &SweepSpec,
    seed: u64,
    depth: u32,
    step: u64,
    kind: FailureKind,
    recording: Option<Recording>,
    saving: &Saving,
) -> FoundFailure {
    let saved = match (&saving.dir, recording) {
        (Some(dir), Some(recording)) => {
            let name = if step == 0 {
                format!("seed{seed}-depth{depth}.ron")
            } else {
                format!("seed{seed}-step{step}.ron")
            };
            let path = dir.join(name);
            match crate::recording::write(&path, &recording) {
                Ok(()) => Some(path.display().to_string()),
                Err(message) => {
                    crate::plumbing::output::err(format_args!(
                        "warning: could not save the failure's recording: {message}"
                    ));
                    None
                }
            }
        }
        _ => None,
    };
    let reproduce = match &saved {
        Some(path) => format!("deja replay {path}"),
        None => {
            let canaries: String = spec
                .canaries
                .iter()
                .map(|c| format!(" --canary {c}"))
                .collect();
            let limit = if spec.progress_limit == default_progress_limit(spec.bot) {
                String::new()
            } else {
                format!(" --progress-limit {}", spec.progress_limit)
            };
            let map = if (spec.map_width, spec.map_height) == (DEFAULT_WIDTH, DEFAULT_HEIGHT) {
                String::new()
            } else {
                format!(" --map-size {}x{}", spec.map_width, spec.map_height)
            };
            format!(
                "deja sweep --seeds {seed}..={seed} --depths {}..={} --bot {} --keys {}{map}{limit}{canaries} --save-failures DIR",
                spec.depths.first,
                spec.depths.last,
                bot_name(spec.bot),
                spec.keys
            )
        }
    };
    FoundFailure {
        seed,
        depth,
        step,
        kind,
        recording: saved,
        reproduce,
    }
}

/// The bot as a bug report names it: "explorer bot", or for a swarm run
/// "swarm bot (never throws, random keys in 5% of its choices)", so the
/// recording says how the run that found the bug was playing.
fn bot_described(kind: BotKind, bot: &(dyn bots::Bot + Send)) -> String {
    match bot.leanings() {
        Some(leanings) => format!("{kind} bot ({leanings})"),
        None => format!("{kind} bot"),
    }
}

pub fn bot_name(bot: BotKind) -> &'static str {
    bot.name()
}

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
    use game_core::invariants::Command;
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
pub fn merge(checked: Vec<check::Checked>) -> Result<SweepReport, String> {
    let named: Vec<(String, SweepReport)> = checked
        .into_iter()
        .map(check::Checked::into_parts)
        .collect();
    let Some((first_name, first)) = named.first() else {
        return Err("no reports to merge".into());
    };
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
        if report.game != first.game || report.content != first.content {
            return Err(format!(
                "{name} was made by {} with content {}, {first_name} by {} with content {}",
                report.game, report.content, first.game, first.content
            ));
        }
        let this = SweepSpec {
            shard: None,
            ..report.spec.clone()
        };
        if this != unsharded {
            return Err(format!(
                "{name} sweeps something other than {first_name}: {}",
                this.differences(&unsharded).join("; ")
            ));
        }
        // The check of its spec held the shard's index to 1..=its count.
        let shard = report.spec.shard.unwrap_or(Shard { index: 1, count: 1 });
        if shard.count != count {
            return Err(format!(
                "{name} is shard {}/{}, not one of {count}",
                shard.index, shard.count
            ));
        }
        let slot = &mut seen[(shard.index - 1) as usize];
        if *slot {
            return Err(format!(
                "{name}: shard {}/{count} is given twice",
                shard.index
            ));
        }
        *slot = true;
        complete(name, report)?;
        seeds = seeds.saturating_add(report.results.len() as u64);
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(format!("shard {}/{count} is missing", missing + 1));
    }
    if seeds > check::MOST_RESULTS {
        return Err(format!(
            "these shards hold {seeds} seeds' results, more than the {} one merge adds up",
            check::MOST_RESULTS
        ));
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

/// A shard is merged only whole: its results are all its seeds (the checks
/// held them to be the first of its seeds, in order, and its summary to be
/// theirs). A report cut short (by --fail-fast or an interruption) is
/// refused, naming the file and seed.
fn complete(name: &str, report: &SweepReport) -> Result<(), String> {
    if let Some(cut) = &report.incomplete {
        return Err(format!(
            "{name}: the sweep was {} after {} of its {} seeds; an incomplete report cannot be merged (run it again)",
            cut.reason, cut.covered, cut.of
        ));
    }
    let held = report.results.len();
    if let Some(wanted) = report.spec.seeds().nth(held) {
        return Err(format!(
            "{name}: the results stop before seed {wanted}; a sweep cut short (--fail-fast, interrupted) cannot be merged"
        ));
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

/// The report as JSON, the bytes `--format json` writes and `merge` compares.
pub fn to_json(report: &SweepReport) -> String {
    let mut text = serde_json::to_string_pretty(&ReportOut::of(report, &report.results))
        .expect("reports always serialize");
    text.push('\n');
    text
}

/// A report's fields in the order they are written, with its results any
/// sequence: a report whose results wait on disk ([`ResultsFile`]) is
/// written by the same serializer as one held in memory, so the bytes are
/// the same. (A test holds this to `SweepReport`'s own fields.)
#[derive(Serialize)]
struct ReportOut<'a, R: Serialize> {
    format: u32,
    game: &'a str,
    content: &'a str,
    spec: &'a SweepSpec,
    #[serde(skip_serializing_if = "Option::is_none")]
    incomplete: Option<&'a Incomplete>,
    summary: &'a Summary,
    results: R,
}

impl<'a, R: Serialize> ReportOut<'a, R> {
    fn of(report: &'a SweepReport, results: R) -> ReportOut<'a, R> {
        ReportOut {
            format: report.format,
            game: &report.game,
            content: &report.content,
            spec: &report.spec,
            incomplete: report.incomplete.as_ref(),
            summary: &report.summary,
            results,
        }
    }
}

/// A sweep's results on their way into its JSON report (`--format json`). Each seed's
/// result is appended to a scratch file beside the report as it comes (in
/// seed order), and the report is written from it at the end, atomically:
/// a sweep of any number of seeds holds none of them in memory.
pub struct ResultsFile {
    path: std::path::PathBuf,
    scratch: std::io::BufWriter<std::fs::File>,
    /// The first failure to write the scratch file (a full disk): the sweep
    /// goes on, and the report is not written.
    error: Option<String>,
}

impl ResultsFile {
    /// Results for the report at `path`; the scratch file is made now, so a
    /// directory that cannot take it fails before the sweep starts.
    pub fn beside(path: &std::path::Path) -> Result<ResultsFile, String> {
        Ok(ResultsFile {
            path: path.to_path_buf(),
            scratch: std::io::BufWriter::new(crate::plumbing::files::scratch_beside(path)?),
            error: None,
        })
    }

    /// Appends the next seed's result, as one line of JSON.
    pub fn add(&mut self, result: &SeedResult) {
        use std::io::Write as _;
        if self.error.is_some() {
            return;
        }
        let written = serde_json::to_writer(&mut self.scratch, result)
            .map_err(std::io::Error::other)
            .and_then(|()| self.scratch.write_all(b"\n"));
        if let Err(e) = written {
            self.error = Some(format!(
                "{}: writing the results on the way to it: {e}",
                self.path.display()
            ));
        }
    }

    /// Writes the report: `report`'s fields with the results added so far
    /// (`report.results` is not read).
    pub fn write(self, report: &SweepReport) -> Result<(), String> {
        use std::io::Seek as _;
        if let Some(error) = self.error {
            return Err(error);
        }
        let scratch_failed = |e: std::io::Error| {
            format!(
                "{}: reading back the results on the way to it: {e}",
                self.path.display()
            )
        };
        let mut scratch = self
            .scratch
            .into_inner()
            .map_err(|e| scratch_failed(e.into_error()))?;
        scratch.rewind().map_err(scratch_failed)?;
        let results = Spooled(std::cell::RefCell::new(std::io::BufReader::new(scratch)));
        crate::plumbing::files::write_atomic_with(&self.path, |out| {
            serde_json::to_writer_pretty(&mut *out, &ReportOut::of(report, &results))
                .map_err(std::io::Error::other)?;
            out.write_all(b"\n")
        })
    }
}

/// Results read back from a [`ResultsFile`]'s scratch file one at a time as
/// they are serialized.
struct Spooled(std::cell::RefCell<std::io::BufReader<std::fs::File>>);

impl Serialize for Spooled {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeSeq as _};
        let mut reader = self.0.borrow_mut();
        let mut seq = serializer.serialize_seq(None)?;
        for result in serde_json::Deserializer::from_reader(&mut *reader).into_iter::<SeedResult>()
        {
            seq.serialize_element(&result.map_err(S::Error::custom)?)?;
        }
        seq.end()
    }
}

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
) -> Result<SweepReport, String> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::{Condvar, Mutex};
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| format!("starting {jobs} worker threads: {e}"))?;
    // The lowest seed that failed so far: with `fail_fast`, nothing above it
    // is started.
    let lowest_failed = AtomicU64::new(u64::MAX);
    let gathered = Mutex::new(InOrder {
        order: spec.seeds().peekable(),
        waiting: BTreeMap::new(),
        tally: Tally::new(spec.bot != BotKind::None),
        failed: false,
        fail_fast: options.fail_fast,
        each,
    });
    let advanced = Condvar::new();
    // Seeds are handed to the workers as they are drawn from the range,
    // never collected: memory does not grow with the range.
    pool.install(|| {
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
    });
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
