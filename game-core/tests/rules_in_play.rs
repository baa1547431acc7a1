//! The rules as a player meets them: poison, confusion, refusals, the pack,
//! screens, the end of a run, and intents as keys.

mod support;

use game_core::frame::Style;
use game_core::game::screens::Screen;
use game_core::game::state::{PACK_SLOTS, Poisoned, RunStatus};
use game_core::geom::Dir;
use game_core::map::Tile;
use game_core::{Aim, Intent, Key, RunEnd, Slot};
use support::{edit, free_neighbour, give, new_game, place_monster, press, said, slot_of};

/// A dose of poison from `source` that bites for `damage` each round.
fn poisoned(source: &str, damage: &str) -> Option<Poisoned> {
    Some(Poisoned {
        rounds: 5,
        damage: damage.parse().expect("valid dice"),
        source: source.into(),
    })
}

#[test]
fn poison_can_kill_and_the_tombstone_names_it() {
    let game = new_game(1);
    let mut game = edit(&game, |state, _| {
        state.player.hp = 1;
        state.player.statuses.poison = poisoned("a giant newt", "1d2");
    });
    let outcome = press(&mut game, ".");
    assert_eq!(
        outcome.ended,
        Some(RunEnd::Died {
            cause: "died of poison from a giant newt".into()
        })
    );
    let tombstone = game.frame(80, 24).to_text();
    assert!(tombstone.contains("REST IN PEACE"), "{tombstone}");
    assert!(
        tombstone.contains("Died of poison from a giant newt"),
        "{tombstone}"
    );
}

#[test]
fn after_death_keys_change_nothing() {
    let game = new_game(1);
    let mut game = edit(&game, |state, _| {
        state.player.hp = 1;
        state.player.statuses.poison = poisoned("a cave spider", "1d1");
    });
    press(&mut game, ".");
    assert!(game.is_over());
    let hash = game.state_hash();
    for keys in ["l", "o", "i", "<Esc>", "Q", "y", ">", "."] {
        let outcome = press(&mut game, keys);
        assert_eq!(outcome.turns, 0);
        assert!(outcome.messages.is_empty());
        assert_eq!(game.state_hash(), hash, "{keys} changed a finished game");
    }
}

/// A player in a dead end: rock on every side but one.
fn player_against_a_wall(seed: u64) -> (game_core::Game, Dir) {
    let game = new_game(seed);
    let state = game.state();
    let map = &state.floor.map;
    let here = state.player.pos;
    let wall = Dir::ALL
        .into_iter()
        .filter(|d| !d.is_diagonal())
        .find(|&d| !map.can_step(here, d));
    match wall {
        Some(dir) => (game, dir),
        None => {
            // Walk north until the wall.
            let mut game = game;
            for _ in 0..100 {
                let s = game.state();
                if !s.floor.map.can_step(s.player.pos, Dir::N) {
                    break;
                }
                press(&mut game, "k");
            }
            (game, Dir::N)
        }
    }
}

#[test]
fn bumping_a_wall_is_free_but_every_confused_step_costs_the_turn() {
    let (mut game, dir) = player_against_a_wall(4);
    let key = game_core::game::screens::key_for_direction(dir).to_string();
    let before = game.state_hash();
    let bump = press(&mut game, &key);
    assert_eq!(bump.turns, 0);
    assert_eq!(game.state_hash(), before, "a plain bump changes nothing");

    // Confused, the same key always spends the turn: a lurch into the wall
    // included, and a bump straight into it too (its dice were rolled; a free
    // bump would reroll them).
    let mut game = edit(&game, |state, _| state.player.statuses.confused = 1000);
    let mut stumbles_into_walls = 0;
    for _ in 0..200 {
        let at = game.state().player.pos;
        let outcome = press(&mut game, &key);
        assert_eq!(
            outcome.turns, 1,
            "a confused step always spends the turn: {:?}",
            outcome.messages
        );
        if outcome
            .messages
            .iter()
            .any(|m| m == "You stumble into the wall.")
        {
            stumbles_into_walls += 1;
            assert_eq!(game.state().player.pos, at);
        }
        // Step back to the wall if the stumble moved us.
        if game.state().player.pos != at {
            game = edit(&game, |state, _| state.player.pos = at);
        }
    }
    assert!(stumbles_into_walls > 0, "no stumble ever hit a wall");
}

#[test]
fn a_confused_monster_stumbling_into_another_attacks_it() {
    let game = new_game(2);
    let start = game.state().player.pos;
    let mut game = edit(&game, |state, content| {
        let (_, a) = free_neighbour(state, start);
        let confused = place_monster(state, content, "ogre", a);
        let (_, b) = free_neighbour(state, a);
        place_monster(state, content, "rat", b);
        if let Some(m) = state.monsters.iter_mut().find(|m| m.id == confused) {
            m.statuses.confused = 1000;
        }
        // The player watches from safety: far from both, out of their way.
        state.player.hp = state.player.max_hp;
    });
    for _ in 0..300 {
        if said(&game, "The ogre hits the rat")
            || said(&game, "The ogre misses the rat")
            || game.is_over()
        {
            break;
        }
        press(&mut game, ".");
        if game.state().player.hp < 10 {
            game = edit(&game, |state, _| state.player.hp = state.player.max_hp);
        }
    }
    assert!(
        said(&game, "The ogre hits the rat") || said(&game, "The ogre misses the rat"),
        "{:#?}",
        game.state().log.messages()
    );
}

#[test]
fn refused_actions_spend_nothing() {
    let mut game = new_game(3);
    let hash = game.state_hash();
    for keys in [">", "g"] {
        let outcome = press(&mut game, keys);
        assert_eq!(outcome.turns, 0, "{keys}");
        assert_eq!(game.state().clock.now(), 0);
    }
    assert!(said(&game, "There are no stairs here."));
    assert!(said(&game, "There is nothing here to pick up."));
    assert_ne!(game.state_hash(), hash, "the refusals are in the log");
}

#[test]
fn esc_closes_every_screen_without_spending_a_turn() {
    let mut game = new_game(5);
    for (keys, depth) in [
        ("i", 1),
        ("ia", 2),
        ("ibt", 3),
        ("a", 1),
        ("t", 1),
        ("tb", 2),
        (";", 1),
        (";lll", 1),
        ("?", 1),
        ("Q", 1),
        ("d", 1),
    ] {
        let clock = game.state().clock.now();
        press(&mut game, keys);
        assert_eq!(
            game.state().screens.len(),
            depth,
            "{keys}: {:?}",
            game.state().screens
        );
        for left in (0..depth).rev() {
            let outcome = press(&mut game, "<Esc>");
            assert_eq!(outcome.turns, 0);
            assert_eq!(game.state().screens.len(), left);
        }
        assert_eq!(game.state().clock.now(), clock, "{keys}");
    }
}

#[test]
fn the_quit_prompt_ends_the_run_only_on_yes() {
    let mut game = new_game(5);
    press(&mut game, "Qx");
    assert_eq!(
        game.state().screens,
        vec![Screen::QuitPrompt],
        "other keys are ignored"
    );
    press(&mut game, "n");
    assert!(game.state().screens.is_empty() && !game.is_over());
    let outcome = press(&mut game, "Qy");
    assert_eq!(outcome.ended, Some(RunEnd::Quit));
}

#[test]
fn the_pack_holds_26_and_stacks_stack() {
    let game = new_game(6);
    let here = game.state().player.pos;
    let mut game = edit(&game, |state, content| {
        // Fill every slot with unstackable short swords.
        let free = PACK_SLOTS - state.player.pack.len();
        for _ in 0..free {
            give(state, content, "short sword", 1);
        }
        let dart = content.item_named("dart").expect("darts");
        let sword = content.item_named("short sword").expect("swords");
        state.items.push(game_core::game::state::FloorItem {
            item: dart,
            count: 3,
            pos: here,
            seen: true,
        });
        state.items.push(game_core::game::state::FloorItem {
            item: sword,
            count: 1,
            pos: here,
            seen: true,
        });
    });
    assert_eq!(game.state().player.pack.len(), PACK_SLOTS);
    let darts_before = game
        .state()
        .player
        .pack
        .slots()
        .find(|(_, s)| game.content().item(s.item).name == "dart")
        .map(|(_, s)| s.count);
    let outcome = press(&mut game, "g");
    assert_eq!(
        outcome.turns, 1,
        "darts stack onto the darts already carried"
    );
    let darts_after = game
        .state()
        .player
        .pack
        .slots()
        .find(|(_, s)| game.content().item(s.item).name == "dart")
        .map(|(_, s)| s.count);
    assert_eq!(darts_after, darts_before.map(|n| n + 3));
    let outcome = press(&mut game, "g");
    assert_eq!(outcome.turns, 0);
    assert!(said(&game, "Your pack is full."));
}

#[test]
fn healing_never_goes_above_the_maximum() {
    let game = new_game(7);
    let mut game = edit(&game, |state, _| state.player.hp = state.player.max_hp - 1);
    let potion = slot_of(game.state(), game.content(), "potion of healing");
    let outcome = press(&mut game, &format!("a{potion}"));
    assert_eq!(outcome.turns, 1);
    assert_eq!(game.state().player.hp, game.state().player.max_hp);
}

#[test]
fn magic_mapping_reveals_the_floor_and_teleport_moves_the_reader() {
    let game = new_game(8);
    let mut game = edit(&game, |state, content| {
        give(state, content, "scroll of magic mapping", 1);
        give(state, content, "scroll of teleportation", 1);
    });
    let mapping = slot_of(game.state(), game.content(), "scroll of magic mapping");
    press(&mut game, &format!("a{mapping}"));
    let map = &game.state().floor.map;
    assert_eq!(map.revealed.count(), map.len());
    let before = game.state().player.pos;
    let teleport = slot_of(game.state(), game.content(), "scroll of teleportation");
    press(&mut game, &format!("a{teleport}"));
    assert_ne!(game.state().player.pos, before);
    assert!(said(&game, "You are yanked elsewhere."));
}

#[test]
fn wielding_and_wearing_change_the_fight() {
    let game = new_game(9);
    let mut game = edit(&game, |state, content| {
        give(state, content, "short sword", 1);
        give(state, content, "leather armour", 1);
    });
    let sword = slot_of(game.state(), game.content(), "short sword");
    let armour = slot_of(game.state(), game.content(), "leather armour");
    press(&mut game, &format!("w{sword}"));
    press(&mut game, &format!("i{armour}w"));
    let player = &game.state().player;
    assert!(player.wielded.is_some() && player.worn.is_some());
    assert!(said(&game, "You wield a short sword."));
    assert!(said(&game, "You put on a leather armour."));
    let again = press(&mut game, &format!("w{sword}"));
    assert_eq!(again.turns, 0, "wielding what is wielded is refused");
    // Dropping the sword unwields it.
    press(&mut game, &format!("d{sword}"));
    assert_eq!(game.state().player.wielded, None);
}

#[test]
fn taking_the_exit_wins_and_shows_the_victory_screen() {
    let game = new_game(10);
    let goal = game.state().floor.goal;
    let game = edit(&game, |state, _| {
        state.depth = game_core::mapgen::LAST_DEPTH;
        state.floor.map.set(goal, Tile::Exit);
        state.player.pos = goal;
    });
    let mut game = game;
    let outcome = press(&mut game, ">");
    assert_eq!(outcome.ended, Some(RunEnd::Won));
    assert!(matches!(game.state().status, RunStatus::Won { .. }));
    let frame = game.frame(40, 12).to_text();
    assert!(frame.contains("YOU ESCAPED"), "{frame}");
}

#[test]
fn intents_are_carried_out_by_their_keys() {
    let intents = [
        Intent::Step(Dir::E),
        Intent::Wait,
        Intent::Use {
            slot: Slot::new(0),
            aim: Aim::Nearest,
        },
        Intent::Throw {
            slot: Slot::new(1),
            aim: Aim::Offset { dx: 3, dy: -2 },
        },
        Intent::Throw {
            slot: Slot::new(7),
            aim: Aim::Cycle(2),
        },
        Intent::Wear { slot: Slot::new(0) },
        Intent::Drop { slot: Slot::new(1) },
        Intent::PickUp,
        Intent::AutoExplore,
        Intent::Run(Dir::W),
        Intent::Descend,
    ];
    let mut by_intent = new_game(12);
    let mut by_keys = new_game(12);
    for intent in intents {
        let keys = by_intent.keys_for(&intent);
        let applied = by_intent.apply(&intent).expect("not stuck");
        let mut pressed_turns = 0;
        for key in &keys {
            pressed_turns += by_keys.press(*key).expect("not stuck").turns;
        }
        assert_eq!(
            applied.turns,
            pressed_turns,
            "{intent:?} as {}",
            Key::format_all(&keys)
        );
        assert_eq!(by_intent.state_hash(), by_keys.state_hash(), "{intent:?}");
        assert!(
            by_intent.state().screens.is_empty()
                || matches!(by_intent.state().screens.last(), Some(Screen::Reticle(_))),
            "{intent:?} left {:?}",
            by_intent.state().screens
        );
    }
}

#[test]
fn an_intent_that_cannot_happen_leaves_no_screen_open() {
    let mut game = new_game(13);
    for intent in [
        Intent::Throw {
            slot: Slot::new(0),
            aim: Aim::Nearest,
        },
        Intent::Wear { slot: Slot::new(0) },
        Intent::Drop {
            slot: Slot::new(20),
        },
        Intent::Use {
            slot: Slot::new(25),
            aim: Aim::Nearest,
        },
    ] {
        let outcome = game.apply(&intent).expect("not stuck");
        assert_eq!(outcome.turns, 0, "{intent:?}");
        assert!(
            game.state().screens.is_empty(),
            "{intent:?} left {:?}",
            game.state().screens
        );
    }
}

#[test]
fn frames_draw_at_every_size_and_the_camera_clamps() {
    let mut game = new_game(14);
    press(&mut game, "oo");
    for (w, h) in [(20, 8), (21, 9), (40, 15), (80, 24), (120, 50), (300, 100)] {
        let frame = game.frame(w, h);
        assert_eq!((frame.width(), frame.height()), (w, h));
        let text = frame.to_text();
        assert_eq!(text.matches('@').count(), 1, "{w}x{h}:\n{text}");
        assert!(
            text.lines().any(|l| l.contains("HP")),
            "{w}x{h}: no status line"
        );
    }
    // Smaller than the minimum: a notice, not a panic.
    assert!(game.frame(10, 4).to_text().contains("Needs"));
    // Remembered tiles are styled apart from tiles in view.
    let frame = game.frame(80, 24);
    let styles: Vec<Style> = frame.cells().iter().map(|c| c.style).collect();
    assert!(styles.contains(&Style::Floor));
    assert!(styles.contains(&Style::Player));
}

#[test]
fn the_status_line_names_poison_and_confusion() {
    let game = new_game(15);
    let game = edit(&game, |state, _| {
        state.player.statuses.confused = 3;
        state.player.statuses.poison = poisoned("a rat", "1d2");
    });
    let wide = game.frame(80, 24).to_text();
    assert!(wide.contains("Poisoned  Confused"), "{wide}");
    let narrow = game.frame(20, 8).to_text();
    assert!(narrow.contains("Psn Cnf"), "{narrow}");
}

#[test]
fn monsters_are_drawn_only_where_the_player_can_see() {
    let game = new_game(16);
    let map = &game.state().floor.map;
    let hidden = map
        .walkable_cells()
        .find(|&p| !map.is_visible(p) && p.chebyshev(game.state().player.pos) > 12)
        .expect("a floor tile out of sight");
    let game = edit(&game, |state, content| {
        state.monsters.clear();
        state.clock = game_core::game::turn::TurnQueue::new();
        place_monster(state, content, "troll", hidden);
    });
    let frame = game.frame(200, 60);
    assert!(
        !frame.cells().iter().any(|c| c.style == Style::Monster),
        "an unseen troll was drawn:\n{}",
        frame.to_text()
    );
    // In view, it is drawn.
    let player = game.state().player.pos;
    let game = edit(&game, |state, _| {
        let (_, near) = free_neighbour(state, player);
        state.monsters[0].pos = near;
    });
    let frame = game.frame(200, 60);
    assert!(
        frame
            .cells()
            .iter()
            .any(|c| c.style == Style::Monster && c.glyph == 'T')
    );
}

#[test]
fn auto_explore_stops_only_for_a_reason_and_explores_the_floor() {
    // No monsters, so nothing but items, the stairs and the floor's end can
    // stop the walk.
    let game = new_game(17);
    let mut game = edit(&game, |state, _| {
        state.monsters.clear();
        state.clock = game_core::game::turn::TurnQueue::new();
    });
    let seen = |game: &game_core::Game| game.state().items.iter().filter(|i| i.seen).count();
    for _ in 0..200 {
        let items_before = seen(&game);
        let outcome = press(&mut game, "o");
        if outcome.turns == 0 {
            break;
        }
        let state = game.state();
        let here = state.player.pos;
        let on_something = state.items.iter().any(|i| i.pos == here)
            || matches!(state.floor.map.tile(here), Tile::StairsDown);
        assert!(
            on_something || seen(&game) > items_before,
            "auto-explore stopped for no reason at {here}: {:?}",
            outcome.messages
        );
    }
    let map = &game.state().floor.map;
    let unexplored = map
        .walkable_cells()
        .filter(|&p| !map.is_revealed(p))
        .count();
    assert_eq!(unexplored, 0, "auto-explore left walkable tiles unseen");
    assert_eq!(
        game.state().player.pos,
        game.state().floor.goal,
        "and ends on the stairs"
    );
}

#[test]
fn a_turn_that_cannot_finish_is_reported_as_stuck_not_a_hang() {
    use game_core::content::{Content, EMBEDDED_ITEMS, EMBEDDED_MONSTERS, Source};
    use game_core::game::MAX_ACTIVATIONS;
    use std::sync::Arc;

    // Rats at four times normal speed act four times a turn; enough of them
    // need more than MAX_ACTIVATIONS actions before the player's turn comes
    // round, and the loop must say so instead of running on.
    let fast = EMBEDDED_MONSTERS.replacen("speed: 100", "speed: 400", 1);
    assert!(fast.contains("speed: 400"));
    let content = Arc::new(
        Content::parse(
            Source {
                file: "monsters.ron",
                text: &fast,
            },
            Source {
                file: "items.ron",
                text: EMBEDDED_ITEMS,
            },
        )
        .expect("valid content"),
    );
    let fast_one = content
        .monsters()
        .iter()
        .find(|m| m.speed == 400)
        .map(|m| m.name.clone())
        .expect("the fast monster");
    let config = game_core::GameConfig::new(21)
        .with_content(content)
        .with_size(256, 256);
    let game = game_core::Game::new(config).expect("valid size");
    let needed = (MAX_ACTIVATIONS / 4 + 100) as usize;
    let mut game = edit(&game, |state, content| {
        state.monsters.clear();
        state.clock = game_core::game::turn::TurnQueue::new();
        // Out of sight, so they stay asleep and only wait: cheap, and still
        // in the queue.
        let player = state.player.pos;
        let free: Vec<_> = state
            .floor
            .map
            .walkable_cells()
            .filter(|&p| p.chebyshev(player) > game_core::fov::SIGHT_RADIUS + 2)
            .take(needed)
            .collect();
        assert_eq!(free.len(), needed, "room for the horde");
        for pos in free {
            place_monster(state, content, &fast_one, pos);
        }
        for m in &mut state.monsters {
            m.awake = false;
        }
    });
    // The horde is placed to act a step from now, all at once, then four
    // times a turn: the second turn is the one that cannot finish.
    let stuck = (0..3)
        .find_map(|_| game.press(Key::char('.')).err())
        .expect("a turn that cannot finish");
    assert_eq!(stuck.loop_name, "turn");
    assert!(
        stuck.detail.contains(&MAX_ACTIVATIONS.to_string()),
        "{stuck}"
    );
    // Pressing on resumes the loop where it stopped (it never lets the player
    // act out of turn): the stalled turn finishes, the wait is taken, and the
    // next turn is too long again.
    let clock = game.state().clock.now();
    let turns = game.state().turns_taken;
    let again = game.press(Key::char('.'));
    assert!(again.is_err(), "the next turn is just as long");
    assert!(
        game.state().clock.now() > clock,
        "the resumed loop made progress"
    );
    assert_eq!(
        game.state().turns_taken,
        turns + 1,
        "the wait was taken once"
    );
}

#[test]
fn a_floor_is_the_same_whether_descended_to_or_started_on() {
    let game = new_game(23);
    let goal = game.state().floor.goal;
    let mut descended = edit(&game, |state, _| {
        state.monsters.clear();
        state.clock = game_core::game::turn::TurnQueue::new();
        state.player.pos = goal;
    });
    press(&mut descended, ">");
    assert_eq!(descended.state().depth, 2);
    let started =
        game_core::Game::new_at_depth(game_core::GameConfig::new(23), 2).expect("valid depth");
    let (a, b) = (descended.state(), started.state());
    assert_eq!(a.floor.map.tiles(), b.floor.map.tiles());
    assert_eq!(a.floor.goal, b.floor.goal);
    let spawns = |s: &game_core::game::state::GameState| {
        (
            s.monsters
                .iter()
                .map(|m| (m.kind, m.pos))
                .collect::<Vec<_>>(),
            s.items.iter().map(|i| (i.item, i.pos)).collect::<Vec<_>>(),
        )
    };
    assert_eq!(spawns(a), spawns(b));
    assert!(game_core::Game::new_at_depth(game_core::GameConfig::new(23), 7).is_err());
}

#[test]
fn a_scene_with_two_creatures_on_one_tile_is_refused_by_name() {
    let game = new_game(24);
    let player = game.state().player.pos;
    let mut state = game.state().clone();
    place_monster(&mut state, game.content(), "rat", player);
    let err = game_core::Game::from_state(state, game.content().clone()).expect_err("overlap");
    let text = err.to_string();
    assert!(
        text.contains("entity.overlap: the player and monster"),
        "{text}"
    );
    assert!(text.contains("(rat) both stand at"), "{text}");
}
