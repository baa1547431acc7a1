//! The game: state, the key-by-key state machine, and the turn loop.
//!
//! ```text
//! Key -> Game::press -> screens::dispatch (pure modal stack)
//!     -> Action -> actions (the player acts) -> turn loop (monsters act by
//!        the clock until the player's turn comes round) -> state
//! ```
//!
//! One key may spend no turn (a refusal, a menu), one, or many (running,
//! auto-explore). Every loop is bounded and reports [`Stuck`] instead of
//! spinning.

mod actions;
pub mod digest;
mod dispatch;
pub mod events;
mod explore;
mod floor;
mod intent;
mod monsters;
pub mod pack;
mod persist;
mod planted;
mod render;
pub mod screens;
pub mod state;
pub mod turn;
pub mod validity;

use std::fmt;
use std::sync::Arc;

use crate::canary::Canaries;
use crate::content::Content;
use crate::geom::Pos;
use crate::keys::Key;
use crate::map::{MAX_HEIGHT, MAX_WIDTH, MIN_HEIGHT, MIN_WIDTH};
use crate::mapgen::LAST_DEPTH;
use crate::paths::DijkstraMap;
use crate::rng::RunSeed;

pub use events::{Event, Who};
pub use explore::{AUTO_EXPLORE_LIMIT, RUN_LIMIT};
pub use floor::{BASE_ITEMS, BASE_MONSTERS, START_CLEARANCE};
pub use intent::{Aim, Intent, Slot};
pub use monsters::{CHASE_RADIUS, MAX_ACTIVATIONS};
pub use persist::{LoadError, MAX_SAVE_BYTES};
pub use render::{HELP, camera, wrap};
use state::{GameState, RunStatus};

/// How a run is set up: the seed, the content and the map size.
#[derive(Clone, Debug)]
pub struct GameConfig {
    pub seed: RunSeed,
    pub content: Arc<Content>,
    pub width: i32,
    pub height: i32,
    /// Planted defects; none unless a test asks (see `crate::canary`).
    pub canaries: Canaries,
}

impl GameConfig {
    /// The embedded content at the default 80x40 size.
    pub fn new(seed: u64) -> Self {
        Self {
            seed: RunSeed(seed),
            content: Content::shared_embedded(),
            width: crate::map::DEFAULT_WIDTH,
            height: crate::map::DEFAULT_HEIGHT,
            canaries: Canaries::NONE,
        }
    }

    pub fn with_canaries(mut self, canaries: Canaries) -> Self {
        self.canaries = canaries;
        self
    }

    /// Refuses sizes outside the map limits. Canaries in a build without
    /// them are inert labels (see `crate::canary`), not an error.
    fn check(&self) -> Result<(), ConfigError> {
        let (width, height) = (self.width, self.height);
        if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) || !(MIN_HEIGHT..=MAX_HEIGHT).contains(&height)
        {
            return Err(ConfigError::MapSize { width, height });
        }
        Ok(())
    }

    pub fn with_size(mut self, width: i32, height: i32) -> Self {
        self.width = width;
        self.height = height;
        self
    }

    pub fn with_content(mut self, content: Arc<Content>) -> Self {
        self.content = content;
        self
    }
}

/// Why a configuration was refused (`CanariesUnavailable`: by the harness,
/// when asked to plant a defect in a build that has none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    MapSize { width: i32, height: i32 },
    Depth { depth: u32 },
    CanariesUnavailable,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::MapSize { width, height } => write!(
                f,
                "map size {width}x{height} is outside {MIN_WIDTH}x{MIN_HEIGHT} to {MAX_WIDTH}x{MAX_HEIGHT}"
            ),
            ConfigError::Depth { depth } => {
                write!(f, "depth {depth} is outside 1 to {LAST_DEPTH}")
            }
            ConfigError::CanariesUnavailable => write!(
                f,
                "canaries are planted defects compiled only with the `canary` feature; build with --features canary"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

/// What a key press did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Player actions that spent time (0 for menus and refusals; several for
    /// running and auto-explore).
    pub turns: u32,
    /// Messages said during the press.
    pub messages: Vec<String>,
    /// Set when the run is over (now or before this press).
    pub ended: Option<RunEnd>,
    /// What happened, in order: the record the turn invariants check the
    /// state change against (see [`events`]).
    pub events: Vec<Event>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    Died { cause: String },
    Won,
    Quit,
}

/// A loop hit its bound without making progress: a bug in the game, reported
/// instead of hanging.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stuck {
    /// Which loop: "turn", "run" or "auto-explore".
    pub loop_name: &'static str,
    pub detail: String,
}

impl fmt::Display for Stuck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stuck in the {} loop: {}", self.loop_name, self.detail)
    }
}

impl std::error::Error for Stuck {}

/// Derived data, rebuilt on demand and never saved or hashed: everything here
/// is a pure function of the state.
#[derive(Debug, Default)]
struct Cache {
    /// The chase map, kept while the player stands on its origin tile of the
    /// floor it was built on. It is lazy but answers as a full search would,
    /// so keeping it changes no decision.
    chase: Option<(u32, DijkstraMap)>,
    /// Where the view was last computed from, on which floor.
    view_origin: Option<(u32, Pos)>,
}

/// A copy of a game starts with an empty cache and rebuilds what it needs:
/// the cache is a pure function of the state, and copies are made to probe
/// a key (the `screen.escapable` check) far more often than they are played
/// on.
impl Clone for Cache {
    fn clone(&self) -> Self {
        Cache::default()
    }
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    state: GameState,
    content: Arc<Content>,
    cache: Cache,
    /// What the press under way has done so far (see [`events`]): handed
    /// out in its [`Outcome`], never part of the state.
    events: Vec<Event>,
}

impl Game {
    /// The whole state, read-only.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    pub fn content(&self) -> &Arc<Content> {
        &self.content
    }

    pub fn is_over(&self) -> bool {
        self.state.status != RunStatus::Playing
    }

    /// How the run ended, if it has.
    pub fn run_end(&self) -> Option<RunEnd> {
        match &self.state.status {
            RunStatus::Playing => None,
            RunStatus::Died(death) => Some(RunEnd::Died {
                cause: death.cause.clone(),
            }),
            RunStatus::Won { .. } => Some(RunEnd::Won),
            RunStatus::Quit { .. } => Some(RunEnd::Quit),
        }
    }

    /// Feeds one key to the game. After death, victory or quitting, keys change
    /// nothing.
    pub fn press(&mut self, key: Key) -> Result<Outcome, Stuck> {
        let log_before = self.state.log.total();
        let turns_before = self.state.turns_taken;
        self.events.clear();
        if !self.is_over() {
            // What this key says is drawn bright, what came before dim. A
            // finished run is left as it was: keys change nothing there.
            self.state.log.begin_key();
        }
        if !self.is_over() && self.state.clock.contains(turn::Actor::Player) {
            // An earlier press got stuck before the player's turn came round:
            // the loop resumes where it stopped (and reports again if it
            // cannot finish) rather than letting the player act out of turn.
            self.run_monsters()?;
        }
        if !self.is_over()
            && let Some(action) = self.dispatch(key)
        {
            self.perform(action)?;
        }
        let mut messages: Vec<String> = self
            .state
            .log
            .since(log_before)
            .map(|m| m.text.clone())
            .collect();
        self.planted_half_heard(&mut messages);
        Ok(Outcome {
            turns: self.state.turns_taken - turns_before,
            messages,
            ended: self.run_end(),
            events: std::mem::take(&mut self.events),
        })
    }

    /// Notes what just happened, for this press's [`Outcome::events`].
    fn record(&mut self, event: Event) {
        self.events.push(event);
    }

    /// Adds a message to the log, stamped with the current turn.
    fn say(&mut self, text: impl Into<String>) {
        let turn = self.state.clock.turn();
        self.state.log.push(turn, text.into());
    }
}
