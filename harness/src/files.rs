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

/// Replaces `path` with `bytes`, atomically: the bytes go to a temporary
/// file beside the target (same directory, so the same file system), are
/// flushed and synced, and the temporary file is renamed over the target,
/// then the directory is synced so the rename itself is durable. A kill at
/// any moment leaves either the old file or the whole new one, never a part:
/// rename is atomic on POSIX file systems. Every file deja writes goes
/// through here.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write as _;
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    let name = path
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", path.display()))?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if path.is_dir() {
        return Err(format!(
            "{}: is a directory; give a file name",
            path.display()
        ));
    }
    // The process id keeps two deja processes writing the same target from
    // sharing a temporary file; a leftover from a killed process is
    // overwritten by the next write with the same id or left as litter
    // named after its target, never read.
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".{}.tmp", std::process::id()));
    let temp = dir.join(temp_name);
    let written = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(fail(e));
    }
    // Syncing the directory makes the rename survive a power cut; where a
    // directory cannot be opened for syncing (some platforms), the rename
    // has still happened.
    if let Ok(dir) = std::fs::File::open(dir) {
        let _ = dir.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atomic_write_replaces_the_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("deja-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("out.txt");
        write_atomic(&target, b"old").unwrap();
        write_atomic(&target, b"new and longer").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new and longer");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("out.txt")]);
        let err = write_atomic(&dir, b"x").unwrap_err();
        assert!(err.contains("is a directory"), "{err}");
        let err = write_atomic(&dir.join("missing/out.txt"), b"x").unwrap_err();
        assert!(err.contains("missing/out.txt"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
