//! Reading one content file into definitions, collecting every problem.
//!
//! A file is split into entries by [`scan`](super::scan), and each entry is
//! deserialized on its own so one typo costs one entry, not the rest of the
//! file. Positions `ron` reports within an entry are moved back into the file,
//! and the field an error sits in is named.

use std::ops::Range;

use serde::de::DeserializeOwned;

use super::scan::{self, LineIndex};
use super::{ContentError, ItemDef, MonsterDef, Source};

/// Larger than any content file a person writes by hand, small enough that
/// every pass over it is instant.
pub const MAX_FILE_BYTES: usize = 1 << 20;
/// Entries per file. Ids are `u16`, and spawn tables stay small.
pub const MAX_ENTRIES: usize = 500;
const _: () = assert!(MAX_ENTRIES <= u16::MAX as usize);
/// Past this many problems in one file the rest are counted, not listed: a
/// file that bad has one cause worth fixing first, and a limit keeps a
/// hostile file from producing millions of lines.
const MAX_LISTED_PROBLEMS: usize = 100;
/// How much of an entry's name or a stray token an error message quotes.
const MAX_QUOTED_CHARS: usize = 40;

/// What the loader needs to know about a definition: how to name it.
pub(crate) trait Named {
    fn name(&self) -> &str;
}

impl Named for MonsterDef {
    fn name(&self) -> &str {
        &self.name
    }
}

impl Named for ItemDef {
    fn name(&self) -> &str {
        &self.name
    }
}

/// A definition and where its entry is in the file.
pub(crate) struct Entry<T> {
    pub def: T,
    pub span: Range<usize>,
}

/// One content file being loaded, and the problems found in it so far.
pub(crate) struct File<'a> {
    label: &'a str,
    text: &'a str,
    lines: LineIndex,
    problems: Vec<ContentError>,
    unlisted: usize,
}

/// `text` cut to `MAX_QUOTED_CHARS` characters, marked if it was cut.
fn shortened(text: &str) -> String {
    let mut chars = text.chars();
    let mut short: String = chars.by_ref().take(MAX_QUOTED_CHARS).collect();
    if chars.next().is_some() {
        short.push_str("...");
    }
    short
}

impl<'a> File<'a> {
    pub(crate) fn new(source: Source<'a>) -> Self {
        Self {
            label: source.file,
            text: source.text,
            // A file over the limit is refused before anything reads it.
            lines: LineIndex::new(if source.text.len() > MAX_FILE_BYTES {
                ""
            } else {
                source.text
            }),
            problems: Vec::new(),
            unlisted: 0,
        }
    }

    /// "line:column" of a byte offset, for messages that refer to another
    /// place in the same file.
    pub(crate) fn describe(&self, offset: usize) -> String {
        let (line, column) = self.lines.position(self.text, offset);
        format!("{line}:{column}")
    }

    /// Records a problem at a byte offset, in an entry if it is known.
    pub(crate) fn report(&mut self, offset: usize, entry: Option<&str>, message: String) {
        if self.problems.len() == MAX_LISTED_PROBLEMS {
            self.unlisted += 1;
            return;
        }
        let (line, column) = self.lines.position(self.text, offset);
        self.problems.push(ContentError {
            file: self.label.to_owned(),
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
            entry: entry.map(shortened),
            message,
        });
    }

    /// Records a problem with a field of a definition that loaded, pointing at
    /// the field's name (`["poison", "turns"]` for a nested one).
    pub(crate) fn report_field<T: Named>(
        &mut self,
        entry: &Entry<T>,
        path: &[&str],
        message: String,
    ) {
        let offset = scan::field_offset(self.text, entry.span.clone(), path);
        self.report(offset, Some(entry.def.name()), message);
    }

    /// The byte offset of a field's name in an entry, for messages that point
    /// from one entry to another.
    pub(crate) fn field_offset(&self, span: Range<usize>, path: &[&str]) -> usize {
        scan::field_offset(self.text, span, path)
    }

    /// Every problem, in the order they appear in the file, then a note of
    /// how many were not listed.
    pub(crate) fn finish(mut self) -> Vec<ContentError> {
        self.problems
            .sort_by_key(|problem| (problem.line, problem.column));
        if self.unlisted > 0 {
            self.problems.push(ContentError {
                file: self.label.to_owned(),
                line: 1,
                column: 1,
                entry: None,
                message: format!(
                    "{} more problems in this file are not listed; fix the ones above first",
                    self.unlisted
                ),
            });
        }
        self.problems
    }

    /// Splits the file into entries and deserializes each one, reporting the
    /// ones that fail. A file whose list structure is broken is reported once
    /// and yields nothing.
    pub(crate) fn entries<T: DeserializeOwned + Named>(&mut self) -> Vec<Entry<T>> {
        if self.text.len() > MAX_FILE_BYTES {
            let message = format!(
                "the file is {} bytes, more than the limit of {MAX_FILE_BYTES} (1 MiB); \
                 content files are hand-written lists and never need that much",
                self.text.len()
            );
            self.report(0, None, message);
            return Vec::new();
        }
        let list = match scan::split_list(self.text, MAX_ENTRIES, |at| self.describe(at)) {
            Ok(list) => list,
            Err(error) => {
                self.report(error.at, None, error.message);
                return Vec::new();
            }
        };
        if list.entries.is_empty() {
            let message = "the list has no entries; the game needs at least one".to_owned();
            self.report(list.opened_at, None, message);
        }
        let mut entries = Vec::with_capacity(list.entries.len());
        for span in list.entries {
            match ron::Options::default().from_str::<T>(&self.text[span.clone()]) {
                Ok(def) => entries.push(Entry { def, span }),
                Err(error) => self.report_unreadable_entry(span, &error),
            }
        }
        entries
    }

    /// Reports why `ron` could not read an entry, at the token it stopped on,
    /// naming the field it was in and the entry's name if that much is legible.
    fn report_unreadable_entry(&mut self, span: Range<usize>, error: &ron::error::SpannedError) {
        let entry_text = &self.text[span.clone()];
        let within =
            scan::offset_of_position(entry_text, error.span.start.line, error.span.start.col);
        let offset = scan::token_start_near(self.text, span.clone(), span.start + within);
        let found = self.token_text_at(span.clone(), offset);
        let message = explain(&error.code, &found);
        let path = scan::field_path_at(self.text, span.clone(), offset);
        let message = if path.is_empty() {
            message
        } else {
            format!("{}: {message}", path.join("."))
        };
        let name = self.legible_name(span);
        self.report(offset, name.as_deref(), message);
    }

    /// The text of the token starting at `offset`, quoted for a message.
    fn token_text_at(&self, span: Range<usize>, offset: usize) -> String {
        let token = self
            .text
            .get(offset..span.end)
            .and_then(|rest| scan::Lexer::new(rest).next())
            .and_then(Result::ok);
        match token {
            Some(token) => format!("`{}`", shortened(&self.text[offset..offset + token.end])),
            None => "the end of the entry".to_owned(),
        }
    }

    /// The entry's `name` field, if it is a readable string.
    fn legible_name(&self, span: Range<usize>) -> Option<String> {
        let field = scan::find_field(self.text, span, "name")?;
        ron::from_str::<String>(&self.text[field.value]).ok()
    }
}

/// What `ron`'s error means for someone editing a content file, and what to
/// do about it. `found` is the quoted token the error is at.
fn explain(error: &ron::Error, found: &str) -> String {
    use ron::Error as E;
    match error {
        // Our own types' messages, such as the dice limits, already say
        // what to write.
        E::Message(message) => message.clone(),
        E::MissingStructField { field, .. } => {
            format!("missing field `{field}`; add `{field}: ...` to the entry")
        }
        E::NoSuchStructField {
            expected, found, ..
        } => format!(
            "unknown field `{found}`; check the spelling (the fields are {})",
            quoted_list(expected)
        ),
        E::DuplicateStructField { field, .. } => {
            format!("field `{field}` is written twice; keep one")
        }
        E::NoSuchEnumVariant {
            expected, found, ..
        } => format!(
            "unknown kind `{found}`; write one of {}",
            quoted_list(expected)
        ),
        E::IntegerOutOfBounds => format!(
            "{found} does not fit this field: it is negative where only 0 or more is \
             allowed, or far too large"
        ),
        E::ExpectedInteger => format!("expected a whole number, found {found}"),
        E::ExpectedChar => {
            format!("expected one character in single quotes, like 'r', found {found}")
        }
        E::ExpectedString => format!("expected text in double quotes, found {found}"),
        E::ExpectedBoolean => format!("expected true or false, found {found}"),
        E::ExpectedOption => format!("expected Some(...) or None, found {found}"),
        E::ExpectedStructLike | E::ExpectedNamedStructLike(_) => format!(
            "expected `(` to start a group of fields like (name: \"rat\", ...), found {found}"
        ),
        E::ExpectedStructLikeEnd => format!("expected `)` to end the fields, found {found}"),
        E::ExpectedComma => format!("expected a comma between fields, found {found}"),
        E::ExpectedMapColon => format!("expected `:` after the field name, found {found}"),
        E::ExpectedIdentifier => format!("expected a field name, found {found}"),
        E::Eof => "the entry ends too early; a value or a closing bracket is missing".to_owned(),
        E::TrailingCharacters => {
            format!("{found} follows the end of the entry; is a comma missing between two entries?")
        }
        E::InvalidValueForType { expected, found } => format!("expected {expected}, found {found}"),
        E::ExceededRecursionLimit => "values nested too deeply".to_owned(),
        other => format!("{other} (at {found})"),
    }
}

fn quoted_list(names: &[&str]) -> String {
    names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> (usize, Vec<ContentError>) {
        let mut file = File::new(Source {
            file: "test.ron",
            text,
        });
        let loaded = file.entries::<MonsterDef>().len();
        (loaded, file.finish())
    }

    const RAT: &str = r#"(name: "rat", glyph: 'r', max_hp: 3, att: 0, dv: 6, damage: "1d3",
        speed: 100, danger: 1, weight: 10, description: "A rat.")"#;

    #[test]
    fn a_bad_entry_costs_only_itself() {
        let text = format!("[\n{RAT},\n(name: \"newt\", glyph: 'n'),\n{RAT}\n]");
        let (loaded, problems) = load(&text);
        assert_eq!(loaded, 2);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].entry.as_deref(), Some("newt"));
        assert_eq!((problems[0].line, problems[0].column), (4, 26));
        assert!(problems[0].message.contains("missing field `max_hp`"));
    }

    #[test]
    fn dice_errors_point_at_the_dice_and_name_the_field() {
        let text = format!("[\n{}\n]", RAT.replace("\"1d3\"", "\"0d3\""));
        let (_, problems) = load(&text);
        assert_eq!(problems.len(), 1, "{problems:?}");
        let problem = &problems[0];
        assert_eq!((problem.line, problem.column), (2, 61));
        assert_eq!(
            problem.message,
            "damage: a die count of 0 rolls nothing; use 1 or more dice"
        );
        assert_eq!(problem.entry.as_deref(), Some("rat"));
    }

    #[test]
    fn a_missing_comma_between_entries_is_named() {
        let text = format!("[\n{RAT}\n{RAT}\n]");
        let (_, problems) = load(&text);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].message.contains("comma missing"),
            "{problems:?}"
        );
        assert_eq!(problems[0].line, 4);
    }

    #[test]
    fn oversized_files_are_refused_unread() {
        let text = format!("[{}]", " ".repeat(MAX_FILE_BYTES));
        let (loaded, problems) = load(&text);
        assert_eq!(loaded, 0);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].message.contains("limit"), "{problems:?}");
    }

    #[test]
    fn problems_past_the_limit_are_counted_not_listed() {
        let broken = "(name: \"x\")";
        let text = format!("[{}]", vec![broken; MAX_LISTED_PROBLEMS + 7].join(","));
        let (_, problems) = load(&text);
        assert_eq!(problems.len(), MAX_LISTED_PROBLEMS + 1);
        assert!(
            problems[MAX_LISTED_PROBLEMS]
                .message
                .starts_with("7 more problems")
        );
    }

    #[test]
    fn long_names_are_shortened_in_labels() {
        assert_eq!(shortened("short"), "short");
        let long = "x".repeat(100);
        assert_eq!(
            shortened(&long),
            format!("{}...", "x".repeat(MAX_QUOTED_CHARS))
        );
    }
}
