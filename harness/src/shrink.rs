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

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
) -> Result<Shrunk, String> {
    let hang = matches!(
        recording.failure.as_ref().map(|f| &f.kind),
        Some(FailureKind::Hang { .. })
    );
    let trier = if hang {
        Trier::Child(Child::new(content_dir)?)
    } else {
        Trier::InProcess
    };
    let (target, failing_keys) = trier
        .failure_of(recording, &recording.keys, &content)?
        .ok_or("the recording does not fail in this build; there is nothing to shrink it to")?;
    let mut search = Search {
        recording,
        content: &content,
        target: &target,
        tries: 0,
        max_tries,
        trier: &trier,
    };
    // Only the keys up to the failure matter.
    let mut keys = failing_keys;
    let keys_before = recording.keys.len();
    loop {
        let before = keys.len();
        keys = search.remove_chunks(keys);
        keys = search.fold_walks(keys);
        keys = search.simplify(keys);
        if keys.len() == before || search.spent() {
            break;
        }
    }
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
    let shrunk = match &trier {
        Trier::Child(child) => {
            let mut shrunk = child
                .run(recording, &keys)?
                .ok_or("the shrunk keys no longer hang")?;
            shrunk.note = note(shrunk.keys.len());
            shrunk
        }
        Trier::InProcess => {
            let mut runner = replay::start(&with_keys(recording, keys.clone()), content.clone())?;
            for &key in &keys {
                if runner.press(key).is_err() {
                    break;
                }
            }
            runner.recording(note(runner.keys().len()))
        }
    };
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
    ) -> Result<Option<(FailureKind, Vec<Key>)>, String> {
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
    fn new(content_dir: Option<&Path>) -> Result<Child, String> {
        let exe =
            std::env::current_exe().map_err(|e| format!("finding deja to run a candidate: {e}"))?;
        let scratch = std::env::temp_dir().join(format!("deja-shrink-{}", std::process::id()));
        std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
        Ok(Child {
            exe,
            content_dir: content_dir.map(Path::to_path_buf),
            scratch,
        })
    }

    /// Plays `keys` on `recording`'s seed in a child, which the watchdog
    /// ends on a hang; the child's recording when it failed.
    fn run(&self, recording: &Recording, keys: &[Key]) -> Result<Option<Recording>, String> {
        let keys_file = self.scratch.join("candidate.keys");
        let report = self.scratch.join("candidate.ron");
        let _ = std::fs::remove_file(&report);
        crate::files::write_atomic(&keys_file, Key::format_all(keys).as_bytes())?;
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
            .env(crate::watchdog::BUDGET_VAR, HANG_TRY_SECONDS.to_string())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        for canary in &recording.canaries {
            command.args(["--canary", canary.name()]);
        }
        if let Some(dir) = &self.content_dir {
            command.arg("--content").arg(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("running {}: {e}", self.exe.display()))?;
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
        let failed = status.and_then(|s| s.code()) == Some(i32::from(crate::exit::FAILURE));
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

struct Search<'a> {
    recording: &'a Recording,
    content: &'a Arc<Content>,
    target: &'a FailureKind,
    tries: u32,
    max_tries: u32,
    trier: &'a Trier,
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
        match self.trier.failure_of(self.recording, keys, self.content) {
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

    /// Replaces each row of two or more of the same move key by the key that
    /// runs that way, where the failure stays.
    fn fold_walks(&mut self, mut keys: Vec<Key>) -> Vec<Key> {
        let mut start = 0;
        while start < keys.len() && !self.spent() {
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
