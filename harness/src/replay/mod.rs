//! Replaying a recording and comparing it, step by step, with what was
//! recorded: the first step whose state differs is named, a recorded failure
//! is reproduced or reported fixed, and a new failure is reported.

use std::sync::Arc;

use game_core::canary::Canaries;
use game_core::content::Content;
use game_core::{Game, GameConfig, Key, RunSeed};
use serde::Serialize;

use crate::plumbing::error::Error;
use crate::plumbing::exit::Exit;
use crate::recording::{Failure, RecordedOutcome, Recording};
use crate::run::runner::Runner;

pub mod shrink;
pub mod timeline;

/// What a replay found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Every compared step matched.
    Same,
    /// The state differs from the recording from this step on.
    Drift(Drift),
    /// The recorded failure happened again, at its step.
    Reproduced { failure: Failure },
    /// The recorded failure no longer happens: the run went past its step.
    Fixed { failure: Failure },
    /// A failure the recording did not have.
    NewFailure { failure: Failure },
    /// Every step matched, but the run no longer shows what the recording
    /// says it must (its `expect` list).
    Unmet { unmet: Vec<String> },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Drift {
    /// The first step whose state differs (0 is the start).
    pub step: u64,
    /// The key pressed at that step (none at step 0).
    pub key: Option<String>,
    /// The game's turn after that step, as replayed.
    pub turn: u64,
    /// What differs: "state hash", "checkpoint hash" or "outcome".
    pub what: String,
    pub expected: String,
    pub actual: String,
    /// The parts of the state whose digests differ at that step, and those
    /// that match; both empty when the recording has no part digests
    /// (format 1) or the drift is not of the state.
    pub parts_differ: Vec<String>,
    pub parts_same: Vec<String>,
    /// Whether the replay started from what the recording did: its seed,
    /// canaries and content fingerprint (the seed and canaries are the
    /// file's own, so only the content can differ). When it did and every
    /// part matches, the hash that differs is the file's own fault: it
    /// does not match the parts recorded beside it.
    pub same_start: bool,
}

/// "drift at step 6 (key ;, turn 3): state hash expected 0a1b2c3d,
/// replayed 4e5f6a7b".
impl std::fmt::Display for Drift {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.key {
            Some(key) => write!(f, "drift at step {} (key {key}", self.step)?,
            None => write!(f, "drift at step {} (the start", self.step)?,
        }
        write!(
            f,
            ", turn {}): {} expected {}, replayed {}",
            self.turn, self.what, self.expected, self.actual
        )?;
        match (self.parts_differ.as_slice(), self.parts_same.is_empty()) {
            ([], true) => Ok(()),
            ([], false) if self.same_start => write!(
                f,
                "; every part the same and the run started as recorded, so the step's recorded hash does not match its own parts (the file was edited or is corrupt)"
            ),
            ([], false) => write!(
                f,
                "; every part the same, so what the run started with differs (the content: see the warning)"
            ),
            (differ, _) => {
                write!(f, "; {} differ", and_list(differ))?;
                if !self.parts_same.is_empty() {
                    write!(f, "; {} same", and_list(&self.parts_same))?;
                }
                Ok(())
            }
        }
    }
}

/// "a", "a and b", "a, b and c".
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The verdict in a sentence: "same", "reproduced at step 3: ...".
impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Same => f.write_str("same"),
            Verdict::Drift(drift) => write!(f, "{drift}"),
            Verdict::Reproduced { failure } => {
                write!(f, "reproduced at step {}: {}", failure.step, failure.kind)
            }
            Verdict::Fixed { failure } => write!(
                f,
                "fixed: the recorded failure at step {} ({}) no longer happens",
                failure.step, failure.kind
            ),
            Verdict::NewFailure { failure } => {
                write!(f, "failure at step {}: {}", failure.step, failure.kind)
            }
            Verdict::Unmet { unmet } => write!(
                f,
                "not what it says it shows: expected {}",
                unmet.join("; ")
            ),
        }
    }
}

/// The result of replaying one recording.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    pub verdict: Verdict,
    /// Keys replayed.
    pub steps: u64,
    /// Player turns taken in the replay.
    pub turns: u64,
    /// How the replay stands at its last step.
    pub outcome: RecordedOutcome,
    /// Version or content mismatches: said, then the replay runs anyway.
    pub warnings: Vec<String>,
}

impl Verdict {
    /// How the verdict ends a command (see `crate::plumbing::exit`).
    pub fn exit(&self) -> Exit {
        match self {
            Verdict::Same | Verdict::Fixed { .. } => Exit::Ok,
            Verdict::Drift(_) | Verdict::Unmet { .. } => Exit::Drift,
            Verdict::Reproduced { .. } | Verdict::NewFailure { .. } => Exit::Failure,
        }
    }
}

impl Report {
    /// How the verdict ends a command (see `crate::plumbing::exit`).
    pub fn exit(&self) -> Exit {
        self.verdict.exit()
    }
}

/// The game configuration a recording was made with, on `content`.
pub fn config_of(recording: &Recording, content: Arc<Content>) -> GameConfig {
    GameConfig {
        seed: RunSeed(recording.seed),
        content,
        width: recording.map_width,
        height: recording.map_height,
        canaries: recording
            .canaries
            .iter()
            .fold(Canaries::NONE, |set, &c| set.with(c)),
    }
}

/// A runner at the start of `recording`'s run: its seed, map size, canaries
/// and starting floor, on `content`.
pub fn start(recording: &Recording, content: Arc<Content>) -> Result<Runner, Error> {
    Runner::with_settings(
        config_of(recording, content),
        recording.start_depth,
        settings_of(recording),
    )
}

/// The checks a recording's run was made under: its frame size and how
/// often the frame was read and, for a bot run, its progress limit.
pub fn settings_of(recording: &Recording) -> crate::run::runner::Settings {
    crate::run::runner::Settings {
        frame: recording.frame,
        frame_every: recording.frame_every,
        oracle_every: recording.oracle_every,
        progress_limit: recording.progress_limit,
    }
}

/// What makes a replay of `recording` on `content` another game than the
/// one recorded, before a key is pressed: another game version, other
/// content.
pub fn warnings(recording: &Recording, content: &Content) -> Vec<String> {
    use crate::plumbing::printable::escape;
    let mut warnings = Vec::new();
    if recording.game_name != game_core::GAME_NAME
        || recording.game_version != game_core::GAME_VERSION
    {
        warnings.push(format!(
            "recorded with {} {}, replaying with {} {}",
            escape(&recording.game_name),
            escape(&recording.game_version),
            game_core::GAME_NAME,
            game_core::GAME_VERSION
        ));
    }
    if recording.content != content.fingerprint() {
        warnings.push(format!(
            "recorded with content {:016x}, replaying with {:016x}",
            recording.content,
            content.fingerprint()
        ));
    }
    if !recording.canaries.is_empty() && !Canaries::AVAILABLE {
        let names: Vec<&str> = recording.canaries.iter().map(|c| c.name()).collect();
        warnings.push(format!(
            "recorded with the planted {} {}, which this build does not have (a build with --features canary does): replaying the game without {}",
            if names.len() == 1 { "defect" } else { "defects" },
            names.join(", "),
            if names.len() == 1 { "it" } else { "them" },
        ));
    }
    warnings
}

/// Says on standard error what makes a replay of `recording` on `content`
/// another game than the one recorded ([`warnings`]), naming the file.
pub fn warn(name: &str, recording: &Recording, content: &Content) {
    say_warnings(name, &warnings(recording, content));
}

/// Each of `warnings` about the file `name` on standard error, as every
/// command that replays a recording says them.
pub fn say_warnings(name: &str, warnings: &[String]) {
    let name = crate::plumbing::printable::escape(name);
    for warning in warnings {
        crate::plumbing::output::err(format_args!("warning: {name}: {warning}"));
    }
}

/// Replays `recording` on `content`, stopping after `to_step` keys when
/// given. `each_step` sees the game after every step (0 first), for frames.
/// A signal the command took over stops it at the next key with the error
/// [`Error::Interrupted`].
pub fn replay(
    recording: &Recording,
    content: Arc<Content>,
    to_step: Option<u64>,
    mut each_step: impl FnMut(u64, Option<Key>, &Game),
) -> Result<Report, Error> {
    let warnings = warnings(recording, &content);
    // The parts' digests only for a drift's report, at the step it stops.
    let mut runner = start(recording, content)?.hashing_without_parts();
    let last = to_step.map_or(recording.keys.len() as u64, |n| {
        n.min(recording.keys.len() as u64)
    });
    let finish = |runner: &Runner, verdict: Verdict, warnings: Vec<String>| Report {
        verdict,
        steps: runner.step(),
        turns: u64::from(runner.game().state().turns_taken),
        outcome: runner.outcome(),
        warnings,
    };
    each_step(0, None, runner.game());
    if let Some(verdict) = check_step(recording, &runner, 0, None) {
        return Ok(finish(&runner, verdict, warnings));
    }
    let mut watch = crate::recording::expect::Watch::new(&recording.expect, runner.game());
    for step in 1..=last {
        if crate::plumbing::interrupt::requested() {
            return Err(Error::Interrupted);
        }
        let key = recording.keys[(step - 1) as usize];
        let pressed = runner.press(key);
        each_step(step, Some(key), runner.game());
        match pressed {
            Ok(outcome) => watch.after_key(runner.game(), &outcome),
            Err(failure) => {
                return Ok(finish(
                    &runner,
                    failure_verdict(recording, failure),
                    warnings,
                ));
            }
        }
        if let Some(verdict) = check_step(recording, &runner, step, Some(key)) {
            return Ok(finish(&runner, verdict, warnings));
        }
    }
    let complete = last == recording.keys.len() as u64;
    if complete && recording.failure.is_none() && runner.outcome() != recording.outcome {
        let verdict = Verdict::Drift(Drift {
            step: last,
            key: recording.keys.last().map(ToString::to_string),
            turn: runner.game().state().clock.turn(),
            what: "outcome".into(),
            expected: recording.outcome.to_string(),
            actual: runner.outcome().to_string(),
            parts_differ: Vec::new(),
            parts_same: Vec::new(),
            same_start: recording.content == runner.game().content().fingerprint(),
        });
        return Ok(finish(&runner, verdict, warnings));
    }
    let unmet = watch.unmet(&runner.outcome());
    if complete && !unmet.is_empty() {
        let unmet = unmet.iter().map(ToString::to_string).collect();
        return Ok(finish(&runner, Verdict::Unmet { unmet }, warnings));
    }
    Ok(finish(&runner, Verdict::Same, warnings))
}

/// A runner at `step` of `recording` (after that many keys), every step on
/// the way checked against the recording as `replay` checks it: how a player
/// takes control of a recording (`deja play --from`, the viewer's `p`). The
/// inner error is the verdict that stopped it (a drift or a failure), and
/// the outer one a step past the recording's known states.
/// The runner draws and checks frames at `frame` when given (the run goes
/// on at the size its new player asked for, and its recording says so),
/// else at the recording's own size.
pub fn take_over(
    recording: &Recording,
    content: Arc<Content>,
    step: u64,
    frame: Option<(u16, u16)>,
) -> Result<Result<Runner, Verdict>, Error> {
    let known = recording.hash_count();
    if step >= known.max(1) {
        let last = known.saturating_sub(1);
        return Err(match &recording.failure {
            Some(failure) => format!(
                "step {step} is past the last good step, {last}: the key at step {} fails ({})",
                failure.step, failure.kind
            ).into(),
            None => format!(
                "step {step} is past the recording's end; it has {}, so give a step from 0 to {last}",
                crate::replay::shrink::count_keys(recording.keys.len())
            ).into(),
        });
    }
    let settings = crate::run::runner::Settings {
        frame: frame.unwrap_or(recording.frame),
        ..settings_of(recording)
    };
    let mut runner = Runner::with_settings(
        config_of(recording, content),
        recording.start_depth,
        settings,
    )?;
    if let Some(verdict) = check_step(recording, &runner, 0, None) {
        return Ok(Err(verdict));
    }
    for at in 1..=step {
        let key = recording.keys[(at - 1) as usize];
        if let Err(failure) = runner.press(key) {
            return Ok(Err(failure_verdict(recording, failure)));
        }
        if let Some(verdict) = check_step(recording, &runner, at, Some(key)) {
            return Ok(Err(verdict));
        }
    }
    Ok(Ok(runner))
}

/// A failure during replay: the recorded one at its step, or a new one.
pub fn failure_verdict(recording: &Recording, failure: Failure) -> Verdict {
    match &recording.failure {
        Some(recorded) if recorded.step == failure.step && recorded.kind.same_as(&failure.kind) => {
            Verdict::Reproduced { failure }
        }
        _ => Verdict::NewFailure { failure },
    }
}

/// Compares the replayed state at `step` with the recording. `None` when it
/// matches (or nothing was recorded for that step).
pub fn check_step(
    recording: &Recording,
    runner: &Runner,
    step: u64,
    key: Option<Key>,
) -> Option<Verdict> {
    if let Some(failure) = &runner.failure() {
        return Some(failure_verdict(recording, (*failure).clone()));
    }
    if let Some(recorded) = &recording.failure
        && recorded.step == step
    {
        return Some(Verdict::Fixed {
            failure: recorded.clone(),
        });
    }
    let actual = runner.last_hash()?;
    // Only a drift is described: the steps that match (nearly all) cost a
    // comparison, nothing more.
    let drift = |what: &str, expected: String, actual: String| {
        // Which parts moved, when the recording kept their digests: the
        // runner's game is at this step, so it gives its parts' now.
        let (parts_differ, parts_same) = match recording.part_digests.get(step as usize) {
            Some(recorded) => {
                let parts = runner.game().state_digest().parts;
                let (differ, same) = game_core::game::digest::compare_parts(&parts, recorded);
                let owned = |names: Vec<&str>| names.into_iter().map(String::from).collect();
                (owned(differ), owned(same))
            }
            None => (Vec::new(), Vec::new()),
        };
        Some(Verdict::Drift(Drift {
            step,
            key: key.map(|k| k.to_string()),
            turn: runner.game().state().clock.turn(),
            what: what.into(),
            expected,
            actual,
            parts_differ,
            parts_same,
            same_start: recording.content == runner.game().content().fingerprint(),
        }))
    };
    if let Some(&expected) = recording.step_hashes.get(step as usize)
        && expected != actual as u32
    {
        return drift(
            "state hash",
            format!("{expected:08x}"),
            format!("{:08x}", actual as u32),
        );
    }
    if let Some(&(_, expected)) = recording.checkpoints.iter().find(|(s, _)| *s == step)
        && expected != actual
    {
        return drift(
            "checkpoint hash",
            format!("{expected:016x}"),
            format!("{actual:016x}"),
        );
    }
    None
}

/// The game as it stands after `step` keys of `recording`, for showing a
/// frame or a state. A run that fails on the way stops there: after a broken
/// invariant or a stuck loop the game is shown as the failing key left it;
/// after a panic, as it was before that key, since a panic may leave the
/// state half-changed.
pub fn game_at(recording: &Recording, content: Arc<Content>, step: u64) -> Result<Game, Error> {
    Ok(checked_game_at(recording, content, step)?.0)
}

/// The game after `step` keys, as [`game_at`] gives it, and the first
/// thing on the way that says it is not the game recorded: a drift from
/// the recorded hashes, a failure the recording does not have, a recorded
/// failure that does not happen (`None` when every step up to `step`
/// holds). What `deja show` says beside what it shows.
pub fn checked_game_at(
    recording: &Recording,
    content: Arc<Content>,
    step: u64,
) -> Result<(Game, Option<Verdict>), Error> {
    let mut runner = start(recording, content)?.hashing_without_parts();
    let unlike_the_recording =
        |verdict: Option<Verdict>| verdict.filter(|v| !matches!(v, Verdict::Reproduced { .. }));
    let mut first = unlike_the_recording(check_step(recording, &runner, 0, None));
    for (index, &key) in recording.keys.iter().take(step as usize).enumerate() {
        let before = (index + 1 == step as usize).then(|| runner.game().clone());
        match runner.press(key) {
            Ok(_) => {
                if first.is_none() {
                    first = unlike_the_recording(check_step(
                        recording,
                        &runner,
                        index as u64 + 1,
                        Some(key),
                    ));
                }
            }
            Err(failure) => {
                let panicked = matches!(failure.kind, crate::recording::FailureKind::Panic { .. });
                if first.is_none() {
                    first = unlike_the_recording(Some(failure_verdict(recording, failure)));
                }
                let game = match before {
                    Some(game) if panicked => game,
                    _ => runner.game().clone(),
                };
                return Ok((game, first));
            }
        }
    }
    Ok((runner.game().clone(), first))
}

/// Two frames' text side by side, `width` columns each, with a gutter.
/// Two titled frames of `width` columns: side by side when `columns` has
/// room for both and the bar between them, one above the other when not, so
/// a report never wraps.
pub fn two_frames(
    (left_title, left): (&str, &str),
    (right_title, right): (&str, &str),
    width: usize,
    columns: usize,
) -> String {
    if columns >= 2 * width + 3 {
        return side_by_side(left_title, left, right_title, right, width);
    }
    let mut out = String::new();
    for (title, frame) in [(left_title, left), (right_title, right)] {
        out.push_str(title);
        out.push('\n');
        for line in frame.lines() {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

pub fn side_by_side(
    left_title: &str,
    left: &str,
    right_title: &str,
    right: &str,
    width: usize,
) -> String {
    let left_lines: Vec<&str> = std::iter::once(left_title).chain(left.lines()).collect();
    let right_lines: Vec<&str> = std::iter::once(right_title).chain(right.lines()).collect();
    let rows = left_lines.len().max(right_lines.len());
    let mut out = String::new();
    for i in 0..rows {
        let l = left_lines.get(i).copied().unwrap_or("");
        let r = right_lines.get(i).copied().unwrap_or("");
        let padded: String = l
            .chars()
            .chain(std::iter::repeat(' '))
            .take(width)
            .collect();
        out.push_str(&padded);
        out.push_str(" | ");
        out.push_str(r);
        out.push('\n');
    }
    out
}

/// A hang while replaying `recording` is its recorded failure reproduced, or
/// a new failure with a bug report, said as the other verdicts are; the
/// watchdog then ends the process with exit code 4.
pub fn report_hangs_against(recording: &Recording, name: String) {
    let recorded = recording.failure.clone();
    crate::run::watchdog::on_hang(Box::new(move |hang| {
        let Some(failure) = &hang.recording.failure else {
            return;
        };
        let same = recorded
            .as_ref()
            .is_some_and(|r| r.step == failure.step && r.kind.same_as(&failure.kind));
        if same {
            let _ = crate::plumbing::output::out(format_args!(
                "{name}: reproduced at step {}: {}",
                failure.step, failure.kind
            ));
        } else {
            let _ = crate::plumbing::output::out(format_args!(
                "{name}: failure at step {}: {}",
                failure.step, failure.kind
            ));
            crate::run::watchdog::report_written(
                hang,
                &crate::recording::default_report(hang.recording.seed, failure.step),
            );
        }
    }));
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::recording::FailureKind;

    /// A clean run of `keys` on `seed`, recorded.
    pub(crate) fn recorded(seed: u64, keys: &str) -> Recording {
        let mut runner = Runner::new(GameConfig::new(seed)).expect("valid");
        for key in Key::parse_all(keys).expect("valid") {
            runner.press(key).expect("no failure");
        }
        runner.recording(String::new())
    }

    fn content() -> Arc<Content> {
        Arc::new(Content::embedded())
    }

    #[test]
    fn an_unchanged_recording_replays_the_same() {
        let recording = recorded(5, "llooo.;<Esc>");
        let report = replay(&recording, content(), None, |_, _, _| {}).expect("replays");
        assert_eq!(report.verdict, Verdict::Same);
        assert_eq!(report.steps, 8);
        assert_eq!(report.exit(), Exit::Ok);
    }

    #[test]
    fn a_changed_key_drifts_at_exactly_its_step() {
        let mut recording = recorded(5, "llllooo");
        recording.keys[2] = Key::char('h');
        let report = replay(&recording, content(), None, |_, _, _| {}).expect("replays");
        match &report.verdict {
            Verdict::Drift(drift) => {
                assert_eq!(drift.step, 3);
                assert_eq!(drift.key.as_deref(), Some("h"));
            }
            other => panic!("expected drift, got {other:?}"),
        }
        assert_eq!(report.exit(), Exit::Drift);
    }

    #[test]
    fn a_changed_hash_drifts_at_exactly_its_step() {
        let mut recording = recorded(6, "llllooo");
        recording.step_hashes[5] ^= 1;
        let report = replay(&recording, content(), None, |_, _, _| {}).expect("replays");
        assert!(
            matches!(report.verdict, Verdict::Drift(Drift { step: 5, .. })),
            "{report:?}"
        );
    }

    #[test]
    fn to_step_stops_early_and_compares_only_that_far() {
        let mut recording = recorded(7, "llllooo");
        recording.step_hashes[6] ^= 1;
        let report = replay(&recording, content(), Some(4), |_, _, _| {}).expect("replays");
        assert_eq!(report.verdict, Verdict::Same);
        assert_eq!(report.steps, 4);
    }

    #[test]
    fn a_recorded_failure_that_no_longer_happens_is_fixed() {
        let mut recording = recorded(8, "lll");
        recording.failure = Some(Failure {
            step: 2,
            kind: FailureKind::Stuck {
                message: "old bug".into(),
            },
        });
        recording.outcome = RecordedOutcome::Failed;
        recording.step_hashes.truncate(2);
        let report = replay(&recording, content(), None, |_, _, _| {}).expect("replays");
        assert!(
            matches!(report.verdict, Verdict::Fixed { .. }),
            "{report:?}"
        );
        assert_eq!(report.exit(), Exit::Ok);
    }

    #[test]
    fn two_frames_sit_side_by_side_only_where_they_fit() {
        let wide = two_frames(("a", "xy\nzw"), ("b", "uv"), 2, 7);
        assert_eq!(wide, side_by_side("a", "xy\nzw", "b", "uv", 2));
        assert!(wide.lines().all(|l| l.chars().count() <= 7), "{wide}");
        let narrow = two_frames(("a", "xy\nzw"), ("b", "uv"), 2, 6);
        assert_eq!(narrow, "a\nxy\nzw\nb\nuv\n");
    }

    #[test]
    fn frames_side_by_side() {
        let text = side_by_side("a", "x\ny", "b", "z", 3);
        assert_eq!(text, "a   | b\nx   | z\ny   | \n");
    }
}
