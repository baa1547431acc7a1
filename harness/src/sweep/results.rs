//! What a sweep finds, as its JSON report holds it: each seed's floors and
//! bot run, the failures grouped by signature, and the summary's figures.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::recording::{FailureKind, RecordedOutcome};
use crate::sweep::spec::SweepSpec;

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
    /// The situations the run reached, by id (`checks::reach`),
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
pub(super) const MORE_SIGNATURES: &str = "(failures of further signatures)";

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
    /// many runs (`checks::reach`). A situation no run
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
    pub(super) fn add(&mut self, times: u64) {
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
    pub(super) fn add(&mut self, outcome: &RecordedOutcome, failure: Option<&FailureKind>) {
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
