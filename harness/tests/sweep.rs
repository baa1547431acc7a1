//! `deja sweep` and `deja merge` as CI runs them: a small sweep passes, the
//! report does not depend on --jobs, merged shards equal the whole sweep byte
//! for byte, and a planted defect is found, saved and reproduced.

mod support;

use std::path::PathBuf;

use support::{assert_exit, assert_prints, assert_says, peak_kb_of, run as deja, text};

fn scratch(name: &str) -> PathBuf {
    support::scratch("sweep", name)
}

const SMALL: [&str; 6] = ["--seeds", "1..9", "--bot", "explorer", "--keys", "400"];

#[test]
fn a_small_sweep_passes_and_measures_the_game() {
    let dir = scratch("small");
    let mut args = vec!["sweep", "--format", "json", "-o", "report.json"];
    args.extend(SMALL);
    let out = deja(&args, &dir);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("swept 8 seeds: 48 floors"), "{stdout}");
    assert!(stdout.contains("depth 3: 8 floors (temple 8)"), "{stdout}");
    assert!(
        stdout.contains("depth 5: 8 floors (big-room 8)"),
        "{stdout}"
    );
    assert!(stdout.contains("bot explorer: 8 runs"), "{stdout}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).expect("written"))
            .expect("JSON");
    assert_eq!(report["summary"]["seeds"], 8);
    assert_eq!(report["results"].as_array().map(Vec::len), Some(8));
    let seeds: Vec<u64> = report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["seed"].as_u64().expect("a seed"))
        .collect();
    assert_eq!(seeds, (1..9).collect::<Vec<_>>(), "ordered by seed");
}

/// The floor-by-floor record the balance report draws agrees with the run's
/// own totals: a run stands on depth 1, 2, ... in turn, arrives on the first
/// unhurt, and its floors' kills and items used add up to the run's; the
/// summary's survival by depth counts the same runs.
#[test]
fn each_run_records_its_floors_in_agreement_with_its_totals() {
    let dir = scratch("floors");
    let args = [
        "sweep",
        "--seeds",
        "1..41",
        "--bot",
        "explorer",
        "--format",
        "json",
        "-o",
        "report.json",
    ];
    assert_exit(&deja(&args, &dir), 0);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).expect("written"))
            .expect("JSON");
    let mut entered = std::collections::BTreeMap::<u64, u64>::new();
    let mut died = std::collections::BTreeMap::<u64, u64>::new();
    for result in report["results"].as_array().expect("results") {
        let bot = &result["bot"];
        let floors = bot["floors"].as_array().expect("floors");
        let depths: Vec<u64> = floors
            .iter()
            .map(|f| f["depth"].as_u64().expect("depth"))
            .collect();
        let deepest = bot["deepest"].as_u64().expect("deepest");
        assert_eq!(
            depths,
            (1..=deepest).collect::<Vec<_>>(),
            "seed {}",
            result["seed"]
        );
        assert_eq!(
            floors[0]["hp"], floors[0]["max_hp"],
            "seed {}",
            result["seed"]
        );
        let sum =
            |field: &str| -> u64 { floors.iter().map(|f| f[field].as_u64().expect(field)).sum() };
        assert_eq!(
            sum("kills"),
            bot["kills"].as_u64().expect("kills"),
            "seed {}",
            result["seed"]
        );
        assert_eq!(
            sum("items_used"),
            bot["items_used"].as_u64().expect("used"),
            "seed {}",
            result["seed"]
        );
        for f in floors {
            let hp = f["hp"].as_i64().expect("hp");
            assert!(hp > 0 && hp <= f["max_hp"].as_i64().expect("max"), "{f}");
            for danger in f["met"].as_array().expect("met") {
                assert!((1..=20).contains(&danger.as_u64().expect("danger")), "{f}");
            }
        }
        for &depth in &depths {
            *entered.entry(depth).or_default() += 1;
        }
        if let Some(dead) = bot["outcome"].get("Died") {
            *died
                .entry(dead["depth"].as_u64().expect("depth"))
                .or_default() += 1;
        }
    }
    let by_depth = &report["summary"]["bot"]["by_depth"];
    for (depth, runs) in &entered {
        let play = &by_depth[depth.to_string()];
        assert_eq!(play["entered"].as_u64(), Some(*runs), "depth {depth}");
        assert_eq!(
            play["died"].as_u64(),
            Some(died.get(depth).copied().unwrap_or(0)),
            "depth {depth}"
        );
        let killers: u64 = play["killers"]
            .as_object()
            .expect("killers")
            .values()
            .map(|n| n.as_u64().expect("count"))
            .sum();
        assert_eq!(play["died"].as_u64(), Some(killers), "depth {depth}");
    }
}

#[test]
fn the_report_is_the_same_whatever_the_jobs() {
    let dir = scratch("jobs");
    for (jobs, file) in [("1", "one.json"), ("2", "two.json"), ("3", "three.json")] {
        let mut args = vec!["sweep", "--jobs", jobs, "--format", "json", "-o", file];
        args.extend(SMALL);
        assert_exit(&deja(&args, &dir), 0);
    }
    let one = std::fs::read(dir.join("one.json")).expect("written");
    assert_eq!(one, std::fs::read(dir.join("two.json")).expect("written"));
    assert_eq!(one, std::fs::read(dir.join("three.json")).expect("written"));
}

#[test]
fn merged_shards_equal_the_whole_sweep_byte_for_byte() {
    let dir = scratch("shards");
    let mut whole = vec!["sweep", "--format", "json", "-o", "whole.json"];
    whole.extend(SMALL);
    assert_exit(&deja(&whole, &dir), 0);
    let mut files = Vec::new();
    for shard in ["1/3", "2/3", "3/3"] {
        let file = format!("shard{}.json", &shard[..1]);
        let mut args = vec!["sweep", "--shard", shard, "--format", "json", "-o", &file];
        args.extend(SMALL);
        assert_exit(&deja(&args, &dir), 0);
        files.push(file);
    }
    // Given in any order.
    let out = deja(
        &[
            "merge",
            &files[2],
            &files[0],
            &files[1],
            "-o",
            "merged.json",
        ],
        &dir,
    );
    assert_exit(&out, 0);
    // merge -o says what it wrote, as every command that writes a file does.
    assert_says(&out, "wrote the merge of 3 reports");
    assert_says(&out, "merged.json");
    let whole = std::fs::read(dir.join("whole.json")).expect("written");
    assert_eq!(
        whole,
        std::fs::read(dir.join("merged.json")).expect("written")
    );

    // A missing or doubled shard is refused.
    let out = deja(&["merge", &files[0], &files[1]], &dir);
    assert_exit(&out, 1);
    assert_says(&out, "shard 3/3 is missing");
    let out = deja(&["merge", &files[0], &files[0], &files[1]], &dir);
    assert_exit(&out, 1);
    assert_says(&out, "given twice");

    // A shard that checks itself: a seed deleted, a seed held twice, a
    // summary that is not its results'.
    let text = std::fs::read_to_string(dir.join(&files[1])).expect("written");
    let mut report: serde_json::Value = serde_json::from_str(&text).expect("json");
    let results = report["results"].as_array().expect("results").clone();
    let second = results[1]["seed"].clone();
    let edit = |name: &str, value: &serde_json::Value| {
        std::fs::write(dir.join(name), serde_json::to_string(value).unwrap()).unwrap();
    };
    report["results"] = serde_json::Value::Array(
        results
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != 1)
            .map(|(_, r)| r.clone())
            .collect(),
    );
    edit("lacking.json", &report);
    let out = deja(&["merge", &files[0], "lacking.json", &files[2]], &dir);
    assert_exit(&out, 1);
    assert_says(&out, "lacking.json: the results hold seed");
    assert_says(&out, &format!("where seed {second} belongs"));
    let mut doubled = results.clone();
    doubled.insert(1, results[0].clone());
    report["results"] = serde_json::Value::Array(doubled);
    edit("doubled.json", &report);
    let out = deja(&["merge", &files[0], "doubled.json", &files[2]], &dir);
    assert_exit(&out, 1);
    assert_says(&out, "doubled.json: the results hold seed");
    report["results"] = serde_json::Value::Array(results.clone());
    report["summary"]["floors"] = serde_json::json!(1_000_000);
    edit("edited.json", &report);
    let out = deja(&["merge", &files[0], "edited.json", &files[2]], &dir);
    assert_exit(&out, 1);
    assert_says(
        &out,
        "edited.json: the summary is not the summary of the results",
    );
}

/// Two planted bugs, met many times: one group each, with its count, the
/// smallest case's command, and (with --shrink) its shrunk recording.
#[test]
fn planted_defects_are_grouped_saved_shrunk_and_reproduced() {
    let dir = scratch("canary");
    let out = deja(
        &[
            "sweep",
            "--seeds",
            "1..6",
            "--bot",
            "random",
            "--keys",
            "500",
            "--canary",
            "sticky-help",
            "--canary",
            "crowded-start",
            "--save-failures",
            "failures",
            "--shrink",
            "--format",
            "json",
            "-o",
            "r.json",
        ],
        &dir,
    );
    assert_exit(&out, 4);
    let stdout = text(&out.stdout);
    let groups: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("FAILURE "))
        .collect();
    assert_eq!(groups.len(), 2, "one group per planted bug:\n{stdout}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    let json_groups = report["summary"]["groups"].as_array().unwrap();
    let mut counted = 0;
    for (line, group) in groups.iter().zip(json_groups) {
        let signature = group["signature"].as_str().unwrap();
        let count = group["count"].as_u64().unwrap();
        counted += count;
        assert!(
            line.starts_with(&format!(
                "FAILURE {signature}: {count} times, first at seed "
            )),
            "{line}"
        );
    }
    assert_eq!(counted, report["summary"]["failures"].as_u64().unwrap());
    let signatures: Vec<&str> = json_groups
        .iter()
        .map(|g| g["signature"].as_str().unwrap())
        .collect();
    for id in ["screen.escapable", "spawn.rules"] {
        assert!(
            signatures.contains(&format!("invariant {id} broken").as_str()),
            "{signatures:?}"
        );
    }
    // Every failure saved; each group's smallest case shrunk beside it.
    let saved: Vec<PathBuf> = std::fs::read_dir(dir.join("failures"))
        .expect("the failures directory")
        .map(|e| e.expect("an entry").path())
        .collect();
    let shrunk: Vec<&PathBuf> = saved
        .iter()
        .filter(|p| p.to_str().unwrap().ends_with("-shrunk.ron"))
        .collect();
    assert_eq!(shrunk.len(), 2, "{saved:?}");
    assert_eq!((saved.len() - shrunk.len()) as u64, counted, "{saved:?}");
    for file in &saved {
        let out = deja(&["replay", file.to_str().expect("a UTF-8 path")], &dir);
        assert_exit(&out, 4);
        assert_prints(&out, "reproduced at step");
    }
    for group in json_groups {
        let smallest = group["smallest"]["recording"].as_str().unwrap();
        let shrunk = smallest.replace(".ron", "-shrunk.ron");
        assert_prints(&out, &format!("deja replay {shrunk}"));
    }
}

/// On a tall or a wide map the way back to the stairs through ground
/// already seen is longer than the explorer's progress limit (200 keys):
/// walking it steadily, coming nearer the way down, is progress. These
/// seeds' runs were stopped as going nowhere while they walked it, on
/// depths 2 to 4 (20x256: seeds 1, 82 and 85; 256x10: seed 30).
#[test]
fn the_explorer_walking_a_tall_or_wide_map_makes_progress() {
    let dir = scratch("tall-maps");
    for (size, seeds) in [("20x256", "1..91"), ("256x10", "1..41")] {
        let out = deja(
            &[
                "sweep",
                "--seeds",
                seeds,
                "--bot",
                "explorer",
                "--map-size",
                size,
                "--quiet",
            ],
            &dir,
        );
        let stdout = text(&out.stdout);
        assert!(!stdout.contains("play.progress"), "{size}:\n{stdout}");
        assert_exit(&out, 0);
        assert!(
            stdout.starts_with(&format!(
                "swept {} seeds",
                if size == "20x256" { 90 } else { 40 }
            )),
            "{size}:\n{stdout}"
        );
    }
}

#[test]
fn bad_arguments_exit_1_or_2() {
    let dir = scratch("bad-args");
    for args in [
        vec!["sweep", "--seeds", "5..5"],
        vec!["sweep", "--seeds", "x..9"],
        vec!["sweep", "--depths", "0..=3"],
        vec!["sweep", "--shard", "3/2"],
        vec!["sweep", "--bot", "genius"],
    ] {
        assert_exit(&deja(&args, &dir), 2);
    }
    std::fs::write(dir.join("junk.json"), "{").expect("write");
    let out = deja(&["merge", "junk.json"], &dir);
    assert_exit(&out, 1);
    assert_says(&out, "junk.json:1:");
}

/// Resident memory of a running process, in kilobytes (Linux).
fn resident_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

#[test]
fn an_interrupted_sweep_of_a_hundred_billion_seeds_stays_small_says_what_it_covered_and_exits_130()
{
    let dir = scratch("interrupted");
    let json = dir.join("report.json");
    std::fs::write(&json, "a stale report from an earlier run").unwrap();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_deja"))
        .current_dir(&dir)
        .args([
            "sweep",
            "--seeds",
            "1..100000000001",
            "--bot",
            "none",
            "--jobs",
            "2",
        ])
        .args(["--format", "json", "-o", "report.json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("deja runs");
    let pid = child.id();
    std::thread::sleep(std::time::Duration::from_secs(3));
    // Seeds are drawn as they are swept, never collected.
    let kb = resident_kb(pid);
    assert!(kb < 50 * 1024, "{kb} kB resident after 3 s");
    let sent = std::process::Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("INTERRUPTED: covered "), "{stdout}");
    assert!(stdout.contains("of 100000000000 seeds"), "{stdout}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).expect("the report is JSON");
    let covered = report["incomplete"]["covered"]
        .as_u64()
        .expect("marked incomplete");
    assert!(covered > 0);
    assert_eq!(report["incomplete"]["of"], 100_000_000_000u64);
    assert_eq!(report["summary"]["seeds"].as_u64(), Some(covered));
    assert_eq!(report["results"].as_array().unwrap().len() as u64, covered);
    let merged = deja(&["merge", "report.json"], &dir);
    assert_exit(&merged, 1);
    assert_says(&merged, "an incomplete report cannot be merged");
}

/// A sweep writing its report holds none of the results in memory: they
/// stream to the file. A hundred thousand one-floor seeds make a 35 MB
/// report; deja's peak stays what it is for a thousand.
#[test]
fn a_sweep_writing_json_stays_small_whatever_the_seeds() {
    let dir = scratch("json-memory");
    let sweep = |seeds: &str| {
        let args = [
            "sweep",
            "--seeds",
            seeds,
            "--depths",
            "1..=1",
            "--map-size",
            "20x12",
            "--bot",
            "none",
            "--jobs",
            "2",
            "--format",
            "json",
            "-o",
            "r.json",
        ];
        let (code, kb) = peak_kb_of(&args, &dir);
        assert_eq!(code, 0, "sweep {seeds}");
        kb
    };
    let few = sweep("1..1001");
    let many = sweep("1..100001");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    assert_eq!(report["results"].as_array().unwrap().len(), 100_000);
    assert_eq!(report["results"][99_999]["seed"], 100_000);
    assert_eq!(report["summary"]["seeds"], 100_000);
    assert!(many < 50 * 1024, "{many} kB at the peak for 100,000 seeds");
    assert!(
        many < few + 8 * 1024,
        "{many} kB at the peak for 100,000 seeds, {few} kB for 1,000"
    );
    std::fs::remove_file(dir.join("r.json")).unwrap();
}

#[test]
fn the_last_seeds_of_all_can_be_swept() {
    let dir = scratch("last-seeds");
    let out = deja(
        &[
            "sweep",
            "--seeds",
            "18446744073709551613..=18446744073709551615",
            "--bot",
            "none",
            "--format",
            "json",
            "-o",
            "last.json",
        ],
        &dir,
    );
    assert_exit(&out, 0);
    assert_prints(&out, "swept 3 seeds");
    let text = std::fs::read_to_string(dir.join("last.json")).unwrap();
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let seeds: Vec<u64> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["seed"].as_u64().unwrap())
        .collect();
    assert_eq!(seeds, [u64::MAX - 2, u64::MAX - 1, u64::MAX]);
    // One past the last seed is written as it is, and merge reads it back.
    assert!(text.contains("\"end\": 18446744073709551616"), "{text}");
    assert_exit(&deja(&["merge", "last.json"], &dir), 0);
    // A failure on the last seed of all says how to sweep that seed again.
    let last = "18446744073709551615..=18446744073709551615";
    let out = deja(
        &[
            "sweep",
            "--seeds",
            last,
            "--depths",
            "1..=2",
            "--canary",
            "crowded-start",
        ],
        &dir,
    );
    assert_exit(&out, 4);
    assert_prints(&out, &format!("reproduce: deja sweep --seeds {last} "));
    for empty in ["5..5", "5..=4", "1..=18446744073709551616"] {
        assert_exit(&deja(&["sweep", "--seeds", empty], &dir), 2);
    }
}

/// For every bot the sweep takes, the summary accounts for every run: the
/// JSON's outcomes add up to the runs (and the runs to the seeds), and so
/// do the text summary's "ended:" counts. A sweep without a bot has no
/// runs to account for, and says none.
#[test]
fn every_bots_summary_accounts_for_every_run() {
    use clap::ValueEnum as _;
    for bot in harness::sweep::bots::BotKind::value_variants() {
        let name = bot.name();
        let dir = scratch(&format!("outcomes-{name}"));
        let args = [
            "sweep", "--seeds", "1..7", "--bot", name, "--keys", "300", "--format", "json", "-o",
            "r.json",
        ];
        let out = deja(&args, &dir);
        assert_exit(&out, 0);
        let stdout = text(&out.stdout);
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).expect("written"))
                .expect("JSON");
        let summary = &report["summary"];
        let ended = stdout.lines().find(|l| l.starts_with("  ended: "));
        if *bot == harness::sweep::bots::BotKind::None {
            assert!(summary["bot"].is_null(), "{name}: {summary}");
            assert_eq!(ended, None, "{name}: {stdout}");
            continue;
        }
        let runs = summary["bot"]["runs"].as_u64().expect("runs");
        assert_eq!(Some(runs), summary["seeds"].as_u64(), "{name}");
        let outcomes = summary["bot"]["outcomes"].as_object().expect("outcomes");
        let counted: u64 = outcomes
            .values()
            .map(|n| n.as_u64().expect("a count"))
            .sum();
        assert_eq!(counted, runs, "{name}: {outcomes:?}");
        // "  ended: 1 won, 2 died, 0 quit, 3 out of keys, 0 stuck, 0 failed (6 runs)"
        let ended = ended.unwrap_or_else(|| panic!("{name}: no ended line in {stdout}"));
        let (counts, of) = ended
            .trim_start_matches("  ended: ")
            .rsplit_once(" (")
            .expect("the runs in brackets");
        let said: u64 = counts
            .split(", ")
            .map(|c| {
                c.split(' ')
                    .next()
                    .unwrap()
                    .parse::<u64>()
                    .expect("a count")
            })
            .sum();
        assert_eq!(said, runs, "{name}: {ended}");
        assert_eq!(of, format!("{runs} runs)"), "{name}: {ended}");
        assert_eq!(
            counts.split(", ").count(),
            outcomes.len(),
            "{name}: {ended}"
        );
    }
}

/// `--turns`, the flag's old name, still works, as the same sweep.
#[test]
fn turns_is_still_taken_as_keys() {
    let dir = scratch("turns-alias");
    let sweep = |flag: &str, out: &str| {
        let args = [
            "sweep", "-q", "--seeds", "1..3", flag, "120", "--format", "json", "-o", out,
        ];
        assert_exit(&deja(&args, &dir), 0);
        std::fs::read_to_string(dir.join(out)).expect("written")
    };
    let old = sweep("--turns", "turns.json");
    let new = sweep("--keys", "keys.json");
    assert_eq!(old, new);
    assert!(new.contains("\"keys\": 120"), "{new}");
}

/// A baseline file of format 1, which named the key budget `turns` and
/// kept no reach, is still held to: the sweep finds its entry and passes,
/// as with the same file blessed in format 3.
#[test]
fn a_format_1_baseline_is_still_read() {
    let dir = scratch("baseline-format-1");
    let mut bless = vec!["sweep", "-q", "--bless-baseline", "new.ron"];
    bless.extend(SMALL);
    assert_exit(&deja(&bless, &dir), 0);
    let new = std::fs::read_to_string(dir.join("new.ron")).expect("blessed");
    assert!(
        new.contains("    format: 3,") && new.contains("keys: 400,") && new.contains("reach: {"),
        "{new}"
    );
    // Format 1 kept no reach: drop the entry's reach block.
    let mut in_reach = false;
    let old: String = new
        .replace("    format: 3,", "    format: 1,")
        .replace("keys: 400,", "turns: 400,")
        .lines()
        .filter(|line| {
            let keep = !in_reach && line.trim() != "reach: {";
            in_reach = if in_reach { line.trim() != "}," } else { !keep };
            keep
        })
        .map(|line| format!("{line}\n"))
        .collect();
    assert!(
        !old.contains("reach") && old.contains("turns: 400,"),
        "{old}"
    );
    std::fs::write(dir.join("old.ron"), old).expect("written");
    for file in ["old.ron", "new.ron"] {
        let mut args = vec!["sweep", "-q", "--baseline", file];
        args.extend(SMALL);
        let out = deja(&args, &dir);
        assert_exit(&out, 0);
        assert_prints(&out, &format!("baseline {file}: "));
        assert!(!text(&out.stdout).contains("FAILURE"), "{file}");
    }
}

/// The floors sweep the baseline cases hold to a baseline: two seeds.
const FLOORS: [&str; 4] = ["--seeds", "1..3", "--bot", "none"];

/// `text` with the line holding `figure` changed by `edit`; and that
/// line's number.
fn with_figure(text: &str, figure: &str, edit: impl Fn(&str) -> String) -> (String, usize) {
    let key = format!("{figure:?}: ");
    let at = text
        .lines()
        .position(|line| line.trim_start().starts_with(&key))
        .unwrap_or_else(|| panic!("no {key} in:\n{text}"));
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, line)| {
            if i == at {
                edit(line)
            } else {
                line.to_string()
            }
        })
        .collect();
    (lines.join("\n") + "\n", at + 1)
}

/// A baseline no sweep could fail (a mean that is not a number passes
/// every comparison, an infinite spread makes a band no mean leaves) or
/// that holds a sweep to nothing (an entry without figures) is refused
/// when it is read, before a seed is swept, naming the file, the line and
/// the figure; so is one that is not a baseline file, in the file's own
/// words (never the reader's type names), and a file that is not there.
#[test]
fn a_baseline_that_cannot_fail_is_refused_naming_the_place() {
    let dir = scratch("bad-baselines");
    let mut bless = vec!["sweep", "-q", "--bless-baseline", "good.ron"];
    bless.extend(FLOORS);
    assert_exit(&deja(&bless, &dir), 0);
    let good = std::fs::read_to_string(dir.join("good.ron")).expect("blessed");
    let figure = "bsp floors: rooms";
    let with = |from: &str, to: &str| {
        with_figure(&good, figure, |line| {
            let start = line
                .find(from)
                .unwrap_or_else(|| panic!("{from} in {line}"));
            let end = start + from.len() + line[start + from.len()..].find([',', ')']).unwrap();
            format!("{}{to}{}", &line[..start], &line[end..])
        })
    };
    let (nan, nan_line) = with("mean: ", "mean: NaN");
    let (inf, inf_line) = with("sd: ", "sd: inf");
    let (below, below_line) = with("sd: ", "sd: -1.5");
    let (huge, huge_line) = with("mean: ", "mean: 1e300");
    let (none, none_line) = with(", n: ", ", n: 0");
    let (no_sd, no_sd_line) = with(", sd: ", "");
    let start = good.find("figures: {\n").expect("figures") + "figures: {\n".len();
    let end = start + good[start..].find("            },\n").expect("their end");
    let empty = format!("{}{}", &good[..start], &good[end..]);
    let cases: Vec<(&str, String, Vec<String>)> = vec![
        (
            "nan.ron",
            nan,
            vec![
                format!("nan.ron:{nan_line}:"),
                format!("figure {figure:?}: its mean is NaN"),
            ],
        ),
        (
            "inf.ron",
            inf,
            vec![
                format!("inf.ron:{inf_line}:"),
                format!("figure {figure:?}: its sd is inf"),
            ],
        ),
        (
            "below.ron",
            below,
            vec![format!("below.ron:{below_line}:"), "its sd is -1.5".into()],
        ),
        (
            "huge.ron",
            huge,
            vec![format!("huge.ron:{huge_line}:"), "its mean is 1e300".into()],
        ),
        (
            "none.ron",
            none,
            vec![
                format!("none.ron:{none_line}:"),
                format!("figure {figure:?}: n is 0"),
            ],
        ),
        (
            "no-sd.ron",
            no_sd,
            vec![
                format!("no-sd.ron:{no_sd_line}:"),
                "a figure has no `sd`".into(),
            ],
        ),
        (
            "empty.ron",
            empty,
            vec![
                "empty.ron:8:9: sweeps[0] (the none sweep) has no figures".into(),
                "--bless-baseline".into(),
            ],
        ),
        (
            "no-format.ron",
            good.replace("    format: 3,\n", ""),
            vec!["the file has no `format`".into()],
        ),
        (
            "no-bot.ron",
            good.replace("            bot: \"none\",\n", ""),
            vec!["an entry of `sweeps` has no `bot`".into()],
        ),
        (
            "unknown.ron",
            good.replace(
                "            keys: 3000,\n",
                "            keys: 3000,\n            colour: 3,\n",
            ),
            vec![
                "unknown.ron:11:13:".into(),
                "an entry of `sweeps` has no field `colour`".into(),
                "`measured_on`".into(),
            ],
        ),
    ];
    let mut wrong = Vec::new();
    for (file, contents, wanted) in &cases {
        std::fs::write(dir.join(file), contents).expect("written");
        let mut args = vec!["sweep", "--baseline", file];
        args.extend(FLOORS);
        let out = deja(&args, &dir);
        let stderr = text(&out.stderr);
        if out.status.code() != Some(1) || !text(&out.stdout).is_empty() {
            wrong.push(format!(
                "{file}: exit {:?}, not a refusal before the sweep:\n{}{stderr}",
                out.status.code(),
                text(&out.stdout)
            ));
        }
        for want in wanted {
            if !stderr.contains(want.as_str()) {
                wrong.push(format!("{file}: {want:?} not in {stderr}"));
            }
        }
        for internal in ["FileIn", "EntryIn", "`Stat`", "Unexpected"] {
            if stderr.contains(internal) {
                wrong.push(format!("{file}: says {internal:?}: {stderr}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // A file that is not there is no baseline to hold a sweep to.
    let mut args = vec!["sweep", "--baseline", "no-such-file.ron"];
    args.extend(FLOORS);
    let out = deja(&args, &dir);
    assert_exit(&out, 1);
    assert_says(&out, "no-such-file.ron: no such file; ");
    assert_says(&out, "--bless-baseline no-such-file.ron");
}

/// Blessing from a sweep that measured nothing (a shard with no seeds)
/// would write an entry no later sweep can fail: refused, saying why and
/// what to do, and the file is left as it was.
#[test]
fn a_sweep_of_no_seeds_is_not_blessed() {
    let dir = scratch("bless-no-seeds");
    for (file, before) in [
        ("new.ron", None),
        ("kept.ron", Some("// kept\n(format: 3, sweeps: [])\n")),
    ] {
        if let Some(text) = before {
            std::fs::write(dir.join(file), text).expect("written");
        }
        let out = deja(
            &[
                "sweep",
                "--seeds",
                "1..2",
                "--shard",
                "2/2",
                "--bot",
                "none",
                "--bless-baseline",
                file,
            ],
            &dir,
        );
        assert_exit(&out, 1);
        assert_says(
            &out,
            &format!("{file}: not blessed: the sweep covered no seeds, so it measured no figures"),
        );
        assert_says(&out, "sweep more seeds");
        assert_eq!(
            std::fs::read_to_string(dir.join(file)).ok().as_deref(),
            before,
            "{file} is as it was"
        );
    }
}
