//! The game's own key type, and the key notation scripts and recordings use.
//!
//! Notation: a printable character stands for itself; everything else is a
//! name in angle brackets, optionally with modifiers: `<Esc>` `<Enter>`
//! `<Tab>` `<BS>` `<Space>` `<Up>` `<Down>` `<Left>` `<Right>` `<Home>` `<End>`
//! `<PgUp>` `<PgDn>` `<Del>` `<Ins>` `<F1>`..`<F12>`, `<S-Left>` (Shift),
//! `<C-c>` (Control), `<A-x>` (Alt), `<C-S-Up>` (several), `<lt>` for a
//! literal `<` and `<gt>` for `>` (needed with a modifier: `<C-gt>`), and
//! `<U+00A0>` for any character by code point. Names are case-insensitive when read and printed in the form
//! above. A shifted letter is written as the capital letter, so `<S-h>` reads
//! as `H`; parsing then printing any notation gives its canonical form, and
//! printing then parsing any key gives the same key back.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Modifier bits, the same values a recording holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mods(u8);

impl Mods {
    pub const NONE: Mods = Mods(0);
    pub const SHIFT: Mods = Mods(1);
    pub const CTRL: Mods = Mods(2);
    pub const ALT: Mods = Mods(4);

    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Modifiers from bits; bits other than Shift, Control and Alt are dropped.
    pub const fn from_bits(bits: u8) -> Mods {
        Mods(bits & 0b111)
    }

    pub const fn contains(self, other: Mods) -> bool {
        self.0 & other.0 == other.0
    }

    pub const fn union(self, other: Mods) -> Mods {
        Mods(self.0 | other.0)
    }

    pub const fn without(self, other: Mods) -> Mods {
        Mods(self.0 & !other.0)
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// Which key, without modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KeyCode {
    Char(char),
    Esc,
    Enter,
    Tab,
    Backspace,
    Up,
    Down,
    Left,
    Right,
    Home,
    End,
    PageUp,
    PageDown,
    Delete,
    Insert,
    /// A function key, 1 to 12.
    F(u8),
}

/// A key press as the game reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub mods: Mods,
}

impl Key {
    pub const ESC: Key = Key::plain(KeyCode::Esc);
    pub const ENTER: Key = Key::plain(KeyCode::Enter);
    pub const TAB: Key = Key::plain(KeyCode::Tab);

    pub const fn plain(code: KeyCode) -> Key {
        Key {
            code,
            mods: Mods::NONE,
        }
    }

    /// A character key. Shift is carried by the character itself (`'H'`).
    pub const fn char(c: char) -> Key {
        Key::plain(KeyCode::Char(c))
    }

    /// A key with modifiers, normalised: Shift on a letter becomes the capital
    /// letter, so there is one way to write each key.
    pub fn with_mods(code: KeyCode, mods: Mods) -> Key {
        let mods = Mods::from_bits(mods.bits());
        match code {
            KeyCode::Char(c) if mods.contains(Mods::SHIFT) && c.is_ascii_alphabetic() => Key {
                code: KeyCode::Char(c.to_ascii_uppercase()),
                mods: mods.without(Mods::SHIFT),
            },
            _ => Key { code, mods },
        }
    }

    /// Parses a whole key string, such as `"llll>"` or `"i<Esc>;<Tab><Enter>"`.
    pub fn parse_all(text: &str) -> Result<Vec<Key>, KeyParseError> {
        let mut keys = Vec::new();
        let mut chars = text.char_indices().peekable();
        let mut column = 0usize;
        while let Some((start, c)) = chars.next() {
            column += 1;
            let token_column = column;
            if c != '<' {
                if c.is_control() {
                    return Err(KeyParseError {
                        column: token_column,
                        token: c.to_string(),
                        reason: "a control character is not a key; write it by name, e.g. <Enter> or <Tab>"
                            .into(),
                    });
                }
                keys.push(Key::char(c));
                continue;
            }
            // A bracketed name runs to the next '>'; names are short.
            let mut end = None;
            for (i, c) in chars.by_ref() {
                column += 1;
                if c == '>' {
                    end = Some(i);
                    break;
                }
                if c == '<' || c.is_whitespace() || i - start > MAX_NAME_LEN {
                    break;
                }
            }
            let Some(end) = end else {
                return Err(KeyParseError {
                    column: token_column,
                    token: text[start..].chars().take(MAX_NAME_LEN).collect(),
                    reason: "unclosed '<'; write <lt> for a literal '<'".into(),
                });
            };
            let inner = &text[start + 1..end];
            keys.push(parse_bracketed(inner).map_err(|reason| KeyParseError {
                column: token_column,
                token: format!("<{inner}>"),
                reason,
            })?);
        }
        Ok(keys)
    }

    /// Prints keys in notation, the inverse of [`Key::parse_all`].
    pub fn format_all(keys: &[Key]) -> String {
        let mut out = String::with_capacity(keys.len());
        for key in keys {
            use fmt::Write;
            let _ = write!(out, "{key}");
        }
        out
    }
}

/// Longest bracketed token we look for before calling the '<' unclosed: far
/// more than any name, so a name that is too long (`<U+FFFFFFFFFFFFFFFF>`)
/// is reported for what it is, not as an unclosed '<'.
const MAX_NAME_LEN: usize = 64;

const NAMED: [(&str, KeyCode); 15] = [
    ("Esc", KeyCode::Esc),
    ("Enter", KeyCode::Enter),
    ("Tab", KeyCode::Tab),
    ("BS", KeyCode::Backspace),
    ("Space", KeyCode::Char(' ')),
    ("Up", KeyCode::Up),
    ("Down", KeyCode::Down),
    ("Left", KeyCode::Left),
    ("Right", KeyCode::Right),
    ("Home", KeyCode::Home),
    ("End", KeyCode::End),
    ("PgUp", KeyCode::PageUp),
    ("PgDn", KeyCode::PageDown),
    ("Del", KeyCode::Delete),
    ("Ins", KeyCode::Insert),
];

fn parse_bracketed(inner: &str) -> Result<Key, String> {
    let mut mods = Mods::NONE;
    let mut rest = inner;
    // Modifier prefixes: S- C- A-, in any order, each at most once.
    while rest.len() > 2 && rest.as_bytes()[1] == b'-' {
        let m = match rest.as_bytes()[0].to_ascii_uppercase() {
            b'S' => Mods::SHIFT,
            b'C' => Mods::CTRL,
            b'A' => Mods::ALT,
            _ => break,
        };
        if mods.contains(m) {
            return Err("a modifier is given twice".into());
        }
        mods = mods.union(m);
        rest = &rest[2..];
    }
    let code = parse_code(rest)?;
    // A literal character needs brackets only with a modifier; named forms
    // (lt, gt, Space, U+hex) are always fine.
    let literal = rest.chars().count() == 1;
    if mods.is_empty() && literal {
        return Err(format!(
            "a plain character is written as itself, not in brackets; write {rest}"
        ));
    }
    Ok(Key::with_mods(code, mods))
}

fn parse_code(name: &str) -> Result<KeyCode, String> {
    if name.eq_ignore_ascii_case("lt") {
        return Ok(KeyCode::Char('<'));
    }
    if name.eq_ignore_ascii_case("gt") {
        return Ok(KeyCode::Char('>'));
    }
    if let Some(hex) = name.strip_prefix("U+").or_else(|| name.strip_prefix("u+")) {
        if hex.is_empty() || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!(
                "U+{hex} is not a code point; write 1 to 6 hex digits, e.g. U+263A"
            ));
        }
        let value = (hex.len() <= 6)
            .then(|| u32::from_str_radix(hex, 16).ok())
            .flatten()
            .filter(|&v| v <= 0x10_FFFF)
            .ok_or_else(|| format!("U+{hex} is out of range; code points go up to U+10FFFF"))?;
        return char::from_u32(value)
            .filter(|c| !c.is_control())
            .map(KeyCode::Char)
            .ok_or_else(|| format!("U+{hex} is not a printable character's code point"));
    }
    if let Some((_, code)) = NAMED.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
        return Ok(*code);
    }
    if let Some(n) = name.strip_prefix(['F', 'f'])
        && let Ok(n) = n.parse::<u8>()
        && (1..=12).contains(&n)
    {
        return Ok(KeyCode::F(n));
    }
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && !c.is_control()
        && !c.is_whitespace()
    {
        return Ok(KeyCode::Char(c));
    }
    Err(format!(
        "unknown key name; use one of {}, F1-F12, lt, gt, U+hex, or a single character after a modifier",
        NAMED.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(" ")
    ))
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name: String = match self.code {
            KeyCode::Char('<') => "lt".into(),
            KeyCode::Char(' ') => "Space".into(),
            // A character that draws as itself in its own columns is
            // written as itself; any other (a control, a mark, a space
            // that is not the space, one that draws as nothing) by its
            // code point, so a key list can be read and a key told apart.
            KeyCode::Char(c) if !drawn_as_itself(c) => format!("U+{:04X}", u32::from(c)),
            KeyCode::Char(c) if self.mods.is_empty() => return write!(f, "{c}"),
            // Inside brackets, `>` would end the name.
            KeyCode::Char('>') => "gt".into(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::F(n) => format!("F{n}"),
            code => NAMED
                .iter()
                .find(|(_, c)| *c == code)
                .map(|(n, _)| (*n).to_string())
                .expect("every non-character key has a name"),
        };
        f.write_str("<")?;
        if self.mods.contains(Mods::SHIFT) {
            f.write_str("S-")?;
        }
        if self.mods.contains(Mods::CTRL) {
            f.write_str("C-")?;
        }
        if self.mods.contains(Mods::ALT) {
            f.write_str("A-")?;
        }
        write!(f, "{name}>")
    }
}

/// Whether a character key is written as itself: it draws in its own
/// column or two ([`crate::text::Class::Plain`] or
/// [`crate::text::Class::Wide`]).
fn drawn_as_itself(c: char) -> bool {
    use crate::text::Class;
    matches!(crate::text::class(c), Class::Plain | Class::Wide)
}

/// A key string that could not be read, with the 1-based column (in
/// characters) of the token that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyParseError {
    pub column: usize,
    pub token: String,
    pub reason: String,
}

impl fmt::Display for KeyParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "column {}: bad key {:?}: {}",
            self.column, self.token, self.reason
        )
    }
}

impl std::error::Error for KeyParseError {}

impl FromStr for Key {
    type Err = KeyParseError;

    /// Exactly one key.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let keys = Key::parse_all(s)?;
        match keys.as_slice() {
            [key] => Ok(*key),
            _ => Err(KeyParseError {
                column: 1,
                token: s.chars().take(MAX_NAME_LEN).collect(),
                reason: format!("expected exactly one key, found {}", keys.len()),
            }),
        }
    }
}

impl Serialize for Key {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_characters_stand_for_themselves() {
        let keys = Key::parse_all("hjkl>.,").expect("valid");
        assert_eq!(keys.len(), 7);
        assert_eq!(keys[0], Key::char('h'));
        assert_eq!(keys[4], Key::char('>'));
    }

    #[test]
    fn names_and_modifiers() {
        let keys = Key::parse_all("<Esc><enter><S-Left><C-c><A-x><C-S-Up><lt><F5><Space> ")
            .expect("valid");
        assert_eq!(
            keys,
            vec![
                Key::ESC,
                Key::ENTER,
                Key::with_mods(KeyCode::Left, Mods::SHIFT),
                Key::with_mods(KeyCode::Char('c'), Mods::CTRL),
                Key::with_mods(KeyCode::Char('x'), Mods::ALT),
                Key::with_mods(KeyCode::Up, Mods::CTRL.union(Mods::SHIFT)),
                Key::char('<'),
                Key::plain(KeyCode::F(5)),
                Key::char(' '),
                Key::char(' '),
            ]
        );
    }

    #[test]
    fn brackets_can_name_any_character() {
        let keys = Key::parse_all("<C-gt><A-U+00A0><U+263A><gt>").expect("valid");
        assert_eq!(keys[0], Key::with_mods(KeyCode::Char('>'), Mods::CTRL));
        assert_eq!(keys[1], Key::with_mods(KeyCode::Char('\u{a0}'), Mods::ALT));
        assert_eq!(keys[2], Key::char('☺'));
        assert_eq!(keys[3], Key::char('>'));
        assert_eq!(Key::format_all(&keys), "<C-gt><A-U+00A0>☺>");
        assert!(
            Key::parse_all("<U+D800>").is_err(),
            "a surrogate is no character"
        );
        assert!(
            Key::parse_all("<U+0007>").is_err(),
            "a control character is no key"
        );
        // A raw control character is named once, escaped as Rust quotes
        // it: `"\t"`, not the escape escaped again (`"\\t"`).
        let error = Key::parse_all("a\tb").expect_err("a tab is no key");
        assert_eq!(error.column, 2);
        assert!(error.to_string().contains(r#"bad key "\t""#), "{error}");
        for (text, reason) in [
            ("<U+FFFFFFFFFFFFFFFFFFFF>", "out of range"),
            ("<U+110000>", "out of range"),
            ("<U+>", "not a code point"),
            ("<U+12G4>", "not a code point"),
        ] {
            let error = Key::parse_all(text).expect_err(text);
            assert_eq!(error.token, text, "the whole token");
            assert!(error.reason.contains(reason), "{text}: {}", error.reason);
        }
        assert_eq!(
            Key::format_all(&Key::parse_all("<U+10FFFF>").expect("the last code point")),
            "\u{10FFFF}"
        );
    }

    #[test]
    fn a_key_that_would_not_show_as_itself_is_written_by_its_code_point() {
        // Drawn as nothing, a mark on the key before, a space that looks
        // like the space: each by its code point, and read back the same.
        for (c, written) in [
            ('\u{200b}', "<U+200B>"),
            ('\u{feff}', "<U+FEFF>"),
            ('\u{e0041}', "<U+E0041>"),
            ('\u{301}', "<U+0301>"),
            ('\u{a0}', "<U+00A0>"),
            ('\u{2028}', "<U+2028>"),
        ] {
            let key = Key::char(c);
            assert_eq!(key.to_string(), written);
            assert_eq!(Key::parse_all(written).unwrap(), [key]);
        }
        // Letters of any script and wide characters stand for themselves.
        assert_eq!(Key::format_all(&Key::parse_all("é鼠☺").unwrap()), "é鼠☺");
    }

    #[test]
    fn a_shifted_letter_is_its_capital() {
        assert_eq!(Key::parse_all("<S-h>"), Ok(vec![Key::char('H')]));
        assert_eq!(
            Key::parse_all("<S-h>").map(|k| Key::format_all(&k)),
            Ok("H".into())
        );
    }

    #[test]
    fn canonical_text_round_trips() {
        let text = "llll>i<Esc>;<Tab><Enter><S-Left><C-c><lt>Q<F12><S-Tab><A-C-x><Space>";
        let keys = Key::parse_all(text).expect("valid");
        let printed = Key::format_all(&keys);
        assert_eq!(Key::parse_all(&printed), Ok(keys));
        // <A-C-x> is printed in the canonical modifier order.
        assert!(printed.contains("<C-A-x>"), "{printed}");
    }

    #[test]
    fn errors_name_the_column_and_token() {
        let err = Key::parse_all("ll<Bogus>").unwrap_err();
        assert_eq!((err.column, err.token.as_str()), (3, "<Bogus>"));
        let err = Key::parse_all("abc<Esc").unwrap_err();
        assert_eq!(err.column, 4);
        assert!(err.reason.contains("<lt>"), "{}", err.reason);
        let err = Key::parse_all("a\tb").unwrap_err();
        assert_eq!(err.column, 2);
        let err = Key::parse_all("<F13>").unwrap_err();
        assert_eq!(err.column, 1);
        let err = Key::parse_all("<S-S-Up>").unwrap_err();
        assert!(err.reason.contains("twice"), "{}", err.reason);
        let err = Key::parse_all("<a>").unwrap_err();
        assert!(err.reason.contains("itself"), "{}", err.reason);
        assert!(Key::parse_all("<>").is_err());
        assert!(Key::parse_all("<<Esc>").is_err());
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let err = Key::parse_all("é<Nope>").unwrap_err();
        assert_eq!(err.column, 2);
    }
}
