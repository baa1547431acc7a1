//! Shrinking a failing recording: delta debugging over its keys, keeping
//! every change after which the run still fails the same way.
//!
//! Three passes, each repeated while it makes progress: remove chunks (halves,
//! quarters, ... down to single keys: ddmin), then fold walks into runs (a
//! row of the same move key replaced by the one key that runs that way: a
//! bot walks where a person would run, and a failure found deep in a game
//! is mostly the walk there), then simplify keys (each key replaced by `.`).
//! "The same way" is [`FailureKind::same_as`]: the same kind, and the same invariant id or
//! panic message; the step may move.
//!
//! A hang cannot be tried in this process: a thread that hangs cannot be
//! stopped. Each candidate of a hang is run by a child `deja play`, whose
//! own watchdog ends it after [`HANG_TRY_SECONDS`] and writes what it met.
//!
//! A long shrink is watched ([`Watch`]): told where it stands after every
//! candidate, and stopped at the next candidate when asked (a signal), with
//! the smallest failing keys found by then. Nothing about the watch reaches
//! a decision: the same recording and budget shrink to the same keys however
//! long each candidate took and however often anyone looked.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use game_core::Key;
use game_core::content::Content;

use crate::plumbing::error::Error;
use crate::plumbing::exit::Exit;
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
    /// Whether the watch's stop ended it before the passes settled: the
    /// recording is the smallest failing one found by then.
    pub interrupted: bool,
}

/// Where a shrink stands, after each candidate run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// Candidate runs tried so far.
    pub tries: u32,
    pub max_tries: u32,
    /// The recording's keys, and the fewest that still fail the same way
    /// found so far.
    pub keys_before: usize,
    pub keys_now: usize,
    pub pass: Pass,
}

/// What the shrink is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Removing chunks of this many keys.
    RemoveChunks {
        size: usize,
    },
    FoldWalks,
    Simplify,
}

impl std::fmt::Display for Pass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Pass::RemoveChunks { size } => write!(f, "removing chunks of {}", count_keys(*size)),
            Pass::FoldWalks => f.write_str("folding walks into runs"),
            Pass::Simplify => f.write_str("simplifying keys to waits"),
        }
    }
}

/// How a shrink is watched.
pub struct Watch<'a> {
    /// Set (by a signal) to stop at the next candidate.
    pub stop: Option<&'a AtomicBool>,
    /// Told where the shrink stands after every candidate run.
    pub status: &'a mut dyn FnMut(&Status),
}

/// Candidate runs `deja shrink` tries unless told otherwise.
pub const DEFAULT_MAX_TRIES: u32 = 5000;

/// The wall-clock budget a candidate of a hang gets before its child
/// reports it hung: far more than any key takes when nothing hangs.
pub const HANG_TRY_SECONDS: u64 = 2;

/// Shrinks `recording`, which must fail. `max_tries` bounds the candidate
/// runs (each a full replay of the candidate's keys). `content_dir` is where
/// `content` came from, for the child runs that try a hang's candidates.
pub fn shrink(
    recording: &Recording,
    content: Arc<Content>,
    content_dir: Option<&Path>,
    max_tries: u32,
) -> Result<Shrunk, Error> {
    let watch = Watch {
        stop: None,
        status: &mut |_| {},
    };
    shrink_watched(recording, content, content_dir, max_tries, watch)
}

/// [`shrink`], telling `watch` where it stands after every candidate and
/// stopping at the next one once `watch.stop` is set.
pub fn shrink_watched(
    recording: &Recording,
    content: Arc<Content>,
    content_dir: Option<&Path>,
    max_tries: u32,
    watch: Watch<'_>,
) -> Result<Shrunk, Error> {
    let trier = trier_for(recording, content_dir)?;
    let (target, failing_keys) = trier
        .failure_of(recording, &recording.keys, &content)?
        .ok_or("the recording does not fail in this build; there is nothing to shrink it to")?;
    let keys_before = recording.keys.len();
    let mut search = Search {
        recording,
        content: &content,
        target: &target,
        tries: 0,
        max_tries,
        trier: &trier,
        watch,
        status: Status {
            tries: 0,
            max_tries,
            keys_before,
            keys_now: failing_keys.len(),
            // Each pass names itself before its first candidate.
            pass: Pass::FoldWalks,
        },
    };
    // Only the keys up to the failure matter.
    let keys = search.settle(failing_keys);
    let interrupted = search.stopped();
    let shrunk = shrunk_recording(&trier, recording, &keys, &content, keys_before)?;
    Ok(Shrunk {
        keys_after: shrunk.keys.len(),
        recording: shrunk,
        keys_before,
        tries: search.tries,
        budget_spent: search.out_of_tries(),
        interrupted,
    })
}

/// How a recording's candidates are tried: a hang's by child runs, any
/// other failure's in this process.
fn trier_for(recording: &Recording, content_dir: Option<&Path>) -> Result<Trier, Error> {
    let hang = matches!(
        recording.failure.as_ref().map(|f| &f.kind),
        Some(FailureKind::Hang { .. })
    );
    Ok(if hang {
        Trier::Child(Child::new(content_dir)?)
    } else {
        Trier::InProcess
    })
}

/// The shrunk keys run once more and written down as a recording, its note
/// saying how many keys it was shrunk from and to.
fn shrunk_recording(
    trier: &Trier,
    recording: &Recording,
    keys: &[Key],
    content: &Arc<Content>,
    keys_before: usize,
) -> Result<Recording, Error> {
    let note = |after: usize| -> String {
        format!(
            "Shrunk by deja shrink from {} to {}. {}",
            count_keys(keys_before),
            count_keys(after),
            recording.note
        )
        .chars()
        .take(crate::recording::MAX_NOTE_CHARS)
        .collect()
    };
    Ok(match trier {
        Trier::Child(child) => {
            let mut shrunk = child
                .run(recording, keys)?
                .ok_or("the shrunk keys no longer hang")?;
            shrunk.note = note(shrunk.keys.len());
            shrunk
        }
        Trier::InProcess => {
            let mut runner = replay::start(&with_keys(recording, keys.to_vec()), content.clone())?;
            for &key in keys {
                if runner.press(key).is_err() {
                    break;
                }
            }
            runner.recording(note(runner.keys().len()))
        }
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
) -> Result<Option<(FailureKind, Vec<Key>)>, Error> {
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

/// How candidates are tried.
enum Trier {
    InProcess,
    Child(Child),
}

impl Trier {
    fn failure_of(
        &self,
        recording: &Recording,
        keys: &[Key],
        content: &Arc<Content>,
    ) -> Result<Option<(FailureKind, Vec<Key>)>, Error> {
        match self {
            Trier::InProcess => failure_of(recording, keys, content),
            Trier::Child(child) => Ok(child.run(recording, keys)?.and_then(|run| {
                let failure = run.failure?;
                let up_to = run.keys.into_iter().take(failure.step as usize).collect();
                Some((failure.kind, up_to))
            })),
        }
    }
}

/// Child `deja play` runs, for a hang's candidates.
struct Child {
    exe: PathBuf,
    content_dir: Option<PathBuf>,
    scratch: PathBuf,
}

impl Child {
    fn new(content_dir: Option<&Path>) -> Result<Child, Error> {
        let exe =
            std::env::current_exe().map_err(|e| format!("finding deja to run a candidate: {e}"))?;
        let scratch = crate::plumbing::files::fresh_dir(
            &std::env::temp_dir(),
            &format!("deja-shrink-{}", std::process::id()),
        )?;
        Ok(Child {
            exe,
            content_dir: content_dir.map(Path::to_path_buf),
            scratch,
        })
    }

    /// Plays `keys` on `recording`'s seed in a child, which the watchdog
    /// ends on a hang; the child's recording when it failed.
    fn run(&self, recording: &Recording, keys: &[Key]) -> Result<Option<Recording>, Error> {
        let keys_file = self.scratch.join("candidate.keys");
        let report = self.scratch.join("candidate.ron");
        let _ = std::fs::remove_file(&report);
        crate::plumbing::files::write_atomic(
            &keys_file,
            crate::recording::keys_input::to_file_text(keys).as_bytes(),
        )?;
        let mut command = std::process::Command::new(&self.exe);
        command
            .arg("play")
            .args(["--seed", &recording.seed.to_string()])
            .args([
                "--map-size",
                &format!("{}x{}", recording.map_width, recording.map_height),
            ])
            .args([
                "--size",
                &format!("{}x{}", recording.frame.0, recording.frame.1),
            ])
            .args(["--frames", "none"])
            .arg("--keys-file")
            .arg(&keys_file)
            .arg("-o")
            .arg(&report)
            .env(
                crate::run::watchdog::BUDGET_VAR,
                HANG_TRY_SECONDS.to_string(),
            )
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        // A build without canaries plays their names as inert labels (the
        // game without the defects) and refuses to plant them.
        if game_core::canary::Canaries::AVAILABLE {
            for canary in &recording.canaries {
                command.args(["--canary", canary.name()]);
            }
        }
        if let Some(dir) = &self.content_dir {
            command.arg("--content").arg(dir);
        }
        let mut child = command.spawn().map_err(|e| {
            format!(
                "running {}: {e}",
                crate::plumbing::printable::path(&self.exe)
            )
        })?;
        // The child's watchdog ends a hang; this ends a child whose watchdog
        // did not.
        let deadline = Instant::now() + Duration::from_secs(3 * HANG_TRY_SECONDS + 10);
        let status = loop {
            match child.try_wait().map_err(|e| e.to_string())? {
                Some(status) => break Some(status),
                None if Instant::now() > deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                None => std::thread::sleep(Duration::from_millis(20)),
            }
        };
        let failed = status.and_then(|s| s.code()) == Some(i32::from(Exit::Failure.code()));
        if !failed {
            return Ok(None);
        }
        Ok(crate::recording::read(&report).ok())
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

fn with_keys(recording: &Recording, keys: Vec<Key>) -> Recording {
    Recording {
        keys,
        step_hashes: Vec::new(),
        part_digests: Vec::new(),
        checkpoints: Vec::new(),
        failure: None,
        outcome: crate::recording::RecordedOutcome::Running { depth: 1, turn: 0 },
        origin: None,
        expect: Vec::new(),
        ..recording.clone()
    }
}

struct Search<'a, 'w> {
    recording: &'a Recording,
    content: &'a Arc<Content>,
    target: &'a FailureKind,
    tries: u32,
    max_tries: u32,
    trier: &'a Trier,
    watch: Watch<'w>,
    /// What the watch is told.
    status: Status,
}

impl Search<'_, '_> {
    fn out_of_tries(&self) -> bool {
        self.tries >= self.max_tries
    }

    /// Whether the watch asked the shrink to stop.
    fn stopped(&self) -> bool {
        self.watch
            .stop
            .is_some_and(|stop| stop.load(Ordering::SeqCst))
    }

    /// The passes over `keys`, each in turn, again while a round of them
    /// makes the keys fewer and candidates are left.
    fn settle(&mut self, mut keys: Vec<Key>) -> Vec<Key> {
        loop {
            let before = keys.len();
            keys = self.remove_chunks(keys);
            keys = self.fold_walks(keys);
            keys = self.simplify(keys);
            if keys.len() == before || self.done() {
                return keys;
            }
        }
    }

    /// No more candidates: the budget is spent or a stop was asked for.
    /// Every pass looks here before each candidate, so a stop is met at the
    /// next candidate boundary.
    fn done(&self) -> bool {
        self.out_of_tries() || self.stopped()
    }

    /// Whether `keys` still fail the same way; if so, the keys up to the
    /// failure (a shorter run is kept as soon as it is found).
    fn still_fails(&mut self, keys: &[Key]) -> Option<Vec<Key>> {
        if self.done() {
            return None;
        }
        self.tries += 1;
        let kept = match self.trier.failure_of(self.recording, keys, self.content) {
            Ok(Some((kind, up_to))) if kind.same_as(self.target) => Some(up_to),
            _ => None,
        };
        self.status.tries = self.tries;
        if let Some(up_to) = &kept {
            self.status.keys_now = up_to.len();
        }
        (self.watch.status)(&self.status);
        kept
    }

    /// ddmin's reduce-to-complement: try removing each of `n` chunks, doubling
    /// `n` when none can go, down to single keys.
    fn remove_chunks(&mut self, mut keys: Vec<Key>) -> Vec<Key> {
        let mut chunks = 2usize;
        while keys.len() >= 2 && !self.done() {
            let size = keys.len().div_ceil(chunks);
            self.status.pass = Pass::RemoveChunks { size };
            let mut removed = false;
            let mut start = 0;
            while start < keys.len() && !self.done() {
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

    /// Replaces each row of two or more of the same move key by the key that
    /// runs that way, where the failure stays.
    fn fold_walks(&mut self, mut keys: Vec<Key>) -> Vec<Key> {
        self.status.pass = Pass::FoldWalks;
        let mut start = 0;
        while start < keys.len() && !self.done() {
            let key = keys[start];
            let end = start + keys[start..].iter().take_while(|&&k| k == key).count();
            let run = game_core::game::screens::direction_of(key)
                .filter(|_| key.mods.is_empty())
                .map(game_core::game::screens::run_key_for_direction);
            if let (Some(run), true) = (run, end - start >= 2) {
                let candidate: Vec<Key> = keys[..start]
                    .iter()
                    .chain(std::iter::once(&run))
                    .chain(&keys[end..])
                    .copied()
                    .collect();
                if let Some(shorter) = self.still_fails(&candidate) {
                    keys = shorter;
                }
            }
            start += 1;
        }
        keys
    }

    /// Replaces each key by the simplest one, a wait, where the failure stays.
    fn simplify(&mut self, mut keys: Vec<Key>) -> Vec<Key> {
        let wait = Key::char('.');
        self.status.pass = Pass::Simplify;
        let mut i = 0;
        while i < keys.len() && !self.done() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::GameConfig;
    use game_core::canary::{Canaries, Canary};

    /// A run of seed 3 whose help screen Esc cannot close: it fails at the
    /// `?`, the fifth key.
    fn sticky_help() -> Recording {
        let config = GameConfig::new(3).with_canaries(Canaries::NONE.with(Canary::StickyHelp));
        let mut runner = crate::run::runner::Runner::new(config).expect("valid");
        let failed = Key::parse_all("llhh?")
            .expect("valid")
            .into_iter()
            .any(|key| runner.press(key).is_err());
        assert!(failed, "the canary is planted");
        runner.recording("sticky help".into())
    }

    fn watched(recording: &Recording, stop_at: Option<u32>) -> (Shrunk, Vec<Status>) {
        let stop = AtomicBool::new(false);
        let mut seen = Vec::new();
        let shrunk = shrink_watched(
            recording,
            Content::shared_embedded(),
            None,
            DEFAULT_MAX_TRIES,
            Watch {
                stop: Some(&stop),
                status: &mut |status| {
                    seen.push(*status);
                    if Some(status.tries) == stop_at {
                        stop.store(true, Ordering::SeqCst);
                    }
                },
            },
        )
        .expect("it shrinks");
        (shrunk, seen)
    }

    #[test]
    fn the_watch_is_told_every_run_and_changes_nothing() {
        let recording = sticky_help();
        let plain = shrink(
            &recording,
            Content::shared_embedded(),
            None,
            DEFAULT_MAX_TRIES,
        )
        .expect("it shrinks");
        let (shrunk, seen) = watched(&recording, None);
        assert_eq!(
            crate::recording::to_text(&shrunk.recording),
            crate::recording::to_text(&plain.recording)
        );
        assert!(!shrunk.interrupted);
        let tries: Vec<u32> = seen.iter().map(|s| s.tries).collect();
        assert_eq!(tries, (1..=shrunk.tries).collect::<Vec<_>>());
        assert!(seen.windows(2).all(|w| w[1].keys_now <= w[0].keys_now));
        assert_eq!(seen.last().map(|s| s.keys_now), Some(shrunk.keys_after));
    }

    #[test]
    fn a_stop_ends_at_the_next_run_with_the_smallest_failure_so_far() {
        let recording = sticky_help();
        let (shrunk, seen) = watched(&recording, Some(1));
        assert!(shrunk.interrupted && !shrunk.budget_spent);
        assert_eq!(shrunk.tries, 1, "no run after the stop");
        assert_eq!(seen.len(), 1);
        assert_eq!(shrunk.keys_after, seen[0].keys_now);
        assert!(
            shrunk.keys_after < recording.keys.len(),
            "the first run shrank it"
        );
        let content = Content::shared_embedded();
        let (kind, _) = failure_of(&shrunk.recording, &shrunk.recording.keys, &content)
            .expect("it replays")
            .expect("it still fails");
        let target = &recording.failure.as_ref().expect("a failure").kind;
        assert!(kind.same_as(target), "{kind} is not {target}");
    }
}
