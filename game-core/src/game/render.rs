//! Drawing a game into a [`Frame`]: a pure function of the state and a size.
//!
//! Layout, top to bottom: the map viewport, the status line, and the last
//! messages. Screens are drawn over the map in a box; the end of a run
//! replaces everything with a tombstone or a victory screen.

use crate::content::ItemEffect;
use crate::frame::{Cell, Frame, MIN_FRAME_HEIGHT, MIN_FRAME_WIDTH, Style};
use crate::geom::Pos;
use crate::map::{Map, Tile};

use super::Game;
use super::actions::line;
use super::screens::{PackMode, Purpose, Reticle, Screen, capitalise};
use super::state::{RunStatus, slot_letter};

/// The viewport's top-left corner in map coordinates: the focus centred,
/// clamped so the view never shows space beyond the map's edges.
pub fn camera(map: &Map, view_width: i32, view_height: i32, focus: Pos) -> Pos {
    Pos::new(
        (focus.x - view_width / 2).clamp(0, (map.width() - view_width).max(0)),
        (focus.y - view_height / 2).clamp(0, (map.height() - view_height).max(0)),
    )
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
        for sy in 0..height {
            for sx in 0..width {
                let p = Pos::new(top_left.x + sx, top_left.y + sy);
                if !map.in_bounds(p) || !map.is_revealed(p) {
                    continue;
                }
                let tile = map.tile(p);
                let style = if !map.is_visible(p) {
                    Style::Remembered
                } else {
                    match tile {
                        Tile::Wall => Style::Wall,
                        Tile::Floor => Style::Floor,
                        Tile::Door => Style::Door,
                        Tile::StairsDown => Style::Stairs,
                        Tile::Exit => Style::Exit,
                    }
                };
                frame.set(sx, sy, Cell::new(tile.glyph(), style));
            }
        }
        let mut put = |p: Pos, glyph: char, style: Style| {
            let (sx, sy) = to_screen(p);
            if sx >= 0 && sy >= 0 && sx < width && sy < height {
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
        let length = |(head, words, tail, gap): &(String, Vec<&str>, String, &str)| {
            head.len()
                + words.iter().map(|w| gap.len() + w.len()).sum::<usize>()
                + gap.len()
                + tail.len()
        };
        let (head, words, tail, gap) = if length(&full) as i32 <= width {
            full
        } else {
            compact
        };
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
        col = frame.put_str(col, row, gap, Style::Status);
        frame.put_str(col, row, &tail, Style::Status);
    }

    /// The newest messages, wrapped, newest at the bottom. Lines from this
    /// turn are bright, older ones dim.
    fn draw_messages(&self, frame: &mut Frame, top: i32, rows: i32, width: i32) {
        let now = self.state.clock.turn();
        let mut lines: Vec<(String, Style)> = Vec::new();
        for message in self.state.log.messages().iter().rev() {
            let style = if message.turn >= now {
                Style::Message
            } else {
                Style::OldMessage
            };
            for line in wrap(&message.text, width as usize).into_iter().rev() {
                lines.push((line, style));
            }
            if lines.len() >= rows as usize {
                break;
            }
        }
        for (i, (line, style)) in lines.iter().take(rows as usize).enumerate() {
            frame.put_str(0, top + rows - 1 - i as i32, line, *style);
        }
    }

    fn draw_screen(&self, frame: &mut Frame, screen: &Screen, width: i32, map_rows: i32) {
        let pack = &self.state.player.pack;
        let (title, rows, footer): (String, Vec<(String, String)>, &str) = match screen {
            Screen::Pack(mode) => {
                let rows = pack
                    .slots()
                    .filter(|&(slot, _)| self.admits(*mode, slot))
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
                    .collect();
                let footer = if *mode == PackMode::Browse {
                    "letter: choose  Esc: close"
                } else {
                    "letter: pick  Esc: cancel"
                };
                (mode.title().to_string(), rows, footer)
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
                (capitalise(&def.describe(stack.count)), rows, "Esc: back")
            }
            Screen::Reticle(reticle) => {
                let hint = match reticle.purpose {
                    Purpose::Look => "move: look  Tab: next  Esc: done",
                    Purpose::Throw { .. } => "move/Tab: aim  Enter: throw  Esc: cancel",
                    Purpose::Use { .. } => "move/Tab: aim  Enter: read  Esc: cancel",
                };
                // The reticle keeps the map visible: describe the target on
                // the message rows instead of drawing a box.
                let text = self.describe_tile(reticle.cursor);
                let top = map_rows + 1;
                let rows = frame.height() as i32 - top;
                frame.fill(0, top, width, rows, Cell::BLANK);
                let mut lines = wrap(&text, width as usize);
                lines.truncate((rows - 1).max(1) as usize);
                for (i, line) in lines.iter().enumerate() {
                    frame.put_str(0, top + i as i32, line, Style::Text);
                }
                if rows > 1 {
                    frame.put_str(0, top + rows - 1, hint, Style::Hint);
                }
                return;
            }
            Screen::Help => (
                "Help".to_string(),
                HELP.iter()
                    .map(|(k, t)| ((*k).to_string(), (*t).to_string()))
                    .collect(),
                "Esc: close",
            ),
            Screen::QuitPrompt => (
                "Quit".to_string(),
                vec![(String::new(), "Really leave the Undercroft?".to_string())],
                "y: quit  n/Esc: stay",
            ),
        };
        draw_box(frame, &title, &rows, footer, width, map_rows);
    }
}

const HELP: [(&str, &str); 14] = [
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
    ("?", "this help"),
    ("Q", "quit"),
];

/// A box over the map: a title in the top border, key/text rows, a footer in
/// the bottom border. Text wider than the frame wraps; rows that still do not
/// fit the map area are left out.
fn draw_box(
    frame: &mut Frame,
    title: &str,
    rows: &[(String, String)],
    footer: &str,
    width: i32,
    map_rows: i32,
) {
    let key_width = rows
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    // Inside the borders and a space of padding on each side.
    let inner_limit = (width - 4).max(1) as usize;
    let mut lines: Vec<(String, String)> = Vec::new();
    for (key, text) in rows {
        let indent = if key.is_empty() { 0 } else { key_width + 3 };
        let wrapped = wrap(text, inner_limit.saturating_sub(indent).max(1));
        if wrapped.is_empty() {
            lines.push((key.clone(), String::new()));
        }
        for (i, part) in wrapped.into_iter().enumerate() {
            lines.push((if i == 0 { key.clone() } else { String::new() }, part));
            if i > 0 && indent > 0 {
                // Continuation lines sit under the text, not the key.
                if let Some(last) = lines.last_mut() {
                    last.1 = format!("{}{}", " ".repeat(indent), last.1);
                }
            }
        }
    }
    let text_width = lines
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
        }) as i32;
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
    let clip = |text: &str, from: i32| -> String {
        text.chars().take((right - from).max(0) as usize).collect()
    };
    frame.put_str(
        left + 2,
        top,
        &clip(&format!(" {title} "), left + 2),
        Style::Title,
    );
    for (i, (key, text)) in lines
        .iter()
        .take((box_height - 2).max(0) as usize)
        .enumerate()
    {
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

/// The end of a run: a centred box of lines on an otherwise blank frame.
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
    wrapped.push(String::new());
    wrapped.push("(the run is over)".into());
    let rows: Vec<(String, String)> = wrapped.into_iter().map(|l| (String::new(), l)).collect();
    draw_box(frame, title, &rows, "", width, height);
}

/// Word-wraps `text` to lines of at most `width` characters; a word longer
/// than a line is cut.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
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
            // The word alone is wider than a line: cut it.
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
