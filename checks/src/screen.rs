//! The screen tells the truth: the frame drawn after a key, held to the state
//! it was drawn from, after every key.
//!
//! Written a second time from the rules the frame promises (the layout, the
//! status line's forms, the camera, what is drawn where, how boxes and
//! messages wrap and scroll), never by calling the renderer's helpers, so a
//! bug in `game::render` or `frame` makes the two disagree instead of
//! fooling both. What it reads of the game is the state and the content's
//! words (names, descriptions, the help's rows, what a tile is described
//! as), which are what the frame is a picture of.
//!
//! The map part is a scan of the view's cells by their style class against
//! the revealed and visible layers and the entities' tiles: cheap enough for
//! every key. `frame.oracle` still redraws the map cell by cell on a sample.

use game_core::content::ItemEffect;
use game_core::frame::{Cell, Frame, MIN_FRAME_HEIGHT, MIN_FRAME_WIDTH, Style};
use game_core::game::Game;
use game_core::game::HELP;
use game_core::game::screens::{PackMode, Purpose, Reticle, Screen};
use game_core::game::state::{GameState, MessageLog, RunStatus, slot_letter};
use game_core::geom::Pos;
use game_core::map::Tile;

use crate::catalogue::{Id, Violation, violation};
use crate::describe::describe_top;

/// What the frame drawn after a key must show of `game`: the first thing
/// it gets wrong. The cheap form, for the frames a run reads (every
/// [`crate::FRAME_EVERY`]th key's, harness/src/run/runner.rs): the map's rows
/// counted by the kind of each cell and judged cell by cell only where the
/// counts are off, and an open screen's box found on the frame and held to
/// its border, its place and its title. [`check_screen_closely`] does the
/// rest on a sample.
pub fn check_screen(game: &Game, frame: &Frame) -> Option<Violation> {
    check(game, frame, false)
}

/// [`check_screen`], and closely: every map cell compared with its ground,
/// glyph and all, and the box laid out again from the screen's rows and
/// compared cell by cell. For the oracle sample and for tests.
pub fn check_screen_closely(game: &Game, frame: &Frame) -> Option<Violation> {
    check(game, frame, true)
}

fn check(game: &Game, frame: &Frame, closely: bool) -> Option<Violation> {
    let (w, h) = (i32::from(frame.width()), i32::from(frame.height()));
    if frame.cells().len() != (w * h) as usize {
        return Some(violation(
            Id::ScreenSize,
            format!(
                "the frame says it is {w}x{h} but holds {} cells, not {}",
                frame.cells().len(),
                w * h
            ),
        ));
    }
    if closely && let Some(v) = check_text(frame) {
        return Some(v);
    }
    if frame.width() < MIN_FRAME_WIDTH || frame.height() < MIN_FRAME_HEIGHT {
        return check_notice(frame);
    }
    let state = game.state();
    if state.status != RunStatus::Playing {
        return check_ending(game, frame);
    }
    let layout = Layout::of(w, h);
    let top = state.screens.last();
    let reticle = match top {
        Some(Screen::Reticle(r)) => Some(*r),
        _ => None,
    };
    let what = || describe_top(top);
    // The box of the screen on top, when it draws one, found or laid out
    // first, so the map's scan can leave what it covers to the box's check.
    let (area, wrong_box) = match top.and_then(|screen| box_title(game, screen)) {
        None => (None, None),
        Some(title) if !closely => match find_box(frame, &layout, &title, &what) {
            Ok(area) => (Some(area), None),
            Err(v) => (None, Some(v)),
        },
        Some(title) => {
            let laid = top
                .map(|screen| box_rows(game, screen, title))
                .map(|spec| spec.lay_out(frame, w, layout.map_rows));
            let wrong = laid
                .as_ref()
                .and_then(|laid| check_box(frame, laid, Id::ScreenBox, &what));
            (laid.map(|l| l.area()), wrong)
        }
    };
    check_status(state, frame, &layout)
        .or(wrong_box)
        .or_else(|| check_map(game, frame, &layout, reticle, area, closely))
        .or_else(|| match reticle {
            Some(r) => check_reticle_rows(game, frame, &layout, r),
            None => check_messages(state, frame, &layout),
        })
}

/// Where the parts of a frame big enough to play in go: the map's rows from
/// the top, the status line under them, then the message rows (three on a
/// frame 24 high or more, two on one 12 or more, else one).
struct Layout {
    width: i32,
    map_rows: i32,
    status_row: i32,
    message_rows: i32,
}

impl Layout {
    fn of(width: i32, height: i32) -> Layout {
        let message_rows = if height >= 24 {
            3
        } else if height >= 12 {
            2
        } else {
            1
        };
        let map_rows = height - 1 - message_rows;
        Layout {
            width,
            map_rows,
            status_row: map_rows,
            message_rows,
        }
    }
}

/// The cell at (x, y), which the caller knows lies in the frame.
fn at(frame: &Frame, x: i32, y: i32) -> Cell {
    frame.cells()[(y * i32::from(frame.width()) + x) as usize]
}

/// Row `y`'s glyphs with trailing blanks dropped, for messages.
fn row_text(frame: &Frame, y: i32) -> String {
    frame.row_text(y as u16).trim_end().to_string()
}

/// The first cell of row `y` from column `from` on that is not `want`'s,
/// with its column: `want` is the row as it should be, blanks after it.
/// Every status and message row of every frame goes through here.
fn first_difference(
    frame: &Frame,
    y: i32,
    from: i32,
    want: impl IntoIterator<Item = Cell>,
) -> Option<(i32, Cell, Cell)> {
    let w = usize::from(frame.width());
    let start = y as usize * w;
    let row = &frame.cells()[start + from as usize..start + w];
    let mut shown = 0;
    for (&got, expected) in row.iter().zip(want) {
        if got != expected {
            return Some((from + shown as i32, got, expected));
        }
        shown += 1;
    }
    let rest = &row[shown..];
    first_drawn(rest).map(|i| (from + (shown + i) as i32, rest[i], Cell::BLANK))
}

/// Where the first cell of `cells` that is not blank is.
fn first_drawn(cells: &[Cell]) -> Option<usize> {
    // All blank, in a pass the compiler can vectorise; where not, found.
    if cells.iter().fold(0, |bits, &c| bits | blank_bits(c)) == 0 {
        return None;
    }
    cells.iter().position(|&c| !is_blank(c))
}

/// A cell's bits that are not a blank's: none for a blank (a space,
/// 0x20, in the first style, 0).
fn blank_bits(cell: Cell) -> u32 {
    (u32::from(cell.glyph) ^ 0x20) | cell.style as u32
}

/// Whether a cell is blank, in one test of its bits: a space (0x20) in
/// the first style (0), so any other bit set is something drawn.
fn is_blank(cell: Cell) -> bool {
    blank_bits(cell) == 0
}

/// The kinds of cell the map's scan counts, each in a field of
/// [`KIND_BITS`] bits of a `u64`: blank, remembered ground, ground in view,
/// what is drawn over the ground (a creature, an item, the reticle), and
/// anything else (which the map rows never show).
const KIND_BLANK: usize = 0;
const KIND_REMEMBERED: usize = 1;
const KIND_LIT: usize = 2;
const KIND_OVER: usize = 3;
const KIND_OTHER: usize = 4;
const KIND_BITS: usize = 12;

/// The count a cell of each style adds: one in its kind's field. Each arm
/// a constant, so the compiler makes the match a table.
const fn kind_of(style: Style) -> u64 {
    const BLANK: u64 = 1 << (KIND_BITS * KIND_BLANK);
    const REMEMBERED: u64 = 1 << (KIND_BITS * KIND_REMEMBERED);
    const LIT: u64 = 1 << (KIND_BITS * KIND_LIT);
    const OVER: u64 = 1 << (KIND_BITS * KIND_OVER);
    const OTHER: u64 = 1 << (KIND_BITS * KIND_OTHER);
    match style {
        Style::Blank => BLANK,
        Style::Remembered => REMEMBERED,
        Style::Wall | Style::Floor | Style::Door | Style::Stairs | Style::Exit => LIT,
        Style::Player | Style::Monster | Style::Item | Style::Reticle => OVER,
        Style::Status
        | Style::StatusAlert
        | Style::Message
        | Style::OldMessage
        | Style::Border
        | Style::Title
        | Style::Text
        | Style::Key
        | Style::Hint => OTHER,
    }
}

/// How many of `cells` are of each kind, packed as [`kind_of`] packs one.
/// A row is at most [`game_core::frame::MAX_FRAME_WIDTH`] wide, which a field
/// holds. It runs over every map row of every frame: a lookup and an add.
fn kinds(cells: &[Cell]) -> u64 {
    // Four sums side by side, so an add need not wait for the one before:
    // the packed fields add the same in any order.
    let mut sums = [0u64; 4];
    let mut fours = cells.chunks_exact(4);
    for four in &mut fours {
        for (sum, c) in sums.iter_mut().zip(four) {
            *sum = sum.wrapping_add(kind_of(c.style));
        }
    }
    let rest = fours
        .remainder()
        .iter()
        .fold(0u64, |n, c| n.wrapping_add(kind_of(c.style)));
    sums.iter().fold(rest, |n, sum| n.wrapping_add(*sum))
}

/// Cells of `text` in one style.
fn cells(text: &str, style: Style) -> impl Iterator<Item = Cell> + '_ {
    text.chars().map(move |c| Cell::new(c, style))
}

// ---------------------------------------------------------------------------
// Text, wrapped and cut, as the frame's rules say.

/// Greedy word wrap: the words (split at whitespace) joined by one space
/// while a line stays within `width` characters; a word longer than a line
/// is cut into pieces of `width`, the last piece starting the next line.
fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut length = 0;
    for word in text.split_whitespace() {
        let n = word.chars().count();
        if length > 0 && length + 1 + n <= width {
            line.push(' ');
            line.push_str(word);
            length += 1 + n;
            continue;
        }
        if length > 0 {
            lines.push(std::mem::take(&mut line));
        }
        // The line is empty: the word starts it, in pieces when it is
        // longer than a line.
        let (mut rest, mut left) = (word, n);
        while left > width {
            let cut = rest
                .char_indices()
                .nth(width)
                .map_or(rest.len(), |(b, _)| b);
            lines.push(rest[..cut].to_string());
            rest = &rest[cut..];
            left -= width;
        }
        line.push_str(rest);
        length = left;
    }
    if length > 0 {
        lines.push(line);
    }
    lines
}

/// The first `rows` of `lines`; when some are left out, the last one kept
/// shows its start and ends in `...` within `width`, so a cut is never
/// silent.
fn cut_to_rows(mut lines: Vec<String>, rows: usize, width: usize) -> Vec<String> {
    if lines.len() > rows {
        lines.truncate(rows);
        if let Some(last) = lines.last_mut() {
            let kept: String = last.chars().take(width.saturating_sub(3)).collect();
            *last = kept + &".".repeat(width.min(3));
        }
    }
    lines
}

/// `text`, or its start ending in `...` when it is wider than `width`.
fn cut_to_width(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width.saturating_sub(3)).collect();
    kept + &".".repeat(width.min(3))
}

/// The text with its first letter a capital.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

fn lines_word(n: usize) -> &'static str {
    if n == 1 { "line" } else { "lines" }
}

// ---------------------------------------------------------------------------
// Too small to play in.

/// A frame below the smallest size shows only the notice that says how big
/// it must be.
/// The frame as text (what snapshots store, and what `deja play --keys`
/// and `deja show` print) is its rows of glyphs, one line each, top to
/// bottom, each without its trailing blanks: read here from the cells.
fn check_text(frame: &Frame) -> Option<Violation> {
    let width = usize::from(frame.width());
    let text = frame.to_text();
    let mut lines = text.split('\n');
    for (y, row) in frame.cells().chunks(width.max(1)).enumerate() {
        // The row's glyphs up to its last that is not a space, compared
        // with the line as they are read: this runs for every frame of the
        // sample, and the row is written out only for a report.
        let kept = row
            .iter()
            .rposition(|c| c.glyph != ' ')
            .map_or(0, |i| i + 1);
        let glyphs = row[..kept].iter().map(|cell| cell.glyph);
        match lines.next() {
            Some(line) if ascii_reads(line, &row[..kept]) || line.chars().eq(glyphs.clone()) => {}
            line => {
                let expected: String = glyphs.collect();
                return Some(violation(
                    Id::ScreenSize,
                    format!(
                        "the frame's text reads {} as its row {y}; the row's cells read {expected:?}",
                        line.map_or("nothing".to_string(), |l| format!("{l:?}"))
                    ),
                ));
            }
        }
    }
    let rows = usize::from(frame.height());
    lines.next().map(|extra| {
        violation(
            Id::ScreenSize,
            format!("the frame's text goes on past its {rows} rows with {extra:?}"),
        )
    })
}

/// Whether `line` is ASCII and reads as `cells`' glyphs, a byte to a
/// cell, in one pass the compiler can vectorise; where not, the line is
/// read as characters.
fn ascii_reads(line: &str, cells: &[Cell]) -> bool {
    line.len() == cells.len()
        && line.bytes().zip(cells).fold(0, |bits, (b, c)| {
            // Zero when the glyph is the byte and the byte is ASCII.
            bits | (u32::from(c.glyph) ^ u32::from(b)) | u32::from(b & 0x80)
        }) == 0
}

fn check_notice(frame: &Frame) -> Option<Violation> {
    let notice = format!("Needs {MIN_FRAME_WIDTH}x{MIN_FRAME_HEIGHT}");
    (0..i32::from(frame.height())).find_map(|y| {
        let row = if y == 0 { notice.as_str() } else { "" };
        let (x, got, expected) = first_difference(frame, y, 0, cells(row, Style::Text))?;
        Some(violation(
            Id::ScreenSize,
            format!(
                "a {}x{} frame, smaller than {MIN_FRAME_WIDTH}x{MIN_FRAME_HEIGHT}, shows {got} at column {x}, row {y}; it shows only {notice:?} in its top row, so there must be {expected}",
                frame.width(),
                frame.height()
            ),
        ))
    })
}

// ---------------------------------------------------------------------------
// The status line.

/// The status line in one of its forms: a head (depth and hit points), the
/// statuses that hold, and the turn, with the gap between them.
struct StatusForm {
    name: &'static str,
    head: String,
    words: Vec<&'static str>,
    turn: Option<String>,
    gap: &'static str,
    /// The whole line, and its length in characters.
    text: String,
    len: usize,
}

impl StatusForm {
    fn new(
        name: &'static str,
        head: String,
        words: Vec<&'static str>,
        turn: Option<String>,
        gap: &'static str,
    ) -> StatusForm {
        let mut text = head.clone();
        for word in words.iter().copied().chain(turn.as_deref()) {
            text.push_str(gap);
            text.push_str(word);
        }
        let len = text.chars().count();
        StatusForm {
            name,
            head,
            words,
            turn,
            gap,
            text,
            len,
        }
    }

    /// The form's cells: the head an alarm when hit points are low, each
    /// status an alarm, the gaps and the turn plain.
    fn cells(&self, low: bool) -> impl Iterator<Item = Cell> + '_ {
        let head_style = if low {
            Style::StatusAlert
        } else {
            Style::Status
        };
        let words = self
            .words
            .iter()
            .flat_map(|word| cells(self.gap, Style::Status).chain(cells(word, Style::StatusAlert)));
        let turn = self
            .turn
            .iter()
            .flat_map(|turn| cells(self.gap, Style::Status).chain(cells(turn, Style::Status)));
        cells(&self.head, head_style).chain(words).chain(turn)
    }
}

/// The forms the status line may take, widest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// `Depth D  HP a/b  Poisoned  Confused  Turn T`
    Full,
    /// `D1 HP9/10 Psn Cnf T12`
    Compact,
    /// The last resort, without the turn: `D1 HP9/10 Psn Cnf`.
    Bare,
}

/// Characters in `n` written out.
fn digits(n: i64) -> usize {
    n.unsigned_abs()
        .checked_ilog10()
        .map_or(1, |d| d as usize + 1)
        + usize::from(n < 0)
}

/// The widest form with the turn whose length fits `width`, else the bare
/// one, reckoned from the lengths of the parts: the head, a gap and a word
/// for each status that holds, a gap and the turn.
fn form_that_fits(state: &GameState, width: usize) -> Form {
    let p = &state.player;
    let numbers =
        digits(i64::from(state.depth)) + digits(i64::from(p.hp)) + 1 + digits(i64::from(p.max_hp));
    let held = usize::from(p.statuses.is_poisoned()) + usize::from(p.statuses.is_confused());
    let turn = digits(i64::try_from(whole_turns(state)).unwrap_or(i64::MAX));
    // "Depth " "  HP " ... "  Poisoned" "  Confused" "  Turn "
    let full = "Depth ".len() + "  HP ".len() + numbers + held * (2 + 8) + "  Turn ".len() + turn;
    // "D" " HP" ... " Psn" " Cnf" " T"
    let compact = "D".len() + " HP".len() + numbers + held * (1 + 3) + " T".len() + turn;
    if full <= width {
        Form::Full
    } else if compact <= width {
        Form::Compact
    } else {
        Form::Bare
    }
}

/// `n` written out, as characters, with nothing allocated.
fn number(n: i64) -> impl Iterator<Item = char> {
    let mut digits = [b'0'; 20];
    let mut len = 0;
    let mut rest = n.unsigned_abs();
    loop {
        digits[len] = b'0' + (rest % 10) as u8;
        len += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let sign = (n < 0).then_some('-');
    sign.into_iter()
        .chain((0..len).rev().map(move |i| char::from(digits[i])))
}

/// The cells of the status line in `form`, as [`StatusForm::cells`] gives
/// them, made one by one: this runs for every frame.
fn status_cells(state: &GameState, form: Form, low: bool) -> impl Iterator<Item = Cell> {
    let p = &state.player;
    let full = form == Form::Full;
    let (depth_label, hp_label, gap, turn_label) = if full {
        ("Depth ", "  HP ", "  ", "Turn ")
    } else {
        ("D", " HP", " ", "T")
    };
    let head_style = if low {
        Style::StatusAlert
    } else {
        Style::Status
    };
    let plain = |text: &'static str, style: Style| text.chars().map(move |c| Cell::new(c, style));
    let digits = |n: i64, style: Style| number(n).map(move |c| Cell::new(c, style));
    let head = plain(depth_label, head_style)
        .chain(digits(i64::from(state.depth), head_style))
        .chain(plain(hp_label, head_style))
        .chain(digits(i64::from(p.hp), head_style))
        .chain(plain("/", head_style))
        .chain(digits(i64::from(p.max_hp), head_style));
    let word = move |held: bool, long: &'static str, short: &'static str| {
        held.then(|| {
            plain(gap, Style::Status)
                .chain(plain(if full { long } else { short }, Style::StatusAlert))
        })
        .into_iter()
        .flatten()
    };
    let turn = i64::try_from(whole_turns(state)).unwrap_or(i64::MAX);
    let tail = (form != Form::Bare)
        .then(|| {
            plain(gap, Style::Status)
                .chain(plain(turn_label, Style::Status))
                .chain(digits(turn, Style::Status))
        })
        .into_iter()
        .flatten();
    head.chain(word(p.statuses.is_poisoned(), "Poisoned", "Psn"))
        .chain(word(p.statuses.is_confused(), "Confused", "Cnf"))
        .chain(tail)
}

/// The status line in `form`.
/// The whole turns on the clock, as the status line shows them: the rule
/// written a second time (a turn is `BASE_ACTION_COST` hundredths), not
/// asked of the clock, so a clock that counts its turns wrong is shown
/// wrong and caught.
fn whole_turns(state: &GameState) -> u64 {
    state.clock.now() / game_core::rules::BASE_ACTION_COST
}

/// A message as the player reads it, the rule written a second time: a
/// line said more than once in a row carries its count, "You miss. (x2)".
fn as_said(message: &game_core::game::state::Message) -> std::borrow::Cow<'_, str> {
    if message.count > 1 {
        format!("{} (x{})", message.text, message.count).into()
    } else {
        message.text.as_str().into()
    }
}

fn status_form(state: &GameState, form: Form) -> StatusForm {
    let p = &state.player;
    let (depth, turn) = (state.depth, whole_turns(state));
    let held = [
        (p.statuses.is_poisoned(), "Poisoned", "Psn"),
        (p.statuses.is_confused(), "Confused", "Cnf"),
    ];
    let words = |long: bool| -> Vec<&'static str> {
        held.iter()
            .filter(|s| s.0)
            .map(|s| if long { s.1 } else { s.2 })
            .collect()
    };
    let compact_head = || format!("D{depth} HP{}/{}", p.hp, p.max_hp);
    match form {
        Form::Full => StatusForm::new(
            "full",
            format!("Depth {depth}  HP {}/{}", p.hp, p.max_hp),
            words(true),
            Some(format!("Turn {turn}")),
            "  ",
        ),
        Form::Compact => StatusForm::new(
            "compact",
            compact_head(),
            words(false),
            Some(format!("T{turn}")),
            " ",
        ),
        Form::Bare => StatusForm::new("bare", compact_head(), words(false), None, " "),
    }
}

/// What a status line says, read back from its text, with the column each
/// part starts at.
#[derive(Default)]
struct StatusRead {
    form: &'static str,
    depth: Option<(u32, usize)>,
    hp: Option<(i32, i32, usize)>,
    poisoned: Option<usize>,
    confused: Option<usize>,
    turn: Option<(u64, usize)>,
    /// A word the line should not hold, and its column.
    stray: Option<(String, usize)>,
}

/// Reads a status line in any of its forms: `Depth D  HP a/b  Poisoned
/// Confused  Turn T` or `D1 HP9/10 Psn Cnf T12` (the turn may be missing).
fn read_status(text: &str) -> StatusRead {
    let words: Vec<(usize, &str)> = {
        let mut out = Vec::new();
        let mut start = None;
        for (i, c) in text.chars().enumerate() {
            match (c == ' ', start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    out.push((s, i));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            out.push((s, text.chars().count()));
        }
        out.into_iter()
            .map(|(s, e)| {
                let from = text.char_indices().nth(s).map_or(text.len(), |(b, _)| b);
                let to = text.char_indices().nth(e).map_or(text.len(), |(b, _)| b);
                (s, &text[from..to])
            })
            .collect()
    };
    let hp_of = |s: &str| {
        let (a, b) = s.split_once('/')?;
        Some((a.parse().ok()?, b.parse().ok()?))
    };
    let mut read = StatusRead::default();
    let mut rest = words.as_slice();
    if let [(c0, "Depth"), (_, d), (_, "HP"), (c3, hp), tail @ ..] = rest {
        read.form = "full";
        read.depth = d.parse().ok().map(|d| (d, *c0));
        read.hp = hp_of(hp).map(|(a, b)| (a, b, *c3));
        rest = tail;
    } else if let [(c0, d), (c1, hp), tail @ ..] = rest
        && let (Some(d), Some(hp)) = (d.strip_prefix('D'), hp.strip_prefix("HP"))
    {
        read.form = "compact";
        read.depth = d.parse().ok().map(|d| (d, *c0));
        read.hp = hp_of(hp).map(|(a, b)| (a, b, *c1));
        rest = tail;
    }
    let mut iter = rest.iter().peekable();
    while let Some(&(col, word)) = iter.next() {
        match word {
            "Poisoned" | "Psn" if read.poisoned.is_none() => read.poisoned = Some(col),
            "Confused" | "Cnf" if read.confused.is_none() => read.confused = Some(col),
            "Turn" => match iter.next().and_then(|(_, t)| t.parse().ok()) {
                Some(t) if read.turn.is_none() => read.turn = Some((t, col)),
                _ => read.stray = read.stray.take().or(Some((word.to_string(), col))),
            },
            _ if read.form == "compact"
                && read.turn.is_none()
                && word
                    .strip_prefix('T')
                    .is_some_and(|t| t.parse::<u64>().is_ok()) =>
            {
                read.turn = word[1..].parse().ok().map(|t| (t, col));
            }
            _ => read.stray = read.stray.take().or(Some((word.to_string(), col))),
        }
    }
    read
}

/// The status line: depth, hit points, the statuses that hold and the turn,
/// in the widest form that fits (the full one, the compact one, the bare one
/// without the turn as the last resort, cut at the frame's edge), the head
/// an alarm at a third of the hit points or less, the statuses alarms.
fn check_status(state: &GameState, frame: &Frame, layout: &Layout) -> Option<Violation> {
    let y = layout.status_row;
    let width = layout.width as usize;
    let form = form_that_fits(state, width);
    let p = &state.player;
    let low = p.hp * 3 <= p.max_hp;
    // Every key: the row against the form's cells, made as they are
    // compared; the words are found only for a report.
    first_difference(frame, y, 0, status_cells(state, form, low))?;
    let chosen = &status_form(state, form);
    let (x, got, expected) = first_difference(frame, y, 0, chosen.cells(low))?;
    let shown = row_text(frame, y);
    let read = read_status(&shown);
    let problem = status_misreports_the_player(state, &read, chosen, y, width, &shown)
        .or_else(|| status_misreports_its_form(state, &read, chosen, y, width, &shown))
        .unwrap_or_else(|| status_misdraws(state, chosen, y, &shown, (x, got, expected), low));
    Some(violation(Id::ScreenStatus, problem))
}

/// What a status line that differs from the state's says wrong of the
/// player, as read back from it (`shown`, row `y`): the depth, the hit
/// points, or a status, where the chosen form has room for the statuses.
fn status_misreports_the_player(
    state: &GameState,
    read: &StatusRead,
    chosen: &StatusForm,
    y: i32,
    width: usize,
    shown: &str,
) -> Option<String> {
    let p = &state.player;
    let place = |col: usize| format!("column {col}, row {y}");
    let problem = if let Some((depth, col)) = read.depth.filter(|d| d.0 != state.depth) {
        format!(
            "the status line shows depth {depth} at {}; the player is on depth {}",
            place(col),
            state.depth
        )
    } else if let Some((hp, max, col)) = read.hp.filter(|h| (h.0, h.1) != (p.hp, p.max_hp)) {
        format!(
            "the status line shows HP {hp}/{max} at {}; the player has {}/{} hit points",
            place(col),
            p.hp,
            p.max_hp
        )
    } else if read.poisoned.is_some() != p.statuses.is_poisoned() && chosen.len <= width {
        match read.poisoned {
            Some(col) => format!(
                "the status line says poisoned at {}; the player is not poisoned",
                place(col)
            ),
            None => format!(
                "the status line, row {y}, does not say the player is poisoned, and they are: {shown:?}"
            ),
        }
    } else if read.confused.is_some() != p.statuses.is_confused() && chosen.len <= width {
        match read.confused {
            Some(col) => format!(
                "the status line says confused at {}; the player is not confused",
                place(col)
            ),
            None => format!(
                "the status line, row {y}, does not say the player is confused, and they are: {shown:?}"
            ),
        }
    } else {
        return None;
    };
    Some(problem)
}

/// What a status line that differs from the state's has wrong in its form,
/// as read back from it (`shown`, row `y`): the turn, a missing turn that
/// fits, a stray word, or a narrower form than fits `width`.
fn status_misreports_its_form(
    state: &GameState,
    read: &StatusRead,
    chosen: &StatusForm,
    y: i32,
    width: usize,
    shown: &str,
) -> Option<String> {
    let place = |col: usize| format!("column {col}, row {y}");
    let problem = if let Some((turn, col)) = read.turn.filter(|t| t.0 != whole_turns(state)) {
        format!(
            "the status line shows turn {turn} at {}; the clock is at turn {}",
            place(col),
            whole_turns(state)
        )
    } else if read.turn.is_none() && chosen.turn.is_some() {
        format!(
            "the status line, row {y}, shows no turn ({shown:?}), but the {} form with the turn ({:?}, {} columns) fits the width {width}",
            chosen.name, chosen.text, chosen.len
        )
    } else if let Some((word, col)) = &read.stray {
        format!(
            "the status line shows {word:?} at {}, which is no part of it; it should read {:?}",
            place(*col),
            chosen.text
        )
    } else if !read.form.is_empty() && read.form != chosen.name && chosen.name != "bare" {
        format!(
            "the status line at width {width} is in the {} form ({shown:?}); the {} form ({:?}, {} columns) fits",
            read.form, chosen.name, chosen.text, chosen.len
        )
    } else {
        return None;
    };
    Some(problem)
}

/// A status line that reads right but differs from the state's at column
/// `x`, where it shows `got` for `expected`: its glyph or its style (the
/// head's alarm when the player is `low`).
fn status_misdraws(
    state: &GameState,
    chosen: &StatusForm,
    y: i32,
    shown: &str,
    (x, got, expected): (i32, Cell, Cell),
    low: bool,
) -> String {
    let p = &state.player;
    let place = |col: usize| format!("column {col}, row {y}");
    if got.glyph == expected.glyph {
        format!(
            "the status line shows {got} at {}, where it draws {expected}{}",
            place(x as usize),
            if low && x < chosen.head.chars().count() as i32 {
                format!(
                    " (the player's {}/{} hit points are a third or less of the most)",
                    p.hp, p.max_hp
                )
            } else {
                String::new()
            }
        )
    } else {
        format!(
            "the status line, row {y}, reads {shown:?} ({got} at column {x}); the state's reads {:?}",
            chosen.text
        )
    }
}

// ---------------------------------------------------------------------------
// The map.

/// The flight path from `from` to `to`: the cells a straight line steps
/// through, one of the eight directions a step, both ends included (the
/// integer line of Bresenham, which throws follow).
fn flight_path(from: Pos, to: Pos) -> Vec<Pos> {
    let (dx, dy) = ((to.x - from.x).abs(), -(to.y - from.y).abs());
    let (sx, sy) = ((to.x - from.x).signum(), (to.y - from.y).signum());
    let mut err = dx + dy;
    let mut here = from;
    let mut cells = vec![here];
    while here != to {
        let twice = 2 * err;
        if twice >= dy {
            err += dy;
            here.x += sx;
        }
        if twice <= dx {
            err += dx;
            here.y += sy;
        }
        cells.push(here);
    }
    cells
}

/// What a tile is, for reports.
fn tile_name(tile: Tile) -> &'static str {
    match tile {
        Tile::Wall => "a wall",
        Tile::Floor => "floor",
        Tile::Door => "a doorway",
        Tile::StairsDown => "stairs down",
        Tile::Exit => "the exit",
    }
}

/// The style a tile in view is drawn in.
fn lit(tile: Tile) -> Style {
    match tile {
        Tile::Wall => Style::Wall,
        Tile::Floor => Style::Floor,
        Tile::Door => Style::Door,
        Tile::StairsDown => Style::Stairs,
        Tile::Exit => Style::Exit,
    }
}

/// The map's rows: the camera on the focus (the player, or the reticle's
/// cursor), centred and held at the map's edges; each cell blank where the
/// ground is unknown or past the map's edge, remembered where it is known
/// but out of view, lit where it is in view; every creature and item in
/// view drawn where it stands (a monster over an item, the player over
/// all), and no creature or item drawn where none is in view; the reticle's
/// flight path and cursor; nothing else but the box of an open screen.
///
/// The scan: every cell of the view against the ground under it (blank
/// where unknown or past the map's edge, else the tile's glyph, lit in
/// view, remembered out of it) and what stands on it. A cell that is not
/// its ground is judged on its own ([`MapView::judge`]), which says what is
/// wrong. Closely (on the sample) every cell is compared so. On every key
/// the rows are first counted: how many cells of each kind of style each
/// row shows against how many the bit layers and the entities in view say
/// it must, a pass over the row that a wrong row fails; only such a row is
/// judged cell by cell.
fn check_map(
    game: &Game,
    frame: &Frame,
    layout: &Layout,
    reticle: Option<Reticle>,
    boxed: Option<Area>,
    closely: bool,
) -> Option<Violation> {
    let view = MapView::new(game, frame, layout, reticle, boxed);
    // The cells over their ground: what stands in view, the reticle, by
    // screen row and column, each once.
    let overlays = if closely { Vec::new() } else { view.overlays() };
    // The common case at once: with no box and the view as wide as the
    // map, the view's rows are one run of the layers, counted together.
    let whole = !closely && boxed.is_none() && view.left == 0 && view.w == view.map.width();
    if whole && view.whole_view_counts_right(&overlays) {
        return view.check_entities();
    }
    let mut overlaid = overlays.iter().peekable();
    for sy in 0..view.rows {
        if !closely && view.row_counts_right(sy, &mut overlaid) {
            continue;
        }
        if let Some(v) = view.judge_row(sy) {
            return Some(v);
        }
    }
    view.check_entities()
}

/// The map's view in a frame: where the camera stands, what is in view and
/// the reticle's path, for [`check_map`].
struct MapView<'a> {
    game: &'a Game,
    state: &'a GameState,
    map: &'a game_core::map::Map,
    frame: &'a Frame,
    /// The view's width and rows, and the map's tile at its top-left.
    w: i32,
    rows: i32,
    left: i32,
    top: i32,
    boxed: Option<Area>,
    player: Pos,
    /// The path of a throw or a use: the cells between the player and the
    /// cursor where no creature stands.
    path: Vec<Pos>,
    cursor: Option<Pos>,
}

impl<'a> MapView<'a> {
    fn new(
        game: &'a Game,
        frame: &'a Frame,
        layout: &Layout,
        reticle: Option<Reticle>,
        boxed: Option<Area>,
    ) -> MapView<'a> {
        let state = game.state();
        let map = &state.floor.map;
        let (w, rows) = (layout.width, layout.map_rows);
        let (mw, mh) = (map.width(), map.height());
        let focus = reticle.map_or(state.player.pos, |r| r.cursor);
        let player = state.player.pos;
        let path = match reticle {
            Some(r) if r.purpose != Purpose::Look => {
                let line = flight_path(player, r.cursor);
                let inner = line.len().saturating_sub(2);
                line.into_iter()
                    .skip(1)
                    .take(inner)
                    .filter(|&p| p != player && !state.monsters.iter().any(|m| m.pos == p))
                    .collect()
            }
            _ => Vec::new(),
        };
        MapView {
            game,
            state,
            map,
            frame,
            w,
            rows,
            left: (focus.x - w / 2).min(mw - w).max(0),
            top: (focus.y - rows / 2).min(mh - rows).max(0),
            boxed,
            player,
            path,
            cursor: reticle.map(|r| r.cursor),
        }
    }

    fn screen_of(&self, p: Pos) -> (i32, i32) {
        (p.x - self.left, p.y - self.top)
    }

    fn in_view(&self, p: Pos) -> bool {
        let (x, y) = self.screen_of(p);
        x >= 0
            && y >= 0
            && x < self.w
            && y < self.rows
            && !self.boxed.is_some_and(|b| b.covers(x, y))
    }

    fn monster_at(&self, p: Pos) -> Option<&'a game_core::game::state::Monster> {
        self.state.monsters.iter().find(|m| m.pos == p)
    }

    fn seen_monster_at(&self, p: Pos) -> Option<&'a game_core::game::state::Monster> {
        self.monster_at(p).filter(|_| self.map.is_visible(p))
    }

    /// The item drawn on a tile in view: the last one put there.
    fn seen_item_at(&self, p: Pos) -> Option<&'a game_core::game::state::FloorItem> {
        self.state
            .items
            .iter()
            .rev()
            .find(|i| i.pos == p)
            .filter(|_| self.map.is_visible(p))
    }

    /// The ground's cell at a map index: blank unless revealed, else the
    /// tile's glyph, lit in view and remembered out of it.
    fn ground(&self, index: usize, revealed: bool) -> Cell {
        if revealed {
            let tile = self.map.tiles()[index];
            let style = if self.map.visible.get(index) {
                lit(tile)
            } else {
                Style::Remembered
            };
            Cell::new(tile.glyph(), style)
        } else {
            Cell::BLANK
        }
    }

    /// Which kind of ground lies under a cell, for the counts.
    fn under(&self, index: usize, inside: bool) -> usize {
        if !inside || !self.map.revealed.get(index) {
            KIND_BLANK
        } else if self.map.visible.get(index) {
            KIND_LIT
        } else {
            KIND_REMEMBERED
        }
    }

    /// The cells over their ground, by screen row and column, each once:
    /// the player, the monsters and items in view, the reticle.
    fn overlays(&self) -> Vec<(i32, i32)> {
        let map = self.map;
        let seen = |p: &&Pos| map.is_visible(**p);
        let standing = std::iter::once(&self.player)
            .chain(self.state.monsters.iter().map(|m| &m.pos).filter(seen))
            .chain(self.state.items.iter().map(|i| &i.pos).filter(seen));
        let mut overlays: Vec<(i32, i32)> = Vec::new();
        for &p in standing.chain(&self.path).chain(&self.cursor) {
            let (x, y) = self.screen_of(p);
            if self.in_view(p) {
                overlays.push((y, x));
            }
        }
        overlays.sort_unstable();
        overlays.dedup();
        overlays
    }

    /// Whether the whole view (no box, as wide as the map) shows as many
    /// cells of each kind as the layers and what stands in view say.
    fn whole_view_counts_right(&self, overlays: &[(i32, i32)]) -> bool {
        let (map, w, rows, top) = (self.map, self.w, self.rows, self.top);
        let (mw, mh) = (map.width(), map.height());
        let in_map = (mh - top).clamp(0, rows);
        let (from, to) = ((top * mw) as usize, ((top + in_map) * mw) as usize);
        let (revealed, visible) = (
            map.revealed.count_in(from, to),
            map.visible.count_in(from, to),
        );
        let mut over = overlays
            .iter()
            .map(|&(sy, sx)| self.under(((top + sy) * mw + sx) as usize, top + sy < mh));
        let want = expected_kinds(
            (w * rows) as u64,
            revealed as u64,
            visible as u64,
            &mut over,
        );
        kinds(&self.frame.cells()[..(w * rows) as usize]) == want
    }

    /// The columns of screen row `sy` a box covers (the box's to check), as
    /// `(from, to)`; `(w, w)` when none.
    fn skipped(&self, sy: i32) -> (i32, i32) {
        match self.boxed {
            Some(b) if sy >= b.top && sy < b.top + b.height => (b.left, b.left + b.width),
            _ => (self.w, self.w),
        }
    }

    /// Columns from the first returned on lie past the map's edge; the
    /// second is the map index of the row's first column.
    fn row_bounds(&self, sy: i32) -> (i32, usize) {
        let y = self.top + sy;
        let (mw, mh) = (self.map.width(), self.map.height());
        let map_cols = if y < mh {
            (mw - self.left).clamp(0, self.w)
        } else {
            0
        };
        (map_cols, (y * mw + self.left).max(0) as usize)
    }

    /// Whether screen row `sy` shows as many cells of each kind as the
    /// layers and what stands over them (the next of `overlaid`) say.
    fn row_counts_right(
        &self,
        sy: i32,
        overlaid: &mut std::iter::Peekable<std::slice::Iter<'_, (i32, i32)>>,
    ) -> bool {
        let w = self.w;
        let (skip_from, skip_to) = self.skipped(sy);
        let (map_cols, row_start) = self.row_bounds(sy);
        let row = &self.frame.cells()[(sy * w) as usize..((sy + 1) * w) as usize];
        let (near, far) = (skip_from.min(map_cols), skip_to.min(map_cols));
        let count = |layer: &game_core::map::BitGrid| {
            let segment = |from: i32, to: i32| {
                layer.count_in(row_start + from as usize, row_start + to as usize)
            };
            (segment(0, near) + segment(far, map_cols)) as u64
        };
        let (revealed, visible) = (count(&self.map.revealed), count(&self.map.visible));
        let cells_checked = (skip_from.min(w) + (w - skip_to.min(w))) as u64;
        let mut over = std::iter::from_fn(|| {
            let &(_, x) = overlaid.next_if(|o| o.0 == sy)?;
            Some(self.under(row_start + x as usize, x < map_cols))
        });
        let packed = expected_kinds(cells_checked, revealed, visible, &mut over);
        let shown = kinds(&row[..skip_from.min(w) as usize])
            .wrapping_add(kinds(&row[skip_to.min(w) as usize..]));
        shown == packed
    }

    /// Screen row `sy` cell by cell: the first cell that is not its ground
    /// and not what stands there, reported.
    fn judge_row(&self, sy: i32) -> Option<Violation> {
        let w = self.w;
        let (skip_from, skip_to) = self.skipped(sy);
        let (map_cols, row_start) = self.row_bounds(sy);
        let row = &self.frame.cells()[(sy * w) as usize..((sy + 1) * w) as usize];
        let report = |sx: i32, inside: bool| {
            let problem = self.judge(sx, sy, row_start + sx as usize, inside)?;
            Some(violation(
                Id::ScreenMap,
                format!(
                    "the frame shows {} at column {sx}, row {sy} (the map's {}); {problem}",
                    at(self.frame, sx, sy),
                    Pos::new(self.left + sx, self.top + sy)
                ),
            ))
        };
        // Each stretch beside the box, left to right: its cells over the
        // map against their ground, then those past the map's edge, whose
        // ground is blank, in plain loops (this runs for every cell of
        // every frame of the sample).
        for (from, to) in [(0, skip_from), (skip_to, w)] {
            let edge = map_cols.clamp(from, to.max(from));
            for sx in from..edge {
                let index = row_start + sx as usize;
                if row[sx as usize] != self.ground(index, self.map.revealed.get(index))
                    && let Some(v) = report(sx, true)
                {
                    return Some(v);
                }
            }
            for sx in edge..to {
                if !is_blank(row[sx as usize])
                    && let Some(v) = report(sx, false)
                {
                    return Some(v);
                }
            }
        }
        None
    }

    /// Why the cell at (sx, sy), which is not its ground, is wrong; `None`
    /// when it is what stands there or the reticle.
    fn judge(&self, sx: i32, sy: i32, index: usize, inside: bool) -> Option<String> {
        let (map, content, player) = (self.map, self.game.content(), self.player);
        let tiles = map.tiles();
        let cell = at(self.frame, sx, sy);
        let here = Pos::new(self.left + sx, self.top + sy);
        let revealed = inside && map.revealed.get(index);
        let visible = revealed && map.visible.get(index);
        match cell.style {
            Style::Blank if !revealed => Some("a blank is drawn as a space".to_string()),
            Style::Blank => Some(format!(
                "it is revealed {}, so it cannot be blank",
                tile_name(tiles[index])
            )),
            Style::Remembered if visible => {
                Some("it is in view, not only remembered".to_string())
            }
            Style::Remembered
            | Style::Wall
            | Style::Floor
            | Style::Door
            | Style::Stairs
            | Style::Exit => Some(if !inside {
                "that is past the map's edge".to_string()
            } else if !revealed {
                "that ground has not been seen".to_string()
            } else if cell.style == Style::Remembered {
                format!("what is remembered there is {}", tile_name(tiles[index]))
            } else if !visible {
                "it is out of view, only remembered".to_string()
            } else {
                format!("what is there in view is {}", tile_name(tiles[index]))
            }),
            Style::Player => (here != player || cell.glyph != '@')
                .then(|| format!("the player is '@' at {player}")),
            Style::Monster => match self.seen_monster_at(here) {
                Some(m) if content.monster(m.kind).glyph == cell.glyph => None,
                Some(m) => Some(format!(
                    "the monster there, a {}, is drawn as {:?}",
                    content.monster(m.kind).name,
                    content.monster(m.kind).glyph
                )),
                None => Some("no monster there is in view".to_string()),
            },
            Style::Item => match self.seen_item_at(here) {
                _ if here == player || self.monster_at(here).is_some() => {
                    Some("a creature stands on that tile, over what lies there".to_string())
                }
                Some(item) if content.item(item.item).glyph == cell.glyph => None,
                Some(item) => Some(format!(
                    "the item there, {}, is drawn as {:?}",
                    content.item(item.item).describe(item.count),
                    content.item(item.item).glyph
                )),
                None => Some("no item there is in view".to_string()),
            },
            Style::Reticle if Some(here) == self.cursor || self.path.contains(&here) => None,
            Style::Reticle => Some(match self.cursor {
                Some(c) => format!(
                    "the reticle's cursor is at {c} and its path does not cross there"
                ),
                None => "no reticle is open".to_string(),
            }),
            _ => Some(
                "only the map, what stands on it and a reticle are drawn above the status line outside a screen's box"
                    .to_string(),
            ),
        }
    }

    /// What stands on a tile in view, drawn.
    fn wanted(&self, p: Pos) -> Option<Cell> {
        let content = self.game.content();
        if p == self.player {
            Some(Cell::new('@', Style::Player))
        } else if let Some(m) = self.seen_monster_at(p) {
            Some(Cell::new(content.monster(m.kind).glyph, Style::Monster))
        } else {
            self.seen_item_at(p)
                .map(|item| Cell::new(content.item(item.item).glyph, Style::Item))
        }
    }

    /// What stands on a tile, in words: only for a report, as the check runs
    /// for every creature and item on every key.
    fn what_stands(&self, p: Pos) -> String {
        let content = self.game.content();
        if p == self.player {
            "the player stands".to_string()
        } else if let Some(m) = self.seen_monster_at(p) {
            let def = content.monster(m.kind);
            format!("monster {} (a {}) stands in view", m.id.0, def.name)
        } else if let Some(item) = self.seen_item_at(p) {
            let def = content.item(item.item);
            format!("{} lies in view", def.describe(item.count))
        } else {
            "nothing stands".to_string()
        }
    }

    /// `want` at `p`'s cell when `p` is in view; `what` says what is there.
    fn check_cell(&self, p: Pos, want: Cell, what: &dyn Fn() -> String) -> Option<Violation> {
        if !self.in_view(p) {
            return None;
        }
        let (x, y) = self.screen_of(p);
        (at(self.frame, x, y) != want).then(|| {
            violation(
                Id::ScreenMap,
                format!(
                    "the frame shows {} at column {x}, row {y}, where {} at {p}: it must show {want}",
                    at(self.frame, x, y),
                    what()
                ),
            )
        })
    }

    /// And the other way round: everything in view is drawn where it
    /// stands, with the reticle over all of it.
    fn check_entities(&self) -> Option<Violation> {
        let others = self.state.monsters.iter().map(|m| m.pos);
        let items = self.state.items.iter().map(|i| i.pos);
        for p in std::iter::once(self.player).chain(others).chain(items) {
            if Some(p) == self.cursor || self.path.contains(&p) {
                continue;
            }
            if let Some(want) = self.wanted(p)
                && let Some(v) = self.check_cell(p, want, &|| self.what_stands(p))
            {
                return Some(v);
            }
        }
        for &p in &self.path {
            let what = || "the reticle's flight path passes".to_string();
            if let Some(v) = self.check_cell(p, Cell::new('*', Style::Reticle), &what) {
                return Some(v);
            }
        }
        if let Some(c) = self.cursor {
            // The cursor keeps what is under it, restyled; unknown ground
            // shows as `_`, so the cursor is never invisible.
            let under = match self.wanted(c) {
                Some(cell) => cell.glyph,
                None if self.map.is_revealed(c) => self.map.tile(c).glyph(),
                None => '_',
            };
            let what = || format!("the reticle's cursor is (over {})", self.what_stands(c));
            if let Some(v) = self.check_cell(c, Cell::new(under, Style::Reticle), &what) {
                return Some(v);
            }
        }
        None
    }
}

/// How many cells of each kind a stretch must show, packed as [`kinds`]
/// packs them: its cells, `revealed` and `visible` of them, and what stands
/// over ground of each kind. Wrapping: a count the state gets wrong (a
/// visible cell not revealed, which fov.revealed_covers_visible reports)
/// sends the rows to the judge, which is the authority.
fn expected_kinds(
    cells: u64,
    revealed: u64,
    visible: u64,
    over: &mut dyn Iterator<Item = usize>,
) -> u64 {
    let mut want = [
        cells.wrapping_sub(revealed),
        revealed.wrapping_sub(visible),
        visible,
        0,
        0,
    ];
    for kind in over {
        want[kind] = want[kind].wrapping_sub(1);
        want[KIND_OVER] += 1;
    }
    want.iter().enumerate().fold(0u64, |acc, (kind, &n)| {
        acc.wrapping_add(n << (KIND_BITS * kind))
    })
}

// ---------------------------------------------------------------------------
// Boxes: the screens drawn over the map, and the end of a run.

/// A box before it is laid out: its title and key/text rows, the row the
/// screen is scrolled to, and what its bottom border must say (when it is
/// the screen's own choice, `None`: the footer is read from the frame).
struct BoxSpec {
    title: String,
    rows: Vec<(String, String)>,
    first: usize,
    footer: Option<&'static str>,
}

/// Where a box stands on the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Area {
    left: i32,
    top: i32,
    width: i32,
    height: i32,
}

impl Area {
    fn covers(&self, x: i32, y: i32) -> bool {
        x >= self.left && x < self.left + self.width && y >= self.top && y < self.top + self.height
    }
}

/// A box laid out on a frame: where it stands and the cells it must show.
struct LaidBox {
    left: i32,
    top: i32,
    width: i32,
    height: i32,
    /// The cells, row by row.
    cells: Vec<Cell>,
    /// Its inner rows, and the key column's width, to write a row out for
    /// a report (only then: the box is laid out on every sampled frame).
    window: Vec<Line>,
    key_width: usize,
    /// What the box is of: "the rows from row 3 on".
    scrolled_to: usize,
    total_lines: usize,
}

impl LaidBox {
    /// Inner row `line` as it reads: a key, " - " and its text, or text.
    fn line_text(&self, line: usize) -> String {
        let key_width = self.key_width;
        self.window.get(line).map_or_else(String::new, |(k, t)| {
            if k.is_empty() {
                t.clone()
            } else {
                format!("{k:key_width$} - {t}")
            }
        })
    }

    fn area(&self) -> Area {
        Area {
            left: self.left,
            top: self.top,
            width: self.width,
            height: self.height,
        }
    }
}

/// One line of a box: a key (drawn in the key column) and text.
type Line = (String, String);

impl BoxSpec {
    /// The rows wrapped to the box's inside, each line with the index of
    /// the row it came from: text beside its key, or under it (indented)
    /// when `stacked`.
    fn wrapped(&self, inner: usize, key_width: usize, stacked: bool) -> Vec<(usize, Line)> {
        let mut lines: Vec<(usize, Line)> = Vec::new();
        for (origin, (key, text)) in self.rows.iter().enumerate() {
            if stacked {
                for part in wrap_words(key, inner) {
                    lines.push((origin, (String::new(), part)));
                }
                for part in wrap_words(text, inner.saturating_sub(2).max(1)) {
                    lines.push((origin, (String::new(), format!("  {part}"))));
                }
                continue;
            }
            let indent = if key.is_empty() { 0 } else { key_width + 3 };
            let body = text.trim_start();
            let lead = " ".repeat(text.len() - body.len());
            let parts = wrap_words(body, inner.saturating_sub(indent + lead.len()).max(1));
            if parts.is_empty() {
                lines.push((origin, (key.clone(), String::new())));
            }
            for (i, part) in parts.into_iter().enumerate() {
                let (key, under) = if i == 0 {
                    (key.clone(), String::new())
                } else {
                    (String::new(), " ".repeat(indent))
                };
                // A part with nothing before it is the line as it is.
                let line = if under.is_empty() && lead.is_empty() {
                    part
                } else {
                    format!("{under}{lead}{part}")
                };
                lines.push((origin, (key, line)));
            }
        }
        lines
    }

    /// The box's cells, `width` by `height`: its border, its title, the
    /// lines of `window` (a key, " - " and its text, or text alone) and the
    /// footer on the bottom border.
    fn draw_cells(
        &self,
        (box_width, height): (i32, i32),
        key_width: usize,
        window: &[Line],
        footer: &str,
    ) -> Vec<Cell> {
        let right = box_width - 1;
        let mut cells = vec![Cell::new(' ', Style::Text); (box_width * height).max(0) as usize];
        // The border a row at a time: the top and bottom rows `-` between
        // `+` corners, the others `|` at each side (a box is laid out on
        // every frame of the sample, at many sizes).
        if box_width > 0 {
            let last = (height - 1) as usize;
            for (y, row) in cells.chunks_exact_mut(box_width as usize).enumerate() {
                let (end, side) = if y == 0 || y == last {
                    row.fill(Cell::new('-', Style::Border));
                    ('+', '+')
                } else {
                    ('|', '|')
                };
                row[0] = Cell::new(end, Style::Border);
                row[right as usize] = Cell::new(side, Style::Border);
            }
        }
        // Text from column 2 stops short of the right border.
        let mut write = |x: i32, y: i32, text: &str, style: Style| {
            if box_width <= 0 || !(0..height).contains(&y) {
                return;
            }
            let row = &mut cells[(y * box_width) as usize..((y + 1) * box_width) as usize];
            for (col, c) in (x..right).zip(text.chars()) {
                if col >= 0 {
                    row[col as usize] = Cell::new(c, style);
                }
            }
        };
        let title = format!(
            " {} ",
            cut_to_width(&self.title, (box_width - 5).max(0) as usize)
        );
        write(2, 0, &title, Style::Title);
        let shown = (height - 2).max(0) as usize;
        for (i, (key, text)) in window.iter().take(shown).enumerate() {
            let y = 1 + i as i32;
            if key.is_empty() {
                write(2, y, text, Style::Text);
            } else {
                write(2, y, key, Style::Key);
                let x = 2 + key_width as i32;
                write(x, y, " - ", Style::Text);
                write(x + 3, y, text, Style::Text);
            }
        }
        if !footer.is_empty() && height >= 2 {
            write(2, height - 1, &format!(" {footer} "), Style::Hint);
        }
        cells
    }

    /// The box's lines, its size and place, by the rules of a box: the rows
    /// inside borders and a space of padding each side, the text beside its
    /// key (the key column as wide as the widest key, then " - ") or, when
    /// that would leave the text less than half the room, under its key
    /// indented by two; long text wrapped, continuation lines under the
    /// text; as many lines as the map's rows hold, scrolled to the first
    /// line of row `first`, with the lines above and below counted; the box
    /// as wide as its widest line, its title and its footer need, at most
    /// the frame; centred over the map's rows.
    fn lay_out(&self, frame: &Frame, width: i32, map_rows: i32) -> LaidBox {
        let inner = (width - 4).max(1) as usize;
        let widest_key = self
            .rows
            .iter()
            .map(|(k, _)| k.chars().count())
            .max()
            .unwrap_or(0);
        let stacked = widest_key > 0 && widest_key + 3 > inner / 2;
        let key_width = if stacked { 0 } else { widest_key };
        let lines = self.wrapped(inner, key_width, stacked);
        let total = lines.len();
        let first_line = lines
            .iter()
            .position(|(origin, _)| *origin >= self.first)
            .unwrap_or(total);
        let fits = ((total as i32 + 2).min(map_rows) - 2).max(0) as usize;
        let (window, scrolled_to) = window(
            lines.into_iter().map(|(_, line)| line).collect(),
            first_line,
            fits,
        );
        let height = (window.len() as i32 + 2).min(map_rows);
        let top = ((map_rows - height) / 2).max(0);
        let bottom = top + height - 1;
        let footer = self.footer_on(frame, width, bottom);
        let text_width = self.text_width(&window, key_width, &footer);
        let box_width = (text_width + 4).min(width);
        let left = (width - box_width) / 2;
        let cells = self.draw_cells((box_width, height), key_width, &window, &footer);
        LaidBox {
            left,
            top,
            width: box_width,
            height,
            cells,
            window,
            key_width,
            scrolled_to,
            total_lines: total,
        }
    }

    /// The footer: the screen's own when it is fixed, else what the bottom
    /// border (row `bottom` of a frame `width` wide) shows in hint cells
    /// (its text between one space each side).
    fn footer_on(&self, frame: &Frame, width: i32, bottom: i32) -> String {
        match self.footer {
            Some(f) => f.to_string(),
            None => {
                let hint: String = (0..width)
                    .map(|x| at(frame, x, bottom))
                    .filter(|c| c.style == Style::Hint)
                    .map(|c| c.glyph)
                    .collect();
                hint.trim().to_string()
            }
        }
    }

    /// The width the box's text needs: its widest line of `window`, its
    /// title's and its footer's, each with room to stand clear of the
    /// border.
    fn text_width(&self, window: &[Line], key_width: usize, footer: &str) -> i32 {
        window
            .iter()
            .map(|(k, t)| {
                if k.is_empty() {
                    t.chars().count()
                } else {
                    key_width + 3 + t.chars().count()
                }
            })
            .max()
            .unwrap_or(0)
            .max(self.title.chars().count() + 4)
            .max(if footer.is_empty() {
                0
            } else {
                footer.chars().count() + 4
            }) as i32
    }
}

/// The lines a box with room for `fits` of them shows, from line `start`:
/// all when they fit; else the lines from `start` (or, when that would
/// leave room empty at the bottom, the last lines that fill the box), a
/// line counting those above when there are some and room for a line
/// besides, and one counting those below when there are some. Returns the
/// window and the first line it shows.
fn window(lines: Vec<Line>, start: usize, fits: usize) -> (Vec<Line>, usize) {
    let total = lines.len();
    if total <= fits || fits == 0 {
        return (lines, 0);
    }
    let mark = |text: String| (String::new(), text);
    let above = |n: usize| mark(format!("({n} {} above)", lines_word(n)));
    let below = |n: usize| mark(format!("({n} more {})", lines_word(n)));
    if start == 0 || fits == 1 {
        let kept = fits - 1;
        let mut out: Vec<Line> = lines.into_iter().take(kept).collect();
        out.push(below(total - kept));
        return (out, 0);
    }
    // Room for lines besides the mark above; a start too far down moves up
    // to the last window that fills the box.
    let start = start.min(total - (fits - 1));
    if start + (fits - 1) >= total {
        let mut out = vec![above(start)];
        out.extend(lines.into_iter().skip(start));
        return (out, start);
    }
    // Lines above and below: both counts when there is a row between them,
    // else the line and what is below.
    let between = fits - 2;
    let mut out = Vec::new();
    if between > 0 {
        out.push(above(start));
    }
    let between = between.max(1);
    out.extend(lines.iter().skip(start).take(between).cloned());
    out.push(below(total - start - between));
    (out, start)
}

/// The title of the box the screen on top draws: `None` for the reticle
/// (it draws on the map) and for an item menu whose slot is empty (nothing
/// to show).
fn box_title(game: &Game, screen: &Screen) -> Option<String> {
    let content = game.content();
    Some(match screen {
        Screen::Reticle(_) => return None,
        Screen::Pack(mode) => mode.title().to_string(),
        Screen::ItemMenu { slot } => {
            let stack = game.state().player.pack.get(*slot)?;
            capitalised(&content.item(stack.item).describe(stack.count))
        }
        Screen::Help { .. } => "Help".to_string(),
        Screen::History { .. } => "Messages, newest first".to_string(),
        Screen::QuitPrompt => "Quit".to_string(),
    })
}

/// The box of the screen on top, as the rules for each screen say what it
/// lists: the pack's admitted slots by letter with what each holds, an
/// item's actions and description, the help's rows, the log's messages
/// newest first, the quit question.
fn box_rows(game: &Game, screen: &Screen, title: String) -> BoxSpec {
    let state = game.state();
    let (rows, first) = match screen {
        Screen::Reticle(_) => (Vec::new(), 0),
        Screen::Pack(mode) => (pack_rows(game, *mode), 0),
        Screen::ItemMenu { slot } => (item_menu_rows(game, *slot), 0),
        Screen::Help { top } => (
            HELP.iter()
                .map(|(k, t)| ((*k).to_string(), (*t).to_string()))
                .collect(),
            usize::from(*top),
        ),
        Screen::History { top } => {
            let log = state.log.messages();
            let rows = if log.is_empty() {
                vec![(String::new(), "Nothing has been said yet.".to_string())]
            } else {
                log.iter()
                    .rev()
                    .map(|m| (String::new(), as_said(m).into_owned()))
                    .collect()
            };
            (rows, usize::from(*top))
        }
        Screen::QuitPrompt => (
            vec![(String::new(), "Really leave the Undercroft?".to_string())],
            0,
        ),
    };
    BoxSpec {
        title,
        rows,
        first,
        footer: None,
    }
}

/// The pack opened to `mode`: the slots it admits by letter, with what
/// each holds and whether it is wielded or worn.
fn pack_rows(game: &Game, mode: PackMode) -> Vec<Line> {
    let state = game.state();
    let content = game.content();
    state
        .player
        .pack
        .slots()
        .filter(|(_, stack)| {
            // What each mode admits: any item to browse, drop or use;
            // missiles to throw; equipment to wear.
            let effect = &content.item(stack.item).effect;
            match mode {
                PackMode::Browse | PackMode::Drop | PackMode::Apply => true,
                PackMode::Throw => matches!(effect, ItemEffect::Thrown { .. }),
                PackMode::Wear => effect.is_equipment(),
            }
        })
        .map(|(slot, stack)| {
            let mut text = content.item(stack.item).describe(stack.count);
            if state.player.wielded == Some(slot) {
                text.push_str(" (wielded)");
            }
            if state.player.worn == Some(slot) {
                text.push_str(" (worn)");
            }
            (slot_letter(slot).to_string(), text)
        })
        .collect()
}

/// The item menu of pack slot `slot`: the actions the item admits, a blank
/// row, and its description; nothing for an empty slot.
fn item_menu_rows(game: &Game, slot: u8) -> Vec<Line> {
    let content = game.content();
    let mut rows: Vec<(String, String)> = Vec::new();
    if let Some(stack) = game.state().player.pack.get(slot) {
        let def = content.item(stack.item);
        rows.push(("a".into(), "use".into()));
        rows.push(("d".into(), "drop".into()));
        if matches!(def.effect, ItemEffect::Thrown { .. }) {
            rows.push(("t".into(), "throw".into()));
        }
        if def.effect.is_equipment() {
            rows.push(("w".into(), "wear or wield".into()));
        }
        rows.push((String::new(), String::new()));
        // The description in lines of at most 40, as the menu sets it.
        for line in wrap_words(&def.description, 40) {
            rows.push((String::new(), line));
        }
    }
    rows
}

/// The box of an open screen as found on the frame, on every key: the
/// first border cell of the map's rows is its top-left corner, from which
/// its border runs whole (corners `+`, edges `-` and `|`, the title and the
/// footer set in the top and bottom edges) inside the map's rows; it is
/// centred over them; its title is `title`, cut with `...` to fit.
fn find_box(
    frame: &Frame,
    layout: &Layout,
    title: &str,
    what: &dyn Fn() -> String,
) -> Result<Area, Violation> {
    let (w, rows) = (layout.width, layout.map_rows);
    let fail = |message: String| violation(Id::ScreenBox, format!("{}: {message}", what()));
    let (left, top) = box_corner(frame, layout).map_err(fail)?;
    let (right, bottom) = box_far_corners(frame, layout, (left, top)).map_err(fail)?;
    if let Some((x, y)) = border_break(frame, w, (left, top), (right, bottom)) {
        return Err(fail(format!(
            "the border of the box from column {left}, row {top} to column {right}, row {bottom} is broken at column {x}, row {y} by {}",
            at(frame, x, y)
        )));
    }
    let area = Area {
        left,
        top,
        width: right - left + 1,
        height: bottom - top + 1,
    };
    let centred = ((w - area.width) / 2, ((rows - area.height) / 2).max(0));
    if (left, top) != centred {
        return Err(fail(format!(
            "the {}x{} box stands at column {left}, row {top}; centred over the {w}x{rows} map rows it stands at column {}, row {}",
            area.width, area.height, centred.0, centred.1
        )));
    }
    if let Some(problem) = title_problem(frame, w, &area, title) {
        return Err(fail(problem));
    }
    Ok(area)
}

/// Row `y` of a frame `w` wide.
fn frame_row(frame: &Frame, w: i32, y: i32) -> &[Cell] {
    &frame.cells()[(y * w) as usize..((y + 1) * w) as usize]
}

/// A box's top-left corner: the first border cell of the map's rows, which
/// must be a corner.
fn box_corner(frame: &Frame, layout: &Layout) -> Result<(i32, i32), String> {
    let (w, rows) = (layout.width, layout.map_rows);
    let corner = Cell::new('+', Style::Border);
    let map_cells = &frame.cells()[..(rows * w) as usize];
    let first = map_cells.iter().position(|c| c.style == Style::Border);
    let Some((left, top)) = first.map(|i| (i as i32 % w, i as i32 / w)) else {
        return Err("no box is drawn over the map's rows".to_string());
    };
    if at(frame, left, top) != corner {
        return Err(format!(
            "the box's first border cell, at column {left}, row {top}, is {}, not its corner, {corner}",
            at(frame, left, top)
        ));
    }
    Ok((left, top))
}

/// The right column and bottom row of the box whose top-left corner is at
/// (`left`, `top`): its top edge runs, through its title, to the last
/// corner on it; its left edge down to its bottom-left corner, inside the
/// map's rows.
fn box_far_corners(
    frame: &Frame,
    layout: &Layout,
    (left, top): (i32, i32),
) -> Result<(i32, i32), String> {
    let (w, rows) = (layout.width, layout.map_rows);
    let corner = Cell::new('+', Style::Border);
    let right = frame_row(frame, w, top)[left as usize..]
        .iter()
        .take_while(|c| matches!(c.style, Style::Border | Style::Title))
        .enumerate()
        .filter(|&(_, &c)| c == corner)
        .last()
        .map_or(left, |(i, _)| left + i as i32);
    let side = Cell::new('|', Style::Border);
    let bottom = (top + 1..rows)
        .find(|&y| at(frame, left, y) != side)
        .unwrap_or(rows);
    if right == left || bottom >= rows || at(frame, left, bottom) != corner {
        return Err(format!(
            "the box from its corner at column {left}, row {top} has no {} corner inside the map's {rows} rows",
            if right == left {
                "top-right"
            } else {
                "bottom-left"
            }
        ));
    }
    Ok((right, bottom))
}

/// Where the border of the box from (`left`, `top`) to (`right`,
/// `bottom`) is broken, if it is: its right edge `|`, its top and bottom
/// edges `-` (or a title or footer set in them), its bottom-right corner.
fn border_break(
    frame: &Frame,
    w: i32,
    (left, top): (i32, i32),
    (right, bottom): (i32, i32),
) -> Option<(i32, i32)> {
    let corner = Cell::new('+', Style::Border);
    let side = Cell::new('|', Style::Border);
    // Edges of `glyph`, or a title or footer set in them.
    let edge = |cells: &[Cell], glyph: char, set_in: Style| {
        cells
            .iter()
            .position(|&c| c != Cell::new(glyph, Style::Border) && c.style != set_in)
    };
    let inner = (left + 1) as usize..right as usize;
    (top + 1..bottom)
        .find(|&y| at(frame, right, y) != side)
        .map(|y| (right, y))
        .or_else(|| {
            edge(&frame_row(frame, w, top)[inner.clone()], '-', Style::Title)
                .map(|i| (left + 1 + i as i32, top))
        })
        .or_else(|| {
            edge(&frame_row(frame, w, bottom)[inner], '-', Style::Hint)
                .map(|i| (left + 1 + i as i32, bottom))
        })
        .or((at(frame, right, bottom) != corner).then_some((right, bottom)))
}

/// The box's title: " title " from two columns in on its top edge, cut
/// with `...` to fit; what is wrong with it, if anything.
fn title_problem(frame: &Frame, w: i32, area: &Area, title: &str) -> Option<String> {
    let room = (area.width - 5).max(0) as usize;
    let length = title.chars().count();
    let kept = if length <= room {
        length
    } else {
        room.saturating_sub(3)
    };
    let dots = if length <= room { 0 } else { room.min(3) };
    let want = std::iter::once(' ')
        .chain(title.chars().take(kept))
        .chain(std::iter::repeat_n('.', dots))
        .chain(std::iter::once(' '));
    let (left, top, right) = (area.left, area.top, area.left + area.width - 1);
    let top_row = &frame.cells()[(top * w) as usize..((top + 1) * w) as usize];
    let shown = top_row[(left + 2) as usize..right as usize]
        .iter()
        .take_while(|c| c.style == Style::Title)
        .map(|c| c.glyph);
    (!shown.clone().eq(want)).then(|| {
        format!(
            "the box's title, from column {}, row {top}, reads {:?}, not {:?}",
            left + 2,
            shown.collect::<String>(),
            format!(" {} ", cut_to_width(title, room))
        )
    })
}

/// The frame's cells of the box against the box laid out by the rules.
/// `what` names the screen, for a report.
fn check_box(
    frame: &Frame,
    laid: &LaidBox,
    id: Id,
    what: &dyn Fn() -> String,
) -> Option<Violation> {
    let (w, h) = (i32::from(frame.width()), i32::from(frame.height()));
    if laid.left < 0 || laid.top < 0 || laid.left + laid.width > w || laid.top + laid.height > h {
        return Some(violation(
            id,
            format!(
                "{}: its box, {}x{} at column {}, row {}, does not fit the {w}x{h} frame",
                what(),
                laid.width,
                laid.height,
                laid.left,
                laid.top
            ),
        ));
    }
    // A row of the box at a time, against the frame's row beside it.
    let width = laid.width.max(0) as usize;
    for dy in 0..laid.height {
        let y = laid.top + dy;
        let wanted = &laid.cells[dy as usize * width..(dy as usize + 1) * width];
        let start = (y * w + laid.left) as usize;
        let shown = &frame.cells()[start..start + width];
        if let Some(dx) = shown.iter().zip(wanted).position(|(got, want)| got != want) {
            let (got, want, dx) = (shown[dx], wanted[dx], dx as i32);
            let x = laid.left + dx;
            let part = if dy == 0 {
                "its top border, with the title".to_string()
            } else if dy == laid.height - 1 {
                "its bottom border, with the footer".to_string()
            } else if dx == 0 || dx == laid.width - 1 {
                "its side".to_string()
            } else {
                let line = (dy - 1) as usize;
                format!(
                    "its line {} of {} shown ({} in all, scrolled to line {}) reads {:?}",
                    line + 1,
                    laid.window.len(),
                    laid.total_lines,
                    laid.scrolled_to,
                    laid.line_text(line)
                )
            };
            return Some(violation(
                id,
                format!(
                    "{}: its box shows {got} at column {x}, row {y}; the box ({}x{} at column {}, row {}) must show {want} there: {part}",
                    what(),
                    laid.width,
                    laid.height,
                    laid.left,
                    laid.top
                ),
            ));
        }
    }
    None
}

/// How the run ended, where and when, for reports on its box.
fn how_it_ended(state: &GameState) -> String {
    match &state.status {
        RunStatus::Playing => "the run goes on".to_string(),
        RunStatus::Died(death) => format!(
            "the player {} on depth {} at turn {} with {} kills",
            death.cause, death.depth, death.turn, state.kills
        ),
        RunStatus::Won { turn } => format!(
            "the player escaped at turn {turn} with {} kills",
            state.kills
        ),
        RunStatus::Quit { turn } => {
            format!("the player left on depth {} at turn {turn}", state.depth)
        }
    }
}

/// The title and lines of the box at the end of a run: how it ended, where
/// and when, and the kills; `None` while it goes on.
fn ending_lines(state: &GameState) -> Option<(&'static str, Vec<String>)> {
    let kills = format!("Kills: {}", state.kills);
    Some(match &state.status {
        RunStatus::Playing => return None,
        RunStatus::Died(death) => (
            "Tombstone",
            vec![
                "REST IN PEACE".into(),
                String::new(),
                capitalised(&death.cause),
                format!("on depth {} at turn {}.", death.depth, death.turn),
                String::new(),
                kills,
            ],
        ),
        RunStatus::Won { turn } => (
            "Victory",
            vec![
                "YOU ESCAPED".into(),
                String::new(),
                "You climbed out of the Undercroft".into(),
                format!("at turn {turn}."),
                String::new(),
                kills,
            ],
        ),
        RunStatus::Quit { turn } => (
            "Farewell",
            vec![
                "You left the Undercroft".into(),
                format!("on depth {} at turn {turn}.", state.depth),
            ],
        ),
    })
}

/// The end of a run: its box, centred on an otherwise blank frame, says how
/// the run ended, where and when, and the kills, with "the run is over" in
/// its bottom border; spacing lines go first when the frame is too short.
fn check_ending(game: &Game, frame: &Frame) -> Option<Violation> {
    let state = game.state();
    let (w, h) = (i32::from(frame.width()), i32::from(frame.height()));
    let (title, lines) = ending_lines(state)?;
    let mut wrapped: Vec<String> = Vec::new();
    for line in &lines {
        if line.is_empty() {
            wrapped.push(String::new());
        } else {
            wrapped.extend(wrap_words(line, (w - 4).max(1) as usize));
        }
    }
    if wrapped.len() as i32 + 2 > h {
        wrapped.retain(|l| !l.is_empty());
    }
    let spec = BoxSpec {
        title: title.to_string(),
        rows: wrapped.into_iter().map(|l| (String::new(), l)).collect(),
        first: 0,
        footer: Some("the run is over"),
    };
    let laid = spec.lay_out(frame, w, h);
    // What the box is of, in words: only for a report.
    let what = || format!("the {} ({})", title.to_lowercase(), how_it_ended(state));
    if let Some(v) = check_box(frame, &laid, Id::ScreenEnding, &what) {
        return Some(v);
    }
    // Outside the box, row by row: a row's stretches either side of the
    // box (the whole row above and below it) each tested blank in one
    // pass, as this runs for every size an ending is drawn at. The box
    // fits the frame (check_box said so).
    let area = laid.area();
    let (left, right) = (area.left.clamp(0, w), (area.left + area.width).clamp(0, w));
    (0..h).find_map(|y| {
        let row = &frame.cells()[(y * w) as usize..((y + 1) * w) as usize];
        let beside = (area.top..area.top + area.height).contains(&y);
        let x = if beside {
            first_drawn(&row[..left as usize])
                .or_else(|| first_drawn(&row[right as usize..]).map(|i| i + right as usize))
        } else {
            first_drawn(row)
        }? as i32;
        let got = row[x as usize];
        Some(violation(
            Id::ScreenEnding,
            format!(
                "the frame shows {got} at column {x}, row {y}, outside the box of {} ({}x{} at column {}, row {}); the end of a run is drawn on a blank frame",
                what(), laid.width, laid.height, laid.left, laid.top
            ),
        ))
    })
}

// ---------------------------------------------------------------------------
// The message rows.

/// The lines `text` wraps into at `width` (as [`wrap_words`] wraps it), as
/// byte spans of `text` from a word's start to a word's end, the first
/// `spans.len()` of them: how many were written, and whether more follow.
/// It runs for every message row of every frame, so it copies nothing.
fn wrap_spans(text: &str, width: usize, spans: &mut [(usize, usize)]) -> (usize, bool) {
    let width = width.max(1);
    let base = text.as_ptr() as usize;
    let mut n = 0;
    let mut emit = |from: usize, to: usize| {
        if n == spans.len() {
            return false;
        }
        spans[n] = (from, to);
        n += 1;
        true
    };
    let (mut start, mut end, mut length) = (0, 0, 0);
    for word in text.split_whitespace() {
        let at = word.as_ptr() as usize - base;
        let count = word.chars().count();
        if length > 0 && length + 1 + count <= width {
            end = at + word.len();
            length += 1 + count;
            continue;
        }
        if length > 0 && !emit(start, end) {
            return (n, true);
        }
        let (mut from, mut left) = (at, count);
        while left > width {
            let cut = from
                + text[from..]
                    .char_indices()
                    .nth(width)
                    .map_or(text.len() - from, |(b, _)| b);
            if !emit(from, cut) {
                return (n, true);
            }
            from = cut;
            left -= width;
        }
        (start, end, length) = (from, at + word.len(), left);
    }
    if length > 0 && !emit(start, end) {
        return (n, true);
    }
    (n, false)
}

/// [`wrap_spans`] for ASCII text, a byte at a time: messages are ASCII,
/// and this runs for every message row of every frame.
fn wrap_spans_ascii(text: &[u8], width: usize, spans: &mut [(usize, usize)]) -> (usize, bool) {
    let width = width.max(1);
    let mut n = 0;
    let mut emit = |from: usize, to: usize| {
        if n == spans.len() {
            return false;
        }
        spans[n] = (from, to);
        n += 1;
        true
    };
    let (mut start, mut end, mut length) = (0, 0, 0);
    let mut at = 0;
    while at < text.len() {
        if ascii_white(text[at]) {
            at += 1;
            continue;
        }
        let word_end = text[at..]
            .iter()
            .position(|&b| ascii_white(b))
            .map_or(text.len(), |i| at + i);
        let count = word_end - at;
        if length > 0 && length + 1 + count <= width {
            (end, length) = (word_end, length + 1 + count);
        } else {
            if length > 0 && !emit(start, end) {
                return (n, true);
            }
            let mut from = at;
            while word_end - from > width {
                if !emit(from, from + width) {
                    return (n, true);
                }
                from += width;
            }
            (start, end, length) = (from, word_end, word_end - from);
        }
        at = word_end;
    }
    if length > 0 && !emit(start, end) {
        return (n, true);
    }
    (n, false)
}

/// Whether an ASCII byte is whitespace as `char::is_whitespace` says
/// (which, unlike `u8::is_ascii_whitespace`, counts the vertical tab).
fn ascii_white(b: u8) -> bool {
    matches!(b, b' ' | b'\t'..=b'\r')
}

/// A wrapped line's characters: its words with one space between them.
fn line_chars(line: &str) -> impl Iterator<Item = char> + '_ {
    let mut space = false;
    line.chars().filter_map(move |c| {
        let white = c.is_whitespace();
        let out = match (white, space) {
            (true, true) => None,
            (true, false) => Some(' '),
            (false, _) => Some(c),
        };
        space = white;
        out
    })
}

/// [`line_difference`] for an ASCII line, a byte at a time, in a plain
/// loop: this runs for every message row of every frame.
fn ascii_line_difference(
    frame: &Frame,
    y: i32,
    line: &[u8],
    cut: bool,
    width: usize,
    style: Style,
) -> Option<(i32, Cell, Cell)> {
    let w = usize::from(frame.width());
    let row = &frame.cells()[y as usize * w..(y as usize + 1) * w];
    let keep = if cut {
        width.saturating_sub(3)
    } else {
        usize::MAX
    };
    let mut col = 0;
    let mut space = false;
    let differs = |col: usize, glyph: char| {
        let want = Cell::new(glyph, style);
        (row[col] != want).then_some((col as i32, row[col], want))
    };
    for &b in line {
        let white = ascii_white(b);
        if white && space {
            continue;
        }
        space = white;
        if col == keep || col == w {
            break;
        }
        if let Some(d) = differs(col, if white { ' ' } else { char::from(b) }) {
            return Some(d);
        }
        col += 1;
    }
    if cut {
        for _ in 0..width.min(3) {
            if col == w {
                break;
            }
            if let Some(d) = differs(col, '.') {
                return Some(d);
            }
            col += 1;
        }
    }
    first_difference(frame, y, col as i32, std::iter::empty())
}

/// Where row `y` first differs from a message line, `cut` to end in `...`
/// within `width` when the message goes on past the rows.
fn line_difference(
    frame: &Frame,
    y: i32,
    line: impl Iterator<Item = char>,
    cut: bool,
    width: usize,
    style: Style,
) -> Option<(i32, Cell, Cell)> {
    let cell = move |c| Cell::new(c, style);
    if cut {
        let dots = std::iter::repeat_n('.', width.min(3));
        let want = line.take(width.saturating_sub(3)).chain(dots);
        first_difference(frame, y, 0, want.map(cell))
    } else {
        first_difference(frame, y, 0, line.map(cell))
    }
}

/// How many of the kept lines, newest first, hold what the latest key said:
/// its messages counted back from the newest line, a line of repeats as
/// many sayings as its count. Counted here from the log's totals, not with
/// the log's own `lines_of_this_key`, which the renderer asks: a log that
/// miscounted them would draw them wrong and the check would expect the same.
fn lines_said_this_key(log: &MessageLog) -> usize {
    let mut unaccounted = log.total().saturating_sub(log.total_at_key_start());
    let mut lines = 0;
    for message in log.messages().iter().rev() {
        if unaccounted == 0 {
            break;
        }
        unaccounted = unaccounted.saturating_sub(message.count.max(1));
        lines += 1;
    }
    lines
}

/// A line of a message as the message rows must draw it, for a report.
struct MessageLine<'a> {
    /// The message as said, and the line's span of it.
    shown: &'a str,
    span: (usize, usize),
    /// Which of the message's lines it is (0 the first), and whether it is
    /// the last the rows hold of a message cut short, ending in `...`.
    index: usize,
    cut: bool,
    /// How many messages are newer, and the style it is drawn in.
    age: usize,
    style: Style,
}

impl MessageLine<'_> {
    /// What is wrong with row `y` of a frame `width` wide, which shows `got`
    /// at column `x` where the line draws `expected`.
    fn misdrawn(
        &self,
        frame: &Frame,
        y: i32,
        width: usize,
        (x, got, expected): (i32, Cell, Cell),
    ) -> String {
        let (shown, (from, to)) = (self.shown, self.span);
        let which = match self.age {
            0 => "the newest message".to_string(),
            n => format!("message {n} before the newest"),
        };
        let said = if self.style == Style::Message {
            "said by this key"
        } else {
            "said before this key"
        };
        let mut want: String = line_chars(&shown[from..to]).collect();
        if self.cut {
            want = want.chars().take(width.saturating_sub(3)).collect();
            want.push_str(&".".repeat(width.min(3)));
        }
        let text = row_text(frame, y);
        if text == want {
            format!(
                "message row {y} shows {got} at column {x}; its line of {which} ({want:?}, {said}) is drawn as {expected}"
            )
        } else {
            format!(
                "message row {y} reads {text:?} ({got} at column {x}); it must read {want:?}, line {} of {which}, {said}: {shown:?}",
                self.index + 1
            )
        }
    }
}

/// The message rows: the newest messages, each wrapped to the width, the
/// newest at the bottom, filling the rows from the bottom up; a message the
/// rows left cannot hold is read from its start, its last line shown ending
/// in `...`; what this key said in new-message style, older lines dimmer;
/// blank rows only above everything the log holds.
fn check_messages(state: &GameState, frame: &Frame, layout: &Layout) -> Option<Violation> {
    let log = &state.log;
    let rows = layout.message_rows;
    let width = layout.width as usize;
    let bright = lines_said_this_key(log);
    let first_row = layout.status_row + 1;
    // Rows below `bottom` are checked; the newest message ends at the last.
    let mut bottom = first_row + rows;
    for (age, message) in log.messages().iter().rev().enumerate() {
        if bottom == first_row {
            break;
        }
        let style = if age < bright {
            Style::Message
        } else {
            Style::OldMessage
        };
        let shown = as_said(message);
        let mut spans = [(0, 0); 3];
        let room = ((bottom - first_row) as usize).min(spans.len());
        let (n, more) = if shown.is_ascii() {
            wrap_spans_ascii(shown.as_bytes(), width, &mut spans[..room])
        } else {
            wrap_spans(&shown, width, &mut spans[..room])
        };
        let top = bottom - n as i32;
        for (i, &(from, to)) in spans[..n].iter().enumerate() {
            let y = top + i as i32;
            let cut = more && i + 1 == n;
            let difference = if shown.is_ascii() {
                ascii_line_difference(frame, y, &shown.as_bytes()[from..to], cut, width, style)
            } else {
                line_difference(frame, y, line_chars(&shown[from..to]), cut, width, style)
            };
            if let Some(found) = difference {
                let line = MessageLine {
                    shown: &shown,
                    span: (from, to),
                    index: i,
                    cut,
                    age,
                    style,
                };
                let problem = line.misdrawn(frame, y, width, found);
                return Some(violation(Id::ScreenMessages, problem));
            }
        }
        bottom = top;
    }
    (first_row..bottom).find_map(|y| {
        let (x, got, _) = first_difference(frame, y, 0, std::iter::empty())?;
        Some(violation(
            Id::ScreenMessages,
            format!(
                "message row {y} shows {got} at column {x} ({:?}); the log's {} messages fill only the rows below it",
                row_text(frame, y),
                log.messages().len()
            ),
        ))
    })
}

/// Under a reticle the message rows say what the cursor is on instead (all
/// of them but the last, which holds the keys, when there are two or more),
/// read from its start and cut with `...` when it is too long.
fn check_reticle_rows(
    game: &Game,
    frame: &Frame,
    layout: &Layout,
    reticle: Reticle,
) -> Option<Violation> {
    let rows = layout.message_rows;
    let text_rows = if rows > 1 { rows - 1 } else { 1 };
    let width = layout.width as usize;
    let description = game.describe_tile(reticle.cursor);
    let lines = cut_to_rows(wrap_words(&description, width), text_rows as usize, width);
    let first_row = layout.status_row + 1;
    for i in 0..text_rows {
        let y = first_row + i;
        let line = lines.get(i as usize).map_or("", String::as_str);
        if let Some((x, got, expected)) = first_difference(frame, y, 0, cells(line, Style::Text)) {
            return Some(violation(
                Id::ScreenMessages,
                format!(
                    "under the reticle, message row {y} shows {got} at column {x} ({:?}); what the cursor at {} is on reads {description:?}, so the row must show {expected}",
                    row_text(frame, y),
                    reticle.cursor
                ),
            ));
        }
    }
    if rows > 1 {
        // The keys: a hint from the row's start, as much as the width holds.
        let y = first_row + rows - 1;
        let hint = row_text(frame, y);
        let hinted = (0..layout.width).all(|x| {
            let cell = at(frame, x, y);
            cell == Cell::BLANK || (cell.style == Style::Hint && (x as usize) < hint.len())
        });
        if hint.trim().is_empty() || hint.starts_with(' ') || !hinted {
            return Some(violation(
                Id::ScreenMessages,
                format!(
                    "under the reticle, the last message row {y} reads {hint:?}; it must show the reticle's keys as a hint from column 0"
                ),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::GameConfig;
    use game_core::Key;
    use game_core::game::state::Poisoned;
    use game_core::keys::KeyCode;

    fn new_game(seed: u64) -> Game {
        Game::new(GameConfig::new(seed)).expect("the default size is valid")
    }

    fn keys(game: &mut Game, keys: &str) {
        for c in keys.chars() {
            let key = match c {
                '\x1b' => Key::ESC,
                '\n' => Key::plain(KeyCode::Enter),
                '\t' => Key::plain(KeyCode::Tab),
                c => Key::char(c),
            };
            game.press(key).expect("no key gets stuck");
        }
    }

    /// Edits the state and rebuilds the game, checked like a loaded save.
    fn edit(game: &Game, change: impl FnOnce(&mut GameState)) -> Game {
        let mut state = game.state().clone();
        change(&mut state);
        Game::from_state(state, game.content().clone()).expect("a valid scene")
    }

    const SIZES: [(u16, u16); 10] = [
        (80, 24),
        (20, 8),
        (21, 9),
        (24, 10),
        (30, 12),
        (40, 11),
        (45, 23),
        (100, 40),
        (19, 8),
        (20, 7),
    ];

    fn passes_at_every_size(game: &Game, what: &str) {
        for (w, h) in SIZES {
            let frame = game.frame(w, h);
            for check in [check_screen, check_screen_closely] {
                if let Some(v) = check(game, &frame) {
                    panic!("{what} at {w}x{h}: {v}\n{}", frame.to_text());
                }
            }
        }
    }

    /// A frame altered by `change` must fail, on every key and closely,
    /// with `id`, and say `says` closely.
    /// What every key's check says of it, for more.
    fn fails(
        game: &Game,
        size: (u16, u16),
        id: Id,
        says: &str,
        change: impl FnOnce(&mut Frame),
    ) -> Violation {
        let frame = altered(game, size, id, says, change);
        let v = check_screen(game, &frame).unwrap_or_else(|| {
            panic!(
                "the altered frame passed every key's check:\n{}",
                frame.to_text()
            )
        });
        assert_eq!(v.id, id, "{v}");
        v
    }

    /// A frame altered by `change` must fail closely with `id`, and say
    /// `says`. The altered frame, for more.
    fn altered(
        game: &Game,
        size: (u16, u16),
        id: Id,
        says: &str,
        change: impl FnOnce(&mut Frame),
    ) -> Frame {
        let mut frame = game.frame(size.0, size.1);
        assert_eq!(
            check_screen_closely(game, &frame),
            None,
            "{}",
            frame.to_text()
        );
        change(&mut frame);
        let v = check_screen_closely(game, &frame)
            .unwrap_or_else(|| panic!("the altered frame passed:\n{}", frame.to_text()));
        assert_eq!(v.id, id, "{v}");
        assert!(v.message.contains(says), "{v}\n{}", frame.to_text());
        frame
    }

    /// Where `text` starts in the frame, (column, row).
    fn find(frame: &Frame, text: &str) -> (i32, i32) {
        (0..frame.height())
            .find_map(|y| {
                let row = frame.row_text(y);
                row.find(text)
                    .map(|b| (row[..b].chars().count() as i32, i32::from(y)))
            })
            .unwrap_or_else(|| panic!("{text:?} is not in\n{}", frame.to_text()))
    }

    #[test]
    fn frames_of_real_play_pass_at_every_size() {
        for seed in 1..6 {
            let mut game = new_game(seed);
            passes_at_every_size(&game, "the start");
            // Explore, rest, fight what comes, and open every screen.
            for (i, step) in ["ooo", "hhhh", "llll", "ooooo", "jjj", "kkk", "oooooooo"]
                .iter()
                .enumerate()
            {
                keys(&mut game, step);
                passes_at_every_size(&game, &format!("seed {seed} after step {i}"));
                if game.is_over() {
                    break;
                }
                for screen in ["i", "?", "?jjjjjjj", "?G", "m", "mjj", "Q", ";", ";hhhkk"] {
                    let mut open = game.clone();
                    keys(&mut open, screen);
                    passes_at_every_size(&open, &format!("seed {seed}, {screen:?} open"));
                }
            }
        }
    }

    #[test]
    fn the_pack_and_item_menus_and_the_throwing_reticle_pass() {
        let game = new_game(3);
        let content = game.content().clone();
        let dart = content.item_named("dart").expect("darts exist");
        let potion = content
            .item_named("potion of healing")
            .expect("healing potions exist");
        let game = edit(&game, |state| {
            for (item, count) in [(dart, 5), (potion, 1)] {
                let slot = state
                    .player
                    .pack
                    .slot_for(item, count, content.item(item).stackable)
                    .expect("room in the pack");
                state.player.pack.add(slot, item, count);
            }
        });
        passes_at_every_size(&game, "a full pack");
        for screen in ["i", "ia", "ib", "t", "ta", "tal", "tallll", "a", "d", "w"] {
            let mut open = game.clone();
            keys(&mut open, screen);
            passes_at_every_size(&open, &format!("{screen:?} open"));
        }
    }

    #[test]
    fn the_status_line_passes_in_every_form_and_fails_when_it_lies() {
        let game = edit(&new_game(15), |state| {
            state.player.hp = 3;
            state.player.max_hp = 10;
            state.player.statuses.confused = 3;
            state.player.statuses.poison = Some(Poisoned {
                rounds: 5,
                damage: "1d2".parse().expect("valid dice"),
                source: "a rat".into(),
            });
        });
        passes_at_every_size(&game, "a poisoned, confused, wounded player");
        // The status row at 80x24 is row 20; at 20x8, row 6.
        let frame = game.frame(80, 24);
        assert!(
            frame
                .row_text(20)
                .starts_with("Depth 1  HP 3/10  Poisoned  Confused  Turn")
        );
        // A wrong digit in the hit points.
        fails(
            &game,
            (80, 24),
            Id::ScreenStatus,
            "the player has 3/10",
            |f| {
                f.set(12, 20, Cell::new('4', Style::StatusAlert));
            },
        );
        // A status word missing.
        fails(&game, (80, 24), Id::ScreenStatus, "poisoned", |f| {
            let (x, y) = find(f, "Poisoned");
            f.put_str(x, y, "        ", Style::Blank);
        });
        // The compact form where the full one fits.
        fails(&game, (80, 24), Id::ScreenStatus, "full form", |f| {
            f.fill(0, 20, 80, 1, Cell::BLANK);
            f.put_str(0, 20, "D1 HP3/10 Psn Cnf T0", Style::Status);
        });
        // No turn where a form with it fits: 24 columns hold the compact
        // form with both statuses and the turn.
        let narrow = game.frame(24, 10);
        assert_eq!(narrow.row_text(8).trim_end(), "D1 HP3/10 Psn Cnf T0");
        fails(&game, (24, 10), Id::ScreenStatus, "shows no turn", |f| {
            f.put_str(18, 8, "  ", Style::Blank);
        });
        // The bare form at the smallest size keeps the statuses.
        let smallest = game.frame(20, 8);
        assert_eq!(smallest.row_text(6).trim_end(), "D1 HP3/10 Psn Cnf T0");
        // A wounded player's head is an alarm.
        fails(&game, (80, 24), Id::ScreenStatus, "a third or less", |f| {
            f.set(0, 20, Cell::new('D', Style::Status));
        });
        // A wrong turn.
        fails(
            &game,
            (80, 24),
            Id::ScreenStatus,
            "the clock is at turn 0",
            |f| {
                let (x, y) = find(f, "Turn 0");
                f.put_str(x + 5, y, "7", Style::Status);
            },
        );
    }

    #[test]
    fn the_bare_form_is_the_last_resort() {
        let game = edit(&new_game(15), |state| {
            state.depth = 6;
            state.player.hp = 999;
            state.player.max_hp = 999;
            state.player.statuses.confused = 3;
            state.player.statuses.poison = Some(Poisoned {
                rounds: 5,
                damage: "1d2".parse().expect("valid dice"),
                source: "a rat".into(),
            });
        });
        passes_at_every_size(&game, "the widest status");
        fails(&game, (20, 8), Id::ScreenStatus, "confused", |f| {
            f.put_str(16, 6, "   ", Style::Blank);
        });
    }

    #[test]
    fn a_moved_monster_or_a_hidden_item_fails_the_map() {
        // Find a seed and a few keys that bring a monster into view.
        let mut game = new_game(1);
        let mut found = false;
        'search: for seed in 1..40 {
            game = new_game(seed);
            for _ in 0..40 {
                let map = &game.state().floor.map;
                if game.state().monsters.iter().any(|m| map.is_visible(m.pos)) {
                    found = true;
                    break 'search;
                }
                keys(&mut game, "o");
                if game.is_over() {
                    break;
                }
            }
        }
        assert!(found, "some seed shows a monster");
        passes_at_every_size(&game, "a monster in view");
        let frame = game.frame(80, 24);
        let (mx, my) = (0..24)
            .flat_map(|y| (0..80).map(move |x| (x, y)))
            .find(|&(x, y)| at(&frame, x, y).style == Style::Monster)
            .expect("the monster is drawn");
        let glyph = at(&frame, mx, my).glyph;
        // Moved one column: drawn where no monster is, and missing where
        // one is.
        fails(
            &game,
            (80, 24),
            Id::ScreenMap,
            "no monster there is in view",
            |f| {
                let beside = if mx > 0 { mx - 1 } else { mx + 1 };
                f.set(beside, my, Cell::new(glyph, Style::Monster));
            },
        );
        fails(&game, (80, 24), Id::ScreenMap, "stands in view", |f| {
            f.set(mx, my, Cell::new('.', Style::Floor));
        });
        // The player drawn elsewhere.
        fails(&game, (80, 24), Id::ScreenMap, "the player", |f| {
            let (px, py) = (0..24)
                .flat_map(|y| (0..80).map(move |x| (x, y)))
                .find(|&(x, y)| at(f, x, y).style == Style::Player)
                .expect("the player is drawn");
            f.set(px, py, Cell::new('.', Style::Floor));
        });
        // Unknown ground drawn as floor.
        fails(&game, (80, 24), Id::ScreenMap, "not been seen", |f| {
            let blank = (0..20)
                .flat_map(|y| (0..80).map(move |x| (x, y)))
                .find(|&(x, y)| at(f, x, y) == Cell::BLANK)
                .expect("some ground is unknown");
            f.set(blank.0, blank.1, Cell::new('.', Style::Remembered));
        });
    }

    #[test]
    fn the_stray_glyph_of_the_warped_frame_fails_the_map() {
        let game = new_game(4);
        fails(
            &game,
            (80, 24),
            Id::ScreenMap,
            "outside a screen's box",
            |f| {
                f.set(0, 0, Cell::new('?', Style::Text));
            },
        );
    }

    #[test]
    fn messages_fail_when_blanked_cut_or_dimmed() {
        let mut game = new_game(15);
        // Moving into walls says things; the log then holds several lines.
        keys(&mut game, "hhhhhhhhkkkkkkkkkkiii");
        keys(&mut game, "\x1b");
        passes_at_every_size(&game, "after some messages");
        let game = edit(&game, |state| {
            let turn = state.clock.turn();
            state.log.push(
                turn,
                "The giant newt bites you and you feel very sick all of a sudden.".into(),
            );
        });
        passes_at_every_size(&game, "a long newest message");
        assert!(game.state().log.messages().len() >= 3);
        // A blanked message row.
        fails(&game, (80, 24), Id::ScreenMessages, "message row 21", |f| {
            f.fill(0, 21, 80, 1, Cell::BLANK);
        });
        // The newest message cut short at the smallest size without `...`.
        fails(
            &game,
            (20, 8),
            Id::ScreenMessages,
            "the newest message",
            |f| {
                f.put_str(17, 7, "   ", Style::Blank);
            },
        );
        // An old line drawn bright.
        fails(&game, (80, 24), Id::ScreenMessages, "is drawn as", |f| {
            let text = f.row_text(21);
            f.put_str(0, 21, text.trim_end(), Style::Message);
        });
    }

    #[test]
    fn boxes_fail_when_their_rows_or_borders_are_wrong() {
        let mut game = new_game(15);
        keys(&mut game, "?");
        passes_at_every_size(&game, "help");
        // A help row's text altered: what the box says is checked closely
        // (on the sample), its border, place and title on every key.
        altered(&game, (80, 24), Id::ScreenBox, "help screen", |f| {
            let (x, y) = find(f, "wait a turn");
            f.put_str(x, y, "W", Style::Text);
        });
        // A corner missing.
        fails(&game, (80, 24), Id::ScreenBox, "its top border", |f| {
            let (x, y) = find(f, "+-");
            f.set(x, y, Cell::new('-', Style::Border));
        });
        // Scrolled: the count of what is above must be there.
        let mut scrolled = game.clone();
        keys(&mut scrolled, "jjjj");
        passes_at_every_size(&scrolled, "help scrolled");
        altered(&scrolled, (20, 8), Id::ScreenBox, "above", |f| {
            // Stacked at this width: row 4 of the help starts at line 11.
            let (x, y) = find(f, "(11 lines above)");
            f.put_str(x, y, "(10", Style::Text);
        });
        // The pack lists its items by letter.
        let mut pack = new_game(15);
        keys(&mut pack, "i");
        altered(&pack, (80, 24), Id::ScreenBox, "pack", |f| {
            let (x, y) = find(f, "a - ");
            f.set(x, y, Cell::new('b', Style::Key));
        });
        // The box moved a row down, and its title misspelt: on every key.
        let moved = fails(&pack, (80, 24), Id::ScreenBox, "must show", |f| {
            let (x, y) = find(f, "+- Your pack");
            let width = f.row_text(y as u16).trim_end().chars().count() as i32 - x;
            let height = (y..f.height() as i32)
                .take_while(|&r| at(f, x, r).style == Style::Border)
                .count() as i32;
            let rows: Vec<Vec<Cell>> = (y..y + height)
                .map(|r| (x..x + width).map(|c| at(f, c, r)).collect())
                .collect();
            f.fill(x, y, width, 1, Cell::BLANK);
            for (i, row) in rows.iter().enumerate() {
                for (j, &cell) in row.iter().enumerate() {
                    f.set(x + j as i32, y + 1 + i as i32, cell);
                }
            }
        });
        assert!(moved.message.contains("centred"), "{moved}");
        fails(&pack, (80, 24), Id::ScreenBox, "title", |f| {
            let (x, y) = find(f, "Your pack");
            f.set(x, y, Cell::new('Y', Style::Text));
        });
    }

    #[test]
    fn the_ending_passes_and_fails_when_its_figures_are_wrong() {
        let game = edit(&new_game(15), |state| {
            state.status = RunStatus::Died(game_core::game::state::Death {
                cause: "died of poison from a giant newt".into(),
                depth: 2,
                turn: 1234,
            });
            state.player.hp = 0;
            state.kills = 7;
        });
        passes_at_every_size(&game, "the tombstone");
        fails(&game, (80, 24), Id::ScreenEnding, "turn 1234", |f| {
            let (x, y) = find(f, "1234");
            f.put_str(x, y, "1235", Style::Text);
        });
        fails(&game, (80, 24), Id::ScreenEnding, "outside", |f| {
            f.set(0, 0, Cell::new('?', Style::Text));
        });
        let mut quit = new_game(15);
        keys(&mut quit, "Qy");
        assert!(quit.is_over());
        passes_at_every_size(&quit, "the farewell");
    }

    #[test]
    fn a_frame_too_small_shows_only_its_notice() {
        let game = new_game(15);
        passes_at_every_size(&game, "the start");
        fails(&game, (19, 8), Id::ScreenSize, "Needs 20x8", |f| {
            f.set(3, 3, Cell::new('#', Style::Wall));
        });
    }

    #[test]
    fn the_reticle_rows_fail_when_the_description_is_missing() {
        let mut game = new_game(15);
        keys(&mut game, ";");
        passes_at_every_size(&game, "look");
        fails(
            &game,
            (20, 8),
            Id::ScreenMessages,
            "under the reticle",
            |f| {
                f.fill(0, 7, 20, 1, Cell::BLANK);
            },
        );
        fails(&game, (80, 24), Id::ScreenMessages, "keys", |f| {
            f.fill(0, 23, 80, 1, Cell::BLANK);
        });
    }

    #[test]
    fn the_plain_wrap_keeps_words_and_cuts_long_ones() {
        assert_eq!(
            wrap_words("the quick brown fox", 9),
            ["the quick", "brown fox"]
        );
        assert_eq!(wrap_words("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap_words("ab abcdefgh c", 4), ["ab", "abcd", "efgh", "c"]);
        assert_eq!(wrap_words("", 5), Vec::<String>::new());
        assert_eq!(
            cut_to_rows(wrap_words("aaa bbb ccc", 3), 2, 3),
            ["aaa", "..."]
        );
        assert_eq!(
            cut_to_rows(wrap_words("aaaa bbbb cccc", 6), 2, 6),
            ["aaaa", "bbb..."]
        );
    }

    #[test]
    fn the_flight_path_steps_one_tile_at_a_time_to_its_end() {
        for (x, y) in [(5, 2), (-3, 7), (0, -4), (6, 6), (-8, -1), (0, 0)] {
            let to = Pos::new(x, y);
            let path = flight_path(Pos::new(0, 0), to);
            assert_eq!(path.last(), Some(&to));
            assert_eq!(path.len() as i32, Pos::new(0, 0).chebyshev(to) + 1);
        }
    }

    #[test]
    fn the_status_cells_are_the_forms_and_the_lengths_are_the_forms_lengths() {
        let base = new_game(15);
        for (hp, max) in [(1, 1), (3, 10), (9, 10), (10, 10), (999, 999), (-4, 12)] {
            for (poisoned, confused) in [(false, false), (true, false), (false, true), (true, true)]
            {
                let mut state = base.state().clone();
                state.player.hp = hp;
                state.player.max_hp = max;
                state.player.statuses.confused = u32::from(confused);
                state.player.statuses.poison = poisoned.then(|| Poisoned {
                    rounds: 5,
                    damage: "1d2".parse().expect("valid dice"),
                    source: "a rat".into(),
                });
                for depth in [1, 6, 10] {
                    state.depth = depth;
                    for width in 15..60 {
                        let form = form_that_fits(&state, width);
                        let built = status_form(&state, form);
                        let cells: Vec<Cell> = status_cells(&state, form, hp * 3 <= max).collect();
                        assert_eq!(cells, built.cells(hp * 3 <= max).collect::<Vec<_>>());
                        // The arithmetic of the lengths picks what the
                        // texts' lengths pick.
                        let fits = |f: Form| status_form(&state, f).len <= width;
                        let plainly = if fits(Form::Full) {
                            Form::Full
                        } else if fits(Form::Compact) {
                            Form::Compact
                        } else {
                            Form::Bare
                        };
                        assert_eq!(form, plainly, "{hp}/{max} depth {depth} at {width}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_spans_of_a_wrap_are_the_plain_wrap() {
        let texts = [
            "You hit the rat.",
            "  two  spaces   between\twords\n and a tab ",
            "averyveryverylongwordthatmustbecut into pieces",
            "é€ unicode and ascii mixed, a word of ten",
            "",
            "a b c d e f g h i j k l m n o p",
        ];
        for text in texts {
            for width in 1..30 {
                let plain = wrap_words(text, width);
                let mut spans = [(0, 0); 64];
                let (n, more) = wrap_spans(text, width, &mut spans);
                assert!(!more, "{text:?} at {width}");
                let read: Vec<String> = spans[..n]
                    .iter()
                    .map(|&(a, b)| line_chars(&text[a..b]).collect())
                    .collect();
                assert_eq!(read, plain, "{text:?} at {width}");
                if text.is_ascii() {
                    let (m, _) = wrap_spans_ascii(text.as_bytes(), width, &mut spans);
                    let ascii: Vec<String> = spans[..m]
                        .iter()
                        .map(|&(a, b)| line_chars(&text[a..b]).collect())
                        .collect();
                    assert_eq!(ascii, plain, "{text:?} at {width}");
                }
                // Room for fewer lines says there are more.
                if n > 1 {
                    let (k, more) = wrap_spans(text, width, &mut spans[..n - 1]);
                    assert_eq!((k, more), (n - 1, true));
                }
            }
        }
    }

    #[test]
    fn any_state_keys_reach_passes_at_any_size() {
        use proptest::prelude::*;
        // Keys that move, fight, open, scroll and close every screen, aim
        // and throw, and quit.
        const KEYS: &[char] = &[
            'h', 'j', 'k', 'l', 'y', 'u', 'b', 'n', 'H', 'L', '.', 'g', 'o', 'i', 'a', 't', 'w',
            'd', ';', 'm', '?', 'Q', 'y', 'n', '\x1b', '\n', '\t', 'j', 'k', 'G', 'a', 'b',
        ];
        let config = ProptestConfig {
            cases: 48,
            ..ProptestConfig::default()
        };
        proptest!(config, |(
            seed in 1u64..500,
            presses in proptest::collection::vec(0..KEYS.len(), 1..120),
            width in 15u16..110,
            height in 6u16..45,
        )| {
            let mut game = new_game(seed);
            for &i in &presses {
                if game.is_over() {
                    break;
                }
                let keys_pressed: String = KEYS[i].to_string();
                keys(&mut game, &keys_pressed);
                let frame = game.frame(width, height);
                prop_assert_eq!(check_screen(&game, &frame), None, "{}", frame.to_text());
            }
            let frame = game.frame(width, height);
            prop_assert_eq!(check_screen_closely(&game, &frame), None, "{}", frame.to_text());
        });
    }
}
