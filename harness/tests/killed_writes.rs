//! A kill at any write leaves every file deja writes whole: the old file or
//! the new one, never a part. strace kills the process at its Nth write
//! (`-e inject=write:signal=KILL:when=N`), for the first twenty writes of
//! bless, play -o and a sweep writing bug reports and a JSON report.
//! Needs strace (`.ci/run` installs it).

mod support;

use std::path::Path;
use std::process::Command;

use harness::recording;
use support::corpus;

const DEJA: &str = env!("CARGO_BIN_EXE_deja");

/// Runs deja with `args` in `dir` under strace, tracing writes with
/// `strace_args` added.
fn under_strace(strace_args: &[&str], args: &[&str], dir: &Path) -> std::process::ExitStatus {
    Command::new("strace")
        .current_dir(dir)
        .args(["-f", "-qq", "-e", "trace=write"])
        .args(strace_args)
        .args(["--", DEJA])
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("strace runs (install strace: .ci/run does)")
}

/// Runs deja with `args` in `dir`, killed at its `n`th write; whether it
/// was killed (rather than done before its nth write).
fn killed_at_write(n: u32, args: &[&str], dir: &Path) -> bool {
    use std::os::unix::process::ExitStatusExt;
    let inject = format!("inject=write:signal=KILL:when={n}");
    let status = under_strace(&["-o", "/dev/null", "-e", &inject], args, dir);
    status.signal() == Some(9)
}

/// How many writes deja makes running `args` in `dir` to the end.
fn writes_of(args: &[&str], dir: &Path) -> u32 {
    let log = dir.join("writes.log");
    let status = under_strace(&["-o", log.to_str().unwrap()], args, dir);
    assert!(status.code().is_some(), "the counting run was not killed");
    let count = std::fs::read_to_string(&log).unwrap().lines().count();
    std::fs::remove_file(&log).unwrap();
    u32::try_from(count).unwrap()
}

/// Twenty writes to kill at, spread over all `total`, the last included:
/// the file writes come at the end.
fn kill_points(total: u32) -> Vec<u32> {
    let mut points: Vec<u32> = (1..=20).map(|i| (i * total).div_ceil(20).max(1)).collect();
    points.dedup();
    points
}

#[test]
fn strace_can_kill_at_a_write() {
    // The harness of these tests works: a kill at the first write stops a
    // command that writes.
    let dir = support::scratch("killed-writes", "probe");
    assert!(
        killed_at_write(1, &["play", "--keys", "l", "-o", "x.ron"], &dir),
        "killed at its first write"
    );
    assert!(
        !dir.join("x.ron").exists(),
        "killed before the file was renamed into place"
    );
}

#[test]
fn bless_play_and_sweep_killed_at_any_write_leave_whole_files() {
    let dir = support::scratch("killed-writes", "loop");
    let old_version = std::fs::read_to_string(corpus("death-by-poison.ron"))
        .unwrap()
        .replacen("version: \"", "version: \"0.0.0-old-", 1);

    // bless rewrites a recording of another version.
    let blessed = dir.join("bless.ron");
    let bless = ["bless", "bless.ron"];
    std::fs::write(&blessed, &old_version).unwrap();
    let mut killed = 0;
    for n in kill_points(writes_of(&bless, &dir)) {
        std::fs::write(&blessed, &old_version).unwrap();
        killed += u32::from(killed_at_write(n, &bless, &dir));
        recording::read(&blessed).unwrap_or_else(|e| panic!("bless killed at write {n}: {e}"));
    }
    assert!(killed > 0, "bless was never killed");

    // play -o over an earlier recording.
    let played = dir.join("play.ron");
    let play = ["play", "--seed", "3", "--keys", "llllo", "-o", "play.ron"];
    std::fs::copy(corpus("win.ron"), &played).unwrap();
    let mut killed = 0;
    for n in kill_points(writes_of(&play, &dir)) {
        std::fs::copy(corpus("win.ron"), &played).unwrap();
        killed += u32::from(killed_at_write(n, &play, &dir));
        recording::read(&played).unwrap_or_else(|e| panic!("play killed at write {n}: {e}"));
    }
    assert!(killed > 0, "play was never killed");

    // A sweep that finds a failure on every seed (a planted blind spot),
    // saving each as a recording and a JSON report over an earlier one.
    let sweep = [
        "sweep",
        "--seeds",
        "1..4",
        "--bot",
        "random",
        "--keys",
        "300",
        "--jobs",
        "1",
        "--canary",
        "blind-spot",
        "--save-failures",
        "failures",
        "--format",
        "json",
        "-o",
        "report.json",
    ];
    let failures = dir.join("failures");
    let json = dir.join("report.json");
    std::fs::write(&json, "{}").unwrap();
    let total = writes_of(&sweep, &dir);
    assert_eq!(
        std::fs::read_dir(&failures).unwrap().count(),
        3,
        "a report per seed"
    );
    let mut killed = 0;
    for n in kill_points(total) {
        let _ = std::fs::remove_dir_all(&failures);
        std::fs::write(&json, "{}").unwrap();
        killed += u32::from(killed_at_write(n, &sweep, &dir));
        let text = std::fs::read_to_string(&json).unwrap();
        serde_json::from_str::<serde_json::Value>(&text)
            .unwrap_or_else(|e| panic!("sweep killed at write {n}: report.json: {e}"));
        if let Ok(entries) = std::fs::read_dir(&failures) {
            for entry in entries {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "ron") {
                    recording::read(&path)
                        .unwrap_or_else(|e| panic!("sweep killed at write {n}: {e}"));
                }
            }
        }
    }
    assert!(killed > 0, "the sweep was never killed");
}
