//! Every `deja` command and exit code, run as a user runs them: recordings
//! written by `play`, replayed, drifted on purpose, blessed, shown; bug
//! reports written for failures and reproduced.

mod support;

use std::path::{Path, PathBuf};

use harness::recording;
use proptest::prelude::*;
use support::{assert_exit, assert_prints, assert_says, run, text};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    support::scratch("cli", name)
}

/// Plays and records; returns the recording's path.
fn record(dir: &Path, name: &str, seed: u64, keys: &str) -> PathBuf {
    let path = dir.join(name);
    let out = run(
        &[
            "play",
            "--seed",
            &seed.to_string(),
            "--keys",
            keys,
            "--frames",
            "none",
            "-o",
            name,
            "--note",
            "a test run",
        ],
        dir,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    path
}

#[test]
fn a_recording_replays_the_same() {
    let dir = scratch("same");
    record(&dir, "run.ron", 7, "oooooo;ll<Esc>ib<Esc><Esc>oooo>");
    let out = run(&["replay", "run.ron"], &dir);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("run.ron: same: "), "{stdout}");
    assert!(
        stdout.contains("steps") && stdout.contains("turns"),
        "{stdout}"
    );
}

#[test]
fn one_changed_key_drifts_at_exactly_that_step() {
    let dir = scratch("key-drift");
    let path = record(&dir, "run.ron", 8, "llllkkkkoooo");
    let mut rec = recording::read(&path).expect("readable");
    // Look instead of a step: a key that surely changes the state (a step
    // into a wall might not).
    rec.keys[5] = game_core::Key::char(';');
    recording::write(&path, &rec).expect("writable");
    let out = run(&["replay", "run.ron"], &dir);
    assert_exit(&out, 3);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("drift at step 6 (key ;"), "{stdout}");
    assert!(stdout.contains("last matching frame (step 5)"), "{stdout}");
    assert!(stdout.contains("first differing frame (step 6"), "{stdout}");
    // The frames fit the width the report has: one above the other in 80
    // columns, side by side in 200.
    let report = |columns: &str| {
        let out = support::deja()
            .current_dir(&dir)
            .env("COLUMNS", columns)
            .args(["replay", "run.ron"])
            .output()
            .expect("deja runs");
        assert_exit(&out, 3);
        text(&out.stdout)
    };
    let narrow = report("80");
    let frames: Vec<&str> = narrow.lines().skip(1).collect();
    assert!(frames.iter().all(|l| l.chars().count() <= 80), "{narrow}");
    let titles = frames
        .iter()
        .filter(|l| l.contains(" frame (step "))
        .count();
    assert_eq!(titles, 2, "{narrow}");
    let wide = report("200");
    assert!(
        wide.lines()
            .any(|l| l.contains("last matching frame (step 5)") && l.contains(" | first differing")),
        "{wide}"
    );
}

#[test]
fn editing_one_key_in_the_file_text_drifts_at_that_step() {
    let dir = scratch("text-drift");
    let path = record(&dir, "run.ron", 9, "lllllooooo");
    let text_before = std::fs::read_to_string(&path).expect("readable");
    let edited = text_before.replacen("\"lllllooooo\"", "\"llllhooooo\"", 1);
    assert_ne!(edited, text_before);
    std::fs::write(&path, edited).expect("writable");
    let out = run(&["replay", "run.ron"], &dir);
    assert_exit(&out, 3);
    assert!(
        text(&out.stdout).contains("drift at step 5 (key h"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn one_changed_hash_drifts_at_exactly_that_step() {
    let dir = scratch("hash-drift");
    let path = record(&dir, "run.ron", 10, "llllkkkkoooo");
    let mut rec = recording::read(&path).expect("readable");
    rec.step_hashes[9] ^= 0x10;
    recording::write(&path, &rec).expect("writable");
    let out = run(&["replay", "run.ron"], &dir);
    assert_exit(&out, 3);
    assert_prints(&out, "drift at step 9 ");

    // --to-step stops before the damage: nothing differs that far.
    let out = run(&["replay", "run.ron", "--to-step", "8"], &dir);
    assert_exit(&out, 0);
    assert_prints(&out, "same: 8 steps");
}

#[test]
fn json_reports_one_object_per_file() {
    let dir = scratch("json");
    record(&dir, "a.ron", 11, "llll");
    let path = record(&dir, "b.ron", 12, "oooo");
    let mut rec = recording::read(&path).expect("readable");
    rec.step_hashes[2] ^= 1;
    recording::write(&path, &rec).expect("writable");
    let out = run(&["replay", "--format", "json", "a.ron", "b.ron"], &dir);
    assert_exit(&out, 3);
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["file"], "a.ron");
    assert_eq!(lines[0]["verdict"]["verdict"], "same");
    assert_eq!(lines[1]["verdict"]["verdict"], "drift");
    assert_eq!(lines[1]["verdict"]["step"], 2);
}

#[test]
fn frames_every_during_replay() {
    let dir = scratch("replay-frames");
    record(&dir, "run.ron", 13, "ll");
    let out = run(
        &["replay", "run.ron", "--frames", "every", "--size", "40x12"],
        &dir,
    );
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("--- step 0 (start) ---"));
    assert!(stdout.contains("--- step 2: l ---"));
}

#[test]
fn version_and_content_mismatches_warn_then_replay() {
    let dir = scratch("mismatch");
    let path = record(&dir, "run.ron", 14, "llll");
    let mut rec = recording::read(&path).expect("readable");
    rec.game_version = "0.0.1".into();
    rec.content ^= 1;
    recording::write(&path, &rec).expect("writable");
    let out = run(&["replay", "run.ron"], &dir);
    assert_exit(&out, 0);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("warning: run.ron: recorded with undercroft 0.0.1"),
        "{stderr}"
    );
    assert!(stderr.contains("recorded with content"), "{stderr}");
}

#[test]
fn an_unreadable_file_is_an_error_and_the_others_still_replay() {
    let dir = scratch("unreadable");
    record(&dir, "good.ron", 15, "ll");
    std::fs::write(dir.join("bad.ron"), "(format: 1, game: ").expect("writable");
    let out = run(&["replay", "bad.ron", "good.ron", "missing.ron"], &dir);
    assert_exit(&out, 1);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("bad.ron:1:"), "{stderr}");
    assert!(stderr.contains("missing.ron"), "{stderr}");
    assert_prints(&out, "good.ron: same");
}

#[test]
fn a_failure_in_play_becomes_a_bug_report_that_replay_reproduces() {
    let dir = scratch("bug-report");
    // An invariant: help that Esc cannot close.
    let out = run(
        &[
            "play",
            "--seed",
            "3",
            "--keys",
            "ll?<Esc>ll",
            "--canary",
            "sticky-help",
            "--frames",
            "none",
        ],
        &dir,
    );
    assert_exit(&out, 4);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("failure at step 3 (key ?): invariant screen.escapable"),
        "{stderr}"
    );
    assert!(
        stderr.contains("deja replay deja-failure-seed3-step3.ron"),
        "{stderr}"
    );
    let out = run(&["replay", "deja-failure-seed3-step3.ron"], &dir);
    assert_exit(&out, 4);
    assert_prints(&out, "reproduced at step 3: invariant screen.escapable");

    // A panic, caught so the report is still written, to -o.
    let out = run(
        &[
            "play",
            "--seed",
            "3",
            "--keys",
            "llaall",
            "--canary",
            "panicking-potion",
            "-o",
            "panic.ron",
        ],
        &dir,
    );
    assert_exit(&out, 4);
    assert_says(&out, "panic: canary panicking-potion");
    let report = recording::read(&dir.join("panic.ron")).expect("the report is a recording");
    assert_eq!(report.failure.as_ref().map(|f| f.step), Some(4));
    assert_eq!(report.keys.len(), 4, "the keys stop at the failing one");
    let out = run(&["replay", "panic.ron"], &dir);
    assert_exit(&out, 4);
    assert_prints(&out, "reproduced at step 4: panic");
}

#[test]
fn a_stuck_turn_becomes_a_bug_report() {
    let dir = scratch("stuck");
    // With the canary, an awake monster with no free step toward the player
    // asks again forever. On seed 15 exploring soon makes one.
    let out = run(
        &[
            "play",
            "--seed",
            "15",
            "--keys",
            &"o.".repeat(60),
            "--canary",
            "uncharged-refusal",
            "--frames",
            "none",
            "-o",
            "stuck.ron",
        ],
        &dir,
    );
    assert_exit(&out, 4);
    assert_says(&out, "stuck: stuck in the turn loop");
    let out = run(&["replay", "stuck.ron"], &dir);
    assert_exit(&out, 4);
    assert_prints(&out, "reproduced at step");
}

/// `text`'s words, one space apart: a wrapped table cell as one line.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_fixed_failure_is_reported_as_fixed() {
    let dir = scratch("fixed");
    let path = record(&dir, "run.ron", 16, "llll");
    let mut rec = recording::read(&path).expect("readable");
    rec.failure = Some(recording::Failure {
        step: 3,
        kind: recording::FailureKind::Stuck {
            message: "an old bug".into(),
        },
    });
    rec.outcome = recording::RecordedOutcome::Failed;
    rec.step_hashes.truncate(3);
    rec.part_digests.truncate(3);
    rec.checkpoints.retain(|(step, _)| *step < 3);
    rec.keys.truncate(3);
    recording::write(&path, &rec).expect("writable");
    let out = run(&["replay", "run.ron"], &dir);
    assert_exit(&out, 0);
    assert_prints(&out, "fixed: the recorded failure at step 3");
    // Blessing turns it back into an ordinary recording, when asked to:
    // the run no longer ends the way the file says.
    let out = run(&["bless", "run.ron"], &dir);
    assert_exit(&out, 3);
    assert_says(&out, "--accept-outcome");
    let out = run(&["bless", "run.ron", "--accept-outcome"], &dir);
    assert_exit(&out, 0);
    // The table wraps a long result under its column: read it as words.
    assert!(
        words(&text(&out.stdout)).contains("the failure at step 3 no longer happens"),
        "{}",
        text(&out.stdout)
    );
    assert_exit(&run(&["replay", "run.ron"], &dir), 0);
    assert_eq!(recording::read(&path).expect("readable").failure, None);
}

#[test]
fn bless_follows_a_rule_change_and_keeps_seed_keys_and_note() {
    let dir = scratch("bless");
    let path = record(&dir, "run.ron", 17, "llllkkkk");
    let original = recording::read(&path).expect("readable");
    // As if the rules had changed: the recorded hashes no longer match.
    let mut stale = original.clone();
    stale.step_hashes[4] ^= 1;
    stale.game_version = "0.0.9".into();
    recording::write(&path, &stale).expect("writable");
    assert_exit(&run(&["replay", "run.ron"], &dir), 3);
    let out = run(&["bless", "run.ron"], &dir);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("run.ron ") && l.contains("blessed: ")),
        "{stdout}"
    );
    assert!(
        words(&stdout).contains("state hashes differ from step 4"),
        "{stdout}"
    );
    assert!(stdout.contains("0.0.9"), "{stdout}");
    let blessed = recording::read(&path).expect("readable");
    assert_eq!(
        blessed, original,
        "blessing restores what this build records"
    );
    assert_exit(&run(&["replay", "run.ron"], &dir), 0);
    let out = run(&["bless", "run.ron"], &dir);
    let stdout = text(&out.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("run.ron ") && l.ends_with("  unchanged")),
        "{stdout}"
    );
}

#[test]
fn bless_refuses_a_recording_that_now_fails() {
    let dir = scratch("bless-fails");
    let path = record(&dir, "run.ron", 3, "ll?<Esc>ll");
    let mut rec = recording::read(&path).expect("readable");
    rec.canaries = vec![game_core::canary::Canary::StickyHelp];
    recording::write(&path, &rec).expect("writable");
    let before = std::fs::read_to_string(&path).expect("readable");
    let out = run(&["bless", "run.ron"], &dir);
    assert_exit(&out, 4);
    assert_says(&out, "not blessed");
    assert_eq!(
        std::fs::read_to_string(&path).expect("readable"),
        before,
        "the file is left alone"
    );
}

#[test]
fn show_seeks_to_a_step() {
    let dir = scratch("show");
    record(&dir, "run.ron", 18, "llll;");
    let out = run(&["show", "run.ron", "--at", "5", "--size", "60x20"], &dir);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("--- run.ron at step 5 (key ;) ---"),
        "{stdout}"
    );
    assert!(
        stdout.contains("move: look"),
        "the look reticle is up: {stdout}"
    );
    let out = run(&["show", "run.ron", "--at", "0", "--state"], &dir);
    support::assert_exit_printing_data(&out, 0);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("--- state ---")
            && stdout.contains("seed: 18")
            && stdout.contains("player.hp: ")
            && stdout.contains("map.visible: "),
        "{stdout}"
    );
    // Every line a person reads: no dump of bit-grid words or kind ids.
    let state = &stdout[stdout.find("--- state ---").expect("a state")..];
    for line in state.lines() {
        let numbers = line
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .count();
        assert!(numbers <= 20, "a list of {numbers} numbers: {line}");
        assert!(!line.contains("words"), "{line}");
    }
    let out = run(&["show", "run.ron", "--at", "0", "--state", "--raw"], &dir);
    support::assert_exit_printing_data(&out, 0);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("--- state (raw RON) ---") && stdout.contains("seed: (18)"),
        "{stdout}"
    );
    let out = run(&["show", "run.ron", "--at", "6"], &dir);
    assert_exit(&out, 1);
    assert_says(&out, "steps 0 to 5");
}

#[test]
fn map_prints_a_floor_and_its_stats() {
    let dir = scratch("map");
    let out = run(&["map", "--seed", "7", "--depth", "3"], &dir);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("seed 7, depth 3: generator temple"),
        "{stdout}"
    );
    assert!(
        stdout.contains("monsters ") && stdout.contains("items "),
        "{stdout}"
    );
    assert_eq!(stdout.matches('@').count(), 1);
    let revealed = run(&["map", "--seed", "7", "--depth", "3", "--reveal"], &dir);
    assert_exit(&revealed, 0);
    assert!(
        text(&revealed.stdout).contains('>'),
        "the stairs show when revealed"
    );
    assert!(text(&revealed.stdout).len() > stdout.len());
    assert_exit(&run(&["map", "--depth", "7"], &dir), 2);
}

#[test]
fn bench_reports_steps_per_second() {
    let dir = scratch("bench");
    let out = run(
        &[
            "bench",
            "--only",
            "replay,recording,viewer",
            "--keys",
            "300",
            "--runs",
            "1",
        ],
        &dir,
    );
    assert_exit(&out, 0);
    assert_prints(&out, "steps/s");
    assert_prints(&out, "autosave per key, 100,000-key run  ");
    assert_prints(&out, "viewer step back, 100,000-key recording  ");
    // Today's figures only: nothing that was not asked for.
    let stdout = text(&out.stdout);
    assert!(!stdout.contains("sweep"), "{stdout}");
}

#[test]
fn bench_counts_are_capped_and_the_last_seed_wraps_the_same_in_every_build() {
    let dir = scratch("bench-limits");
    let last = u64::MAX.to_string();
    let out = run(
        &[
            "bench",
            "--only",
            "replay,viewer",
            "--keys",
            "300",
            "--runs",
            "1",
            "--seed",
            &last,
        ],
        &dir,
    );
    assert_exit(&out, 0);
    assert_prints(&out, "steps/s");
    assert_prints(&out, "viewer step back, 100,000-key recording  ");
    for args in [
        vec!["bench", "--keys", last.as_str()],
        vec!["bench", "--keys", "0"],
        vec!["bench", "--runs", "1001"],
    ] {
        assert_exit(&run(&args, &dir), 2);
    }
}

/// Keys a player might press, for the property test.
fn key_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "h", "j", "k", "l", "y", "u", "b", "n", "o", "o", ".", "g", ">", "i", "a", "t", "d",
            "w", ";", "?", "<Esc>", "<Tab>", "<Enter>", "H", "L", "Q", "n",
        ]),
        1..120,
    )
    .prop_map(|keys| keys.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Whatever is played and recorded replays the same.
    #[test]
    fn anything_recorded_replays_the_same(seed in 0u64..1000, keys in key_text()) {
        let dir = scratch(&format!("prop-{seed}"));
        let path = record(&dir, "run.ron", seed, &keys);
        let out = run(&["replay", "run.ron"], &dir);
        prop_assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
        prop_assert!(path.exists());
    }
}

#[test]
fn version_says_what_a_bug_report_needs() {
    let dir = scratch("version");
    let out = run(&["--version"], &dir);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    let content = game_core::content::Content::embedded().fingerprint();
    for wanted in [
        format!("game: undercroft {}", game_core::GAME_VERSION),
        format!("recording format: {}", recording::FORMAT_VERSION),
        format!("sweep report format: {}", harness::sweep::REPORT_FORMAT),
        format!("content: {content:016x} (embedded)"),
        "features: ".to_string(),
    ] {
        assert!(stdout.contains(&wanted), "{wanted:?} not in:\n{stdout}");
    }
}

#[test]
fn every_closed_set_is_listed_with_a_line_of_help() {
    let dir = scratch("value-help");
    let sweep = text(&run(&["sweep", "--help"], &dir).stdout);
    for canary in game_core::canary::Canary::ALL {
        let line = format!("- {}:", canary.name());
        assert!(sweep.contains(&line), "{line:?} not in sweep --help");
    }
    for bot in ["none", "random", "explorer"] {
        assert!(
            sweep.contains(&format!("- {bot}:")),
            "{bot} not in sweep --help"
        );
    }
    let from_fuzz = text(&run(&["from-fuzz", "--help"], &dir).stdout);
    for target in harness::fuzz::TARGETS {
        let line = format!("- {target}:");
        assert!(
            from_fuzz.contains(&line),
            "{line:?} not in from-fuzz --help"
        );
    }
}

/// One output flag everywhere: `-o FILE`, and `-` is standard output.
#[test]
fn dash_is_standard_output_for_every_output_flag() {
    let dir = scratch("dash-output");
    // A sweep's JSON report on standard output, its summary on standard
    // error so the JSON stays whole.
    let out = run(
        &[
            "sweep", "--seeds", "1..3", "--bot", "none", "--format", "json", "-o", "-",
        ],
        &dir,
    );
    assert_exit(&out, 0);
    let report: serde_json::Value =
        serde_json::from_str(&text(&out.stdout)).expect("JSON on stdout");
    assert_eq!(report["summary"]["seeds"], 2);
    assert!(
        text(&out.stderr).contains("swept 2 seeds"),
        "{}",
        text(&out.stderr)
    );
    let default = run(
        &[
            "sweep", "--seeds", "1..3", "--bot", "none", "--format", "json",
        ],
        &dir,
    );
    assert_eq!(default.stdout, out.stdout, "standard output is the default");
    assert!(!dir.join("-").exists(), "no file named -");
    // The text summary has no file: -o wants --format json.
    let out = run(
        &["sweep", "--seeds", "1..3", "--bot", "none", "-o", "r.json"],
        &dir,
    );
    assert_exit(&out, 1);
    support::assert_says(&out, "add --format json");
    // A scripted run's recording on standard output reads back.
    let out = run(
        &[
            "play", "--seed", "4", "--keys", "llo", "--frames", "none", "-o", "-",
        ],
        &dir,
    );
    // Its standard output is the recording's RON, data the user asked for.
    support::assert_exit_printing_data(&out, 0);
    let played = recording::from_text(&text(&out.stdout)).expect("a recording on stdout");
    assert_eq!(played.keys.len(), 3);
    let out = run(&["play", "--seed", "4", "--keys", "llo", "-o", "-"], &dir);
    assert_exit(&out, 1);
    support::assert_says(&out, "add --frames none");
}

#[test]
fn every_subcommand_shows_examples_that_parse() {
    use clap::{CommandFactory, Parser};
    let dir = scratch("examples");
    let commands: Vec<String> = harness::cli::Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|name| name != "help")
        .collect();
    assert!(commands.len() >= 13, "{commands:?}");
    for command in &commands {
        let help = text(&run(&[command, "--help"], &dir).stdout);
        let (_, examples) = help
            .split_once("Examples:\n")
            .unwrap_or_else(|| panic!("deja {command} --help has no examples:\n{help}"));
        let lines: Vec<&str> = examples
            .lines()
            .filter(|l| l.starts_with("  deja "))
            .collect();
        assert!(!lines.is_empty(), "deja {command}: {examples}");
        for line in lines {
            // The command, then two or more spaces before its comment.
            let example = line.trim_start().split("   ").next().unwrap().trim_end();
            let words = support::shell_words(example);
            assert_eq!(words[1], *command, "{line}");
            if let Err(e) = harness::cli::Cli::try_parse_from(&words) {
                panic!("deja {command}: the example `{example}` does not parse: {e}");
            }
        }
    }
}

#[test]
fn quiet_says_only_what_is_not_fine() {
    let dir = scratch("quiet");
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings/win.ron");
    let out = run(&["replay", "--quiet", corpus.to_str().unwrap()], &dir);
    assert_exit(&out, 0);
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "{}",
        text(&out.stdout)
    );
    let out = run(&["sweep", "-q", "--seeds", "1..40", "--bot", "none"], &dir);
    assert_exit(&out, 0);
    assert!(out.stderr.is_empty(), "no progress: {}", text(&out.stderr));
    assert_prints(&out, "swept 39 seeds");
    let out = run(
        &[
            "play", "-q", "--keys", "ll", "--frames", "none", "-o", "r.ron",
        ],
        &dir,
    );
    assert_exit(&out, 0);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    // Without it, the same commands say more.
    let out = run(
        &["play", "--keys", "ll", "--frames", "none", "-o", "r.ron"],
        &dir,
    );
    support::assert_says(&out, "recorded 2 keys to r.ron");
    let out = run(&["sweep", "--seeds", "1..40", "--bot", "none"], &dir);
    support::assert_says(&out, "sweep: 39/39 seeds");
}

/// `--quiet` says only the verdicts that are not "same": a movie of a run
/// that replays the same, a diff of two equal runs and a bless that
/// changes nothing print nothing at all (no empty table header); the exit
/// code says it.
#[test]
fn quiet_leaves_out_every_same_verdict() {
    let dir = scratch("quiet-same");
    let win = support::corpus("win.ron");
    std::fs::copy(&win, dir.join("copy.ron")).unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["replay", &win, "--cast", "-o", "x.cast"],
        vec!["diff", &win, &win],
        vec!["bless", "copy.ron"],
        vec!["replay", &win],
    ];
    for args in cases {
        let loud = run(&args, &dir);
        assert_exit(&loud, 0);
        assert!(!text(&loud.stdout).is_empty(), "{args:?} says something");
        let quiet = run(&[&["--quiet"], &args[..]].concat(), &dir);
        assert_exit(&quiet, 0);
        assert_eq!(text(&quiet.stdout), "", "{args:?} --quiet");
        assert_eq!(text(&quiet.stderr), "", "{args:?} --quiet");
    }
}

/// One key is "1 key"; a taken-over run goes on at the size asked for and
/// its recording keeps that size, so a replay draws what was printed.
#[test]
fn a_taken_over_run_records_the_size_it_was_drawn_at() {
    let dir = scratch("take-over-size");
    let out = run(
        &["play", "--seed", "7", "--keys", "l", "-o", "one.ron"],
        &dir,
    );
    assert_exit(&out, 0);
    assert!(
        text(&out.stderr).contains("recorded 1 key to one.ron"),
        "{}",
        text(&out.stderr)
    );
    let out = run(
        &[
            "play", "--from", "one.ron", "--keys", "ll", "--size", "100x30", "-o", "big.ron",
        ],
        &dir,
    );
    assert_exit(&out, 0);
    let frame = text(&out.stdout);
    assert_eq!(frame.lines().count(), 30, "{frame}");
    assert!(frame.lines().all(|l| l.chars().count() <= 100));
    let recorded = harness::recording::read(&dir.join("big.ron")).unwrap();
    assert_eq!(recorded.frame, (100, 30));
    // Without --size, the run keeps the size of the recording it came from.
    let out = run(
        &["play", "--from", "big.ron", "--keys", "l", "-o", "on.ron"],
        &dir,
    );
    assert_exit(&out, 0);
    assert_eq!(
        harness::recording::read(&dir.join("on.ron")).unwrap().frame,
        (100, 30)
    );
}

/// The value `deja show --state` prints for `field` at `step`.
fn shown_field(file: &str, step: u64, field: &str, dir: &Path) -> String {
    let out = run(&["show", file, "--at", &step.to_string(), "--state"], dir);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    let prefix = format!("{field}: ");
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no {field} at step {step}: {stdout}"))
        .to_string()
}

/// The step a `deja when` answer names first.
fn step_named(stdout: &str) -> u64 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("step "))
        .unwrap_or_else(|| panic!("no step: {stdout}"));
    line["step ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"))
}

#[test]
fn when_finds_the_bite_that_poisoned_the_player() {
    let dir = scratch("when-poison");
    let file = support::corpus("death-by-poison.ron");
    let out = run(&["when", &file, "player.statuses.poison"], &dir);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    let step = step_named(&stdout);
    assert!(step > 0, "{stdout}");
    // The step is the first the state says so: none before it, poison at it.
    assert_eq!(
        shown_field(&file, step - 1, "player.statuses.poison", &dir),
        "none"
    );
    let rounds = shown_field(&file, step, "player.statuses.poison.rounds", &dir);
    assert!(
        stdout.contains(&format!(
            "player.statuses.poison: none -> rounds {rounds}, damage "
        )),
        "{stdout}"
    );
    // The bite: a monster that hit the player, and the poison it gave.
    assert!(
        stdout.lines().any(|l| l.starts_with("  the record: the ")
            && l.contains("attacks the player")
            && l.contains("hits")),
        "{stdout}"
    );
    assert!(
        stdout.contains("  the record: the player is poisoned for"),
        "{stdout}"
    );
    // The frame at that step follows.
    assert!(stdout.contains("HP:") || stdout.contains("HP "), "{stdout}");
}

#[test]
fn when_answers_conditions_on_hit_points_depth_and_monsters() {
    let dir = scratch("when-conditions");
    let file = support::corpus("death-by-poison.ron");
    let out = run(&["when", &file, "player.hp <= 5"], &dir);
    assert_exit(&out, 0);
    let step = step_named(&text(&out.stdout));
    let hp = |step| {
        shown_field(&file, step, "player.hp", &dir)
            .parse::<i32>()
            .expect("a number")
    };
    assert!(hp(step) <= 5 && hp(step - 1) > 5, "step {step}");
    assert_prints(
        &out,
        &format!("  player.hp: {} -> {}", hp(step - 1), hp(step)),
    );
    // True from the start.
    let out = run(&["when", &file, "depth == 1 && monsters.count > 0"], &dir);
    assert_exit(&out, 0);
    assert_prints(&out, "step 0 (the start, turn 0): it holds from the start");
    // Never: exit 3, saying so.
    let out = run(&["when", &file, "depth == 6"], &dir);
    assert_exit(&out, 3);
    assert_prints(&out, "`depth == 6` never holds, from step 0 to 63");
    // --all: each step it comes to hold, first among them the first.
    let first = run(&["when", &file, "monsters[*].awake"], &dir);
    assert_exit(&first, 0);
    let all = run(&["when", &file, "monsters[*].awake", "--all"], &dir);
    assert_exit(&all, 0);
    let all = text(&all.stdout);
    assert!(all.contains("comes to hold"), "{all}");
    assert_eq!(step_named(&all), step_named(&text(&first.stdout)), "{all}");
}

#[test]
fn a_malformed_condition_is_refused_naming_its_column() {
    let dir = scratch("when-malformed");
    let file = support::corpus("death-by-poison.ron");
    let out = run(&["when", &file, "player.hp <="], &dir);
    assert_exit(&out, 1);
    assert_says(&out, "the condition, column 13: expected a value");
    let out = run(&["when", &file, "player.hpp > 2"], &dir);
    assert_exit(&out, 1);
    assert_says(
        &out,
        "column 1: no field `player.hpp`; `player` has: pos, hp",
    );
}

/// `deja when recordings/win.ron CONDITION`, one row a condition: how it
/// ends (0 it comes to hold, 3 it never does, 1 refused) and a part of what
/// it says. win.ron's goblin #0 dies at step 77, nothing poisons the player
/// before step 461, and no dragon is in it.
fn when_table() -> Vec<(String, i32, String)> {
    let from_start = "holds from the start";
    let every_tile: Vec<String> = (0..40)
        .flat_map(|y| (0..80).map(move |x| format!("player.pos == ({x}, {y})")))
        .collect();
    let rows: Vec<(String, i32, &str)> = vec![
        // Long conditions: chains of any length, nesting to 100, 100,000
        // characters, paths refused at their first part that names nothing.
        (vec!["depth >= 1"; 4_000].join(" && "), 0, from_start),
        (vec!["kills>=0"; 9_000].join("&&"), 0, from_start),
        (every_tile.join(" || "), 0, from_start),
        (
            format!("{}seed == 245{}", "(".repeat(100), ")".repeat(100)),
            0,
            from_start,
        ),
        (format!("{}seed == 245", "!".repeat(100)), 0, from_start),
        (
            format!("{}seed == 245{}", "(".repeat(10_000), ")".repeat(10_000)),
            1,
            "column 101: ",
        ),
        (
            format!("{}seed == 245", "!".repeat(50_000)),
            1,
            "column 101: ",
        ),
        (
            format!("{}seed == 245", "not ".repeat(101)),
            1,
            "column 401: ",
        ),
        (
            format!("seed == 245{}", " ".repeat(100_000)),
            1,
            "column 100001: ",
        ),
        (
            format!("monsters[*]{}", ".x".repeat(49_000)),
            1,
            "column 1: no field `monsters[..].x`; `monsters[..]` has: id, kind",
        ),
        // What reaches nothing is none.
        ("!monsters[#0]".into(), 0, "step 77 "),
        ("monsters[#0] == none".into(), 0, "step 77 "),
        ("monsters[#0] != none".into(), 0, from_start),
        ("monsters[kind=dragon] == none".into(), 0, from_start),
        ("monsters[kind=dragon] != none".into(), 3, "never holds"),
        ("monsters[kind=dragon].hp == none".into(), 0, from_start),
        ("monsters[kind=dragon].hp < 3".into(), 3, "never holds"),
        (
            "player.statuses.poison.rounds == none".into(),
            0,
            from_start,
        ),
        (
            "player.statuses.poison.rounds != none".into(),
            0,
            "step 461 ",
        ),
        ("player.statuses.poison.rounds < 100".into(), 0, "step 461 "),
        ("death.cause == none".into(), 0, from_start),
        // A pick names a field its entries have, with a value it can hold.
        (
            "monsters[knd=rat]".into(),
            1,
            "column 10: no field `monsters[..].knd`; `monsters[..]` has: id, kind",
        ),
        (
            "monsters[hp=rat]".into(),
            1,
            "column 13: `monsters[..].hp` is a number",
        ),
        // A pick's value reads as a comparison's: goblin #0 starts at
        // (56, 14), and giant newts are there from the start.
        ("monsters[pos=(56,14)]".into(), 0, from_start),
        ("monsters[pos=(56, 14)]".into(), 0, from_start),
        ("monsters[kind=\"giant newt\"]".into(), 0, from_start),
        (
            "monsters[kind=giant newt]".into(),
            1,
            "[kind=\"giant newt\"]",
        ),
        // Numbers over the whole u64 and i64 ranges: win.ron's seed is 245.
        ("seed == 18446744073709551615".into(), 3, "never holds"),
        ("seed < 18446744073709551615".into(), 0, from_start),
        ("player.hp > -9223372036854775808".into(), 0, from_start),
        (
            "seed == 18446744073709551616".into(),
            1,
            "column 9: this number is past the numbers a field holds",
        ),
        // Text is quoted.
        (
            "map.size == 80x40".into(),
            1,
            "column 13: `map.size` is text; quote it: \"80x40\"",
        ),
        ("map.size == \"80x40\"".into(), 0, from_start),
    ];
    rows.into_iter()
        .map(|(condition, exit, says)| (condition, exit, says.to_string()))
        .collect()
}

#[test]
fn when_answers_or_refuses_each_condition_of_its_table() {
    let dir = scratch("when-table");
    let file = support::corpus("win.ron");
    let mut wrong = Vec::new();
    let rows = when_table();
    for (condition, exit, says) in &rows {
        let out = run(&["when", &file, condition], &dir);
        let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
        let shown: String = condition.chars().take(60).collect();
        if out.status.code() != Some(*exit) || !said.contains(says.as_str()) {
            let said: String = said.chars().take(400).collect();
            wrong.push(format!(
                "`{shown}` ({} characters): exit {:?}, not {exit}, or no {says:?} in\n{said}",
                condition.chars().count(),
                out.status.code()
            ));
        }
        if let Some(dump) = support::debug_looking(&said) {
            wrong.push(format!("`{shown}`: prints a Debug dump: {dump:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} conditions went wrong:\n\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n\n")
    );
}
