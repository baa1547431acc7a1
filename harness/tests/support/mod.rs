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

/// A recording's text with its seed moved on by one: the same keys on
/// another game, which drifts at step 0. Reads the seed rather than naming
/// it, so remaking a corpus recording on another seed moves no test.
pub fn with_the_next_seed(recording: &str) -> String {
    let at = recording.find("\n    seed: ").expect("a seed line") + "\n    seed: ".len();
    let end = at
        + recording[at..]
            .find(',')
            .expect("the seed ends with a comma");
    let seed: u64 = recording[at..end].parse().expect("a seed");
    format!("{}{}{}", &recording[..at], seed + 1, &recording[end..])
}

/// A recording's text with the key at `step` (from 1) replaced by `key`
/// (one key in key notation) and its hashes kept, so the run drifts there;
/// with the key it replaced, in notation. Edits the parsed recording, so
/// remaking a corpus recording moves no test that picks a step.
pub fn with_key_at(recording: &str, step: usize, key: &str) -> (String, String) {
    let mut parsed = harness::recording::from_text(recording).expect("a recording");
    let [new] = game_core::Key::parse_all(key).expect("key notation")[..] else {
        panic!("{key:?} is not one key");
    };
    let old = std::mem::replace(&mut parsed.keys[step - 1], new);
    (harness::recording::to_text(&parsed), old.to_string())
}

/// The path of `name` in the regression corpus, `recordings/` (the
/// directory itself for "").
pub fn corpus(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../recordings")
        .join(name)
        .display()
        .to_string()
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

/// The first stretch of `text` that looks like Rust's `Debug` output, if
/// any: `Some(`, `Ok(`, `Err(`, a `None` ending a value, a struct's
/// `Name { field: ` or `Name { .. }`, or a tuple variant `Name(` holding
/// a name, a number or a string, with no space before its parenthesis, as
/// prose never has.
pub fn debug_looking(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let snippet = |at: usize| {
        let end = (at + 40).min(text.len());
        let end = (end..=text.len())
            .find(|&e| text.is_char_boundary(e))
            .unwrap_or(text.len());
        text[at..end].to_string()
    };
    let mut at = 0;
    while at < bytes.len() {
        let starts_word =
            at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        if !starts_word || !bytes[at].is_ascii_uppercase() {
            at += 1;
            continue;
        }
        let end = (at..bytes.len())
            .find(|&i| !(bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_'))
            .unwrap_or(bytes.len());
        let word = &text[at..end];
        let rest = &text[end..];
        let has_lower = word.bytes().any(|b| b.is_ascii_lowercase());
        let looks = match word {
            "Some" | "Ok" | "Err" => rest.starts_with('('),
            "None" => rest.is_empty() || rest.starts_with([',', ')', '}', ']']),
            _ if has_lower => {
                struct_body(rest)
                    || rest.strip_prefix('(').is_some_and(|inside| {
                        inside.starts_with(|c: char| {
                            c.is_ascii_uppercase() || c.is_ascii_digit() || c == '"'
                        })
                    })
            }
            _ => false,
        };
        if looks {
            return Some(snippet(at));
        }
        at = end.max(at + 1);
    }
    None
}

/// Whether `rest` (what follows a name) opens a struct's `Debug`:
/// ` { field: ` or ` { .. }`.
fn struct_body(rest: &str) -> bool {
    let Some(body) = rest.strip_prefix(" { ") else {
        return false;
    };
    if body.starts_with(".. }") {
        return true;
    }
    let field_end = body
        .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
        .unwrap_or(body.len());
    field_end > 0 && body[field_end..].starts_with(": ")
}

/// The exit code is `code`, nothing panicked on the way, and nothing it
/// printed looks like a Rust `Debug` dump.
pub fn assert_exit(out: &Output, code: i32) {
    assert_exit_printing_data(out, code);
    if let Some(dump) = debug_looking(&text(&out.stdout)) {
        panic!("prints a Debug dump: {dump:?}\n{}", text(&out.stdout));
    }
}

/// As [`assert_exit`], for a command whose standard output is data the
/// user asked for (`show --state` prints the state as RON, whose
/// `Some(3)` is the format, not a dump): only standard error is read.
pub fn assert_exit_printing_data(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    if let Some(dump) = debug_looking(&stderr) {
        panic!("prints a Debug dump: {dump:?}\n{stderr}");
    }
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

/// Runs deja to the end with `args` in `dir`; its exit code and peak
/// resident memory in kilobytes (Linux: wait4's rusage of that child alone).
#[expect(
    clippy::zombie_processes,
    reason = "reaped by wait4, which gives its rusage"
)]
pub fn peak_kb_of(args: &[&str], dir: &std::path::Path) -> (i32, u64) {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_deja"))
        .current_dir(dir)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("deja runs");
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our child, not yet waited for; both pointers are valid.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4: {}", std::io::Error::last_os_error());
    assert!(
        libc::WIFEXITED(status),
        "deja did not exit: status {status}"
    );
    (
        libc::WEXITSTATUS(status),
        u64::try_from(usage.ru_maxrss).unwrap(),
    )
}

/// Words of a shell line: spaces split, single quotes group.
pub fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                started = true;
            }
            ' ' if !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}
