//! Reading text files from outside, bounded, with errors that name the file.

use std::io::{Read, Write};
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
    let file = open_regular(path)?;
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

/// Opens `path` for reading when it is a regular file, and refuses, without
/// blocking, anything else: a FIFO with no writer would block `open` forever
/// and a device would never end. The file is opened non-blocking (which a
/// regular file ignores) and its type checked on the open file, so what is
/// checked is what is read.
pub fn open_regular(path: &Path) -> Result<std::fs::File, String> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let kind = file
        .metadata()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .file_type();
    if kind.is_file() {
        return Ok(file);
    }
    let what = if kind.is_dir() {
        "a directory"
    } else {
        special_kind(kind)
    };
    Err(format!(
        "{}: is {what}, not a regular file; give a file",
        path.display()
    ))
}

#[cfg(unix)]
fn special_kind(kind: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else {
        "not a file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: std::fs::FileType) -> &'static str {
    "not a file"
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

/// Checks, before any work starts, that `path` can be written as a file: it
/// is not a directory, its directory exists, and a new file can be made
/// there. A command that would fail to write its output at the end fails
/// here instead, naming the path, with nothing spent.
pub fn check_output_file(path: &Path) -> Result<(), String> {
    if is_stdout(path) {
        return Ok(());
    }
    if path.is_dir() {
        return Err(format!(
            "{}: is a directory; give a file name",
            path.display()
        ));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(format!(
            "{}: the directory {} does not exist; create it or give another path",
            path.display(),
            dir.display()
        ));
    }
    can_make_a_file_in(dir)
        .map_err(|e| format!("{}: cannot write in {}: {e}", path.display(), dir.display()))
}

/// Checks, before any work starts, that files can be written into `dir`,
/// making it (and its parents) when missing.
pub fn check_output_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "{}: is a file, not a directory; give a directory",
            dir.display()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    can_make_a_file_in(dir).map_err(|e| format!("{}: cannot write here: {e}", dir.display()))
}

fn can_make_a_file_in(dir: &Path) -> std::io::Result<()> {
    let probe = dir.join(format!(".deja-write-check.{}.tmp", std::process::id()));
    std::fs::File::create(&probe)?;
    std::fs::remove_file(&probe)
}

/// Replaces `path` with `bytes`, atomically: see [`write_atomic_with`].
/// Every file deja writes goes through one of the two.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    write_atomic_with(path, |out| out.write_all(bytes))
}

/// Whether `path` is `-`, which every output flag takes to mean standard
/// output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Replaces `path` with what `write` writes, atomically: the bytes go to a
/// temporary file beside the target (same directory, so the same file
/// system), are flushed and synced, and the temporary file is renamed over
/// the target, then the directory is synced so the rename itself is durable.
/// A kill at any moment leaves either the old file or the whole new one,
/// never a part: rename is atomic on POSIX file systems. `write` streams,
/// so a file larger than memory (a sweep's report) is written the same way.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    if is_stdout(path) {
        // `-`: standard output, which has no old version to keep.
        let mut out = std::io::stdout().lock();
        return write(&mut out)
            .and_then(|()| out.flush())
            .map_err(crate::commands::output_error);
    }
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    let name = path
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", path.display()))?;
    let dir = directory_of(path);
    if path.is_dir() {
        return Err(format!(
            "{}: is a directory; give a file name",
            path.display()
        ));
    }
    let temp = dir.join(temporary_name(name, "tmp"));
    let written = (|| {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&temp)?);
        write(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
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

/// The directory a file path is in ("." for a bare name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A hidden name beside the target for a file on its way to becoming it.
/// The process id keeps two deja processes writing the same target from
/// sharing a temporary file; a leftover from a killed process is
/// overwritten by the next write with the same id or left as litter named
/// after its target, never read.
fn temporary_name(target: &std::ffi::OsStr, suffix: &str) -> std::ffi::OsString {
    let mut name = std::ffi::OsString::from(".");
    name.push(target);
    name.push(format!(".{}.{suffix}", std::process::id()));
    name
}

/// A scratch file beside `target`, for what will go into it once complete
/// (a sweep's results, which only fit on disk): read and write, and, on
/// Unix, already unlinked, so a kill leaves nothing behind and the space is
/// freed when it is dropped.
pub fn scratch_beside(target: &Path) -> Result<std::fs::File, String> {
    let path = if is_stdout(target) {
        std::env::temp_dir().join(temporary_name("deja-stdout".as_ref(), "scratch"))
    } else {
        let name = target
            .file_name()
            .ok_or_else(|| format!("{}: not a file name", target.display()))?;
        directory_of(target).join(temporary_name(name, "scratch"))
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    #[cfg(unix)]
    let _ = std::fs::remove_file(&path);
    Ok(file)
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
