//! The examples of the README, docs/guide.md and CONTRIBUTING.md work in
//! the order written. Every `deja` line of their `sh` blocks runs, the
//! README's first, then the guide's, then CONTRIBUTING's, in one scratch
//! directory (with a copy of the corpus, the content as `my-mod/` and a key
//! script, as a reader would have them), and must exit as its comment says
//! (`# exit N`) or 0. So does every `cargo run --release -p harness` line:
//! with `--features canary` as this test's `deja` (built with the
//! canaries), without as the docs say, cargo building the default release
//! build (the one the README's first command built, so a reader's second
//! command reuses it, as CI's replay step does). The few that cannot run
//! here are skipped by name, each with why; the claims the docs make about
//! what a line prints are held in [`SAYS`].

mod support;

use std::path::Path;

/// Lines skipped, by a part of their text, and why.
const SKIPPED: &[(&str, &str)] = &[
    (
        "deja play   ",
        "needs a terminal: tests/terminal.rs plays it in tmux",
    ),
    ("deja play --seed 42 -o mine.ron", "needs a terminal"),
    ("mine.ron", "uses the run made at the terminal"),
    ("--watch", "needs a terminal"),
    (
        "deja probe",
        "ci/probe.sh runs it; --bless writes baselines",
    ),
    ("-- bench", "a benchmark, measured apart"),
    (
        "--seeds 1..2001",
        "a 2,000-seed sweep; ci/sweep.sh runs one",
    ),
    ("deja merge shard1.json", "needs the four shards of CI"),
];

/// What the docs say a line prints, by a part of the line: a part of its
/// output (standard output and error together).
const SAYS: &[(&str, &str)] = &[
    // The first command: "four steps north, then the stairs down".
    ("--keys 'kkkk>'", "You descend to depth 2."),
    ("-- replay bug.ron  ", "reproduced at step 3"),
    ("-- shrink bug.ron", "3 keys -> 1 key, the same failure"),
    (
        "-- diff bug.ron small.ron",
        "then at step 1 (bug.ron pressed l, small.ron pressed ?) small.ron fails",
    ),
    ("-- when bug.ron 'screen'", "step 3 (key ?"),
    (
        "'player.statuses.poison'",
        "player.statuses.poison: none -> rounds",
    ),
    (
        "-- replay small.ron",
        "fixed: the recorded failure at step 1",
    ),
    // The summary of the first sweep accounts for every run, and counts a
    // death by the monster whose blow or poison it was.
    (
        "# seeds 1..201, every floor, the explorer bot",
        "ended: 101 won, 99 died, 0 quit, 0 out of keys, 0 stuck, 0 failed (200 runs)",
    ),
    (
        "# seeds 1..201, every floor, the explorer bot",
        "17 basilisk (11 died of poison from a basilisk, 6 killed by a basilisk)",
    ),
];

/// The canary build as the docs run it, and the default build.
const CANARY_BUILD: &str = "cargo run --release -p harness --features canary --";
const DEFAULT_BUILD: &str = "cargo run --release -p harness --";

/// The docs whose examples run, in the order they run.
const DOCS: &[(&str, &str)] = &[
    ("README.md", include_str!("../../README.md")),
    ("docs/guide.md", include_str!("../../docs/guide.md")),
    ("CONTRIBUTING.md", include_str!("../../CONTRIBUTING.md")),
];

/// The `deja` and `cargo run` lines of the docs' `sh` blocks, in order,
/// each with the doc it is in.
fn examples() -> Vec<(&'static str, String)> {
    let mut lines = Vec::new();
    for (doc, text) in DOCS {
        let mut in_sh = false;
        for line in text.lines() {
            if line.starts_with("```") {
                in_sh = line == "```sh";
                continue;
            }
            if in_sh && (line.starts_with("deja ") || line.starts_with(DEFAULT_BUILD)) {
                lines.push((*doc, line.to_string()));
            }
        }
    }
    lines
}

/// The command and the exit code its comment names (0 when it names none).
fn command_and_exit(line: &str) -> (String, i32) {
    // A comment starts at a `#` after spaces, outside quotes.
    let mut quoted = false;
    let mut cut = line.len();
    for (i, c) in line.char_indices() {
        match c {
            '\'' => quoted = !quoted,
            '#' if !quoted && line[..i].ends_with(' ') => {
                cut = i;
                break;
            }
            _ => {}
        }
    }
    let comment = line[cut..].trim_start_matches('#').trim();
    let exit = comment
        .strip_prefix("exit ")
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    (line[..cut].trim_end().to_string(), exit)
}

#[test]
fn the_examples_of_the_docs_run_in_the_order_written() {
    let dir = support::scratch("readme", "examples");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // What a reader has at hand: the corpus (a copy: bless rewrites it),
    // the fuzz corpus, a content directory and a key script.
    for (from, to) in [
        ("recordings", "recordings"),
        ("game-core/content", "my-mod"),
    ] {
        std::fs::create_dir_all(dir.join(to)).unwrap();
        for entry in std::fs::read_dir(root.join(from)).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, dir.join(to).join(path.file_name().unwrap())).unwrap();
        }
    }
    std::os::unix::fs::symlink(root.join("fuzz"), dir.join("fuzz")).unwrap();
    std::fs::write(
        dir.join("script.keys"),
        "# a key script, as docs/guide.md describes one\nllll>\noooo  # four auto-explores\n",
    )
    .unwrap();
    // This test's `deja`, copied: under `cargo test --release` it lives at
    // target/release/deja, the very path the docs' `cargo run --release`
    // lines rebuild without the canaries.
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let deja = bin.join("deja");
    std::fs::copy(env!("CARGO_BIN_EXE_deja"), &deja).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );

    // The canary lines run this test's `deja`, which must be the canary
    // build the docs ask for.
    let version = std::process::Command::new(&deja)
        .arg("--version")
        .output()
        .expect("deja runs");
    assert!(
        String::from_utf8_lossy(&version.stdout).contains("canary"),
        "the tests' deja has no canaries"
    );
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let default_build = format!(
        "'{cargo}' run --quiet --locked --release --manifest-path '{}' -p harness --",
        root.join("Cargo.toml").display()
    );

    let mut ran = 0;
    let mut skips_used = vec![false; SKIPPED.len()];
    let mut claims_met = vec![false; SAYS.len()];
    let mut wrong = Vec::new();
    for (doc, line) in examples() {
        if let Some(i) = SKIPPED.iter().position(|(part, _)| line.contains(part)) {
            skips_used[i] = true;
            eprintln!("skipped ({}): {doc}: {line}", SKIPPED[i].1);
            continue;
        }
        let (command, exit) = command_and_exit(&line);
        let command = if let Some(rest) = command.strip_prefix(CANARY_BUILD) {
            format!("deja{rest}")
        } else if let Some(rest) = command.strip_prefix(DEFAULT_BUILD) {
            format!("{default_build}{rest}")
        } else {
            command
        };
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(&command)
            .current_dir(&dir)
            .env("PATH", &path)
            // As a reader types them: without the clippy-driver wrapper
            // ci/test.sh builds the tests with, which would lint this
            // release build too and leave it unlike the one CI's later
            // stages build.
            .env_remove("RUSTC_WORKSPACE_WRAPPER")
            .env_remove("CLIPPY_ARGS")
            .output()
            .expect("sh runs");
        ran += 1;
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if out.status.code() != Some(exit) {
            wrong.push(format!(
                "{doc}: {line}: exit {:?}, {doc} says {exit}\n{printed}",
                out.status.code(),
            ));
        }
        for (i, (part, says)) in SAYS.iter().enumerate() {
            if !line.contains(part) {
                continue;
            }
            claims_met[i] = true;
            if !printed.contains(says) {
                wrong.push(format!(
                    "{doc}: {line}: {doc} says it prints {says:?}, it printed\n{printed}"
                ));
            }
        }
    }
    assert!(ran >= 15, "only {ran} examples ran");
    for ((part, _), used) in SKIPPED.iter().zip(skips_used) {
        assert!(
            used,
            "SKIPPED names {part:?}, which no line of the docs holds"
        );
    }
    for (claim, met) in SAYS.iter().zip(claims_met) {
        assert!(
            met,
            "SAYS holds {claim:?} of a line the docs no longer have"
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn comments_give_the_exit_code() {
    assert_eq!(
        command_and_exit("deja replay run.ron   # exit 3: drift"),
        ("deja replay run.ron".to_string(), 3)
    );
    assert_eq!(
        command_and_exit("deja play --keys 'a #b'  # plays"),
        ("deja play --keys 'a #b'".to_string(), 0)
    );
}

/// The README's table of exit codes is the one table the code has
/// (`plumbing::exit::Exit`), row for row: the code and its meaning.
#[test]
fn the_exit_code_table_is_the_codes() {
    use harness::plumbing::exit::Exit;
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .expect("the README reads");
    let section = readme
        .split("\n## Exit codes\n")
        .nth(1)
        .expect("the README has an Exit codes section");
    let rows: Vec<(String, String)> = section
        .lines()
        .filter(|line| line.starts_with("| ") && !line.starts_with("| code"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
            (cells[0].trim().to_string(), cells[1].trim().to_string())
        })
        .collect();
    let codes: Vec<(String, String)> = Exit::ALL
        .iter()
        .map(|exit| (exit.code().to_string(), exit.meaning().to_string()))
        .collect();
    assert_eq!(rows, codes);
}
