//! Text from files made safe to print. A recording is a bug report from
//! someone else, and its free text (a note, a failure's message, the game's
//! name, an origin), a content file's entries and a report's names reach
//! the terminal in what deja prints. A control character there is an
//! instruction to the terminal, not text: ESC starts a sequence that can
//! clear the screen, move the cursor or set the window's title (OSC), C1's
//! CSI does the same in one byte, and the bidirectional overrides (U+202E)
//! make a line read in another order than it is written.
//!
//! Every line deja prints for a person goes through [`lines`] at the one
//! place it is written (`output::out`, `output::note`, `output::err`
//! and the error `cli::run` prints), and the status line drawn under a
//! frame through [`escape`]; JSON output is escaped by serde_json instead.
//! An escape is written as Rust writes one (`\u{1b}`, `\t`), so what was
//! in the file can still be read and told apart.

use std::borrow::Cow;

/// Whether `c` must not reach a terminal raw: the game's own definition
/// ([`game_core::frame::changes_how_text_reads`]), so what content may
/// hold and what deja escapes cannot drift apart.
pub fn is_unsafe(c: char) -> bool {
    game_core::frame::changes_how_text_reads(c)
}

/// `text` with every unsafe character (see [`is_unsafe`]) escaped, line
/// breaks included: for one field printed inside a line.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_but(text, |_| false)
}

/// `text` with every unsafe character escaped except the line break: for
/// whole lines of output, whose breaks are deja's own.
pub fn lines(text: &str) -> Cow<'_, str> {
    escape_but(text, |c| c == '\n')
}

fn escape_but(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| is_unsafe(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe(c) && !keep(c) {
            match c {
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                '\n' => out.push_str("\\n"),
                _ => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_and_bidi_character_is_escaped_and_the_rest_kept() {
        let hostile = "a\u{1b}]0;title\u{7}b\u{9b}2J\u{7f}c\u{202e}d\u{2067}e\tf\r\ng";
        assert_eq!(
            escape(hostile),
            "a\\u{1b}]0;title\\u{7}b\\u{9b}2J\\u{7f}c\\u{202e}d\\u{2067}e\\tf\\r\\ng"
        );
        assert_eq!(
            lines(hostile),
            "a\\u{1b}]0;title\\u{7}b\\u{9b}2J\\u{7f}c\\u{202e}d\\u{2067}e\\tf\\r\ng"
        );
        // Nothing unsafe is left, by the definition every check uses.
        assert!(!escape(hostile).chars().any(is_unsafe));
        assert!(!lines(hostile).chars().any(|c| is_unsafe(c) && c != '\n'));
        // Text without them is not copied, and keeps its letters, marks,
        // backslashes and glyphs.
        let plain = "cave spider #12 ─ é ✓ C:\\path \\u{1b}";
        assert!(matches!(escape(plain), Cow::Borrowed(_)));
        assert_eq!(escape(plain), plain);
    }
}
