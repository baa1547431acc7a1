//! Reading key scripts from the command line or a file, with limits and
//! errors that name the line and column.

use std::path::Path;

use crate::plumbing::error::Error;
use game_core::Key;

/// Most keys one script may hold: what a recording holds, so a script's
/// run can always be written down.
pub use crate::recording::MAX_KEYS;
/// Largest key file read.
pub const MAX_KEYS_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Keys from `--keys`: one line of key notation.
pub fn from_arg(text: &str) -> Result<Vec<Key>, Error> {
    if text.len() as u64 > MAX_KEYS_FILE_BYTES {
        return Err(format!(
            "--keys is {} bytes; the limit is {MAX_KEYS_FILE_BYTES}",
            text.len()
        )
        .into());
    }
    let keys = Key::parse_all(text).map_err(|e| format!("--keys: {e}"))?;
    check_count(keys.len())?;
    Ok(keys)
}

/// Keys from a file: key notation on any number of lines. Line breaks are not
/// keys (write `<Enter>`), `#` starts a comment to the end of its line (the
/// key `#` is `<U+23>`, a space before a comment `<Space>`); errors give
/// `file:line:column`.
pub fn from_file(path: &Path) -> Result<Vec<Key>, Error> {
    if path == Path::new("-") {
        return from_stdin();
    }
    let text = crate::plumbing::files::read_text(path, MAX_KEYS_FILE_BYTES)?;
    parse_lines(&crate::plumbing::printable::path(path), &text)
}

/// Keys from standard input (`--keys-file -`), bounded like a file.
fn from_stdin() -> Result<Vec<Key>, Error> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_KEYS_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("standard input: {e}"))?;
    if bytes.len() as u64 > MAX_KEYS_FILE_BYTES {
        return Err(format!("standard input: over the {MAX_KEYS_FILE_BYTES}-byte limit").into());
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "standard input: not UTF-8 text (bad byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    parse_lines("standard input", &text)
}

/// Parses several lines of key notation, each up to a `#` that starts a
/// comment (see [`without_comment`]); `label` names the source in errors.
pub fn parse_lines(label: &str, text: &str) -> Result<Vec<Key>, Error> {
    let mut keys = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let line = without_comment(line);
        let parsed = Key::parse_all(line).map_err(|e| {
            let what = format!("bad key {:?}: {}", e.token, e.reason);
            Error::at(number + 1, e.column, what).in_file(label)
        })?;
        keys.extend(parsed);
        check_count(keys.len()).map_err(|e| format!("{label}:{}: {e}", number + 1))?;
    }
    Ok(keys)
}

/// A line's keys: up to the first `#` outside a bracketed token, less the
/// spaces before it (a space key there is `<Space>`). Inside brackets a `#`
/// is part of a key (`<A-#>`); the key `#` alone is `<U+23>`. Only the end
/// is cut, so an error's column is the column in the file.
fn without_comment(line: &str) -> &str {
    let mut in_token = false;
    for (at, c) in line.char_indices() {
        match c {
            '<' if !in_token => in_token = true,
            '>' if in_token => in_token = false,
            '#' if !in_token => return line[..at].trim_end_matches([' ', '\t']),
            _ => {}
        }
    }
    line
}

/// `keys` as the text of a key file that reads back as the same keys: key
/// notation, with the key `#` written `<U+23>` so it is not a comment.
pub fn to_file_text(keys: &[Key]) -> String {
    keys.iter()
        .map(|key| match key.to_string() {
            hash if hash == "#" => "<U+23>".to_string(),
            notation => notation,
        })
        .collect()
}

fn check_count(count: usize) -> Result<(), Error> {
    if count > MAX_KEYS {
        Err(format!("{count} keys is over the limit of {MAX_KEYS}").into())
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_join_and_errors_name_line_and_column() {
        let keys = parse_lines("script", "ll\r\n<Esc>j\n\n").expect("valid");
        assert_eq!(Key::format_all(&keys), "ll<Esc>j");
        let err = parse_lines("script", "ll\nj<Nope>")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("script:2:2:"), "{err}");
    }

    #[test]
    fn a_hash_starts_a_comment_and_the_key_hash_has_a_name() {
        let text = "# walk to the door\nllll  # four east\n<U+23>j # the key # itself\n";
        let keys = parse_lines("script", text).expect("valid");
        assert_eq!(Key::format_all(&keys), "llll#j");
        // Spaces before a comment are not keys (a space key without a
        // comment still is); an error before one names its own column.
        assert_eq!(
            Key::format_all(&parse_lines("script", "l \nl<Space> # wait").unwrap()),
            "l<Space>l<Space>"
        );
        let err = parse_lines("script", "# note\nl <Nope> # why")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("script:2:3:"), "{err}");
        // A '#' inside a bracketed key is that key's, not a comment.
        let keys = parse_lines("script", "<A-#>l # comment").expect("valid");
        assert_eq!(Key::format_all(&keys), "<A-#>l");
    }

    #[test]
    fn a_key_file_written_reads_back_as_its_keys() {
        let keys = Key::parse_all("l#<A-#> <U+23>i<Esc><lt>").expect("valid");
        let text = to_file_text(&keys);
        assert_eq!(
            parse_lines("written", &text).expect("reads"),
            keys,
            "{text}"
        );
    }
}
