//! `deja play` as a user runs it: frames on stdout, errors that name the
//! place, and the exit codes of the README.

mod support;

use std::path::PathBuf;

use support::deja;

fn stdout_of(args: &[&str]) -> String {
    let output = deja().args(args).output().expect("deja runs");
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("frames are UTF-8")
}

fn scratch(name: &str) -> PathBuf {
    support::scratch("play", name)
}

#[test]
fn play_prints_the_final_frame_and_the_same_bytes_twice() {
    let args = ["play", "--seed", "7", "--keys", "llll>"];
    let first = stdout_of(&args);
    assert!(first.contains('@'), "{first}");
    assert!(first.contains("Depth 1"), "{first}");
    assert_eq!(first, stdout_of(&args));
}

#[test]
fn frames_every_numbers_each_step() {
    let out = stdout_of(&[
        "play", "--seed", "3", "--keys", "l<Esc>", "--frames", "every", "--size", "40x12",
    ]);
    assert!(out.contains("--- step 0 (start) ---"));
    assert!(out.contains("--- step 1: l ---"));
    assert!(out.contains("--- step 2: <Esc> ---"));
    let none = stdout_of(&["play", "--seed", "3", "--keys", "l", "--frames", "none"]);
    assert!(none.is_empty());
}

#[test]
fn a_bad_key_is_an_error_naming_its_column() {
    let output = deja()
        .args(["play", "--keys", "ll<Bogus>"])
        .output()
        .expect("deja runs");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("column 3"), "{stderr}");
    assert!(stderr.contains("<Bogus>"), "{stderr}");
}

#[test]
fn a_key_file_error_names_file_line_and_column() {
    let dir = scratch("key-file");
    let file = dir.join("script.keys");
    std::fs::write(&file, "llll\nj<Nope>\n").expect("write");
    let output = deja()
        .args(["play", "--keys-file"])
        .arg(&file)
        .output()
        .expect("deja runs");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("script.keys:2:2"), "{stderr}");

    std::fs::write(&file, "ll\nll\n").expect("write");
    let from_file = deja()
        .args(["play", "--seed", "4", "--keys-file"])
        .arg(&file)
        .output()
        .expect("deja runs");
    assert!(from_file.status.success());
    assert_eq!(
        String::from_utf8_lossy(&from_file.stdout),
        stdout_of(&["play", "--seed", "4", "--keys", "llll"])
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["play", "--keys", "l", "--size", "10x5"],
        vec!["play", "--keys", "l", "--at", "3"],
        vec!["play", "--from", "x.ron", "--seed", "3"],
        vec!["play", "--keys", "l", "--seed", "minus one"],
        vec!["play", "--keys", "l", "--frames", "some"],
        vec!["nonsense"],
    ] {
        let output = deja().args(&args).output().expect("deja runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn playing_without_a_terminal_says_to_give_keys() {
    let output = deja().arg("play").output().expect("deja runs");
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("no terminal") && err.contains("--keys"),
        "{err}"
    );
}

#[test]
fn help_lists_the_exit_codes() {
    let out = stdout_of(&["--help"]);
    assert!(out.contains("Exit codes:"));
    assert!(out.contains("3  drift"));
    assert!(out.contains("4  failure found"));
}

#[test]
fn content_loads_from_a_directory_and_every_error_is_reported() {
    let dir = scratch("content-dir");
    std::fs::write(
        dir.join("monsters.ron"),
        game_core::content::EMBEDDED_MONSTERS,
    )
    .expect("write");
    std::fs::write(dir.join("items.ron"), game_core::content::EMBEDDED_ITEMS).expect("write");
    let with_dir = deja()
        .args(["play", "--seed", "5", "--keys", "o", "--content"])
        .arg(&dir)
        .output()
        .expect("deja runs");
    assert!(
        with_dir.status.success(),
        "{}",
        String::from_utf8_lossy(&with_dir.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&with_dir.stdout),
        stdout_of(&["play", "--seed", "5", "--keys", "o"])
    );

    let broken_monsters = game_core::content::EMBEDDED_MONSTERS.replacen("\"1d3\"", "\"0d3\"", 1);
    let broken_items =
        game_core::content::EMBEDDED_ITEMS.replacen("stackable: true", "stackable: maybe", 1);
    std::fs::write(dir.join("monsters.ron"), broken_monsters).expect("write");
    std::fs::write(dir.join("items.ron"), broken_items).expect("write");
    let output = deja()
        .args(["play", "--keys", "o", "--content"])
        .arg(&dir)
        .output()
        .expect("deja runs");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("monsters.ron:") && stderr.contains("die count of 0"),
        "{stderr}"
    );
    assert!(stderr.contains("items.ron:"), "{stderr}");
    assert!(stderr.contains("2 problems"), "{stderr}");

    std::fs::remove_file(dir.join("items.ron")).expect("remove");
    let output = deja()
        .args(["play", "--keys", "o", "--content"])
        .arg(&dir)
        .output()
        .expect("deja runs");
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("items.ron"));
}

#[test]
fn taking_over_a_recording_keeps_its_keys_to_the_step_and_names_where_it_came_from() {
    let dir = scratch("take-over");
    let source = dir.join("source.ron");
    let taken = dir.join("taken.ron");
    stdout_of(&[
        "play",
        "--seed",
        "3",
        "--keys",
        "llljjo",
        "-o",
        source.to_str().unwrap(),
    ]);
    let source_text = std::fs::read_to_string(&source).unwrap();
    stdout_of(&[
        "play",
        "--from",
        source.to_str().unwrap(),
        "--at",
        "3",
        "--keys",
        "hh",
        "-o",
        taken.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&taken).unwrap();
    assert!(text.contains("seed: 3,"), "{text}");
    assert!(
        text.contains("\"lllhh\""),
        "the first 3 keys, then the new: {text}"
    );
    let origin = format!(
        "origin: Some((file: {:?}, step: 3)),",
        source.to_str().unwrap()
    );
    assert!(text.contains(&origin), "{text}");
    // Played from the start with the same keys, the run is the same run.
    let direct = dir.join("direct.ron");
    stdout_of(&[
        "play",
        "--seed",
        "3",
        "--keys",
        "lllhh",
        "-o",
        direct.to_str().unwrap(),
    ]);
    let hashes = |t: &str| t[t.find("hashes").unwrap()..t.find("outcome").unwrap()].to_string();
    assert_eq!(
        hashes(&text),
        hashes(&std::fs::read_to_string(&direct).unwrap())
    );
    let replayed = deja()
        .args(["replay", taken.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(replayed.status.code(), Some(0));

    // A recording that no longer matches is refused where it differs.
    let tampered = dir.join("tampered.ron");
    std::fs::write(&tampered, source_text.replace("seed: 3,", "seed: 4,")).unwrap();
    let refused = deja()
        .args([
            "play",
            "--from",
            tampered.to_str().unwrap(),
            "--at",
            "2",
            "--keys",
            "h",
        ])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(3));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("drift at step 0"), "{err}");
    // A step past the end says which steps there are.
    let past = deja()
        .args([
            "play",
            "--from",
            source.to_str().unwrap(),
            "--at",
            "7",
            "--keys",
            "h",
        ])
        .output()
        .unwrap();
    assert_eq!(past.status.code(), Some(1));
    let err = String::from_utf8_lossy(&past.stderr);
    assert!(err.contains("from 0 to 6"), "{err}");
    // The new run never overwrites the one it came from.
    let same = deja()
        .args([
            "play",
            "--from",
            source.to_str().unwrap(),
            "--keys",
            "h",
            "-o",
            source.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(same.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&source).unwrap(), source_text);
}

#[test]
fn keys_file_dash_reads_standard_input() {
    let output = deja()
        .args(["play", "--seed", "7", "--keys-file", "-"])
        .write_stdin("llll\n>")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        stdout_of(&["play", "--seed", "7", "--keys", "llll>"])
    );
}

#[test]
fn a_played_run_is_recorded_as_reading_every_frame() {
    // A player sees every frame, so the runner reads every one, and the
    // recording says so (by leaving `frame_every` out): a frame that cannot
    // be drawn after any key is then a failure its replay finds at that key.
    let dir = scratch("every-frame");
    let path = dir.join("played.ron");
    stdout_of(&[
        "play",
        "--seed",
        "5",
        "--keys",
        "lljj",
        "-o",
        path.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("frame: (width: 80, height: 24),"), "{text}");
    assert!(!text.contains("frame_every"), "{text}");
    let recording = harness::recording::read(&path).expect("reads back");
    assert_eq!(recording.frame_every, 1);
}
