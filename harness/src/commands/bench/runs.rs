//! The runs the replay rows play: a seeded mix of keys weighted toward
//! exploring and fighting, one run per seed until it ends.

use std::sync::Arc;

use game_core::content::Content;
use game_core::{GameConfig, Key, RunSeed};

use crate::plumbing::error::Error;
use crate::recording::Recording;
use crate::run::runner::Runner;

/// One run of `keys` keys that is still alive at its end: a player who
/// mostly looks around (look mode, the pack, the help) and now and then
/// explores, steps or waits, on the first seed from `seed` that survives.
pub(super) fn long_run(seed: u64, keys: usize, content: Arc<Content>) -> Result<Recording, Error> {
    let looking = Key::parse_all(";hjkl<Tab><Esc>i<Esc>?<Esc>").expect("valid notation");
    let acting = Key::parse_all("ohjkl.").expect("valid notation");
    for run_seed in (0..50).map(|i| seed.wrapping_add(i)) {
        let mut rng = RunSeed(run_seed).stream("bench-long-run", 0);
        let mut runner = Runner::new(GameConfig::new(run_seed).with_content(content.clone()))?;
        for _ in 0..keys {
            let mix = if rng.below(20) == 0 {
                &acting
            } else {
                &looking
            };
            let key = *rng.pick(mix).expect("a non-empty mix");
            if let Err(failure) = runner.press(key) {
                return Err(format!(
                    "the long bench run on seed {run_seed} failed at step {}: {}",
                    failure.step, failure.kind
                )
                .into());
            }
            if runner.game().is_over() {
                break;
            }
        }
        if !runner.game().is_over() {
            return Ok(runner.recording("deja bench: a long run".into()));
        }
    }
    Err(format!(
        "no seed from {seed} to {} kept a {keys}-key run alive",
        seed.wrapping_add(49)
    )
    .into())
}

/// Plays a seeded key mix until `keys` keys have been pressed in all, one
/// run per seed from `seed` on: a run that ends (most die) is recorded and
/// the next seed starts, so every replayed step is a step of a live game.
pub(super) fn bench_runs(
    seed: u64,
    keys: usize,
    content: Arc<Content>,
) -> Result<Vec<Recording>, Error> {
    let mix = Key::parse_all("oooooohjklyubn..g>>iatdw;<Esc><Esc><Tab><Enter>HJKL")
        .expect("valid notation");
    let mut rng = RunSeed(seed).stream("bench-keys", 0);
    let mut recordings = Vec::new();
    let mut pressed = 0;
    // Seeds from `seed` on, wrapping past u64::MAX to 0: the same runs in
    // debug and release builds, whatever the seed.
    for run_seed in (0..).map(|i| seed.wrapping_add(i)) {
        if pressed >= keys {
            break;
        }
        let mut runner = Runner::new(GameConfig::new(run_seed).with_content(content.clone()))?;
        while pressed < keys && !runner.game().is_over() {
            let key = *rng.pick(&mix).expect("a non-empty mix");
            if let Err(failure) = runner.press(key) {
                return Err(format!(
                    "the bench run on seed {run_seed} failed at step {}: {}",
                    failure.step, failure.kind
                )
                .into());
            }
            pressed += 1;
        }
        recordings.push(runner.recording("deja bench".into()));
    }
    Ok(recordings)
}
