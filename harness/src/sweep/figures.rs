//! The figures a sweep measures the game by, seed by seed, and their
//! moments: how many values, their sum and the sum of their squares, all
//! integers, so a sweep's figures are the same whatever order its seeds
//! finish in and a merge of shards adds up to the whole.
//!
//! A figure is a per-seed (or per-floor) whole number: whether the bot won,
//! the deepest floor, monsters killed, items used, tiles revealed per hundred
//! keys, and per depth the floors' walkable area, rooms, distance to the way
//! down, monsters and items. `crate::sweep::baseline` holds a sweep's means against
//! committed ones.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::recording::RecordedOutcome;
use crate::sweep::SeedResult;

/// Moments of one figure over a sweep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moments {
    pub n: u64,
    pub sum: u64,
    pub sum_squares: u128,
}

impl Moments {
    pub fn add(&mut self, value: u64) {
        self.n += 1;
        self.sum += value;
        self.sum_squares += u128::from(value) * u128::from(value);
    }

    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }

    /// The standard deviation of the values (of the population).
    pub fn sd(&self) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        let n = self.n as f64;
        let mean = self.sum as f64 / n;
        (self.sum_squares as f64 / n - mean * mean).max(0.0).sqrt()
    }
}

/// Adds one seed's figures.
pub fn add_seed(result: &SeedResult, figures: &mut BTreeMap<String, Moments>) {
    let mut add = |name: String, value: u64| figures.entry(name).or_default().add(value);
    // The floors are the same whatever plays them: a sweep with a bot
    // measures the bot, and the floors-only sweep the floors.
    let floors = if result.bot.is_some() {
        &[][..]
    } else {
        &result.floors[..]
    };
    for floor in floors {
        let d = floor.depth;
        // Which generator each depth uses, as shares.
        for kind in game_core::mapgen::GeneratorKind::ALL {
            add(
                format!("depth {d} built by {}", kind.name()),
                u64::from(floor.generator == kind.name()),
            );
        }
        // The shape of what each generator builds, whatever the depth.
        let g = &floor.generator;
        add(format!("{g} floors: walkable tiles"), floor.walkable as u64);
        add(
            format!("{g} floors: reachable tiles"),
            floor.reachable as u64,
        );
        add(format!("{g} floors: rooms"), u64::from(floor.rooms));
        add(
            format!("{g} floors: steps to the way down"),
            u64::from(floor.stairs_distance.unwrap_or(0)),
        );
        // What lives on a floor depends on its depth.
        add(format!("depth {d} monsters"), floor.monsters as u64);
        add(format!("depth {d} items"), floor.items as u64);
    }
    let Some(run) = &result.bot else { return };
    let won = matches!(run.outcome, RecordedOutcome::Won { .. });
    let (blow, poison) = match &run.outcome {
        RecordedOutcome::Died { cause, .. } => (
            !cause.starts_with("died of poison"),
            cause.starts_with("died of poison"),
        ),
        _ => (false, false),
    };
    add("win rate".into(), u64::from(won));
    add("deepest floor".into(), u64::from(run.deepest));
    add("monsters killed".into(), u64::from(run.kills));
    add("items used".into(), run.items_used);
    add(
        "tiles revealed per 100 keys".into(),
        run.revealed * 100 / run.keys.max(1),
    );
    add("keys per run".into(), run.keys);
    add("turns per run".into(), run.turns);
    add("deaths by blows".into(), u64::from(blow));
    add("deaths by poison".into(), u64::from(poison));
}
