//! A recording replayed once and kept for going back and forth in it: the
//! viewer (`replay --watch`) and movies (`replay --cast`) read it.
//!
//! Building it replays the recording through the runner, every step checked
//! against the recording as `deja replay` checks it, and keeps the game
//! every [`KEYFRAME_EVERY`] steps (a keyframe; more steps apart in a
//! recording so long that it would keep more than [`MAX_KEYFRAMES`]). The
//! game at any step is then the keyframe at or before it plus fewer keys
//! than that pressed again: the game is a pure function of its start and keys, so
//! this is the same game the replay saw, and stepping back is as quick as
//! stepping forward. Keys pressed again skip the checks, which the building
//! replay has already made.

use std::sync::Arc;

use checks::Command;
use game_core::content::Content;
use game_core::{Game, Key};

use crate::plumbing::error::Error;
use crate::recording::expect::Watch;
use crate::recording::{Failure, FailureKind, Recording};
use crate::replay::{self, Verdict};
use crate::run::runner::Runner;

/// Steps between keyframes. Going to a step presses at most this many keys
/// less one; a keyframe of an 80x40 floor holds some kilobytes, so a
/// 100,000-key recording keeps a thousand of them.
pub const KEYFRAME_EVERY: u64 = 100;
/// Most keyframes kept, so memory stays bounded for the longest recording
/// a reader accepts (a million keys: a keyframe every 1,000 steps).
pub const MAX_KEYFRAMES: u64 = 1000;

/// Where the viewer can jump: the last step shown, the first step of each
/// floor, each step's turn, the failure or drift, and how far control can
/// be taken (up to the last step that matched).
fn marks(steps: &[StepInfo], last: u64, event: Option<(u64, String)>, verdict: &Verdict) -> Marks {
    let take_over_limit = match verdict {
        Verdict::Same | Verdict::Fixed { .. } | Verdict::Unmet { .. } => Some(last),
        Verdict::Drift(drift) => drift.step.checked_sub(1),
        Verdict::Reproduced { failure } | Verdict::NewFailure { failure } => {
            failure.step.checked_sub(1)
        }
    };
    let mut floors = vec![0];
    for (step, pair) in steps.windows(2).enumerate() {
        if pair[0].depth != pair[1].depth {
            floors.push(step as u64 + 1);
        }
    }
    Marks {
        last,
        floors,
        turns: steps.iter().map(|s| s.turn).collect(),
        event,
        take_over_limit,
    }
}

/// Steps between keyframes for a recording of `keys` keys.
pub fn keyframe_spacing(keys: u64) -> u64 {
    KEYFRAME_EVERY.max(keys.div_ceil(MAX_KEYFRAMES))
}

/// What a step did, for the status line and for jumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepInfo {
    /// The game's turn after the step.
    pub turn: u64,
    pub depth: u32,
    /// The command the key was and whether it worked; `None` for the start
    /// and for keys no command uses.
    pub effect: Option<(Command, bool)>,
}

/// Where the viewer can jump: the pure summary the viewer's state machine
/// works on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The last step that can be shown.
    pub last: u64,
    /// The steps at which a floor was entered, the start first.
    pub floors: Vec<u64>,
    /// The game's turn after each step, from step 0.
    pub turns: Vec<u64>,
    /// The step a failure or drift shows at, and what it is ("drift at 15").
    pub event: Option<(u64, String)>,
    /// The last step a player may take control at: the recording must still
    /// match there.
    pub take_over_limit: Option<u64>,
}

impl Marks {
    /// The first step at or after which the game's turn is at least `turn`,
    /// or the last step when the run never gets there.
    pub fn step_of_turn(&self, turn: u64) -> u64 {
        let i = self.turns.partition_point(|&t| t < turn);
        (i as u64).min(self.last)
    }

    /// The verdict as far as `step`: "same so far", or the drift or failure
    /// once it has been passed.
    pub fn verdict_at(&self, step: u64) -> String {
        match &self.event {
            Some((at, what)) if *at <= step => what.clone(),
            _ => "same so far".into(),
        }
    }
}

/// What a step did, from the game after it and its key's effect.
fn step_info(game: &Game, effect: Option<(Command, bool)>) -> StepInfo {
    StepInfo {
        turn: game.state().clock.turn(),
        depth: game.state().depth,
        effect,
    }
}

/// What building a timeline gathers as it replays the recording.
struct Replayed {
    steps: Vec<StepInfo>,
    keyframes: Vec<Game>,
    /// The first verdict found that is not "same", and where it shows.
    verdict: Option<Verdict>,
    event: Option<(u64, String)>,
    /// The last step shown.
    last: u64,
}

impl Replayed {
    /// The recording's keys pressed in turn, each step checked, keeping a
    /// keyframe every `spacing` steps, up to a key that fails or the step of
    /// a recorded hang (not pressed again).
    fn press_keys(
        &mut self,
        recording: &Recording,
        runner: &mut Runner,
        watch: &mut Watch<'_>,
        spacing: u64,
    ) {
        let hang_at = match &recording.failure {
            Some(f) if matches!(f.kind, FailureKind::Hang { .. }) => Some(f.step),
            _ => None,
        };
        for (index, &key) in recording.keys.iter().enumerate() {
            let step = index as u64 + 1;
            if hang_at == Some(step) {
                self.verdict = Some(Verdict::Reproduced {
                    failure: recording.failure.clone().expect("a recorded hang"),
                });
                self.event = Some((
                    step - 1,
                    format!("hang at {step} (recorded; not pressed again)"),
                ));
                return;
            }
            match runner.press(key) {
                Err(failure) => {
                    self.failed(recording, runner, step, failure);
                    return;
                }
                Ok(outcome) => {
                    watch.after_key(runner.game(), &outcome);
                    self.steps
                        .push(step_info(runner.game(), runner.last_effect()));
                    self.last = step;
                    if step % spacing == 0 {
                        self.keyframes.push(runner.game().clone());
                    }
                    if self.verdict.is_none()
                        && let Some(found) = replay::check_step(recording, runner, step, Some(key))
                    {
                        self.first_found(step, found);
                    }
                }
            }
        }
    }

    /// The key of `step` failed: the step is shown unless the failure left
    /// the game half-changed, and the failure is the verdict unless one was
    /// found before.
    fn failed(&mut self, recording: &Recording, runner: &Runner, step: u64, failure: Failure) {
        // After a panic the game is half-changed: the last step shown is
        // the one before it.
        let shown = match failure.kind {
            FailureKind::Panic { .. } | FailureKind::Hang { .. } => step - 1,
            _ => step,
        };
        if shown == step {
            self.steps
                .push(step_info(runner.game(), runner.last_effect()));
            self.last = step;
        }
        let found = replay::failure_verdict(recording, failure);
        self.first_found(shown, found);
    }

    /// `found` is the verdict, shown at step `at`, unless one was found
    /// before.
    fn first_found(&mut self, at: u64, found: Verdict) {
        if self.verdict.is_none() {
            self.event = Some((at, short(&found)));
            self.verdict = Some(found);
        }
    }
}

/// A replayed recording.
pub struct Timeline {
    pub recording: Recording,
    /// The replay's verdict over the whole recording.
    pub verdict: Verdict,
    pub steps: Vec<StepInfo>,
    pub marks: Marks,
    keyframes: Vec<Game>,
    /// Steps between keyframes.
    spacing: u64,
}

impl Timeline {
    /// Replays `recording` on `content`, checking it, and keeps what going
    /// back and forth needs. A recorded hang is not pressed again: the
    /// timeline ends before it.
    pub fn build(recording: Recording, content: Arc<Content>) -> Result<Timeline, Error> {
        let mut runner = replay::start(&recording, content)?
            .hashing_without_parts()
            .tallying();
        let spacing = keyframe_spacing(recording.keys.len() as u64);
        let verdict = replay::check_step(&recording, &runner, 0, None);
        let mut replayed = Replayed {
            steps: vec![step_info(runner.game(), None)],
            keyframes: vec![runner.game().clone()],
            event: verdict.as_ref().map(|v| (0, short(v))),
            verdict,
            last: 0,
        };
        // What the recording says it shows, watched as replay watches it.
        let expectations = recording.expect.clone();
        let mut watch = Watch::new(&expectations, runner.game());
        if runner.failure().is_none() {
            replayed.press_keys(&recording, &mut runner, &mut watch, spacing);
        }
        if replayed.verdict.is_none() && replayed.last == recording.keys.len() as u64 {
            let unmet = watch.unmet(&runner.outcome());
            if !unmet.is_empty() {
                let found = Verdict::Unmet {
                    unmet: unmet.iter().map(ToString::to_string).collect(),
                };
                replayed.first_found(replayed.last, found);
            }
        }
        let Replayed {
            steps,
            keyframes,
            verdict,
            event,
            last,
        } = replayed;
        let verdict = verdict.unwrap_or(Verdict::Same);
        let marks = marks(&steps, last, event, &verdict);
        Ok(Timeline {
            recording,
            verdict,
            steps,
            marks,
            keyframes,
            spacing,
        })
    }

    /// The game after `step` keys (clamped to the last step shown).
    pub fn game_at(&self, step: u64) -> Game {
        let step = step.min(self.marks.last);
        // A failure on a keyframe's step ends the timeline without keeping
        // that keyframe.
        let frame = ((step / self.spacing) as usize).min(self.keyframes.len() - 1);
        let mut game = self.keyframes[frame].clone();
        self.press_to(&mut game, frame as u64 * self.spacing, step);
        game
    }

    /// Moves `game`, which is at step `from`, on to step `to` (`to >= from`).
    pub fn press_to(&self, game: &mut Game, from: u64, to: u64) {
        for key in &self.recording.keys[from as usize..to.min(self.marks.last) as usize] {
            // The checked replay pressed these keys already; a stuck loop
            // there left the game as it is now, and a panic or hang ends the
            // timeline before its key.
            let _ = crate::run::runner::catch_panic(|| game.press(*key));
        }
    }

    /// Calls `visit` with the game at every step of keyframe `segment`'s
    /// stretch: the keyframe's own step, then each step pressed from it, up
    /// to the next keyframe or the last step shown. The stretches of every
    /// keyframe cover steps 0 to the last once each, and can be walked at
    /// the same time (`deja when` walks them on every core).
    pub fn walk_segment(&self, segment: usize, mut visit: impl FnMut(u64, &Game)) {
        let from = segment as u64 * self.spacing;
        let to = (from + self.spacing - 1).min(self.marks.last);
        let mut game = self.keyframes[segment].clone();
        visit(from, &game);
        for step in from + 1..=to {
            // As in `press_to`: the checked replay pressed these already.
            let key = self.recording.keys[(step - 1) as usize];
            let _ = crate::run::runner::catch_panic(|| game.press(key));
            visit(step, &game);
        }
    }

    /// The key pressed at `step` (none at the start).
    pub fn key_at(&self, step: u64) -> Option<Key> {
        step.checked_sub(1)
            .and_then(|i| self.recording.keys.get(i as usize).copied())
    }

    /// The status line's account of `step`: "step 12/340 · turn 40 · depth
    /// 2 · same so far · key l: move east".
    pub fn status(&self, step: u64) -> String {
        let step = step.min(self.marks.last);
        let info = self.steps[step as usize];
        let key = match (self.key_at(step), info.effect) {
            (None, _) => "the start".to_string(),
            (Some(key), Some((command, true))) => format!("key {key}: {}", command.name()),
            (Some(key), Some((command, false))) => {
                format!("key {key}: {} (refused)", command.name())
            }
            (Some(key), None) => format!("key {key}: no command"),
        };
        format!(
            "step {step}/{} · turn {} · depth {} · {} · {key}",
            self.marks.last,
            info.turn,
            info.depth,
            self.marks.verdict_at(step)
        )
    }

    /// Steps between keyframes: going to any step presses fewer keys.
    pub fn spacing(&self) -> u64 {
        self.spacing
    }

    /// Keyframes kept.
    pub fn keyframe_count(&self) -> usize {
        self.keyframes.len()
    }
}

/// The verdict in a few words, for the status line.
fn short(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Same => "same".into(),
        Verdict::Drift(drift) => format!("drift at {} ({})", drift.step, drift.what),
        Verdict::Reproduced { failure } => {
            format!("failure at {} (reproduced): {}", failure.step, failure.kind)
        }
        Verdict::NewFailure { failure } => {
            format!("failure at {} (new): {}", failure.step, failure.kind)
        }
        Verdict::Fixed { failure } => format!(
            "fixed: the recorded failure at {} no longer happens",
            failure.step
        ),
        Verdict::Unmet { unmet } => format!("not what it says it shows: {}", unmet.join("; ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::tests::recorded;

    #[test]
    fn the_game_at_any_step_is_the_game_the_replay_saw() {
        let keys = "oooooooooo".repeat(13) + "lhjk.ii<Esc>>";
        let recording = recorded(11, &keys);
        let timeline =
            Timeline::build(recording.clone(), Content::shared_embedded()).expect("builds");
        assert_eq!(timeline.verdict, Verdict::Same);
        assert_eq!(timeline.marks.last, recording.keys.len() as u64);
        assert!(timeline.keyframe_count() >= 2);
        let content = Content::shared_embedded();
        for step in [0, 1, 99, 100, 101, 137, timeline.marks.last] {
            let expected = replay::game_at(&recording, content.clone(), step).expect("replays");
            assert_eq!(
                timeline.game_at(step).state_hash(),
                expected.state_hash(),
                "step {step}"
            );
        }
    }

    #[test]
    fn keyframes_stay_bounded_for_the_longest_recording() {
        assert_eq!(keyframe_spacing(0), KEYFRAME_EVERY);
        assert_eq!(keyframe_spacing(100_000), KEYFRAME_EVERY);
        assert_eq!(keyframe_spacing(100_001), 101);
        let longest = crate::recording::MAX_KEYS as u64;
        assert!(longest / keyframe_spacing(longest) < MAX_KEYFRAMES + 1);
    }

    #[test]
    fn a_drift_marks_its_step_and_limits_taking_over() {
        let mut recording = recorded(5, "llllooo");
        recording.step_hashes[4] ^= 1;
        let timeline = Timeline::build(recording, Content::shared_embedded()).expect("builds");
        assert_eq!(timeline.marks.event.as_ref().map(|e| e.0), Some(4));
        assert_eq!(timeline.marks.take_over_limit, Some(3));
        assert_eq!(timeline.marks.verdict_at(3), "same so far");
        assert!(timeline.marks.verdict_at(4).starts_with("drift at 4"));
        // The replay goes on past the drift: the whole run can be watched.
        assert_eq!(timeline.marks.last, 7);
    }

    #[test]
    fn an_unmet_expectation_is_the_viewers_verdict_at_the_end() {
        use crate::recording::expect::Expectation;
        let mut recording = recorded(5, "llllooo");
        recording.expect = vec![Expectation::Running];
        let met = Timeline::build(recording.clone(), Content::shared_embedded()).expect("builds");
        assert_eq!(met.verdict, Verdict::Same);
        recording.expect = vec![Expectation::Won];
        let timeline = Timeline::build(recording, Content::shared_embedded()).expect("builds");
        assert!(
            matches!(timeline.verdict, Verdict::Unmet { .. }),
            "{:?}",
            timeline.verdict
        );
        assert_eq!(timeline.marks.verdict_at(6), "same so far");
        assert!(
            timeline
                .marks
                .verdict_at(7)
                .starts_with("not what it says it shows")
        );
    }
}
