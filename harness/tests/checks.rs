//! The invariant checks, each proven end to end through the real `deja`: a
//! planted defect (a canary) that only that check can see is found by a
//! small sweep, named by its invariant id, and saved as a recording that
//! `deja replay` reproduces. ci/canary.sh proves every canary from nothing
//! with larger budgets; these are the quick ones, so `cargo test` fails the
//! moment a check stops seeing what it is for.
//!
//! Also: a hang becomes a recording, is reproduced and shrinks; a sweep's
//! figures are held to a baseline; a bot that goes nowhere is stopped.

mod support;

use support::{
    assert_exit, assert_prints, assert_replay_reproduces, assert_says, first_saved_failure, run,
    scratch, text,
};

/// `(canary, bot, seeds, the id it must be found by)`: each found within
/// the first few seeds of a sweep.
const QUICK: [(&str, &str, &str, &str); 12] = [
    ("double-step", "explorer", "1..3", "move.legal"),
    ("skipped-round", "random", "1..3", "clock.rounds"),
    ("sleepwalker", "explorer", "1..3", "monster.notice"),
    ("stuck-north", "random", "1..3", "key.contract"),
    ("blind-spot", "random", "1..3", "fov.around_player"),
    ("narrow-sight", "random", "1..3", "fov.oracle"),
    ("crooked-chase", "explorer", "1..3", "paths.oracle"),
    ("vanishing-drop", "random", "1..4", "items.conserved"),
    ("weak-potion", "explorer", "1..2", "hp.explained"),
    ("half-heard", "explorer", "1..2", "press.outcome"),
    ("crowded-start", "none", "1..2", "spawn.rules"),
    ("quiet-walk", "random", "1..3", "key.contract"),
];

/// `--fail-fast` reports the lowest failing seed, whatever the jobs: with
/// every seed failing (crowded-start plants on every floor below the first),
/// a second worker starting mid-range fails at once, and must not be what
/// is reported.
#[test]
fn fail_fast_reports_the_lowest_failing_seed_whatever_the_jobs() {
    for jobs in ["1", "2"] {
        let dir = scratch("checks", &format!("fail-fast-{jobs}"));
        let out = run(
            &[
                "sweep",
                "--seeds",
                "1..400",
                "--bot",
                "none",
                "--canary",
                "crowded-start",
                "--fail-fast",
                "--jobs",
                jobs,
            ],
            &dir,
        );
        assert_exit(&out, 4);
        let stdout = text(&out.stdout);
        let failures: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("FAILURE"))
            .collect();
        assert!(!failures.is_empty(), "no failure reported: {stdout}");
        for line in &failures {
            assert!(
                line.ends_with(", first at seed 1"),
                "--jobs {jobs} reported a seed above the lowest failing one: {line}"
            );
        }
        for line in stdout.lines().filter(|l| l.starts_with("  smallest: ")) {
            assert!(
                line.starts_with("  smallest: seed 1 "),
                "--jobs {jobs} reported a seed above the lowest failing one: {line}"
            );
        }
    }
}

#[test]
fn each_new_check_finds_its_canary_and_the_recording_reproduces_it() {
    for (canary, bot, seeds, id) in QUICK {
        let dir = scratch("checks", canary);
        let saved = dir.join("failures");
        let out = run(
            &[
                "sweep",
                "--seeds",
                seeds,
                "--bot",
                bot,
                "--canary",
                canary,
                "--fail-fast",
                "--jobs",
                "1",
                "--save-failures",
                saved.to_str().expect("a UTF-8 path"),
            ],
            &dir,
        );
        assert_exit(&out, 4);
        assert_prints(&out, &format!("invariant {id} broken"));
        assert_replay_reproduces(&first_saved_failure(&out), &dir, id);
    }
}

#[test]
fn a_hang_becomes_a_recording_that_reproduces_and_shrinks() {
    let dir = scratch("checks", "hang");
    let report = dir.join("hang.ron");
    let report_arg = report.to_str().expect("UTF-8");
    let out = support::deja()
        .current_dir(&dir)
        .env("DEJA_HANG_SECONDS", "1")
        .args([
            "play",
            "--seed",
            "3",
            "--keys",
            "l;ll<Enter>",
            "--canary",
            "stalling-look",
            "-o",
            report_arg,
        ])
        .output()
        .expect("deja runs");
    assert_exit(&out, 4);
    assert_says(&out, "hang: key <Enter> at step 5 ran for more than 1 s");
    assert_says(&out, &format!("deja replay {report_arg}"));

    let replayed = support::deja()
        .current_dir(&dir)
        .env("DEJA_HANG_SECONDS", "1")
        .args(["replay", report_arg])
        .output()
        .expect("deja runs");
    assert_exit(&replayed, 4);
    assert_prints(&replayed, "reproduced at step 5: hang");

    let small = dir.join("small.ron");
    let shrunk = run(
        &["shrink", report_arg, "-o", small.to_str().expect("UTF-8")],
        &dir,
    );
    assert_exit(&shrunk, 0);
    assert_prints(&shrunk, "5 keys -> 2 keys, the same failure");
    let recording = harness::recording::read(&small).expect("a recording");
    assert_eq!(game_core::Key::format_all(&recording.keys), ";<Enter>");
}

#[test]
fn a_sweep_holds_its_figures_to_the_baseline_it_blessed() {
    let dir = scratch("checks", "baseline");
    let file = dir.join("baselines.ron");
    let file_arg = file.to_str().expect("UTF-8");
    let sweep = |extra: &[&str]| {
        let mut args = vec![
            "sweep", "--seeds", "1..121", "--bot", "explorer", "--jobs", "2",
        ];
        args.extend_from_slice(extra);
        run(&args, &dir)
    };
    let blessed = sweep(&["--bless-baseline", file_arg]);
    assert_exit(&blessed, 0);
    assert_prints(&blessed, "blessed the explorer sweep's figures");
    let text_of_file = std::fs::read_to_string(&file).expect("the baseline file");
    assert!(
        text_of_file.contains("\"win rate\": (mean: "),
        "{text_of_file}"
    );

    // Another range of seeds of the same size is no bug.
    let other = run(
        &[
            "sweep",
            "--seeds",
            "1001..1121",
            "--bot",
            "explorer",
            "--jobs",
            "2",
            "--baseline",
            file_arg,
        ],
        &dir,
    );
    assert_exit(&other, 0);
    assert_prints(&other, "figures within their bands");

    // Every monster a rat: no invariant breaks, the figures do (the explorer
    // wins every run). 120 seeds, as the bands are 5 standard errors wide: at
    // 60 a win rate near one half has a band of +-0.45, and winning every run
    // could pass.
    let rats = sweep(&["--baseline", file_arg, "--canary", "weak-spawns"]);
    assert_exit(&rats, 4);
    assert_prints(&rats, "FAILURE baseline: explorer: win rate");
}

#[test]
fn a_bot_that_goes_nowhere_is_stopped_and_its_recording_keeps_the_limit() {
    let dir = scratch("checks", "progress");
    let saved = dir.join("failures");
    let out = run(
        &[
            "sweep",
            "--seeds",
            "1..2",
            "--bot",
            "explorer",
            "--canary",
            "homesick-explore",
            "--progress-limit",
            "50",
            "--save-failures",
            saved.to_str().expect("UTF-8"),
        ],
        &dir,
    );
    assert_exit(&out, 4);
    assert_prints(&out, "invariant play.progress broken: 51 keys in a row");
    let recording = first_saved_failure(&out);
    let read = harness::recording::read(&recording).expect("a recording");
    assert_eq!(read.progress_limit, Some(50));
    assert_replay_reproduces(&recording, &dir, "play.progress");
}
