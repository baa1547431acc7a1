//! Sweeping one seed: every floor in range generated and checked, then the
//! bot's run through the runner, a failure turned into a recording.

use std::collections::BTreeMap;
use std::sync::Arc;

use game_core::content::Content;
use game_core::map::{DEFAULT_HEIGHT, DEFAULT_WIDTH};
use game_core::mapgen::stats::FloorStats;
use game_core::mapgen::{self, LAST_DEPTH};
use game_core::{Game, GameConfig, RunSeed};

use crate::recording::{FailureKind, RecordedOutcome, Recording};
use crate::run::runner::Runner;
use crate::sweep::bots::{self, BotKind};
use crate::sweep::results::{BotResult, FloorResult, FoundFailure, SeedResult};
use crate::sweep::spec::{SweepSpec, default_progress_limit};

/// Where a sweep saves the recordings of its failures, if anywhere.
#[derive(Clone, Debug)]
pub struct Saving {
    pub dir: Option<std::path::PathBuf>,
}

/// A hang in a sweep is written where its other failures go.
pub fn hang_reports_into(dir: Option<std::path::PathBuf>) {
    crate::run::watchdog::on_hang(Box::new(move |hang| {
        let recording = &hang.recording;
        let step = recording.failure.as_ref().map_or(0, |f| f.step);
        let to = match &dir {
            Some(dir) => crate::plumbing::files::Destination::New {
                dir: dir.clone(),
                stem: format!("seed{}-step{step}-hang", recording.seed),
                extension: "ron",
            },
            None => crate::run::watchdog::default_report(hang),
        };
        crate::run::watchdog::report_written(hang, &to);
        crate::plumbing::output::err(format_args!(
            "the sweep stops here: a thread that hangs cannot be stopped"
        ));
    }));
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
        Err(error) => {
            let kind = FailureKind::Panic {
                message: error.to_string(),
                location: None,
            };
            failures.push(found_failure(spec, seed, 1, 0, kind, None, saving));
            return never_started();
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
    bot_result(&mut runner, deepest, bot_panicked, content)
}

/// A run that failed before its first key: nothing pressed, nothing done.
fn never_started() -> BotResult {
    BotResult {
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
    }
}

/// What the bot's run did, from its runner's tally once it has ended: a run
/// whose bot panicked ended failed, whatever the game says.
fn bot_result(
    runner: &mut Runner,
    deepest: u32,
    bot_panicked: bool,
    content: &Arc<Content>,
) -> BotResult {
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
        None,
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
        let mut violations = checks::check_floor_given(&built, depth == LAST_DEPTH, &distances);
        let game = Game::new_on_floor(config, depth, &built).ok();
        violations.extend(game.as_ref().and_then(checks::check_spawns));
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
            let stem = if step == 0 {
                format!("seed{seed}-depth{depth}")
            } else {
                format!("seed{seed}-step{step}")
            };
            // A new file, never over one already there (`-2`, ...): the
            // name printed is the one written.
            let to = crate::plumbing::files::Destination::New {
                dir: dir.clone(),
                stem,
                extension: "ron",
            };
            match crate::recording::write_to(&to, &recording) {
                Ok(path) => Some(path.to_string_lossy().into_owned()),
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
        None => sweep_command(spec, seed),
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

/// The command that sweeps `seed` alone as `spec` swept it, saving what it
/// finds: how to reproduce a failure no file was saved for.
fn sweep_command(spec: &SweepSpec, seed: u64) -> String {
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
