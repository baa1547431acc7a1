//! The `mapgen` target: see `harness::fuzz::mapgen`.
#![no_main]

use harness::fuzz::{self, MapgenInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: MapgenInput| {
    if let Err(failure) = fuzz::mapgen(&input) {
        panic!("{}", fuzz::crash_message("mapgen", &failure));
    }
});
