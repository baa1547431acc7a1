//! The `sight` target: see `harness::fuzz::sight`.
#![no_main]

use harness::fuzz::{self, SightInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: SightInput| {
    if let Err(failure) = fuzz::sight(&input) {
        panic!("{}", fuzz::crash_message("sight", &failure));
    }
});
