//! A scripted game: fight a giant newt and get poisoned, read a scroll of
//! confusion at a goblin, throw darts at it, kill it, then explore to the
//! stairs and descend. Every key is checked against every turn invariant.

mod support;

use game_core::geom::Pos;
use game_core::map::Tile;
use support::{edit, free_neighbour, give, new_game, place_monster, press, said, slot_of};

const SEED: u64 = 11;

/// The direction key from `from` toward an adjacent `to`.
fn key_toward(from: Pos, to: Pos) -> &'static str {
    match (to.x - from.x, to.y - from.y) {
        (0, -1) => "k",
        (1, -1) => "u",
        (1, 0) => "l",
        (1, 1) => "n",
        (0, 1) => "j",
        (-1, 1) => "b",
        (-1, 0) => "h",
        (-1, -1) => "y",
        other => panic!("{from} and {to} are not adjacent: {other:?}"),
    }
}

/// Drinks a healing potion, if there is one, when hit points run low.
fn heal_if_low(game: &mut game_core::Game) {
    let state = game.state();
    if state.player.hp > state.player.max_hp / 2 {
        return;
    }
    let potion = state
        .player
        .pack
        .slots()
        .find(|(_, s)| game.content().item(s.item).name == "potion of healing")
        .map(|(slot, _)| char::from(b'a' + slot));
    if let Some(letter) = potion {
        press(game, &format!("a{letter}"));
    }
}

#[test]
fn fight_get_poisoned_read_throw_and_descend() {
    let game = new_game(SEED);
    let start = game.state().player.pos;
    let mut scroll = ' ';
    let mut darts = ' ';
    let mut game = edit(&game, |state, content| {
        let (_, newt_at) = free_neighbour(state, start);
        place_monster(state, content, "giant newt", newt_at);
        scroll = give(state, content, "scroll of confusion", 1);
        // The starting kit holds five darts.
        darts = slot_of(state, content, "dart");
    });
    let newt = game.state().monsters.last().expect("the newt").id;
    let newt_at = game.state().monsters.last().expect("the newt").pos;

    // Stand and take the newt's bites until one poisons.
    for _ in 0..60 {
        if game.state().player.statuses.is_poisoned() {
            break;
        }
        press(&mut game, ".");
    }
    assert!(
        game.state().player.statuses.is_poisoned(),
        "the newt never poisoned the player"
    );
    assert!(said(&game, "You are poisoned!"));

    // Fight it to the death.
    for _ in 0..60 {
        if !game.state().monsters.iter().any(|m| m.id == newt) {
            break;
        }
        let key = key_toward(game.state().player.pos, newt_at);
        press(&mut game, key);
    }
    assert!(
        said(&game, "You kill the giant newt."),
        "{:?}",
        game.state().log.messages()
    );
    assert_eq!(game.state().kills, 1);

    // A goblin three steps away in the open: read confusion at it, then throw.
    let player = game.state().player.pos;
    let goblin_at = game
        .state()
        .floor
        .map
        .walkable_cells()
        .filter(|&p| game.state().floor.map.is_visible(p) && p.chebyshev(player) == 3)
        .find(|&p| {
            game_core::paths::astar(&game.state().floor.map, player, p, 100)
                .is_some_and(|r| r.len() == 3)
        })
        .expect("an open tile three steps away in view");
    let mut game = edit(&game, |state, content| {
        place_monster(state, content, "goblin", goblin_at);
    });
    let goblin = game.state().monsters.last().expect("the goblin").id;

    let read = press(&mut game, &format!("a{scroll}<Enter>"));
    assert_eq!(read.turns, 1);
    assert!(said(&game, "You read a scroll of confusion at the goblin."));
    let goblin_state = |game: &game_core::Game| {
        game.state()
            .monsters
            .iter()
            .find(|m| m.id == goblin)
            .cloned()
    };
    assert!(
        goblin_state(&game).is_some_and(|g| g.statuses.is_confused()),
        "the goblin is confused"
    );
    assert!(
        !game
            .state()
            .player
            .pack
            .slots()
            .any(|(_, s)| game.content().item(s.item).name == "scroll of confusion")
    );

    let thrown = press(&mut game, &format!("t{darts}<Enter>"));
    assert_eq!(thrown.turns, 1);
    assert!(said(&game, "You throw a dart."));
    assert!(
        said(&game, "The dart hits the goblin") || said(&game, "The dart misses the goblin"),
        "{:?}",
        thrown.messages
    );
    let darts_left: u32 = game
        .state()
        .player
        .pack
        .slots()
        .filter(|(_, s)| game.content().item(s.item).name == "dart")
        .map(|(_, s)| s.count)
        .sum();
    assert_eq!(darts_left, 4, "one of the five starting darts was thrown");

    // Finish the goblin: throw while it is in view and away, strike when next to it.
    for _ in 0..80 {
        heal_if_low(&mut game);
        let Some(g) = goblin_state(&game) else { break };
        let me = game.state().player.pos;
        if me.chebyshev(g.pos) == 1
            && me
                .direction_to(g.pos)
                .is_some_and(|d| game.state().floor.map.can_step(me, d))
        {
            let key = key_toward(me, g.pos);
            press(&mut game, key);
        } else {
            press(&mut game, ".");
        }
    }
    assert!(goblin_state(&game).is_none(), "the goblin still lives");

    // Explore to the stairs and descend. The rest of the floor's monsters are
    // cleared first: this part is about auto-explore finding the way down,
    // not about surviving whatever spawned on depth 1.
    let mut game = edit(&game, |state, _| {
        state.monsters.clear();
        state.clock = game_core::game::turn::TurnQueue::new();
    });
    for _ in 0..400 {
        if game.state().floor.map.tile(game.state().player.pos) == Tile::StairsDown {
            break;
        }
        heal_if_low(&mut game);
        press(&mut game, "o");
        assert!(!game.is_over(), "died exploring: {:?}", game.run_end());
    }
    assert_eq!(
        game.state().floor.map.tile(game.state().player.pos),
        Tile::StairsDown
    );
    let descended = press(&mut game, ">");
    assert_eq!(descended.turns, 1);
    assert_eq!(game.state().depth, 2);
    assert!(said(&game, "You descend to depth 2."));
}
