//! The terminal: the only module that names the terminal library
//! (crossterm). It owns raw mode, the alternate screen and the cursor,
//! colours the frame's style classes, and turns terminal events into the
//! game's [`Key`]s. Everything it draws is a [`Frame`] the caller composed;
//! the terminal's size is read here for presentation only and never reaches
//! a game's state or its hashes.
//!
//! Restoring the terminal is idempotent and reachable from anywhere
//! ([`restore`]): the screen guard's drop, the panic hook, the hang
//! watchdog's handler and the loops that see SIGINT or SIGTERM all call it,
//! so the player gets a working shell back however the process ends (short
//! of SIGKILL, and of SIGHUP, which means there is no terminal left).

use std::io::Write;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::plumbing::error::Error;
use crossterm::event::{self, Event, KeyCode as TermCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::style::{Color, Print, ResetColor, SetForegroundColor};
use crossterm::{cursor, queue, terminal};
use game_core::Key;
use game_core::frame::{Cell, Frame, Style};
use game_core::keys::{KeyCode, Mods};

/// Whether to colour the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour unless the `NO_COLOR` environment variable is set.
    Auto,
    /// Colour even with `NO_COLOR` set.
    Always,
    /// No colour.
    Never,
}

impl ColorChoice {
    /// Whether colours are on: `NO_COLOR` (set and not empty, as
    /// no-color.org defines it) turns `auto` off.
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    }

    /// Decides once, before a command runs, whether colours are on, and
    /// makes crossterm follow the decision: it reads `NO_COLOR` itself and
    /// would otherwise drop the colours `--color always` asks for (deja
    /// writes no colour code at all when they are off).
    pub fn decide(self) -> bool {
        crossterm::style::force_color_output(true);
        self.enabled()
    }
}

/// Whether standard input and output are both a terminal, as playing needs.
pub fn is_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// How many columns a report printed on standard output may use: the
/// terminal's width when standard output is one, else `$COLUMNS` when set
/// (as shells export it), else 80.
pub fn output_columns() -> usize {
    use std::io::IsTerminal;
    let from_terminal = std::io::stdout()
        .is_terminal()
        .then(|| terminal::size().ok())
        .flatten()
        .map(|(w, _)| usize::from(w));
    from_terminal
        .or_else(|| std::env::var("COLUMNS").ok()?.trim().parse().ok())
        .unwrap_or(80)
}

/// What the player did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    Key(Key),
    /// The terminal changed size: draw again.
    Resize,
}

/// Set while the terminal is in raw mode on the alternate screen.
static ACTIVE: AtomicBool = AtomicBool::new(false);
static HOOK: Once = Once::new();

/// The terminal, taken over for the game: raw mode, the alternate screen,
/// no cursor. Dropping it gives the terminal back.
pub struct Screen {
    colors: bool,
    out: std::io::Stdout,
    /// The frame on the screen: drawing it again writes nothing.
    shown: Option<Frame>,
}

impl Screen {
    /// Takes the terminal over. A panic anywhere afterwards restores it
    /// before the panic's message prints, so the message is readable.
    pub fn open(colors: bool) -> Result<Screen, Error> {
        HOOK.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                restore();
                previous(info);
            }));
        });
        let fail = |e: std::io::Error| format!("taking over the terminal: {e}");
        terminal::enable_raw_mode().map_err(fail)?;
        ACTIVE.store(true, Ordering::SeqCst);
        let mut out = std::io::stdout();
        crossterm::execute!(
            out,
            terminal::EnterAlternateScreen,
            cursor::Hide,
            terminal::Clear(terminal::ClearType::All)
        )
        .map_err(|e| {
            restore();
            fail(e)
        })?;
        Ok(Screen {
            colors,
            out,
            shown: None,
        })
    }

    /// Columns and rows, at least 1 by 1.
    pub fn size(&self) -> (u16, u16) {
        let (w, h) = terminal::size().unwrap_or((80, 24));
        (w.max(1), h.max(1))
    }

    /// Draws `frame` over the whole screen, top left, in one write: the
    /// terminal never shows half of one frame and half of another, even
    /// when the process is killed while drawing.
    pub fn draw(&mut self, frame: &Frame) -> Result<(), Error> {
        if self.shown.as_ref() == Some(frame) {
            return Ok(());
        }
        let fail = |e: std::io::Error| format!("drawing to the terminal: {e}");
        // A glyph and, at worst, a colour change per cell.
        let mut bytes: Vec<u8> = Vec::with_capacity(frame.cells().len() * 16);
        for y in 0..frame.height() {
            queue!(bytes, cursor::MoveTo(0, y)).map_err(fail)?;
            write_row(&mut bytes, frame, y, self.colors).map_err(fail)?;
        }
        let mut out = self.out.lock();
        out.write_all(&bytes).map_err(fail)?;
        out.flush().map_err(fail)?;
        self.shown = Some(frame.clone());
        Ok(())
    }

    /// The next key or resize, waiting at most `timeout`.
    /// Key releases and repeats, mouse, focus and paste events are dropped.
    /// The wait is in slices of at most [`GONE_CHECK_EVERY`], so a caller
    /// that waits [`crate::play::session::SIGNAL_POLL`] looks at its signal
    /// flags that often. A terminal that has gone away is an error.
    ///
    /// Every key typed is taken, in order, however many arrive at once (a
    /// paste): crossterm reads the terminal with its poll(2) source
    /// (`use-dev-tty`), which sees what one read of 1,024 bytes left behind
    /// as still readable; its default source waits for the terminal to
    /// become readable again, which a paste that arrived whole never does.
    /// That source reads nothing in a wait of zero, so every wait is at
    /// least [`MIN_WAIT`].
    ///
    /// A terminal that has gone away reads as always ready
    /// (crossterm-rs/crossterm#793): so the terminal is asked with poll(2)
    /// before each slice whether it is still there. (SIGHUP, which a
    /// vanished terminal sends, is left to end the process as it does by
    /// default.)
    pub fn next_input(&mut self, timeout: Duration) -> Result<Option<Input>, Error> {
        let fail = |e: std::io::Error| format!("reading the terminal: {e}");
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if !terminal_is_there()? {
                return Err(GONE.into());
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let wait = left.clamp(MIN_WAIT, GONE_CHECK_EVERY);
            if event::poll(wait).map_err(fail)? {
                match event::read().map_err(fail)? {
                    Event::Key(key) => {
                        if let Some(key) = key_from_event(key) {
                            return Ok(Some(Input::Key(key)));
                        }
                    }
                    Event::Resize(..) => return Ok(Some(Input::Resize)),
                    _ => {}
                }
                continue;
            }
            if left <= wait {
                return Ok(None);
            }
        }
    }
}

/// The shortest wait for a key: long enough for crossterm to hand out a
/// key it has already read.
pub const MIN_WAIT: Duration = Duration::from_millis(1);

/// The longest wait for a key before the terminal is asked whether it is
/// still there.
const GONE_CHECK_EVERY: Duration = Duration::from_millis(50);

const GONE: &str = "the terminal has gone away";

/// Whether the terminal is still there: poll(2) on standard input, at
/// once, sees no hang-up and no error.
#[cfg(unix)]
fn terminal_is_there() -> Result<bool, Error> {
    let mut fds = libc::pollfd {
        fd: libc::STDIN_FILENO,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd, and its count.
    let ready = unsafe { libc::poll(&mut fds, 1, 0) };
    if ready < 0 {
        let e = std::io::Error::last_os_error();
        // A signal during the call says nothing about the terminal.
        if e.kind() == std::io::ErrorKind::Interrupted {
            return Ok(true);
        }
        return Err(format!("reading the terminal: {e}").into());
    }
    Ok(fds.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) == 0)
}

/// Elsewhere crossterm's own wait sees a terminal that has gone (the bug
/// is in its Unix source).
#[cfg(not(unix))]
fn terminal_is_there() -> Result<bool, Error> {
    Ok(true)
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore();
    }
}

/// Gives the terminal back: leaves the alternate screen, shows the cursor,
/// ends raw mode. Does nothing when the terminal is not taken over, so it
/// may be called from several places.
pub fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let mut out = std::io::stdout();
        let _ = crossterm::execute!(
            out,
            ResetColor,
            cursor::Show,
            terminal::LeaveAlternateScreen
        );
        let _ = terminal::disable_raw_mode();
    }
}

/// The key the game reads for a terminal key event; `None` for releases,
/// repeats and keys the game has no name for (media keys, a lone Shift).
pub fn key_from_event(event: KeyEvent) -> Option<Key> {
    if event.kind != KeyEventKind::Press {
        return None;
    }
    let mut mods = Mods::NONE;
    if event.modifiers.contains(KeyModifiers::SHIFT) {
        mods = mods.union(Mods::SHIFT);
    }
    if event.modifiers.contains(KeyModifiers::CONTROL) {
        mods = mods.union(Mods::CTRL);
    }
    if event.modifiers.contains(KeyModifiers::ALT) {
        mods = mods.union(Mods::ALT);
    }
    let code = match event.code {
        TermCode::Char(c) => {
            // A shifted symbol arrives as the symbol, sometimes with Shift
            // still set: the character carries it, as in key notation.
            if !c.is_ascii_alphabetic() {
                mods = mods.without(Mods::SHIFT);
            }
            KeyCode::Char(c)
        }
        TermCode::Enter => KeyCode::Enter,
        TermCode::Esc => KeyCode::Esc,
        TermCode::Tab => KeyCode::Tab,
        TermCode::BackTab => {
            mods = mods.union(Mods::SHIFT);
            KeyCode::Tab
        }
        TermCode::Backspace => KeyCode::Backspace,
        TermCode::Up => KeyCode::Up,
        TermCode::Down => KeyCode::Down,
        TermCode::Left => KeyCode::Left,
        TermCode::Right => KeyCode::Right,
        TermCode::Home => KeyCode::Home,
        TermCode::End => KeyCode::End,
        TermCode::PageUp => KeyCode::PageUp,
        TermCode::PageDown => KeyCode::PageDown,
        TermCode::Delete => KeyCode::Delete,
        TermCode::Insert => KeyCode::Insert,
        TermCode::F(n @ 1..=12) => KeyCode::F(n),
        _ => return None,
    };
    Some(Key::with_mods(code, mods))
}

/// How a style looks on a terminal.
fn color_of(style: Style) -> Color {
    match style {
        Style::Blank | Style::Text | Style::Status => Color::Reset,
        Style::Wall => Color::Grey,
        Style::Floor => Color::DarkGrey,
        Style::Door => Color::DarkYellow,
        Style::Stairs | Style::Title | Style::Reticle => Color::Yellow,
        Style::Exit => Color::Magenta,
        Style::Remembered | Style::OldMessage | Style::Hint => Color::DarkGrey,
        Style::Player => Color::White,
        Style::Monster | Style::StatusAlert => Color::Red,
        Style::Item | Style::Key => Color::Cyan,
        Style::Message => Color::White,
        Style::Border => Color::Blue,
    }
}

/// One row of `frame`, with a colour change only where the style changes.
fn write_row(out: &mut impl Write, frame: &Frame, y: u16, colors: bool) -> std::io::Result<()> {
    let mut run = String::new();
    let mut current: Option<Color> = None;
    for x in 0..frame.width() {
        let cell = frame.get(x, y).unwrap_or(Cell::BLANK);
        let color = color_of(cell.style);
        if colors && current != Some(color) {
            if !run.is_empty() {
                queue!(out, Print(std::mem::take(&mut run)))?;
            }
            queue!(out, SetForegroundColor(color))?;
            current = Some(color);
        }
        run.push(cell.glyph);
    }
    queue!(out, Print(run))?;
    if colors {
        queue!(out, ResetColor)?;
    }
    Ok(())
}

/// `frame` as the text a terminal shows it with: clear, home, then each row
/// with its colours, rows joined by CR LF. A movie (asciicast) holds one of
/// these per key.
pub fn frame_to_ansi(frame: &Frame, colors: bool) -> String {
    let mut out: Vec<u8> = Vec::new();
    let _ = queue!(
        out,
        cursor::MoveTo(0, 0),
        terminal::Clear(terminal::ClearType::All)
    );
    for y in 0..frame.height() {
        if y > 0 {
            out.extend_from_slice(b"\r\n");
        }
        let _ = write_row(&mut out, frame, y, colors);
    }
    String::from_utf8(out).expect("frames hold chars, escapes are ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEventState;

    fn press(code: TermCode, modifiers: KeyModifiers) -> Option<String> {
        key_from_event(KeyEvent {
            code,
            modifiers,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        })
        .map(|k| k.to_string())
    }

    #[test]
    fn terminal_keys_become_the_keys_of_key_notation() {
        let none = KeyModifiers::NONE;
        let shift = KeyModifiers::SHIFT;
        let ctrl = KeyModifiers::CONTROL;
        assert_eq!(press(TermCode::Char('l'), none).as_deref(), Some("l"));
        // Terminals send a capital with or without Shift set.
        assert_eq!(press(TermCode::Char('H'), shift).as_deref(), Some("H"));
        assert_eq!(press(TermCode::Char('H'), none).as_deref(), Some("H"));
        assert_eq!(press(TermCode::Char('>'), shift).as_deref(), Some(">"));
        assert_eq!(press(TermCode::Char('?'), shift).as_deref(), Some("?"));
        assert_eq!(press(TermCode::Char('c'), ctrl).as_deref(), Some("<C-c>"));
        assert_eq!(press(TermCode::Char(' '), none).as_deref(), Some("<Space>"));
        assert_eq!(press(TermCode::Enter, none).as_deref(), Some("<Enter>"));
        assert_eq!(press(TermCode::Esc, none).as_deref(), Some("<Esc>"));
        assert_eq!(press(TermCode::BackTab, shift).as_deref(), Some("<S-Tab>"));
        assert_eq!(press(TermCode::Left, shift).as_deref(), Some("<S-Left>"));
        assert_eq!(
            press(TermCode::Up, KeyModifiers::ALT | ctrl).as_deref(),
            Some("<C-A-Up>")
        );
        assert_eq!(press(TermCode::F(5), none).as_deref(), Some("<F5>"));
        assert_eq!(press(TermCode::F(13), none), None);
        assert_eq!(press(TermCode::CapsLock, none), None);
        assert_eq!(press(TermCode::Null, none), None);
    }

    #[test]
    fn releases_and_repeats_are_dropped() {
        for kind in [KeyEventKind::Release, KeyEventKind::Repeat] {
            let event = KeyEvent {
                code: TermCode::Char('l'),
                modifiers: KeyModifiers::NONE,
                kind,
                state: KeyEventState::NONE,
            };
            assert_eq!(key_from_event(event), None);
        }
    }

    #[test]
    fn every_key_read_prints_as_notation_that_parses_back() {
        let codes = [
            TermCode::Char('a'),
            TermCode::Char('Z'),
            TermCode::Char('<'),
            TermCode::Char('é'),
            TermCode::Tab,
            TermCode::Backspace,
            TermCode::Delete,
            TermCode::PageDown,
        ];
        let mods = [
            KeyModifiers::NONE,
            KeyModifiers::SHIFT,
            KeyModifiers::CONTROL,
            KeyModifiers::ALT | KeyModifiers::SHIFT,
        ];
        for code in codes {
            for m in mods {
                let key = key_from_event(KeyEvent::new(code, m)).expect("a key");
                let back = Key::parse_all(&key.to_string()).expect("parses");
                assert_eq!(back, vec![key]);
            }
        }
    }

    #[test]
    fn colours_change_only_where_the_style_does_and_never_without_colours() {
        let mut frame = Frame::new(6, 2);
        frame.put_str(0, 0, "ab", Style::Monster);
        frame.put_str(2, 0, "cd", Style::Monster);
        frame.put_str(4, 0, "@", Style::Player);
        let plain = frame_to_ansi(&frame, false);
        assert!(!plain.contains("\x1b[3"), "no colour codes: {plain:?}");
        assert!(plain.ends_with("abcd@ \r\n      "), "{plain:?}");
        let coloured = frame_to_ansi(&frame, true);
        let red = coloured.matches("\x1b[38;5;9m").count();
        assert_eq!(red, 1, "one switch to red for the run abcd: {coloured:?}");
    }
}
