//! game-core is a pure function of (seed, content, keys), and the checks'
//! crate, which judges it, is as pure: a check that read a clock or iterated
//! a hash map could report differently on two runs of the same keys.
//! clippy.toml catches the disallowed calls when clippy runs; this test
//! holds the line in every `cargo test` as well: no dependency that does
//! I/O, and no source line that reaches for a clock, a file, the
//! environment, a thread, a hash map or a float.

// The test itself reads the crate's files; the game never does.
#![allow(clippy::disallowed_methods)]

use std::path::Path;

/// What game-core and the checks may depend on: serialization, the ChaCha
/// generator, the hash, the width of a character, (optionally) the fuzzers'
/// input type, and, for the checks, game-core.
const ALLOWED_DEPENDENCIES: [&str; 10] = [
    "serde",
    "ron",
    "serde_bytes",
    "rand_chacha",
    "rand_core",
    "postcard",
    "xxhash-rust",
    "arbitrary",
    "unicode-width",
    "game-core",
];

/// The pure crates, as folders beside this one.
const PURE_CRATES: [&str; 2] = ["game-core", "checks"];

/// A folder of the workspace, by its name.
fn workspace_folder(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("game-core sits in the workspace")
        .join(name)
}

/// Source text that must not appear outside comments.
const FORBIDDEN: [&str; 14] = [
    "std::time",
    "std::fs",
    "std::env",
    "std::thread",
    "std::process",
    "std::net",
    "std::io::stdin",
    "HashMap",
    "HashSet",
    "thread_rng",
    "from_entropy",
    "f32",
    "f64",
    "println!",
];

#[test]
fn the_pure_crates_depend_only_on_pure_crates() {
    for krate in PURE_CRATES {
        depends_only_on_pure_crates(krate);
    }
}

fn depends_only_on_pure_crates(krate: &str) {
    let manifest = std::fs::read_to_string(workspace_folder(krate).join("Cargo.toml"))
        .expect("the crate's manifest is readable");
    let mut section = "";
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
            continue;
        }
        if section != "[dependencies]" || line.is_empty() || line.starts_with('#') {
            continue;
        }
        let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
        assert!(
            ALLOWED_DEPENDENCIES.contains(&name),
            "{krate} depends on {name:?}, which is not in the allow-list of pure crates; \
             I/O belongs in harness"
        );
    }
}

#[test]
fn no_source_line_reaches_outside() {
    for krate in PURE_CRATES {
        no_line_of_reaches_outside(krate);
    }
}

fn no_line_of_reaches_outside(krate: &str) {
    let src = workspace_folder(krate).join("src");
    let mut offences = Vec::new();
    let mut files = 0;
    visit(&src, &mut |path, text| {
        files += 1;
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            for token in FORBIDDEN {
                if contains_token(code, token) {
                    offences.push(format!("{}:{}: {token}", path.display(), number + 1));
                }
            }
        }
    });
    assert!(
        files > 5,
        "the scan of {krate} found only {files} source files"
    );
    assert!(
        offences.is_empty(),
        "impure code in {krate}:\n{}",
        offences.join("\n")
    );
}

/// `token` as a whole word (so `f32` does not match `buf32`).
fn contains_token(code: &str, token: &str) -> bool {
    code.match_indices(token).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + token.len()..].chars().next();
        let is_word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !is_word(before) && !is_word(after)
    })
}

fn visit(dir: &Path, check: &mut dyn FnMut(&Path, &str)) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("source directory is readable")
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            visit(&path, check);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("source file is readable");
            check(&path, &text);
        }
    }
}

#[test]
fn the_token_matcher_finds_whole_words_only() {
    assert!(contains_token("let x: f32 = 1.0;", "f32"));
    assert!(!contains_token("let buf32 = 1;", "f32"));
    assert!(contains_token("use std::time::Instant;", "std::time"));
    assert!(!contains_token("my_HashMapLike", "HashMap"));
}
