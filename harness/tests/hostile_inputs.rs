//! Every command over hostile inputs, table-driven: broken and tampered
//! recordings, bad arguments, bad content, bad reports, junk fuzz artifacts.
//! Each must end with its expected exit code (a refusal is 1 or 2, a drift
//! 3, a failure found 4), never panic, and never show a Rust `Debug` dump
//! (`Some(Help)`, `Running { depth: 1, turn: 35 }`): what a user reads is
//! written for them. The FIFOs, directories and unwritable outputs are in
//! hostile_files.rs, kills in killed_writes.rs.

mod support;

use std::path::Path;
use std::process::Output;

use support::{corpus, debug_looking, deja, text};

const ERROR: &[i32] = &[1];
const USAGE: &[i32] = &[2];
const REFUSED: &[i32] = &[1, 2];
/// Any verdict on a recording that reads: same, a refusal, drift, failure.
const ANY_VERDICT: &[i32] = &[0, 1, 3, 4];

/// One run: the arguments, and the exit codes it may end with.
struct Case {
    args: Vec<String>,
    exits: &'static [i32],
}

fn case(args: &[&str], exits: &'static [i32]) -> Case {
    Case {
        args: args.iter().map(|a| a.to_string()).collect(),
        exits,
    }
}

/// Runs every case in `dir`, and fails naming every case that panicked,
/// ended with an exit code it should not, or printed something that looks
/// like a `Debug` dump.
fn run_all(cases: &[Case], dir: &Path) {
    let mut wrong = Vec::new();
    for case in cases {
        let out: Output = deja()
            .current_dir(dir)
            .args(&case.args)
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .expect("deja runs");
        let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
        let command = format!("deja {}", case.args.join(" "));
        let code = out.status.code();
        if !code.is_some_and(|c| case.exits.contains(&c)) {
            wrong.push(format!(
                "{command}: exit {code:?}, not one of {:?}\n{said}",
                case.exits
            ));
        }
        if said.contains("panicked") || said.contains("RUST_BACKTRACE") {
            wrong.push(format!("{command}: panicked\n{said}"));
        }
        if let Some(dump) = debug_looking(&said) {
            wrong.push(format!("{command}: prints a Debug dump: {dump:?}\n{said}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cases went wrong:\n\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n\n")
    );
}

#[test]
fn the_detector_finds_debug_dumps_and_passes_prose() {
    for dump in [
        "Esc on Some(Help)",
        "outcome Running { depth: 1, turn: 35 }",
        "report 2: SweepSpec { seeds: SeedRange { .. } }",
        "screen: None, hp 3",
        "Err(Io(Kind(NotFound)))",
        "an Attack(3) landed",
        "a Drink(\"potion\")",
    ] {
        assert!(debug_looking(dump).is_some(), "{dump}");
    }
    for prose in [
        "error: win.ron:12:5: expected a key",
        "None of the seeds failed (Undercroft 0.1.0)",
        "drift at step 3: the run is on depth 1, turn 35",
        "FAILURE seed 4 depth 2 step 0: floor.reachable (every tile)",
        "give WIDTHxHEIGHT, e.g. 80x24",
        "{\"file\": \"a.ron\", \"verdict\": \"same\"}",
    ] {
        assert_eq!(debug_looking(prose), None, "{prose}");
    }
}

/// `name` in `dir`, made from a corpus recording with `edit` applied (which
/// must change it).
fn tampered(dir: &Path, from: &str, name: &str, edit: impl Fn(&str) -> String) -> String {
    let text = std::fs::read_to_string(corpus(from)).unwrap();
    let changed = edit(&text);
    assert_ne!(changed, text, "{name}: the edit changes nothing");
    std::fs::write(dir.join(name), changed).unwrap();
    name.to_string()
}

/// Every command that reads a recording, given `file` (bless on a copy).
fn recording_commands(file: &str, dir: &Path, exits: &'static [i32]) -> Vec<Case> {
    let copy = format!("bless-{file}");
    std::fs::copy(dir.join(file), dir.join(&copy)).unwrap();
    let shrunk = format!("shrunk-{file}");
    let from = format!("from-{file}");
    vec![
        case(&["replay", file], exits),
        case(&["replay", file, "--format", "json"], exits),
        case(
            &["replay", file, "--frames", "last", "--to-step", "2"],
            exits,
        ),
        case(&["show", file, "--at", "1"], exits),
        case(&["diff", file, file], exits),
        case(&["when", file, "depth >= 1"], exits),
        case(&["bless", &copy], exits),
        case(&["shrink", file, "-o", &shrunk, "--max-tries", "30"], exits),
        case(
            &[
                "play", "--from", file, "--at", "1", "--keys", "l", "-o", &from,
            ],
            exits,
        ),
    ]
}

#[test]
fn every_recording_command_over_the_broken_recordings() {
    let dir = support::scratch("hostile-inputs", "broken");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad-recordings");
    let mut names: Vec<String> = std::fs::read_dir(&source)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let mut cases = Vec::new();
    for name in &names {
        std::fs::copy(source.join(name), dir.join(name)).unwrap();
        cases.extend(recording_commands(name, &dir, ERROR));
    }
    run_all(&cases, &dir);
}

#[test]
fn every_recording_command_over_tampered_recordings() {
    let dir = support::scratch("hostile-inputs", "tampered");
    let d = &dir;
    // What each tampering is shown to do is in replay's and bless's own
    // tests; here every command must say it in words.
    let drifting = [
        tampered(d, "death-by-poison.ron", "other-seed.ron", |t| {
            support::with_the_next_seed(t)
        }),
        tampered(d, "death-by-poison.ron", "other-key.ron", |t| {
            support::with_key_at(t, 12, "h").0
        }),
        tampered(d, "death-by-poison.ron", "other-outcome.ron", |t| {
            t.replace(
                "Died(cause: \"died of poison from a cave spider\", depth: 2, turn: 131)",
                "Running(depth: 1, turn: 35)",
            )
        }),
        tampered(d, "win.ron", "claims-death.ron", |t| {
            t.replace(
                "Won(turn: 1621)",
                "Died(cause: \"killed by a rat\", depth: 2, turn: 90)",
            )
        }),
        tampered(d, "descend-to-depth-3.ron", "other-checkpoint.ron", |t| {
            let at = t.find("hash: \"").unwrap() + "hash: \"".len();
            let flipped = if &t[at..=at] == "0" { "1" } else { "0" };
            format!("{}{flipped}{}", &t[..at], &t[at + 1..])
        }),
    ];
    let mut cases = Vec::new();
    for file in &drifting {
        cases.extend(recording_commands(file, d, ANY_VERDICT));
    }
    // Screens open and closed along the way: keys that name screens.
    for file in ["read-every-scroll.ron", "throw-at-monster.ron"] {
        std::fs::copy(corpus(file), d.join(file)).unwrap();
        cases.extend(recording_commands(file, d, &[0, 1]));
    }
    run_all(&cases, d);
}

#[test]
fn failures_found_and_reproduced_are_described_in_words() {
    let dir = support::scratch("hostile-inputs", "failures");
    // Bug reports of planted defects: a panic, broken invariants of the
    // floor, of a turn and of a key's outcome.
    let mut cases = Vec::new();
    for (canary, bot, seeds) in [
        ("crowded-start", "none", "1..3"),
        ("blind-spot", "random", "1..3"),
        ("half-heard", "explorer", "1..2"),
        ("panicking-potion", "random", "1..40"),
    ] {
        let saved = format!("saved-{canary}");
        cases.push(case(
            &[
                "sweep",
                "--seeds",
                seeds,
                "--bot",
                bot,
                "--keys",
                "400",
                "--jobs",
                "1",
                "--canary",
                canary,
                "--fail-fast",
                "--save-failures",
                &saved,
            ],
            &[4],
        ));
    }
    run_all(&cases, &dir);
    let mut reports = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let saved = entry.unwrap().path();
        for report in std::fs::read_dir(&saved).unwrap() {
            let report = report.unwrap().path();
            let name = format!(
                "{}-{}",
                saved.file_name().unwrap().to_str().unwrap(),
                report.file_name().unwrap().to_str().unwrap()
            );
            std::fs::copy(&report, dir.join(&name)).unwrap();
            reports.push(name);
        }
    }
    assert!(reports.len() >= 4, "a report per canary: {reports:?}");
    let mut cases = Vec::new();
    for report in &reports {
        // Replay reproduces (4); the other commands read it, or refuse.
        cases.extend(recording_commands(report, &dir, ANY_VERDICT));
    }
    run_all(&cases, &dir);
}

#[test]
fn every_command_over_bad_arguments() {
    let dir = support::scratch("hostile-inputs", "arguments");
    std::fs::copy(corpus("win.ron"), dir.join("win.ron")).unwrap();
    std::fs::write(dir.join("keys.txt"), "l".repeat(2_000_001)).unwrap();
    std::fs::write(dir.join("bad-keys.txt"), "ll<Bogus>ll").unwrap();
    let cases = vec![
        // Numbers out of range or not numbers.
        case(&["play", "--seed", "-1", "--keys", "l"], USAGE),
        case(
            &["play", "--seed", "18446744073709551616", "--keys", "l"],
            USAGE,
        ),
        case(&["play", "--keys", "l", "--size", "0x0"], USAGE),
        case(&["play", "--keys", "l", "--map-size", "5x5"], REFUSED),
        case(&["play", "--keys", "l", "--map-size", "99999x2"], REFUSED),
        case(
            &["play", "--keys", "l", "--canary", "no-such-canary"],
            USAGE,
        ),
        case(
            &["play", "--from", "win.ron", "--at", "99999", "--keys", "l"],
            ERROR,
        ),
        case(
            &["play", "--from", "win.ron", "--keys", "l", "-o", "win.ron"],
            ERROR,
        ),
        case(&["show", "win.ron", "--at", "99999999999999999999"], USAGE),
        case(&["show", "win.ron", "--at", "100000"], ERROR),
        case(&["show", "win.ron", "--size", "80"], USAGE),
        case(&["replay", "win.ron", "--to-step", "100000"], ERROR),
        case(
            &[
                "replay", "win.ron", "--speed", "0", "--cast", "-o", "x.cast",
            ],
            USAGE,
        ),
        case(&["map", "--depth", "7"], USAGE),
        case(&["map", "--depth", "0"], USAGE),
        case(&["map", "--seed", "x"], USAGE),
        case(&["bench", "--keys", "0"], USAGE),
        case(&["bench", "--runs", "18446744073709551615"], USAGE),
        case(&["bench", "--sweep-runs", "0"], USAGE),
        case(&["bench", "--memory-seeds", "18446744073709551615"], USAGE),
        case(&["bench", "--only", "everything"], USAGE),
        case(&["bench", "--explorer-seeds", "5..1"], USAGE),
        case(&["sweep", "--seeds", "5..1"], USAGE),
        case(&["sweep", "--seeds", "1..=18446744073709551616"], USAGE),
        case(&["sweep", "--seeds", "1..2", "--depths", "3..=1"], USAGE),
        case(&["sweep", "--seeds", "1..2", "--jobs", "0"], USAGE),
        case(&["sweep", "--seeds", "1..2", "--shard", "0/2"], USAGE),
        case(&["sweep", "--seeds", "1..2", "--shard", "3/2"], USAGE),
        case(&["sweep", "--seeds", "1..2", "--bot", "genius"], USAGE),
        case(&["sweep", "--seeds", "1..2", "--hang-seconds", "0"], USAGE),
        case(
            &["shrink", "win.ron", "-o", "s.ron", "--max-tries", "0"],
            REFUSED,
        ),
        case(&["probe", "--first-seed", "18446744073709551615"], USAGE),
        // Keys: unknown names, out-of-range code points, too many.
        case(&["play", "--keys", "<Bogus>"], ERROR),
        case(&["play", "--keys", "l<U+FFFFFFFFFFFFFFFFFFFF>"], ERROR),
        case(&["play", "--keys", "<U+D800>"], ERROR),
        case(&["play", "--keys", "<"], ERROR),
        case(&["play", "--keys", "<C-"], ERROR),
        case(&["play", "--keys-file", "keys.txt"], ERROR),
        case(&["play", "--keys-file", "bad-keys.txt"], ERROR),
        case(&["play", "--keys-file", "no-such-file.txt"], ERROR),
        case(
            &["play", "--keys", "l", "--keys-file", "bad-keys.txt"],
            USAGE,
        ),
        case(&["play", "--note", "x"], REFUSED),
        // Files that are not there, and no files.
        case(&["replay", "no-such.ron"], ERROR),
        case(&["replay"], USAGE),
        case(&["bless", "no-such.ron"], ERROR),
        case(&["show", "no-such.ron", "--at", "0"], ERROR),
        case(&["merge", "no-such.json"], ERROR),
        case(
            &["from-fuzz", "intents", "no-such-artifact", "-o", "x.ron"],
            ERROR,
        ),
        case(&["from-fuzz", "nonesuch", "keys.txt", "-o", "x.ron"], USAGE),
        case(&["from-fuzz", "sight", "keys.txt", "-o", "x.ron"], ERROR),
        case(&["corpus", "no-such-dir"], ERROR),
        case(&["play", "--keys", "l", "--content", "no-such-dir"], ERROR),
        case(
            &["sweep", "--seeds", "1..2", "--baseline", "no-such.ron"],
            ERROR,
        ),
        case(&["no-such-command"], USAGE),
    ];
    run_all(&cases, &dir);
}

#[test]
fn content_commands_over_the_broken_content() {
    let dir = support::scratch("hostile-inputs", "content");
    let game_core = Path::new(env!("CARGO_MANIFEST_DIR")).join("../game-core");
    let source = game_core.join("tests/bad-content");
    let mut names: Vec<String> = std::fs::read_dir(&source)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let mut cases = Vec::new();
    for name in &names {
        // monsters-*.ron is a bad monsters.ron beside good items, and so on.
        let kind = name.split('-').next().unwrap();
        let content = dir.join(name.trim_end_matches(".ron"));
        std::fs::create_dir_all(&content).unwrap();
        for file in ["monsters.ron", "items.ron"] {
            std::fs::copy(game_core.join("content").join(file), content.join(file)).unwrap();
        }
        std::fs::copy(source.join(name), content.join(format!("{kind}.ron"))).unwrap();
        let c = content.to_str().unwrap();
        cases.push(case(&["play", "--keys", "l", "--content", c], ERROR));
        cases.push(case(&["map", "--content", c], ERROR));
        cases.push(case(&["sweep", "--seeds", "1..2", "--content", c], ERROR));
    }
    run_all(&cases, &dir);
}

/// A sweep report as JSON, to be edited into a bad one.
fn report(dir: &Path, name: &str, args: &[&str]) -> serde_json::Value {
    let out = deja()
        .current_dir(dir)
        .args([
            "sweep", "--bot", "none", "--jobs", "1", "--format", "json", "-o", name,
        ])
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
}

fn write_json(dir: &Path, name: &str, value: &serde_json::Value) -> String {
    std::fs::write(dir.join(name), serde_json::to_string_pretty(value).unwrap()).unwrap();
    name.to_string()
}

#[test]
fn merge_over_bad_reports() {
    let dir = support::scratch("hostile-inputs", "merge");
    let d = &dir;
    let one = report(d, "1.json", &["--seeds", "1..7", "--shard", "1/2"]);
    let two = report(d, "2.json", &["--seeds", "1..7", "--shard", "2/2"]);
    report(
        d,
        "other.json",
        &["--seeds", "1..7", "--shard", "2/2", "--depths", "1..=2"],
    );
    let mut missing = one.clone();
    missing["results"].as_array_mut().unwrap().remove(1);
    let mut twice = one.clone();
    let first = twice["results"][0].clone();
    twice["results"].as_array_mut().unwrap().insert(1, first);
    let mut summary = one.clone();
    summary["summary"]["floors"] = serde_json::json!(1);
    let mut format = one.clone();
    format["format"] = serde_json::json!(99);
    let mut game = two.clone();
    game["game"] = serde_json::json!("undercroft 9.9.9");
    let mut incomplete = one.clone();
    incomplete["incomplete"] = serde_json::json!({"reason": "interrupted", "covered": 1, "of": 3});
    let mut wrong_type = one.clone();
    wrong_type["spec"]["seeds"] = serde_json::json!("1..7");
    std::fs::write(d.join("junk.json"), "{\"format\": 2, ").unwrap();
    std::fs::write(d.join("empty.json"), "").unwrap();
    let cases = vec![
        case(&["merge", "1.json", "other.json"], ERROR),
        case(&["merge", "1.json", "1.json"], ERROR),
        case(&["merge", "1.json"], ERROR),
        case(&["merge", "2.json"], ERROR),
        case(
            &["merge", &write_json(d, "missing.json", &missing), "2.json"],
            ERROR,
        ),
        case(
            &["merge", &write_json(d, "twice.json", &twice), "2.json"],
            ERROR,
        ),
        case(
            &["merge", &write_json(d, "summary.json", &summary), "2.json"],
            ERROR,
        ),
        case(
            &["merge", &write_json(d, "format.json", &format), "2.json"],
            ERROR,
        ),
        case(
            &["merge", "1.json", &write_json(d, "game.json", &game)],
            ERROR,
        ),
        case(
            &["merge", &write_json(d, "cut.json", &incomplete), "2.json"],
            ERROR,
        ),
        case(
            &["merge", &write_json(d, "type.json", &wrong_type), "2.json"],
            ERROR,
        ),
        case(&["merge", "junk.json", "2.json"], ERROR),
        case(&["merge", "empty.json"], ERROR),
        case(&["merge"], USAGE),
    ];
    run_all(&cases, d);
}

#[test]
fn from_fuzz_over_junk_artifacts() {
    let dir = support::scratch("hostile-inputs", "from-fuzz");
    let junk: [(&str, Vec<u8>); 4] = [
        ("empty", Vec::new()),
        ("one-byte", vec![0xff]),
        ("text", b"not an artifact at all\n".to_vec()),
        (
            "noise",
            (0..4096u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
                .collect(),
        ),
    ];
    let mut cases = Vec::new();
    for (name, bytes) in &junk {
        std::fs::write(dir.join(name), bytes).unwrap();
        for target in ["intents", "keys"] {
            let out = format!("{target}-{name}.ron");
            // A junk input is read as some input: it runs clean (written
            // with a warning), or by chance fails (4), or is refused (1).
            cases.push(case(&["from-fuzz", target, name, "-o", &out], &[0, 1, 4]));
        }
        cases.push(case(
            &[
                "from-fuzz",
                "intents",
                name,
                "-o",
                "x.ron",
                "--canary",
                "no-such-canary",
            ],
            USAGE,
        ));
    }
    run_all(&cases, &dir);
}

/// What a hostile bug report carries in its free text: an OSC that sets the
/// terminal's title, a CSI that clears the screen, the same CSI as one C1
/// byte, DEL, NEL, a right-to-left override that reorders the line,
/// characters that draw as nothing (zero-width space, byte-order mark, soft
/// hyphen, word joiner, a tag character), a no-break space, and line breaks
/// that would start a line of deja's own ([`FORGED`]).
const HOSTILE: &str = "[\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}2J\u{7f}\u{85}\u{202e}desrever\
    \u{200b}\u{feff}\u{ad}\u{2060}\u{e0041}\u{a0}\nFORGED: same\r\n\nFORGED: ALL CHECKS PASSED\n]";

/// How a line forged by a line break in [`HOSTILE`] starts.
const FORGED: &str = "FORGED";

/// The first character in `text` that must not reach a terminal raw, other
/// than the line break (deja's own), or the first line a line break from a
/// file started, with where it is.
fn raw_control(text: &str) -> Option<String> {
    if let Some(forged) = text.lines().find(|l| l.trim_start().starts_with(FORGED)) {
        return Some(format!("a line of its own: {forged:?}"));
    }
    let (at, c) = text
        .char_indices()
        .find(|&(_, c)| c != '\n' && harness::plumbing::printable::is_unsafe(c))?;
    Some(found_at(text, at, c))
}

/// `c`, found at byte `at` of `text`, with the forty characters before it.
fn found_at(text: &str, at: usize, c: char) -> String {
    let from = text[..at]
        .char_indices()
        .rev()
        .nth(40)
        .map_or(0, |(i, _)| i);
    format!("{:?} after {:?}", c, &text[from..at])
}

/// The first control sequence in a movie frame that deja's own drawing does
/// not make (it moves the cursor home, clears, sets colours with SGR, and
/// breaks lines with CR LF), with where it is.
fn foreign_sequence(frame: &str) -> Option<String> {
    let mut chars = frame.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c == '\u{1b}' && chars.peek().is_some_and(|&(_, c)| c == '[') {
            chars.next();
            let mut end = None;
            for (_, c) in chars.by_ref() {
                if !(c.is_ascii_digit() || c == ';') {
                    end = Some(c);
                    break;
                }
            }
            if !matches!(end, Some('H' | 'J' | 'm')) {
                return Some(format!("CSI ending {end:?} at {at}"));
            }
        } else if c != '\r' && c != '\n' && harness::plumbing::printable::is_unsafe(c) {
            return Some(found_at(frame, at, c));
        }
    }
    None
}

/// Recordings made by this build, then given hostile free text in every
/// field a person reads: the game's name and version, the note, the origin,
/// the expect list, a failure's id, message and location; and a file whose
/// very name is hostile.
fn hostile_recordings(dir: &Path) -> Vec<String> {
    use harness::recording::expect::Expectation;
    use harness::recording::{self, Failure, FailureKind, Origin, RecordedOutcome};
    let play = |name: &str, args: &[&str]| {
        let out = deja()
            .current_dir(dir)
            .args(["play", "--frames", "none", "-o", name])
            .args(args)
            .output()
            .expect("deja runs");
        assert!(
            matches!(out.status.code(), Some(0 | 4)),
            "{name}: {}",
            text(&out.stderr)
        );
        recording::read(&dir.join(name)).expect("deja reads what it wrote")
    };
    let write = |name: &str, recording: &recording::Recording| {
        std::fs::write(dir.join(name), recording::to_text(recording)).unwrap();
        name.to_string()
    };
    let mut files = Vec::new();

    let mut clean = play("clean.ron", &["--seed", "7", "--keys", "llll"]);
    clean.game_name = HOSTILE.into();
    clean.game_version = HOSTILE.into();
    clean.note = HOSTILE.into();
    clean.origin = Some(Origin {
        file: HOSTILE.into(),
        step: 1,
    });
    clean.expect = vec![
        Expectation::Says(HOSTILE.into()),
        Expectation::Screen(HOSTILE.into()),
        Expectation::Uses(HOSTILE.into()),
    ];
    files.push(write("text.ron", &clean));
    files.push(write(&format!("name{HOSTILE}.ron"), &clean));

    // A failure recorded at the last key that the replay does not meet:
    // "fixed", which quotes the recorded failure.
    let mut fixed = clean.clone();
    fixed.expect.clear();
    let last = fixed.keys.len() as u64;
    fixed.step_hashes.pop();
    fixed.part_digests.pop();
    fixed.checkpoints.retain(|&(step, _)| step < last);
    if fixed.checkpoints.is_empty() {
        fixed.checkpoints.push((0, 0));
    }
    fixed.outcome = RecordedOutcome::Failed;
    fixed.failure = Some(Failure {
        step: last,
        kind: FailureKind::Invariant {
            id: HOSTILE.into(),
            message: HOSTILE.into(),
        },
    });
    files.push(write("fixed.ron", &fixed));

    let mut panic = play(
        "panic.ron",
        &[
            "--seed",
            "1",
            "--keys",
            "iaa",
            "--canary",
            "panicking-potion",
        ],
    );
    panic.note = HOSTILE.into();
    let Some(failure) = &mut panic.failure else {
        panic!("the panicking potion panics");
    };
    failure.kind = FailureKind::Panic {
        message: HOSTILE.into(),
        location: Some(HOSTILE.into()),
    };
    files.push(write("panic.ron", &panic));

    // The same invariant broken again, whatever its message says:
    // "reproduced", which quotes the recorded failure.
    let mut broken = play(
        "broken.ron",
        &[
            "--seed",
            "3",
            "--keys",
            "ll?<Esc>",
            "--canary",
            "sticky-help",
        ],
    );
    let Some(failure) = &mut broken.failure else {
        panic!("sticky help breaks screen.escapable");
    };
    let FailureKind::Invariant { message, .. } = &mut failure.kind else {
        panic!("sticky help breaks an invariant");
    };
    *message = HOSTILE.into();
    files.push(write("broken.ron", &broken));
    files
}

#[test]
fn no_text_from_a_recording_reaches_the_terminal_raw() {
    let dir = support::scratch("hostile-inputs", "hostile-text");
    let files = hostile_recordings(&dir);
    let mut wrong = Vec::new();
    let check = |wrong: &mut Vec<String>, args: Vec<String>, out: &Output| {
        let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
        if let Some(found) = raw_control(&said) {
            wrong.push(format!("deja {:?}: prints {found}", args.join(" ")));
        }
        assert!(!said.contains("panicked"), "{args:?}: {said}");
    };
    let run = |args: &[&str]| {
        deja()
            .current_dir(&dir)
            .args(args)
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .expect("deja runs")
    };
    let base = "clean.ron";
    for file in &files {
        let copy = format!("bless-{}", files.iter().position(|f| f == file).unwrap());
        std::fs::copy(dir.join(file), dir.join(&copy)).unwrap();
        let cast = dir.join("movie.cast");
        let _ = std::fs::remove_file(&cast);
        let cases: Vec<Vec<&str>> = vec![
            vec!["replay", file],
            vec!["replay", file, "--frames", "last"],
            vec!["replay", file, "--summary"],
            vec!["bless", &copy],
            vec!["bless", &copy, "--accept-outcome"],
            vec!["show", file, "--at", "1"],
            vec!["show", file, "--at", "1", "--state"],
            vec!["when", file, "messages.last ~ \"a\""],
            vec!["diff", file, base],
            vec!["diff", base, file],
            vec!["replay", file, "--cast", "-o", "movie.cast"],
        ];
        for args in cases {
            let out = run(&args);
            check(
                &mut wrong,
                args.iter().map(|a| a.to_string()).collect(),
                &out,
            );
        }
        if let Ok(movie) = std::fs::read_to_string(&cast) {
            for line in movie.lines().skip(1) {
                let event: serde_json::Value = serde_json::from_str(line).expect("a cast event");
                let frame = event[2].as_str().expect("the event's text");
                if let Some(found) = foreign_sequence(frame) {
                    wrong.push(format!("replay {file} --cast: a frame holds {found}"));
                    break;
                }
            }
        } else {
            wrong.push(format!("replay {file} --cast wrote no movie"));
        }
    }
    let out = run(&["replay", "."]);
    check(&mut wrong, vec!["replay".into(), ".".into()], &out);
    // A sweep's failures saved into a directory with a hostile name: the
    // `reproduce:` and `shrunk` lines name it.
    let saved = format!("saved{HOSTILE}");
    let args = [
        "sweep",
        "--seeds",
        "1..2",
        "--bot",
        "none",
        "--canary",
        "crowded-start",
        "--save-failures",
        &saved,
        "--shrink",
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    check(
        &mut wrong,
        args.iter().map(|a| a.to_string()).collect(),
        &out,
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `text` with a byte-order mark before it, as some editors save a file.
fn with_byte_order_mark(text: &str) -> String {
    format!("\u{feff}{text}")
}

#[test]
fn a_byte_order_mark_at_the_start_of_a_file_is_skipped_by_every_reader() {
    let dir = support::scratch("hostile-inputs", "byte-order-mark");
    std::fs::write(dir.join("run.keys"), with_byte_order_mark("ll")).unwrap();
    let win = std::fs::read_to_string(corpus("win.ron")).unwrap();
    std::fs::write(dir.join("win.ron"), with_byte_order_mark(&win)).unwrap();
    let content = dir.join("content");
    std::fs::create_dir_all(&content).unwrap();
    let embedded = Path::new(env!("CARGO_MANIFEST_DIR")).join("../game-core/content");
    for name in ["monsters.ron", "items.ron"] {
        let text = std::fs::read_to_string(embedded.join(name)).unwrap();
        std::fs::write(content.join(name), with_byte_order_mark(&text)).unwrap();
    }
    let sweep = deja()
        .current_dir(&dir)
        .args([
            "sweep", "--seeds", "1..3", "--bot", "random", "--keys", "50",
        ])
        .args(["--format", "json", "-o", "-"])
        .output()
        .unwrap();
    assert_eq!(sweep.status.code(), Some(0), "{}", text(&sweep.stderr));
    let report = with_byte_order_mark(&text(&sweep.stdout));
    std::fs::write(dir.join("sweep.json"), report).unwrap();

    // Each reader of text, and what it must make of the file.
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "play",
                "--seed",
                "7",
                "--keys-file",
                "run.keys",
                "-o",
                "keys.ron",
            ],
            "recorded 2 keys",
        ),
        (&["replay", "win.ron"], "same"),
        (
            &["play", "--seed", "7", "--keys", "l", "--content", "content"],
            "",
        ),
        (&["report", "sweep.json", "-o", "balance.svg"], ""),
    ];
    for (args, says) in cases {
        let out = deja().current_dir(&dir).args(args).output().unwrap();
        let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "deja {args:?}:\n{said}");
        assert!(
            said.contains(says),
            "deja {args:?} does not say {says:?}:\n{said}"
        );
    }
    let played = harness::recording::read(&dir.join("keys.ron")).unwrap();
    assert_eq!(game_core::Key::format_all(&played.keys), "ll");
}

#[test]
fn the_caret_under_a_refused_condition_stands_under_its_column() {
    let dir = support::scratch("hostile-inputs", "caret");
    // Wide characters, an escaped tab and an invisible character before
    // the misspelt field, each taking other than one column.
    for condition in [
        "messages.last ~ \"鼠鼠鼠\" && player.hpp > 1",
        "messages.last ~ \"a\tb\u{200b}c\" && player.hpp > 1",
    ] {
        let out = deja()
            .current_dir(&dir)
            .args(["when", &corpus("win.ron"), condition])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let said = text(&out.stderr);
        let lines: Vec<&str> = said.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.trim_start().starts_with('^'))
            .unwrap_or_else(|| panic!("no caret:\n{said}"));
        let caret = lines[at].find('^').unwrap();
        let shown = lines[at - 1];
        // What the terminal shows from the caret's column on.
        let mut width = 0;
        let under = shown.char_indices().find_map(|(i, c)| {
            if width == caret {
                return Some(&shown[i..]);
            }
            width += game_core::text::columns(c.encode_utf8(&mut [0; 4]));
            None
        });
        assert!(
            under.is_some_and(|rest| rest.starts_with("player.hpp")),
            "the caret is not under the field:\n{said}"
        );
    }
}

#[test]
fn a_key_that_would_not_show_as_itself_is_named_by_its_code_point() {
    let dir = support::scratch("hostile-inputs", "invisible-key");
    let played = deja()
        .current_dir(&dir)
        .args([
            "play",
            "--seed",
            "7",
            "--keys",
            "l<U+200B>l",
            "-o",
            "keys.ron",
        ])
        .args(["--frames", "none"])
        .output()
        .unwrap();
    assert_eq!(played.status.code(), Some(0), "{}", text(&played.stderr));
    let out = deja()
        .current_dir(&dir)
        .args(["show", "keys.ron", "--at", "2"])
        .output()
        .unwrap();
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(said.contains("(key <U+200B>)"), "{said}");
    assert!(!said.contains('\u{200b}'), "printed raw: {said}");
}
