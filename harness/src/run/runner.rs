//! Driving the game key by key while watching for failures: a panic (caught,
//! so the bug report can still be written), a broken invariant (the turn
//! catalogue after every key against the record of what the key did, the
//! oracles on a sample of keys, the floor catalogue on every new floor), a
//! stuck loop, a frame that cannot be drawn, a bot that makes no progress,
//! or a hang (the watchdog). Play, replay, bless, the sweep and the fuzz
//! targets all drive the game through this one runner, so they agree on what
//! a failure is, and what one of them finds another reproduces.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Once};

use checks::reach::{self, Reach};
use checks::{Command, Id, TurnWatch, Violation};
use game_core::game::digest::{PartDigests, StateDigest, StateEncoder};
use game_core::game::events::{Event, Place};
use game_core::mapgen::{self, LAST_DEPTH};
use game_core::{Game, GameConfig, Key, Outcome};

use crate::plumbing::error::Error;
use crate::recording::{Failure, FailureKind, RecordedOutcome, Recording};
pub use crate::run::settings::Settings;
use crate::run::watchdog::Trail;

/// The sizes `screen.*` also draws frames at on the oracle sample: one
/// narrower than the notice itself (which is cut at the frame's edge, and
/// nothing spills onto the next row), one column too narrow to play in
/// (the notice), the smallest (the compact and bare status forms, one
/// message row, boxes stacked and scrolled) and one between (the full form
/// giving way to the compact one when a status holds, two message rows).
pub const NARROW_FRAMES: [(u16, u16); 4] = [(6, 3), (19, 8), (20, 8), (30, 12)];

/// A run's ending is also drawn at these widths and every height from the
/// smallest frame to a few rows past where its box fits whole, and at a
/// terminal's 24 rows: its blank spacing lines give way as the frame
/// shortens, and the height where they stop fitting is a case of its own
/// for each ending's length, which no fixed size meets. Past it a taller
/// frame only moves the box down, a row for every two, which the few rows
/// past it and the tallest show (`ending_heights`).
pub const ENDING_WIDTHS: [u16; 2] = [20, 30];
/// And while a status holds, the frame is drawn on the sample at the
/// smallest height and every width from the smallest to past the widest
/// status line: which form of the status line fits turns on the lengths of
/// the depth, the hit points, the statuses and the turn, and the width
/// where one form gives way to the next is a case of its own for each.
pub const STATUS_WIDTHS: std::ops::RangeInclusive<u16> = game_core::frame::MIN_FRAME_WIDTH..=56;
pub const ENDING_HEIGHTS: std::ops::RangeInclusive<u16> = game_core::frame::MIN_FRAME_HEIGHT..=24;

/// What a run did, counted key by key for a sweep's figures: how often each
/// command was pressed and how often it worked, items used up or thrown, and
/// tiles revealed (on every floor, added up).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunTally {
    /// (command, pressed, worked), in the order first met.
    pub counts: Vec<(Command, u64, u64)>,
    pub items_used: u64,
    pub revealed: u64,
    /// Every floor the run stood on, in the order it arrived: what the
    /// balance report draws (`deja report`).
    pub floors: Vec<FloorVisit>,
    /// The monsters in view so far on the current floor, by id.
    met_here: Vec<u32>,
    /// The run's kills when it arrived on the current floor.
    kills_on_arrival: u32,
    /// The situations the run reached (`checks::reach`).
    pub reach: Option<Reach>,
}

/// One floor of a run: how the player arrived and what happened there.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FloorVisit {
    pub depth: u32,
    /// Hit points and their maximum on arriving.
    pub hp: i32,
    pub max_hp: i32,
    /// The danger of each monster that came into view, one per monster, in
    /// the order they were first seen.
    pub met: Vec<u32>,
    /// Items picked up, counting each one of a stack.
    pub items_found: u64,
    /// Potions drunk, scrolls read and missiles thrown.
    pub items_used: u64,
    pub kills: u32,
}

impl RunTally {
    /// A new floor: the player as they arrive.
    fn arrive(&mut self, game: &Game) {
        let state = game.state();
        self.floors.push(FloorVisit {
            depth: state.depth,
            hp: state.player.hp,
            max_hp: state.player.max_hp,
            ..FloorVisit::default()
        });
        self.met_here.clear();
        self.kills_on_arrival = state.kills;
    }

    /// One key's worth: the command and whether it worked, the situations
    /// it reached, items used and found, kills, a new floor, the monsters
    /// met and the ground revealed: `revealed` tiles now, against
    /// `revealed_before` (tiles, depth) after the key before.
    fn count_key(
        &mut self,
        game: &Game,
        before: &TurnWatch,
        events: &[Event],
        effect: Option<(Command, bool)>,
        (revealed, revealed_before): (usize, (usize, u32)),
    ) {
        let state = game.state();
        if let Some((command, worked)) = effect {
            self.add(command, worked);
        }
        if let Some(reach) = &mut self.reach {
            reach.count(before, game, events, revealed_before);
        }
        let used = events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Thrown { .. }
                        | Event::Items {
                            to: Place::Used,
                            ..
                        }
                )
            })
            .count() as u64;
        self.items_used += used;
        let found: u64 = events
            .iter()
            .map(|e| match e {
                Event::Items {
                    count,
                    from: Place::Floor(_),
                    to: Place::Pack(_),
                    ..
                } => u64::from(*count),
                _ => 0,
            })
            .sum();
        if let Some(here) = self.floors.last_mut() {
            // A key that takes the stairs counts what it did on the floor
            // it left.
            here.items_used += used;
            here.items_found += found;
            here.kills = state.kills.saturating_sub(self.kills_on_arrival);
        }
        if events.iter().any(|e| matches!(e, Event::Descended { .. })) {
            self.arrive(game);
        }
        self.see(game);
        let (tiles_before, floor) = revealed_before;
        self.revealed += if state.depth == floor {
            revealed.saturating_sub(tiles_before)
        } else {
            revealed
        } as u64;
    }

    /// Counts the monsters in view that were not in view before on this
    /// floor.
    fn see(&mut self, game: &Game) {
        let state = game.state();
        let Some(here) = self.floors.last_mut() else {
            return;
        };
        for monster in &state.monsters {
            if state.floor.map.is_visible(monster.pos) && !self.met_here.contains(&monster.id.0) {
                self.met_here.push(monster.id.0);
                here.met.push(game.content().monster(monster.kind).danger);
            }
        }
    }

    /// The situations reached, by id: those reached at least once.
    pub fn reached(&self, content: &game_core::content::Content) -> BTreeMap<String, u64> {
        let Some(reach) = &self.reach else {
            return BTreeMap::new();
        };
        reach::ids(content)
            .into_iter()
            .zip(reach.counts())
            .filter(|&(_, &n)| n > 0)
            .map(|(id, &n)| (id, n))
            .collect()
    }

    fn add(&mut self, command: Command, worked: bool) {
        let index = match self.counts.iter().position(|c| c.0 == command) {
            Some(i) => i,
            None => {
                self.counts.push((command, 0, 0));
                self.counts.len() - 1
            }
        };
        self.counts[index].1 += 1;
        self.counts[index].2 += u64::from(worked);
    }
}

/// Where a bot's run last got anywhere, for `play.progress`.
#[derive(Clone, Copy)]
struct Progress {
    /// Revealed tiles and the depth at the last progress.
    revealed: usize,
    depth: u32,
    /// Keys since the last progress.
    idle: u64,
    /// The smallest [`Approach`] distances measured since the run last
    /// revealed ground, changed floor, fought or moved an item.
    unknown: Option<u32>,
    goal: Option<u32>,
}

impl Progress {
    fn at(revealed: usize, depth: u32) -> Progress {
        Progress {
            revealed,
            depth,
            idle: 0,
            unknown: None,
            goal: None,
        }
    }
}

/// Steps from the player, by the game's own step rule, to the nearest tile
/// it can reach that is not yet revealed, and to the way down (the exit on
/// the last floor); `None` for what it cannot reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Approach {
    unknown: Option<u32>,
    goal: Option<u32>,
}

fn approach_distances(state: &game_core::game::state::GameState) -> Approach {
    use game_core::paths::{UNREACHABLE, bfs_distances};
    let map = &state.floor.map;
    let distances = bfs_distances(map, state.player.pos);
    let reached = |d: u32| (d != UNREACHABLE).then_some(d);
    let goal = state.floor.goal;
    Approach {
        unknown: distances
            .iter()
            .enumerate()
            .filter(|&(i, &d)| d != UNREACHABLE && !map.revealed.get(i))
            .map(|(_, &d)| d)
            .min(),
        goal: map
            .in_bounds(goal)
            .then(|| distances[map.xy_idx(goal)])
            .and_then(reached),
    }
}

/// What a runner keeps of the state after each step.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hashing {
    /// Nothing: a run that asks only whether it fails (a sweep's, a fuzz
    /// input's) and hashes only if it is written down.
    Off,
    /// The state hash alone.
    Hash,
    /// The state hash and its parts' digests: what a recording keeps.
    WithParts,
}

/// A game being driven, with the history a recording needs.
pub struct Runner {
    game: Game,
    /// How the run started and its keys, where the watchdog can see them.
    trail: Arc<Trail>,
    steps: u64,
    /// The full state hash at step 0 and after each key, when hashing.
    hashes: Vec<u64>,
    /// Its parts' digests beside it, when keeping them.
    parts: Vec<PartDigests>,
    hashing: Hashing,
    /// The hashing's buffers and the message log's encoding, kept between
    /// keys (the same digests, for less work).
    encoder: StateEncoder,
    failure: Option<Failure>,
    depth: u32,
    settings: Settings,
    /// The progress watch (`play.progress`).
    progress: Progress,
    /// Revealed tiles after the last key, and the floor they are on.
    revealed: (usize, u32),
    tally: Option<RunTally>,
    /// What the last key did, when tallying: the command and whether it
    /// worked (for the viewer's status line).
    last_effect: Option<(Command, bool)>,
}

/// A copy goes on from the same point with a trail of its own.
impl Clone for Runner {
    fn clone(&self) -> Runner {
        Runner {
            game: self.game.clone(),
            trail: Trail::new(
                self.trail.config.clone(),
                self.trail.start_depth,
                self.settings,
                self.trail.keys(),
                Some(replay_to_hang),
            ),
            steps: self.steps,
            hashes: self.hashes.clone(),
            parts: self.parts.clone(),
            hashing: self.hashing,
            encoder: StateEncoder::default(),
            failure: self.failure.clone(),
            depth: self.depth,
            settings: self.settings,
            progress: self.progress,
            revealed: self.revealed,
            tally: self.tally.clone(),
            last_effect: self.last_effect,
        }
    }
}

impl Runner {
    /// Starts a run, checking the first floor and the starting state.
    pub fn new(config: GameConfig) -> Result<Runner, Error> {
        Runner::new_at_depth(config, 1)
    }

    /// Starts a run on floor `depth` (see `Game::new_at_depth`): how a sweep
    /// reproduces a floor that fails its checks when generated.
    pub fn new_at_depth(config: GameConfig, depth: u32) -> Result<Runner, Error> {
        Runner::with_settings(config, depth, Settings::default())
    }

    /// Starts a run on floor `depth`, checked with `settings`.
    pub fn with_settings(
        config: GameConfig,
        depth: u32,
        settings: Settings,
    ) -> Result<Runner, Error> {
        let trail = Trail::new(
            config.clone(),
            depth,
            settings,
            Vec::new(),
            Some(replay_to_hang),
        );
        let game = {
            let _busy = trail.busy();
            // A floor that panics while generated is this run's failure, not
            // the caller's crash (a sweep reports it and goes on).
            catch_panic(|| Game::new_at_depth(config, depth))
                .map_err(|panic| format!("generating the floor at depth {depth}: {panic}"))?
                .map_err(|e| e.to_string())?
        };
        let depth = game.state().depth;
        let start = game.state_digest();
        let mut runner = Runner {
            hashes: Vec::new(),
            parts: Vec::new(),
            hashing: Hashing::WithParts,
            encoder: StateEncoder::default(),
            progress: Progress::at(game.state().floor.map.revealed.count(), depth),
            revealed: (game.state().floor.map.revealed.count(), depth),
            game,
            trail,
            steps: 0,
            failure: None,
            depth,
            settings,
            tally: None,
            last_effect: None,
        };
        let mut found = floor_violations(&runner.game);
        found.extend(checks::check_spawns(&runner.game));
        found.extend(checks::check_streams(runner.game.state().seed));
        found.extend(checks::check_play_stream(&runner.game));
        found.extend(checks::check_state(&runner.game));
        if let Some(v) = found.into_iter().next() {
            runner.failure = Some(Failure {
                step: 0,
                kind: FailureKind::Invariant {
                    id: v.id.to_string(),
                    message: v.message,
                },
            });
        } else {
            runner.hashes.push(start.hash);
            runner.parts.push(start.parts);
        }
        Ok(runner)
    }

    /// Stops hashing every step: for runs that are never written down. Such
    /// a runner cannot make a recording.
    pub fn without_hashing(mut self) -> Runner {
        self.hashing = Hashing::Off;
        self.hashes.clear();
        self.parts.clear();
        self
    }

    /// Hashes every step without its parts' digests: for a replay, which
    /// compares the hash with the recording's and stops where it differs,
    /// so the game there can give the parts (`Game::state_digest`). Such a
    /// runner makes a recording as one `without_hashing` does.
    pub fn hashing_without_parts(mut self) -> Runner {
        if self.hashing == Hashing::WithParts {
            self.hashing = Hashing::Hash;
            self.parts.clear();
        }
        self
    }

    /// Counts what each key did (`take_tally`), for a sweep's figures.
    pub fn tallying(mut self) -> Runner {
        // What was revealed is counted after each key only while tallying
        // or watching progress: count it now.
        self.revealed = (
            self.game.state().floor.map.revealed.count(),
            self.game.state().depth,
        );
        let mut tally = RunTally {
            revealed: self.revealed.0 as u64,
            reach: Some(Reach::new(self.game.content())),
            ..RunTally::default()
        };
        tally.arrive(&self.game);
        tally.see(&self.game);
        self.tally = Some(tally);
        self
    }

    /// What the last key did, when tallying: its command and whether it
    /// worked; `None` for a key no command uses.
    pub fn last_effect(&self) -> Option<(Command, bool)> {
        self.last_effect
    }

    /// What the run did so far, when tallying.
    pub fn take_tally(&mut self) -> Option<RunTally> {
        self.tally.take()
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Runs `f` on the game as the run's driver (a bot choosing its next
    /// keys), watched for a hang like a key.
    pub fn driving<T>(&self, f: impl FnOnce(&Game) -> T) -> T {
        let _busy = self.trail.busy_driving();
        f(&self.game)
    }

    /// Keys pressed so far (including a failing one).
    pub fn keys(&self) -> Vec<Key> {
        self.trail.keys()
    }

    /// Steps taken: keys pressed.
    pub fn step(&self) -> u64 {
        self.steps
    }

    /// The full state hash after the last good step.
    pub fn last_hash(&self) -> Option<u64> {
        self.hashes.last().copied()
    }

    /// The state hash and part digests after the last step, when hashing
    /// with the parts.
    pub fn last_digest(&self) -> Option<StateDigest> {
        Some(StateDigest {
            hash: *self.hashes.last()?,
            parts: *self.parts.last()?,
        })
    }

    pub fn failure(&self) -> Option<&Failure> {
        self.failure.as_ref()
    }

    /// Ends the run with a failure its driver found (not a key's check):
    /// at the last step, and the runner presses nothing more.
    pub fn fail(&mut self, kind: FailureKind) -> Failure {
        let failure = Failure {
            step: self.steps,
            kind,
        };
        self.failure = Some(failure.clone());
        failure
    }

    /// Presses one key. Returns the failure when one happens; after a
    /// failure the runner presses nothing more.
    pub fn press(&mut self, key: Key) -> Result<Outcome, Failure> {
        if let Some(failure) = &self.failure {
            return Err(failure.clone());
        }
        self.trail.push(key);
        self.steps += 1;
        let step = self.steps;
        let before = TurnWatch::before(&self.game, key);
        let (w, h) = self.settings.frame;
        // At least 1: a `Settings` built in code could say 0.
        let every = (
            self.settings.frame_every.max(1),
            self.settings.oracle_every.max(1),
        );
        let floor_before = self.depth;
        let game = &mut self.game;
        let checked = {
            let _busy = self.trail.busy();
            catch_panic(|| -> Result<(Outcome, Vec<Violation>), game_core::Stuck> {
                let outcome = game.press(key)?;
                let mut found = checks::check_turn(&before, game, &outcome);
                if step % checks::PERSIST_EVERY == 0 {
                    found.extend(checks::check_persistence(game));
                }
                if game.state().depth != floor_before {
                    found.extend(floor_violations(game));
                }
                // What the player would see must show the state it was
                // drawn from: on a sample of keys (check_frames says which).
                check_frames(game, (w, h), step, every, &mut found);
                Ok((outcome, found))
            })
        };
        self.depth = self.game.state().depth;
        let kind = match checked {
            Err(kind) => kind,
            Ok(Err(stuck)) => FailureKind::Stuck {
                message: stuck.to_string(),
            },
            Ok(Ok((outcome, found))) => match found.into_iter().next() {
                Some(v) => invariant(v),
                None => match self.after_key(&before, &outcome.events) {
                    Some(v) => invariant(v),
                    None => {
                        self.keep_hash();
                        return Ok(outcome);
                    }
                },
            },
        };
        let failure = Failure { step, kind };
        self.failure = Some(failure.clone());
        Err(failure)
    }

    /// The state after a key that passed its checks, hashed as the runner
    /// hashes (or not at all).
    #[inline]
    fn keep_hash(&mut self) {
        match self.hashing {
            Hashing::Off => {}
            Hashing::Hash => {
                let hash = self.game.state_hash_with(&mut self.encoder);
                self.hashes.push(hash);
            }
            Hashing::WithParts => {
                let digest = self.game.state_digest_in(&mut self.encoder);
                self.hashes.push(digest.hash);
                self.parts.push(digest.parts);
            }
        }
    }

    /// The tally and the progress watch, after a key that passed its checks.
    fn after_key(&mut self, before: &TurnWatch, events: &[Event]) -> Option<Violation> {
        if self.tally.is_none() && self.settings.progress_limit.is_none() {
            // Neither counts what was revealed (a replay of a player's run).
            return None;
        }
        let state = self.game.state();
        let revealed = state.floor.map.revealed.count();
        if let Some(tally) = &mut self.tally {
            self.last_effect = checks::key_effect(before, &self.game, events);
            tally.count_key(
                &self.game,
                before,
                events,
                self.last_effect,
                (revealed, self.revealed),
            );
        }
        self.revealed = (revealed, self.game.state().depth);
        let limit = self.settings.progress_limit?;
        self.held_to_progress(limit, revealed, events)
    }

    /// `play.progress`: a run must reveal ground, change floor, fight, move
    /// an item or come nearer the unknown or the way down within `limit`
    /// keys.
    fn held_to_progress(
        &mut self,
        limit: u64,
        revealed: usize,
        events: &[Event],
    ) -> Option<Violation> {
        let state = self.game.state();
        let moved_on = revealed > self.progress.revealed
            || state.depth != self.progress.depth
            || !self.game.is_over()
                && events.iter().any(|e| {
                    matches!(
                        e,
                        Event::Attack { .. }
                            | Event::Items { .. }
                            | Event::Thrown { .. }
                            | Event::Equipped { .. }
                    )
                });
        if moved_on || self.game.is_over() {
            self.progress = Progress::at(revealed, state.depth);
            return None;
        }
        self.progress.idle += 1;
        // Walking toward the unknown or the way down is progress too: on a
        // tall map the walk back to the stairs through ground already seen
        // runs longer than the limit. The distances are a flood of the map,
        // so they are measured only once a stretch is half the limit long:
        // the explorer's stretches on the default map stay under 100 keys
        // (docs/invariants.md), so a sweep seldom floods.
        if self.progress.idle > limit / 2 {
            let now = approach_distances(state);
            // Only a new low since the run last revealed, fought or moved an
            // item counts, so a bot that steps to and fro is still caught;
            // each distance is held to its own low, as a walk to the stairs
            // passes unknown corners that come near and go.
            let closer = |now: Option<u32>, low: &mut Option<u32>| match (now, *low) {
                (Some(d), Some(l)) if d < l => {
                    *low = Some(d);
                    true
                }
                (Some(d), None) => {
                    *low = Some(d);
                    false
                }
                _ => false,
            };
            let nearer_unknown = closer(now.unknown, &mut self.progress.unknown);
            let nearer_goal = closer(now.goal, &mut self.progress.goal);
            if nearer_unknown || nearer_goal {
                self.progress.idle = 0;
                return None;
            }
        }
        let idle = self.progress.idle;
        (idle > limit).then(|| Violation {
            id: Id::PlayProgress,
            message: format!(
                "{idle} keys in a row revealed nothing, changed no floor, fought no one, moved no item and came no nearer the unknown or the way down"
            ),
        })
    }

    /// How the run stands, as a recording writes it.
    pub fn outcome(&self) -> RecordedOutcome {
        if self.failure.is_some() {
            return RecordedOutcome::Failed;
        }
        outcome_of(&self.game)
    }

    /// The run written down, with `note`. A runner made `without_hashing`
    /// replays its keys on a runner that hashes (the game is a pure function
    /// of them, so the run and its failure come out the same): sweeps hash
    /// only the runs they write down.
    pub fn recording(&self, note: String) -> Recording {
        if self.hashing != Hashing::WithParts {
            return self.replayed_with_hashing().recording(note);
        }
        let mut recording = self.recording_of(self.trail.keys(), self.failure.clone());
        recording.note = note;
        recording
    }

    /// This run again from its start, hashing every step.
    fn replayed_with_hashing(&self) -> Runner {
        let trail = &self.trail;
        let mut again =
            Runner::with_settings(trail.config.clone(), trail.start_depth, self.settings)
                .expect("a configuration that started once starts again");
        for key in trail.keys() {
            if again.press(key).is_err() {
                break;
            }
        }
        again
    }

    /// The run so far, then `key` failing with `failure`: how the watchdog
    /// writes a hang it has replayed up to the key that hung.
    pub fn recording_with_failure(&self, key: Key, failure: Failure) -> Recording {
        if self.hashing != Hashing::WithParts {
            return self
                .replayed_with_hashing()
                .recording_with_failure(key, failure);
        }
        let mut keys = self.trail.keys();
        keys.push(key);
        let note = format!("deja found this: {}", failure.kind);
        let mut recording = self.recording_of(keys, Some(failure));
        recording.note = note;
        recording
    }

    fn recording_of(&self, keys: Vec<Key>, failure: Option<Failure>) -> Recording {
        let map = &self.game.state().floor.map;
        let outcome = match failure {
            Some(_) => RecordedOutcome::Failed,
            None => outcome_of(&self.game),
        };
        Recording {
            game_name: game_core::GAME_NAME.into(),
            game_version: game_core::GAME_VERSION.into(),
            content: self.game.content().fingerprint(),
            seed: self.game.state().seed.0,
            start_depth: self.trail.start_depth,
            map_width: map.width(),
            map_height: map.height(),
            frame: self.settings.frame,
            frame_every: self.settings.frame_every,
            oracle_every: self.settings.oracle_every,
            progress_limit: self.settings.progress_limit,
            canaries: self.game.state().canaries.list(),
            keys,
            step_hashes: self.hashes.iter().map(|&hash| hash as u32).collect(),
            part_digests: self.parts.clone(),
            checkpoints: Recording::checkpoints_of(&self.hashes),
            outcome,
            failure,
            note: String::new(),
            origin: None,
            expect: Vec::new(),
        }
    }
}

/// A hang's recording: the trail's keys before the hanging one replayed for
/// their hashes, then the hanging key with the failure (the watchdog's
/// [`crate::run::watchdog::Replay`]).
fn replay_to_hang(trail: &Trail, keys: &[Key], failure: Failure) -> Recording {
    let started = Runner::with_settings(trail.config.clone(), trail.start_depth, trail.settings);
    let (Ok(mut runner), Some((&hanging, before))) = (started, keys.split_last()) else {
        return trail.recording_of_start_failure(failure);
    };
    for &key in before {
        if runner.press(key).is_err() {
            break;
        }
    }
    runner.recording_with_failure(hanging, failure)
}

/// A broken invariant as the failure it is.
#[inline]
fn invariant(violation: Violation) -> FailureKind {
    FailureKind::Invariant {
        id: violation.id.to_string(),
        message: violation.message,
    }
}

/// The floor invariants of the floor a game is on, all of them: the floor is
/// generated again from its seed and depth (a pure function of them) so the
/// checks that need what only generation knows, the spawn regions, run too.
fn floor_violations(game: &Game) -> Vec<Violation> {
    let state = game.state();
    let map = &state.floor.map;
    let built = mapgen::generate_floor_planted(
        state.seed,
        state.depth,
        map.width(),
        map.height(),
        state.canaries,
    );
    checks::check_floor(&built, state.depth == LAST_DEPTH)
}

/// How a game stands, in the recording's terms.
pub fn outcome_of(game: &Game) -> RecordedOutcome {
    use game_core::game::state::RunStatus;
    let state = game.state();
    let turn = state.clock.turn();
    match &state.status {
        RunStatus::Playing => RecordedOutcome::Running {
            depth: state.depth,
            turn,
        },
        RunStatus::Died(death) => RecordedOutcome::Died {
            cause: death.cause.clone(),
            depth: death.depth,
            turn: death.turn,
        },
        RunStatus::Won { turn } => RecordedOutcome::Won { turn: *turn },
        RunStatus::Quit { turn } => RecordedOutcome::Quit {
            depth: state.depth,
            turn: *turn,
        },
    }
}

thread_local! {
    /// Set while `catch_panic` runs: the hook records the panic here instead
    /// of printing it.
    static CAUGHT: RefCell<Option<Option<FailureKind>>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// The frames drawn after key `step`, held to the state they were drawn
/// from: cheaply at the run's size after every `frame_every`th key (steps
/// 1, 1 + frame_every, ...); with the oracles after every `oracle_every`th
/// (the sample), closely (with room round the map, and at the narrow sizes
/// and the status line's widths); and at every ending size when the run is
/// over. What they break goes into `found`, after what the key's other
/// checks found.
fn check_frames(
    game: &Game,
    (w, h): (u16, u16),
    step: u64,
    (frame_every, oracle_every): (u64, u64),
    found: &mut Vec<Violation>,
) {
    let sampled = (step - 1) % oracle_every == 0;
    if !(sampled || game.is_over() || (step - 1) % frame_every == 0) {
        return;
    }
    let frame = game.frame(w, h);
    // Closely on the sample (below), cheaply on every other key.
    if !sampled {
        found.extend(checks::check_screen(game, &frame));
    }
    if sampled {
        found.extend(checks::check_oracles(game));
        found.extend(checks::check_frame(game, &frame));
        // And with room to spare round the map, where the camera
        // stops following and every cell past the map's edge
        // must stay blank.
        let map = &game.state().floor.map;
        let (w, h) = (map.width() + 16, map.height() + 12);
        let side = |n: i32| u16::try_from(n).expect("maps are at most 256 a side");
        let roomy = game.frame(side(w), side(h));
        found.extend(checks::check_frame(game, &roomy));
        // After frame.oracle, which names a bad map cell on the
        // sample first as it always has (the warped-frame
        // canary's proof expects it).
        found.extend(checks::check_screen_closely(game, &frame));
        found.extend(checks::check_screen_closely(game, &roomy));
    }
    // The narrow sizes, where the status line takes its compact
    // and bare forms and boxes wrap and scroll, on the sample;
    // and on a run's last frame, which the sample would almost
    // never see, so every ending is drawn small too.
    if sampled || game.is_over() {
        for (w, h) in NARROW_FRAMES {
            let narrow = game.frame(w, h);
            found.extend(checks::check_screen_closely(game, &narrow));
        }
    }
    let statuses = &game.state().player.statuses;
    if sampled && (statuses.is_poisoned() || statuses.is_confused()) {
        for w in STATUS_WIDTHS {
            let narrow = game.frame(w, game_core::frame::MIN_FRAME_HEIGHT);
            found.extend(checks::check_screen_closely(game, &narrow));
        }
    }
    if game.is_over() {
        for w in ENDING_WIDTHS {
            let tallest = game.frame(w, *ENDING_HEIGHTS.end());
            for h in ending_heights(&tallest) {
                let ending = game.frame(w, h);
                found.extend(checks::check_screen_closely(game, &ending));
            }
            found.extend(checks::check_screen_closely(game, &tallest));
        }
    }
}

/// The heights below the tallest of [`ENDING_HEIGHTS`] an ending is read
/// at, from `tallest`, the ending drawn at that height with room to spare:
/// each from the smallest through three rows past the rows its drawing
/// takes there, where the box fits whole with its blank lines. Those three
/// centre it at offsets 0, 1 and 1 (a box's row is half the spare rows), so
/// a slip in that arithmetic shows on them as it would on taller frames.
fn ending_heights(tallest: &game_core::frame::Frame) -> std::ops::Range<u16> {
    let width = usize::from(tallest.width()).max(1);
    let drawn: Vec<bool> = tallest
        .cells()
        .chunks(width)
        .map(|row| {
            row.iter()
                .any(|&cell| cell != game_core::frame::Cell::BLANK)
        })
        .collect();
    let rows = match (
        drawn.iter().position(|&d| d),
        drawn.iter().rposition(|&d| d),
    ) {
        (Some(first), Some(last)) => u16::try_from(last - first + 1).unwrap_or(u16::MAX),
        _ => 0,
    };
    let last = rows.saturating_add(3).min(ENDING_HEIGHTS.end() - 1);
    *ENDING_HEIGHTS.start()..last.saturating_add(1).max(*ENDING_HEIGHTS.start())
}

/// Runs `f`, turning a panic into a failure with its message and location.
/// Panics elsewhere still print as usual.
pub fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, FailureKind> {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let capturing = CAUGHT.with(|c| c.borrow().is_some());
            if !capturing {
                previous(info);
                return;
            }
            let message = if let Some(s) = info.payload().downcast_ref::<&str>() {
                (*s).to_string()
            } else if let Some(s) = info.payload().downcast_ref::<String>() {
                s.clone()
            } else {
                "a panic with a payload that is not text".to_string()
            };
            let location = info
                .location()
                .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            CAUGHT.with(|c| *c.borrow_mut() = Some(Some(FailureKind::Panic { message, location })));
        }));
    });
    CAUGHT.with(|c| *c.borrow_mut() = Some(None));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    let caught = CAUGHT.with(|c| c.borrow_mut().take()).flatten();
    result.map_err(|_| {
        caught.unwrap_or(FailureKind::Panic {
            message: "a panic the hook did not see".into(),
            location: None,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_become_failures_with_their_message() {
        let caught = catch_panic(|| -> u32 { panic!("boom {}", 7) });
        match caught {
            Err(FailureKind::Panic { message, location }) => {
                assert_eq!(message, "boom 7");
                assert!(location.is_some_and(|l| l.contains("runner.rs")));
            }
            other => panic!("expected a caught panic, got {other:?}"),
        }
        assert_eq!(catch_panic(|| 5), Ok(5));
    }

    #[test]
    fn a_clean_run_records_every_step() {
        let mut runner = Runner::new(GameConfig::new(3)).expect("valid config");
        for key in Key::parse_all("llo.i<Esc>").expect("valid") {
            runner.press(key).expect("no failure");
        }
        let recording = runner.recording("test".into());
        assert_eq!(recording.keys.len(), 6);
        assert_eq!(recording.step_hashes.len(), 7);
        assert_eq!(recording.failure, None);
        assert_eq!(recording.checkpoints.last().map(|c| c.0), Some(6));
    }

    /// `keys` pressed over and over from the start of seed 3 with a
    /// progress limit of `limit`: the step `play.progress` stopped the run
    /// at, and the approach distances after each key before it.
    fn until_no_progress(keys: &str, limit: u64) -> (Option<u64>, Vec<Approach>) {
        let settings = Settings {
            progress_limit: Some(limit),
            ..Settings::default()
        };
        let mut runner = Runner::with_settings(GameConfig::new(3), 1, settings).expect("valid");
        let keys = Key::parse_all(keys).expect("valid");
        let mut distances = Vec::new();
        for &key in keys.iter().cycle().take(20 * limit as usize) {
            if let Err(failure) = runner.press(key) {
                let FailureKind::Invariant { id, .. } = &failure.kind else {
                    panic!("{keys:?} met {} instead", failure.kind);
                };
                assert_eq!(id, "play.progress");
                return (Some(failure.step), distances);
            }
            distances.push(approach_distances(runner.game().state()));
        }
        (None, distances)
    }

    #[test]
    fn a_bot_that_stays_put_or_steps_to_and_fro_is_still_stopped() {
        assert_eq!(until_no_progress(".", 40).0, Some(41));
        // South and back: both distances fall on every other key, but never
        // below their first low, so the run is stopped all the same.
        let (stopped, distances) = until_no_progress("jk", 40);
        let last = &distances[distances.len() - 4..];
        assert!(
            last[0] == last[2]
                && last[1] == last[3]
                && last[0].unknown != last[1].unknown
                && last[0].goal != last[1].goal,
            "the steps do not go to and fro: {last:?}"
        );
        let stopped = stopped.expect("stopped");
        assert!(stopped <= 3 * 40, "stopped only at step {stopped}");
    }
}
