//! Files from outside that are not files: every command that reads a file,
//! given a FIFO with no writer (which blocks `open` forever) or a directory,
//! refuses it at once with exit 1, naming the path, instead of hanging.
//! And what is at an output path is kept what it is: a device or a FIFO is
//! written through (and a full device is an error), a symlink's target is
//! replaced and the link kept, no command writes over one of its inputs,
//! and a replaced file keeps its mode and owner (a read-only file, or one
//! with other names, is refused). A file under a name deja chooses (a bug
//! report, a sweep's saved failures, shrunk cases and hang reports) is made
//! new: never over what is there, a link or a device planted included.

mod support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use support::deja;

/// Far more than any of these takes; a command that blocks in `open` takes
/// forever, and the timeout turns that into a failure.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Runs deja with `args` in `dir`, bounded by [`TIMEOUT`]: its exit code
/// (`None` when it was killed) and what it said on standard error.
fn deja_in<I, S>(dir: &Path, args: I) -> (Option<i32>, String)
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = deja()
        .current_dir(dir)
        .args(args)
        .timeout(TIMEOUT)
        .output()
        .expect("deja runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

fn refuses(args: &[&str], path: &Path, what: &str) {
    let out = deja()
        .args(args)
        .timeout(TIMEOUT)
        .output()
        .expect("deja runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{args:?} (timed out if None): {err}"
    );
    assert!(
        err.contains(&path.display().to_string()) && err.contains(what),
        "{args:?} must name {} and say it is {what}: {err}",
        path.display()
    );
}

#[test]
fn every_command_refuses_a_fifo_or_a_directory_without_blocking() {
    let dir = support::scratch("hostile-files", "fifo");
    let fifo = dir.join("pipe");
    mkfifo(&fifo);
    let f = fifo.to_str().unwrap();
    let out = dir.join("out.ron");
    let o = out.to_str().unwrap();
    let table: Vec<Vec<&str>> = vec![
        vec!["replay", f],
        vec!["replay", f, "--cast", "-o", "x.cast"],
        vec!["show", f, "--at", "0"],
        vec!["bless", f],
        vec!["shrink", f, "-o", o],
        vec!["play", "--keys-file", f],
        vec!["play", "--from", f, "--keys", "l"],
        vec!["merge", f],
        vec!["from-fuzz", "intents", f, "-o", o],
        vec!["sweep", "--seeds", "1..2", "--baseline", f],
        vec!["probe", "--baselines", f],
    ];
    for args in &table {
        refuses(args, &fifo, "a FIFO");
    }
    // Content files and corpus inputs are found in directories.
    let content = dir.join("content");
    std::fs::create_dir_all(&content).unwrap();
    let monsters = content.join("monsters.ron");
    mkfifo(&monsters);
    std::fs::write(content.join("items.ron"), "").unwrap();
    refuses(
        &[
            "play",
            "--keys",
            "l",
            "--content",
            content.to_str().unwrap(),
        ],
        &monsters,
        "a FIFO",
    );
    let corpus = dir.join("corpus");
    for target in ["intents", "keys", "mapgen", "recording", "content", "sight"] {
        std::fs::create_dir_all(corpus.join(target)).unwrap();
    }
    let input = corpus.join("keys").join("input");
    mkfifo(&input);
    refuses(&["corpus", corpus.to_str().unwrap()], &input, "a FIFO");
    // A directory where a file belongs.
    let d = dir.to_str().unwrap();
    for args in [
        vec!["replay", d],
        vec!["play", "--keys-file", d],
        vec!["merge", d],
    ] {
        refuses(&args, &dir, "a directory");
    }
}

#[test]
fn every_output_path_is_checked_before_the_work_starts() {
    let dir = support::scratch("hostile-files", "outputs");
    let d = dir.to_str().unwrap();
    let missing = dir.join("no-such-dir").join("out.json");
    let m = missing.to_str().unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let f = file.to_str().unwrap();
    let looped = dir.join("loop");
    std::os::unix::fs::symlink("loop", &looped).unwrap();
    let l = looped.to_str().unwrap();
    let fifo = dir.join("pipe");
    mkfifo(&fifo);
    let p = fifo.to_str().unwrap();
    let dangling = dir.join("dangling");
    std::os::unix::fs::symlink("nowhere/at/all", &dangling).unwrap();
    let g = dangling.to_str().unwrap();
    let recording = Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings/win.ron");
    let r = recording.to_str().unwrap();
    // A hundred thousand seeds would take the sweep many minutes: refusing
    // within the timeout shows the check comes first.
    let long = ["sweep", "--seeds", "1..100001"];
    let cases: Vec<(Vec<&str>, &Path, &str)> = vec![
        (
            [&long[..], &["--format", "json", "-o", d]].concat(),
            &dir,
            "is a directory",
        ),
        (
            [&long[..], &["--format", "json", "-o", m]].concat(),
            &missing,
            "does not exist",
        ),
        (
            [&long[..], &["--save-failures", f]].concat(),
            &file,
            "not a directory",
        ),
        (
            [&long[..], &["--bless-baseline", d]].concat(),
            &dir,
            "is a directory",
        ),
        (vec!["merge", r, "-o", d], &dir, "is a directory"),
        (vec!["shrink", r, "-o", m], &missing, "does not exist"),
        (
            vec!["from-fuzz", "intents", f, "-o", d],
            &dir,
            "is a directory",
        ),
        (
            vec!["play", "--keys", "l", "-o", m],
            &missing,
            "does not exist",
        ),
        (vec!["replay", r, "--cast", "-o", d], &dir, "is a directory"),
        (
            vec!["probe", "--save-failures", f],
            &file,
            "not a directory",
        ),
        (
            [&long[..], &["--save-failures", l]].concat(),
            &looped,
            "a loop of symlinks",
        ),
        (
            [&long[..], &["--save-failures", p]].concat(),
            &fifo,
            "a FIFO (named pipe), not a directory",
        ),
        (
            [&long[..], &["--save-failures", g]].concat(),
            &dangling,
            "a symlink to nothing",
        ),
        (
            vec!["probe", "--save-failures", l],
            &looped,
            "a loop of symlinks",
        ),
    ];
    for (args, path, what) in &cases {
        refuses(args, path, what);
    }
}

/// Makes a character device node at `path` with the numbers of one of
/// Linux's memory devices (1,3 is null, 1,7 is full); false where this user
/// may not (only root may: CI runs as root, so there these tests run).
fn mknod_char(path: &Path, minor: u32) -> bool {
    Command::new("mknod")
        .arg(path)
        .args(["c", "1", &minor.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn is_char_device(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

/// The commands that write a file to `-o`, with `OUT` where the path goes.
fn writers(recording: &str) -> Vec<Vec<String>> {
    let table: Vec<Vec<&str>> = vec![
        vec!["play", "--seed", "7", "--keys", "llll", "-o", "OUT"],
        vec![
            "sweep", "--seeds", "1..3", "--bot", "none", "--format", "json", "-o", "OUT",
        ],
        vec!["replay", recording, "--cast", "-o", "OUT"],
    ];
    table
        .into_iter()
        .map(|args| args.into_iter().map(String::from).collect())
        .collect()
}

fn with_output(args: &[String], out: &Path) -> Vec<String> {
    args.iter()
        .map(|a| {
            if a == "OUT" {
                out.display().to_string()
            } else {
                a.clone()
            }
        })
        .collect()
}

#[test]
fn a_device_at_the_output_stays_a_device_and_a_full_one_is_an_error() {
    let dir = support::scratch("hostile-files", "devices");
    let null = dir.join("null");
    let full = dir.join("full");
    if !mknod_char(&null, 3) || !mknod_char(&full, 7) {
        eprintln!("skipped: only root may make device nodes (CI runs this as root)");
        return;
    }
    let recording = support::corpus("win.ron");
    for args in writers(&recording) {
        for (device, exit) in [(&null, 0), (&full, 1)] {
            let out = deja()
                .args(with_output(&args, device))
                .timeout(TIMEOUT)
                .output()
                .expect("deja runs");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(exit),
                "{args:?} onto {}: {err}",
                device.display()
            );
            assert!(
                is_char_device(device),
                "{args:?} replaced the device {} with a file",
                device.display()
            );
            if exit == 1 {
                assert!(
                    err.contains(&full.display().to_string()) && err.contains("No space left"),
                    "{args:?} must name the full device and say why: {err}"
                );
            }
        }
    }
}

#[test]
fn a_fifo_at_the_output_is_written_through_or_refused_when_nothing_reads_it() {
    use std::io::Read;
    let dir = support::scratch("hostile-files", "fifo-out");
    let fifo = dir.join("pipe");
    mkfifo(&fifo);
    let args = [
        "play", "--seed", "7", "--keys", "llll", "--frames", "none", "-o",
    ];
    // Nothing reads: refused at once, never a wait.
    let out = deja()
        .args(args)
        .arg(&fifo)
        .timeout(TIMEOUT)
        .output()
        .expect("deja runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "timed out if None: {err}");
    assert!(err.contains("nothing reads"), "{err}");
    // A reader: the recording goes through the pipe, which stays a pipe.
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            std::fs::File::open(&fifo)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        })
    };
    // The reader is waiting in `open` once deja can open without blocking;
    // try until it is (a bounded number of times).
    let mut written = None;
    for _ in 0..100 {
        let out = deja()
            .args(args)
            .arg(&fifo)
            .timeout(TIMEOUT)
            .output()
            .expect("deja runs");
        if out.status.code() == Some(0) {
            written = Some(out);
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(written.is_some(), "deja never wrote to the FIFO's reader");
    let text = reader.join().unwrap();
    let recording = harness::recording::from_text(&text).expect("a whole recording came through");
    assert_eq!(recording.keys.len(), 4);
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
}

#[test]
fn a_symlink_at_the_output_keeps_its_link_and_its_target_gets_the_file() {
    let dir = support::scratch("hostile-files", "symlinks");
    let recording = support::corpus("win.ron");
    for (i, args) in writers(&recording).into_iter().enumerate() {
        // A link to a file already there, and a dangling one.
        for dangling in [false, true] {
            let target = dir.join(format!("target-{i}-{dangling}"));
            let link = dir.join(format!("link-{i}-{dangling}"));
            if !dangling {
                std::fs::write(&target, "old").unwrap();
            }
            std::os::unix::fs::symlink(target.file_name().unwrap(), &link).unwrap();
            let (code, err) = deja_in(
                &dir,
                with_output(&args, Path::new(link.file_name().unwrap())),
            );
            assert_eq!(code, Some(0), "{args:?} onto {}: {err}", link.display());
            assert!(
                std::fs::symlink_metadata(&link)
                    .unwrap()
                    .file_type()
                    .is_symlink(),
                "{args:?} replaced the link {} with a file",
                link.display()
            );
            let written = std::fs::read_to_string(&target).unwrap();
            assert!(
                written.len() > 3 && written != "old",
                "{args:?}: the link's target {} does not hold the new file",
                target.display()
            );
        }
    }
}

#[test]
fn bless_of_a_symlink_blesses_its_target() {
    let dir = support::scratch("hostile-files", "bless-link");
    let text = std::fs::read_to_string(support::corpus("win.ron")).unwrap();
    let tampered = tampered_recording();
    let target = dir.join("target.ron");
    let link = dir.join("link.ron");
    std::fs::write(&target, &tampered).unwrap();
    std::os::unix::fs::symlink("target.ron", &link).unwrap();
    let out = deja()
        .arg("bless")
        .arg(&link)
        .timeout(TIMEOUT)
        .output()
        .expect("deja runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        text,
        "the target holds the blessed recording"
    );
}

#[test]
fn no_command_writes_over_its_own_input() {
    let dir = support::scratch("hostile-files", "inputs");
    let recording = dir.join("x.ron");
    std::fs::copy(support::corpus("win.ron"), &recording).unwrap();
    std::os::unix::fs::symlink("x.ron", dir.join("link.ron")).unwrap();
    // Inputs whose contents do not matter: the refusal comes before they
    // are read.
    for name in ["f.html", "a.json", "art", "k.keys"] {
        std::fs::write(dir.join(name), "keep me").unwrap();
    }
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../baselines/sweep.ron"),
        dir.join("b.ron"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("content")).unwrap();
    for name in ["monsters.ron", "items.ron"] {
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../game-core/content")
                .join(name),
            dir.join("content").join(name),
        )
        .unwrap();
    }
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["replay", "x.ron", "--cast", "-o", "x.ron"], "x.ron"),
        (vec!["replay", "x.ron", "--cast", "-o", "./x.ron"], "x.ron"),
        (vec!["replay", "x.ron", "--cast", "-o", "link.ron"], "x.ron"),
        (
            vec!["replay", "x.ron", "--watch", "-o", "link.ron"],
            "x.ron",
        ),
        (vec!["report", "f.html", "-o", "f.html"], "f.html"),
        (vec!["shrink", "x.ron", "-o", "x.ron"], "x.ron"),
        (vec!["shrink", "x.ron", "-o", "./link.ron"], "x.ron"),
        (vec!["merge", "a.json", "-o", "a.json"], "a.json"),
        (vec!["from-fuzz", "intents", "art", "-o", "art"], "art"),
        (
            vec!["play", "--from", "x.ron", "--keys", "l", "-o", "link.ron"],
            "x.ron",
        ),
        (
            vec!["play", "--keys-file", "k.keys", "-o", "k.keys"],
            "k.keys",
        ),
        (
            vec![
                "play",
                "--keys",
                "l",
                "--content",
                "content",
                "-o",
                "content/items.ron",
            ],
            "content/items.ron",
        ),
        (
            vec![
                "sweep",
                "--seeds",
                "1..2",
                "--baseline",
                "b.ron",
                "--format",
                "json",
                "-o",
                "b.ron",
            ],
            "b.ron",
        ),
        (
            vec![
                "sweep",
                "--seeds",
                "1..2",
                "--bless-baseline",
                "b.ron",
                "--format",
                "json",
                "-o",
                "./b.ron",
            ],
            "b.ron",
        ),
    ];
    for (args, input) in &cases {
        let before = std::fs::read(dir.join(input)).unwrap();
        let (code, err) = deja_in(&dir, args);
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(
            err.contains("is this command's input"),
            "{args:?} must say why: {err}"
        );
        assert_eq!(
            std::fs::read(dir.join(input)).unwrap(),
            before,
            "{args:?} changed its input {input}"
        );
    }
}

#[test]
fn a_bug_report_never_takes_the_name_of_a_file_already_there() {
    let dir = support::scratch("hostile-files", "report-names");
    let taken = dir.join("deja-failure-seed3-step3.ron");
    std::fs::write(&taken, "someone's file").unwrap();
    // A dangling link takes its name too.
    std::os::unix::fs::symlink("nowhere", dir.join("deja-failure-seed3-step3-2.ron")).unwrap();
    let play = [
        "play",
        "--seed",
        "3",
        "--keys",
        "ll?<Esc>",
        "--canary",
        "sticky-help",
        "--frames",
        "none",
    ];
    let (code, err) = deja_in(&dir, play);
    assert_eq!(code, Some(4), "{err}");
    assert!(
        err.contains("deja replay deja-failure-seed3-step3-3.ron"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&taken).unwrap(), "someone's file");
    // A replay that meets a failure other than the one recorded writes a
    // new report; here the input itself has the name that report would
    // take, and the one after it is free.
    let input = dir.join("deja-failure-seed3-step3-3.ron");
    let recorded = std::fs::read_to_string(&input).unwrap();
    let edited = recorded.replace("id: \"screen.escapable\"", "id: \"map.connected\"");
    assert_ne!(edited, recorded);
    std::fs::write(&input, &edited).unwrap();
    let (code, err) = deja_in(&dir, ["replay", "deja-failure-seed3-step3-3.ron"]);
    assert_eq!(code, Some(4), "{err}");
    assert!(
        err.contains("deja replay deja-failure-seed3-step3-4.ron"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&input).unwrap(),
        edited,
        "the input was kept"
    );
    assert_eq!(std::fs::read_to_string(&taken).unwrap(), "someone's file");
}

/// Commands that write files under names deja chooses, each meeting a
/// planted failure: a sweep saving its failures and shrinking them, a
/// sweep's hang with and without a directory for it, and play's bug
/// reports for a broken invariant and a hang. Each with whether it meets a
/// hang (and runs with a budget of one second).
fn choosers() -> [(String, bool); 5] {
    let sweep = "sweep --seeds 1..2 --bot random --keys 500";
    [
        (
            format!(
                "{sweep} --canary sticky-help --canary crowded-start --save-failures failures --shrink"
            ),
            false,
        ),
        (
            format!("{sweep} --canary stalling-look --save-failures failures"),
            true,
        ),
        (format!("{sweep} --canary stalling-look"), true),
        (
            "play --seed 3 --keys ll?<Esc> --canary sticky-help --frames none".to_string(),
            false,
        ),
        (
            "play --seed 3 --keys l;ll<Enter> --canary stalling-look --frames none".to_string(),
            true,
        ),
    ]
}

/// Runs a chooser in `dir`: its exit code and every file it named in a
/// `deja replay FILE` line, on either stream.
fn chosen(dir: &Path, args: &[&str], hangs: bool) -> (Option<i32>, Vec<String>, String) {
    let mut command = deja();
    command.current_dir(dir).args(args).timeout(TIMEOUT);
    if hangs {
        command.env("DEJA_HANG_SECONDS", "1");
    }
    let out = command.output().expect("deja runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let named = said
        .lines()
        .filter_map(|line| line.split_once("deja replay ").map(|(_, f)| f.to_string()))
        .collect();
    (out.status.code(), named, said)
}

/// What can be planted at a name before deja picks it: a link to a file
/// outside the directory, and a device node (root only).
#[derive(Clone, Copy, Debug)]
enum Planted {
    Link,
    Device,
}

#[test]
fn a_name_deja_chooses_is_made_new_and_never_written_through() {
    let root = support::scratch("hostile-files", "chosen-names");
    let can_mknod = mknod_char(&root.join("probe-node"), 3);
    let plants: &[Planted] = if can_mknod {
        &[Planted::Link, Planted::Device]
    } else {
        eprintln!("only links planted: only root may make device nodes (CI runs this as root)");
        &[Planted::Link]
    };
    for (i, (line, hangs)) in choosers().iter().enumerate() {
        let args: Vec<&str> = line.split_whitespace().collect();
        let clean = root.join(format!("{i}-clean"));
        std::fs::create_dir_all(&clean).unwrap();
        let (code, names, said) = chosen(&clean, &args, *hangs);
        assert!(!names.is_empty(), "{args:?} named no file: {said}");
        for (j, name) in names.iter().enumerate() {
            for &plant in plants {
                let case = root.join(format!("{i}-{j}-{plant:?}"));
                let (work, outside) = (case.join("work"), case.join("outside"));
                std::fs::create_dir_all(&outside).unwrap();
                let victim = outside.join("victim");
                std::fs::write(&victim, "keep me").unwrap();
                let at = work.join(name);
                std::fs::create_dir_all(at.parent().unwrap()).unwrap();
                match plant {
                    Planted::Link => std::os::unix::fs::symlink(&victim, &at).unwrap(),
                    Planted::Device => assert!(mknod_char(&at, 3)),
                }
                let (planted_code, planted_names, said) = chosen(&work, &args, *hangs);
                let what = format!("{args:?} with a {plant:?} at {name}");
                assert_eq!(planted_code, code, "{what}: {said}");
                assert_eq!(
                    std::fs::read_to_string(&victim).unwrap(),
                    "keep me",
                    "{what} wrote through the link: {said}"
                );
                let kept = std::fs::symlink_metadata(&at).unwrap().file_type();
                match plant {
                    Planted::Link => assert!(kept.is_symlink(), "{what}: the link went"),
                    Planted::Device => assert!(is_char_device(&at), "{what}: the device went"),
                }
                assert!(
                    !planted_names.contains(name),
                    "{what}: still names {name}: {said}"
                );
                let next = name.replace(".ron", "-2.ron");
                assert!(
                    planted_names.contains(&next),
                    "{what}: the report must land at {next} and be named: {said}"
                );
                harness::recording::read(&work.join(&next))
                    .unwrap_or_else(|e| panic!("{what}: {next} is no recording: {e}"));
            }
        }
    }
}

/// A recording whose first checkpoint hash is tampered with: it drifts
/// there, and bless rewrites it.
fn tampered_recording() -> String {
    let text = std::fs::read_to_string(support::corpus("win.ron")).unwrap();
    let at = text.find("hash: \"").unwrap() + "hash: \"".len();
    let digit = if &text[at..=at] == "0" { "1" } else { "0" };
    format!("{}{digit}{}", &text[..at], &text[at + 1..])
}

/// Commands that replace a file at `OUT`, each with what `OUT` holds before:
/// bless rewriting a drifting recording, a sweep's JSON report, play's
/// recording.
fn replacers() -> Vec<(Vec<&'static str>, String)> {
    vec![
        (vec!["bless", "OUT"], tampered_recording()),
        (
            vec![
                "sweep", "--seeds", "1..3", "--bot", "none", "--format", "json", "-o", "OUT",
            ],
            "{}".to_string(),
        ),
        (
            vec![
                "play", "--seed", "7", "--keys", "llll", "--frames", "none", "-o", "OUT",
            ],
            std::fs::read_to_string(support::corpus("win.ron")).unwrap(),
        ),
    ]
}

fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o7777
}

fn owner_of(path: &Path) -> (u32, u32) {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::symlink_metadata(path).unwrap();
    (meta.uid(), meta.gid())
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn a_replaced_file_keeps_its_mode_and_owner() {
    let dir = support::scratch("hostile-files", "kept-mode");
    // Only root may give a file away (CI runs as root); elsewhere the mode
    // alone is held.
    let probe = dir.join("probe");
    std::fs::write(&probe, "").unwrap();
    let can_chown = std::os::unix::fs::chown(&probe, Some(1234), Some(1234)).is_ok();
    for (i, (args, before)) in replacers().into_iter().enumerate() {
        for (mode, owner) in [(0o600, None), (0o640, Some((1234, 1234)))] {
            if owner.is_some() && !can_chown {
                eprintln!("skipped the owner: only root may give a file away");
                continue;
            }
            let out = dir.join(format!("out-{i}-{mode:o}"));
            std::fs::write(&out, &before).unwrap();
            set_mode(&out, mode);
            if let Some((uid, gid)) = owner {
                std::os::unix::fs::chown(&out, Some(uid), Some(gid)).unwrap();
            }
            let owned = owner_of(&out);
            let (code, err) = deja_in(&dir, with_output(&strings(&args), &out));
            assert_eq!(code, Some(0), "{args:?}: {err}");
            assert_ne!(
                std::fs::read_to_string(&out).unwrap(),
                before,
                "{args:?} did not replace the file"
            );
            assert_eq!(mode_of(&out), mode, "{args:?}: the mode changed");
            assert_eq!(owner_of(&out), owned, "{args:?}: the owner changed");
        }
    }
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

#[test]
fn a_read_only_file_or_one_with_other_names_is_refused_and_kept() {
    let dir = support::scratch("hostile-files", "refused-replacements");
    for (i, (args, before)) in replacers().into_iter().enumerate() {
        // Read-only: no write bit for anyone.
        let read_only = dir.join(format!("read-only-{i}"));
        std::fs::write(&read_only, &before).unwrap();
        set_mode(&read_only, 0o444);
        // Two names for one file: replacing one would leave the other
        // with the old content.
        let linked = dir.join(format!("linked-{i}"));
        let other = dir.join(format!("other-name-{i}"));
        std::fs::write(&linked, &before).unwrap();
        std::fs::hard_link(&linked, &other).unwrap();
        for (out, says) in [
            (&read_only, "is read-only"),
            (&linked, "has 2 names (hard links)"),
        ] {
            let (code, err) = deja_in(&dir, with_output(&strings(&args), out));
            assert_eq!(code, Some(1), "{args:?} onto {}: {err}", out.display());
            assert!(
                err.contains(&out.display().to_string()) && err.contains(says),
                "{args:?} must name {} and say it {says}: {err}",
                out.display()
            );
            assert_eq!(std::fs::read_to_string(out).unwrap(), before);
        }
        assert_eq!(mode_of(&read_only), 0o444);
        assert_eq!(std::fs::read_to_string(&other).unwrap(), before);
    }
    // Bless goes on past a file it refuses: the next one is blessed.
    let writable = dir.join("writable.ron");
    std::fs::write(&writable, tampered_recording()).unwrap();
    let (code, err) = deja_in(&dir, ["bless", "read-only-0", "writable.ron"]);
    assert_eq!(code, Some(1), "{err}");
    assert_ne!(
        std::fs::read_to_string(&writable).unwrap(),
        tampered_recording()
    );
}
