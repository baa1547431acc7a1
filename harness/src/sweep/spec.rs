//! What a sweep covers: its seeds, depths, bot, key budget and shard.

use serde::{Deserialize, Serialize};

use game_core::map::{DEFAULT_HEIGHT, DEFAULT_WIDTH};

use crate::sweep::bots::BotKind;

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

impl SweepSpec {
    /// The seeds swept unless a sweep says otherwise (`--seeds`).
    pub const DEFAULT_SEEDS: SeedRange = SeedRange { start: 1, end: 201 };
    /// The floors generated and checked for each seed (`--depths`).
    pub const DEFAULT_DEPTHS: DepthRange = DepthRange { first: 1, last: 6 };
    /// The bot that plays (`--bot`).
    pub const DEFAULT_BOT: BotKind = BotKind::Explorer;
    /// The most keys the bot presses per seed (`--keys`).
    pub const DEFAULT_KEYS: u64 = 3000;
    /// The map the floors are generated on (`--map-size`).
    pub const DEFAULT_MAP: MapSize = MapSize {
        width: DEFAULT_WIDTH,
        height: DEFAULT_HEIGHT,
    };

    /// The sweep `deja sweep --bot BOT` runs: `bot` playing, every other
    /// setting its default (the command line's defaults are these).
    pub fn new(bot: BotKind) -> SweepSpec {
        SweepSpec {
            seeds: SweepSpec::DEFAULT_SEEDS,
            depths: SweepSpec::DEFAULT_DEPTHS,
            bot,
            keys: SweepSpec::DEFAULT_KEYS,
            map_width: SweepSpec::DEFAULT_MAP.width,
            map_height: SweepSpec::DEFAULT_MAP.height,
            canaries: Vec::new(),
            shard: None,
            progress_limit: default_progress_limit(bot),
        }
    }
}

/// A map's size, "80x40" as `--map-size` takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapSize {
    pub width: i32,
    pub height: i32,
}

impl std::fmt::Display for MapSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
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
