//! `deja shrink` on a long recording, as a user meets it: it says where it
//! stands as it goes (unless --quiet), and an interrupt writes the smallest
//! failing recording found so far, which still reproduces, and exits 130.
//!
//! The failures are a planted canary's: homesick-explore sends auto-explore
//! back to the start and off it again, so a bot run fails `play.progress`
//! once its progress limit is passed. No key of the stretch can go (a
//! shorter stretch is no failure), so ddmin keeps trying, each try a replay
//! of the whole stretch: a shrink that runs long.

mod support;

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use support::{assert_exit, assert_prints, assert_replay_reproduces, assert_says, run, text};

/// A recording of the explorer on seed 1 failing `play.progress` after
/// `limit` keys without progress, saved by a sweep into `dir`.
fn homesick_failure(dir: &Path, limit: u64) -> PathBuf {
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
            &limit.to_string(),
            "--keys",
            &(2 * limit).to_string(),
            "--save-failures",
            "failures",
        ],
        dir,
    );
    assert_exit(&out, 4);
    assert_prints(&out, "invariant play.progress broken");
    dir.join(support::first_saved_failure(&out))
}

#[test]
fn a_shrink_says_where_it_stands_unless_quiet() {
    let dir = support::scratch("shrink", "progress");
    let failure = homesick_failure(&dir, 50);
    let failure = failure.to_str().expect("a UTF-8 path");
    let shrink = |quiet: bool| {
        let mut args = vec!["shrink", failure, "-o", "small.ron", "--max-tries", "20"];
        if quiet {
            args.push("--quiet");
        }
        run(&args, &dir)
    };

    // Standard error is no terminal here: a plain line at each tenth of the
    // budget, whatever the time each run takes.
    let out = shrink(false);
    assert_exit(&out, 0);
    assert_prints(&out, "(the budget ran out");
    assert_says(&out, "shrinking ");
    assert_says(&out, "at most 20 runs; Ctrl-C stops at the next run");
    for tries in (2..=20).step_by(2) {
        assert_says(&out, &format!("shrink: {tries} of at most 20 runs, "));
    }
    assert_says(&out, "keys now (from 51)");

    let quiet = shrink(true);
    assert_exit(&quiet, 0);
    assert_prints(&quiet, "(the budget ran out");
    let stderr = text(&quiet.stderr);
    assert!(
        !stderr.contains("shrink") && !stderr.contains("runs"),
        "--quiet still says where the shrink stands:\n{stderr}"
    );
}

#[test]
fn an_interrupted_shrink_writes_the_smallest_failure_so_far_and_exits_130() {
    let dir = support::scratch("shrink", "interrupted");
    let failure = homesick_failure(&dir, 500);
    let before = harness::recording::read(&failure).expect("a recording");
    let small = dir.join("small.ron");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_deja"))
        .current_dir(&dir)
        .arg("shrink")
        .arg(&failure)
        .arg("-o")
        .arg(&small)
        // Far more than the test lets it try: a line at each tenth (10
        // runs) and it is still shrinking when the signal comes.
        .args(["--max-tries", "100"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("deja runs");
    let stderr = child.stderr.take().expect("piped");
    let (lines, seen) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            let _ = lines.send(line);
        }
    });
    let mut said = Vec::new();
    loop {
        let line = seen
            .recv_timeout(Duration::from_secs(300))
            .unwrap_or_else(|e| panic!("no progress line ({e}); it said:\n{}", said.join("\n")));
        let progress = line.starts_with("shrink: ");
        said.push(line);
        if progress {
            break;
        }
    }
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: kill(2) on our own child, which has not been waited for.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let out = child.wait_with_output().expect("deja ends");
    reader.join().expect("the reader ends");
    said.extend(seen.try_iter());
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(130),
        "stdout:\n{stdout}\nstderr:\n{}",
        said.join("\n")
    );
    assert!(stdout.contains("INTERRUPTED: "), "{stdout}");
    assert!(
        stdout.contains(&format!("{} keys -> ", before.keys.len())),
        "{stdout}"
    );
    assert!(
        stdout.contains("the smallest failing recording found so far"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("deja shrink {} -o ", small.display())),
        "{stdout}"
    );

    let written = harness::recording::read(&small).expect("a valid recording");
    assert!(
        written.keys.len() <= before.keys.len(),
        "{} keys written from {}",
        written.keys.len(),
        before.keys.len()
    );
    assert_replay_reproduces(&small, &dir, "play.progress");
}
