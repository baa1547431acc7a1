//! Reading text files from outside, bounded, with errors that name the file.

use std::path::Path;

/// Reads `path` as UTF-8 text of at most `limit` bytes. The error names the
/// file and says what is wrong.
pub fn read_text(path: &Path, limit: u64) -> Result<String, String> {
    let metadata = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if metadata.len() > limit {
        return Err(format!(
            "{}: {} bytes is over the {limit}-byte limit",
            path.display(),
            metadata.len()
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (bad byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}
