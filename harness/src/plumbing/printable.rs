//! Text from outside made safe to print. A recording is a bug report from
//! someone else, and its free text (a note, a failure's message, the game's
//! version, an origin), a file's name, a content file's entries and a
//! report's names reach the terminal in what deja prints. A character there
//! may be an instruction to the terminal (ESC, CSI), may start a line that
//! looks like deja's own, may reorder the line (U+202E), or may draw as
//! nothing (U+200B), so that two different values look the same.
//!
//! What each character is, and how it is shown, is decided once, by the
//! game's [`game_core::text`] (which content validation and the frame's
//! cells use too); this module is its harness side:
//! - every value from outside put into a message goes through [`escape`]
//!   where it is put, so a line break in it is written `\n` and can never
//!   start a line of its own;
//! - every line deja prints for a person goes through [`lines`] at the one
//!   place lines are written (`output::out`, `output::note`, `output::err`
//!   and the error `cli::run` prints), which catches any character that
//!   reached a message unescaped, but must keep `\n`, deja's own;
//! - the status line drawn under a frame goes through [`cells`].
//!
//! JSON output is escaped by serde_json instead.

use std::borrow::Cow;
use std::path::Path;

use game_core::text::Place;

/// Whether `c` is never printed raw, wherever it is: a control, a line
/// break, a bidirectional control, a character that draws as nothing, a
/// space that is not the space.
pub fn is_unsafe(c: char) -> bool {
    !game_core::text::shows_as_itself(c, Place::Field)
}

/// `text` as one value inside a line: every unsafe character escaped, line
/// breaks included.
pub fn escape(text: &str) -> Cow<'_, str> {
    game_core::text::shown(text, Place::Field)
}

/// A path as one value inside a line: [`escape`] of its text (a name that
/// is not UTF-8 shows U+FFFD where its bytes do not read).
pub fn path(path: &Path) -> String {
    escape(&path.to_string_lossy()).into_owned()
}

/// `text` in double quotes as one value inside a line: [`escape`]d, with
/// its own quotes and backslashes escaped too, so where it ends is plain.
pub fn quoted(text: &str) -> String {
    game_core::text::quoted(text)
}

/// `text` as whole lines of output: every unsafe character escaped except
/// the line feed, whose breaks are deja's own.
pub fn lines(text: &str) -> Cow<'_, str> {
    game_core::text::shown(text, Place::Lines)
}

/// `text` for a frame's cells, one column each: as [`escape`], with wide
/// characters and marks escaped too.
pub fn cells(text: &str) -> Cow<'_, str> {
    game_core::text::shown(text, Place::Cell)
}

/// How many terminal columns `text` takes once [`escape`]d: for a caret
/// under a column of it.
pub fn columns(text: &str) -> usize {
    game_core::text::columns(text)
}

/// `text` as one line with a caret under its `column`th character
/// (1-based; one past the end points after it), for an error that names a
/// column: the line [`escape`]d, the caret's line of spaces measured in
/// terminal columns (a wide character takes two, an escape its length),
/// and a text longer than `room` columns cut to a window of about that
/// many around the caret, `…` where it is cut.
pub fn with_caret(text: &str, column: usize, room: usize) -> (String, String) {
    let pieces: Vec<(String, usize)> = text
        .chars()
        .map(|c| {
            let piece = escape(c.encode_utf8(&mut [0; 4])).into_owned();
            let width = columns(&piece);
            (piece, width)
        })
        .collect();
    let at = column.saturating_sub(1).min(pieces.len());
    // The window: up to half the room before the caret, the rest after.
    let mut start = at;
    let mut used = 0;
    while start > 0 && used + pieces[start - 1].1 <= room / 2 {
        start -= 1;
        used += pieces[start].1;
    }
    let mut end = at;
    while end < pieces.len() && used + pieces[end].1 <= room {
        used += pieces[end].1;
        end += 1;
    }
    let mut line = String::new();
    if start > 0 {
        line.push('…');
    }
    let before: usize = pieces[start..at].iter().map(|(_, w)| w).sum();
    let caret = " ".repeat(usize::from(start > 0) + before) + "^";
    for (piece, _) in &pieces[start..end] {
        line.push_str(piece);
    }
    if end < pieces.len() {
        line.push('…');
    }
    (line, caret)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unsafe_character_is_escaped_and_the_rest_kept() {
        let hostile = "a\u{1b}]0;title\u{7}b\u{9b}2J\u{7f}c\u{202e}d\u{2067}e\tf\r\ng\u{200b}h";
        assert_eq!(
            escape(hostile),
            "a\\u{1b}]0;title\\u{7}b\\u{9b}2J\\u{7f}c\\u{202e}d\\u{2067}e\\tf\\r\\ng\\u{200b}h"
        );
        assert_eq!(
            lines(hostile),
            "a\\u{1b}]0;title\\u{7}b\\u{9b}2J\\u{7f}c\\u{202e}d\\u{2067}e\\tf\\r\ng\\u{200b}h"
        );
        // Nothing unsafe is left, by the definition every check uses.
        assert!(!escape(hostile).chars().any(is_unsafe));
        assert!(!lines(hostile).chars().any(|c| is_unsafe(c) && c != '\n'));
        // Text without them is not copied, and keeps its letters, marks,
        // wide characters, backslashes and glyphs.
        let plain = "cave spider #12 ─ é ✓ 鼠 C:\\path \\u{1b}";
        assert!(matches!(escape(plain), Cow::Borrowed(_)));
        assert_eq!(escape(plain), plain);
        assert_eq!(cells("鼠"), "\\u{9f20}");
    }

    #[test]
    fn a_caret_stands_under_its_column_after_wide_and_escaped_characters() {
        // Each line, then where its caret is, written as the terminal
        // lays them out.
        let caret_at = |text: &str, column: usize| {
            let (line, caret) = with_caret(text, column, 60);
            (line, caret.len() - 1)
        };
        assert_eq!(caret_at("hp <= x", 7), ("hp <= x".into(), 6));
        // Two columns for each wide character before the caret.
        assert_eq!(caret_at("鼠鼠 == x", 7), ("鼠鼠 == x".into(), 8));
        // An escape's length for each escaped one: `\t` is two columns.
        assert_eq!(caret_at("a\tb", 3), ("a\\tb".into(), 3));
        assert_eq!(caret_at("\u{200b}x", 2), ("\\u{200b}x".into(), 8));
        // One past the end points after the text.
        assert_eq!(caret_at("depth ==", 9), ("depth ==".into(), 8));
        // A long text shows a window around the caret, cut with `…`.
        let long = format!("{}X{}", "a".repeat(5000), "b".repeat(5000));
        let (line, caret) = with_caret(&long, 5001, 60);
        assert!(line.starts_with('…') && line.ends_with('…'), "{line}");
        assert!(columns(&line) <= 62, "{}", columns(&line));
        assert_eq!(
            line.chars().nth(caret.len() - 1),
            Some('X'),
            "{line}\n{caret}"
        );
    }

    #[test]
    fn a_path_with_a_line_break_stays_on_its_line() {
        let forged = Path::new("b.ron\n  2  same: a.ron");
        assert_eq!(path(forged), "b.ron\\n  2  same: a.ron");
    }
}
