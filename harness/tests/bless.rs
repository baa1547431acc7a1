//! Bless cannot silently rewrite what a recording is for. With one monster
//! added to the content, the corpus's runs change: bless refuses, naming
//! them, the files whose run would end differently or no longer shows its
//! `expect` list, blesses the rest, and ends with a table of every file;
//! `--accept-outcome` rewrites an outcome change on purpose. Replay fails a
//! file whose expectations do not hold.

mod support;

use std::path::Path;

use support::{assert_exit, assert_prints, assert_says, corpus, run, scratch, text};

/// The embedded content with one more monster at home on depth 1.
fn content_with_a_new_monster(dir: &Path) -> String {
    let content = dir.join("content");
    std::fs::create_dir_all(&content).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../game-core/content");
    std::fs::copy(source.join("items.ron"), content.join("items.ron")).unwrap();
    let monsters = std::fs::read_to_string(source.join("monsters.ron")).unwrap();
    let at = monsters.find("\n    (\n").expect("a first entry") + 1;
    let toad = r#"    (
        name: "cave toad",
        glyph: 'q',
        max_hp: 5,
        att: 1,
        dv: 7,
        damage: "1d3",
        speed: 100,
        danger: 1,
        weight: 100,
        description: "A fat, warty toad that does not like being stepped on.",
    ),
"#;
    let added = format!("{}{toad}{}", &monsters[..at], &monsters[at..]);
    std::fs::write(content.join("monsters.ron"), added).unwrap();
    content.to_str().unwrap().to_string()
}

#[test]
fn bless_refuses_what_would_change_a_recordings_point_and_blesses_the_rest() {
    let dir = scratch("bless", "new-monster");
    let content = content_with_a_new_monster(&dir);
    let mut files = Vec::new();
    for entry in std::fs::read_dir(corpus("")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        std::fs::copy(&path, dir.join(&name)).unwrap();
        files.push(name);
    }
    files.sort();
    // One file states nothing: only its outcome guards it.
    let plain = "win-without-expect.ron";
    let win = std::fs::read_to_string(dir.join("win.ron")).unwrap();
    let start = win.find("    expect: ").unwrap();
    let end = start + win[start..].find('\n').unwrap() + 1;
    std::fs::write(dir.join(plain), format!("{}{}", &win[..start], &win[end..])).unwrap();
    files.push(plain.to_string());
    let before: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap())
        .collect();

    let mut args = vec!["bless", "--content", &content];
    args.extend(files.iter().map(String::as_str));
    let out = run(&args, &dir);
    assert_exit(&out, 3);
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    // The table: a header, then each file's lines (its result wrapped,
    // then how its run ends), no line over 100 columns.
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("file ") && lines[0].contains("result"),
        "{stdout}"
    );
    assert!(
        lines.iter().all(|l| l.chars().count() <= 100),
        "wider than 100 columns:\n{stdout}"
    );
    let starts = |l: &str| files.iter().any(|f| l.starts_with(&format!("{f} ")));
    assert_eq!(
        lines.iter().filter(|l| starts(l)).count(),
        files.len(),
        "{stdout}"
    );
    // A file's lines, joined: up to the next file's.
    let block = |file: &str| {
        let at = lines
            .iter()
            .position(|l| l.starts_with(&format!("{file} ")))
            .unwrap_or_else(|| panic!("{file} is not in the table:\n{stdout}"));
        let len = lines[at + 1..].iter().take_while(|l| !starts(l)).count();
        lines[at..=at + len].join(" ")
    };
    let mut refused = 0;
    for (file, old) in files.iter().zip(&before) {
        let line = &block(file);
        let now = std::fs::read_to_string(dir.join(file)).unwrap();
        if line.contains("REFUSED") {
            refused += 1;
            assert!(stderr.contains(&format!("error: {file}: ")), "{stderr}");
            assert_eq!(&now, old, "{file} was refused, so it is left alone");
        } else {
            assert!(line.contains("blessed: "), "{line}");
            assert_ne!(&now, old, "{file} was blessed");
            assert_exit(&run(&["replay", "--content", &content, file], &dir), 0);
        }
    }
    assert!(
        refused > 0 && refused < files.len(),
        "some refused, some blessed:\n{stdout}"
    );
    // win.ron no longer wins: refused for its expectations; the copy that
    // states none, for its outcome.
    let line = block;
    assert!(line("win.ron").contains("REFUSED: expect no longer holds"));
    assert!(line(plain).contains("REFUSED: the outcome changes"));
    assert!(line(plain).contains("won at turn 1621"));
    assert_says(
        &out,
        "win.ron: the run no longer shows what its expect list says",
    );
    assert_says(&out, "expected the run is won");
    assert_says(
        &out,
        &format!("{plain}: the run would end differently: won at turn 1621 -> running"),
    );

    // On purpose: the outcome is rewritten, and the file replays as it is now.
    let out = run(
        &["bless", "--accept-outcome", "--content", &content, plain],
        &dir,
    );
    assert_exit(&out, 0);
    assert_prints(&out, "outcome changed");
    assert_prints(&out, "ending: won at turn 1621 -> running on depth");
    assert_exit(&run(&["replay", "--content", &content, plain], &dir), 0);
    // Expectations hold even then.
    let out = run(
        &[
            "bless",
            "--accept-outcome",
            "--content",
            &content,
            "win.ron",
        ],
        &dir,
    );
    assert_exit(&out, 3);
}

#[test]
fn replay_fails_a_recording_whose_expectations_do_not_hold() {
    let dir = scratch("bless", "tampered-expect");
    let text = std::fs::read_to_string(corpus("death-by-poison.ron")).unwrap();
    let tampered = text.replace("Died(\"poison\")", "Died(\"fire\")");
    assert_ne!(tampered, text);
    std::fs::write(dir.join("tampered.ron"), tampered).unwrap();
    let out = run(&["replay", "tampered.ron"], &dir);
    assert_exit(&out, 3);
    assert_prints(
        &out,
        "tampered.ron: not what it says it shows: expected the player dies of \"fire\"",
    );
    let out = run(&["replay", "tampered.ron", "--format", "json"], &dir);
    assert_exit(&out, 3);
    assert_prints(&out, "\"verdict\":\"unmet\"");
    // And bless will not write it over.
    assert_exit(&run(&["bless", "tampered.ron"], &dir), 3);
}
