//! A run played by a person at the terminal, recorded as it goes.
//!
//! Keys go through [`Runner`] like every other driver's, so a panic, a
//! broken invariant or a stuck turn during real play is caught, the terminal
//! is given back, and the run is written as a bug report.
//!
//! **Never lost.** After every key, or every batch of keys that arrived
//! together (a paste), the whole run is written over the recording file
//! atomically (temporary file beside it, fsync, rename), and only then is
//! the frame drawn. So at every moment the file on disk is a complete,
//! valid recording, of every key whose frame the player has seen: a kill
//! between a key and its write loses the keys since the last frame only,
//! which never reached the screen. A kill during the write leaves the
//! previous complete file (rename is atomic). The cost is a serialisation
//! and an fsync per frame, a few milliseconds for a long run, against the
//! 100 or more milliseconds between a person's keys; keys that come faster
//! (a paste) share one (`deja bench` measures the write).
//!
//! **Never through a link.** A run with no `-o` goes to a new file in the
//! state directory, made under a name nothing has ([`Autosave::in_state_dir`]),
//! and every later write replaces that name itself, never the target of a
//! link put there since.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Duration;

use game_core::Key;
use game_core::frame::{Frame, Style};
use game_core::keys::{KeyCode, Mods};

use crate::play::terminal::{Input, Screen};
use crate::plumbing::error::{CommandResult, Error};
use crate::plumbing::exit::Exit;
use crate::plumbing::files::Destination;
use crate::recording::{self, Failure, Origin};
use crate::run::runner::{Runner, outcome_of};

/// Where a run is written, and what goes with it.
pub struct Autosave {
    path: PathBuf,
    /// Whether deja chose the name and made the file: its rewrites then
    /// replace the name itself, never a link planted there since.
    own: bool,
    note: String,
    origin: Option<Origin>,
}

impl Autosave {
    /// A run recorded to `path`, the file the player named (`-o FILE`):
    /// each save replaces it as every output named is replaced.
    pub fn named(path: PathBuf, note: String, origin: Option<Origin>) -> Autosave {
        Autosave {
            path,
            own: false,
            note,
            origin,
        }
    }

    /// A run recorded to a new file in the platform's state directory
    /// (`$XDG_STATE_HOME/deja` or `~/.local/state/deja` on Linux; the data
    /// directory where there is no state directory), named by date, time
    /// and seed; made now, holding the run so far (see [`Autosave::new_file`]).
    pub fn in_state_dir(
        runner: &Runner,
        note: String,
        origin: Option<Origin>,
    ) -> Result<Autosave, Error> {
        let dirs = directories::ProjectDirs::from("", "", "deja")
            .ok_or("no home directory to keep recordings in; give -o FILE".to_string())?;
        let dir = dirs.state_dir().unwrap_or_else(|| dirs.data_dir());
        std::fs::create_dir_all(dir).map_err(|e| {
            format!(
                "{}: {e}; give -o FILE to record elsewhere",
                crate::plumbing::printable::path(dir)
            )
        })?;
        let stamp = utc_stamp(std::time::SystemTime::now());
        let seed = runner.game().state().seed.0;
        Autosave::new_file(dir, &format!("{stamp}-seed{seed}"), runner, note, origin)
    }

    /// A run recorded to a new file `STEM.ron` in `dir`, made now with the
    /// run so far: never over another file, a link or anything else already
    /// at the name (`STEM-2.ron`, ... then).
    fn new_file(
        dir: &Path,
        stem: &str,
        runner: &Runner,
        note: String,
        origin: Option<Origin>,
    ) -> Result<Autosave, Error> {
        let mut recording = runner.recording(note.clone());
        recording.origin = origin.clone();
        let to = Destination::New {
            dir: dir.to_path_buf(),
            stem: stem.to_string(),
            extension: "ron",
        };
        Ok(Autosave {
            path: recording::write_to(&to, &recording)?,
            own: true,
            note,
            origin,
        })
    }

    /// The file the run is recorded to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How the file is written again: by its name when it is deja's own.
    fn destination(&self) -> Destination {
        if self.own {
            Destination::Own(self.path.clone())
        } else {
            Destination::Named(self.path.clone())
        }
    }

    /// Writes the run so far over the file, atomically.
    pub fn save(&self, runner: &Runner) -> Result<(), Error> {
        let mut recording = runner.recording(self.note.clone());
        recording.origin = self.origin.clone();
        recording::write_to(&self.destination(), &recording).map(drop)
    }
}

/// `2026-12-01T14-03-59`: a file-name-safe UTC time stamp. Wall-clock time
/// only names the file; it never reaches the game.
fn utc_stamp(now: std::time::SystemTime) -> String {
    let secs = now
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}-{:02}-{:02}",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// How often the loops look at the signal flag while waiting for a key.
pub const SIGNAL_POLL: Duration = Duration::from_millis(200);

/// `frame` on the screen with `status` on the row below it, as one frame of
/// the screen's size.
pub fn with_status(frame: &Frame, status: &str, width: u16, height: u16) -> Frame {
    let mut screen = Frame::new(width, height);
    for y in 0..frame.height().min(height) {
        for x in 0..frame.width().min(width) {
            if let Some(cell) = frame.get(x, y) {
                screen.set(i32::from(x), i32::from(y), cell);
            }
        }
    }
    let row = i32::from(height) - 1;
    // The status quotes files (a recording's verdict, a path): what the
    // terminal or a movie shows is escaped for the frame's one-column
    // cells, so the line is as wide as it is long.
    let text: String = crate::plumbing::printable::cells(status)
        .chars()
        .take(usize::from(width))
        .collect();
    screen.put_str(0, row, &text, Style::Hint);
    screen
}

/// `before`, `path` and `after` as one status line of at most `width`
/// columns: the path loses its middle (`~/.local/st…/run-seed15.ron`) so
/// the file name's end and the hint after it survive a narrow terminal.
pub fn status_line(before: &str, path: &str, after: &str, width: u16) -> String {
    let fixed = before.chars().count() + after.chars().count();
    let room = usize::from(width).saturating_sub(fixed).max(1);
    format!("{before}{}{after}", abbreviate_middle(path, room))
}

/// `text` in at most `room` characters: whole when it fits, else its start
/// and a longer end around an ellipsis. The end keeps the file name (from
/// the last `/`) whole when it fits, since that is what names the run.
pub fn abbreviate_middle(text: &str, room: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= room {
        return text.to_string();
    }
    let kept = room.saturating_sub(1);
    let name = chars.iter().rev().take_while(|&&c| c != '/').count() + 1;
    let tail = (kept - kept / 3).max(name.min(kept));
    let head = kept - tail;
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[chars.len() - tail..]);
    out
}

/// Plays `runner`'s game at the terminal until the run ends, the player
/// quits or a failure happens, writing the run to `autosave` before every
/// frame is drawn. Gives the terminal back, then says where the run is.
/// Returns the exit code: 0, 4 for a failure, 130 when Ctrl-C or a signal
/// ended it.
pub fn play(mut screen: Screen, mut runner: Runner, autosave: &Autosave) -> CommandResult {
    let to = autosave.destination();
    crate::run::watchdog::on_hang(Box::new(move |hang| {
        crate::play::terminal::restore();
        crate::run::watchdog::report_written(hang, &to);
    }));
    let signals = crate::plumbing::interrupt::stop_on_signals(false);
    autosave.save(&runner)?;
    let ended = loop {
        let (w, h) = screen.size();
        let status = session_status(&runner, &autosave.path, w);
        let game_frame = runner.game().frame(w, h.saturating_sub(1).max(1));
        screen.draw(&with_status(&game_frame, &status, w, h))?;
        let Some(input) = screen.next_input(SIGNAL_POLL)? else {
            if signals.load(Ordering::SeqCst) {
                break Ended::Signalled;
            }
            continue;
        };
        let ended = press_waiting(&mut screen, &mut runner, input)?;
        autosave.save(&runner)?;
        if let Some(ended) = ended {
            break ended;
        }
    };
    drop(screen);
    say_how_it_ended(&runner, autosave, ended)
}

/// How a session ended.
enum Ended {
    /// The player left: a key after the run was over, or the quit prompt
    /// answered.
    Left,
    /// Ctrl-C, SIGINT or SIGTERM.
    Signalled,
    /// The recording holds `MAX_KEYS` keys.
    Full,
    Failed(Failure),
}

/// Most keys pressed between two frames.
const MAX_BATCH: usize = 256;

/// Presses `first`, then every key already waiting behind it, up to
/// [`MAX_BATCH`]: keys that arrive faster than frames are drawn (a paste)
/// are pressed as one batch, then written once and drawn once. The file is
/// still written before any frame shows a key, so it always holds every
/// key whose frame the player has seen, without a write and a sync for
/// each key. A batch stops where the run is over, so its last frame is
/// seen.
fn press_waiting(
    screen: &mut Screen,
    runner: &mut Runner,
    first: Input,
) -> Result<Option<Ended>, Error> {
    let mut input = first;
    for taken in 1..=MAX_BATCH {
        if let Input::Key(key) = input {
            let was_over = runner.game().is_over();
            if let Some(ended) = press_one(runner, key) {
                return Ok(Some(ended));
            }
            if !was_over && runner.game().is_over() {
                break;
            }
        }
        if taken == MAX_BATCH {
            break;
        }
        match screen.next_input(Duration::ZERO)? {
            Some(next) => input = next,
            None => break,
        }
    }
    Ok(None)
}

/// One key of the session: pressed into the game, or what ends the session.
fn press_one(runner: &mut Runner, key: Key) -> Option<Ended> {
    if runner.game().is_over() {
        return Some(Ended::Left);
    }
    // Ctrl-C leaves, as it does everywhere in a terminal; raw mode
    // delivers it as a key instead of SIGINT. It is not pressed into
    // the game.
    if key == Key::with_mods(KeyCode::Char('c'), Mods::CTRL) {
        return Some(Ended::Signalled);
    }
    // A recording holds at most MAX_KEYS keys: the run ends there,
    // written whole, rather than grow past what can be read back.
    if runner.keys().len() >= crate::recording::MAX_KEYS {
        return Some(Ended::Full);
    }
    if let Err(found) = runner.press(key) {
        return Some(Ended::Failed(found));
    }
    // A player who answered the quit prompt has said they are leaving.
    matches!(
        runner.game().state().status,
        game_core::game::state::RunStatus::Quit { .. }
    )
    .then_some(Ended::Left)
}

/// The line under the game: the seed, the step and where the run is being
/// recorded, or once it is over, how it ended and where it was recorded.
fn session_status(runner: &Runner, path: &Path, w: u16) -> String {
    let seed = runner.game().state().seed.0;
    // Measured as shown: escaped for the cells first (with_status
    // escapes again, which leaves escaped text as it is), then cut to the
    // width.
    let shown = crate::plumbing::printable::cells(&path.to_string_lossy()).into_owned();
    if runner.game().is_over() {
        let before = format!(
            "{} · any key to leave · recorded to ",
            outcome_of(runner.game())
        );
        status_line(&before, &shown, "", w)
    } else {
        let before = format!("seed {seed} · step {} · recording to ", runner.step());
        status_line(&before, &shown, " · ? for help", w)
    }
}

/// After the session: a failure said with its bug report, or how the run
/// ended and where it was recorded; the exit code.
fn say_how_it_ended(runner: &Runner, autosave: &Autosave, ended: Ended) -> CommandResult {
    let path = crate::plumbing::printable::path(&autosave.path);
    let err = crate::plumbing::output::err;
    if let Ended::Failed(failure) = ended {
        let key = runner
            .keys()
            .last()
            .map_or_else(|| "the start".to_string(), |k| format!("key {k}"));
        err(format!(
            "failure at step {} ({key}): {}",
            failure.step, failure.kind
        ));
        err(format!("wrote a bug report that reproduces it: {path}"));
        err(format!("reproduce with: deja replay {path}"));
        return Ok(Exit::Failure);
    }
    err(format!(
        "{}: recorded {} to {path}",
        outcome_of(runner.game()),
        crate::replay::shrink::count_keys(runner.keys().len())
    ));
    if matches!(ended, Ended::Full) {
        err(format!(
            "the run ends here: a recording holds at most {} keys",
            crate::recording::MAX_KEYS
        ));
    }
    err(format!("replay with: deja replay {path}"));
    Ok(if matches!(ended, Ended::Signalled) {
        Exit::Interrupted
    } else {
        Exit::Ok
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_utc_dates_and_times() {
        let at = |secs: u64| utc_stamp(std::time::UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01T00-00-00");
        assert_eq!(at(951_782_400), "2000-02-29T00-00-00");
        assert_eq!(at(1_796_083_199), "2026-11-30T23-59-59");
    }

    #[test]
    fn a_long_path_loses_its_middle_and_keeps_its_name_and_the_hint() {
        let path = "/home/someone/.local/state/deja/runs/2026-12-02T05-07-15-seed15.ron";
        let line = status_line(
            "seed 15 · step 3 · recording to ",
            path,
            " · ? for help",
            80,
        );
        assert_eq!(line.chars().count(), 80);
        assert!(
            line.ends_with("2026-12-02T05-07-15-seed15.ron · ? for help"),
            "{line}"
        );
        assert!(line.contains('…'), "{line}");
        assert!(
            line.starts_with("seed 15 · step 3 · recording to /ho…/2026"),
            "{line}"
        );
        // A path that fits is left whole.
        let whole = status_line("to ", "/tmp/a.ron", " · ? for help", 80);
        assert_eq!(whole, "to /tmp/a.ron · ? for help");
        assert_eq!(abbreviate_middle("abcdefghij", 4), "…hij");
        assert_eq!(abbreviate_middle("/abcdef/ghij", 8), "/a…/ghij");
        assert_eq!(abbreviate_middle("/a/bcdefghij", 6), "…fghij");
        assert_eq!(abbreviate_middle("abcdefghij", 1), "…");
    }

    /// A run in a directory deja chooses takes a new file, passing over a
    /// link planted at the name, and its saves replace the file by its
    /// name, never through a link swapped in for it; a file the player
    /// named is written through its link, as every output named is.
    #[cfg(unix)]
    #[test]
    fn a_run_s_own_file_is_made_new_and_rewritten_by_its_name() {
        let dir = std::env::temp_dir().join(format!("deja-session-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let victim = dir.join("victim");
        std::fs::write(&victim, "keep me").unwrap();
        std::os::unix::fs::symlink(&victim, dir.join("run-seed3.ron")).unwrap();
        let mut runner = Runner::new(game_core::GameConfig::new(3)).unwrap();
        let autosave =
            Autosave::new_file(&dir, "run-seed3", &runner, "a note".into(), None).unwrap();
        assert_eq!(autosave.path(), dir.join("run-seed3-2.ron"));
        assert!(recording::read(autosave.path()).unwrap().keys.is_empty());
        std::fs::remove_file(autosave.path()).unwrap();
        std::os::unix::fs::symlink(&victim, autosave.path()).unwrap();
        let [key] = Key::parse_all("l").unwrap()[..] else {
            unreachable!("one key")
        };
        runner.press(key).unwrap();
        autosave.save(&runner).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        assert!(
            std::fs::symlink_metadata(autosave.path())
                .unwrap()
                .is_file()
        );
        let saved = recording::read(autosave.path()).unwrap();
        assert_eq!((saved.keys, saved.note.as_str()), (vec![key], "a note"));

        let named = dir.join("named.ron");
        std::os::unix::fs::symlink("target.ron", &named).unwrap();
        Autosave::named(named.clone(), String::new(), None)
            .save(&runner)
            .unwrap();
        assert!(std::fs::symlink_metadata(&named).unwrap().is_symlink());
        assert_eq!(
            recording::read(&dir.join("target.ron")).unwrap().keys,
            vec![key]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_status_goes_below_the_frame() {
        let mut frame = Frame::new(4, 2);
        frame.put_str(0, 0, "abcd", Style::Text);
        let screen = with_status(&frame, "status line", 6, 3);
        assert_eq!(screen.to_text(), "abcd\n\nstatus");
    }
}
