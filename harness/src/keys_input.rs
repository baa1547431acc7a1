//! Reading key scripts from the command line or a file, with limits and
//! errors that name the line and column.

use std::path::Path;

use game_core::Key;

/// Most keys one script may hold: what a recording holds, so a script's
/// run can always be written down.
pub use crate::recording::MAX_KEYS;
/// Largest key file read.
pub const MAX_KEYS_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Keys from `--keys`: one line of key notation.
pub fn from_arg(text: &str) -> Result<Vec<Key>, String> {
    if text.len() as u64 > MAX_KEYS_FILE_BYTES {
        return Err(format!(
            "--keys is {} bytes; the limit is {MAX_KEYS_FILE_BYTES}",
            text.len()
        ));
    }
    let keys = Key::parse_all(text).map_err(|e| format!("--keys: {e}"))?;
    check_count(keys.len())?;
    Ok(keys)
}

/// Keys from a file: key notation on any number of lines. Line breaks are not
/// keys (write `<Enter>`), `#` starts a comment to the end of its line (the
/// key `#` is `<U+23>`, a space before a comment `<Space>`); errors give
/// `file:line:column`.
pub fn from_file(path: &Path) -> Result<Vec<Key>, String> {
    if path == Path::new("-") {
        return from_stdin();
    }
    let text = crate::files::read_text(path, MAX_KEYS_FILE_BYTES)?;
    parse_lines(&path.display().to_string(), &text)
}

/// Keys from standard input (`--keys-file -`), bounded like a file.
fn from_stdin() -> Result<Vec<Key>, String> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_KEYS_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("standard input: {e}"))?;
    if bytes.len() as u64 > MAX_KEYS_FILE_BYTES {
        return Err(format!(
            "standard input: over the {MAX_KEYS_FILE_BYTES}-byte limit"
        ));
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
/// comment (with the spaces before it: a space key there is `<Space>`);
/// `label` names the source in errors. No key token holds a `#`
/// (the key is `<U+23>`), so the first one on a line is always a comment's
/// start, and cutting there leaves the columns of what is left unchanged.
pub fn parse_lines(label: &str, text: &str) -> Result<Vec<Key>, String> {
    let mut keys = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let line = line
            .split_once('#')
            .map_or(line, |(keys, _comment)| keys.trim_end_matches([' ', '\t']));
        let parsed = Key::parse_all(line).map_err(|e| {
            format!(
                "{label}:{}:{}: bad key {:?}: {}",
                number + 1,
                e.column,
                e.token,
                e.reason
            )
        })?;
        keys.extend(parsed);
        check_count(keys.len()).map_err(|e| format!("{label}:{}: {e}", number + 1))?;
    }
    Ok(keys)
}

fn check_count(count: usize) -> Result<(), String> {
    if count > MAX_KEYS {
        Err(format!("{count} keys is over the limit of {MAX_KEYS}"))
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
        let err = parse_lines("script", "ll\nj<Nope>").unwrap_err();
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
        let err = parse_lines("script", "# note\nl <Nope> # why").unwrap_err();
        assert!(err.starts_with("script:2:3:"), "{err}");
    }
}
