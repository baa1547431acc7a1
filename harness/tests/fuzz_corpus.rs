//! Every committed fuzz corpus file, run through the body its cargo-fuzz
//! target runs, on stable and without libFuzzer: a regression the fuzzers once
//! covered fails `cargo test` here first.
//!
//! Typed targets decode their bytes exactly as libfuzzer-sys does
//! (`Arbitrary::arbitrary_take_rest` over the whole input), so a file here
//! means the same input it meant to the fuzzer.

use std::path::{Path, PathBuf};

use harness::fuzz;

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable corpus directory").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: the corpus is empty", dir.display());
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path, bytes)
        })
        .collect()
}

/// Runs `target`'s body on each file of its corpus and reports every
/// failure.
fn run_corpus(target: &str) {
    let mut failures = Vec::new();
    let mut decoded = 0;
    for (path, bytes) in corpus(target) {
        // An input arbitrary cannot decode is one libFuzzer skips too.
        let Some(result) = fuzz::run_bytes(target, &bytes) else {
            continue;
        };
        decoded += 1;
        if let Err(failure) = result {
            failures.push(format!(
                "{}: {}",
                path.display(),
                fuzz::crash_message(target, &failure)
            ));
        }
    }
    assert!(decoded > 0, "no {target} corpus file decodes to an input");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_intents_corpus_passes() {
    run_corpus("intents");
}

#[test]
fn the_keys_corpus_passes() {
    run_corpus("keys");
}

#[test]
fn the_mapgen_corpus_passes() {
    run_corpus("mapgen");
}

#[test]
fn the_sight_corpus_passes() {
    run_corpus("sight");
}

#[test]
fn the_recording_corpus_passes() {
    run_corpus("recording");
}

#[test]
fn the_content_corpus_passes() {
    run_corpus("content");
}

/// The corpus directories are the targets cargo-fuzz knows: a new target
/// without a corpus, or a stale corpus of a removed one, fails here.
#[test]
fn every_target_has_a_corpus_and_every_corpus_a_target() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
    let mut found: Vec<String> = std::fs::read_dir(&dir)
        .expect("fuzz/corpus")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    let mut targets: Vec<String> = fuzz::TARGETS.iter().map(|t| t.to_string()).collect();
    targets.sort();
    assert_eq!(found, targets);
    for target in fuzz::TARGETS {
        let source = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fuzz/fuzz_targets")
            .join(format!("{target}.rs"));
        assert!(source.is_file(), "{} is missing", source.display());
    }
}
