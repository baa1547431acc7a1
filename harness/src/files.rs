//! Reading text files from outside, bounded, with errors that name the file.

use std::io::Read;
use std::path::Path;

/// Reads `path` as bytes, at most `limit` of them. The limit holds while
/// reading too, so a file that grows after it was measured is still refused.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let too_big = |len: u64| {
        format!(
            "{}: {len} bytes is over the {limit}-byte limit",
            path.display()
        )
    };
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let len = file
        .metadata()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    if len > limit {
        return Err(too_big(len));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() as u64 > limit {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Reads `path` as UTF-8 text of at most `limit` bytes. The error names the
/// file and says what is wrong.
pub fn read_text(path: &Path, limit: u64) -> Result<String, String> {
    let bytes = read_bytes(path, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (bad byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}
