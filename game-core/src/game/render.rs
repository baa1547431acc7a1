//! Drawing a game into a [`Frame`]: a pure function of the state and a size.
//!
//! Layout, top to bottom: the map viewport, the status line, and the last
//! messages. Screens are drawn over the map in a box; the end of a run
//! replaces everything with a tombstone or a victory screen.

use crate::content::ItemEffect;
use crate::frame::{Cell, Frame, MIN_FRAME_HEIGHT, MIN_FRAME_WIDTH, Style};
use crate::geom::{Pos, line};
use crate::map::{Map, Tile};
use crate::text::capitalise;

use super::Game;
use super::screens::{PackMode, Purpose, Reticle, Screen};
use super::state::{RunStatus, slot_letter};

/// The viewport's top-left corner in map coordinates: the focus centred,
/// clamped so the view never shows space beyond the map's edges.
pub fn camera(map: &Map, view_width: i32, view_height: i32, focus: Pos) -> Pos {
    Pos::new(
        (focus.x - view_width / 2).clamp(0, (map.width() - view_width).max(0)),
        (focus.y - view_height / 2).clamp(0, (map.height() - view_height).max(0)),
    )
}

/// A revealed tile's cell, by tile and by whether it is in view: the
/// tile's glyph, remembered out of view and lit in it.
const GROUND: [[Cell; 2]; 5] = {
    const fn ground(tile: Tile) -> [Cell; 2] {
        let lit = match tile {
            Tile::Wall => Style::Wall,
            Tile::Floor => Style::Floor,
            Tile::Door => Style::Door,
            Tile::StairsDown => Style::Stairs,
            Tile::Exit => Style::Exit,
        };
        [
            Cell::new(tile.glyph(), Style::Remembered),
            Cell::new(tile.glyph(), lit),
        ]
    }
    // Indexed by `tile as usize`: the tiles in discriminant order.
    [
        ground(Tile::Wall),
        ground(Tile::Floor),
        ground(Tile::Door),
        ground(Tile::StairsDown),
        ground(Tile::Exit),
    ]
};

/// The revealed ground of the part of `map` in view, its top-left corner
/// at `top_left`, row by row by index: this runs for every frame drawn, a
/// player's every key and a sweep's every fourth.
fn draw_ground(frame: &mut Frame, map: &Map, top_left: Pos, width: i32, height: i32) {
    let (first_x, last_x) = (top_left.x.max(0), (top_left.x + width).min(map.width()));
    let tiles = map.tiles();
    // Where column first_x of the map lands on screen (right of 0 when
    // the map is narrower than the view).
    let left = (first_x - top_left.x) as usize;
    for sy in 0..height {
        let y = top_left.y + sy;
        if y < 0 || y >= map.height() {
            continue;
        }
        let row_start = (y * map.width()) as usize;
        let (from, to) = (
            row_start + first_x as usize,
            row_start + last_x.max(first_x) as usize,
        );
        // The tiles from..to lie in columns left.. of this row. A word
        // of the revealed layer at a time, with the visible layer's
        // word beside it: this runs for every revealed cell of every
        // frame drawn.
        let row = &mut frame.row_mut(sy as u16)[left..];
        for (base, revealed) in map.revealed.words_in(from, to) {
            let visible = map.visible.word_at(base);
            let mut rest = revealed;
            while rest != 0 {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let idx = base + bit;
                let in_view = (visible >> bit) & 1;
                row[idx - from] = GROUND[tiles[idx] as usize][in_view as usize];
            }
        }
    }
}

/// Rows of messages under the status line, by frame height.
fn message_rows(height: i32) -> i32 {
    match height {
        h if h >= 24 => 3,
        h if h >= 12 => 2,
        _ => 1,
    }
}

impl Game {
    /// Whether the pack's `slot` holds a missile, which Enter on a reticle
    /// throws.
    fn is_missile(&self, slot: u8) -> bool {
        self.state.player.pack.get(slot).is_some_and(|stack| {
            matches!(
                self.content.item(stack.item).effect,
                ItemEffect::Thrown { .. }
            )
        })
    }

    /// The frame a player would see at this size. Pure: the same state and
    /// size always give the same frame.
    pub fn frame(&self, width: u16, height: u16) -> Frame {
        let mut frame = Frame::new(width, height);
        let (w, h) = (i32::from(frame.width()), i32::from(frame.height()));
        if frame.width() < MIN_FRAME_WIDTH || frame.height() < MIN_FRAME_HEIGHT {
            frame.put_str(
                0,
                0,
                &format!("Needs {MIN_FRAME_WIDTH}x{MIN_FRAME_HEIGHT}"),
                Style::Text,
            );
            return frame;
        }
        match &self.state.status {
            RunStatus::Playing => {}
            RunStatus::Died(death) => {
                let lines = [
                    "REST IN PEACE".to_string(),
                    String::new(),
                    capitalise(&death.cause),
                    format!("on depth {} at turn {}.", death.depth, death.turn),
                    String::new(),
                    format!("Kills: {}", self.state.kills),
                ];
                draw_ending(&mut frame, "Tombstone", &lines);
                return frame;
            }
            RunStatus::Won { turn } => {
                let lines = [
                    "YOU ESCAPED".to_string(),
                    String::new(),
                    "You climbed out of the Undercroft".to_string(),
                    format!("at turn {turn}."),
                    String::new(),
                    format!("Kills: {}", self.state.kills),
                ];
                draw_ending(&mut frame, "Victory", &lines);
                return frame;
            }
            RunStatus::Quit { turn } => {
                let lines = [
                    "You left the Undercroft".to_string(),
                    format!("on depth {} at turn {turn}.", self.state.depth),
                ];
                draw_ending(&mut frame, "Farewell", &lines);
                return frame;
            }
        }
        let messages = message_rows(h);
        let map_rows = h - 1 - messages;
        self.draw_map(&mut frame, w, map_rows);
        self.draw_status(&mut frame, map_rows, w);
        self.draw_messages(&mut frame, map_rows + 1, messages, w);
        if let Some(screen) = self.state.screens.last() {
            self.draw_screen(&mut frame, screen, w, map_rows);
        }
        self.planted_warped_frame(&mut frame);
        frame
    }

    fn reticle(&self) -> Option<Reticle> {
        match self.state.screens.last() {
            Some(Screen::Reticle(r)) => Some(*r),
            _ => None,
        }
    }

    fn draw_map(&self, frame: &mut Frame, width: i32, height: i32) {
        let map = &self.state.floor.map;
        let focus = self.reticle().map_or(self.state.player.pos, |r| r.cursor);
        let top_left = camera(map, width, height, focus);
        let to_screen = |p: Pos| (p.x - top_left.x, p.y - top_left.y);
        draw_ground(frame, map, top_left, width, height);
        // Nothing below the map's rows (the status line is there); the
        // frame's edges clip the rest (`Frame::set`), as on a frame
        // narrower than the map, where the camera leaves some of what is in
        // view off screen.
        let mut put = |p: Pos, glyph: char, style: Style| {
            let (sx, sy) = to_screen(p);
            if sy < height {
                frame.set(sx, sy, Cell::new(glyph, style));
            }
        };
        // Entities only where the player can see now; the player on top.
        for item in &self.state.items {
            if map.is_visible(item.pos) {
                put(item.pos, self.content.item(item.item).glyph, Style::Item);
            }
        }
        for m in &self.state.monsters {
            if map.is_visible(m.pos) {
                put(m.pos, self.content.monster(m.kind).glyph, Style::Monster);
            }
        }
        put(self.state.player.pos, '@', Style::Player);
        if let Some(reticle) = self.reticle() {
            if reticle.purpose != Purpose::Look {
                // The flight path, so the player sees what is in the way.
                let path = line(self.state.player.pos, reticle.cursor);
                for &p in path.iter().skip(1).take(path.len().saturating_sub(2)) {
                    if self.occupant(p).is_none() {
                        put(p, '*', Style::Reticle);
                    }
                }
            }
            // The cursor keeps what is under it, restyled; on unknown ground
            // it is drawn as `_` so it is never invisible.
            let (sx, sy) = to_screen(reticle.cursor);
            let under = u16::try_from(sx)
                .ok()
                .zip(u16::try_from(sy).ok())
                .and_then(|(x, y)| frame.get(x, y));
            if let Some(cell) = under {
                let glyph = if cell.glyph == ' ' { '_' } else { cell.glyph };
                frame.set(sx, sy, Cell::new(glyph, Style::Reticle));
            }
        }
    }

    /// Depth, hit points, statuses (straight after the hit points, where a
    /// narrow terminal will not cut them off), and the turn. A compact form
    /// is used when the full one does not fit.
    fn draw_status(&self, frame: &mut Frame, row: i32, width: i32) {
        let p = &self.state.player;
        let depth = self.state.depth;
        let turn = self.state.clock.turn();
        let conditions = [
            (p.statuses.is_poisoned(), "Poisoned", "Psn"),
            (p.statuses.is_confused(), "Confused", "Cnf"),
        ];
        let full = (
            format!("Depth {depth}  HP {}/{}", p.hp, p.max_hp),
            conditions
                .iter()
                .filter(|c| c.0)
                .map(|c| c.1)
                .collect::<Vec<_>>(),
            format!("Turn {turn}"),
            "  ",
        );
        let compact = (
            format!("D{depth} HP{}/{}", p.hp, p.max_hp),
            conditions
                .iter()
                .filter(|c| c.0)
                .map(|c| c.2)
                .collect::<Vec<_>>(),
            format!("T{turn}"),
            " ",
        );
        // The last resort drops the turn: depth, hit points and statuses are
        // what a player must see on a 20-column terminal.
        let bare = (compact.0.clone(), compact.1.clone(), String::new(), " ");
        let length = |(head, words, tail, gap): &(String, Vec<&str>, String, &str)| {
            head.len()
                + words.iter().map(|w| gap.len() + w.len()).sum::<usize>()
                + if tail.is_empty() {
                    0
                } else {
                    gap.len() + tail.len()
                }
        };
        let (head, words, tail, gap) = [full, compact]
            .into_iter()
            .find(|form| length(form) as i32 <= width)
            .unwrap_or(bare);
        let low = p.hp * 3 <= p.max_hp;
        let mut col = frame.put_str(
            0,
            row,
            &head,
            if low {
                Style::StatusAlert
            } else {
                Style::Status
            },
        );
        for word in words {
            col = frame.put_str(col, row, gap, Style::Status);
            col = frame.put_str(col, row, word, Style::StatusAlert);
        }
        if !tail.is_empty() {
            col = frame.put_str(col, row, gap, Style::Status);
            frame.put_str(col, row, &tail, Style::Status);
        }
    }

    /// The newest messages, wrapped, newest at the bottom, a repeat shown
    /// once with its count. What the latest key said is bright, older lines
    /// dim, so a player sees what this key did. A message is always read
    /// from its start: when the rows left cannot hold all of it, its first
    /// lines are shown and the last ends in `...`.
    fn draw_messages(&self, frame: &mut Frame, top: i32, rows: i32, width: i32) {
        let log = &self.state.log;
        let bright = log.lines_of_this_key();
        let rows = rows.max(0) as usize;
        // Whole messages, newest first.
        let mut shown: Vec<(Vec<String>, Style)> = Vec::new();
        let mut used = 0;
        for (age, message) in log.messages().iter().rev().enumerate() {
            let style = if age < bright {
                Style::Message
            } else {
                Style::OldMessage
            };
            let lines = cut_with_ellipsis(
                wrap_owned(message.shown(), width as usize),
                rows - used,
                width as usize,
            );
            used += lines.len();
            shown.push((lines, style));
            if used == rows {
                break;
            }
        }
        let mut y = top + (rows - used) as i32;
        for (lines, style) in shown.iter().rev() {
            for line in lines {
                frame.put_str(0, y, line, *style);
                y += 1;
            }
        }
    }

    /// A pack's rows for `mode`: each slot it admits, its letter and the
    /// item, marked when wielded or worn.
    fn pack_rows(&self, mode: PackMode) -> Vec<(String, String)> {
        self.state
            .player
            .pack
            .slots()
            .filter(|&(slot, _)| self.admits(mode, slot))
            .map(|(slot, stack)| {
                let def = self.content.item(stack.item);
                let mut text = def.describe(stack.count);
                if self.state.player.wielded == Some(slot) {
                    text.push_str(" (wielded)");
                }
                if self.state.player.worn == Some(slot) {
                    text.push_str(" (worn)");
                }
                (slot_letter(slot).to_string(), text)
            })
            .collect()
    }

    /// The reticle keeps the map visible: the target described on the
    /// message rows instead of in a box, with the keys on the last row
    /// when there are two or more.
    fn draw_reticle_text(&self, frame: &mut Frame, reticle: Reticle, width: i32, map_rows: i32) {
        let hints: &[&str] = match reticle.purpose {
            Purpose::Look => &[
                "move: look  Tab: next  Esc: done",
                "Tab: next  Esc: done",
                "Esc: done",
            ],
            // A missile used from the pack or its menu flies as a
            // throw does: the hint names what Enter will do.
            Purpose::Throw { .. } => THROW_HINTS,
            Purpose::Use { slot } if self.is_missile(slot) => THROW_HINTS,
            Purpose::Use { .. } => &[
                "move/Tab: aim  Enter: read  Esc: cancel",
                "Tab: aim  Enter: read",
                "Enter: read",
            ],
        };
        let text = self.describe_tile(reticle.cursor);
        let top = map_rows + 1;
        let rows = frame.height() as i32 - top;
        frame.fill(0, top, width, rows, Cell::BLANK);
        let text_rows = if rows > 1 { rows - 1 } else { rows.max(1) };
        let lines = cut_with_ellipsis(
            wrap(&text, width as usize),
            text_rows as usize,
            width as usize,
        );
        for (i, line) in lines.iter().enumerate() {
            frame.put_str(0, top + i as i32, line, Style::Text);
        }
        if rows > 1 {
            let hint = first_that_fits(hints, width as usize);
            frame.put_str(0, top + rows - 1, hint, Style::Hint);
        }
    }

    fn draw_screen(&self, frame: &mut Frame, screen: &Screen, width: i32, map_rows: i32) {
        let pack = &self.state.player.pack;
        // Footers and hints, longest first: the first that fits is drawn.
        let (title, rows, footers): (String, Vec<(String, String)>, &[&str]) = match screen {
            Screen::Pack(mode) => {
                let footers: &[&str] = if *mode == PackMode::Browse {
                    &["letter: choose  Esc: close", "Esc: close"]
                } else {
                    &["letter: pick  Esc: cancel", "Esc: cancel"]
                };
                (mode.title().to_string(), self.pack_rows(*mode), footers)
            }
            Screen::ItemMenu { slot } => {
                let Some(stack) = pack.get(*slot) else { return };
                let def = self.content.item(stack.item);
                let mut rows = vec![("a".to_string(), "use".to_string())];
                rows.push(("d".into(), "drop".into()));
                if matches!(def.effect, ItemEffect::Thrown { .. }) {
                    rows.push(("t".into(), "throw".into()));
                }
                if def.effect.is_equipment() {
                    rows.push(("w".into(), "wear or wield".into()));
                }
                rows.push((String::new(), String::new()));
                for line in wrap(&def.description, 40) {
                    rows.push((String::new(), line));
                }
                (capitalise(&def.describe(stack.count)), rows, &["Esc: back"])
            }
            Screen::Reticle(reticle) => {
                self.draw_reticle_text(frame, *reticle, width, map_rows);
                return;
            }
            Screen::Help { .. } => (
                "Help".to_string(),
                HELP.iter()
                    .map(|(k, t)| ((*k).to_string(), (*t).to_string()))
                    .collect(),
                SCROLL_FOOTERS,
            ),
            Screen::History { .. } => {
                let log = self.state.log.messages();
                let rows = if log.is_empty() {
                    vec![(String::new(), "Nothing has been said yet.".to_string())]
                } else {
                    log.iter()
                        .rev()
                        .map(|m| (String::new(), m.shown()))
                        .collect()
                };
                ("Messages, newest first".to_string(), rows, SCROLL_FOOTERS)
            }
            Screen::QuitPrompt => (
                "Quit".to_string(),
                vec![(String::new(), "Really leave the Undercroft?".to_string())],
                &["y: quit  n/Esc: stay", "y: quit n: stay"],
            ),
        };
        let top = match screen {
            Screen::Help { top } | Screen::History { top } => usize::from(*top),
            _ => 0,
        };
        draw_box(frame, &title, &rows, top, footers, width, map_rows);
    }
}

/// The help screen's rows: each command's keys and what it does.
pub const HELP: [(&str, &str); 15] = [
    ("hjklyubn", "move or attack (also arrows, numpad)"),
    ("HJKLYUBN", "run (also Shift+arrows)"),
    (". 5", "wait a turn"),
    ("g ,", "pick up"),
    (">", "take the stairs down / the way out"),
    ("o", "auto-explore, then walk to the stairs"),
    ("i", "inventory"),
    ("a", "use an item"),
    ("t", "throw (Tab: next target, Enter: throw)"),
    ("w", "wear or wield"),
    ("d", "drop"),
    (";", "look around"),
    ("m", "message history"),
    ("?", "this help"),
    ("Q", "quit"),
];

/// The footers of a screen that scrolls, widest first.
const SCROLL_FOOTERS: &[&str] = &[
    "j/k PgUp/PgDn Home/End: scroll  Esc: close",
    "j/k: scroll  Esc: close",
    "Esc: close",
];

/// A box over the map: a title in the top border, key/text rows from row
/// `first` on (a scrolled screen), a footer in the bottom border (the first
/// of `footers`, longest first, that fits the frame; none when none fits).
/// Text wider than the frame wraps, under its key when the frame is narrow;
/// when the rows still do not fit the map area, a line at the top says how
/// many are above and one at the bottom how many more there are below, so
/// nothing goes missing unsaid.
fn draw_box(
    frame: &mut Frame,
    title: &str,
    rows: &[(String, String)],
    first: usize,
    footers: &[&str],
    width: i32,
    map_rows: i32,
) {
    // The footer is drawn as " footer " from two columns in, inside the
    // right border.
    let footer = footers
        .iter()
        .copied()
        .find(|f| f.chars().count() as i32 + 5 <= width)
        .unwrap_or("");
    let (lines, fits, key_width) = box_layout(rows, first, width, map_rows);
    let text_width = box_text_width(&lines, key_width, title, footer);
    let box_width = (text_width + 4).min(width);
    let box_height = (lines.len() as i32 + 2).min(map_rows);
    let left = (width - box_width) / 2;
    let top = ((map_rows - box_height) / 2).max(0);
    let (right, bottom) = (left + box_width - 1, top + box_height - 1);
    frame.fill(
        left,
        top,
        box_width,
        box_height,
        Cell::new(' ', Style::Text),
    );
    draw_border(frame, (left, top), (right, bottom));
    let clip = |text: &str, from: i32| -> String {
        text.chars().take((right - from).max(0) as usize).collect()
    };
    frame.put_str(
        left + 2,
        top,
        &format!(" {} ", cut_to(title, (box_width - 5).max(0) as usize)),
        Style::Title,
    );
    for (i, (key, text)) in lines.iter().take(fits).enumerate() {
        let y = top + 1 + i as i32;
        if key.is_empty() {
            frame.put_str(left + 2, y, &clip(text, left + 2), Style::Text);
        } else {
            frame.put_str(left + 2, y, &clip(key, left + 2), Style::Key);
            let at = left + 2 + key_width as i32;
            frame.put_str(at, y, &clip(" - ", at), Style::Text);
            frame.put_str(at + 3, y, &clip(text, at + 3), Style::Text);
        }
    }
    if !footer.is_empty() && box_height >= 2 {
        frame.put_str(
            left + 2,
            bottom,
            &clip(&format!(" {footer} "), left + 2),
            Style::Hint,
        );
    }
}

/// A box's lines in a frame `width` wide, scrolled to show row `first`'s,
/// with how many of them fit in `map_rows`, and the key column's width (0
/// when each text is put under its key).
fn box_layout(
    rows: &[(String, String)],
    first: usize,
    width: i32,
    map_rows: i32,
) -> (Vec<(String, String)>, usize, usize) {
    let key_width = rows
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    // Inside the borders and a space of padding on each side.
    let inner_limit = (width - 4).max(1) as usize;
    // On a narrow frame a wide key column would leave the text a sliver:
    // put the text under its key instead, indented.
    let stacked = key_width > 0 && key_width + 3 > inner_limit / 2;
    let key_width = if stacked { 0 } else { key_width };
    let (lines, first_line) = box_lines(rows, first, key_width, stacked, inner_limit);
    let fits = ((lines.len() as i32 + 2).min(map_rows) - 2).max(0) as usize;
    let first_line = first_line.unwrap_or(lines.len());
    let lines = scroll_window(lines, first_line, fits);
    (lines, fits, key_width)
}

/// The width of a box's text: its widest line, its title's or its footer's,
/// each with room to stand clear of the border.
fn box_text_width(lines: &[(String, String)], key_width: usize, title: &str, footer: &str) -> i32 {
    lines
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
        .max(title.chars().count() + 4)
        .max(if footer.is_empty() {
            0
        } else {
            footer.chars().count() + 4
        }) as i32
}

/// A box's rows as the lines it shows: text beside its key, wrapped to
/// `inner_limit` with continuation lines under the text, or when `stacked`
/// under its key, indented; and the first line of row `first`.
fn box_lines(
    rows: &[(String, String)],
    first: usize,
    key_width: usize,
    stacked: bool,
    inner_limit: usize,
) -> (Vec<(String, String)>, Option<usize>) {
    // Each row with the index of the row it came from, so a scrolled box
    // starts at the first line of row `first` however the rows wrap.
    let rows: Vec<(usize, String, String)> = if stacked {
        rows.iter()
            .enumerate()
            .flat_map(|(origin, (key, text))| {
                let under = wrap(text, inner_limit.saturating_sub(2).max(1))
                    .into_iter()
                    .map(move |line| (origin, String::new(), format!("  {line}")));
                let key_line = (!key.is_empty()).then(|| (origin, String::new(), key.clone()));
                key_line.into_iter().chain(under).collect::<Vec<_>>()
            })
            .collect()
    } else {
        rows.iter()
            .enumerate()
            .map(|(origin, (key, text))| (origin, key.clone(), text.clone()))
            .collect()
    };
    let mut lines: Vec<(String, String)> = Vec::new();
    let mut first_line = None;
    for (origin, key, text) in &rows {
        if *origin >= first && first_line.is_none() {
            first_line = Some(lines.len());
        }
        let indent = if key.is_empty() { 0 } else { key_width + 3 };
        // A row's own leading spaces (text under its key) are kept.
        let body = text.trim_start();
        let lead = " ".repeat(text.len() - body.len());
        let wrapped = wrap(body, inner_limit.saturating_sub(indent + lead.len()).max(1));
        if wrapped.is_empty() {
            lines.push((key.clone(), String::new()));
        }
        for (i, part) in wrapped.into_iter().enumerate() {
            let key = if i == 0 { key.clone() } else { String::new() };
            // Continuation lines sit under the text, not the key.
            let under = if i > 0 {
                " ".repeat(indent)
            } else {
                String::new()
            };
            lines.push((key, format!("{under}{lead}{part}")));
        }
    }
    (lines, first_line)
}

/// A box's border: `-` along the top and bottom, `|` down the sides, `+`
/// at the corners.
fn draw_border(frame: &mut Frame, (left, top): (i32, i32), (right, bottom): (i32, i32)) {
    for x in left..=right {
        frame.set(x, top, Cell::new('-', Style::Border));
        frame.set(x, bottom, Cell::new('-', Style::Border));
    }
    for y in top..=bottom {
        frame.set(left, y, Cell::new('|', Style::Border));
        frame.set(right, y, Cell::new('|', Style::Border));
    }
    for (x, y) in [(left, top), (right, top), (left, bottom), (right, bottom)] {
        frame.set(x, y, Cell::new('+', Style::Border));
    }
}

/// The lines of a box that has room for `fits` of them, from line `start`
/// on: all of them when they fit; else a window that ends in "(N more
/// lines)" when lines are left below and, when it is scrolled and has room
/// for a line besides, starts with "(N lines above)". A start too far down
/// shows the last lines that fill the box, so no room is left empty.
fn scroll_window(lines: Vec<(String, String)>, start: usize, fits: usize) -> Vec<(String, String)> {
    let total = lines.len();
    if total <= fits || fits == 0 {
        return lines;
    }
    let mark = |text: String| (String::new(), text);
    // The mark above takes a row when the box is scrolled; a start so far
    // down that the box would not fill moves up to the last full window.
    let room = fits - 1;
    let start = start.min(total - room);
    if start == 0 || room == 0 {
        let mut window: Vec<_> = lines.into_iter().take(room).collect();
        window.push(mark(format!(
            "({} more {})",
            total - room,
            line_or_lines(total - room)
        )));
        return window;
    }
    if start + room >= total {
        let mut window = vec![mark(format!("({start} {} above)", line_or_lines(start)))];
        window.extend(lines.into_iter().skip(start));
        return window;
    }
    // Lines above and below: both marks, when there is a row between them.
    let shown = room - 1;
    let mut window = Vec::new();
    if shown > 0 {
        window.push(mark(format!("({start} {} above)", line_or_lines(start))));
    }
    let shown = shown.max(1);
    window.extend(lines.into_iter().skip(start).take(shown));
    let below = total - start - shown;
    window.push(mark(format!("({below} more {})", line_or_lines(below))));
    window
}

/// "line" for one, "lines" for any other count.
fn line_or_lines(count: usize) -> &'static str {
    if count == 1 { "line" } else { "lines" }
}

/// The end of a run: a centred box of lines on an otherwise blank frame,
/// "the run is over" in its bottom border. Blank spacing lines go first
/// when the frame is too short for every line.
fn draw_ending(frame: &mut Frame, title: &str, lines: &[String]) {
    let width = i32::from(frame.width());
    let height = i32::from(frame.height());
    let mut wrapped: Vec<String> = Vec::new();
    for line in lines {
        if line.is_empty() {
            wrapped.push(String::new());
        } else {
            wrapped.extend(wrap(line, (width - 4).max(1) as usize));
        }
    }
    if wrapped.len() as i32 + 2 > height {
        wrapped.retain(|line| !line.is_empty());
    }
    let rows: Vec<(String, String)> = wrapped.into_iter().map(|l| (String::new(), l)).collect();
    draw_box(frame, title, &rows, 0, &["the run is over"], width, height);
}

/// The first of `texts` (longest first) no wider than `width`, else the
/// last.
fn first_that_fits<'a>(texts: &[&'a str], width: usize) -> &'a str {
    texts
        .iter()
        .copied()
        .find(|t| t.chars().count() <= width)
        .or(texts.last().copied())
        .unwrap_or("")
}

/// `text`, or when it is longer than `width` its start ending in `...`.
fn cut_to(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let keep = width.saturating_sub(3);
    text.chars().take(keep).collect::<String>() + &".".repeat(width.min(3))
}

/// The first `rows` of `lines`; when some are left out, the last shown line
/// ends in `...` (cut to make room) so the reader knows there is more.
fn cut_with_ellipsis(mut lines: Vec<String>, rows: usize, width: usize) -> Vec<String> {
    if lines.len() <= rows {
        return lines;
    }
    lines.truncate(rows);
    if let Some(last) = lines.last_mut() {
        // Cut to make room for the mark even when the line was short.
        let keep = width.saturating_sub(3).min(last.chars().count());
        *last = last.chars().take(keep).collect::<String>() + &".".repeat(width.min(3));
    }
    lines
}

/// Word-wraps `text` to lines of at most `width` characters; a word longer
/// than a line is cut.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    if is_one_line(text, width) {
        return vec![text.to_string()];
    }
    wrap_words(text, width)
}

/// [`wrap`] of a string the caller no longer needs, which becomes the line
/// when it is one.
fn wrap_owned(text: String, width: usize) -> Vec<String> {
    if is_one_line(&text, width) {
        return vec![text];
    }
    wrap_words(&text, width)
}

/// Whether `text` is its own wrap at `width`, found without wrapping it:
/// printable ASCII words one space apart, no wider than `width`. Most
/// messages are, and every message on screen is wrapped for every frame.
fn is_one_line(text: &str, width: usize) -> bool {
    let bytes = text.as_bytes();
    if bytes.is_empty() || bytes.len() > width {
        return false;
    }
    let mut after_space = true; // so a leading space is refused too
    for &b in bytes {
        match b {
            b' ' if !after_space => after_space = true,
            b'!'..=b'~' => after_space = false,
            _ => return false,
        }
    }
    !after_space
}

fn wrap_words(text: &str, width: usize) -> Vec<String> {
    // This counts characters as it goes and never copies a word.
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut current = String::new();
    let mut used = 0; // characters in `current`
    for mut word in text.split_whitespace() {
        loop {
            let length = word.chars().count();
            if used + length + usize::from(used > 0) <= width {
                if used > 0 {
                    current.push(' ');
                    used += 1;
                }
                current.push_str(word);
                used += length;
                break;
            }
            if used > 0 {
                lines.push(std::mem::take(&mut current));
                used = 0;
                continue;
            }
            // The word alone is wider than a line: cut it.
            let cut = word
                .char_indices()
                .nth(width)
                .map_or(word.len(), |(at, _)| at);
            lines.push(word[..cut].to_string());
            word = &word[cut..];
            if word.is_empty() {
                break;
            }
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

/// The reticle's keys when Enter throws, widest first.
const THROW_HINTS: &[&str] = &[
    "move/Tab: aim  Enter: throw  Esc: cancel",
    "Tab: aim  Enter: throw",
    "Enter: throw",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_camera_centres_and_clamps_at_the_edges() {
        let map = Map::new(80, 40);
        assert_eq!(camera(&map, 20, 10, Pos::new(40, 20)), Pos::new(30, 15));
        assert_eq!(camera(&map, 20, 10, Pos::new(2, 1)), Pos::new(0, 0));
        assert_eq!(camera(&map, 20, 10, Pos::new(79, 39)), Pos::new(60, 30));
        // A view wider than the map stays at the left edge.
        assert_eq!(camera(&map, 120, 50, Pos::new(79, 39)), Pos::new(0, 0));
    }

    /// The wrap written plainly, word by word with copies: the
    /// faster one must cut every text at the same places.
    fn wrap_by_copies(text: &str, width: usize) -> Vec<String> {
        let width = width.max(1);
        let mut lines = Vec::new();
        let mut current = String::new();
        for word in text.split_whitespace() {
            let mut word: String = word.to_string();
            loop {
                let used = current.chars().count();
                let needed = word.chars().count() + usize::from(used > 0);
                if used + needed <= width {
                    if used > 0 {
                        current.push(' ');
                    }
                    current.push_str(&word);
                    break;
                }
                if used > 0 {
                    lines.push(std::mem::take(&mut current));
                    continue;
                }
                let head: String = word.chars().take(width).collect();
                word = word.chars().skip(width).collect();
                lines.push(head);
                if word.is_empty() {
                    break;
                }
            }
        }
        if !current.is_empty() {
            lines.push(current);
        }
        lines
    }

    #[test]
    fn wrapping_cuts_where_the_plain_wrap_does() {
        use proptest::prelude::*;
        proptest!(|(text in "[a-zé €\\t\\n]{0,80}", width in 0usize..30)| {
            prop_assert_eq!(wrap(&text, width), wrap_by_copies(&text, width));
        });
        // Printable ASCII, where most texts are one line as they are and
        // the rest differ from that by a space or a character too many.
        proptest!(|(text in "[ -~]{0,40}", width in 0usize..50)| {
            prop_assert_eq!(wrap(&text, width), wrap_by_copies(&text, width));
            prop_assert_eq!(wrap_owned(text.clone(), width), wrap_by_copies(&text, width));
        });
    }

    /// The window's texts for `total` lines "0".."total-1".
    fn window(total: usize, start: usize, fits: usize) -> Vec<String> {
        let lines = (0..total).map(|i| (String::new(), i.to_string())).collect();
        scroll_window(lines, start, fits)
            .into_iter()
            .map(|(_, text)| text)
            .collect()
    }

    #[test]
    fn a_scrolled_window_says_what_is_above_and_below_and_fills_its_room() {
        assert_eq!(window(3, 2, 5), ["0", "1", "2"], "all fit: no scrolling");
        assert_eq!(window(6, 0, 3), ["0", "1", "(4 more lines)"]);
        assert_eq!(
            window(6, 2, 4),
            ["(2 lines above)", "2", "3", "(2 more lines)"]
        );
        assert_eq!(
            window(6, 1, 4),
            ["(1 line above)", "1", "2", "(3 more lines)"]
        );
        // Near the end the window moves up to fill the box.
        assert_eq!(window(6, 5, 3), ["(4 lines above)", "4", "5"]);
        assert_eq!(window(6, 99, 3), ["(4 lines above)", "4", "5"]);
        // Two rows cannot hold two marks and a line: the line and what is
        // below; one row holds only the count.
        assert_eq!(window(6, 2, 2), ["2", "(3 more lines)"]);
        assert_eq!(window(6, 5, 2), ["(5 lines above)", "5"]);
        assert_eq!(window(6, 3, 1), ["(6 more lines)"]);
        // Whatever the start, a box with room for any row uses all of it
        // that its lines need, and no more.
        for total in 0..8 {
            for start in 0..10 {
                for fits in 1..8 {
                    let shown = window(total, start, fits);
                    assert_eq!(
                        shown.len(),
                        total.min(fits),
                        "{total} lines from {start} in {fits}: {shown:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn wrapping_keeps_words_and_cuts_only_overlong_ones() {
        assert_eq!(
            wrap("the quick brown fox", 9),
            vec!["the quick", "brown fox"]
        );
        assert_eq!(wrap("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 5), Vec::<String>::new());
        assert_eq!(wrap("a b", 1), vec!["a", "b"]);
    }
}
