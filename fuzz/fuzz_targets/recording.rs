//! The `recording` target: see `harness::fuzz::recording`.
#![no_main]

use harness::fuzz;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Err(failure) = fuzz::recording(bytes) {
        panic!("{}", fuzz::crash_message("recording", &failure));
    }
});
