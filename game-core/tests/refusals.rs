//! What the game refuses from outside: a configuration it cannot play and a
//! save that describes an impossible game. The probe never meets either (it
//! plays valid games and loads only saves the game wrote; docs/mutation.md,
//! "hostile saves"), so the plain suite holds these refusals.

use game_core::game::{ConfigError, LoadError};
use game_core::{Game, GameConfig};

#[test]
fn a_map_the_game_cannot_play_on_is_refused() {
    for (width, height) in [(300, 40), (80, 2), (0, 0)] {
        let config = GameConfig::new(1).with_size(width, height);
        assert_eq!(
            Game::new(config).err(),
            Some(ConfigError::MapSize { width, height }),
            "{width}x{height}"
        );
    }
    assert!(Game::new(GameConfig::new(1)).is_ok());
}

#[test]
fn a_save_of_a_depth_outside_the_dungeon_is_refused_naming_it() {
    let game = Game::new(GameConfig::new(5)).expect("a game");
    for depth in [0, 7] {
        let mut state = game.state().clone();
        state.depth = depth;
        match Game::from_state(state, game.content().clone()) {
            Err(LoadError::Invalid(problems)) => assert!(
                problems
                    .iter()
                    .any(|p| p.contains(&format!("depth {depth}"))),
                "{problems:?}"
            ),
            other => panic!("depth {depth}: {:?}", other.map(|_| "loaded")),
        }
    }
    // The save the game wrote loads.
    assert!(Game::load(&game.save(), game.content().clone()).is_ok());
}
