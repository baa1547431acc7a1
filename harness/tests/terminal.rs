//! The terminal front end as a person uses it: the real `deja` binary in a
//! real terminal (tmux), keys typed with send-keys and the screen read with
//! capture-pane. These need tmux (`.ci/run` installs it); without it they
//! fail and say so, since a skipped test would pass having tested nothing.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use game_core::Key;
use harness::recording;
use support::deja;

const DEJA: &str = env!("CARGO_BIN_EXE_deja");
/// The pane: an 80x24 game frame and the status line under it, so a frame
/// on screen compares with `deja show` and `play --frames last` at their
/// default size.
const WIDTH: u16 = 80;
const HEIGHT: u16 = 25;
/// The shell under the pane says "Killed" when deja is killed, which would
/// scroll the frame deja left on the screen: it says it to nowhere.
const SILENT_SHELL: &str = "exec 2>/dev/null; ";
/// Generous: CI machines are shared and these tests run beside others.
const PATIENCE: Duration = Duration::from_secs(30);

/// A tmux server of its own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// Runs `command` under `sh` in a new WIDTHxHEIGHT pane.
    fn start(name: &str, command: &str) -> Tmux {
        let tmux = Tmux {
            socket: format!("deja-test-{name}-{}", std::process::id()),
        };
        // No status bar: the pane is the whole WIDTHxHEIGHT window.
        let config = std::env::temp_dir().join(format!("{}.conf", tmux.socket));
        std::fs::write(&config, "set -g status off\n").expect("a tmux config");
        let status = Command::new("tmux")
            .args(["-L", &tmux.socket, "-f", config.to_str().unwrap()])
            .args(["new-session", "-d"])
            .args(["-x", &WIDTH.to_string(), "-y", &HEIGHT.to_string()])
            .args(["sh", "-c", command])
            .status()
            .expect("tmux runs (install tmux: .ci/run does)");
        assert!(status.success(), "tmux new-session failed");
        tmux
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Types `text` literally, one key per character.
    fn type_text(&self, text: &str) {
        // tmux reads an argument ending in `;` as the end of a command;
        // `\;` is a literal one.
        let text = match text.strip_suffix(';') {
            Some(rest) => format!("{rest}\\;"),
            None => text.to_string(),
        };
        self.tmux(&["send-keys", "-t", "0", "-l", &text]);
    }

    /// Presses a named key: Escape, Enter, Space, Left...
    fn press(&self, key: &str) {
        self.tmux(&["send-keys", "-t", "0", key]);
    }

    fn screen(&self) -> Vec<String> {
        self.tmux(&["capture-pane", "-p", "-t", "0"])
            .lines()
            .map(|l| l.trim_end().to_string())
            .collect()
    }

    /// The screen with lines the terminal wrapped joined again: what was
    /// printed after the game gave the terminal back.
    fn printed(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-J", "-t", "0"])
            .lines()
            .map(|l| l.trim_end().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Waits until the screen holds `text`; the screen then.
    fn wait_for(&self, text: &str) -> Vec<String> {
        let started = Instant::now();
        loop {
            let screen = self.screen();
            if screen.iter().any(|l| l.contains(text)) {
                return screen;
            }
            assert!(
                started.elapsed() < PATIENCE,
                "waited {PATIENCE:?} for {text:?}; the screen:\n{}",
                screen.join("\n")
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// The process id of `deja` running under the pane's shell.
    fn deja_pid(&self) -> String {
        let shell = self.tmux(&["display-message", "-p", "-t", "0", "#{pane_pid}"]);
        let out = Command::new("pgrep")
            .args(["-P", shell.trim(), "deja"])
            .output()
            .expect("pgrep runs");
        let pid = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert!(!pid.is_empty(), "no deja under the pane's shell");
        pid
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
    }
}

fn scratch(name: &str) -> PathBuf {
    support::scratch("terminal", name)
}

fn quoted(path: &Path) -> String {
    format!("'{}'", path.display())
}

/// The game frame's rows of a screen: all but the status line.
fn frame_rows(screen: &[String]) -> Vec<String> {
    screen[..usize::from(HEIGHT) - 1].to_vec()
}

/// Rows of text, trailing blanks trimmed, padded to the frame's height.
fn rows_of(text: &str) -> Vec<String> {
    let mut rows: Vec<String> = text.lines().map(|l| l.trim_end().to_string()).collect();
    rows.resize(usize::from(HEIGHT) - 1, String::new());
    rows
}

/// The frame `deja show FILE --at STEP` draws.
fn shown_at(file: &Path, step: u64) -> Vec<String> {
    let out = deja()
        .args(["show", file.to_str().unwrap(), "--at", &step.to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // Under its header line, "--- FILE at step N (key K) ---".
    let frame = text.split_once('\n').map_or("", |(_, rest)| rest);
    rows_of(frame)
}

/// The status line's step: "... step 12 ..." or "step 12/40".
fn status_step(screen: &[String]) -> u64 {
    let status = &screen[usize::from(HEIGHT) - 1];
    let after = status
        .split("step ")
        .nth(1)
        .unwrap_or_else(|| panic!("no step on the status line: {status:?}"));
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().expect("a step number")
}

fn wait_for_file(path: &Path) -> String {
    let started = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && !text.is_empty()
        {
            return text;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(30));
    }
}

/// The terminal's settings show it is back in cooked mode: canonical input
/// and echo on (raw mode turns both off).
fn assert_restored(stty: &str) {
    let words: Vec<&str> = stty.split_whitespace().collect();
    assert!(words.contains(&"icanon"), "still raw: {stty}");
    assert!(words.contains(&"echo"), "still raw: {stty}");
}

#[test]
fn a_played_run_shows_the_frames_scripted_play_prints_and_gives_the_terminal_back() {
    let dir = scratch("play");
    let state = dir.join("state");
    let (done, stty) = (dir.join("done"), dir.join("stty"));
    let tmux = Tmux::start(
        "play",
        &format!(
            "XDG_STATE_HOME={} {DEJA} play --seed 3; echo exit=$? > {}; stty -a > {}; sleep 600",
            quoted(&state),
            quoted(&done),
            quoted(&stty)
        ),
    );
    let screen = tmux.wait_for("seed 3 · step 0");
    let status = screen.last().unwrap().clone();
    tmux.type_text("llj");
    tmux.wait_for("step 3 ·");
    tmux.type_text("i");
    let inventory = tmux.wait_for("step 4 ·");
    let scripted = |keys: &str| {
        let out = deja()
            .args(["play", "--seed", "3", "--keys", keys, "--frames", "last"])
            .output()
            .unwrap();
        rows_of(&String::from_utf8_lossy(&out.stdout))
    };
    assert_eq!(
        frame_rows(&inventory),
        scripted("llji"),
        "the inventory open"
    );
    tmux.press("Escape");
    let closed = tmux.wait_for("step 5 ·");
    assert_eq!(
        frame_rows(&closed),
        scripted("llji<Esc>"),
        "the inventory closed"
    );
    tmux.type_text("Q");
    tmux.wait_for("step 6 ·");
    tmux.type_text("y");
    assert_eq!(wait_for_file(&done).trim(), "exit=0");
    assert_restored(&wait_for_file(&stty));

    // The recording is where the status line and the farewell say.
    let files: Vec<PathBuf> = std::fs::read_dir(state.join("deja"))
        .expect("the state directory holds the recording")
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let file = &files[0];
    let name = file.display().to_string();
    // The status line names it: its file name whole, before the help hint,
    // however much of the directory the width leaves out.
    let file_name = file.file_name().unwrap().to_string_lossy().to_string();
    assert!(
        status.contains("recording to ")
            && status
                .trim_end()
                .ends_with(&format!("{file_name} · ? for help")),
        "{status}"
    );
    let farewell = tmux.printed();
    assert!(
        farewell.contains(&format!("recorded 7 keys to {name}")),
        "{farewell}"
    );
    assert!(
        farewell.contains(&format!("deja replay {name}")),
        "{farewell}"
    );
    let run = recording::read(file).expect("a valid recording");
    assert_eq!(Key::format_all(&run.keys), "llji<Esc>Qy");
    let replay = deja().args(["replay", &name]).output().unwrap();
    assert_eq!(replay.status.code(), Some(0));
}

/// The UTC time stamp a run in the state directory is named by
/// (`2026-12-01T14-03-59`), `seconds` after the epoch, as GNU date says it.
fn utc_stamp(seconds: u64) -> String {
    let out = Command::new("date")
        .args(["-u", "-d", &format!("@{seconds}"), "+%Y-%m-%dT%H-%M-%S"])
        .output()
        .expect("date runs");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn a_run_in_the_state_directory_is_a_new_file_never_written_through_a_link() {
    let dir = scratch("state-links");
    let (state, outside) = (dir.join("state"), dir.join("outside"));
    let runs = state.join("deja");
    std::fs::create_dir_all(&runs).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let victim = outside.join("victim");
    std::fs::write(&victim, "keep me").unwrap();
    // A link at the name the run would take, whichever second of the next
    // minute and a half it starts in.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    for second in now - 2..now + 90 {
        let name = format!("{}-seed3.ron", utc_stamp(second));
        std::os::unix::fs::symlink(&victim, runs.join(name)).unwrap();
    }
    let done = dir.join("done");
    let tmux = Tmux::start(
        "state-links",
        &format!(
            "XDG_STATE_HOME={} {DEJA} play --seed 3; echo exit=$? > {}; sleep 600",
            quoted(&state),
            quoted(&done)
        ),
    );
    tmux.wait_for("seed 3 · step 0");
    let made: Vec<PathBuf> = std::fs::read_dir(&runs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| std::fs::symlink_metadata(p).unwrap().is_file())
        .collect();
    assert_eq!(made.len(), 1, "{made:?}");
    let file = &made[0];
    assert!(
        file.to_str().unwrap().ends_with("-seed3-2.ron"),
        "the run takes the next free name: {}",
        file.display()
    );
    // A link swapped in for the run's own file: the next key's write
    // replaces the link, never its target.
    let other = outside.join("other");
    std::fs::write(&other, "keep me too").unwrap();
    std::fs::remove_file(file).unwrap();
    std::os::unix::fs::symlink(&other, file).unwrap();
    tmux.type_text("ll");
    tmux.wait_for("step 2 ·");
    tmux.type_text("Q");
    tmux.wait_for("step 3 ·");
    tmux.type_text("y");
    assert_eq!(wait_for_file(&done).trim(), "exit=0");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "keep me too");
    assert!(std::fs::symlink_metadata(file).unwrap().is_file());
    let run = recording::read(file).expect("a valid recording");
    assert_eq!(Key::format_all(&run.keys), "llQy");
    let farewell = tmux.printed();
    assert!(
        farewell.contains(&format!("deja replay {}", file.display())),
        "{farewell}"
    );
}

/// Kills deja with SIGKILL once the screen shows `step`, then checks the
/// file replays and holds every key whose frame was on screen, at most one
/// more, and that `show` draws the frame the screen last showed.
fn kill_and_check(tmux: &Tmux, file: &Path) -> u64 {
    let pid = tmux.deja_pid();
    let killed = Command::new("kill").args(["-9", &pid]).status().unwrap();
    assert!(killed.success());
    std::thread::sleep(Duration::from_millis(100));
    let screen = tmux.screen();
    let seen = status_step(&screen);
    let run = recording::read(file).expect("the file is a whole recording after SIGKILL");
    let kept = run.keys.len() as u64;
    assert!(
        kept == seen || kept == seen + 1,
        "the screen showed step {seen}; the file holds {kept} keys"
    );
    let replay = deja()
        .args(["replay", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        replay.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&replay.stdout)
    );
    assert_eq!(
        frame_rows(&screen),
        shown_at(file, seen),
        "the frame last seen"
    );
    seen
}

#[test]
fn sigkill_mid_game_leaves_a_recording_that_reaches_the_last_frame_seen() {
    let dir = scratch("kill");
    let file = dir.join("run.ron");
    let tmux = Tmux::start(
        "kill",
        &format!(
            "{SILENT_SHELL}{DEJA} play --seed 5 -o {}; sleep 600",
            quoted(&file)
        ),
    );
    tmux.wait_for("seed 5 · step 0");
    tmux.type_text("llllo");
    tmux.wait_for("step 5 ·");
    assert_eq!(kill_and_check(&tmux, &file), 5);
}

#[test]
fn twenty_kills_at_random_moments_lose_at_most_the_last_key() {
    let dir = scratch("kill-loop");
    let keys = [
        "l", "h", "j", "k", "o", "o", ".", "i", ";", "y", "n", "u", "b",
    ];
    // A fixed generator: the moments are random but the test is the same
    // every run.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for round in 0..20 {
        let file = dir.join(format!("run{round}.ron"));
        let tmux = Tmux::start(
            &format!("loop{round}"),
            &format!(
                "{SILENT_SHELL}{DEJA} play --seed {round} -o {}; sleep 600",
                quoted(&file)
            ),
        );
        tmux.wait_for(&format!("seed {round} · step 0"));
        let burst: String = (0..5 + next(40))
            .map(|_| keys[next(keys.len() as u64) as usize])
            .collect::<Vec<_>>()
            .concat();
        // Screens opened by the burst are closed by a later Escape or not:
        // both are states a player can be killed in.
        tmux.type_text(&burst);
        let pause = next(250);
        std::thread::sleep(Duration::from_millis(pause));
        let seen = kill_and_check(&tmux, &file);
        eprintln!(
            "round {round}: killed {pause} ms after typing {} keys, at step {seen}",
            burst.len()
        );
    }
}

#[test]
fn a_panic_during_play_gives_the_terminal_back_and_writes_a_report_that_reproduces() {
    let dir = scratch("panic");
    let file = dir.join("panic.ron");
    let (done, stty) = (dir.join("done"), dir.join("stty"));
    let tmux = Tmux::start(
        "panic",
        &format!(
            "{DEJA} play --seed 3 -o {} --canary panicking-potion; echo exit=$? > {}; stty -a > {}; sleep 600",
            quoted(&file),
            quoted(&done),
            quoted(&stty)
        ),
    );
    tmux.wait_for("seed 3 · step 0");
    tmux.type_text("llaa");
    assert_eq!(wait_for_file(&done).trim(), "exit=4");
    assert_restored(&wait_for_file(&stty));
    let screen = tmux.screen().join("\n");
    assert!(
        screen.contains("panic: canary panicking-potion"),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("deja replay {}", file.display())),
        "{screen}"
    );
    let replay = deja()
        .args(["replay", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(replay.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&replay.stdout).contains("reproduced at step 4"));
}

/// A recording of the corpus that goes down two floors, with its hash at
/// `drift` changed so the replay drifts there.
fn drifting_copy(dir: &Path, drift: usize) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings/descend-to-depth-3.ron");
    let mut run = recording::read(&source).expect("the corpus recording reads");
    run.step_hashes[drift] ^= 1;
    let file = dir.join("drift.ron");
    recording::write(&file, &run).unwrap();
    file
}

#[test]
fn the_viewer_plays_pauses_steps_jumps_and_finds_the_drift() {
    let dir = scratch("watch");
    let file = drifting_copy(&dir, 40);
    let run = recording::read(&file).unwrap();
    let timeline = harness::replay::timeline::Timeline::build(
        run,
        game_core::content::Content::shared_embedded(),
    )
    .expect("builds");
    let second_floor = timeline.marks.floors[1];
    let last = timeline.marks.last;
    let tmux = Tmux::start(
        "watch",
        &format!(
            "{DEJA} replay {} --watch --speed 2; sleep 600",
            quoted(&file)
        ),
    );
    // It plays from the start, two keys a second.
    tmux.wait_for(&format!("playing 2/s · step 1/{last}"));
    tmux.press("Space");
    let paused = tmux.wait_for("paused · step");
    let at = status_step(&paused);
    assert_eq!(frame_rows(&paused), shown_at(&file, at));
    tmux.type_text("l");
    tmux.wait_for(&format!("paused · step {}/", at + 1));
    tmux.type_text("L");
    tmux.wait_for(&format!("paused · step {}/", at + 11));
    tmux.press("Left");
    tmux.wait_for(&format!("paused · step {}/", at + 10));
    tmux.type_text("H");
    let back = tmux.wait_for(&format!("paused · step {}/", at));
    assert_eq!(
        frame_rows(&back),
        shown_at(&file, at),
        "stepping back shows the same frame"
    );
    tmux.type_text(">");
    let floor = tmux.wait_for(&format!("step {second_floor}/{last} · turn"));
    assert!(floor.last().unwrap().contains("depth 2"), "{floor:?}");
    assert_eq!(frame_rows(&floor), shown_at(&file, second_floor));
    tmux.type_text("g7");
    tmux.wait_for("go to step: 7_");
    tmux.press("Enter");
    tmux.wait_for(&format!("step 7/{last} ·"));
    tmux.type_text("f");
    let drift = tmux.wait_for(&format!("step 40/{last} ·"));
    assert!(drift.last().unwrap().contains("drift at 40"), "{drift:?}");
    assert_eq!(frame_rows(&drift), shown_at(&file, 40));
    tmux.type_text("h");
    let before = tmux.wait_for(&format!("step 39/{last} ·"));
    assert!(before.last().unwrap().contains("same so far"), "{before:?}");
    tmux.type_text("?");
    tmux.wait_for("Viewer keys");
    tmux.type_text("q");
    let farewell = tmux.wait_for("drift at step 40");
    assert!(
        !farewell.iter().any(|l| l.contains("Viewer keys")),
        "the screen is given back"
    );
}

#[test]
fn the_viewer_jumps_to_a_failure_and_takes_control_before_it() {
    let dir = scratch("watch-failure");
    let report = dir.join("panic.ron");
    let out = deja()
        .args([
            "play",
            "--seed",
            "3",
            "--keys",
            "llaa",
            "--canary",
            "panicking-potion",
        ])
        .args(["-o", report.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    let taken = dir.join("taken.ron");
    let tmux = Tmux::start(
        "watch-failure",
        &format!(
            "{DEJA} replay {} --watch -o {}; sleep 600",
            quoted(&report),
            quoted(&taken)
        ),
    );
    tmux.wait_for("step");
    tmux.press("Space");
    tmux.type_text("f");
    // A panic leaves the game half-changed: the viewer stops before it.
    let failure = tmux.wait_for("step 3/3");
    assert!(
        failure.last().unwrap().contains("failure at 4"),
        "{failure:?}"
    );
    tmux.type_text("p");
    tmux.wait_for("seed 3 · step 3 · recording to");
    // Control is taken with the pack open, as the recording had it.
    tmux.press("Escape");
    // A terminal cannot tell Esc then h from Alt+h when they come at once.
    tmux.wait_for("seed 3 · step 4 ·");
    tmux.type_text("hQy");
    tmux.wait_for("recorded 7 keys");
    let run = recording::read(&taken).expect("the run taken over is recorded");
    assert_eq!(Key::format_all(&run.keys), "lla<Esc>hQy");
    assert_eq!(run.origin.as_ref().map(|o| o.step), Some(3));
}

#[test]
fn ctrl_c_and_sigterm_leave_with_the_terminal_given_back_and_every_key_kept() {
    for (name, leave) in [("ctrl-c", "C-c"), ("sigterm", "TERM")] {
        let dir = scratch(name);
        let file = dir.join("run.ron");
        let (done, stty) = (dir.join("done"), dir.join("stty"));
        let tmux = Tmux::start(
            name,
            &format!(
                "{DEJA} play --seed 9 -o {}; echo exit=$? > {}; stty -a > {}; sleep 600",
                quoted(&file),
                quoted(&done),
                quoted(&stty)
            ),
        );
        tmux.wait_for("seed 9 · step 0");
        tmux.type_text("lli");
        tmux.wait_for("step 3 ·");
        if leave == "TERM" {
            let pid = tmux.deja_pid();
            assert!(
                Command::new("kill")
                    .args(["-TERM", &pid])
                    .status()
                    .unwrap()
                    .success()
            );
        } else {
            tmux.press(leave);
        }
        assert_eq!(wait_for_file(&done).trim(), "exit=130", "{name}");
        assert_restored(&wait_for_file(&stty));
        let run = recording::read(&file).unwrap();
        assert_eq!(
            Key::format_all(&run.keys),
            "lli",
            "{name}: Ctrl-C is not a game key"
        );
        assert!(
            tmux.printed()
                .contains(&format!("deja replay {}", file.display()))
        );
    }
}

#[test]
fn only_the_terminal_module_names_the_terminal_library() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src.clone()];
    let mut naming = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path != src.join("play").join("terminal.rs")
                && std::fs::read_to_string(&path)
                    .unwrap()
                    .contains("crossterm")
            {
                naming.push(path);
            }
        }
    }
    assert!(
        naming.is_empty(),
        "crossterm named outside play/terminal.rs: {naming:?}"
    );
}

#[test]
fn a_hang_during_play_gives_the_terminal_back_and_writes_a_report_that_reproduces() {
    let dir = scratch("hang");
    let file = dir.join("hang.ron");
    let (done, stty) = (dir.join("done"), dir.join("stty"));
    let tmux = Tmux::start(
        "hang",
        &format!(
            "DEJA_HANG_SECONDS=1 {DEJA} play --seed 3 -o {} --canary stalling-look; echo exit=$? > {}; stty -a > {}; sleep 600",
            quoted(&file),
            quoted(&done),
            quoted(&stty)
        ),
    );
    tmux.wait_for("seed 3 · step 0");
    tmux.type_text("l;");
    tmux.wait_for("step 2 ·");
    tmux.press("Enter");
    assert_eq!(wait_for_file(&done).trim(), "exit=4");
    assert_restored(&wait_for_file(&stty));
    assert!(
        tmux.printed()
            .contains(&format!("deja replay {}", file.display()))
    );
    let replay = deja()
        .env("DEJA_HANG_SECONDS", "1")
        .args(["replay", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(replay.status.code(), Some(4));
    let said = String::from_utf8_lossy(&replay.stdout);
    assert!(said.contains("reproduced at step 3: hang"), "{said}");
}

#[test]
fn a_resized_terminal_redraws_at_its_size_and_the_run_is_unchanged() {
    let dir = scratch("resize");
    let file = dir.join("run.ron");
    let tmux = Tmux::start(
        "resize",
        &format!("{DEJA} play --seed 3 -o {}; sleep 600", quoted(&file)),
    );
    tmux.wait_for("seed 3 · step 0");
    tmux.type_text("ll");
    tmux.wait_for("step 2 ·");
    tmux.tmux(&["resize-window", "-t", "0", "-x", "100", "-y", "31"]);
    let started = Instant::now();
    let screen = loop {
        let screen = tmux.screen();
        if screen.len() == 31 && screen[30].contains("step 2 ·") {
            break screen;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "no redraw at 100x31: {screen:?}"
        );
        std::thread::sleep(Duration::from_millis(30));
    };
    let out = deja()
        .args(["play", "--seed", "3", "--keys", "ll", "--size", "100x30"])
        .output()
        .unwrap();
    let mut expected: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim_end().to_string())
        .collect();
    expected.resize(30, String::new());
    assert_eq!(
        screen[..30].to_vec(),
        expected,
        "the game at the terminal's size"
    );
    tmux.type_text("j");
    tmux.wait_for("step 3 ·");
    // The size was presentation only: the run is the run of 80x24.
    let run = recording::read(&file).unwrap();
    assert_eq!(run.frame, (80, 24));
    let scripted = dir.join("scripted.ron");
    deja()
        .args([
            "play",
            "--seed",
            "3",
            "--keys",
            "llj",
            "-o",
            scripted.to_str().unwrap(),
        ])
        .assert()
        .success();
    assert_eq!(
        recording::read(&scripted).unwrap().step_hashes,
        run.step_hashes,
        "the same hashes as a run that never saw a resize"
    );
}

#[test]
fn a_whole_winning_run_typed_at_the_terminal_is_the_corpus_recording() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings/win.ron");
    let win = recording::read(&source).unwrap();
    let dir = scratch("whole-run");
    let file = dir.join("won.ron");
    let done = dir.join("done");
    let tmux = Tmux::start(
        "whole-run",
        &format!(
            "{DEJA} play --seed {} -o {}; echo exit=$? > {}; sleep 600",
            win.seed,
            quoted(&file),
            quoted(&done)
        ),
    );
    tmux.wait_for(&format!("seed {} · step 0", win.seed));
    // Letters in runs, Enter by name: the keys of the recording, typed.
    let mut run = String::new();
    for key in &win.keys {
        if *key == Key::ENTER {
            if !run.is_empty() {
                tmux.type_text(&std::mem::take(&mut run));
            }
            tmux.press("Enter");
        } else {
            run.push_str(&key.to_string());
        }
    }
    tmux.type_text(&run);
    let end = tmux.wait_for("any key to leave");
    assert!(end.last().unwrap().starts_with("won at turn"), "{end:?}");
    tmux.press("Space");
    assert_eq!(wait_for_file(&done).trim(), "exit=0");
    let played = recording::read(&file).unwrap();
    assert_eq!(
        played.keys, win.keys,
        "the key left on the last screen is not recorded"
    );
    assert_eq!(played.step_hashes, win.step_hashes);
    assert_eq!(played.outcome, win.outcome);
    let farewell = tmux.printed();
    assert!(
        farewell.contains(&format!(
            "recorded {} keys to {}",
            win.keys.len(),
            file.display()
        )),
        "{farewell}"
    );
}

/// Whether process `pid` is gone within the patience.
fn ends(pid: &str) -> bool {
    let started = Instant::now();
    while started.elapsed() < PATIENCE {
        let alive = Command::new("kill")
            .args(["-0", pid])
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap()
            .success();
        if !alive {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn a_closed_terminal_ends_deja_even_when_sighup_is_ignored() {
    // With SIGHUP ignored the process lives on after its terminal: it must
    // see the terminal is gone (crossterm alone would read it forever).
    for (name, shell) in [("hup", ""), ("hup-ignored", "trap '' HUP; ")] {
        for command in ["play --seed 4", "replay RECORDING --watch"] {
            let dir = scratch(&format!("{name}-{}", command.len()));
            let file = dir.join("run.ron");
            let recording = Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings/win.ron");
            let args = command.replace("RECORDING", &quoted(&recording));
            let record = if command.starts_with("play") {
                format!(" -o {}", quoted(&file))
            } else {
                String::new()
            };
            let tmux = Tmux::start(
                name,
                // `; true` keeps the shell from exec-ing deja, so deja is
                // its child; nothing outlives the test.
                &format!("{SILENT_SHELL}{shell}{DEJA} {args}{record}; true"),
            );
            tmux.wait_for("step");
            if command.starts_with("play") {
                tmux.type_text("jj");
                tmux.wait_for("step 2 ·");
            }
            let pid = tmux.deja_pid();
            drop(tmux);
            assert!(ends(&pid), "{name}: deja {command} outlived its terminal");
            if command.starts_with("play") {
                let run = recording::read(&file).unwrap();
                assert_eq!(Key::format_all(&run.keys), "jj");
            }
        }
    }
}

/// How `text` looks where it starts on the last row of the screen that
/// holds it: the foreground colour and boldness tmux draws it with, read
/// from the pane captured with its escape codes (a colour set on one cell
/// holds until the next code, across rows).
fn look_of(tmux: &Tmux, text: &str) -> (String, bool) {
    let styled = tmux.tmux(&["capture-pane", "-p", "-e", "-t", "0"]);
    let (mut fg, mut bold) = (String::from("default"), false);
    let mut found = None;
    for row in styled.lines() {
        let mut plain = String::new();
        let mut looks = Vec::new();
        let mut rest = row;
        while let Some(c) = rest.chars().next() {
            if let Some(codes) = rest.strip_prefix("\u{1b}[") {
                let end = codes
                    .find(|c: char| c.is_ascii_alphabetic())
                    .unwrap_or(codes.len());
                if codes[end..].starts_with('m') {
                    let params: Vec<&str> = codes[..end].split(';').collect();
                    let mut p = params.iter();
                    while let Some(&param) = p.next() {
                        match param {
                            "" | "0" => (fg, bold) = ("default".into(), false),
                            "1" => bold = true,
                            "22" => bold = false,
                            "39" => fg = "default".into(),
                            "38" => {
                                let mode = p.next().copied().unwrap_or("");
                                let n = if mode == "5" { 1 } else { 3 };
                                let value: Vec<&str> = p.by_ref().take(n).copied().collect();
                                fg = format!("{mode};{}", value.join(";"));
                            }
                            code if code.len() == 2
                                && (code.starts_with('3') || code.starts_with('9')) =>
                            {
                                fg = code.into()
                            }
                            _ => {}
                        }
                    }
                }
                rest = &codes[(end + 1).min(codes.len())..];
                continue;
            }
            plain.push(c);
            looks.push((fg.clone(), bold));
            rest = &rest[c.len_utf8()..];
        }
        if let Some(at) = plain.find(text) {
            found = Some(looks[plain[..at].chars().count()].clone());
        }
    }
    found.unwrap_or_else(|| panic!("{text:?} is not on the screen:\n{styled}"))
}

#[test]
fn a_repeated_refusal_shows_once_with_its_count_and_the_history_keeps_what_scrolled_off() {
    let dir = scratch("messages");
    let tmux = Tmux::start(
        "messages",
        &format!(
            "XDG_STATE_HOME={} {DEJA} play --seed 3 --color always; sleep 600",
            quoted(&dir.join("state"))
        ),
    );
    tmux.wait_for("seed 3 · step 0");
    // The first `o` explores until a kobold comes into view; the next three
    // are refused with it in view.
    tmux.type_text("o");
    tmux.wait_for("step 1 ·");
    tmux.type_text("ooo");
    let screen = tmux.wait_for("step 4 ·");
    let rows = frame_rows(&screen);
    let refusals: Vec<&String> = rows
        .iter()
        .filter(|r| r.contains("Not with a monster in view."))
        .collect();
    assert_eq!(
        refusals.len(),
        1,
        "one line for the three refusals:\n{}",
        screen.join("\n")
    );
    assert!(
        refusals[0]
            .trim_end()
            .ends_with("Not with a monster in view. (x3)"),
        "{}",
        screen.join("\n")
    );
    assert!(
        rows.iter().any(|r| r.contains("You see a kobold.")),
        "the line before the repeats stays:\n{}",
        screen.join("\n")
    );
    // The welcome has scrolled off the three message rows.
    assert!(
        !rows.iter().any(|r| r.contains("Welcome to the Undercroft")),
        "{}",
        screen.join("\n")
    );
    // This key's line is drawn unlike the older ones.
    let this_key = look_of(&tmux, "Not with a monster in view.");
    let older = look_of(&tmux, "You see a kobold.");
    assert_ne!(
        this_key, older,
        "this key's message and an older one look alike"
    );

    // The history lists it, newest first; the lines under the map are all
    // older than this key now, and look alike.
    tmux.type_text("m");
    let history = tmux.wait_for("Messages, newest first");
    let listed = |text: &str| {
        history
            .iter()
            .position(|r| r.contains(&format!("| {text}")))
            .unwrap_or_else(|| panic!("{text:?} not listed:\n{}", history.join("\n")))
    };
    let welcome = listed("Welcome to the Undercroft.");
    let refusal = listed("Not with a monster in view. (x3)");
    let kobold = listed("You see a kobold.");
    assert!(
        refusal < kobold && kobold < welcome,
        "{}",
        history.join("\n")
    );
    assert_eq!(
        look_of(&tmux, "Not with a monster in view. (x3)"),
        look_of(&tmux, "You see a kobold."),
        "{}",
        history.join("\n")
    );
    tmux.press("Escape");
    let closed = tmux.wait_for("step 6 ·");
    assert!(!closed.iter().any(|r| r.contains("Messages, newest first")));
}

/// CPU time `pid` has used so far, in clock ticks (user and system, from
/// /proc/PID/stat).
fn cpu_ticks(pid: &str) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("deja's stat");
    // Fields after the command name, which is in parentheses: utime and
    // stime are the 12th and 13th.
    let after = &stat[stat.rfind(')').expect("a command name") + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[test]
fn a_paste_of_many_keys_is_taken_whole_and_deja_then_waits_without_spinning() {
    // More keys than one read of the terminal takes (1,024 bytes): the
    // rest arrive with no new key behind them.
    const PASTED: usize = 1500;
    let dir = scratch("paste");
    let file = dir.join("pasted.ron");
    let tmux = Tmux::start(
        "paste",
        &format!(
            "{SILENT_SHELL}{DEJA} play --seed 7 -o {}; sleep 600",
            quoted(&file)
        ),
    );
    tmux.wait_for("seed 7 · step 0 ");
    // `z` is no command: each is a key recorded that spends no turn.
    tmux.type_text(&"z".repeat(PASTED));
    tmux.wait_for(&format!("seed 7 · step {PASTED} "));
    let played = recording::read(&file).unwrap();
    assert_eq!(played.keys.len(), PASTED, "every key is written");
    assert!(played.keys.iter().all(|k| k.to_string() == "z"));
    // Waiting for the next key costs nothing: a second of it uses well
    // under a tenth of a second of CPU (a spin uses most of the second).
    let pid = tmux.deja_pid();
    let before = cpu_ticks(&pid);
    std::thread::sleep(Duration::from_secs(1));
    let used = cpu_ticks(&pid) - before;
    assert!(used <= 10, "{used} ticks of CPU in a second of waiting");
}
