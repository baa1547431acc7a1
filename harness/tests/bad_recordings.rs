//! Broken recordings: every file in tests/bad-recordings/ is a real recording
//! (made with `deja play -o`) with one thing broken, named for what it
//! breaks. Reading each must be refused, without a panic, with an error that
//! starts `path:line:column:` at the broken place and says what is wrong.

mod support;

use std::path::{Path, PathBuf};

use harness::recording::{self, MAX_FILE_BYTES, MAX_KEYS};
use support::deja;

/// Each broken file, where its error points (`line:column`) and a fragment of
/// the message. Every file in the directory must be here, and every entry
/// must have its file.
const EXPECTED: &[(&str, &str, &str)] = &[
    (
        "binary-gzipped.ron",
        "1:2",
        "not UTF-8 text (bad byte at offset 1)",
    ),
    (
        "canary-unknown.ron",
        "9:31",
        "unknown canary \"slippery-stairs\"; known: uncharged-refusal",
    ),
    (
        "checkpoint-hash-short.ron",
        "19:29",
        "checkpoint hash \"81a3df397c21d8d\" is not 16 hex digits",
    ),
    (
        "checkpoint-past-last-step.ron",
        "19:30",
        "a checkpoint at step 10, past the last hashed step",
    ),
    (
        "concatenated-recordings.ron",
        "28:1",
        "text after the recording's closing `)`",
    ),
    // A nested block comment holding a lone quote, and a file that ends in a
    // backslash: the locator must follow RON's comments, and not panic.
    (
        "content-short-after-nested-comment.ron",
        "7:5",
        "content \"6986ce8ffa07828\" is not a 16-digit hex fingerprint",
    ),
    (
        "content-not-hex.ron",
        "6:5",
        "content \"0x6986ce8ffa0782\" is not a 16-digit hex fingerprint",
    ),
    (
        "duplicate-field-seed.ron",
        "8:5",
        "duplicate field named `seed`",
    ),
    ("empty.ron", "1:1", "the file is empty"),
    (
        "failure-kind-unknown-field.ron",
        "23:69",
        "Unexpected field named `severity` in `Invariant`",
    ),
    (
        "failure-step-past-keys.ron",
        "23:5",
        "the failure is at step 5 but there are only 3 keys",
    ),
    (
        "failure-unknown-kind.ron",
        "23:35",
        "Unexpected variant named `Crash` in enum `FailureKind`",
    ),
    (
        "expect-in-format-1.ron",
        "24:5",
        "`expect` is part of format 2; write `format: 2`",
    ),
    // Expect lists no run could show, or every run shows: refused when
    // the file is read, naming the item.
    (
        "expect-won-and-died.ron",
        "24:29",
        "expect item 3: the player dies of \"poison\": a run ends one way, and item 1 says the run is won",
    ),
    (
        "expect-depth-past-last-floor.ron",
        "24:23",
        "expect item 2: the player reaches depth 99: depth 99 is past the last floor, 6",
    ),
    (
        "expect-depth-0.ron",
        "24:14",
        "expect item 1: the player reaches depth 0: the run starts on depth 1, so this holds from the first step",
    ),
    (
        "expect-says-empty.ron",
        "24:31",
        "expect item 2: a message says \"\": blank text is in every name and message, so this always holds",
    ),
    (
        "expect-screen-blank.ron",
        "24:23",
        "expect item 2: a screen with \"  \" in its name is open: blank text",
    ),
    // Too long to echo: the count is said, not the text.
    (
        "expect-text-too-long.ron",
        "24:14",
        "expect item 1: an expectation's text is 5000 characters; at most 200",
    ),
    (
        "expect-unknown-kind.ron",
        "24:23",
        "Unexpected variant named `Flies` in enum `Expectation`",
    ),
    (
        "failure-with-running-outcome.ron",
        "22:5",
        "the outcome is Failed exactly when there is a failure",
    ),
    (
        "format-version-3-new-field.ron",
        "4:5",
        "unknown format version 3; this deja reads versions 1 to 2",
    ),
    (
        "format-version-3.ron",
        "4:5",
        "unknown format version 3; this deja reads versions 1 to 2",
    ),
    // The column counts `\"` and `\\` as written, two columns each.
    (
        "key-after-escapes.ron",
        "11:21",
        "bad key \"<Tabb>\": unknown key name",
    ),
    // A raw string with a quote in it before the bad line.
    (
        "key-bad-after-raw-string.ron",
        "12:12",
        "bad key \"<Esx>\": unknown key name",
    ),
    (
        "frame-every-zero.ron",
        "9:5",
        "frame_every 0 is outside 1..=1024",
    ),
    (
        "oracle-every-zero.ron",
        "9:5",
        "oracle_every 0 is outside 1..=1024",
    ),
    (
        "key-bad-name.ron",
        "11:14",
        "bad key \"<Esx>\": unknown key name",
    ),
    (
        "key-control-char.ron",
        "11:12",
        "a control character is not a key",
    ),
    (
        "key-unclosed-lt.ron",
        "12:13",
        "bad key \"<Enter\": unclosed '<'",
    ),
    (
        "latin1-note.ron",
        "24:45",
        "not UTF-8 text (bad byte at offset 661)",
    ),
    (
        "map-size-out-of-range.ron",
        "8:5",
        "map size 300x40 is outside what the game plays on",
    ),
    (
        "missing-field-map.ron",
        "24:1",
        "missing field named `map` in `Recording`",
    ),
    (
        "nested-too-deep.ron",
        "9:78",
        "values are nested too deeply",
    ),
    (
        "note-too-long.ron",
        "24:5",
        "the note is longer than 16384 characters",
    ),
    (
        "outcome-failed-without-failure.ron",
        "22:5",
        "the outcome is Failed exactly when there is a failure",
    ),
    (
        "outcome-unknown-field.ron",
        "22:42",
        "Unexpected field named `hp` in `Running`",
    ),
    (
        "outcome-unknown-variant.ron",
        "22:14",
        "Unexpected variant named `Playing` in enum `RecordedOutcome`",
    ),
    (
        "per-step-count-mismatch.ron",
        "14:9",
        "10 per-step hashes for 9 steps (the start and each key)",
    ),
    (
        "per-step-hash-for-failing-step.ron",
        "14:9",
        "4 per-step hashes for 3 steps (the start and each key before the failing one)",
    ),
    (
        "per-step-not-multiple-of-4.ron",
        "15:13",
        "per-step hashes are 4 bytes each; this line holds 38",
    ),
    (
        "per-step-padded.ron",
        "15:13",
        "per-step hashes are not base64: Invalid padding",
    ),
    (
        "per-step-url-safe-base64.ron",
        "15:13",
        "per-step hashes are not base64: Invalid symbol 95",
    ),
    ("seed-as-string.ron", "7:10", "Expected integer"),
    ("seed-negative.ron", "7:12", "Integer is out of bounds"),
    ("seed-too-large.ron", "7:11", "Integer is out of bounds"),
    (
        "truncated-mid-file.ron",
        "19:14",
        "the file ends with a bracket still open (is it truncated?)",
    ),
    (
        "truncated-mid-string.ron",
        "24:11",
        "the file ends with a bracket still open (is it truncated?)",
    ),
    (
        "unknown-field-in-game.ron",
        "5:50",
        "Unexpected field named `build` in `GameInfo`",
    ),
    (
        "unknown-field.ron",
        "8:5",
        "Unexpected field named `difficulty` in `Recording`",
    ),
    (
        "wrong-shape-list.ron",
        "2:1",
        "Expected opening `(` for struct `Recording`",
    ),
];

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad-recordings")
}

/// The file names in the corpus directory, sorted.
fn corpus_files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .expect("tests/bad-recordings exists")
        .map(|entry| {
            let entry = entry.expect("a readable directory entry");
            entry
                .file_name()
                .into_string()
                .expect("corpus file names are UTF-8")
        })
        .collect();
    names.sort();
    names
}

/// Reads `path`, turning a panic into a test failure that names the file.
fn read_refused(path: &Path) -> Result<String, String> {
    let read = std::panic::catch_unwind(|| recording::read(path));
    match read {
        Err(_) => Err(format!("{}: reading panicked", path.display())),
        Ok(Ok(_)) => Err(format!("{}: was accepted", path.display())),
        Ok(Err(error)) => Ok(error.to_string()),
    }
}

fn scratch(name: &str) -> PathBuf {
    support::scratch("bad-recordings", name)
}

/// A real recording's text: seed 7, `llll>oooo`, as `deja play -o`
/// writes it.
fn real_recording() -> String {
    let mut runner =
        harness::run::runner::Runner::new(game_core::GameConfig::new(7)).expect("starts");
    for key in game_core::Key::parse_all("llll>oooo").expect("valid keys") {
        runner.press(key).expect("no failure");
    }
    recording::to_text(&runner.recording("a real run".into()))
}

#[test]
fn the_corpus_and_the_table_name_the_same_files() {
    let files = corpus_files();
    assert!(
        files.len() >= 15,
        "only {} broken recordings in {}",
        files.len(),
        corpus_dir().display()
    );
    let untested: Vec<&String> = files
        .iter()
        .filter(|name| !EXPECTED.iter().any(|(known, _, _)| known == name))
        .collect();
    let missing: Vec<&str> = EXPECTED
        .iter()
        .map(|(name, _, _)| *name)
        .filter(|name| !files.iter().any(|file| file == name))
        .collect();
    assert!(
        untested.is_empty(),
        "files with no entry in EXPECTED: {untested:?}"
    );
    assert!(missing.is_empty(), "entries with no file: {missing:?}");
}

#[test]
fn every_broken_recording_is_refused_at_its_place() {
    let mut wrong = Vec::new();
    for name in corpus_files() {
        let path = corpus_dir().join(&name);
        let Some(&(_, at, fragment)) = EXPECTED.iter().find(|(known, _, _)| *known == name) else {
            wrong.push(format!("{name}: not in EXPECTED"));
            continue;
        };
        match read_refused(&path) {
            Err(problem) => wrong.push(problem),
            Ok(message) => {
                let prefix = format!("{}:{at}: ", path.display());
                if !message.starts_with(&prefix) || !message.contains(fragment) {
                    wrong.push(format!(
                        "{name}: expected `{at}: ...{fragment}...`, got: {message}"
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// Broken files, each with the edit that repairs it: once repaired, each
/// reads. So each of these files is refused for the one thing it breaks, not
/// for another problem the table does not name.
const REPAIRS: &[(&str, &str, &str)] = &[
    ("format-version-3.ron", "format: 3,", "format: 2,"),
    ("expect-in-format-1.ron", "format: 1,", "format: 2,"),
    ("expect-unknown-kind.ron", ", Flies(3)", ""),
    ("expect-won-and-died.ron", ", Died(\"poison\")", ""),
    ("expect-depth-past-last-floor.ron", "Depth(99)", "Depth(6)"),
    ("expect-depth-0.ron", "Depth(0)", "Depth(2)"),
    ("expect-says-empty.ron", ", Says(\"\")", ""),
    (
        "expect-screen-blank.ron",
        "Screen(\"  \")",
        "Screen(\"help\")",
    ),
    ("seed-as-string.ron", "seed: \"7\",", "seed: 7,"),
    ("seed-negative.ron", "seed: -7,", "seed: 7,"),
    ("key-bad-name.ron", "llll<Esx>oooo", "llll>oooo"),
    ("key-after-escapes.ron", "<Tabb>", "<Tab>"),
    ("per-step-padded.ron", "==\"", "\""),
    (
        "per-step-count-mismatch.ron",
        "\"llll>ooo\"",
        "\"llll>oooo\"",
    ),
    ("checkpoint-past-last-step.ron", "(step: 10,", "(step: 9,"),
    (
        "checkpoint-hash-short.ron",
        "81a3df397c21d8d\"",
        "81a3df397c21d8d0\"",
    ),
    ("canary-unknown.ron", ", \"slippery-stairs\"", ""),
    ("failure-step-past-keys.ron", "step: 5,", "step: 3,"),
    ("outcome-unknown-field.ron", ", hp: 30", ""),
    ("map-size-out-of-range.ron", "width: 300", "width: 80"),
    ("frame-every-zero.ron", "    frame_every: 0,\n", ""),
    ("oracle-every-zero.ron", "    oracle_every: 0,\n", ""),
    ("key-unclosed-lt.ron", "<Enter\"", "<Enter>\""),
    ("key-control-char.ron", "\\t", "l"),
    ("key-bad-after-raw-string.ron", "<Esx>", "<Esc>"),
    ("per-step-url-safe-base64.ron", "ml_cj", "ml/cj"),
    ("unknown-field.ron", "    difficulty: 3,\n", ""),
    ("duplicate-field-seed.ron", "    seed: 8,\n", ""),
    (
        "missing-field-map.ron",
        "    canaries:",
        "    map: (width: 80, height: 40),\n    canaries:",
    ),
    ("unknown-field-in-game.ron", ", build: \"debug\"", ""),
    ("failure-kind-unknown-field.ron", " severity: \"high\",", ""),
    ("outcome-unknown-variant.ron", "Playing", "Running"),
    (
        "outcome-failed-without-failure.ron",
        "outcome: Failed",
        "outcome: Running(depth: 1, turn: 28)",
    ),
    (
        "failure-with-running-outcome.ron",
        "outcome: Running(depth: 1, turn: 3)",
        "outcome: Failed",
    ),
    (
        "content-not-hex.ron",
        "\"0x6986ce8ffa0782\"",
        "\"6986ce8ffa078282\"",
    ),
    (
        "seed-too-large.ron",
        "18446744073709551616",
        "18446744073709551615",
    ),
    (
        "per-step-hash-for-failing-step.ron",
        "vwe4kvasNlm8FPA/AQIDBA",
        "vwe4kvasNlm8FPA/",
    ),
    (
        "content-short-after-nested-comment.ron",
        "\"6986ce8ffa07828\"",
        "\"6986ce8ffa078282\"",
    ),
];

#[test]
fn repairing_the_one_broken_thing_makes_a_file_read() {
    for &(name, broken, repaired) in REPAIRS {
        let text = std::fs::read_to_string(corpus_dir().join(name)).expect("a UTF-8 corpus file");
        assert_eq!(text.matches(broken).count(), 1, "{name}: {broken:?}");
        let text = text.replacen(broken, repaired, 1);
        if let Err(message) = recording::from_text(&text) {
            panic!("{name}, repaired, is still refused: {message}");
        }
    }
}

#[test]
fn a_file_over_the_size_limit_is_refused() {
    let dir = scratch("bad-recordings-size");
    let path = dir.join("huge.ron");
    let mut text = real_recording();
    // A valid recording with a comment that takes it one byte over.
    let pad = MAX_FILE_BYTES as usize + 1 - text.len() - 3;
    text.push_str("//");
    text.push_str(&"x".repeat(pad));
    text.push('\n');
    assert_eq!(text.len() as u64, MAX_FILE_BYTES + 1);
    std::fs::write(&path, &text).expect("write");
    let message = read_refused(&path).expect("refused without a panic");
    let over = MAX_FILE_BYTES + 1;
    assert_eq!(
        message,
        format!(
            "{}:1:1: {over} bytes is over the {MAX_FILE_BYTES}-byte limit",
            path.display()
        )
    );
    let message = recording::from_text(&text)
        .expect_err("refused")
        .to_string();
    assert_eq!(
        message,
        format!("1:1: {over} bytes is over the {MAX_FILE_BYTES}-byte limit")
    );

    // One byte less is read (and holds the same run).
    text.truncate(text.len() - 2);
    text.push('\n');
    std::fs::write(&path, &text).expect("write");
    let recording = recording::read(&path).expect("16 MiB exactly is read");
    assert_eq!(recording.keys.len(), 9);
}

/// A real recording whose keys are `count` rests, in lines of 1000.
fn with_rest_keys(count: usize) -> String {
    let text = real_recording();
    let start = text.find("    keys: [\n").expect("keys list");
    let end = start + text[start..].find("    ],\n").expect("end of keys");
    let mut keys = String::from("    keys: [\n");
    let line = ".".repeat(1000);
    for _ in 0..count / 1000 {
        keys.push_str(&format!("        \"{line}\",\n"));
    }
    keys.push_str(&format!("        \"{}\",\n", ".".repeat(count % 1000)));
    format!("{}{keys}{}", &text[..start], &text[end..])
}

#[test]
fn more_than_a_million_keys_are_refused() {
    let dir = scratch("bad-recordings-keys");
    let path = dir.join("too-many-keys.ron");
    std::fs::write(&path, with_rest_keys(MAX_KEYS + 1)).expect("write");
    let message = read_refused(&path).expect("refused without a panic");
    assert_eq!(
        message,
        format!("{}:14:5: more than 1000000 keys", path.display())
    );

    // A million keys exactly pass the key limit; this file is then refused
    // only because its hashes are for 9 keys.
    std::fs::write(&path, with_rest_keys(MAX_KEYS)).expect("write");
    let message = read_refused(&path).expect("refused without a panic");
    assert!(
        message.contains("10 per-step hashes for 1000001 steps"),
        "{message}"
    );
}

#[test]
fn more_than_a_million_and_one_per_step_hashes_are_refused() {
    let text = real_recording();
    let start = text.find("per_step: [\n").expect("per_step") + "per_step: [\n".len();
    let end = start + text[start..].find("        ],").expect("end of per_step");
    // 16 base64 `A`s are 12 zero bytes, three hashes: 333,334 of them are
    // 1,000,002 hashes, one more than a million keys and the start.
    let line = format!("            \"{}\",\n", "A".repeat(16 * 333_334));
    let text = format!("{}{line}{}", &text[..start], &text[end..]);
    let dir = scratch("bad-recordings-hashes");
    let path = dir.join("too-many-hashes.ron");
    std::fs::write(&path, text).expect("write");
    let message = read_refused(&path).expect("refused without a panic");
    assert_eq!(
        message,
        format!("{}:19:13: more per-step hashes than keys", path.display())
    );
}

#[test]
fn replay_of_a_broken_file_exits_1_and_names_the_place() {
    for (name, at) in [
        ("truncated-mid-string.ron", "24:11"),
        ("key-bad-name.ron", "11:14"),
        ("binary-gzipped.ron", "1:2"),
    ] {
        let path = corpus_dir().join(name);
        let output = deja().arg("replay").arg(&path).output().expect("deja runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{name}: {stderr}");
        assert!(
            stderr.contains(&format!("error: {}:{at}: ", path.display())),
            "{name}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        assert!(output.stdout.is_empty(), "{name}: nothing replayed");
    }
}
