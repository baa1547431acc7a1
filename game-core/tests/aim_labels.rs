//! The tally's name for a key on the reticle says what Enter will do there,
//! as the reticle's hint does: the viewer's status line and the sweep's
//! table of commands show it.

mod support;

use checks::{Aiming, Command, TurnWatch};
use game_core::Key;
use support::{edit, give, new_game, press};

/// The command the tally gives `key` pressed after `keys`, once `items` are
/// in the pack.
fn command_of(items: &[&str], keys: impl Fn(&[char]) -> String, key: Key) -> Command {
    let mut letters = Vec::new();
    let mut game = edit(&new_game(9), |state, content| {
        for item in items {
            letters.push(give(state, content, item, 1));
        }
    });
    press(&mut game, &keys(&letters));
    let before = TurnWatch::before(&game, key);
    let outcome = game.press(key).expect("not stuck");
    checks::key_effect(&before, &game, &outcome.events)
        .expect("a command's key")
        .0
}

#[test]
fn the_aim_is_named_for_what_enter_will_do() {
    let tab = Key::TAB;
    let dart = command_of(&["dart"], |l| format!("t{}", l[0]), tab);
    assert_eq!(dart, Command::Aim(Aiming::Throw));
    assert_eq!(dart.name(), "aim: throw");
    // A dart used from the pack flies as a throw does.
    let used_dart = command_of(&["dart"], |l| format!("a{}", l[0]), tab);
    assert_eq!(used_dart.name(), "aim: throw");
    let scroll = command_of(&["scroll of confusion"], |l| format!("a{}", l[0]), tab);
    assert_eq!(scroll, Command::Aim(Aiming::Read));
    assert_eq!(scroll.name(), "aim: read");
    let look = command_of(&[], |_| ";".into(), tab);
    assert_eq!(look.name(), "aim: look");
}
