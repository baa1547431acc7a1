//! The smallest frames (20x8 and near it) cut nothing without saying so:
//! the status line keeps depth, hit points and statuses, a long message is
//! read from its start, boxes keep a footer that fits and count the rows
//! they leave out, the reticle's hint fits, and the end screens keep the
//! cause. And any state reached by keys draws at any size.

mod support;

use game_core::Game;
use game_core::game::state::{Death, Poisoned, RunStatus};
use proptest::prelude::*;
use support::{edit, new_game, press};

fn frame_rows(game: &Game, width: u16, height: u16) -> Vec<String> {
    let text = game.frame(width, height).to_text();
    let rows: Vec<String> = text.lines().map(str::to_string).collect();
    for row in &rows {
        assert!(row.chars().count() <= usize::from(width), "{text}");
    }
    rows
}

fn shows(rows: &[String], wanted: &str) -> bool {
    rows.iter().any(|r| r.contains(wanted))
}

#[test]
fn the_compact_status_line_drops_the_turn_before_a_status() {
    let game = edit(&new_game(15), |state, _| {
        state.depth = 6;
        state.player.hp = 999;
        state.player.max_hp = 999;
        state.player.statuses.confused = 3;
        state.player.statuses.poison = Some(Poisoned {
            rounds: 5,
            damage: "1d2".parse().expect("valid dice"),
            source: "a rat".into(),
        });
    });
    let rows = frame_rows(&game, 20, 8);
    // Row 6 of 8: six map rows, the status line, one message row.
    assert_eq!(rows[6].trim_end(), "D6 HP999/999 Psn Cnf", "{rows:#?}");
    let wide = frame_rows(&game, 40, 8);
    assert!(wide[6].contains("T0"), "{wide:#?}");
}

#[test]
fn a_long_newest_message_is_read_from_its_start() {
    let game = edit(&new_game(15), |state, _| {
        let turn = state.clock.turn();
        state.log.push(
            turn,
            "The giant newt bites you and you feel very sick all of a sudden.".into(),
        );
    });
    let rows = frame_rows(&game, 20, 8);
    let last = rows.last().expect("eight rows");
    assert!(last.starts_with("The giant newt"), "{rows:#?}");
    assert!(last.ends_with("..."), "{rows:#?}");
    // With room for it, the whole message is shown, uncut, and the older
    // message above it is read from its start too.
    let tall = frame_rows(&game, 40, 24);
    let text = tall[22..].join(" ");
    assert!(
        text.contains("The giant newt bites") && text.contains("sudden."),
        "{tall:#?}"
    );
    assert!(!text.contains("..."), "{tall:#?}");
    assert!(
        tall[21].starts_with("Welcome to the Undercroft."),
        "{tall:#?}"
    );
}

#[test]
fn boxes_keep_a_footer_that_fits_and_count_what_they_leave_out() {
    let mut game = new_game(15);
    press(&mut game, "i");
    let pack = frame_rows(&game, 20, 8);
    assert!(shows(&pack, " Esc: close "), "{pack:#?}");
    let wide = frame_rows(&game, 80, 24);
    assert!(shows(&wide, " letter: choose  Esc: close "), "{wide:#?}");

    // A title too long for the box ends in "...".
    press(&mut game, "a");
    let menu = frame_rows(&game, 20, 8);
    assert!(shows(&menu, "+- A potion of ... +"), "{menu:#?}");

    let mut game = new_game(15);
    press(&mut game, "Q");
    let quit = frame_rows(&game, 20, 8);
    assert!(shows(&quit, " y: quit n: stay "), "{quit:#?}");

    let mut game = new_game(15);
    press(&mut game, "?");
    let help = frame_rows(&game, 20, 8);
    assert!(shows(&help, "hjklyubn"), "{help:#?}");
    let hidden: usize = help
        .iter()
        .find_map(|r| r.split_once('(')?.1.split_once(" more lines)"))
        .unwrap_or_else(|| panic!("no '(N more lines)' row:\n{help:#?}"))
        .0
        .parse()
        .expect("a count");
    assert!(hidden > 0, "{help:#?}");
    // On a narrow frame the text goes under its key rather than into a
    // sliver beside it.
    assert!(shows(&help, "  move or attack"), "{help:#?}");
    let tall = frame_rows(&game, 80, 30);
    assert!(
        !tall.iter().any(|r| r.contains(" more lines)")),
        "{tall:#?}"
    );
    assert!(shows(&tall, "- quit "), "{tall:#?}");
}

#[test]
fn the_reticle_hint_fits_the_width() {
    let mut game = new_game(15);
    press(&mut game, ";");
    let rows = frame_rows(&game, 20, 12);
    assert_eq!(rows[11].trim_end(), "Tab: next  Esc: done", "{rows:#?}");
    let wide = frame_rows(&game, 80, 24);
    assert_eq!(
        wide[23].trim_end(),
        "move: look  Tab: next  Esc: done",
        "{wide:#?}"
    );
}

#[test]
fn the_tombstone_keeps_its_cause_on_the_smallest_frame() {
    let game = edit(&new_game(15), |state, _| {
        state.player.hp = 0;
        state.status = RunStatus::Died(Death {
            cause: "killed by a giant newt".into(),
            depth: 2,
            turn: 345,
        });
    });
    let rows = frame_rows(&game, 20, 8);
    let text = rows.join("\n");
    for wanted in [
        "REST IN PEACE",
        "Killed by a",
        "giant newt",
        "turn 345.",
        "Kills: 0",
    ] {
        assert!(text.contains(wanted), "{wanted:?} missing:\n{text}");
    }
    assert!(!text.contains("more lines)"), "{text}");
    assert!(shows(&rows, " the run is over "), "{text}");
}

/// Keys a player presses, screens and all.
fn game_keys() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec![
        "h", "j", "k", "l", "y", "u", "b", "n", "L", ".", "o", "o", "g", ">", "i", "a", "t", "w",
        "d", ";", "?", "m", "Q", "n", "<Esc>", "<End>", "<PgDn>", "<Tab>", "<S-Tab>", "<Enter>",
        "a", "b",
    ]);
    prop::collection::vec(key, 0..60).prop_map(|keys| keys.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever screen or ending the keys reach, a frame of any size from
    /// the smallest draws without panicking, at the size asked, with the
    /// status line (or the ending's box) on it.
    #[test]
    fn any_state_draws_at_any_size(
        seed in 1u64..400,
        keys in game_keys(),
        sizes in prop::collection::vec((20u16..=130, 8u16..=60), 1..6),
    ) {
        let mut game = new_game(seed);
        press(&mut game, &keys);
        for (width, height) in sizes.into_iter().chain([(20, 8)]) {
            let frame = game.frame(width, height);
            prop_assert_eq!((frame.width(), frame.height()), (width, height));
            let text = frame.to_text();
            let drawn = if game.is_over() {
                text.contains("+-")
            } else {
                text.lines().any(|row| row.starts_with('D'))
            };
            prop_assert!(drawn, "seed {} keys {:?} at {}x{}:\n{}", seed, keys, width, height, text);
        }
    }
}
