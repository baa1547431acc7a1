//! The state hash, and saving and loading.
//!
//! `state_hash` is XXH3-64 (seed 0) of the postcard encoding of the whole
//! [`GameState`]; docs/state-hash.md documents both, and why the result is the
//! same across runs, builds, toolchains and platforms. A save is the same
//! state written as RON, readable by a person. Loading checks the content
//! fingerprint and every invariant before handing the game back, so a
//! tampered or truncated save is refused with a message instead of panicking
//! later.

use std::fmt;
use std::sync::Arc;

use crate::content::Content;
use crate::mapgen::LAST_DEPTH;

use super::state::GameState;
use super::{Cache, Game};

/// Largest save accepted, in bytes.
pub const MAX_SAVE_BYTES: usize = 16 * 1024 * 1024;

/// Why a save could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    TooLarge {
        bytes: usize,
    },
    /// Not a valid save: RON's message, with line and column.
    Parse {
        line: usize,
        column: usize,
        message: String,
    },
    /// The save was made with other content.
    ContentMismatch {
        saved: u64,
        loaded: u64,
    },
    /// The save parses but describes an impossible game.
    Invalid(Vec<String>),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::TooLarge { bytes } => {
                write!(
                    f,
                    "the save is {bytes} bytes; the limit is {MAX_SAVE_BYTES}"
                )
            }
            LoadError::Parse {
                line,
                column,
                message,
            } => {
                write!(f, "line {line}, column {column}: {message}")
            }
            LoadError::ContentMismatch { saved, loaded } => write!(
                f,
                "the save was made with content {saved:016x} but content {loaded:016x} is loaded; load it with the content it was made with"
            ),
            LoadError::Invalid(problems) => {
                write!(
                    f,
                    "the save describes an impossible game: {}",
                    problems.join("; ")
                )
            }
        }
    }
}

impl std::error::Error for LoadError {}

impl Game {
    /// A 64-bit hash of the whole state. Equal states hash equal on every
    /// platform and build; see docs/state-hash.md.
    pub fn state_hash(&self) -> u64 {
        self.state_hash_in(&mut Vec::new())
    }

    /// [`Game::state_hash`], encoding into `buffer` (emptied first) rather
    /// than a new one: a caller that hashes after every key keeps one buffer
    /// and saves the allocation and its regrowth each time.
    pub fn state_hash_in(&self, buffer: &mut Vec<u8>) -> u64 {
        buffer.clear();
        postcard::serialize_with_flavor(&self.state, Appending(buffer))
            .expect("the game state has no type postcard cannot encode");
        xxhash_rust::xxh3::xxh3_64(buffer)
    }

    /// The whole state as RON.
    pub fn save(&self) -> String {
        let state = self.planted_saved_state();
        ron::ser::to_string_pretty(state.as_ref(), ron::ser::PrettyConfig::default())
            .expect("the game state has no type RON cannot encode")
    }

    /// Loads a save made by [`Game::save`] against the same content.
    pub fn load(text: &str, content: Arc<Content>) -> Result<Game, LoadError> {
        if text.len() > MAX_SAVE_BYTES {
            return Err(LoadError::TooLarge { bytes: text.len() });
        }
        let state: GameState = ron::from_str(text).map_err(|e| LoadError::Parse {
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })?;
        Game::from_state(state, content)
    }

    /// A game from a state, checked exactly as a loaded save is: for tools and
    /// tests that build a scene by editing a state. What the player sees (and
    /// which monsters have noticed them) is recomputed from the positions; for
    /// a state the game itself produced that changes nothing, which the
    /// save/load tests check.
    pub fn from_state(state: GameState, content: Arc<Content>) -> Result<Game, LoadError> {
        if state.content_fingerprint != content.fingerprint() {
            return Err(LoadError::ContentMismatch {
                saved: state.content_fingerprint,
                loaded: content.fingerprint(),
            });
        }
        let mut game = Game {
            state,
            content,
            cache: Cache::default(),
            events: Vec::new(),
        };
        let problems = game.structural_problems();
        if !problems.is_empty() {
            return Err(LoadError::Invalid(problems));
        }
        if !game.is_over() && game.state.floor.map.in_bounds(game.state.player.pos) {
            game.refresh_view();
        }
        let violations = super::validity::check_state(&game);
        if !violations.is_empty() {
            return Err(LoadError::Invalid(
                violations.iter().map(|v| v.to_string()).collect(),
            ));
        }
        Ok(game)
    }

    /// References that must resolve before anything else can be checked: a
    /// monster or item id past the end of the content would panic on lookup.
    fn structural_problems(&self) -> Vec<String> {
        let monsters = self.content.monsters().len();
        let items = self.content.items().len();
        let mut problems = Vec::new();
        let canaries = self.state.canaries;
        if canaries.unknown_bits() != 0 {
            problems.push(format!(
                "unknown canary bits {:#x}",
                canaries.unknown_bits()
            ));
        }
        if !(1..=LAST_DEPTH).contains(&self.state.depth) {
            problems.push(format!(
                "depth {} is outside 1..={LAST_DEPTH}",
                self.state.depth
            ));
        }
        for m in &self.state.monsters {
            if usize::from(m.kind.0) >= monsters {
                problems.push(format!("monster {} has unknown kind {}", m.id.0, m.kind.0));
            }
        }
        for item in &self.state.items {
            if usize::from(item.item.0) >= items {
                problems.push(format!(
                    "an item at {} has unknown kind {}",
                    item.pos, item.item.0
                ));
            }
        }
        for (slot, stack) in self.state.player.pack.slots() {
            if usize::from(stack.item.0) >= items {
                problems.push(format!(
                    "pack slot {slot} holds unknown item kind {}",
                    stack.item.0
                ));
            }
        }
        for screen in &self.state.screens {
            use super::screens::{Purpose, Screen};
            let slot = match screen {
                Screen::ItemMenu { slot } => Some(*slot),
                Screen::Reticle(r) => match r.purpose {
                    Purpose::Throw { slot } | Purpose::Use { slot } => Some(slot),
                    Purpose::Look => None,
                },
                _ => None,
            };
            if let Some(slot) = slot
                && self.state.player.pack.get(slot).is_none()
            {
                problems.push(format!("a screen refers to empty pack slot {slot}"));
            }
        }
        problems
    }
}

/// postcard's output appended to a buffer a slice at a time. (Its own
/// `to_extend` goes through `Extend`, which copies a message's text byte by
/// byte: most of the digest's cost, as the log is most of the state.)
pub(super) struct Appending<'a>(pub(super) &'a mut Vec<u8>);

impl postcard::ser_flavors::Flavor for Appending<'_> {
    type Output = ();

    fn try_push(&mut self, byte: u8) -> postcard::Result<()> {
        self.0.push(byte);
        Ok(())
    }

    fn try_extend(&mut self, bytes: &[u8]) -> postcard::Result<()> {
        self.0.extend_from_slice(bytes);
        Ok(())
    }

    fn finalize(self) -> postcard::Result<()> {
        Ok(())
    }
}
