//! `cargo bench -p game-core`: the core's hot paths, reported as medians.
//!
//! - floor generation per generator, with the floor invariants checked;
//! - field of view from one tile;
//! - the Dijkstra map from the player;
//! - one full turn on a populated floor, as play leaves it and with every
//!   monster awake (the worst case);
//! - the state hash.
//!
//! Machines here are shared and noisy: read medians and ratios, not single
//! numbers.

use checks::check_floor;
use divan::{Bencher, black_box};
use game_core::fov::{self, SIGHT_RADIUS};
use game_core::map::{BitGrid, DEFAULT_HEIGHT, DEFAULT_WIDTH};
use game_core::mapgen::{GeneratorKind, build_with, generate_floor};
use game_core::paths::DijkstraMap;
use game_core::{Game, GameConfig, Key, RunSeed};

fn main() {
    divan::main();
}

/// Generate a floor with one generator and check every floor invariant on
/// it, a fresh seed each iteration.
#[divan::bench(args = GeneratorKind::ALL.map(|k| k.name()))]
fn generate_and_validate_floor(bencher: Bencher, name: &str) {
    let kind = GeneratorKind::ALL
        .into_iter()
        .find(|k| k.name() == name)
        .expect("a generator name");
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        let mut rng = RunSeed(seed).stream("mapgen", 2);
        let floor = build_with(kind, DEFAULT_WIDTH, DEFAULT_HEIGHT, &mut rng).expect("fits 80x40");
        black_box(check_floor(&floor, false))
    });
}

/// `generate_floor` as the game calls it, over depths 1 to 6.
#[divan::bench]
fn generate_floor_by_depth(bencher: Bencher) {
    let mut n = 0u64;
    bencher.bench_local(|| {
        n += 1;
        black_box(generate_floor(
            RunSeed(n / 6),
            (n % 6) as u32 + 1,
            DEFAULT_WIDTH,
            DEFAULT_HEIGHT,
        ))
    });
}

#[divan::bench]
fn field_of_view(bencher: Bencher) {
    let floor = generate_floor(RunSeed(7), 5, DEFAULT_WIDTH, DEFAULT_HEIGHT);
    let mut visible = BitGrid::new(floor.map.len());
    bencher.bench_local(|| {
        fov::compute(&floor.map, floor.start, SIGHT_RADIUS, &mut visible);
        black_box(visible.count())
    });
}

/// Breadth-first distances over a whole floor: connectivity checks and the
/// farthest-tile search are this.
#[divan::bench]
fn bfs_whole_floor(bencher: Bencher) {
    let floor = generate_floor(RunSeed(7), 2, DEFAULT_WIDTH, DEFAULT_HEIGHT);
    bencher.bench_local(|| black_box(game_core::paths::bfs_distances(&floor.map, floor.start)));
}

#[divan::bench]
fn dijkstra_map(bencher: Bencher) {
    let floor = generate_floor(RunSeed(7), 2, DEFAULT_WIDTH, DEFAULT_HEIGHT);
    bencher.bench_local(|| black_box(DijkstraMap::new(&floor.map, floor.start, 40)));
}

/// A game on floor 1 with every monster awake and chasing, so each turn
/// moves the whole floor's monsters: the worst case. Two turns are played
/// first: a fresh floor's monsters hold back for the player's first turn.
fn all_awake() -> Game {
    let game = Game::new(GameConfig::new(7)).expect("default size");
    let mut state = game.state().clone();
    for m in &mut state.monsters {
        m.awake = true;
    }
    let mut game = Game::from_state(state, game.content().clone()).expect("a valid scene");
    for _ in 0..2 {
        game.press(Key::char('.')).expect("not stuck");
    }
    assert!(
        game.state().monsters.len() >= 4,
        "a floor's worth of monsters"
    );
    game
}

/// A game as play leaves it: floor 1 explored for a while, the monsters that
/// have seen the player awake and the rest asleep.
fn in_play() -> Game {
    let mut game = Game::new(GameConfig::new(7)).expect("default size");
    for key in Key::parse_all("oooooo").expect("valid keys") {
        game.press(key).expect("not stuck");
    }
    assert!(
        game.state().monsters.iter().any(|m| m.awake),
        "someone is chasing"
    );
    game
}

/// A key that steps the player somewhere free.
fn a_free_step(game: &Game) -> Key {
    let state = game.state();
    let dir = game_core::geom::Dir::ALL
        .into_iter()
        .find(|&d| {
            let to = state.player.pos.step(d);
            state.floor.map.can_step(state.player.pos, d)
                && !state.monsters.iter().any(|m| m.pos == to)
        })
        .expect("somewhere to step");
    game_core::game::screens::key_for_direction(dir)
}

/// One turn: the player presses `key`, every monster acts, statuses tick.
fn one_turn(bencher: Bencher, game: &Game, key: Key) {
    bencher
        .with_inputs(|| game.clone())
        .bench_local_values(|mut game| black_box(game.press(key)));
}

/// The player waits while the whole floor chases.
#[divan::bench]
fn turn_wait_all_awake(bencher: Bencher) {
    one_turn(bencher, &all_awake(), Key::char('.'));
}

/// The player steps while the whole floor chases: the view and the chase map
/// are rebuilt, out to the farthest monster.
#[divan::bench]
fn turn_step_all_awake(bencher: Bencher) {
    let game = all_awake();
    let key = a_free_step(&game);
    one_turn(bencher, &game, key);
}

/// The player steps in a game as play leaves it.
#[divan::bench]
fn turn_step_in_play(bencher: Bencher) {
    let game = in_play();
    let key = a_free_step(&game);
    one_turn(bencher, &game, key);
}

/// One turn followed by the state hash, as a replay with hashing does.
#[divan::bench]
fn turn_step_in_play_and_hash(bencher: Bencher) {
    let game = in_play();
    let key = a_free_step(&game);
    bencher
        .with_inputs(|| game.clone())
        .bench_local_values(|mut game| {
            let _ = game.press(key);
            black_box(game.state_hash())
        });
}

#[divan::bench]
fn state_hash(bencher: Bencher) {
    let game = in_play();
    bencher.bench_local(|| black_box(game.state_hash()));
}

/// The frame a player sees after every key, at the recordings' 80x24.
#[divan::bench]
fn frame_80x24(bencher: Bencher) {
    let game = in_play();
    bencher.bench_local(|| black_box(game.frame(80, 24)));
}

/// The screen check that reads that frame after every key a sweep presses.
#[divan::bench]
fn screen_check_80x24(bencher: Bencher) {
    let game = in_play();
    let frame = game.frame(80, 24);
    bencher.bench_local(|| black_box(checks::check_screen(&game, &frame)));
}
