//! The probe (`deja probe`): the harness's own dynamic checks as one measure
//! of the bugs it catches. `ci/mutants.sh` runs `the_probe_finds_nothing`
//! against every mutant of game-core, so a mutant is caught exactly when the
//! probe finds something; `ci/probe.sh` runs the probe on its own.
//!
//! The probe must stay a bug detector, not a golden file: the other tests
//! here show it passes on changes that are not bugs: another range of seeds,
//! and content with a renamed monster, a new description and a new monster
//! at depth 6.
//!
//! Each run takes about 20 seconds in a release build, so the tests are
//! ignored by a plain `cargo test`; run them with
//! `cargo test --release -p harness --test probe -- --ignored`. With
//! `DEJA_PROBE_BIN` set to a release `deja`, a debug build of these tests
//! runs that binary instead of its own: .ci/run points it at the release
//! build ci/replay.sh made, so the tests need no release build of their own
//! (about two minutes of CI).

mod support;

use std::path::{Path, PathBuf};

use support::{assert_exit, run, scratch, text};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("harness/ sits in the repository")
        .to_path_buf()
}

/// `deja probe ARGS` from the repository's root, which must find nothing.
fn probe_passes(args: &[&str]) {
    let mut all = vec!["probe"];
    all.extend_from_slice(args);
    let out = match std::env::var_os("DEJA_PROBE_BIN") {
        Some(bin) => assert_cmd::Command::new(bin)
            .current_dir(repo_root())
            .args(&all)
            .output()
            .expect("DEJA_PROBE_BIN runs"),
        None => run(&all, &repo_root()),
    };
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("probe: nothing found"), "{stdout}");
}

/// The embedded content, copied to a scratch directory and edited.
fn content_with(name: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let dir = scratch("probe", name);
    let source = repo_root().join("game-core/content");
    for file in ["monsters.ron", "items.ron"] {
        let text = std::fs::read_to_string(source.join(file)).expect("embedded content");
        let text = if file == "monsters.ron" {
            edit(text)
        } else {
            text
        };
        std::fs::write(dir.join(file), text).expect("write content");
    }
    dir
}

#[test]
#[ignore = "20 s in release; ci/probe.sh, ci/mutants.sh and .ci/run run it"]
fn the_probe_finds_nothing() {
    probe_passes(&["--fail-fast"]);
}

#[test]
#[ignore = "20 s in release; .ci/run runs it"]
fn the_probe_passes_on_another_range_of_seeds() {
    probe_passes(&["--first-seed", "40001"]);
}

/// Content edited as a designer edits it: a monster renamed, a description
/// rewritten, and a new monster at depth 6, made like its neighbours there
/// (the ogre: 18 hit points, attack 2, 1d6): a monster far stronger than its
/// depth would be a balance change, which the baselines are there to flag.
/// One probe of all three edits (a probe is a minute of CI): any of them
/// that the probe took for a bug fails it.
#[test]
#[ignore = "20 s in release; .ci/run runs it"]
fn the_probe_passes_after_renaming_a_monster_and_adding_one_at_depth_6() {
    let dir = content_with("edited", |text| {
        assert!(text.contains("name: \"goblin\""));
        let marker = "    // Depth 7: the deepest.";
        assert!(text.contains(marker));
        text.replace("name: \"goblin\"", "name: \"hobgoblin\"")
            .replace(
                "A lumbering heap of muscle and bad temper. Easy to hit, hard to stop.",
                "A mountain of gristle that smells of old cheese.",
            )
            .replace(
                marker,
                "    (\n        name: \"cave bear\",\n        glyph: 'U',\n        max_hp: 18,\n        att: 2,\n        dv: 9,\n        damage: \"1d6\",\n        speed: 90,\n        danger: 6,\n        weight: 40,\n        description: \"A shaggy brown mass that was asleep until you arrived.\",\n    ),\n\n    // Depth 7: the deepest.",
            )
    });
    probe_passes(&["--content", dir.to_str().expect("a UTF-8 path")]);
}

/// The CI scripts run the deja cargo built, wherever the target directory
/// is: `ci/target-dir.sh` follows CARGO_TARGET_DIR, and no script names
/// `target/release/` itself (which failed with exit 127 under a
/// CARGO_TARGET_DIR).
#[test]
fn the_ci_scripts_find_the_binary_under_any_target_directory() {
    let elsewhere = scratch("probe", "target-dir").join("built here");
    let out = assert_cmd::Command::new(repo_root().join("ci/target-dir.sh"))
        .env("CARGO_TARGET_DIR", &elsewhere)
        .output()
        .expect("ci/target-dir.sh runs");
    assert_exit(&out, 0);
    assert_eq!(
        text(&out.stdout).trim_end(),
        elsewhere.display().to_string()
    );
    for script in ["ci/probe.sh", "ci/canary.sh", "ci/replay.sh", ".ci/run"] {
        let source = std::fs::read_to_string(repo_root().join(script)).unwrap();
        let runs_a_fixed_path = source
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .find(|line| line.contains("target/release/") || line.contains("target/debug/"));
        assert!(
            runs_a_fixed_path.is_none(),
            "{script} names a fixed target directory: {runs_a_fixed_path:?}; ask ci/target-dir.sh"
        );
    }
}

/// Outside the repository's root, the probe's default baseline and corpus
/// paths name nothing: it says so before the first seed (the sweeps take
/// minutes), naming the path.
#[test]
fn the_probe_checks_its_inputs_before_the_first_seed() {
    let dir = scratch("probe", "elsewhere");
    let baselines = repo_root().join("baselines/sweep.ron");
    let baselines = baselines.to_str().expect("UTF-8");
    // Each refusal comes at once: a sweep would take far longer than this.
    let quick = std::time::Duration::from_secs(30);
    for (args, says) in [
        (
            vec!["probe"],
            vec!["baselines/sweep.ron: no such file; run from the repository's root"],
        ),
        (
            vec!["probe", "--baselines", baselines],
            vec!["fuzz/corpus/intents", "one folder per fuzz target"],
        ),
    ] {
        let out = support::deja()
            .current_dir(&dir)
            .args(&args)
            .timeout(quick)
            .output()
            .expect("deja runs");
        assert_exit(&out, 1);
        let err = text(&out.stderr);
        assert!(says.iter().all(|s| err.contains(s)), "{args:?}: {err}");
    }
}
