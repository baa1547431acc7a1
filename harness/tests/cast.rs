//! `deja replay FILE --cast -o OUT`: the movie is asciicast v2, one frame per
//! key, and its frames are the game's.

mod support;

use std::path::Path;

use support::deja;

/// The text a terminal shows for one frame's output: escape sequences
/// dropped, rows split at CR LF, trailing blanks trimmed.
fn screen_of(data: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut chars = data.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ parameters final-byte.
            if chars.next_if_eq(&'[').is_some() {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            continue;
        }
        plain.push(c);
    }
    plain
        .split("\r\n")
        .map(|l| l.trim_end().to_string())
        .collect()
}

fn shown_at(file: &Path, step: u64) -> Vec<String> {
    let out = deja()
        .args(["show", file.to_str().unwrap(), "--at", &step.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let frame = text.split_once('\n').map_or("", |(_, rest)| rest);
    let mut rows: Vec<String> = frame.lines().map(|l| l.trim_end().to_string()).collect();
    rows.resize(24, String::new());
    rows
}

#[test]
fn a_cast_is_asciicast_v2_with_one_frame_per_key_ending_on_the_last_frame() {
    let dir = support::scratch("cast", "corpus");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings/descend-to-depth-3.ron");
    let movie = dir.join("run.cast");
    let out = deja()
        .args([
            "replay",
            file.to_str().unwrap(),
            "--cast",
            "-o",
            movie.to_str().unwrap(),
        ])
        .args(["--speed", "4"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let keys = harness::recording::read(&file).unwrap().keys.len();
    let text = std::fs::read_to_string(&movie).unwrap();
    let mut lines = text.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["version"], 2);
    assert_eq!(header["width"], 80);
    assert_eq!(header["height"], 25, "the frame and the status line");
    let events: Vec<serde_json::Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(events.len(), keys + 1, "the start and one frame per key");
    let mut previous = -1.0;
    for (step, event) in events.iter().enumerate() {
        let time = event[0].as_f64().expect("a time");
        assert!(time > previous, "times rise");
        assert!(
            (time - step as f64 / 4.0).abs() < 1e-6,
            "four keys a second"
        );
        previous = time;
        assert_eq!(event[1], "o");
    }
    let last = screen_of(events.last().unwrap()[2].as_str().unwrap());
    assert_eq!(last[..24].to_vec(), shown_at(&file, keys as u64));
    assert!(
        last[24].starts_with(&format!("step {keys}/{keys} · turn")),
        "{}",
        last[24]
    );
    let middle = screen_of(events[10][2].as_str().unwrap());
    assert_eq!(middle[..24].to_vec(), shown_at(&file, 10));

    // The same recording makes the same movie, byte for byte.
    let again = dir.join("again.cast");
    deja()
        .args([
            "replay",
            file.to_str().unwrap(),
            "--cast",
            "-o",
            again.to_str().unwrap(),
        ])
        .args(["--speed", "4"])
        .assert()
        .success();
    assert_eq!(std::fs::read(&again).unwrap(), text.as_bytes());
}

#[test]
fn watch_and_cast_take_one_recording_and_watch_needs_a_terminal() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings/win.ron");
    let name = file.to_str().unwrap();
    let two = deja()
        .args(["replay", name, name, "--cast", "-o", "x.cast"])
        .output()
        .unwrap();
    assert_eq!(two.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&two.stderr).contains("take one recording"));
    let watch = deja().args(["replay", name, "--watch"]).output().unwrap();
    assert_eq!(watch.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&watch.stderr).contains("--watch needs a terminal"));
}

/// `--color always` colours a movie even with NO_COLOR set, as its help
/// says; `auto` follows NO_COLOR, and `never` never colours.
#[test]
fn color_always_beats_no_color_and_auto_follows_it() {
    let dir = support::scratch("cast", "colours");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings/win.ron");
    let colour_codes = |choice: &str, no_color: Option<&str>| {
        let movie = dir.join(format!("{choice}-{}.cast", no_color.is_some()));
        let mut command = deja();
        command
            .args(["replay", file.to_str().unwrap(), "--cast", "-o"])
            .arg(&movie)
            .args(["--to-step", "3", "--color", choice])
            .env_remove("NO_COLOR");
        if let Some(value) = no_color {
            command.env("NO_COLOR", value);
        }
        let out = command.output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(&movie)
            .unwrap()
            .matches("\\u001b[38;5;")
            .count()
    };
    assert!(
        colour_codes("always", Some("1")) > 0,
        "always, with NO_COLOR=1"
    );
    assert!(colour_codes("always", None) > 0);
    assert_eq!(colour_codes("auto", Some("1")), 0, "auto, with NO_COLOR=1");
    assert!(colour_codes("auto", None) > 0);
    assert_eq!(colour_codes("never", None), 0);
}
