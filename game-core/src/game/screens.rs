//! The screens of the modal stack, as data, and the keys that name
//! directions and pack slots.
//!
//! Screens sit in front of the map; what a key does on each is
//! `dispatch.rs`'s.

use serde::{Deserialize, Serialize};

use crate::geom::{Dir, Pos};
use crate::keys::{Key, KeyCode, Mods};

use super::pack::slot_letter;

/// One screen of the modal stack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Screen {
    /// A pack listing; picking a letter does what the mode says.
    Pack(PackMode),
    /// What to do with one item (opened from the browsing pack).
    ItemMenu { slot: u8 },
    /// The targeting reticle.
    Reticle(Reticle),
    /// The help; `top` is the first of its rows shown (it scrolls).
    Help { top: u16 },
    /// The messages kept in the log, newest first; `top` is the first shown.
    History { top: u16 },
    /// "Really quit? (y/n)"
    QuitPrompt,
}

/// Why the pack is open: `i` browses, the others carry their own verb.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PackMode {
    Browse,
    Drop,
    Apply,
    Throw,
    Wear,
}

impl PackMode {
    pub fn title(self) -> &'static str {
        match self {
            PackMode::Browse => "Your pack",
            PackMode::Drop => "Drop what?",
            PackMode::Apply => "Use what?",
            PackMode::Throw => "Throw what?",
            PackMode::Wear => "Wear or wield what?",
        }
    }

    /// What the refusal says when nothing in the pack fits the mode.
    pub(super) fn nothing_to(self) -> &'static str {
        match self {
            PackMode::Browse => "Your pack is empty.",
            PackMode::Drop => "You have nothing to drop.",
            PackMode::Apply => "You have nothing to use.",
            PackMode::Throw => "You have nothing to throw.",
            PackMode::Wear => "You have nothing to wear or wield.",
        }
    }

    /// What a refused pick says.
    pub(super) fn cannot(self) -> &'static str {
        match self {
            PackMode::Throw => "You can't throw that.",
            PackMode::Wear => "You can't wear or wield that.",
            _ => "You can't do that with it.",
        }
    }
}

/// The targeting reticle: where it points and what for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reticle {
    pub purpose: Purpose,
    pub cursor: Pos,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Purpose {
    /// `;`: describe what is there. Spends no turn.
    Look,
    Throw {
        slot: u8,
    },
    /// Using an item that needs a target (a scroll read at a creature).
    Use {
        slot: u8,
    },
}

/// How many rows PgUp and PgDn move a scrolling screen. A page is a fixed
/// number of rows, not the frame's height: the terminal's size never reaches
/// the state, and five rows is about what the smallest frame shows.
pub const SCROLL_PAGE: u16 = 5;

/// Where a scrolling screen of `rows` rows puts its first row shown, `top`,
/// after `key`: `j`/Down and `k`/Up one row, PgDn/PgUp a page, Home and End
/// the first and the last row. `None` for a key that does not scroll. The
/// frame shows as many rows from `top` as fit, and never leaves room empty
/// at the bottom that rows above could fill.
pub fn scrolled(top: u16, rows: usize, key: Key) -> Option<u16> {
    if !key.mods.is_empty() {
        return None;
    }
    let last = u16::try_from(rows.saturating_sub(1)).unwrap_or(u16::MAX);
    let top = top.min(last);
    Some(match key.code {
        KeyCode::Char('j') | KeyCode::Down => top.saturating_add(1).min(last),
        KeyCode::Char('k') | KeyCode::Up => top.saturating_sub(1),
        KeyCode::PageDown => top.saturating_add(SCROLL_PAGE).min(last),
        KeyCode::PageUp => top.saturating_sub(SCROLL_PAGE),
        KeyCode::Home => 0,
        KeyCode::End => last,
        _ => return None,
    })
}

/// The eight-way movement keys: vi keys, arrows, and the numpad (as digits, or
/// as Home/End/PgUp/PgDn with Num Lock off). `5` is not here: it waits.
pub fn direction_of(key: Key) -> Option<Dir> {
    if !key.mods.without(Mods::SHIFT).is_empty() {
        return None;
    }
    Some(match key.code {
        KeyCode::Char('k' | '8') | KeyCode::Up => Dir::N,
        KeyCode::Char('u' | '9') | KeyCode::PageUp => Dir::NE,
        KeyCode::Char('l' | '6') | KeyCode::Right => Dir::E,
        KeyCode::Char('n' | '3') | KeyCode::PageDown => Dir::SE,
        KeyCode::Char('j' | '2') | KeyCode::Down => Dir::S,
        KeyCode::Char('b' | '1') | KeyCode::End => Dir::SW,
        KeyCode::Char('h' | '4') | KeyCode::Left => Dir::W,
        KeyCode::Char('y' | '7') | KeyCode::Home => Dir::NW,
        _ => return None,
    })
}

/// Shift + a direction runs: the capital vi keys, or Shift with an arrow or
/// numpad navigation key.
pub fn run_direction_of(key: Key) -> Option<Dir> {
    match key.code {
        KeyCode::Char(c) if key.mods.is_empty() && "HJKLYUBN".contains(c) => {
            direction_of(Key::char(c.to_ascii_lowercase()))
        }
        KeyCode::Char(_) => None,
        _ if key.mods == Mods::SHIFT => direction_of(Key::plain(key.code)),
        _ => None,
    }
}

/// The key that moves in `dir` (the vi key), for scripts and intents.
pub fn key_for_direction(dir: Dir) -> Key {
    Key::char(match dir {
        Dir::N => 'k',
        Dir::NE => 'u',
        Dir::E => 'l',
        Dir::SE => 'n',
        Dir::S => 'j',
        Dir::SW => 'b',
        Dir::W => 'h',
        Dir::NW => 'y',
    })
}

/// The key that runs in `dir`: the capital vi key.
pub fn run_key_for_direction(dir: Dir) -> Key {
    match key_for_direction(dir).code {
        KeyCode::Char(c) => Key::char(c.to_ascii_uppercase()),
        code => Key::with_mods(code, Mods::SHIFT),
    }
}

/// The pack letter of `slot` as a key, for intents.
pub fn key_for_slot(slot: u8) -> Key {
    Key::char(slot_letter(slot))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vi_keys_arrows_and_numpad_agree() {
        for (vi, digit, nav) in [
            ('k', '8', KeyCode::Up),
            ('u', '9', KeyCode::PageUp),
            ('l', '6', KeyCode::Right),
            ('n', '3', KeyCode::PageDown),
            ('j', '2', KeyCode::Down),
            ('b', '1', KeyCode::End),
            ('h', '4', KeyCode::Left),
            ('y', '7', KeyCode::Home),
        ] {
            let dir = direction_of(Key::char(vi)).expect("a direction");
            assert_eq!(direction_of(Key::char(digit)), Some(dir));
            assert_eq!(direction_of(Key::plain(nav)), Some(dir));
            assert_eq!(key_for_direction(dir), Key::char(vi));
            assert_eq!(
                run_direction_of(Key::char(vi.to_ascii_uppercase())),
                Some(dir)
            );
            assert_eq!(
                run_direction_of(Key::with_mods(nav, Mods::SHIFT)),
                Some(dir)
            );
            assert_eq!(run_direction_of(Key::char(vi)), None);
        }
        assert_eq!(direction_of(Key::char('5')), None);
        assert_eq!(direction_of(Key::with_mods(KeyCode::Up, Mods::CTRL)), None);
    }
}
