//! The rules of time and of noticing, held by the turn invariants from a
//! key's record: `clock.time` (every action costs a step at the actor's
//! speed, every monster takes each turn it is due, in the player's action it
//! falls in) and `monster.notice` (a monster wakes exactly when the player
//! can see its tile). Each test plays a real key, then tells a lie about it
//! (in the record or the state) that a broken game would tell, and the
//! check must name it; the truth must pass.

mod support;

use checks::{Id, TurnWatch, Violation};
use game_core::game::events::Event;
use game_core::game::turn::Actor;
use game_core::{Game, Key, Outcome};
use support::{edit, new_game, press};

/// Presses `key` on `game`, checked, returning the watch taken before it
/// and what the press returned.
fn played(game: &mut Game, key: &str) -> (TurnWatch, Outcome) {
    let key = Key::parse_all(key).expect("valid notation")[0];
    let before = TurnWatch::before(game, key);
    let outcome = game.press(key).expect("not stuck");
    let found = checks::check_turn(&before, game, &outcome);
    assert!(found.is_empty(), "the true record fails: {found:?}");
    (before, outcome)
}

/// The violations of `id` among what the check finds.
fn broken(before: &TurnWatch, game: &Game, outcome: &Outcome, id: Id) -> Vec<Violation> {
    checks::check_turn(before, game, outcome)
        .into_iter()
        .filter(|v| v.id == id)
        .collect()
}

#[test]
fn an_action_that_costs_other_than_a_step_is_named() {
    let mut game = new_game(1);
    let (before, mut outcome) = played(&mut game, ".");
    for event in &mut outcome.events {
        if let Event::PlayerActed { cost } = event {
            *cost = 50;
        }
    }
    let found = broken(&before, &game, &outcome, Id::ClockTime);
    assert!(
        found.iter().any(|v| v
            .message
            .contains("the player's action cost 50; every action costs 100")),
        "{found:?}"
    );
}

#[test]
fn a_clock_that_moves_by_other_than_the_actions_cost_is_named() {
    let mut game = new_game(1);
    let (before, outcome) = played(&mut game, ".");
    let later = edit(&game, |state, _| {
        let now = state.clock.now();
        state.clock.advance_to(now + 1);
    });
    let found = broken(&before, &later, &outcome, Id::ClockTime);
    let want = format!(
        "the clock reads {} on the player's turn; 1 action from {} at speed 100 bring it to {}",
        before.clock + 101,
        before.clock,
        before.clock + 100
    );
    assert!(found.iter().any(|v| v.message == want), "{found:?}");
}

#[test]
fn a_monster_queued_off_its_speed_or_acting_out_of_its_time_is_named() {
    let mut game = new_game(1);
    press(&mut game, "...");
    let (before, outcome) = played(&mut game, ".");
    let id = game.state().monsters[0].id;
    // Queued a hundredth late: it skipped part of a turn's time.
    let late = edit(&game, |state, _| {
        let at = state
            .clock
            .entries()
            .iter()
            .find(|e| e.actor == Actor::Monster(id))
            .expect("queued")
            .at;
        state.clock.remove(Actor::Monster(id));
        state.clock.schedule(Actor::Monster(id), at + 1);
    });
    let found = broken(&before, &late, &outcome, Id::ClockTime);
    assert!(
        found.iter().any(|v| v.message.contains(" is due at ")),
        "{found:?}"
    );
    // A turn more than its speed gives it, at the end of the player's
    // action: due after the player's next turn.
    let mut extra = outcome.clone();
    let last = extra
        .events
        .iter()
        .rposition(|e| matches!(e, Event::MonsterTurn { id: m } if *m == id))
        .map_or(extra.events.len(), |i| i + 1);
    extra.events.insert(last, Event::MonsterTurn { id });
    extra.events.insert(last + 1, Event::MonsterTurn { id });
    let found = broken(&before, &game, &extra, Id::ClockTime);
    assert!(
        found
            .iter()
            .any(|v| v.message.contains("took its turn due at")),
        "{found:?}"
    );
}

#[test]
fn a_monster_that_notices_from_out_of_view_or_sleeps_in_view_is_named() {
    // Out of view: a monster asleep where the player cannot see it is said
    // to notice the player straight after the player acts.
    let mut game = new_game(1);
    let (before, mut outcome) = played(&mut game, ".");
    let map = &game.state().floor.map;
    let hidden = game
        .state()
        .monsters
        .iter()
        .find(|m| !m.awake && !map.is_visible(m.pos))
        .expect("a monster asleep out of view")
        .id;
    let acted = outcome
        .events
        .iter()
        .position(|e| matches!(e, Event::PlayerActed { .. }))
        .expect("the wait spent a turn");
    outcome
        .events
        .insert(acted + 1, Event::Noticed { id: hidden });
    let woken = edit(&game, |state, _| {
        if let Some(m) = state.monsters.iter_mut().find(|m| m.id == hidden) {
            m.awake = true;
        }
    });
    let found = broken(&before, &woken, &outcome, Id::MonsterNotice);
    assert!(
        found
            .iter()
            .any(|v| v.message.contains("who cannot see its tile")),
        "{found:?}"
    );

    // In view: walk until a monster notices the player, then say it did not
    // and leave it asleep.
    let mut game = new_game(1);
    for _ in 0..400 {
        let (before, outcome) = played(&mut game, "o");
        let Some(at) = outcome
            .events
            .iter()
            .position(|e| matches!(e, Event::Noticed { .. }))
        else {
            continue;
        };
        let Event::Noticed { id } = outcome.events[at] else {
            unreachable!()
        };
        let mut told = outcome.clone();
        told.events.remove(at);
        let asleep = edit(&game, |state, _| {
            if let Some(m) = state.monsters.iter_mut().find(|m| m.id == id) {
                m.awake = false;
            }
        });
        let found = broken(&before, &asleep, &told, Id::MonsterNotice);
        assert!(
            found
                .iter()
                .any(|v| v.message.contains("is asleep")
                    && v.message.contains("though the player at")),
            "{found:?}"
        );
        return;
    }
    panic!("no monster noticed the player in 400 presses of o");
}
