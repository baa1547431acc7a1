//! Just enough of RON's lexical structure to find things in a content file.
//!
//! The `ron` crate stops at the first error and only knows positions relative
//! to the text it was given. To report every broken entry of a file at once,
//! with positions in the file, the loader first splits the file's top-level
//! list into entries here, then hands each entry to `ron` on its own. The same
//! tokens let validation point at the field a problem is in.
//!
//! The scanner understands what can hide a bracket or a comma: strings with
//! escapes, raw strings (`r#"..."#`), byte strings, character literals, line
//! comments and nested block comments. Everything else is a word or a
//! punctuation mark, and `ron` judges whether it makes sense. Nothing here
//! recurses, allocates per character or can loop without consuming input.

use std::ops::Range;

/// Brackets nested deeper than this inside the list are junk, not content:
/// the deepest real value, a monster's `poison: Some((...))`, is 3 deep.
pub(crate) const MAX_NESTING: usize = 32;

/// How deep a field path is followed (`poison.damage` is 2).
const MAX_FIELD_PATH: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// `(`, `[` or `{`.
    Open(u8),
    /// `)`, `]` or `}`.
    Close(u8),
    Comma,
    Colon,
    /// A word that could be a field name: `speed`, `r#type`.
    Ident,
    /// A string, raw string, byte string or character literal.
    Literal,
    /// Anything else: numbers, stray symbols.
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub start: usize,
    pub end: usize,
}

/// A problem that breaks the structure of the whole file, at a byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ScanError {
    pub at: usize,
    pub message: String,
}

/// The same set `ron` skips between tokens.
fn is_whitespace(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t'
            | '\n'
            | '\r'
            | '\x0B'
            | '\x0C'
            | '\u{85}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// Characters that end a word: punctuation, quotes, a comment's `/`, and
/// whitespace.
fn ends_word(c: char) -> bool {
    matches!(
        c,
        '(' | ')' | '[' | ']' | '{' | '}' | ',' | ':' | '"' | '\'' | '/'
    ) || is_whitespace(c)
}

fn is_ident(word: &str) -> bool {
    let word = word.strip_prefix("r#").unwrap_or(word);
    let mut bytes = word.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Splits text into tokens, skipping whitespace and comments. After the first
/// error it yields nothing more.
pub(crate) struct Lexer<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Self { text, pos: 0 }
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn fail(&mut self, at: usize, message: String) -> Option<Result<Token, ScanError>> {
        self.pos = self.text.len();
        Some(Err(ScanError { at, message }))
    }

    /// Skips whitespace and comments; an unclosed block comment is an error.
    fn skip_trivia(&mut self) -> Result<(), ScanError> {
        loop {
            let rest = self.rest();
            if let Some(c) = rest.chars().next().filter(|&c| is_whitespace(c)) {
                self.pos += c.len_utf8();
            } else if rest.starts_with("//") {
                self.pos += rest.find('\n').unwrap_or(rest.len());
            } else if rest.starts_with("/*") {
                self.skip_block_comment()?;
            } else {
                return Ok(());
            }
        }
    }

    fn skip_block_comment(&mut self) -> Result<(), ScanError> {
        let opened_at = self.pos;
        let bytes = self.bytes();
        let mut at = self.pos + 2;
        let mut depth = 1usize;
        while depth > 0 {
            match bytes.get(at..at + 2) {
                Some(b"/*") => {
                    depth += 1;
                    at += 2;
                }
                Some(b"*/") => {
                    depth -= 1;
                    at += 2;
                }
                Some(_) => at += 1,
                None => {
                    return Err(ScanError {
                        at: opened_at,
                        message: "this block comment is never closed; end it with */ \
                                  (block comments nest, so every /* needs its own */)"
                            .into(),
                    });
                }
            }
        }
        // `at` only ever stops after an ASCII "*/", a character boundary.
        self.pos = at;
        Ok(())
    }

    /// A quoted string starting at `self.pos + prefix` (the opening quote).
    fn quoted_string(&mut self, prefix: usize) -> Result<Token, ScanError> {
        let start = self.pos;
        let bytes = self.bytes();
        let mut at = start + prefix + 1;
        while at < bytes.len() {
            match bytes[at] {
                b'"' => {
                    self.pos = at + 1;
                    return Ok(self.token(TokenKind::Literal, start));
                }
                // An escape: the byte after the backslash cannot close the
                // string. Skipping a byte, not a character, is safe: the
                // rest of a multi-byte character is never a quote.
                b'\\' => at += 2,
                _ => at += 1,
            }
        }
        Err(ScanError {
            at: start,
            message: "this string is never closed; end it with \"".into(),
        })
    }

    /// A raw string `r#"..."#` whose `r` is at `self.pos + prefix`.
    fn raw_string(&mut self, prefix: usize, hashes: usize) -> Result<Token, ScanError> {
        let start = self.pos;
        let body = start + prefix + 1 + hashes + 1;
        let closing = format!("\"{}", "#".repeat(hashes));
        match self.text[body..].find(&closing) {
            Some(found) => {
                self.pos = body + found + closing.len();
                Ok(self.token(TokenKind::Literal, start))
            }
            None => Err(ScanError {
                at: start,
                message: format!("this raw string is never closed; end it with {closing}"),
            }),
        }
    }

    /// A character literal `'x'` or `'\n'` whose quote is at
    /// `self.pos + prefix`. Something that does not look like one is a single
    /// stray `'`, left for `ron` to complain about within its entry: unlike an
    /// unclosed string, it cannot swallow the rest of the file.
    fn char_literal(&mut self, prefix: usize) -> Token {
        let start = self.pos;
        let after_quote = start + prefix + 1;
        let rest = &self.text[after_quote..];
        let closes_at = match rest.chars().next() {
            // Escapes are short: the longest is `\u{10FFFF}`.
            Some('\\') => rest
                .char_indices()
                .skip(2)
                .take(10)
                .find(|&(_, c)| c == '\'')
                .map(|(i, _)| after_quote + i),
            Some(c) if rest[c.len_utf8()..].starts_with('\'') => Some(after_quote + c.len_utf8()),
            _ => None,
        };
        match closes_at {
            Some(quote) => {
                self.pos = quote + 1;
                self.token(TokenKind::Literal, start)
            }
            None => {
                self.pos = after_quote;
                self.token(TokenKind::Other, start)
            }
        }
    }

    fn token(&self, kind: TokenKind, start: usize) -> Token {
        Token {
            kind,
            start,
            end: self.pos,
        }
    }

    /// Counts the `#`s of a raw string opener at `at` (just after the `r`),
    /// if a `"` follows them.
    fn raw_string_hashes(&self, at: usize) -> Option<usize> {
        let hashes = self.bytes()[at..]
            .iter()
            .take_while(|&&b| b == b'#')
            .count();
        (self.bytes().get(at + hashes) == Some(&b'"')).then_some(hashes)
    }

    /// A run of characters up to the next word end. The first character is
    /// always taken, so a stray `/` still makes progress.
    fn word(&mut self) -> Token {
        let start = self.pos;
        let rest = self.rest();
        let length = rest
            .char_indices()
            .skip(1)
            .find(|&(_, c)| ends_word(c))
            .map_or(rest.len(), |(at, _)| at);
        self.pos = start + length;
        let kind = if is_ident(&self.text[start..self.pos]) {
            TokenKind::Ident
        } else {
            TokenKind::Other
        };
        self.token(kind, start)
    }
}

impl Iterator for Lexer<'_> {
    type Item = Result<Token, ScanError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Err(error) = self.skip_trivia() {
            return self.fail(error.at, error.message);
        }
        let start = self.pos;
        let bytes = self.bytes();
        let first = *bytes.get(start)?;
        let second = bytes.get(start + 1).copied();
        let punctuation = match first {
            b'(' | b'[' | b'{' => Some(TokenKind::Open(first)),
            b')' | b']' | b'}' => Some(TokenKind::Close(first)),
            b',' => Some(TokenKind::Comma),
            b':' => Some(TokenKind::Colon),
            _ => None,
        };
        if let Some(kind) = punctuation {
            self.pos += 1;
            return Some(Ok(self.token(kind, start)));
        }
        let raw_string = match (first, second) {
            (b'r', _) => self.raw_string_hashes(start + 1).map(|hashes| (0, hashes)),
            (b'b', Some(b'r')) => self.raw_string_hashes(start + 2).map(|hashes| (1, hashes)),
            _ => None,
        };
        let result = match (first, second, raw_string) {
            (_, _, Some((prefix, hashes))) => self.raw_string(prefix, hashes),
            (b'"', _, None) => self.quoted_string(0),
            (b'b', Some(b'"'), None) => self.quoted_string(1),
            (b'\'', _, None) => Ok(self.char_literal(0)),
            (b'b', Some(b'\''), None) => Ok(self.char_literal(1)),
            _ => Ok(self.word()),
        };
        match result {
            Ok(token) => Some(Ok(token)),
            Err(error) => self.fail(error.at, error.message),
        }
    }
}

fn bracket_pair(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// Why the file's list could not be split: the structure is broken at `at`.
fn structure_error(at: usize, message: impl Into<String>) -> ScanError {
    ScanError {
        at,
        message: message.into(),
    }
}

/// A file's list, split into entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct List {
    /// Where its `[` is.
    pub opened_at: usize,
    /// Each entry from its first token to its last, so comments between
    /// entries belong to none.
    pub entries: Vec<Range<usize>>,
}

/// Splits a file holding one RON list, `[ entry, entry, ... ]`, into its
/// entries. Brackets must balance, the list must be the only thing in the
/// file, and there may be at most `max_entries`. `describe` turns an offset
/// into a position for messages.
pub(crate) fn split_list(
    text: &str,
    max_entries: usize,
    describe: impl Fn(usize) -> String,
) -> Result<List, ScanError> {
    let mut tokens = Lexer::new(text);
    let list_start = list_opening(text, tokens.next())?;

    // Brackets opened inside the list, as (byte, offset), innermost last.
    let mut open: Vec<(u8, usize)> = Vec::new();
    let mut entries: Vec<Range<usize>> = Vec::new();
    let mut current: Option<Range<usize>> = None;
    let mut list_closed = false;

    for token in tokens.by_ref() {
        let token = token?;
        match (token.kind, open.last()) {
            (TokenKind::Comma, None) => end_entry(&mut current, &mut entries, token.start)?,
            (TokenKind::Close(b']'), None) => {
                entries.extend(current.take());
                list_closed = true;
                break;
            }
            (TokenKind::Close(close), None) => {
                return Err(structure_error(
                    token.start,
                    format!(
                        "`{}` has no matching opening bracket; the list opened at {} \
                         closes with `]`",
                        char::from(close),
                        describe(list_start),
                    ),
                ));
            }
            (TokenKind::Close(close), Some(&(opener, opened_at))) => {
                let expected = bracket_pair(opener);
                if close != expected {
                    return Err(mismatched(
                        token.start,
                        close,
                        (opener, opened_at),
                        &describe,
                    ));
                }
                open.pop();
                if let Some(entry) = current.as_mut() {
                    entry.end = token.end;
                }
            }
            (kind, _) => {
                if let TokenKind::Open(bracket) = kind {
                    open_bracket(&mut open, bracket, token.start)?;
                }
                extend_entry(&mut current, &entries, token, max_entries)?;
            }
        }
    }

    list_ending(list_closed, open.last().copied(), list_start, tokens.next())?;
    Ok(List {
        opened_at: list_start,
        entries,
    })
}

/// A comma at list level: it ends the entry open, and there must be one.
fn end_entry(
    current: &mut Option<Range<usize>>,
    entries: &mut Vec<Range<usize>>,
    at: usize,
) -> Result<(), ScanError> {
    match current.take() {
        Some(entry) => {
            entries.push(entry);
            Ok(())
        }
        None if entries.is_empty() => Err(structure_error(
            at,
            "a comma before the first entry; remove it",
        )),
        None => Err(structure_error(
            at,
            "two commas in a row: an entry is missing between them",
        )),
    }
}

/// An opening bracket inside the list, refused past `MAX_NESTING` deep.
fn open_bracket(open: &mut Vec<(u8, usize)>, bracket: u8, at: usize) -> Result<(), ScanError> {
    if open.len() >= MAX_NESTING {
        return Err(structure_error(
            at,
            format!(
                "brackets nested more than {MAX_NESTING} deep; no content \
                 entry needs that many"
            ),
        ));
    }
    open.push((bracket, at));
    Ok(())
}

/// Any other token: it extends the entry open, or opens one at list level
/// if there is room for another. Inside brackets an entry is always open:
/// it opened on its first token, at list level.
fn extend_entry(
    current: &mut Option<Range<usize>>,
    entries: &[Range<usize>],
    token: Token,
    max_entries: usize,
) -> Result<(), ScanError> {
    match current.as_mut() {
        Some(entry) => entry.end = token.end,
        None if entries.len() == max_entries => {
            return Err(structure_error(
                token.start,
                format!("more than {max_entries} entries; that is the limit for one file"),
            ));
        }
        None => *current = Some(token.start..token.end),
    }
    Ok(())
}

/// A closing bracket that does not match the innermost one open.
fn mismatched(
    at: usize,
    close: u8,
    (opener, opened_at): (u8, usize),
    describe: &impl Fn(usize) -> String,
) -> ScanError {
    structure_error(
        at,
        format!(
            "`{}` does not match the `{}` opened at {}; close that one first \
             with `{}`",
            char::from(close),
            char::from(opener),
            describe(opened_at),
            char::from(bracket_pair(opener)),
        ),
    )
}

/// Where the list opens: the first token must be its `[`.
fn list_opening(text: &str, first: Option<Result<Token, ScanError>>) -> Result<usize, ScanError> {
    match first {
        None => Err(structure_error(
            0,
            "the file is empty; it should hold a list of entries: [ (...), (...) ]",
        )),
        Some(Err(error)) => Err(error),
        Some(Ok(token)) if token.kind == TokenKind::Open(b'[') => Ok(token.start),
        Some(Ok(token)) if text[token.start..].starts_with("#!") => Err(structure_error(
            token.start,
            "RON attributes such as #![enable(...)] are not supported in content \
             files; remove it and write options out in full, e.g. Some(3)",
        )),
        Some(Ok(token)) => Err(structure_error(
            token.start,
            "expected `[`: the file should hold one list of entries: [ (...), (...) ]",
        )),
    }
}

/// After the list's last token: the list must have closed, with nothing
/// but space and comments after it.
fn list_ending(
    list_closed: bool,
    innermost: Option<(u8, usize)>,
    list_start: usize,
    after: Option<Result<Token, ScanError>>,
) -> Result<(), ScanError> {
    if !list_closed {
        let (opener, opened_at) = innermost.unwrap_or((b'[', list_start));
        return Err(structure_error(
            opened_at,
            format!(
                "this `{}` is never closed; the file ends first (add `{}`)",
                char::from(opener),
                char::from(bracket_pair(opener)),
            ),
        ));
    }
    if let Some(junk) = after {
        let at = match junk {
            Ok(token) => token.start,
            Err(error) => error.at,
        };
        return Err(structure_error(
            at,
            "something follows the end of the list; a content file holds one list, \
             so put every entry inside the [ ]",
        ));
    }
    Ok(())
}

/// A field of a struct as written: `name: value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Field {
    pub name: Range<usize>,
    pub value: Range<usize>,
}

/// The fields written at the outermost struct level inside `range` of `text`:
/// for an entry, its own fields; for a field's value such as
/// `Some((turns: 3, damage: "1d2"))`, the fields of the struct inside. A field
/// is a word followed by `:` right after an opening bracket or a comma.
pub(crate) fn fields_in(text: &str, range: Range<usize>) -> Vec<Field> {
    let Some(slice) = text.get(range.clone()) else {
        return Vec::new();
    };
    let tokens: Vec<Token> = Lexer::new(slice).map_while(Result::ok).collect();
    let mut depth = 0usize;
    // (depth, index of the name token)
    let mut candidates: Vec<(usize, usize)> = Vec::new();
    for (index, token) in tokens.iter().enumerate() {
        match token.kind {
            TokenKind::Open(_) => depth += 1,
            TokenKind::Close(_) => depth = depth.saturating_sub(1),
            TokenKind::Ident => {
                let follows_opener = index
                    .checked_sub(1)
                    .map(|before| tokens[before].kind)
                    .is_some_and(|kind| matches!(kind, TokenKind::Open(_) | TokenKind::Comma));
                let before_colon = tokens
                    .get(index + 1)
                    .is_some_and(|next| next.kind == TokenKind::Colon);
                if follows_opener && before_colon {
                    candidates.push((depth, index));
                }
            }
            _ => {}
        }
    }
    let Some(outermost) = candidates.iter().map(|&(depth, _)| depth).min() else {
        return Vec::new();
    };
    candidates
        .iter()
        .filter(|&&(depth, _)| depth == outermost)
        .filter_map(|&(_, index)| {
            let value = value_tokens(&tokens, index + 2)?;
            Some(Field {
                name: range.start + tokens[index].start..range.start + tokens[index].end,
                value: range.start + value.start..range.start + value.end,
            })
        })
        .collect()
}

/// The byte range of the value starting at token `first`: up to the comma or
/// closing bracket that ends it at its own level.
fn value_tokens(tokens: &[Token], first: usize) -> Option<Range<usize>> {
    let start = tokens.get(first)?.start;
    let mut end = start;
    let mut depth = 0usize;
    for token in &tokens[first..] {
        match token.kind {
            TokenKind::Open(_) => depth += 1,
            TokenKind::Close(_) if depth == 0 => break,
            TokenKind::Close(_) => depth -= 1,
            TokenKind::Comma if depth == 0 => break,
            _ => {}
        }
        end = token.end;
    }
    (end > start).then_some(start..end)
}

/// The field named `name` at the outermost level inside `range`.
pub(crate) fn find_field(text: &str, range: Range<usize>, name: &str) -> Option<Field> {
    fields_in(text, range)
        .into_iter()
        .find(|field| &text[field.name.clone()] == name)
}

/// Where to point for a field given as a path into an entry (`["poison",
/// "turns"]`): the innermost field name found, or the entry's start.
pub(crate) fn field_offset(text: &str, entry: Range<usize>, path: &[&str]) -> usize {
    let mut offset = entry.start;
    let mut within = entry;
    for name in path.iter().take(MAX_FIELD_PATH) {
        let Some(field) = find_field(text, within, name) else {
            break;
        };
        offset = field.name.start;
        within = field.value;
    }
    offset
}

/// The names of the fields whose values contain `offset`, outermost first:
/// an error inside `poison: Some((turns: 3, damage: "0d2"))` at the dice is in
/// `["poison", "damage"]`. An offset on a field's name is not in that field.
pub(crate) fn field_path_at(text: &str, entry: Range<usize>, offset: usize) -> Vec<&str> {
    let mut path = Vec::new();
    let mut within = entry;
    while path.len() < MAX_FIELD_PATH {
        let Some(field) = fields_in(text, within)
            .into_iter()
            .find(|field| field.value.contains(&offset))
        else {
            break;
        };
        path.push(&text[field.name.clone()]);
        within = field.value;
    }
    path
}

/// The start of the token that contains `offset`, or of the first one after
/// it, within `range`; `offset` itself if there is none. `ron` reports some
/// errors from inside a string or from the whitespace before a value, and a
/// person reading the error wants to be pointed at the value.
pub(crate) fn token_start_near(text: &str, range: Range<usize>, offset: usize) -> usize {
    let Some(slice) = text.get(range.clone()) else {
        return offset;
    };
    Lexer::new(slice)
        .map_while(Result::ok)
        .find(|token| range.start + token.end > offset)
        .map_or(offset, |token| range.start + token.start)
}

/// Line starts of a text, to turn byte offsets into 1-based line and column.
/// Columns count characters, as `ron` does.
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub(crate) fn new(text: &str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        Self { starts }
    }

    /// 1-based (line, column) of a byte offset on a character boundary.
    pub(crate) fn position(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&start| start <= offset);
        let line_start = self.starts[line.saturating_sub(1)];
        let column = text
            .get(line_start..offset)
            .map_or(0, |before| before.chars().count());
        (line, column + 1)
    }
}

/// The byte offset of a 1-based (line, column) position in `text`, clamped to
/// its end. `ron` reports positions this way, counted from the start of the
/// entry it was given.
pub(crate) fn offset_of_position(text: &str, line: usize, column: usize) -> usize {
    let line_start = match line.checked_sub(2) {
        None => 0,
        Some(newlines_before) => text
            .match_indices('\n')
            .nth(newlines_before)
            .map_or(text.len(), |(at, _)| at + 1),
    };
    text[line_start..]
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(text.len(), |(at, _)| line_start + at)
}

// ----- Locating a field in a whole file -----
//
// A recording is one RON value that `ron` has already accepted (or refused
// at a position of its own); what it cannot say is where a field it read
// lies, to point an error of meaning at it. These walk the same tokens the
// content loader splits its lists by, over the whole text.

/// 1-based (line, column) of a byte offset, columns counted in characters
/// as `ron` counts them.
pub fn position(text: &str, offset: usize) -> (usize, usize) {
    LineIndex::new(text).position(text, offset)
}

/// The tokens of `text` up to the first that does not scan (an unclosed
/// string or comment ends the text for a locator).
fn tokens(text: &str) -> impl Iterator<Item = Token> + '_ {
    Lexer::new(text).map_while(Result::ok)
}

/// The name token of the first field called `name` (at any depth, outside
/// strings and comments), and the tokens just past its `:`.
fn field_named<'a>(text: &'a str, name: &str) -> Option<(Token, impl Iterator<Item = Token> + 'a)> {
    let mut tokens = tokens(text);
    let mut previous: Option<Token> = None;
    while let Some(token) = tokens.next() {
        if token.kind == TokenKind::Colon
            && let Some(word) = previous
            && word.kind == TokenKind::Ident
            && &text[word.start..word.end] == name
        {
            return Some((word, tokens));
        }
        previous = Some(token);
    }
    None
}

/// The tokens just past the `name:` of the first field called `name`.
fn after_field<'a>(text: &'a str, name: &str) -> Option<impl Iterator<Item = Token> + 'a> {
    field_named(text, name).map(|(_, rest)| rest)
}

/// Where the field `name:` starts (the first one, at any depth).
pub fn locate_field(text: &str, name: &str) -> Option<(usize, usize)> {
    field_named(text, name).map(|(word, _)| position(text, word.start))
}

/// Where the `index`-th string of the list `name: [ ... ]` starts.
pub fn locate_list_item(text: &str, name: &str, index: usize) -> Option<(usize, usize)> {
    let mut seen = 0;
    for token in after_field(text, name)? {
        match token.kind {
            TokenKind::Literal if seen == index => return Some(position(text, token.start)),
            TokenKind::Literal => seen += 1,
            TokenKind::Close(b']') => return None,
            _ => {}
        }
    }
    None
}

/// Where the `index`-th element of the list `name: [ ... ]` starts, whatever
/// the elements are (`Won`, `Depth(3)`, `Says("...")`): elements are what
/// the list's own commas separate, outside any brackets inside it.
pub fn locate_list_element(text: &str, name: &str, index: usize) -> Option<(usize, usize)> {
    let (mut depth, mut seen, mut starts) = (0usize, 0usize, true);
    for token in after_field(text, name)? {
        let ends_nothing = !matches!(token.kind, TokenKind::Close(b']') | TokenKind::Comma);
        if depth == 1 && starts && ends_nothing {
            if seen == index {
                return Some(position(text, token.start));
            }
            starts = false;
        }
        match token.kind {
            TokenKind::Open(b'[' | b'(') => depth += 1,
            TokenKind::Close(b']' | b')') if depth <= 1 => return None,
            TokenKind::Close(b']' | b')') => depth -= 1,
            TokenKind::Comma if depth == 1 => {
                seen += 1;
                starts = true;
            }
            _ => {}
        }
    }
    None
}

/// Whether `text` ends inside a bracket, as a file cut short does (a string
/// or comment left open ends the count where it opens).
pub fn ends_inside_brackets(text: &str) -> bool {
    let mut depth = 0i64;
    for token in tokens(text) {
        match token.kind {
            TokenKind::Open(_) => depth += 1,
            TokenKind::Close(_) => depth -= 1,
            _ => {}
        }
    }
    depth > 0
}

/// The column, as written, of the `nth` (1-based) character of the string
/// literal that starts at `line:col`: escapes such as `\"` take more than one
/// column, raw strings (`r#"..."#`) have none.
pub fn column_in_literal(text: &str, line: usize, col: usize, nth: usize) -> usize {
    let line_text = text.lines().nth(line.saturating_sub(1)).unwrap_or("");
    let mut raw = line_text.chars().skip(col.saturating_sub(1));
    if raw.next() == Some('r') {
        let hashes = raw.take_while(|&c| c == '#').count();
        return col + 1 + hashes + nth.max(1);
    }
    let mut column = col + 1;
    for _ in 1..nth {
        column += match raw.next() {
            // `\u{...}`: the backslash, the u, and up to the closing brace.
            Some('\\') => match raw.next() {
                Some('u') => 3 + raw.by_ref().take_while(|&c| c != '}').count(),
                Some('x') => 2 + raw.by_ref().take(2).count(),
                _ => 2,
            },
            _ => 1,
        };
    }
    column
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_locator_skips_strings_and_comments() {
        let text = "// keys: nope\n(note: \"keys: [\\\"x\\\"]\", keys: [\"a\", \"b\"])";
        assert_eq!(locate_list_item(text, "keys", 1), Some((2, 37)));
        assert_eq!(locate_field(text, "keys"), Some((2, 25)));
    }

    fn kinds(text: &str) -> Vec<TokenKind> {
        Lexer::new(text)
            .map(|token| token.expect("lexes").kind)
            .collect()
    }

    fn split(text: &str) -> Result<Vec<&str>, ScanError> {
        split_list(text, 500, |at| at.to_string())
            .map(|list| list.entries.into_iter().map(|range| &text[range]).collect())
    }

    #[test]
    fn brackets_and_commas_inside_literals_and_comments_are_not_structure() {
        use TokenKind::*;
        assert_eq!(
            kinds(r##""a,(]" r#"x"]"# 'x' '\'' ',' b"[" // ( , ]"##),
            vec![Literal, Literal, Literal, Literal, Literal, Literal]
        );
        assert_eq!(kinds("/* ( /* ] */ , */ x"), vec![Ident]);
        assert_eq!(kinds(r#""escaped \" quote""#), vec![Literal]);
        assert_eq!(
            kinds("(a: -3, b:[x])"),
            vec![
                Open(b'('),
                Ident,
                Colon,
                Other,
                Comma,
                Ident,
                Colon,
                Open(b'['),
                Ident,
                Close(b']'),
                Close(b')')
            ]
        );
    }

    #[test]
    fn a_stray_quote_is_one_token_but_an_unclosed_string_ends_the_scan() {
        assert_eq!(
            kinds("'ab'"),
            vec![TokenKind::Other, TokenKind::Ident, TokenKind::Other]
        );
        let errors: Vec<_> = Lexer::new("x \"open").collect();
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[1].as_ref().map_err(|e| e.at), Err(2));
        let errors: Vec<_> = Lexer::new("/* /* */").collect();
        assert!(matches!(errors.as_slice(), [Err(ScanError { at: 0, .. })]));
        let errors: Vec<_> = Lexer::new(r###"r##"never"#"###).collect();
        assert!(matches!(errors.as_slice(), [Err(ScanError { at: 0, .. })]));
    }

    #[test]
    fn splits_a_list_into_entries_without_the_comments_between() {
        let text = "// header\n[\n  (a: 1), // one\n  (b: \"),\"),\n  /* last */ (c: [1, 2])\n]\n";
        assert_eq!(
            split(text).expect("splits"),
            vec!["(a: 1)", "(b: \"),\")", "(c: [1, 2])"]
        );
        assert_eq!(split("[]").expect("splits"), Vec::<&str>::new());
        assert_eq!(split("[ x y, ]").expect("splits"), vec!["x y"]);
    }

    #[test]
    fn broken_structure_is_one_error_at_the_right_place() {
        let at = |text: &str| split(text).expect_err("refused").at;
        assert_eq!(at(""), 0);
        assert_eq!(at("  // only a comment\n"), 0);
        assert_eq!(at("(a: 1)"), 0);
        assert_eq!(at("[ (a: 1), (b: 2 ]"), 16);
        assert_eq!(at("[ (a: 1), (b: 2"), 10);
        assert_eq!(at("[ (a: 1) ] junk"), 11);
        assert_eq!(at("[ (a: 1),, (b: 2) ]"), 9);
        assert_eq!(at("[ , (b: 2) ]"), 2);
        assert_eq!(at("#![enable(implicit_some)] []"), 0);
        let deep = format!("[{}{}]", "(".repeat(40), ")".repeat(40));
        assert_eq!(at(&deep), 1 + MAX_NESTING);
    }

    #[test]
    fn refuses_more_entries_than_the_limit() {
        let text = "[1, 2, 3]";
        assert_eq!(
            split_list(text, 3, |_| String::new()).map(|list| list.entries.len()),
            Ok(3)
        );
        assert_eq!(
            split_list(text, 2, |_| String::new()).map_err(|e| e.at),
            Err(7)
        );
    }

    #[test]
    fn finds_fields_and_paths() {
        let text = r#"(name: "newt", poison: Some((turns: 3, damage: "0d2")), tags: [a, b])"#;
        let all = 0..text.len();
        let names: Vec<&str> = fields_in(text, all.clone())
            .iter()
            .map(|field| &text[field.name.clone()])
            .collect();
        assert_eq!(names, vec!["name", "poison", "tags"]);
        let dice = text.find("\"0d2").expect("present");
        assert_eq!(
            field_path_at(text, all.clone(), dice),
            vec!["poison", "damage"]
        );
        assert_eq!(field_path_at(text, all.clone(), 1), Vec::<&str>::new());
        let turns = text.find("turns").expect("present");
        assert_eq!(field_offset(text, all.clone(), &["poison", "turns"]), turns);
        let poison = text.find("poison").expect("present");
        assert_eq!(field_offset(text, all.clone(), &["poison", "nope"]), poison);
        assert_eq!(field_offset(text, all.clone(), &["nope"]), 0);
        assert_eq!(token_start_near(text, all.clone(), dice + 2), dice);
        assert_eq!(token_start_near(text, all, poison - 1), poison);
    }

    #[test]
    fn positions_count_lines_and_characters() {
        let text = "ab\nçd\n\nx";
        let lines = LineIndex::new(text);
        assert_eq!(lines.position(text, 0), (1, 1));
        assert_eq!(lines.position(text, 3), (2, 1));
        // 'ç' is two bytes; 'd' is the second character.
        assert_eq!(lines.position(text, 5), (2, 2));
        assert_eq!(lines.position(text, 7), (3, 1));
        assert_eq!(lines.position(text, 8), (4, 1));
        assert_eq!(offset_of_position(text, 2, 2), 5);
        assert_eq!(offset_of_position(text, 4, 1), 8);
        assert_eq!(offset_of_position(text, 9, 9), text.len());
    }
}
