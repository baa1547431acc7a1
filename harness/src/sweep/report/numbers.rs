//! What the tables and the charts both need: shares of a whole, and text
//! made safe for XML.

/// `part` of `whole` as a fraction; 0 of nothing.
pub(super) fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// `part` of `whole` in percent; 0 of nothing.
pub(super) fn percent(part: u64, whole: u64) -> f64 {
    ratio(part, whole) * 100.0
}

/// `text` with the characters XML cannot hold at all (control characters
/// other than tab and newline) written `?`.
pub(super) fn clean(text: &str) -> String {
    text.chars()
        .map(|c| {
            if (c.is_control() && c != '\t' && c != '\n') || c == '\u{FFFE}' || c == '\u{FFFF}' {
                '?'
            } else {
                c
            }
        })
        .collect()
}
