//! How a recorded run stood at its last step: what a recording's
//! `outcome` holds and an `expect` list is held to.

use serde::{Deserialize, Serialize};

/// How the recorded run stood at its last step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum RecordedOutcome {
    Running {
        depth: u32,
        turn: u64,
    },
    Died {
        cause: String,
        depth: u32,
        turn: u64,
    },
    Won {
        turn: u64,
    },
    Quit {
        depth: u32,
        turn: u64,
    },
    /// The run ended in a failure (see `failure`).
    Failed,
}

impl std::fmt::Display for RecordedOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordedOutcome::Running { depth, turn } => {
                write!(f, "running on depth {depth} at turn {turn}")
            }
            RecordedOutcome::Died { cause, depth, turn } => {
                write!(f, "died on depth {depth} at turn {turn}: {cause}")
            }
            RecordedOutcome::Won { turn } => write!(f, "won at turn {turn}"),
            RecordedOutcome::Quit { depth, turn } => {
                write!(f, "quit on depth {depth} at turn {turn}")
            }
            RecordedOutcome::Failed => write!(f, "failed"),
        }
    }
}
