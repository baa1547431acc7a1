//! Every committed snapshot reads the same on any machine: no absolute
//! paths, no build folders, no clock times or dates, and an `input_file`
//! that is relative to the repository.
//!
//! This test lives in `snapshots/` rather than `harness/tests/` on purpose:
//! cargo-insta looks for pending snapshots (`.snap.new`) only in folders
//! that hold one of a package's targets, so this target is what lets
//! `cargo insta review` find the ones written next to the snapshots here.

use std::fs;
use std::path::{Path, PathBuf};

fn snapshot_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../snapshots");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "snap"))
        .collect();
    files.sort();
    files
}

/// `hh:mm:ss` or `yyyy-mm-dd` anywhere in the line.
fn holds_a_time_or_date(line: &str) -> bool {
    let b = line.as_bytes();
    let digits = |at: usize, n: usize| {
        b.get(at..at + n)
            .is_some_and(|s| s.iter().all(u8::is_ascii_digit))
    };
    (0..b.len()).any(|i| {
        (digits(i, 2) && b.get(i + 2) == Some(&b':') && digits(i + 3, 2))
            && b.get(i + 5) == Some(&b':')
            && digits(i + 6, 2)
            || (digits(i, 4)
                && b.get(i + 4) == Some(&b'-')
                && digits(i + 5, 2)
                && b.get(i + 7) == Some(&b'-')
                && digits(i + 8, 2))
    })
}

#[test]
fn snapshots_carry_no_paths_times_or_machine_details() {
    let files = snapshot_files();
    assert!(!files.is_empty(), "no snapshots found");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("harness sits in the repository")
        .to_string_lossy()
        .into_owned();
    let machine_specific = [
        repo.as_str(),
        "/home/",
        "/root/",
        "/tmp/",
        "/Users/",
        ":\\",
        "target/debug",
        "target/release",
    ];
    for file in &files {
        let text = fs::read_to_string(file).expect("a readable snapshot");
        for (n, line) in text.lines().enumerate() {
            let at = format!("{}:{}", file.display(), n + 1);
            for bad in machine_specific {
                assert!(!line.contains(bad), "{at}: {line:?} holds {bad:?}");
            }
            assert!(!holds_a_time_or_date(line), "{at}: {line:?} holds a time");
            if let Some(input) = line.strip_prefix("input_file: ") {
                assert!(
                    !input.starts_with('/') && !input.contains(".."),
                    "{at}: input_file {input:?} is not relative to the repository"
                );
            }
        }
    }
}

#[test]
fn the_time_check_sees_times_and_dates() {
    assert!(holds_a_time_or_date("at 21:11:34 UTC"));
    assert!(holds_a_time_or_date("2026-11-29"));
    assert!(!holds_a_time_or_date("Depth 2  HP 30/30  Turn 91"));
    assert!(!holds_a_time_or_date("D6 HP999/999 T12"));
}
