//! With the `arbitrary` feature, intents come straight from fuzzer bytes.
//! Whatever the bytes, the game keeps every turn invariant and never gets
//! stuck. (`cargo test --workspace` runs it: the harness depends on game-core
//! with the feature; alone, `cargo test -p game-core --features arbitrary`.)

#![cfg(feature = "arbitrary")]

use arbitrary::{Arbitrary, Unstructured};
use checks::TurnWatch;
use game_core::{Game, GameConfig, Intent};

#[test]
fn intents_from_arbitrary_bytes_keep_the_invariants() {
    let mut rng = game_core::RunSeed(99).stream("test-bytes", 0);
    let mut turns = 0;
    let mut applied = 0;
    for case in 0..40u64 {
        let bytes: Vec<u8> = (0..512).map(|_| rng.below(256) as u8).collect();
        let mut input = Unstructured::new(&bytes);
        let mut intents = Vec::new();
        while !input.is_empty() {
            intents.push(Intent::arbitrary(&mut input).expect("bytes make intents"));
        }
        let mut game = Game::new(GameConfig::new(case)).expect("default size");
        for intent in &intents {
            // Key by key, as `Game::apply` presses them, each checked.
            for key in game.keys_for(intent) {
                let before = TurnWatch::before(&game, key);
                let outcome = game.press(key).expect("never stuck");
                turns += outcome.turns;
                let violations = checks::check_turn(&before, &game, &outcome);
                assert!(
                    violations.is_empty(),
                    "case {case}, {intent:?}, key {key}: {violations:?}"
                );
            }
            applied += 1;
        }
    }
    // The bytes must drive real play, or the test proves nothing.
    assert!(
        applied > 1000 && turns > 1000,
        "{applied} intents, {turns} turns"
    );
}
