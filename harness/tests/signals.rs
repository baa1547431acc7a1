//! Ctrl-C (SIGINT) and SIGTERM end every command with exit 130, never the
//! 143 (128 + SIGTERM) of a process the signal kills: real processes, each
//! signalled once it has spent a third of a second of CPU on a run that
//! takes seconds, so it is mid-run whatever the machine's load. A command
//! that replays many files says how far it got; none leaves a file half
//! written, nor a temporary file beside one (a signal at any write of a
//! file, sent by strace, waits for the file to be whole).

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use support::{corpus, text};

const DEJA: &str = env!("CARGO_BIN_EXE_deja");

/// CPU time a process has spent, from /proc: user and system, its threads
/// included; `None` once it has ended.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name (in parentheses): state first,
    // utime and stime the 12th and 13th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf only reads a configuration value.
    let per_second = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).ok()?;
    Some(Duration::from_millis(ticks * 1000 / per_second.max(1)))
}

/// How much CPU a command spends before it is signalled.
const MID_RUN: Duration = Duration::from_millis(300);

/// Runs deja with `args` in `dir` and sends it `signal` once it has spent
/// [`MID_RUN`] of CPU; what it printed and how it ended.
fn signalled(args: &[&str], dir: &Path, signal: libc::c_int) -> Output {
    let mut child = Command::new(DEJA)
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("deja runs");
    let pid = child.id();
    let started = Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if cpu_time(pid).is_some_and(|spent| spent >= MID_RUN) {
            let pid = libc::pid_t::try_from(pid).expect("a pid");
            // SAFETY: kill(2) on our own child, which has not been reaped.
            assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "deja {} never spent {MID_RUN:?} of CPU",
            args.join(" ")
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().expect("deja ends")
}

/// How a process ended, in words: its exit code or the signal that killed
/// it.
fn ending(out: &Output) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (out.status.code(), out.status.signal()) {
        (Some(code), _) => format!("exit {code}"),
        (None, Some(signal)) => {
            format!("killed by signal {signal} (a shell says {})", 128 + signal)
        }
        (None, None) => "ended somehow".into(),
    }
}

/// The names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a directory")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .into_string()
                .expect("UTF-8")
        })
        .collect();
    names.sort();
    names
}

/// A recording of 200,000 keys (the help opened and closed, so the run
/// never ends), which every command takes seconds over; and copies of it,
/// of another game version so that bless rewrites each.
fn long_recordings(dir: &Path) -> Vec<String> {
    std::fs::write(dir.join("keys.txt"), "?<Esc>".repeat(100_000)).expect("written");
    let out = support::run(
        &[
            "play",
            "--seed",
            "1",
            "--keys-file",
            "keys.txt",
            "--frames",
            "none",
            "-o",
            "long.ron",
        ],
        dir,
    );
    support::assert_exit(&out, 0);
    std::fs::remove_file(dir.join("keys.txt")).expect("removed");
    let old = std::fs::read_to_string(dir.join("long.ron"))
        .expect("written")
        .replacen("version: \"", "version: \"0.0.0-old-", 1);
    std::fs::create_dir(dir.join("many")).expect("made");
    (1..=4)
        .map(|i| {
            let name = format!("many/old-{i}.ron");
            std::fs::write(dir.join(&name), &old).expect("written");
            name
        })
        .collect()
}

#[test]
fn a_signal_ends_every_long_command_with_130_and_says_how_far_it_got() {
    let dir = support::scratch("signals", "long");
    let many = long_recordings(&dir);
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let before = names_in(&dir.join("many"));
    let old = std::fs::read(dir.join(many[0])).expect("written");
    // Each command, and what it says when it is stopped (on either
    // stream): none for those with nothing to say.
    let cases: Vec<(Vec<&str>, Option<&str>)> = vec![
        (
            vec!["replay", "long.ron"],
            Some("INTERRUPTED: replayed 0 of 1 recordings"),
        ),
        (
            [&["replay"][..], &many].concat(),
            Some("INTERRUPTED: replayed "),
        ),
        (vec!["replay", "many"], Some("INTERRUPTED: replayed ")),
        (vec!["when", "long.ron", "depth >= 2"], None),
        (
            [&["bless"][..], &many].concat(),
            Some("INTERRUPTED: blessed "),
        ),
        (
            vec![
                "replay",
                "long.ron",
                "--cast",
                "-o",
                "movie.cast",
                "--to-step",
                "60000",
            ],
            None,
        ),
        (vec!["diff", "long.ron", "long.ron"], None),
        (vec!["show", "long.ron", "--at", "200000"], None),
    ];
    let mut wrong = Vec::new();
    for signal in [libc::SIGTERM, libc::SIGINT] {
        for (args, says) in &cases {
            let out = signalled(args, &dir, signal);
            let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
            let command = format!("deja {} (signal {signal})", args.join(" "));
            if out.status.code() != Some(130) {
                wrong.push(format!("{command}: {}, not exit 130\n{said}", ending(&out)));
            }
            if let Some(says) = says
                && !said.contains(says)
            {
                wrong.push(format!("{command}: {says:?} not in\n{said}"));
            }
            if said.contains("panicked") {
                wrong.push(format!("{command}: panicked\n{said}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    // Nothing half written, nothing left beside: the movie never started,
    // and each recording bless was given is whole, blessed or as it was.
    assert_eq!(names_in(&dir), ["long.ron", "many"]);
    assert_eq!(names_in(&dir.join("many")), before);
    for file in &many {
        let now = std::fs::read(dir.join(file)).expect("there");
        let whole = harness::recording::read(&dir.join(file));
        assert!(now == old || whole.is_ok(), "{file}: {whole:?}");
    }
}

/// A replay of many files stopped by a signal says which it replayed:
/// their verdicts, each whole, and how many of how many.
#[test]
fn a_stopped_replay_of_many_files_says_the_verdicts_it_reached() {
    let dir = support::scratch("signals", "verdicts");
    long_recordings(&dir);
    let files: Vec<String> = (1..=4).map(|i| format!("many/old-{i}.ron")).collect();
    let mut args = vec!["replay"];
    args.extend(files.iter().map(String::as_str));
    let out = signalled(&args, &dir, libc::SIGTERM);
    assert_eq!(out.status.code(), Some(130), "{}", ending(&out));
    let stdout = text(&out.stdout);
    let verdicts = stdout.lines().filter(|l| l.contains(": same: ")).count();
    assert!(
        stdout.ends_with(&format!(
            "INTERRUPTED: replayed {verdicts} of 4 recordings\n"
        )),
        "{stdout}"
    );
    assert!(verdicts < 4, "{stdout}");
}

/// Runs deja with `args` in `dir` under strace, which sends SIGTERM at its
/// `n`th write (`None`: counts them); how it ended, and how many writes.
fn terminated_at_write(n: Option<u32>, args: &[&str], dir: &Path) -> (Output, u32) {
    let log = dir.join("writes.log");
    let inject = n.map(|n| format!("inject=write:signal=TERM:when={n}"));
    let mut strace = Command::new("strace");
    strace
        .current_dir(dir)
        .args(["-f", "-qq", "-e", "trace=write", "-o"])
        .arg(&log);
    if let Some(inject) = &inject {
        strace.args(["-e", inject]);
    }
    let out = strace
        .args(["--", DEJA])
        .args(args)
        .output()
        .expect("strace runs (install strace: .ci/run does)");
    let writes = std::fs::read_to_string(&log)
        .expect("strace's log")
        .lines()
        .count();
    std::fs::remove_file(&log).expect("removed");
    (out, u32::try_from(writes).expect("a count"))
}

/// A signal that comes while a file is written ends the command once the
/// file is whole and in place: SIGTERM at every write of `play -o` over an
/// earlier recording ends it with 130, the file old or new and whole, and
/// no temporary file left beside it.
#[test]
fn a_signal_during_a_write_waits_for_the_file_to_be_whole() {
    let dir = support::scratch("signals", "writes");
    let play = ["play", "--seed", "3", "--keys", "llllo", "-o", "play.ron"];
    std::fs::copy(corpus("win.ron"), dir.join("play.ron")).expect("copied");
    let (counted, total) = terminated_at_write(None, &play, &dir);
    assert_eq!(counted.status.code(), Some(0), "{}", text(&counted.stderr));
    let new = std::fs::read(dir.join("play.ron")).expect("written");
    let mut wrong = Vec::new();
    for n in 1..=total {
        std::fs::copy(corpus("win.ron"), dir.join("play.ron")).expect("copied");
        let (out, _) = terminated_at_write(Some(n), &play, &dir);
        if out.status.code() != Some(130) {
            wrong.push(format!("write {n}: {}", ending(&out)));
        }
        let now = std::fs::read(dir.join("play.ron")).expect("there");
        if now != new && now != std::fs::read(corpus("win.ron")).expect("the corpus") {
            wrong.push(format!(
                "write {n}: play.ron is neither the old file nor the new"
            ));
        }
        if names_in(&dir) != ["play.ron"] {
            wrong.push(format!("write {n}: left {:?}", names_in(&dir)));
        }
    }
    assert!(wrong.is_empty(), "of {total} writes:\n{}", wrong.join("\n"));
}
