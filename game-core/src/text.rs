//! How text is shown: the one decision, for every character, of whether it
//! may reach a terminal or a frame as itself or must be written as an
//! escape.
//!
//! Text reaches the screen from places deja does not control: a recording
//! is a bug report from someone else (its note, its failure's message, the
//! game's version), a file's name, a content file's entries. A character
//! there may be an instruction rather than text (ESC starts a sequence that
//! clears the screen or sets the window's title), may start a new line
//! that looks like deja's own output, may reorder the line, may be
//! invisible (so two different versions look the same), or may take two
//! columns where the layout counted one. [`class`] names what each
//! character is; [`shown`] writes text for one of three places ([`Place`]),
//! escaping what that place cannot show as itself; [`columns`] measures
//! text as a terminal lays it out. The harness prints every line through
//! [`shown`], content validation refuses what is not [`Class::Plain`], and
//! [`crate::frame::Frame::put_str`] draws through it, so a frame's cell is
//! always one column.
//!
//! An escape is written as Rust writes one (`\n`, `\t`, `\u{200b}`), so
//! what was in the file can still be read and told apart.

use std::borrow::Cow;

use unicode_width::UnicodeWidthChar;

/// What a character is, for showing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Drawn as itself in one column: letters, digits, punctuation, symbols,
    /// the space.
    Plain,
    /// Drawn as itself in two columns: CJK ideographs, most emoji.
    Wide,
    /// Drawn over the character before it in no column of its own: a
    /// combining accent.
    Mark,
    /// Ends a line: line feed, carriage return, vertical tab, form feed,
    /// next line (U+0085), the line and paragraph separators.
    LineBreak,
    /// Any other control: C0 (tab, ESC, ...), DEL, C1 (CSI, ...).
    Control,
    /// Reorders the text around it: the bidirectional marks, embeddings,
    /// overrides and isolates.
    Bidi,
    /// Draws as nothing: Unicode's default-ignorable characters (zero-width
    /// space and joiners, soft hyphen, word joiner, byte-order mark,
    /// variation selectors, tag characters, fillers).
    Invisible,
    /// Draws as a blank, but is not the space: the no-break space and the
    /// typographic and ideographic spaces.
    OtherSpace,
}

impl Class {
    /// Every class, in the order a reader meets them above.
    pub const ALL: [Class; 8] = [
        Class::Plain,
        Class::Wide,
        Class::Mark,
        Class::LineBreak,
        Class::Control,
        Class::Bidi,
        Class::Invisible,
        Class::OtherSpace,
    ];

    /// The class in words, for a refusal: "a character that draws as
    /// nothing".
    pub const fn name(self) -> &'static str {
        match self {
            Class::Plain => "a character",
            Class::Wide => "a character two columns wide",
            Class::Mark => "a combining mark",
            Class::LineBreak => "a line break",
            Class::Control => "a control character",
            Class::Bidi => "a bidirectional control",
            Class::Invisible => "a character that draws as nothing",
            Class::OtherSpace => "a space that is not the plain space",
        }
    }
}

/// What `c` is.
pub fn class(c: char) -> Class {
    if c.is_ascii() {
        return match c {
            ' '..='~' => Class::Plain,
            '\n' | '\r' | '\u{b}' | '\u{c}' => Class::LineBreak,
            _ => Class::Control,
        };
    }
    match c {
        '\u{85}' | '\u{2028}' | '\u{2029}' => Class::LineBreak,
        _ if c.is_control() => Class::Control,
        '\u{061C}'
        | '\u{200E}'
        | '\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}' => Class::Bidi,
        _ if is_default_ignorable(c) => Class::Invisible,
        '\u{A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => {
            Class::OtherSpace
        }
        _ => match c.width() {
            Some(0) => Class::Mark,
            Some(2) => Class::Wide,
            _ => Class::Plain,
        },
    }
}

/// Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt),
/// less the bidirectional controls [`class`] names first: what a renderer
/// draws as nothing when it cannot show it.
fn is_default_ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200D}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFF8}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// Where text is shown, which decides what it may hold as itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A value inside a line of output (a file name, a recording's note):
    /// only characters that draw as themselves in their place, wide ones
    /// and marks included; a line break is escaped, so it can never start
    /// a line that looks like the program's own.
    Field,
    /// Whole lines of output, whose line feeds are the program's own: as
    /// [`Place::Field`], with `\n` kept.
    Lines,
    /// A frame's cells, one column each: as [`Place::Field`], with wide
    /// characters and marks escaped too.
    Cell,
}

/// Whether `c` is shown as itself in `place`.
pub fn shows_as_itself(c: char, place: Place) -> bool {
    match class(c) {
        Class::Plain => true,
        Class::Wide | Class::Mark => place != Place::Cell,
        Class::LineBreak => c == '\n' && place == Place::Lines,
        Class::Control | Class::Bidi | Class::Invisible | Class::OtherSpace => false,
    }
}

/// `text` as it may be shown in `place`: every character that may not be
/// shown as itself there written as an escape (`\n`, `\r`, `\t`,
/// `\u{200b}`). Text that needs none is returned as it is.
pub fn shown(text: &str, place: Place) -> Cow<'_, str> {
    // Most text is printable ASCII: one pass over its bytes.
    if text.bytes().all(|b| (b' '..=b'~').contains(&b))
        || text.chars().all(|c| shows_as_itself(c, place))
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if shows_as_itself(c, place) {
            out.push(c);
            continue;
        }
        match c {
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            _ => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
        }
    }
    Cow::Owned(out)
}

/// `text` in double quotes as one value inside a line: its own quotes and
/// backslashes escaped, then [`shown`] as a [`Place::Field`], so where it
/// ends is plain and nothing in it starts a line.
pub fn quoted(text: &str) -> String {
    let inner = text.replace('\\', "\\\\").replace('"', "\\\"");
    format!("\"{}\"", shown(&inner, Place::Field))
}

/// How many terminal columns `text` takes once [`shown`] in a line: a wide
/// character two, a mark none, an escape as many as its characters.
pub fn columns(text: &str) -> usize {
    shown(text, Place::Field)
        .chars()
        .map(|c| match class(c) {
            Class::Wide => 2,
            Class::Mark => 0,
            _ => 1,
        })
        .sum()
}

/// "a dart" -> "A dart".
pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One character of each class, with the classes every one of them
    /// must be: what each class holds, written out.
    const EXAMPLES: [(Class, &[char]); 8] = [
        (
            Class::Plain,
            &['a', 'Z', '7', ' ', '~', '#', 'é', 'ß', 'Ж', '─', '✓', '…'],
        ),
        (Class::Wide, &['中', '語', 'ア', '한', '🐀', '\u{3001}']),
        (Class::Mark, &['\u{301}', '\u{308}', '\u{20dd}']),
        (
            Class::LineBreak,
            &[
                '\n', '\r', '\u{b}', '\u{c}', '\u{85}', '\u{2028}', '\u{2029}',
            ],
        ),
        (
            Class::Control,
            &['\t', '\0', '\u{7}', '\u{1b}', '\u{7f}', '\u{9b}'],
        ),
        (
            Class::Bidi,
            &[
                '\u{61c}', '\u{200e}', '\u{200f}', '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}',
            ],
        ),
        (
            Class::Invisible,
            &[
                '\u{ad}',
                '\u{200b}',
                '\u{200c}',
                '\u{200d}',
                '\u{2060}',
                '\u{2064}',
                '\u{feff}',
                '\u{fe0f}',
                '\u{e0001}',
                '\u{e0041}',
                '\u{e007f}',
                '\u{3164}',
                '\u{115f}',
            ],
        ),
        (
            Class::OtherSpace,
            &[
                '\u{a0}', '\u{2002}', '\u{2009}', '\u{200a}', '\u{202f}', '\u{3000}',
            ],
        ),
    ];

    #[test]
    fn every_class_holds_what_it_says() {
        assert_eq!(EXAMPLES.map(|(class, _)| class), Class::ALL);
        for (expected, chars) in EXAMPLES {
            for &c in chars {
                assert_eq!(class(c), expected, "U+{:04X}", u32::from(c));
            }
        }
    }

    #[test]
    fn each_place_shows_its_own_classes_and_escapes_the_rest() {
        let shown_in = |place| {
            Class::ALL
                .into_iter()
                .filter(|&c| {
                    let (_, chars) = EXAMPLES.iter().find(|(k, _)| *k == c).unwrap();
                    chars.iter().all(|&ch| shows_as_itself(ch, place))
                })
                .collect::<Vec<_>>()
        };
        let text = [Class::Plain, Class::Wide, Class::Mark];
        assert_eq!(shown_in(Place::Field), text);
        assert_eq!(shown_in(Place::Lines), text);
        assert_eq!(shown_in(Place::Cell), [Class::Plain]);
        // Lines keep the line feed, and only it.
        assert!(shows_as_itself('\n', Place::Lines));
        for c in ['\r', '\u{85}', '\u{2028}', '\u{b}'] {
            assert!(!shows_as_itself(c, Place::Lines), "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn escapes_are_written_as_rust_writes_them() {
        let hostile = "a\u{1b}]0;t\u{7}b\tc\r\nd\u{200b}e\u{feff}f\u{a0}g\u{202e}h";
        assert_eq!(
            shown(hostile, Place::Field),
            "a\\u{1b}]0;t\\u{7}b\\tc\\r\\nd\\u{200b}e\\u{feff}f\\u{a0}g\\u{202e}h"
        );
        assert_eq!(
            shown(hostile, Place::Lines),
            "a\\u{1b}]0;t\\u{7}b\\tc\\r\nd\\u{200b}e\\u{feff}f\\u{a0}g\\u{202e}h"
        );
        assert_eq!(shown("鼠 e\u{301}", Place::Field), "鼠 e\u{301}");
        assert_eq!(shown("鼠 e\u{301}", Place::Cell), "\\u{9f20} e\\u{301}");
        // Nothing that needs no escape is copied; backslashes stay as they
        // are.
        let plain = "cave spider #12 ─ é ✓ C:\\path \\u{1b}";
        assert!(matches!(shown(plain, Place::Field), Cow::Borrowed(_)));
        assert!(matches!(shown(plain, Place::Cell), Cow::Borrowed(_)));
    }

    #[test]
    fn a_quoted_value_ends_where_its_quotes_say() {
        assert_eq!(quoted("rat"), "\"rat\"");
        assert_eq!(quoted("say \"hi\"\n"), "\"say \\\"hi\\\"\\n\"");
        assert_eq!(quoted("a\\b\u{200b}"), "\"a\\\\b\\u{200b}\"");
    }

    #[test]
    fn columns_count_what_a_terminal_lays_out() {
        assert_eq!(columns("rat"), 3);
        assert_eq!(columns("鼠鼠"), 4);
        assert_eq!(columns("e\u{301}"), 1);
        // Escaped characters take the columns of their escape.
        assert_eq!(columns("a\u{1b}b"), "a\\u{1b}b".len());
        assert_eq!(columns("\u{200b}"), "\\u{200b}".len());
    }
}
