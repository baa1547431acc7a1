//! From a fuzz crash to a small regression recording, as a user does it:
//! `deja from-fuzz` on an artifact, `deja replay` on what it wrote, `deja
//! shrink` down to the keys that matter. The failures are planted canaries,
//! so the same artifacts pass in a build without them.

mod support;

use std::path::PathBuf;

use arbitrary::{Arbitrary, Unstructured};
use game_core::canary::{Canaries, Canary};
use harness::fuzz::{self, IntentsInput, KeysInput};
use harness::recording;
use support::{assert_exit, assert_prints, assert_says, run, text};

fn scratch(name: &str) -> PathBuf {
    support::scratch("from-fuzz", name)
}

/// The artifact bytes libFuzzer would hand the keys target for this input.
fn keys_artifact(seed: u16, keys: &str) -> Vec<u8> {
    // Whichever byte order arbitrary reads a u16 in, find the one for `seed`.
    [seed.to_le_bytes(), seed.to_be_bytes()]
        .into_iter()
        .map(|prefix| [prefix.as_slice(), keys.as_bytes()].concat())
        .find(|bytes| {
            let input = KeysInput::arbitrary_take_rest(Unstructured::new(bytes)).unwrap();
            input.seed == seed && input.keys == keys
        })
        .expect("the seed's bytes")
}

#[test]
fn a_keys_artifact_becomes_a_recording_that_replays_and_shrinks_to_one_key() {
    let dir = scratch("keys");
    // Help that Esc cannot close, opened after some wandering.
    std::fs::write(dir.join("crash-keys"), keys_artifact(3, "llhh?jjk<Esc>ll")).unwrap();
    let out = run(
        &[
            "from-fuzz",
            "keys",
            "crash-keys",
            "--canary",
            "sticky-help",
            "-o",
            "failure.ron",
        ],
        &dir,
    );
    assert_exit(&out, 4);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("invariant screen.escapable"), "{stderr}");
    assert!(stderr.contains("deja replay failure.ron"), "{stderr}");
    let report = recording::read(&dir.join("failure.ron")).expect("a recording");
    assert_eq!(report.seed, 3);
    assert_eq!(report.canaries, vec![Canary::StickyHelp]);
    // Every step checks that Esc would close the top screen, so the failure
    // is the key that opened the help: step 5 of "llhh?", the rest unplayed.
    assert_eq!(report.failure.as_ref().map(|f| f.step), Some(5));
    assert_eq!(report.keys.len(), 5);

    let out = run(&["replay", "failure.ron"], &dir);
    assert_exit(&out, 4);
    assert_prints(&out, "reproduced at step 5: invariant screen.escapable");

    let out = run(&["shrink", "failure.ron", "-o", "small.ron"], &dir);
    assert_exit(&out, 0);
    assert_prints(&out, "failure.ron: 5 keys -> 1 key, the same failure");
    let small = recording::read(&dir.join("small.ron")).expect("a recording");
    assert_eq!(
        game_core::Key::format_all(&small.keys),
        "?",
        "only the help matters"
    );
    let out = run(&["replay", "small.ron"], &dir);
    assert_exit(&out, 4);
    assert_prints(&out, "reproduced at step 1: invariant screen.escapable");
}

#[test]
fn an_artifact_that_does_not_fail_here_is_written_anyway_with_a_warning() {
    let dir = scratch("no-failure");
    std::fs::write(dir.join("crash-keys"), keys_artifact(3, "llhh?jjk<Esc>ll")).unwrap();
    // Without the canary the run is healthy.
    let out = run(&["from-fuzz", "keys", "crash-keys", "-o", "run.ron"], &dir);
    assert_exit(&out, 0);
    assert_says(&out, "the artifact does not fail in this build");
    let out = run(&["replay", "run.ron"], &dir);
    assert_exit(&out, 0);
    // And shrink says there is nothing to shrink, writing nothing.
    let out = run(&["shrink", "run.ron", "-o", "small.ron"], &dir);
    assert_exit(&out, 1);
    assert_says(&out, "the recording does not fail");
    assert!(!dir.join("small.ron").exists());
}

/// An intents input that trips the panicking potion, found the way a fuzzer
/// would: by trying inputs until one fails (deterministically, from a fixed
/// generator).
fn failing_intents_artifact(canary: Canary) -> Vec<u8> {
    let canaries = Canaries::NONE.with(canary);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..5000 {
        let bytes: Vec<u8> = (0..96)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (state >> 56) as u8
            })
            .collect();
        let Ok(input) = IntentsInput::arbitrary_take_rest(Unstructured::new(&bytes)) else {
            continue;
        };
        if fuzz::play_intents(&input, canaries).failure().is_some() {
            return bytes;
        }
    }
    panic!("no input in 5000 trips the {canary} canary");
}

#[test]
fn an_intents_artifact_becomes_a_recording_of_the_keys_it_pressed_and_shrinks_small() {
    let dir = scratch("intents");
    std::fs::write(
        dir.join("crash-intents"),
        failing_intents_artifact(Canary::PanickingPotion),
    )
    .unwrap();
    let out = run(
        &[
            "from-fuzz",
            "intents",
            "crash-intents",
            "--canary",
            "panicking-potion",
            "-o",
            "failure.ron",
        ],
        &dir,
    );
    assert_exit(&out, 4);
    assert_says(&out, "panic: canary panicking-potion");
    let out = run(&["replay", "failure.ron"], &dir);
    assert_exit(&out, 4);
    assert!(text(&out.stdout).contains("reproduced at step"));

    let out = run(&["shrink", "failure.ron", "-o", "small.ron"], &dir);
    assert_exit(&out, 0);
    let small = recording::read(&dir.join("small.ron")).expect("a recording");
    assert!(small.keys.len() <= 3, "{:?}", small.keys);
    let out = run(&["replay", "small.ron"], &dir);
    assert_exit(&out, 4);
    assert_prints(&out, "panic: canary panicking-potion");
}

#[test]
fn artifacts_of_other_targets_and_unknown_targets_are_refused_with_the_way_forward() {
    let dir = scratch("other-targets");
    std::fs::write(dir.join("crash-map"), [1u8, 2, 3]).unwrap();
    let out = run(&["from-fuzz", "mapgen", "crash-map", "-o", "x.ron"], &dir);
    assert_exit(&out, 1);
    assert_says(&out, "cargo fuzz run mapgen crash-map");
    // An unknown target is a usage error listing the targets.
    let out = run(&["from-fuzz", "dungeon", "crash-map", "-o", "x.ron"], &dir);
    assert_exit(&out, 2);
    assert_says(
        &out,
        "[possible values: intents, keys, mapgen, recording, content, sight]",
    );
    let out = run(&["from-fuzz", "keys", "missing", "-o", "x.ron"], &dir);
    assert_exit(&out, 1);
    assert_says(&out, "missing");
    assert!(!dir.join("x.ron").exists());
}

#[test]
fn an_artifact_too_large_or_missing_is_refused_naming_the_file() {
    let dir = scratch("too-large");
    std::fs::write(dir.join("huge"), vec![b'l'; 1024 * 1024 + 1]).expect("writable");
    let out = run(&["from-fuzz", "keys", "huge", "-o", "out.ron"], &dir);
    assert_exit(&out, 1);
    assert_says(&out, "huge: 1048577 bytes is over the 1048576-byte limit");
    assert!(!dir.join("out.ron").exists(), "nothing written");

    let out = run(&["from-fuzz", "keys", "missing", "-o", "out.ron"], &dir);
    assert_exit(&out, 1);
    assert_says(&out, "missing: ");
}
