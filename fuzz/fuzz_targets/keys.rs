//! The `keys` target: see `harness::fuzz::keys`.
#![no_main]

use harness::fuzz::{self, KeysInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: KeysInput| {
    if let Err(failure) = fuzz::keys(&input) {
        panic!("{}", fuzz::crash_message("keys", &failure));
    }
});
