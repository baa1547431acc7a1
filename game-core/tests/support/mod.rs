//! Building scenes for tests: start a run, then edit its state (a monster
//! here, an item in the pack) and rebuild the game through
//! `Game::from_state`, which checks the scene like a loaded save.

#![allow(dead_code)] // each test file uses its own part of this

use std::sync::Arc;

use checks::TurnWatch;
use game_core::content::Content;
use game_core::game::state::{GameState, Monster, MonsterRef, Statuses};
use game_core::game::turn::Actor;
use game_core::geom::{Dir, Pos};
use game_core::{Game, GameConfig, Key, Outcome};

pub fn content() -> Arc<Content> {
    Arc::new(Content::embedded())
}

pub fn new_game(seed: u64) -> Game {
    Game::new(GameConfig::new(seed)).expect("the default size is valid")
}

/// Edits a game's state and rebuilds it, checked.
pub fn edit(game: &Game, change: impl FnOnce(&mut GameState, &Content)) -> Game {
    let mut state = game.state().clone();
    change(&mut state, game.content());
    Game::from_state(state, game.content().clone()).expect("the edited scene is a valid game")
}

/// Puts a monster of the named kind at `pos`, awake, with its turn a step
/// from now. Returns its id.
pub fn place_monster(state: &mut GameState, content: &Content, name: &str, pos: Pos) -> MonsterRef {
    let kind = content
        .monster_named(name)
        .unwrap_or_else(|| panic!("no monster {name:?}"));
    let id = MonsterRef(state.next_monster_id);
    state.next_monster_id += 1;
    state.monsters.push(Monster {
        id,
        kind,
        pos,
        hp: content.monster(kind).max_hp,
        statuses: Statuses::default(),
        awake: true,
    });
    let at = state.clock.now() + 100;
    state.clock.schedule(Actor::Monster(id), at);
    id
}

/// Adds `count` of the named item to the pack; returns its slot letter.
pub fn give(state: &mut GameState, content: &Content, name: &str, count: u32) -> char {
    let item = content
        .item_named(name)
        .unwrap_or_else(|| panic!("no item {name:?}"));
    let stackable = content.item(item).stackable;
    let slot = state
        .player
        .pack
        .slot_for(item, count, stackable)
        .expect("room in the pack");
    state.player.pack.add(slot, item, count);
    char::from(b'a' + slot)
}

/// The letter of the pack slot holding the named item.
pub fn slot_of(state: &GameState, content: &Content, name: &str) -> char {
    let (slot, _) = state
        .player
        .pack
        .slots()
        .find(|(_, stack)| content.item(stack.item).name == name)
        .unwrap_or_else(|| panic!("no {name:?} in the pack"));
    char::from(b'a' + slot)
}

/// A walkable tile next to `at` with nobody on it, in `Dir::ALL` order.
pub fn free_neighbour(state: &GameState, at: Pos) -> (Dir, Pos) {
    Dir::ALL
        .iter()
        .map(|&d| (d, at.step(d)))
        .find(|&(d, p)| {
            state.floor.map.can_step(at, d)
                && p != state.player.pos
                && !state.monsters.iter().any(|m| m.pos == p)
        })
        .expect("a free neighbouring tile")
}

/// Presses keys (in notation), checking every turn invariant after each.
pub fn press(game: &mut Game, keys: &str) -> Outcome {
    let mut total = Outcome::default();
    for key in Key::parse_all(keys).expect("valid key notation") {
        let before = TurnWatch::before(game, key);
        let outcome = game.press(key).expect("the game never gets stuck");
        let violations = checks::check_turn(&before, game, &outcome);
        assert!(violations.is_empty(), "after {key}: {violations:?}");
        total.turns += outcome.turns;
        total.messages.extend(outcome.messages);
        total.events.extend(outcome.events);
        total.ended = outcome.ended;
    }
    total
}

/// Whether any message so far contains `text`.
pub fn said(game: &Game, text: &str) -> bool {
    game.state()
        .log
        .messages()
        .iter()
        .any(|m| m.text.contains(text))
}
