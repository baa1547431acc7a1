//! Driving the game key by key while watching for failures: a panic (caught,
//! so the bug report can still be written), a broken invariant (the turn
//! catalogue after every key, the floor catalogue on every new floor), or a
//! stuck loop. Play, replay, bless and the sweep all drive the game through
//! this one runner, so they agree on what a failure is.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use game_core::invariants::{self, TurnWatch};
use game_core::mapgen::{self, LAST_DEPTH};
use game_core::{Game, GameConfig, Key, Outcome};

use crate::recording::{Failure, FailureKind, RecordedOutcome, Recording};

/// A game being driven, with the history a recording needs.
#[derive(Clone)]
pub struct Runner {
    game: Game,
    keys: Vec<Key>,
    /// The full state hash at step 0 and after each key, when recording.
    hashes: Vec<u64>,
    /// Whether to hash every step: a recording needs it; a fuzz run that only
    /// asks whether a failure happens does not (and is faster without).
    hashing: bool,
    failure: Option<Failure>,
    depth: u32,
    start_depth: u32,
}

impl Runner {
    /// Starts a run, checking the first floor and the starting state.
    pub fn new(config: GameConfig) -> Result<Runner, String> {
        Runner::new_at_depth(config, 1)
    }

    /// Starts a run on floor `depth` (see `Game::new_at_depth`): how a sweep
    /// reproduces a floor that fails its checks when generated.
    pub fn new_at_depth(config: GameConfig, depth: u32) -> Result<Runner, String> {
        let game = Game::new_at_depth(config, depth).map_err(|e| e.to_string())?;
        let depth = game.state().depth;
        let mut runner = Runner {
            hashes: vec![game.state_hash()],
            hashing: true,
            game,
            keys: Vec::new(),
            failure: None,
            depth,
            start_depth: depth,
        };
        let mut found = runner.floor_violations();
        found.extend(invariants::check_state(&runner.game));
        if let Some(v) = found.into_iter().next() {
            runner.failure = Some(Failure {
                step: 0,
                kind: FailureKind::Invariant {
                    id: v.id.to_string(),
                    message: v.message,
                },
            });
            runner.hashes.clear();
        }
        Ok(runner)
    }

    /// Stops hashing every step: for runs that are never written down. Such
    /// a runner cannot make a recording.
    pub fn without_hashing(mut self) -> Runner {
        self.hashing = false;
        self.hashes.clear();
        self
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Keys pressed so far (including a failing one).
    pub fn keys(&self) -> &[Key] {
        &self.keys
    }

    /// Steps taken: keys pressed.
    pub fn step(&self) -> u64 {
        self.keys.len() as u64
    }

    /// The full state hash after the last good step.
    pub fn last_hash(&self) -> Option<u64> {
        self.hashes.last().copied()
    }

    pub fn failure(&self) -> Option<&Failure> {
        self.failure.as_ref()
    }

    /// Presses one key. Returns the failure when one happens; after a
    /// failure the runner presses nothing more.
    pub fn press(&mut self, key: Key) -> Result<Outcome, Failure> {
        if let Some(failure) = &self.failure {
            return Err(failure.clone());
        }
        self.keys.push(key);
        let step = self.keys.len() as u64;
        let before = TurnWatch::of(&self.game);
        let kind = match catch_panic(|| self.game.press(key)) {
            Err(kind) => Some(kind),
            Ok(Err(stuck)) => Some(FailureKind::Stuck {
                message: stuck.to_string(),
            }),
            Ok(Ok(outcome)) => {
                let mut found = invariants::check_turn(before, &self.game);
                if self.game.state().depth != self.depth {
                    self.depth = self.game.state().depth;
                    found.extend(self.floor_violations());
                }
                match found.into_iter().next() {
                    Some(v) => Some(FailureKind::Invariant {
                        id: v.id.to_string(),
                        message: v.message,
                    }),
                    None => {
                        if self.hashing {
                            self.hashes.push(self.game.state_hash());
                        }
                        return Ok(outcome);
                    }
                }
            }
        };
        let failure = Failure {
            step,
            kind: kind.expect("every branch that does not return names a failure"),
        };
        self.failure = Some(failure.clone());
        Err(failure)
    }

    /// The floor invariants of the current floor, all of them: the floor is
    /// generated again from its seed and depth (a pure function of them) so
    /// the checks that need what only generation knows, the spawn regions,
    /// run too.
    fn floor_violations(&self) -> Vec<invariants::Violation> {
        let state = self.game.state();
        let map = &state.floor.map;
        let built = mapgen::generate_floor_planted(
            state.seed,
            state.depth,
            map.width(),
            map.height(),
            state.canaries,
        );
        invariants::check_floor(&built, state.depth == LAST_DEPTH)
    }

    /// How the run stands, as a recording writes it.
    pub fn outcome(&self) -> RecordedOutcome {
        if self.failure.is_some() {
            return RecordedOutcome::Failed;
        }
        outcome_of(&self.game)
    }

    /// The run written down, with `note`.
    ///
    /// # Panics
    /// On a runner made `without_hashing`: it has nothing to write.
    pub fn recording(&self, note: String) -> Recording {
        assert!(
            self.hashing,
            "a runner without hashing cannot make a recording"
        );
        let config_map = &self.game.state().floor.map;
        Recording {
            game_name: game_core::GAME_NAME.into(),
            game_version: game_core::GAME_VERSION.into(),
            content: self.game.content().fingerprint(),
            seed: self.game.state().seed.0,
            start_depth: self.start_depth,
            map_width: config_map.width(),
            map_height: config_map.height(),
            canaries: self.game.state().canaries.list(),
            keys: self.keys.clone(),
            step_hashes: self.hashes.iter().map(|&h| h as u32).collect(),
            checkpoints: Recording::checkpoints_of(&self.hashes),
            outcome: self.outcome(),
            failure: self.failure.clone(),
            note,
        }
    }
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
}
