//! A recording played back (`deja replay FILE --watch` and `--cast`): in
//! the terminal for a person to step through, or as an asciicast v2 movie.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use game_core::Game;
use game_core::content::Content;
use game_core::frame::{Cell, Frame, Style};

use crate::play::session::{self, Autosave, SIGNAL_POLL, with_status};
use crate::play::terminal::{self, Input, Screen};
use crate::play::viewer::{Action, HELP, Viewer};
use crate::plumbing::error::{CommandResult, Error};
use crate::plumbing::exit::Exit;
use crate::recording::{self, Origin};
use crate::replay::timeline::Timeline;

/// Largest movie written: a frame is some kilobytes, so this is tens of
/// thousands of keys; `--to-step` cuts a longer recording.
pub const MAX_CAST_BYTES: usize = 256 * 1024 * 1024;

/// Watches `file` in the terminal, starting at `speed` keys per second,
/// until the player quits (or takes control, and then plays on: recorded to
/// `output`, or a new file in the state directory). Exits with the
/// replay's code.
pub fn watch(
    file: &Path,
    speed: u32,
    output: Option<&Path>,
    content: Arc<Content>,
) -> CommandResult {
    if !terminal::is_terminal() {
        return Err("--watch needs a terminal; replay without it to check the file".into());
    }
    let recording = recording::read(file)?;
    crate::replay::report_hangs_against(&recording, crate::plumbing::printable::path(file));
    let timeline = Timeline::build(recording, content.clone())
        .map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(file)))?;
    let marks = &timeline.marks;
    // Taken before the terminal goes raw, never to be left so by a signal.
    let signals = crate::plumbing::interrupt::stop_on_signals(false);
    let mut screen = Screen::open(crate::plumbing::output::colors())?;
    let mut viewer = Viewer::new(speed);
    let mut shown: (u64, Game) = (0, timeline.game_at(0));
    let mut next_tick = Instant::now() + viewer.interval();
    let mut interrupted = false;
    loop {
        move_to(&mut shown, viewer.position, &timeline);
        draw(&mut screen, &shown.1, &timeline, &viewer)?;
        let now = Instant::now();
        let wait = if viewer.playing {
            next_tick.saturating_duration_since(now).min(SIGNAL_POLL)
        } else {
            SIGNAL_POLL
        };
        let was_playing = viewer.playing;
        match screen.next_input(wait)? {
            None => {
                if signals.load(Ordering::SeqCst) {
                    interrupted = true;
                    break;
                }
                if viewer.playing && Instant::now() >= next_tick {
                    viewer.tick(marks);
                    next_tick += viewer.interval();
                    // Behind by more than a step (a slow draw): do not race
                    // to catch up.
                    next_tick = next_tick.max(Instant::now());
                }
            }
            Some(Input::Resize) => {}
            Some(Input::Key(key)) => match viewer.key(key, marks) {
                Action::Show => {}
                Action::Quit => break,
                Action::TakeControl(step) => {
                    return take_control(screen, file, &timeline, step, output, content);
                }
            },
        }
        if viewer.playing && !was_playing {
            next_tick = Instant::now() + viewer.interval();
        }
    }
    drop(screen);
    crate::plumbing::output::out(format_args!(
        "{}: {}",
        crate::plumbing::printable::path(file),
        timeline.verdict
    ))?;
    Ok(if interrupted {
        Exit::Interrupted
    } else {
        timeline.verdict.exit()
    })
}

/// `shown`, the game at a step, moved to the game at step `to`: by pressing
/// the keys between when they are fewer than the timeline's keyframes are
/// apart, else from the keyframe before it.
fn move_to(shown: &mut (u64, Game), to: u64, timeline: &Timeline) {
    let from = shown.0;
    if from == to {
        return;
    }
    if to > from && to - from < timeline.spacing() {
        timeline.press_to(&mut shown.1, from, to);
    } else {
        shown.1 = timeline.game_at(to);
    }
    shown.0 = to;
}

/// The viewer's `p`: the run from `step` on is the player's, recorded to
/// `output` or a new file, which names where it came from.
fn take_control(
    screen: Screen,
    file: &Path,
    timeline: &Timeline,
    step: u64,
    output: Option<&Path>,
    content: Arc<Content>,
) -> CommandResult {
    let runner = match crate::replay::take_over(&timeline.recording, content, step, None) {
        Ok(Ok(runner)) => runner,
        Ok(Err(verdict)) => {
            drop(screen);
            crate::plumbing::output::err(format_args!(
                "{}: cannot take control at step {step}: {verdict}",
                crate::plumbing::printable::path(file)
            ));
            return Ok(verdict.exit());
        }
        Err(message) => {
            drop(screen);
            return Err(format!("{}: {message}", crate::plumbing::printable::path(file)).into());
        }
    };
    // -o was checked against the recording before the viewer opened; a
    // default path is a new file.
    let note = format!(
        "taken over from {} at step {step}",
        crate::plumbing::printable::path(file)
    );
    let origin = Some(Origin {
        file: crate::plumbing::printable::path(file),
        step,
    });
    let autosave = match output {
        Some(path) => Autosave::named(path.to_path_buf(), note, origin),
        None => Autosave::in_state_dir(&runner, note, origin)?,
    };
    session::play(screen, runner, &autosave)
}

/// The step's frame at the screen's size, the help over it when open, and
/// the status line.
fn draw(
    screen: &mut Screen,
    game: &Game,
    timeline: &Timeline,
    viewer: &Viewer,
) -> Result<(), Error> {
    let (w, h) = screen.size();
    let mut frame = game.frame(w, h.saturating_sub(1).max(1));
    if viewer.help {
        draw_help(&mut frame);
    }
    let status = match viewer.entry_prompt() {
        Some(prompt) => prompt,
        None => {
            let state = if viewer.playing {
                format!("playing {}/s", viewer.speed)
            } else {
                "paused".to_string()
            };
            let notice = viewer
                .notice
                .as_ref()
                .map_or_else(String::new, |n| format!("[{n}] "));
            format!("{notice}{state} · {}", timeline.status(viewer.position))
        }
    };
    screen.draw(&with_status(&frame, &status, w, h))
}

/// The viewer's keys in a box at the top left.
fn draw_help(frame: &mut Frame) {
    let key_width = HELP.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    let text_width = HELP.iter().map(|(_, t)| t.len()).max().unwrap_or(0);
    let width = (key_width + text_width + 5) as i32;
    let height = HELP.len() as i32 + 2;
    frame.fill(0, 0, width, height, Cell::BLANK);
    let border = |x: i32, y: i32, c: char, frame: &mut Frame| {
        frame.set(x, y, Cell::new(c, Style::Border));
    };
    for x in 0..width {
        border(x, 0, '-', frame);
        border(x, height - 1, '-', frame);
    }
    for y in 1..height - 1 {
        border(0, y, '|', frame);
        border(width - 1, y, '|', frame);
    }
    for (x, y) in [
        (0, 0),
        (width - 1, 0),
        (0, height - 1),
        (width - 1, height - 1),
    ] {
        border(x, y, '+', frame);
    }
    frame.put_str(2, 0, " Viewer keys ", Style::Title);
    for (i, (key, text)) in HELP.iter().enumerate() {
        let y = i as i32 + 1;
        frame.put_str(2, y, key, Style::Key);
        frame.put_str(3 + key_width as i32, y, text, Style::Text);
    }
}

/// Writes `file`'s playback to `out` as an asciicast v2 movie: a header
/// line, then one frame per key up to `to_step` (or the last) at `speed`
/// keys per second, each the frame at `size` with the status line under
/// it. Exits with the replay's code.
pub fn cast(
    file: &Path,
    out: &Path,
    size: (u16, u16),
    to_step: Option<u64>,
    speed: u32,
    content: Arc<Content>,
) -> CommandResult {
    let recording = recording::read(file)?;
    crate::replay::report_hangs_against(&recording, crate::plumbing::printable::path(file));
    crate::replay::warn(
        &crate::plumbing::printable::path(file),
        &recording,
        &content,
    );
    let timeline = Timeline::build(recording, content)
        .map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(file)))?;
    let (w, h) = size;
    let last = to_step.map_or(timeline.marks.last, |n| n.min(timeline.marks.last));
    let header = serde_json::json!({
        "version": 2,
        "width": w,
        "height": u32::from(h) + 1,
        "title": format!("deja replay {}", crate::plumbing::printable::path(file)),
        "env": {"TERM": "xterm-256color"},
    });
    let mut text = format!("{header}\n");
    let colors = crate::plumbing::output::colors();
    let mut game = timeline.game_at(0);
    for step in 0..=last {
        if step > 0 {
            timeline.press_to(&mut game, step - 1, step);
        }
        let frame = with_status(&game.frame(w, h), &timeline.status(step), w, h + 1);
        let data = terminal::frame_to_ansi(&frame, colors);
        // Times come from integers so the same recording makes the same
        // movie, byte for byte.
        let micros = step * 1_000_000 / u64::from(speed);
        let line = format!(
            "[{}.{:06}, \"o\", {}]\n",
            micros / 1_000_000,
            micros % 1_000_000,
            serde_json::Value::String(data)
        );
        if text.len() + line.len() > MAX_CAST_BYTES {
            return Err(format!(
                "{}: the movie would be over {MAX_CAST_BYTES} bytes at step {step}; cut it with --to-step",
                crate::plumbing::printable::path(out)
            ).into());
        }
        text.push_str(&line);
    }
    crate::plumbing::files::write_atomic(out, text.as_bytes())?;
    let line = format!(
        "{}: {}; wrote {} frames to {}",
        crate::plumbing::printable::path(file),
        timeline.verdict,
        last + 1,
        crate::plumbing::printable::path(out)
    );
    // --quiet says only the verdicts that are not "same".
    if !(crate::plumbing::output::quiet() && timeline.verdict == crate::replay::Verdict::Same) {
        crate::plumbing::output::out(line)?;
    }
    Ok(timeline.verdict.exit())
}
