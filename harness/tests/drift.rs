//! A drift says what differs: which parts of the state (player, monsters,
//! items, map, clock, rng, screens/messages) moved first, from the digests
//! a recording keeps per step; and `deja diff` shows the fields.

mod support;

use std::path::Path;

use support::{assert_exit, assert_prints, scratch, text};

fn corpus(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../recordings")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

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

#[test]
fn a_changed_monster_rule_drifts_with_the_monsters_named_first() {
    let dir = scratch("drift", "monster-hp");
    // The cave spider that poisons the player is tougher.
    let content = content_with(&dir, |m| {
        let at = m.find("name: \"cave spider\"").unwrap();
        let hp = at + m[at..].find("max_hp: ").unwrap();
        let end = hp + m[hp..].find(',').unwrap();
        format!("{}max_hp: 9{}", &m[..hp], &m[end..])
    });
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
        original.replacen("\"o..okk", "\"o..ojk", 1),
    )
    .unwrap();
    let out = support::run(&["replay", "moved.ron"], &dir);
    assert_exit(&out, 3);
    let first = text(&out.stdout).lines().next().unwrap().to_string();
    assert!(
        first.starts_with("moved.ron: drift at step 5 (key j, "),
        "{first}"
    );
    assert!(
        first.contains(" differ; ") && first.contains("player"),
        "{first}"
    );
}
