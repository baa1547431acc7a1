//! `cargo bench -p harness --bench fuzz`: one run of a fuzz target's body
//! per iteration, natively (no coverage instrumentation, no libFuzzer), so
//! the figure is the ceiling a fuzzer's execs per second can reach. The
//! `intents` aim is 5,000 runs a second with 64-intent inputs
//! (docs/fuzzing.md has the figures under libFuzzer too).
//!
//! Inputs are decoded from a fixed byte stream (`harness::fuzz::bench`,
//! which `deja bench` measures with too), so every run plays the same games.
//! Machines here are shared and noisy: read medians.

use arbitrary::{Arbitrary, Unstructured};
use divan::{Bencher, black_box};
use harness::fuzz::bench::{INPUTS, SEEDS, bytes, intents_inputs};
use harness::fuzz::{self, KeysInput, MapgenInput};

fn main() {
    divan::main();
}

/// The `intents` target's body on 16, 64 and 256 intents an input (64 is
/// the size its aim is stated for).
/// Every input runs once first: a fuzzer replays the same few seeds all
/// run long, so its started games are kept (`fuzz::start`) and the steady
/// state is what counts.
#[divan::bench(args = [16, 64, 256], sample_count = 1000)]
fn intents(bencher: Bencher, intents_each: usize) {
    run_each(
        bencher,
        &intents_inputs(INPUTS, intents_each),
        true,
        fuzz::intents,
    );
}

/// The `keys` target's body on 64 keys drawn from the dictionary's kind of
/// text: game keys, screens and Esc. Warmed as `intents` is.
#[divan::bench(sample_count = 1000)]
fn keys(bencher: Bencher) {
    const ALPHABET: [&str; 24] = [
        "h", "j", "k", "l", "y", "u", "b", "n", ".", "o", "g", ">", "i", "a", "t", "w", "d", ";",
        "?", "Q", "<Esc>", "<Enter>", "<Tab>", "<S-Left>",
    ];
    let inputs: Vec<KeysInput> = (0..INPUTS)
        .map(|i| KeysInput {
            seed: (i as u64 % SEEDS) as u16,
            keys: bytes(i, 64)
                .iter()
                .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()])
                .collect(),
        })
        .collect();
    run_each(bencher, &inputs, true, fuzz::keys);
}

/// The `mapgen` target's body: two floors built and checked per input.
#[divan::bench(sample_count = 1000)]
fn mapgen(bencher: Bencher) {
    let inputs: Vec<MapgenInput> = (0..INPUTS)
        .map(|i| {
            let raw = bytes(i, 64);
            MapgenInput::arbitrary(&mut Unstructured::new(&raw)).expect("enough bytes")
        })
        .collect();
    run_each(bencher, &inputs, false, fuzz::mapgen);
}

/// One input per iteration, cycling through `inputs`; with `warm`, every
/// input runs once before timing starts.
fn run_each<T, E>(bencher: Bencher, inputs: &[T], warm: bool, body: fn(&T) -> Result<(), E>) {
    if warm {
        for input in inputs {
            black_box(body(input).is_err());
        }
    }
    let mut next = 0;
    bencher.bench_local(|| {
        next = (next + 1) % inputs.len();
        black_box(body(&inputs[next]).is_err())
    });
}
