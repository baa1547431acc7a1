//! What a recording says it shows, checked: a recording's `expect` list
//! (format 2) names how its run ends and what happens on the way ("died of
//! poison", "reached depth 3", "the pack was opened to throw", "a potion of
//! healing was drunk"). `replay` and `bless` watch the run key by key and
//! fail a recording whose run no longer shows it, so a scenario that a rule
//! change or a bless turned into something else is caught by the tool, not
//! only by a test that knows the file.

use checks::describe::Words;
use game_core::game::events::{Event, Place};
use game_core::{Game, Outcome};
use serde::{Deserialize, Serialize};

use crate::recording::outcome::RecordedOutcome;

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
    /// key: "help", "message history", "quit prompt", "pack open to
    /// throw", "item menu", "reticle".
    Screen(String),
    /// A message containing this text is said.
    Says(String),
    /// An item whose name contains this text is used up (drunk, read) or
    /// thrown.
    Uses(String),
}

/// The expectation in words, its text from the file quoted and escaped.
impl std::fmt::Display for Expectation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::plumbing::printable::quoted;
        match self {
            Expectation::Won => f.write_str("the run is won"),
            Expectation::Died(cause) => write!(f, "the player dies of {}", quoted(cause)),
            Expectation::Quit => f.write_str("the player quits"),
            Expectation::Running => f.write_str("the run is still going at the end"),
            Expectation::Depth(depth) => write!(f, "the player reaches depth {depth}"),
            Expectation::Screen(text) => {
                write!(f, "a screen with {} in its name is open", quoted(text))
            }
            Expectation::Says(text) => write!(f, "a message says {}", quoted(text)),
            Expectation::Uses(text) => write!(f, "an item named with {} is used", quoted(text)),
        }
    }
}

/// The longest text an expectation may hold: a message or a name of the
/// game's is one line, far shorter.
pub const MAX_TEXT_CHARS: usize = 200;

/// Refuses a list that no run could show, or that every run shows: two
/// different endings (`[Won, Died("x")]`), a depth past the last floor or
/// one the run starts on (`Depth(99)`, `Depth(0)`), blank text that every
/// message or screen contains (`Says("")`), text past
/// [`MAX_TEXT_CHARS`]. The error is the index of the first item at fault,
/// and what is wrong with it. A list is checked where it is read, so it is
/// refused at once rather than reported as "no longer shows" later.
pub fn check(list: &[Expectation], start_depth: u32) -> Result<(), (usize, String)> {
    let last = game_core::mapgen::LAST_DEPTH;
    let mut ending: Option<(usize, &Expectation)> = None;
    for (index, expectation) in list.iter().enumerate() {
        let fault = |what: String| Err((index, format!("{expectation}: {what}")));
        match expectation {
            Expectation::Depth(depth) if *depth > last => {
                return fault(format!("depth {depth} is past the last floor, {last}"));
            }
            Expectation::Depth(depth) if *depth <= start_depth => {
                return fault(format!(
                    "the run starts on depth {start_depth}, so this holds from the first step; expect a deeper floor"
                ));
            }
            Expectation::Screen(text) | Expectation::Says(text) | Expectation::Uses(text)
                if text.trim().is_empty() =>
            {
                return fault("blank text is in every name and message, so this always holds; say what must be shown".into());
            }
            _ => {}
        }
        if let Expectation::Died(text)
        | Expectation::Screen(text)
        | Expectation::Says(text)
        | Expectation::Uses(text) = expectation
        {
            let chars = text.chars().count();
            if chars > MAX_TEXT_CHARS {
                // Not the text itself: it is what is too long to echo.
                return Err((
                    index,
                    format!(
                        "an expectation's text is {chars} characters; at most {MAX_TEXT_CHARS}, a line of the game's"
                    ),
                ));
            }
        }
        let ends = matches!(
            expectation,
            Expectation::Won | Expectation::Died(_) | Expectation::Quit | Expectation::Running
        );
        if ends {
            match ending {
                Some((first, other))
                    if std::mem::discriminant(other) != std::mem::discriminant(expectation) =>
                {
                    return fault(format!(
                        "a run ends one way, and item {} says {other}",
                        first + 1
                    ));
                }
                Some(_) => {}
                None => ending = Some((index, expectation)),
            }
        }
    }
    Ok(())
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
                    .any(|screen| screen.words().to_string().contains(text.as_str())),
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
