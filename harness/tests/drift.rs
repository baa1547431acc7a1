//! A drift says what differs: which parts of the state (player, monsters,
//! items, map, clock, rng, screens/messages) moved first, from the digests
//! a recording keeps per step; and `deja diff` shows the fields.

mod support;

use std::path::Path;

use support::{assert_exit, assert_prints, corpus, scratch, text};

/// The embedded content with `edit` applied to monsters.ron.
fn content_with(dir: &Path, edit: impl Fn(&str) -> String) -> String {
    let content = dir.join("content");
    std::fs::create_dir_all(&content).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../game-core/content");
    std::fs::copy(source.join("items.ron"), content.join("items.ron")).unwrap();
    let monsters = std::fs::read_to_string(source.join("monsters.ron")).unwrap();
    let edited = edit(&monsters);
    assert_ne!(edited, monsters);
    std::fs::write(content.join("monsters.ron"), edited).unwrap();
    content.to_str().unwrap().to_string()
}

/// The embedded content with the cave spider (which poisons the player in
/// death-by-poison.ron) tougher: 9 hit points.
fn tougher_spider(dir: &Path) -> String {
    content_with(dir, |m| {
        let at = m.find("name: \"cave spider\"").unwrap();
        let hp = at + m[at..].find("max_hp: ").unwrap();
        let end = hp + m[hp..].find(',').unwrap();
        format!("{}max_hp: 9{}", &m[..hp], &m[end..])
    })
}

#[test]
fn a_changed_monster_rule_drifts_with_the_monsters_named_first() {
    let dir = scratch("drift", "monster-hp");
    let content = tougher_spider(&dir);
    let out = support::run(
        &[
            "replay",
            "--content",
            &content,
            &corpus("death-by-poison.ron"),
        ],
        &dir,
    );
    assert_exit(&out, 3);
    assert_prints(
        &out,
        "drift at step 0 (the start, turn 0): state hash expected ",
    );
    assert_prints(
        &out,
        "; monsters differ; player, items, map, clock, rng and screens/messages same",
    );
    let json = support::run(
        &[
            "replay",
            "--content",
            &content,
            &corpus("death-by-poison.ron"),
            "--format",
            "json",
        ],
        &dir,
    );
    let report: serde_json::Value = serde_json::from_str(text(&json.stdout).trim()).unwrap();
    assert_eq!(
        report["verdict"]["parts_differ"],
        serde_json::json!(["monsters"]),
        "{report}"
    );
}

#[test]
fn a_changed_key_names_every_part_it_moved() {
    let dir = scratch("drift", "key");
    let original = std::fs::read_to_string(corpus("death-by-poison.ron")).unwrap();
    std::fs::write(
        dir.join("moved.ron"),
        support::with_key_at(&original, 12, "h").0,
    )
    .unwrap();
    let out = support::run(&["replay", "moved.ron"], &dir);
    assert_exit(&out, 3);
    let first = text(&out.stdout).lines().next().unwrap().to_string();
    assert!(
        first.starts_with("moved.ron: drift at step 12 (key h, "),
        "{first}"
    );
    assert!(
        first.contains(" differ; ") && first.contains("player"),
        "{first}"
    );
}

#[test]
fn diff_shows_the_fields_a_content_change_moves() {
    let dir = scratch("drift", "diff-content");
    let content = tougher_spider(&dir);
    let run = corpus("death-by-poison.ron");
    let out = support::run(&["diff", &run, &run, "--content-b", &content], &dir);
    assert_exit(&out, 3);
    assert_prints(&out, "differ first at step 0 (the start): monsters differ");
    let stdout = text(&out.stdout);
    assert!(
        stdout.lines().any(|l| l.starts_with("  monsters[")
            && l.contains(" (cave spider #")
            && l.ends_with(").hp: 7 -> 9")),
        "{stdout}"
    );
    let same = support::run(&["diff", &run, &run], &dir);
    assert_exit(&same, 0);
    assert_prints(&same, "the same state at every step from 0 to 63");
}

#[test]
fn diff_finds_where_two_runs_of_a_seed_part() {
    let dir = scratch("drift", "diff-keys");
    let original = std::fs::read_to_string(corpus("death-by-poison.ron")).unwrap();
    std::fs::write(dir.join("a.ron"), &original).unwrap();
    let (moved, pressed) = support::with_key_at(&original, 12, "h");
    std::fs::write(dir.join("b.ron"), moved).unwrap();
    let out = support::run(&["diff", "a.ron", "b.ron"], &dir);
    assert_exit(&out, 3);
    assert_prints(
        &out,
        &format!(
            "a.ron and b.ron differ first at step 12 (a.ron pressed {pressed}, b.ron pressed h)"
        ),
    );
    // In the state view's words, the parts in the digests' order: the
    // player's fields before the map's, monsters by name and id, a bit
    // grid as the tiles that differ and never as its words.
    let stdout = text(&out.stdout);
    let fields: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .collect();
    assert!(fields[0].starts_with("player.pos: ("), "{stdout}");
    let part = |field: &str| {
        [
            "player", "monsters", "items", "depth", "floor", "map", "clock", "rng",
        ]
        .iter()
        .position(|p| field.starts_with(p))
        .unwrap_or(usize::MAX)
    };
    let order: Vec<usize> = fields.iter().map(|f| part(f)).collect();
    assert!(order.is_sorted(), "fields out of part order: {stdout}");
    for field in &fields {
        assert!(!field.contains("words"), "{stdout}");
        if field.starts_with("monsters[") {
            assert!(field.contains(" #"), "a monster without its name: {field}");
        }
        if field.starts_with("map.visible") || field.starts_with("map.revealed") {
            assert!(field.contains("differ"), "{field}");
        }
    }
    std::fs::write(
        dir.join("other.ron"),
        support::with_the_next_seed(&original),
    )
    .unwrap();
    let out = support::run(&["diff", "a.ron", "other.ron"], &dir);
    assert_exit(&out, 1);
    support::assert_says(&out, "diff compares runs that start from the same game");
}

#[test]
fn replay_summary_groups_a_corpus_by_verdict() {
    let dir = scratch("drift", "summary");
    let corpus_dir = dir.join("corpus");
    std::fs::create_dir_all(&corpus_dir).unwrap();
    for entry in std::fs::read_dir(corpus("")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, corpus_dir.join(path.file_name().unwrap())).unwrap();
    }
    let poison = std::fs::read_to_string(corpus("death-by-poison.ron")).unwrap();
    for (name, text) in [
        ("moved-a.ron", support::with_key_at(&poison, 12, "h").0),
        ("moved-b.ron", support::with_key_at(&poison, 12, "h").0),
        (
            "claims-fire.ron",
            poison.replace("Died(\"poison\")", "Died(\"fire\")"),
        ),
        ("junk.ron", "not a recording".to_string()),
    ] {
        std::fs::write(corpus_dir.join(name), text).unwrap();
    }
    // A bug report from a planted defect.
    let out = support::run(
        &[
            "play",
            "--seed",
            "3",
            "--keys",
            "ll?",
            "--canary",
            "sticky-help",
            "-o",
            "corpus/help-bug.ron",
        ],
        &dir,
    );
    assert_exit(&out, 4);
    let out = support::run(&["replay", "corpus"], &dir);
    assert_exit(&out, 4);
    let stdout = text(&out.stdout);
    let line = |start: &str| {
        stdout
            .lines()
            .find(|l| {
                l.trim_start()
                    .split_once("  ")
                    .is_some_and(|(_, rest)| rest.starts_with(start))
            })
            .unwrap_or_else(|| panic!("no {start:?} group:\n{stdout}"))
            .trim_start()
            .to_string()
    };
    assert!(stdout.starts_with("replayed 12 recordings:\n"), "{stdout}");
    assert!(
        line("same:").starts_with("7  same: corpus/auto-explore-a-floor.ron, "),
        "{stdout}"
    );
    assert!(
        line("drift (").starts_with(
            "2  drift (player, items and map differ): corpus/moved-a.ron, corpus/moved-b.ron"
        ),
        "{stdout}"
    );
    assert!(
        line("reproduced:")
            .starts_with("1  reproduced: invariant screen.escapable broken: corpus/help-bug.ron"),
        "{stdout}"
    );
    assert!(
        line("unmet:").ends_with(": corpus/claims-fire.ron"),
        "{stdout}"
    );
    assert!(
        line("unreadable:").ends_with(": corpus/junk.ron"),
        "{stdout}"
    );
    // The same as JSON, and for files named one by one.
    let json = support::run(
        &[
            "replay",
            "--summary",
            "--format",
            "json",
            "corpus/junk.ron",
            "corpus/win.ron",
        ],
        &dir,
    );
    assert_exit(&json, 1);
    let summary: serde_json::Value = serde_json::from_str(text(&json.stdout).trim()).unwrap();
    assert_eq!(summary["recordings"], 2);
    assert_eq!(summary["groups"].as_array().unwrap().len(), 2, "{summary}");
}

#[test]
fn a_reworded_description_moves_no_recording() {
    let dir = scratch("drift", "description");
    let content = content_with(&dir, |m| {
        m.replacen(
            "A sewer rat gone bold in the dark",
            "A sewer rat grown bold in the gloom",
            1,
        )
    });
    let out = support::run(
        &["replay", "--summary", "--content", &content, &corpus("")],
        &dir,
    );
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("  same: "), "{stdout}");
    assert!(!stdout.contains("drift"), "{stdout}");
    assert!(
        text(&out.stderr).is_empty(),
        "no content warning: {}",
        text(&out.stderr)
    );
}

#[test]
fn diff_of_a_recording_before_and_after_bless_names_the_recorded_step() {
    let dir = scratch("drift", "diff-bless");
    let content = tougher_spider(&dir);
    let before = std::fs::read_to_string(corpus("throw-at-monster.ron")).unwrap();
    std::fs::write(dir.join("before.ron"), &before).unwrap();
    std::fs::write(dir.join("after.ron"), &before).unwrap();
    let blessed = support::run(&["bless", "--content", &content, "after.ron"], &dir);
    assert_exit(&blessed, 0);
    // This build plays both alike (the same keys); what differs is what
    // each recorded.
    let out = support::run(&["diff", "before.ron", "after.ron"], &dir);
    assert_exit(&out, 3);
    assert_prints(&out, "the hashes they recorded first differ at step 0");
}

/// A rule change that first matters mid-run: diff on two contents leaves
/// the fingerprint (which differs from the start, by design) out of the
/// search, says so, and finds the step where the potion heals more.
#[test]
fn diff_on_two_contents_finds_where_the_rule_change_first_matters() {
    let dir = scratch("drift", "diff-content-later");
    let content = dir.join("content");
    std::fs::create_dir_all(&content).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../game-core/content");
    std::fs::copy(source.join("monsters.ron"), content.join("monsters.ron")).unwrap();
    let items = std::fs::read_to_string(source.join("items.ron")).unwrap();
    let at = items.find("name: \"potion of healing\"").unwrap();
    let heal = at + items[at..].find("Heal(amount: \"").unwrap();
    let end = heal + items[heal..].find(')').unwrap();
    let edited = format!("{}Heal(amount: \"4d4+40\"{}", &items[..heal], &items[end..]);
    std::fs::write(content.join("items.ron"), edited).unwrap();
    let run = corpus("death-by-poison.ron");
    let out = support::run(
        &["diff", &run, &run, "--content-b", content.to_str().unwrap()],
        &dir,
    );
    assert_exit(&out, 3);
    support::assert_says(
        &out,
        "the contents differ on purpose, so the content fingerprint is left out",
    );
    let stdout = text(&out.stdout);
    let first = stdout
        .lines()
        .find(|l| l.contains("differ first at step"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(!first.contains("at step 0 "), "{stdout}");
    assert!(stdout.contains("  player.hp: "), "{stdout}");
    assert!(!stdout.contains("content_fingerprint"), "{stdout}");
}

/// A drift from one tampered hash, every part digest the same as recorded,
/// on the content it was recorded with: the file is at fault, and the
/// report says so rather than blaming what the run started with.
#[test]
fn a_tampered_hash_is_named_as_the_files_own_fault() {
    let dir = scratch("drift", "tampered-hash");
    let text_of = std::fs::read_to_string(corpus("death-by-poison.ron")).unwrap();
    let mut recording = harness::recording::from_text(&text_of).unwrap();
    recording.step_hashes[5] ^= 1;
    std::fs::write(dir.join("t.ron"), harness::recording::to_text(&recording)).unwrap();
    let out = support::run(&["replay", "t.ron"], &dir);
    assert_exit(&out, 3);
    assert_prints(&out, "drift at step 5 ");
    assert_prints(
        &out,
        "every part the same and the run started as recorded, so the step's recorded hash does not match its own parts",
    );
}

/// `show` says when what it shows is not the game the file recorded: other
/// content (as replay warns), and a replay that drifts before the step.
#[test]
fn show_warns_when_the_game_shown_is_not_the_one_recorded() {
    let dir = scratch("drift", "show-warns");
    let content = tougher_spider(&dir);
    let run = corpus("death-by-poison.ron");
    let out = support::run(&["show", &run, "--at", "3", "--content", &content], &dir);
    assert_exit(&out, 0);
    let err = text(&out.stderr);
    assert!(err.contains("recorded with content "), "{err}");
    assert!(
        err.contains("not the recorded run by step 3: drift at step 0"),
        "{err}"
    );

    let original = std::fs::read_to_string(&run).unwrap();
    let mut recording = harness::recording::from_text(&original).unwrap();
    recording.step_hashes[5] ^= 1;
    std::fs::write(dir.join("t.ron"), harness::recording::to_text(&recording)).unwrap();
    let out = support::run(&["show", "t.ron", "--at", "9"], &dir);
    assert_exit(&out, 0);
    assert!(
        text(&out.stderr).contains("not the recorded run by step 9: drift at step 5 "),
        "{}",
        text(&out.stderr)
    );
    let before = support::run(&["show", "t.ron", "--at", "4"], &dir);
    assert_exit(&before, 0);
    assert_eq!(text(&before.stderr), "", "every step up to 4 holds");
}

/// Two runs that fail: alike (a bug report and a copy of it, or itself)
/// they are the same, exit 0, and the failure is named for both; a run
/// that fails where the other plays on is a difference, naming which one
/// fails, how, and that the other does not.
#[test]
fn diff_of_runs_that_fail_names_the_failure_for_both() {
    let dir = scratch("drift", "diff-failures");
    let play = |name: &str, keys: &str, code: i32| {
        let out = support::run(
            &[
                "play",
                "--seed",
                "3",
                "--keys",
                keys,
                "--canary",
                "sticky-help",
                "--frames",
                "none",
                "-o",
                name,
            ],
            &dir,
        );
        assert_exit(&out, code);
    };
    play("bug.ron", "ll?<Esc>", 4);
    play("walk.ron", "llhl", 0);
    std::fs::copy(dir.join("bug.ron"), dir.join("copy.ron")).unwrap();
    let broken = "invariant screen.escapable broken: Esc on the help screen left 1 screens open";
    let cases: [(&str, &str, i32, Vec<String>); 4] = [
        (
            "bug.ron",
            "copy.ron",
            0,
            vec![format!(
                "bug.ron and copy.ron: the same state at every step from 0 to 2, and both fail alike at step 3: {broken}"
            )],
        ),
        (
            "bug.ron",
            "bug.ron",
            0,
            vec![format!("both fail alike at step 3: {broken}")],
        ),
        (
            "bug.ron",
            "walk.ron",
            3,
            vec![format!(
                "bug.ron and walk.ron: the same state up to step 2; then at step 3 (bug.ron pressed ?, walk.ron pressed h) bug.ron fails: {broken}, not 0; walk.ron does not"
            )],
        ),
        (
            "walk.ron",
            "bug.ron",
            3,
            vec![format!(
                "(walk.ron pressed h, bug.ron pressed ?) bug.ron fails: {broken}, not 0; walk.ron does not"
            )],
        ),
    ];
    for (a, b, code, wanted) in &cases {
        let out = support::run(&["diff", a, b], &dir);
        assert_exit(&out, *code);
        for want in wanted {
            assert_prints(&out, want);
        }
        let json = support::run(&["diff", a, b, "--format", "json"], &dir);
        assert_exit(&json, *code);
        let found: serde_json::Value = serde_json::from_str(text(&json.stdout).trim()).unwrap();
        if *code == 0 {
            assert_eq!(found["result"], "same", "{found}");
            assert_eq!(found["failure"]["step"], 3, "{found}");
            assert!(
                found["failure"]["failure"]
                    .as_str()
                    .unwrap()
                    .starts_with(broken),
                "{found}"
            );
        } else {
            assert_eq!(found["result"], "failed", "{found}");
            let failures = found["failures"].as_array().expect("one per run");
            let bug = usize::from(*a != "bug.ron");
            assert!(
                failures[bug].as_str().unwrap().starts_with(broken),
                "{found}"
            );
            assert!(failures[1 - bug].is_null(), "{found}");
        }
    }
}

/// Every command that replays a recording on content other than its own
/// says so in the same words (`diff` for each run it replays on it), and
/// says nothing when each run is replayed on its own content.
#[test]
fn every_replaying_command_warns_alike_on_other_content() {
    let dir = scratch("drift", "warns");
    let content = tougher_spider(&dir);
    let run = corpus("death-by-poison.ron");
    let when = support::run(&["when", &run, "depth >= 1", "--content", &content], &dir);
    assert_exit(&when, 0);
    let warning = text(&when.stderr)
        .lines()
        .find(|l| l.contains("recorded with content "))
        .unwrap_or_else(|| panic!("when warns: {}", text(&when.stderr)))
        .to_string();
    let on = ["--content", content.as_str()];
    let cases: [(Vec<&str>, usize); 7] = [
        ([&["replay", &run][..], &on].concat(), 1),
        ([&["show", &run, "--at", "2"][..], &on].concat(), 1),
        (
            [&["replay", &run, "--cast", "-o", "movie.cast"][..], &on].concat(),
            1,
        ),
        ([&["diff", &run, &run][..], &on].concat(), 2),
        (vec!["diff", &run, &run, "--content-b", &content], 1),
        (vec!["diff", &run, &run], 0),
        (vec!["replay", &run, "--cast", "-o", "movie.cast"], 0),
    ];
    for (args, warned) in cases {
        let out = support::run(&args, &dir);
        let stderr = text(&out.stderr);
        assert_eq!(
            stderr.lines().filter(|l| **l == *warning).count(),
            warned,
            "deja {}: {stderr}",
            args.join(" ")
        );
    }
}
