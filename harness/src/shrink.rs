//! Shrinking a failing recording: delta debugging over its keys, keeping
//! every change after which the run still fails the same way.
//!
//! Three passes, each repeated while it makes progress: remove chunks (halves,
//! quarters, ... down to single keys: ddmin), then remove single keys, then
//! simplify keys (each key replaced by `.`). "The same way" is
//! [`FailureKind::same_as`]: the same kind, and the same invariant id or
//! panic message; the step may move.

use std::sync::Arc;

use game_core::Key;
use game_core::content::Content;

use crate::recording::{FailureKind, Recording};
use crate::replay;

/// What shrinking did.
pub struct Shrunk {
    pub recording: Recording,
    pub keys_before: usize,
    pub keys_after: usize,
    /// Candidate runs tried.
    pub tries: u32,
    /// Whether the try budget ran out before the passes settled.
    pub budget_spent: bool,
}

/// Shrinks `recording`, which must fail. `max_tries` bounds the candidate
/// runs (each a full replay of the candidate's keys).
pub fn shrink(
    recording: &Recording,
    content: Arc<Content>,
    max_tries: u32,
) -> Result<Shrunk, String> {
    let (target, failing_keys) = failure_of(recording, &recording.keys, &content)?
        .ok_or("the recording does not fail in this build; there is nothing to shrink it to")?;
    let mut search = Search {
        recording,
        content: &content,
        target: &target,
        tries: 0,
        max_tries,
    };
    // Only the keys up to the failure matter.
    let mut keys = failing_keys;
    let keys_before = recording.keys.len();
    loop {
        let before = keys.len();
        keys = search.remove_chunks(keys);
        keys = search.simplify(keys);
        if keys.len() == before || search.spent() {
            break;
        }
    }
    let mut runner = replay::start(&with_keys(recording, keys.clone()), content.clone())?;
    for &key in &keys {
        if runner.press(key).is_err() {
            break;
        }
    }
    let note = format!(
        "Shrunk by deja shrink from {} to {}. {}",
        count_keys(keys_before),
        count_keys(runner.keys().len()),
        recording.note
    )
    .chars()
    .take(crate::recording::MAX_NOTE_CHARS)
    .collect();
    let shrunk = runner.recording(note);
    Ok(Shrunk {
        keys_after: shrunk.keys.len(),
        recording: shrunk,
        keys_before,
        tries: search.tries,
        budget_spent: search.spent(),
    })
}

/// "1 key", "3 keys".
pub fn count_keys(n: usize) -> String {
    format!("{n} key{}", if n == 1 { "" } else { "s" })
}

/// The failure a run of `keys` meets, and the keys up to and including it.
fn failure_of(
    recording: &Recording,
    keys: &[Key],
    content: &Arc<Content>,
) -> Result<Option<(FailureKind, Vec<Key>)>, String> {
    let mut runner = replay::start(&with_keys(recording, keys.to_vec()), content.clone())?;
    if let Some(failure) = runner.failure() {
        return Ok(Some((failure.kind.clone(), Vec::new())));
    }
    let mut runner_keys = Vec::new();
    for &key in keys {
        runner_keys.push(key);
        if let Err(failure) = runner.press(key) {
            return Ok(Some((failure.kind, runner_keys)));
        }
    }
    Ok(None)
}

fn with_keys(recording: &Recording, keys: Vec<Key>) -> Recording {
    Recording {
        keys,
        step_hashes: Vec::new(),
        checkpoints: Vec::new(),
        failure: None,
        outcome: crate::recording::RecordedOutcome::Running { depth: 1, turn: 0 },
        ..recording.clone()
    }
}

struct Search<'a> {
    recording: &'a Recording,
    content: &'a Arc<Content>,
    target: &'a FailureKind,
    tries: u32,
    max_tries: u32,
}

impl Search<'_> {
    fn spent(&self) -> bool {
        self.tries >= self.max_tries
    }

    /// Whether `keys` still fail the same way; if so, the keys up to the
    /// failure (a shorter run is kept as soon as it is found).
    fn still_fails(&mut self, keys: &[Key]) -> Option<Vec<Key>> {
        if self.spent() {
            return None;
        }
        self.tries += 1;
        match failure_of(self.recording, keys, self.content) {
            Ok(Some((kind, up_to))) if kind.same_as(self.target) => Some(up_to),
            _ => None,
        }
    }

    /// ddmin's reduce-to-complement: try removing each of `n` chunks, doubling
    /// `n` when none can go, down to single keys.
    fn remove_chunks(&mut self, mut keys: Vec<Key>) -> Vec<Key> {
        let mut chunks = 2usize;
        while keys.len() >= 2 && !self.spent() {
            let size = keys.len().div_ceil(chunks);
            let mut removed = false;
            let mut start = 0;
            while start < keys.len() && !self.spent() {
                let end = (start + size).min(keys.len());
                let candidate: Vec<Key> =
                    keys[..start].iter().chain(&keys[end..]).copied().collect();
                if let Some(shorter) = self.still_fails(&candidate) {
                    keys = shorter;
                    removed = true;
                    // The same start now points at what followed the chunk.
                } else {
                    start = end;
                }
            }
            if removed {
                chunks = chunks.saturating_sub(1).max(2);
            } else if size == 1 {
                break;
            } else {
                chunks = (chunks * 2).min(keys.len());
            }
        }
        keys
    }

    /// Replaces each key by the simplest one, a wait, where the failure stays.
    fn simplify(&mut self, mut keys: Vec<Key>) -> Vec<Key> {
        let wait = Key::char('.');
        let mut i = 0;
        while i < keys.len() && !self.spent() {
            if keys[i] != wait {
                let mut candidate = keys.clone();
                candidate[i] = wait;
                if let Some(simpler) = self.still_fails(&candidate) {
                    keys = simpler;
                }
            }
            i += 1;
        }
        keys
    }
}
