//! Files from outside that are not files: every command that reads a file,
//! given a FIFO with no writer (which blocks `open` forever) or a directory,
//! refuses it at once with exit 1, naming the path, instead of hanging.

mod support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use support::deja;

/// Far more than any of these takes; a command that blocks in `open` takes
/// forever, and the timeout turns that into a failure.
const TIMEOUT: Duration = Duration::from_secs(60);

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

fn refuses(args: &[&str], path: &Path, what: &str) {
    let out = deja()
        .args(args)
        .timeout(TIMEOUT)
        .output()
        .expect("deja runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{args:?} (timed out if None): {err}"
    );
    assert!(
        err.contains(&path.display().to_string()) && err.contains(what),
        "{args:?} must name {} and say it is {what}: {err}",
        path.display()
    );
}

#[test]
fn every_command_refuses_a_fifo_or_a_directory_without_blocking() {
    let dir = support::scratch("hostile-files", "fifo");
    let fifo = dir.join("pipe");
    mkfifo(&fifo);
    let f = fifo.to_str().unwrap();
    let out = dir.join("out.ron");
    let o = out.to_str().unwrap();
    let table: Vec<Vec<&str>> = vec![
        vec!["replay", f],
        vec!["replay", f, "--cast", "-o", "x.cast"],
        vec!["show", f, "--at", "0"],
        vec!["bless", f],
        vec!["shrink", f, "-o", o],
        vec!["play", "--keys-file", f],
        vec!["play", "--from", f, "--keys", "l"],
        vec!["merge", f],
        vec!["from-fuzz", "intents", f, "-o", o],
        vec!["sweep", "--seeds", "1..2", "--baseline", f],
        vec!["probe", "--baselines", f],
    ];
    for args in &table {
        refuses(args, &fifo, "a FIFO");
    }
    // Content files and corpus inputs are found in directories.
    let content = dir.join("content");
    std::fs::create_dir_all(&content).unwrap();
    let monsters = content.join("monsters.ron");
    mkfifo(&monsters);
    std::fs::write(content.join("items.ron"), "").unwrap();
    refuses(
        &[
            "play",
            "--keys",
            "l",
            "--content",
            content.to_str().unwrap(),
        ],
        &monsters,
        "a FIFO",
    );
    let corpus = dir.join("corpus");
    for target in ["intents", "keys", "mapgen", "recording", "content", "sight"] {
        std::fs::create_dir_all(corpus.join(target)).unwrap();
    }
    let input = corpus.join("keys").join("input");
    mkfifo(&input);
    refuses(&["corpus", corpus.to_str().unwrap()], &input, "a FIFO");
    // A directory where a file belongs.
    let d = dir.to_str().unwrap();
    for args in [
        vec!["replay", d],
        vec!["play", "--keys-file", d],
        vec!["merge", d],
    ] {
        refuses(&args, &dir, "a directory");
    }
}

#[test]
fn every_output_path_is_checked_before_the_work_starts() {
    let dir = support::scratch("hostile-files", "outputs");
    let d = dir.to_str().unwrap();
    let missing = dir.join("no-such-dir").join("out.json");
    let m = missing.to_str().unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let f = file.to_str().unwrap();
    let recording = Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings/win.ron");
    let r = recording.to_str().unwrap();
    // A hundred thousand seeds would take the sweep many minutes: refusing
    // within the timeout shows the check comes first.
    let long = ["sweep", "--seeds", "1..100001"];
    let cases: Vec<(Vec<&str>, &Path, &str)> = vec![
        (
            [&long[..], &["--format", "json", "-o", d]].concat(),
            &dir,
            "is a directory",
        ),
        (
            [&long[..], &["--format", "json", "-o", m]].concat(),
            &missing,
            "does not exist",
        ),
        (
            [&long[..], &["--save-failures", f]].concat(),
            &file,
            "not a directory",
        ),
        (
            [&long[..], &["--bless-baseline", d]].concat(),
            &dir,
            "is a directory",
        ),
        (vec!["merge", r, "-o", d], &dir, "is a directory"),
        (vec!["shrink", r, "-o", m], &missing, "does not exist"),
        (
            vec!["from-fuzz", "intents", f, "-o", d],
            &dir,
            "is a directory",
        ),
        (
            vec!["play", "--keys", "l", "-o", m],
            &missing,
            "does not exist",
        ),
        (vec!["replay", r, "--cast", "-o", d], &dir, "is a directory"),
        (
            vec!["probe", "--save-failures", f],
            &file,
            "not a directory",
        ),
    ];
    for (args, path, what) in &cases {
        refuses(args, path, what);
    }
}
