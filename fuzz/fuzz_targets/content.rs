//! The `content` target: see `harness::fuzz::content`.
#![no_main]

use harness::fuzz;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Err(failure) = fuzz::content(bytes) {
        panic!("{}", fuzz::crash_message("content", &failure));
    }
});
