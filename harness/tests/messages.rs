//! What deja says when something is wrong: every error names its file, a
//! closed pipe ends a command quietly, and replay's reports fit what
//! happened.

mod support;

use std::path::Path;

use support::{assert_exit, assert_says, corpus, run, scratch, text};

#[test]
fn replay_refuses_a_to_step_past_the_end_naming_the_file() {
    let dir = scratch("messages", "to-step");
    let win = corpus("win.ron");
    let out = run(&["replay", &win, "--to-step", "100000"], &dir);
    assert_exit(&out, 1);
    assert_says(
        &out,
        &format!("{win}: --to-step 100000 is past the recording's end"),
    );
}

#[test]
fn a_drift_at_the_start_shows_the_start_and_no_last_matching_frame() {
    let dir = scratch("messages", "drift-at-0");
    let text_of = std::fs::read_to_string(corpus("win.ron")).unwrap();
    std::fs::write(
        dir.join("other-seed.ron"),
        support::with_the_next_seed(&text_of),
    )
    .unwrap();
    let out = run(&["replay", "other-seed.ron"], &dir);
    assert_exit(&out, 3);
    let said = text(&out.stdout);
    assert!(said.contains("drift at step 0"), "{said}");
    assert!(said.contains("the start, as replayed"), "{said}");
    assert!(!said.contains("last matching frame"), "{said}");
}

#[test]
fn replay_json_has_one_object_per_file_given_unreadable_ones_too() {
    let dir = scratch("messages", "json");
    let win = corpus("win.ron");
    let out = run(&["replay", &win, "missing.ron", "--format", "json"], &dir);
    assert_exit(&out, 1);
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["file"], win.as_str());
    assert_eq!(lines[0]["verdict"]["verdict"], "same");
    assert_eq!(lines[1]["file"], "missing.ron");
    assert_eq!(lines[1]["verdict"]["verdict"], "unreadable");
    let error = lines[1]["verdict"]["error"].as_str().unwrap();
    assert!(error.contains("No such file"), "{error}");
}

/// A reader that leaves early (`| head`) has what it asked for: deja stops
/// quietly and exits 0, so a pipeline under `pipefail` holds, as it does
/// with ripgrep.
#[test]
fn a_closed_pipe_ends_replay_quietly_with_exit_0() {
    let dir = scratch("messages", "pipe");
    let deja = env!("CARGO_BIN_EXE_deja");
    let files: Vec<String> = ["win.ron", "death-by-poison.ron", "descend-to-depth-3.ron"]
        .iter()
        .map(|f| corpus(f))
        .collect();
    let status = std::process::Command::new("bash")
        .current_dir(&dir)
        .arg("-c")
        .arg(format!(
            "set -o pipefail; {deja} replay {} --frames every 2>err | head -n 1 >/dev/null",
            files.join(" ")
        ))
        .status()
        .unwrap();
    assert!(status.success(), "{status}");
    let err = std::fs::read_to_string(dir.join("err")).unwrap();
    assert_eq!(err, "", "nothing said for a reader that left");
}

#[test]
fn shrink_and_keys_file_errors_name_their_file() {
    let dir = scratch("messages", "named");
    let win = corpus("win.ron");
    let out = run(&["shrink", &win, "-o", "small.ron"], &dir);
    assert_exit(&out, 1);
    assert_says(
        &out,
        &format!("{win}: the recording does not fail in this build"),
    );
    // One key more than a script may hold.
    std::fs::write(dir.join("long.keys"), "l".repeat(1_000_001)).unwrap();
    let out = run(&["play", "--keys-file", "long.keys"], &dir);
    assert_exit(&out, 1);
    assert_says(
        &out,
        "long.keys:1: 1000001 keys is over the limit of 1000000",
    );
    // Taken over and scripted together past what a recording holds: refused
    // before a key is pressed, not after playing them all.
    let taken = harness::recording::read(Path::new(&win))
        .unwrap()
        .keys
        .len();
    let rest = harness::recording::MAX_KEYS - taken + 1;
    std::fs::write(dir.join("rest.keys"), "l".repeat(rest)).unwrap();
    let out = run(
        &[
            "play",
            "--from",
            &win,
            "--keys-file",
            "rest.keys",
            "-o",
            "x.ron",
        ],
        &dir,
    );
    assert_exit(&out, 1);
    assert_says(
        &out,
        &format!(
            "{taken} keys taken over and {rest} scripted make 1000001, over the 1000000 a recording holds"
        ),
    );
    assert!(!dir.join("x.ron").exists());
}

#[test]
fn the_recording_format_lists_every_canary() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/recording-format.md"),
    )
    .unwrap();
    for canary in game_core::canary::Canary::ALL {
        assert!(
            doc.contains(&format!("`{}`", canary.name())),
            "docs/recording-format.md does not name the canary {}",
            canary.name()
        );
    }
}
