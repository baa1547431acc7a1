//! `deja when FILE 'CONDITION'`: the first step of a recording at which a
//! condition on the state holds (`player.hp <= 5`, `player.statuses.poison`),
//! with the key, the turn, what the key did to make it hold, and the frame;
//! `--all` lists every step at which it comes to hold.
//!
//! The recording is replayed once as the viewer replays it (checked, its
//! keyframes kept: `crate::replay::timeline`), then the condition is read at every
//! step, each keyframe's stretch on its own thread. A step found is pressed
//! again from the step before, to say what its key did.

use std::path::PathBuf;

use checks::describe::describe_event;
use clap::Args;
use game_core::Game;
use game_core::content::Content;
use game_core::game::Event;
use game_core::game::events::Who;
use rayon::iter::{IntoParallelIterator as _, ParallelIterator as _};

use crate::commands::args::ContentArgs;
use crate::inspect::condition::Condition;
use crate::inspect::state_view;
use crate::plumbing::error::CommandResult;
use crate::plumbing::exit::Exit;
use crate::replay::timeline::Timeline;
use crate::replay::{self, Verdict};

#[derive(Args)]
pub struct WhenArgs {
    /// A recording file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// What to look for, over the field paths `deja diff` and `deja show
    /// --state` print: 'player.hp <= 5', 'monsters[kind=orc].awake'
    /// (--help says the whole syntax).
    #[arg(value_name = "CONDITION")]
    pub condition: String,
    /// List every step at which the condition comes to hold, not only the
    /// first (without frames).
    #[arg(long)]
    pub all: bool,
    /// Frame size, WIDTHxHEIGHT.
    #[arg(long, default_value = "80x24", value_parser = crate::play::frames::parse_frame_size)]
    pub size: (u16, u16),
    #[command(flatten)]
    pub content: ContentArgs,
}

/// Events of a key listed at most; the count of the rest is said.
const EVENTS_SHOWN: usize = 12;

pub fn run(args: WhenArgs) -> CommandResult {
    let condition = Condition::parse(&args.condition).map_err(|e| {
        // The condition again (around the column, escaped) with a caret
        // under the column.
        let (line, caret) = crate::plumbing::printable::with_caret(&args.condition, e.column, 72);
        format!(
            "the condition, column {}: {}\n  {line}\n  {caret}",
            e.column, e.message
        )
    })?;
    let recording = crate::recording::read(&args.file)?;
    let content = super::load_content(&args.content)?;
    let name = crate::plumbing::printable::path(&args.file);
    replay::warn(&name, &recording, &content);
    let timeline =
        Timeline::build(recording, content.clone()).map_err(|e| format!("{name}: {e}"))?;
    match &timeline.verdict {
        Verdict::Same | Verdict::Fixed { .. } | Verdict::Reproduced { .. } => {}
        other => crate::plumbing::output::err(format_args!(
            "warning: {name}: this build does not replay the recorded run ({}); the steps are the game as this build plays it",
            other
        )),
    }
    let holds = holds_at_every_step(&timeline, &condition, &content);
    let begins: Vec<u64> = (0..holds.len())
        .filter(|&step| holds[step] && (step == 0 || !holds[step - 1]))
        .map(|step| step as u64)
        .collect();
    let last = timeline.marks.last;
    let Some(&first) = begins.first() else {
        crate::plumbing::output::out(format_args!(
            "{name}: `{}` never holds, from step 0 to {last}",
            args.condition
        ))?;
        return Ok(Exit::Drift);
    };
    if args.all {
        crate::plumbing::output::out(format_args!(
            "{name}: `{}` comes to hold {} {} in steps 0 to {last}",
            args.condition,
            begins.len(),
            if begins.len() == 1 { "time" } else { "times" }
        ))?;
        for &step in &begins {
            for line in account(&timeline, &condition, &content, step) {
                crate::plumbing::output::out(line)?;
            }
        }
    } else {
        for line in account(&timeline, &condition, &content, first) {
            crate::plumbing::output::out(line)?;
        }
        let game = timeline.game_at(first);
        let key = timeline
            .key_at(first)
            .map_or_else(|| "the start".to_string(), |key| format!("key {key}"));
        crate::plumbing::output::out(format_args!("--- {name} at step {first} ({key}) ---"))?;
        crate::plumbing::output::out(format_args!(
            "{}",
            game.frame(args.size.0, args.size.1).to_text()
        ))?;
    }
    Ok(Exit::Ok)
}

/// Whether the condition holds at each step from 0 to the last shown.
fn holds_at_every_step(timeline: &Timeline, condition: &Condition, content: &Content) -> Vec<bool> {
    let stretches: Vec<Vec<bool>> = (0..timeline.keyframe_count())
        .into_par_iter()
        .map(|segment| {
            let mut holds = Vec::with_capacity(timeline.spacing() as usize);
            timeline.walk_segment(segment, |_, game| {
                holds.push(condition.holds(game.state(), content));
            });
            holds
        })
        .collect();
    stretches.concat()
}

/// What happened at `step`, where the condition came to hold: the step,
/// key and turn, the fields it reads before and after, the key's messages
/// and the events of its record that matter.
fn account(
    timeline: &Timeline,
    condition: &Condition,
    content: &Content,
    step: u64,
) -> Vec<String> {
    let after_game = timeline.game_at(step);
    let turn = after_game.state().clock.turn();
    let Some(key) = timeline.key_at(step) else {
        let mut lines = vec![format!(
            "step 0 (the start, turn {turn}): it holds from the start"
        )];
        for reading in condition.readings(after_game.state(), content) {
            lines.push(format!("  {}: {}", reading.path, reading.text()));
        }
        return lines;
    };
    let mut lines = vec![format!(
        "step {step} (key {key}, turn {turn}): it comes to hold"
    )];
    let mut before = timeline.game_at(step - 1);
    let previous = before.clone();
    let outcome = crate::run::runner::catch_panic(|| before.press(key))
        .ok()
        .and_then(Result::ok);
    let after = condition.readings(after_game.state(), content);
    for (was, now) in condition
        .readings(previous.state(), content)
        .iter()
        .zip(&after)
    {
        let change = now.change_from(was).unwrap_or_else(|| now.text());
        lines.push(format!("  {}: {change}", now.path));
    }
    let Some(outcome) = outcome else {
        return lines;
    };
    for message in &outcome.messages {
        lines.push(format!("  the game says: {message}"));
    }
    let name = |who: Who| creature(&previous, &after_game, who);
    let events: Vec<String> = outcome
        .events
        .iter()
        .filter(|event| tells(event))
        .map(|event| describe_event(event, content, name))
        .collect();
    for event in events.iter().take(EVENTS_SHOWN) {
        lines.push(format!("  the record: {event}"));
    }
    if events.len() > EVENTS_SHOWN {
        lines.push(format!(
            "  the record: ... and {} more events",
            events.len() - EVENTS_SHOWN
        ));
    }
    lines
}

/// Whether an event says something a person asking `when` wants: what hit,
/// hurt, healed, poisoned, moved an item or the player between floors, not
/// the clock's bookkeeping or each step walked.
fn tells(event: &Event) -> bool {
    !matches!(
        event,
        Event::PlayerActed { .. }
            | Event::MonsterTurn { .. }
            | Event::Round
            | Event::Lurch { .. }
            | Event::Step { .. }
            | Event::Named { .. }
    )
}

/// "the player", "the giant newt #3": the monster as the state before the
/// key knew it (it may have died in it), else after.
fn creature(before: &Game, after: &Game, who: Who) -> String {
    match who {
        Who::Player => "the player".into(),
        Who::Monster(id) => [before, after]
            .iter()
            .find_map(|game| {
                game.state().monsters.iter().find(|m| m.id == id).map(|m| {
                    format!(
                        "the {}",
                        state_view::monster_name(game.content(), m.kind, id.0)
                    )
                })
            })
            .unwrap_or_else(|| format!("monster #{}", id.0)),
    }
}
