//! The message log as a player follows it: a repeat merges into one line
//! with its count, what the latest key said is bright and the rest dim, the
//! history screen lists what the main screen has lost and scrolls, the help
//! scrolls where it does not fit, and a walk that stops for an item says
//! which.

mod support;

use game_core::Game;
use game_core::frame::Style;
use game_core::game::screens::Screen;
use support::{edit, free_neighbour, new_game, place_monster, press};

/// The row of `game`'s frame at this size that contains `text`, and the
/// style of its first character there.
fn row_with(game: &Game, width: u16, height: u16, text: &str) -> Option<(u16, Style)> {
    let frame = game.frame(width, height);
    (0..frame.height()).find_map(|y| {
        let row = frame.row_text(y);
        let at = row.find(text)?;
        let column = row[..at].chars().count() as u16;
        Some((y, frame.get(column, y)?.style))
    })
}

fn rows_with(game: &Game, width: u16, height: u16, text: &str) -> usize {
    let frame = game.frame(width, height);
    (0..frame.height())
        .filter(|&y| frame.row_text(y).contains(text))
        .count()
}

/// Whether a box over the map (above the status line and `messages`
/// message rows) lists a line that reads exactly `text` between its
/// borders.
fn listed(game: &Game, width: u16, height: u16, messages: u16, text: &str) -> bool {
    let frame = game.frame(width, height);
    (0..height - 1 - messages).any(|y| {
        let row = frame.row_text(y);
        row.split('|')
            .nth(1)
            .is_some_and(|inside| inside.trim() == text)
    })
}

/// A fresh run with a rat beside the player, so `o` is refused.
fn rat_in_view(seed: u64) -> Game {
    edit(&new_game(seed), |state, content| {
        let (_, at) = free_neighbour(state, state.player.pos);
        place_monster(state, content, "rat", at);
        state.log.push(0, "You see a rat.".into());
    })
}

#[test]
fn a_repeated_refusal_is_one_line_with_its_count_and_the_line_above_stays() {
    let mut game = rat_in_view(5);
    for _ in 0..3 {
        let outcome = press(&mut game, "o");
        // Each press still reports what it said, merged or not.
        assert_eq!(outcome.messages, vec!["Not with a monster in view."]);
    }
    let log = game.state().log.messages();
    let newest = log.back().expect("something was said");
    assert_eq!(
        (newest.text.as_str(), newest.count),
        ("Not with a monster in view.", 3)
    );
    assert_eq!(
        rows_with(&game, 80, 24, "Not with a monster in view."),
        1,
        "{}",
        game.frame(80, 24).to_text()
    );
    assert!(
        row_with(&game, 80, 24, "Not with a monster in view. (x3)").is_some(),
        "{}",
        game.frame(80, 24).to_text()
    );
    assert!(
        row_with(&game, 80, 24, "You see a rat.").is_some(),
        "the line before the repeats stays on screen:\n{}",
        game.frame(80, 24).to_text()
    );
}

#[test]
fn this_keys_messages_are_bright_and_older_ones_dim() {
    let mut game = rat_in_view(5);
    press(&mut game, "o");
    let refusal = row_with(&game, 80, 24, "Not with a monster in view.");
    let older = row_with(&game, 80, 24, "You see a rat.");
    assert_eq!(refusal.map(|r| r.1), Some(Style::Message));
    assert_eq!(older.map(|r| r.1), Some(Style::OldMessage));
    // A repeat said by this key makes its merged line this key's again.
    press(&mut game, "o");
    let merged = row_with(&game, 80, 24, "Not with a monster in view. (x2)");
    assert_eq!(merged.map(|r| r.1), Some(Style::Message));
    // A key that says nothing leaves every line dim.
    press(&mut game, "i<Esc>");
    let merged = row_with(&game, 80, 24, "Not with a monster in view. (x2)");
    assert_eq!(merged.map(|r| r.1), Some(Style::OldMessage));
    assert_eq!(
        row_with(&game, 80, 24, "You see a rat.").map(|r| r.1),
        Some(Style::OldMessage)
    );
}

#[test]
fn a_key_after_the_run_ended_leaves_the_log_as_it_was() {
    let mut game = new_game(5);
    press(&mut game, "Qy");
    let before = game.state().clone();
    press(&mut game, ".");
    assert_eq!(game.state(), &before);
}

/// A run whose log holds `m0` (oldest) to `m29` (newest).
fn thirty_messages() -> Game {
    edit(&new_game(7), |state, _| {
        state.log = Default::default();
        for i in 0..30 {
            state.log.push(0, format!("m{i}"));
        }
    })
}

fn history_top(game: &Game) -> Option<u16> {
    match game.state().screens.last() {
        Some(Screen::History { top }) => Some(*top),
        _ => None,
    }
}

#[test]
fn the_history_lists_what_left_the_main_screen_newest_first_and_scrolls() {
    let mut game = thirty_messages();
    // 40x12 keeps two message rows, m29 and m28; the box above them has
    // room for seven lines.
    let listed = |game: &Game, text: &str| listed(game, 40, 12, 2, text);
    assert!(row_with(&game, 40, 12, "m27").is_none());
    press(&mut game, "m");
    assert_eq!(history_top(&game), Some(0));
    let (newest, _) = row_with(&game, 40, 12, "m29").expect("the newest is listed");
    let (older, _) = row_with(&game, 40, 12, "m27").expect("an older one is listed");
    assert!(
        newest < older,
        "newest first:\n{}",
        game.frame(40, 12).to_text()
    );
    for shown in ["m29", "m24", "(24 more lines)"] {
        assert!(
            listed(&game, shown),
            "{shown}:\n{}",
            game.frame(40, 12).to_text()
        );
    }
    assert!(!listed(&game, "m23"));

    press(&mut game, "j");
    assert_eq!(history_top(&game), Some(1));
    let text = game.frame(40, 12).to_text();
    for shown in ["(1 line above)", "m28", "m24", "(24 more lines)"] {
        assert!(listed(&game, shown), "{shown}:\n{text}");
    }
    assert!(!listed(&game, "m29"), "{text}");
    press(&mut game, "<Down><PgDn>");
    assert_eq!(history_top(&game), Some(7));
    press(&mut game, "<Up><PgUp>");
    assert_eq!(history_top(&game), Some(1));
    press(&mut game, "k");
    assert_eq!(history_top(&game), Some(0));
    press(&mut game, "k");
    assert_eq!(history_top(&game), Some(0), "never above the first");

    // End goes to the oldest, shown in the last full window; j past it
    // stays there.
    press(&mut game, "<End>");
    assert_eq!(history_top(&game), Some(29));
    let text = game.frame(40, 12).to_text();
    for shown in ["(24 lines above)", "m5", "m1", "m0"] {
        assert!(listed(&game, shown), "{shown}:\n{text}");
    }
    assert!(!text.contains("more line"), "{text}");
    press(&mut game, "j");
    assert_eq!(history_top(&game), Some(29));
    press(&mut game, "<Home>");
    assert_eq!(history_top(&game), Some(0));
    press(&mut game, "<Esc>");
    assert!(game.state().screens.is_empty());
    press(&mut game, "m<Enter>");
    assert!(game.state().screens.is_empty(), "Enter closes it too");
    press(&mut game, "mm");
    assert!(game.state().screens.is_empty(), "so does its own key");
}

#[test]
fn an_empty_history_says_so() {
    let mut game = edit(&new_game(7), |state, _| {
        state.log = Default::default();
    });
    press(&mut game, "m");
    assert!(row_with(&game, 40, 12, "Nothing has been said yet.").is_some());
    press(&mut game, "j");
    assert_eq!(history_top(&game), Some(0));
}

#[test]
fn the_help_scrolls_where_it_does_not_fit() {
    let mut game = new_game(15);
    press(&mut game, "?");
    assert!(row_with(&game, 20, 8, "hjklyubn").is_some());
    assert!(row_with(&game, 20, 8, "quit").is_none());
    press(&mut game, "<End>");
    let text = game.frame(20, 8).to_text();
    assert!(row_with(&game, 20, 8, "quit").is_some(), "{text}");
    assert!(row_with(&game, 20, 8, "lines above)").is_some(), "{text}");
    assert!(row_with(&game, 20, 8, "hjklyubn").is_none(), "{text}");
    press(&mut game, "<Home>j");
    assert_eq!(game.state().screens.last(), Some(&Screen::Help { top: 1 }));
    let text = game.frame(20, 8).to_text();
    assert!(row_with(&game, 20, 8, "HJKLYUBN").is_some(), "{text}");
    assert!(row_with(&game, 20, 8, "hjklyubn").is_none(), "{text}");
    // Where it all fits, a scrolled help still shows every row.
    assert!(row_with(&game, 80, 30, "hjklyubn").is_some());
    assert!(row_with(&game, 80, 30, "message history").is_some());
    press(&mut game, "?");
    assert!(game.state().screens.is_empty());
}

#[test]
fn a_walk_that_stops_for_an_item_says_which() {
    let mut told = 0;
    for seed in 1..40 {
        let mut game = new_game(seed);
        for _ in 0..40 {
            if game.is_over() {
                break;
            }
            let depth = game.state().depth;
            let unseen: Vec<usize> = (0..game.state().items.len())
                .filter(|&i| !game.state().items[i].seen)
                .collect();
            let outcome = press(&mut game, "o");
            if game.state().depth != depth {
                continue;
            }
            for &i in &unseen {
                let item = &game.state().items[i];
                if item.seen {
                    let name = game.content().item(item.item).describe(item.count);
                    let line = format!("You see {name}.");
                    assert!(
                        outcome.messages.contains(&line),
                        "seed {seed}: {line:?} not in {:?}",
                        outcome.messages
                    );
                    told += 1;
                }
            }
        }
    }
    assert!(told > 0, "no walk stopped for an item");
}

#[test]
fn the_scroll_contract_sees_a_screen_that_scrolls_wrong() {
    use checks::{Id, TurnWatch};
    let mut game = thirty_messages();
    press(&mut game, "m");
    let key = game_core::Key::char('j');
    let before = TurnWatch::before(&game, key);
    let outcome = game.press(key).expect("not stuck");
    assert!(checks::check_turn(&before, &game, &outcome).is_empty());
    // The same press, had it scrolled two rows, or not at all.
    for wrong in [2, 0] {
        let scrolled_wrong = edit(&game, |state, _| {
            state.screens = vec![Screen::History { top: wrong }];
        });
        let found = checks::check_turn(&before, &scrolled_wrong, &outcome);
        assert!(
            found.iter().any(|v| v.id == Id::KeyContract),
            "top {wrong}: {found:?}"
        );
    }
}
