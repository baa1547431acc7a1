//! The `intents` target: see `harness::fuzz::intents`.
#![no_main]

use harness::fuzz::{self, IntentsInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: IntentsInput| {
    if let Err(failure) = fuzz::intents(&input) {
        panic!("{}", fuzz::crash_message("intents", &failure));
    }
});
