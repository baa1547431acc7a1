//! What the CLI tests share: running the real `deja` binary, reading its
//! output, a fresh scratch directory per test, and checking an exit code.

#![allow(dead_code)] // each test file uses its own part of this

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;

/// The `deja` binary, ready for arguments.
pub fn deja() -> Command {
    Command::cargo_bin("deja").expect("the deja binary is built")
}

/// Runs `deja ARGS` in `dir` and returns what it printed.
pub fn run(args: &[&str], dir: &Path) -> Output {
    deja()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("deja runs")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh scratch directory for one test, under the target dir.
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The exit code is `code`, and nothing panicked on the way.
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
}

/// What it printed on stdout contains `wanted`.
pub fn assert_prints(out: &Output, wanted: &str) {
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(wanted),
        "{wanted:?} not in stdout:\n{stdout}"
    );
}

/// What it printed on stderr contains `wanted`.
pub fn assert_says(out: &Output, wanted: &str) {
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(wanted),
        "{wanted:?} not in stderr:\n{stderr}"
    );
}

/// The recording a sweep names for its first failure (its `reproduce: deja
/// replay FILE` line, which `--save-failures` makes).
pub fn first_saved_failure(out: &Output) -> PathBuf {
    let stdout = text(&out.stdout);
    stdout
        .lines()
        .find_map(|line| line.strip_prefix("  reproduce: deja replay "))
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("no saved recording named in:\n{stdout}"))
}

/// `deja replay` reproduces the failure `recording` holds, naming `wanted`.
pub fn assert_replay_reproduces(recording: &Path, dir: &Path, wanted: &str) {
    let replayed = run(&["replay", recording.to_str().expect("a UTF-8 path")], dir);
    assert_exit(&replayed, 4);
    assert_prints(&replayed, "reproduced at step");
    assert_prints(&replayed, wanted);
}
