//! Every turn invariant, after a key: the clock, the press's outcome, the
//! messages' form, the screens' escape, the record and the key contracts.

use game_core::game::Game;
use game_core::game::Outcome;
use game_core::game::state::RunStatus;
use game_core::keys::Key;

use crate::catalogue::{Id, Violation, violation};
use crate::describe::{Words, describe_top};
use crate::state::check_state;
use crate::watch::TurnWatch;
use crate::{keys, record};

/// Every turn invariant, after the key `before` was taken for: `game` is
/// the state after it and `outcome` what the press returned.
pub fn check_turn(before: &TurnWatch, game: &Game, outcome: &Outcome) -> Vec<Violation> {
    let events = &outcome.events;
    let mut found = check_state(game);
    let now = game.state().clock.now();
    if now < before.clock {
        found.push(violation(
            Id::ClockMonotonic,
            format!("the clock went back from {} to {now}", before.clock),
        ));
    }
    let spent = game.state().turns_taken.saturating_sub(before.turns_taken);
    if spent > 0 && now == before.clock && game.state().status == RunStatus::Playing {
        found.push(violation(
            Id::ClockAdvances,
            format!("{spent} player turns were spent but the clock stayed at {now}"),
        ));
    }
    let drawn = game.state().rng.position() != before.rng;
    if drawn && now == before.clock && game.state().status == RunStatus::Playing {
        found.push(violation(
            Id::RngOnlyWithTime,
            format!("the dice were rolled but the clock stayed at {now}: a free reroll"),
        ));
    }
    found.extend(check_escapable(game));
    found.extend(check_outcome(before, game, outcome));
    found.extend(outcome.messages.iter().find_map(|m| message_form(m)));
    record::check_record(before, game, events, &mut found);
    keys::check_keys(before, game, events, &mut found);
    found
}

/// What a press returns is what happened: the turns it spent, the messages
/// it said, and how the run stands when it has ended.
fn check_outcome(before: &TurnWatch, game: &Game, outcome: &Outcome) -> Option<Violation> {
    let state = game.state();
    let spent = state.turns_taken.wrapping_sub(before.turns_taken);
    let said = state.log.total().saturating_sub(before.log_total);
    // The log's lines written out, each repeat as often as it was said,
    // and the last `said` of them: what the press said.
    let mut newest: Vec<&String> = Vec::new();
    for message in state.log.messages().iter().rev() {
        if newest.len() as u64 >= said {
            break;
        }
        let room = said - newest.len() as u64;
        for _ in 0..message.count.min(room) {
            newest.push(&message.text);
        }
    }
    newest.reverse();
    let ended = match &state.status {
        RunStatus::Playing => None,
        RunStatus::Died(death) => Some(game_core::game::RunEnd::Died {
            cause: death.cause.clone(),
        }),
        RunStatus::Won { .. } => Some(game_core::game::RunEnd::Won),
        RunStatus::Quit { .. } => Some(game_core::game::RunEnd::Quit),
    };
    let problem = if outcome.turns != spent {
        format!(
            "the press says it spent {} turns; {spent} were",
            outcome.turns
        )
    } else if outcome.messages.iter().collect::<Vec<_>>() != newest {
        format!(
            "the press says it said {}; the log's newest {said} are {}",
            quoted(outcome.messages.iter()),
            quoted(newest.iter().copied())
        )
    } else if outcome.ended != ended {
        format!(
            "the press says the run {}, but the run is {}",
            outcome.ended.as_ref().map_or_else(
                || "goes on".into(),
                |end| format!("was {end}", end = end.words())
            ),
            state.status
        )
    } else {
        return None;
    };
    Some(violation(Id::PressOutcome, problem))
}

/// Messages as a report quotes them: `"You hit it.", "It dies."`, or
/// "nothing".
/// What is wrong with `message` as a sentence, if anything. A word the
/// game leaves out ("You  the goblin for 3.") shows here: content
/// names are labels of single-spaced words, never empty, with no space at
/// either end (the content's validation holds them to that).
fn message_form(message: &str) -> Option<Violation> {
    let first = message.chars().next();
    let problem = if first.is_none_or(|c| !(c.is_ascii_uppercase() || c.is_ascii_digit())) {
        "it should start with a capital letter or a digit"
    } else if !message.ends_with(['.', '!', '?']) {
        "it should end with '.', '!' or '?'"
    } else if message.contains("  ") {
        "it has two spaces in a row, where a word is missing"
    } else {
        return None;
    };
    Some(violation(
        Id::MessageForm,
        format!("the key said {message:?}: {problem}"),
    ))
}

fn quoted<'a>(messages: impl Iterator<Item = &'a String>) -> String {
    let quoted: Vec<String> = messages.map(|m| format!("{m:?}")).collect();
    if quoted.is_empty() {
        "nothing".into()
    } else {
        quoted.join(", ")
    }
}

/// Esc on a copy of the game must close exactly the top screen and spend no
/// time.
fn check_escapable(game: &Game) -> Vec<Violation> {
    let depth = game.state().screens.len();
    if depth == 0 || game.is_over() {
        return Vec::new();
    }
    let mut copy = game.clone();
    let clock = copy.state().clock.now();
    let message = match copy.press(Key::ESC) {
        Err(stuck) => Some(format!("Esc got stuck: {stuck}")),
        Ok(outcome) if outcome.turns > 0 || copy.state().clock.now() != clock => {
            Some("Esc spent time".to_string())
        }
        Ok(_) if copy.state().screens.len() + 1 != depth => Some(format!(
            "Esc on {} left {} screens open, not {}",
            describe_top(game.state().screens.last()),
            copy.state().screens.len(),
            depth - 1
        )),
        Ok(_) => None,
    };
    message
        .map(|m| vec![violation(Id::ScreenEscapable, m)])
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_a_sentence_with_every_word() {
        for good in [
            "You hit the goblin for 3.",
            "3 darts lie here.",
            "You climb out of the Undercroft into the light. You win!",
            "Really?",
        ] {
            assert!(message_form(good).is_none(), "{good}");
        }
        for (bad, why) in [
            ("You  the goblin for 3.", "two spaces"),
            ("", "capital"),
            (" You wait.", "capital"),
            ("you wait.", "capital"),
            ("You wait", "end with"),
            ("You wait. ", "end with"),
        ] {
            let found = message_form(bad).expect(bad);
            assert_eq!(found.id, Id::MessageForm);
            assert!(found.message.contains(why), "{bad}: {}", found.message);
        }
    }
}
