//! What a recording says it shows, checked: a recording's `expect` list
//! (format 2) names how its run ends and what happens on the way ("died of
//! poison", "reached depth 3", "the pack was opened to throw", "a potion of
//! healing was drunk"). `replay` and `bless` watch the run key by key and
//! fail a recording whose run no longer shows it, so a scenario that a rule
//! change or a bless turned into something else is caught by the tool, not
//! only by a test that knows the file.

use game_core::game::events::{Event, Place};
use game_core::{Game, Outcome};
use serde::{Deserialize, Serialize};

use crate::recording::RecordedOutcome;

/// One thing a run must show. Text is matched as a case-sensitive part of
/// what the game says, so `Died("poison")` holds for "died of poison from a
/// cave spider".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Expectation {
    /// The run ends won.
    Won,
    /// The run ends in death by a cause containing this text.
    Died(String),
    /// The run ends with the player quitting.
    Quit,
    /// The run is still going after its last key.
    Running,
    /// The player reaches this depth (or deeper) at some step.
    Depth(u32),
    /// A screen whose description contains this text is open after some
    /// key: "help", "quit prompt", "pack open to throw", "item menu",
    /// "reticle".
    Screen(String),
    /// A message containing this text is said.
    Says(String),
    /// An item whose name contains this text is used up (drunk, read) or
    /// thrown.
    Uses(String),
}

impl std::fmt::Display for Expectation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expectation::Won => f.write_str("the run is won"),
            Expectation::Died(cause) => write!(f, "the player dies of {cause:?}"),
            Expectation::Quit => f.write_str("the player quits"),
            Expectation::Running => f.write_str("the run is still going at the end"),
            Expectation::Depth(depth) => write!(f, "the player reaches depth {depth}"),
            Expectation::Screen(text) => write!(f, "a screen with {text:?} in its name is open"),
            Expectation::Says(text) => write!(f, "a message says {text:?}"),
            Expectation::Uses(text) => write!(f, "an item named with {text:?} is used"),
        }
    }
}

/// Watches a run for the expectations met on the way; [`Watch::unmet`]
/// adds how the run ended.
pub struct Watch<'a> {
    expectations: &'a [Expectation],
    met: Vec<bool>,
}

impl<'a> Watch<'a> {
    /// A watch of `expectations`, shown the game at the start.
    pub fn new(expectations: &'a [Expectation], start: &Game) -> Watch<'a> {
        let mut watch = Watch {
            expectations,
            met: vec![false; expectations.len()],
        };
        watch.see(start, None);
        watch
    }

    /// Shows the watch the game after a key, and what the key did.
    pub fn after_key(&mut self, game: &Game, outcome: &Outcome) {
        self.see(game, Some(outcome));
    }

    fn see(&mut self, game: &Game, outcome: Option<&Outcome>) {
        let state = game.state();
        for (expectation, met) in self.expectations.iter().zip(&mut self.met) {
            if *met {
                continue;
            }
            *met = match expectation {
                Expectation::Depth(depth) => state.depth >= *depth,
                Expectation::Screen(text) => state
                    .screens
                    .iter()
                    .any(|screen| screen.to_string().contains(text.as_str())),
                Expectation::Says(text) => {
                    outcome.is_some_and(|o| o.messages.iter().any(|m| m.contains(text.as_str())))
                }
                Expectation::Uses(text) => outcome.is_some_and(|o| {
                    o.events.iter().any(|event| {
                        let used = match event {
                            Event::Items {
                                item,
                                to: Place::Used,
                                ..
                            } => Some(*item),
                            Event::Thrown { item, .. } => Some(*item),
                            _ => None,
                        };
                        used.is_some_and(|item| {
                            game.content().item(item).name.contains(text.as_str())
                        })
                    })
                }),
                // How the run ends is for `unmet`.
                Expectation::Won
                | Expectation::Died(_)
                | Expectation::Quit
                | Expectation::Running => false,
            };
        }
    }

    /// The expectations the run did not show, given how it ended.
    pub fn unmet(&self, end: &RecordedOutcome) -> Vec<&'a Expectation> {
        self.expectations
            .iter()
            .zip(&self.met)
            .filter(|&(expectation, &met)| {
                let ended_so = match (expectation, end) {
                    (Expectation::Won, RecordedOutcome::Won { .. }) => true,
                    (Expectation::Died(text), RecordedOutcome::Died { cause, .. }) => {
                        cause.contains(text.as_str())
                    }
                    (Expectation::Quit, RecordedOutcome::Quit { .. }) => true,
                    (Expectation::Running, RecordedOutcome::Running { .. }) => true,
                    _ => false,
                };
                !(met || ended_so)
            })
            .map(|(expectation, _)| expectation)
            .collect()
    }
}

/// Unmet expectations, in words, one after another.
pub fn describe(unmet: &[&Expectation]) -> String {
    unmet
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
