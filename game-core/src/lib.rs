//! Undercroft: a small, complete, turn-based roguelike whose core is a pure,
//! deterministic function of (seed, content, keys).
//!
//! Nothing in this crate reads a clock, a file, the environment, a thread id
//! or an unseeded random source, iterates a hash map, or lets a float reach
//! the state. `clippy.toml` and the lints below enforce it; ARCHITECTURE.md
//! explains the boundary.
//!
//! ```
//! use game_core::{Game, GameConfig, Key};
//!
//! let mut game = Game::new(GameConfig::new(7)).expect("the default size is valid");
//! for key in Key::parse_all("llll>").expect("valid key notation") {
//!     game.press(key).expect("the game never gets stuck");
//! }
//! println!("{}", game.frame(80, 24).to_text());
//! ```

#![forbid(unsafe_code)]
#![deny(clippy::float_arithmetic, clippy::float_cmp)]

mod bound;
pub mod canary;
pub mod content;
pub mod dice;
pub mod fov;
pub mod frame;
pub mod game;
pub mod geom;
pub mod keys;
pub mod map;
pub mod mapgen;
pub mod paths;
pub mod rng;
pub mod rules;
pub mod spawn;
pub mod text;

/// The game's name, as recordings name it.
pub const GAME_NAME: &str = "undercroft";
/// The game's version, as recordings name it: game-core's package version.
pub const GAME_VERSION: &str = env!("CARGO_PKG_VERSION");

pub use frame::Frame;
pub use game::{Aim, Game, GameConfig, Intent, Outcome, RunEnd, Slot, Stuck};
pub use keys::Key;
pub use rng::RunSeed;
