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
        vec!["play"],
        vec!["play", "--keys", "l", "--size", "10x5"],
        vec!["play", "--keys", "l", "--seed", "minus one"],
        vec!["play", "--keys", "l", "--frames", "some"],
        vec!["nonsense"],
    ] {
        let output = deja().args(&args).output().expect("deja runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
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
