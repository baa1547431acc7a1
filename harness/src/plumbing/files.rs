//! Files: reading text from outside, bounded, with errors that name the
//! file; and writing every file deja writes, whole, never through what is
//! planted at a name deja chooses ([`write_atomic_with`] for a path the
//! user names, [`write_new`] for a new file under a name deja picks).

use crate::plumbing::error::Error;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Reads `path` as bytes, at most `limit` of them. The limit holds while
/// reading too, so a file that grows after it was measured is still refused.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, Error> {
    let too_big = |len: u64| {
        format!(
            "{}: {len} bytes is over the {limit}-byte limit",
            crate::plumbing::printable::path(path)
        )
    };
    let file = open_regular(path)?;
    let len = file
        .metadata()
        .map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(path)))?
        .len();
    if len > limit {
        return Err(too_big(len).into());
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(path)))?;
    if bytes.len() as u64 > limit {
        return Err(too_big(bytes.len() as u64).into());
    }
    Ok(bytes)
}

/// Opens `path` for reading when it is a regular file, and refuses, without
/// blocking, anything else: a FIFO with no writer would block `open` forever
/// and a device would never end. The file is opened non-blocking (which a
/// regular file ignores) and its type checked on the open file, so what is
/// checked is what is read.
pub fn open_regular(path: &Path) -> Result<std::fs::File, Error> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options
        .open(path)
        .map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(path)))?;
    let kind = file
        .metadata()
        .map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(path)))?
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
        crate::plumbing::printable::path(path)
    )
    .into())
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

/// Reads `path` as UTF-8 text of at most `limit` bytes, without a leading
/// byte-order mark. The error names the file and says what is wrong.
pub fn read_text(path: &Path, limit: u64) -> Result<String, Error> {
    let mut bytes = read_bytes(path, limit)?;
    if bytes.starts_with(BYTE_ORDER_MARK) {
        bytes.drain(..BYTE_ORDER_MARK.len());
    }
    String::from_utf8(bytes)
        .map_err(|e| {
            format!(
                "{}: not UTF-8 text (bad byte at offset {})",
                crate::plumbing::printable::path(path),
                e.utf8_error().valid_up_to()
            )
        })
        .map_err(Error::from)
}

/// U+FEFF in UTF-8. Some editors write it at the start of a file to mark
/// the encoding; it is no part of the text (not a key, not a token), so
/// every reader of text skips it there, and lines and columns count from
/// after it, as the editor shows them.
pub const BYTE_ORDER_MARK: &[u8] = "\u{feff}".as_bytes();

/// `text` without a leading byte-order mark (see [`BYTE_ORDER_MARK`]).
pub fn without_byte_order_mark(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Checks, before any work starts, that `path` can be written, and that it
/// is none of the command's `inputs`: a command that would fail to write
/// its output at the end, or would write over what it read, fails here
/// instead, naming the path, with nothing spent. A symlink is checked at
/// its target; a device or a FIFO is written through and needs no new file
/// beside it; a file already there must be one [`write_atomic_with`] may
/// replace (see [`replaceable`]); anything else must be a file name (not a
/// directory) in a directory where a new file can be made.
pub fn check_output_file(path: &Path, inputs: &[PathBuf]) -> Result<(), Error> {
    if is_stdout(path) {
        return Ok(());
    }
    check_not_an_input(path, inputs)?;
    let target = resolve(path)?;
    match kind_of(&target) {
        Kind::Directory => return Err(is_a_directory(path).into()),
        Kind::Special(kind) => return writable_special(path, kind),
        Kind::FileOrNothing => {}
    }
    replaceable(path, &target)?;
    let dir = directory_of(&target);
    if !dir.is_dir() {
        return Err(format!(
            "{}: the directory {} does not exist; create it or give another path",
            crate::plumbing::printable::path(path),
            crate::plumbing::printable::path(dir)
        )
        .into());
    }
    can_make_a_file_in(dir)
        .map_err(|e| {
            format!(
                "{}: cannot write in {}: {e}",
                crate::plumbing::printable::path(path),
                crate::plumbing::printable::path(dir)
            )
        })
        .map_err(Error::from)
}

/// Refuses an output that is one of the command's inputs, compared by what
/// they are (device and inode), not by name, so `./x.ron`, `x.ron` and a
/// link to it are the same file. A path that does not exist yet is no input.
pub fn check_not_an_input(output: &Path, inputs: &[PathBuf]) -> Result<(), Error> {
    if is_stdout(output) {
        return Ok(());
    }
    if let Some(input) = inputs.iter().find(|input| same_file(output, input)) {
        let also = if input == output {
            String::new()
        } else {
            format!(" ({})", crate::plumbing::printable::path(input))
        };
        return Err(format!(
            "{}: is this command's input{also}; writing there would destroy what it reads: give another file",
            crate::plumbing::printable::path(output)
        ).into());
    }
    Ok(())
}

/// Whether `a` and `b` are the same existing file, through any links.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => matches!((file_id(&a), file_id(&b)), (Some(x), Some(y)) if x == y),
        _ => false,
    }
}

/// What a resolved path names, as far as writing it goes.
enum Kind {
    Directory,
    /// A device, a FIFO or a socket: written through, never replaced.
    Special(std::fs::FileType),
    /// A regular file, or nothing yet: replaced atomically.
    FileOrNothing,
}

fn kind_of(target: &Path) -> Kind {
    match std::fs::metadata(target) {
        Ok(meta) if meta.is_dir() => Kind::Directory,
        Ok(meta) if !meta.is_file() => Kind::Special(meta.file_type()),
        _ => Kind::FileOrNothing,
    }
}

fn is_a_directory(path: &Path) -> String {
    format!(
        "{}: is a directory; give a file name",
        crate::plumbing::printable::path(path)
    )
}

#[cfg(unix)]
fn file_id(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &std::fs::Metadata) -> Option<(u64, u64)> {
    // No identity to compare by: never the same (the name check of a
    // caller is all there is).
    None
}

/// Most symlinks followed from one path, as the kernel's own limit (40 on
/// Linux): a loop of links is refused, never followed forever.
const MAX_LINKS: usize = 40;

/// The path `path` writes to: each symlink replaced by its target until a
/// path that is not a symlink (which may not exist yet: a dangling link
/// writes its target, as a shell's `>` does). Replacing the link itself
/// would leave its target stale and the link gone.
pub fn resolve(path: &Path) -> Result<PathBuf, Error> {
    let mut at = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&at).map_err(|e| {
                    format!(
                        "{}: reading the link: {e}",
                        crate::plumbing::printable::path(path)
                    )
                })?;
                at = directory_of(&at).join(target);
            }
            _ => return Ok(at),
        }
    }
    Err(format!(
        "{}: more than {MAX_LINKS} symlinks in a row (a loop?); give a file",
        crate::plumbing::printable::path(path)
    )
    .into())
}

/// Whether a device or a FIFO at `path` can take a write: one it cannot
/// (a socket) is refused before the work starts.
fn writable_special(path: &Path, kind: std::fs::FileType) -> Result<(), Error> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_socket() {
            return Err(format!(
                "{}: is a socket, which cannot be written as a file; give a file",
                crate::plumbing::printable::path(path)
            )
            .into());
        }
    }
    #[cfg(not(unix))]
    let _ = (path, kind);
    Ok(())
}

/// Most names tried for a file or directory deja names itself (`STEM`,
/// `STEM-2`, ...) before giving up.
const MAX_NAME_TRIES: u32 = 1000;

/// The `n`th name tried for `stem`: `STEM`, then `STEM-2`, `STEM-3`, ...
fn numbered(stem: &str, n: u32) -> String {
    match n {
        1 => stem.to_string(),
        _ => format!("{stem}-{n}"),
    }
}

/// The `n`th path tried for a new file `STEM.EXT` in `dir`. A bare name
/// stays bare: `deja replay NAME` is what is printed.
fn candidate(dir: &Path, stem: &str, extension: &str, n: u32) -> PathBuf {
    let name = format!("{}.{extension}", numbered(stem, n));
    if dir == Path::new(".") {
        PathBuf::from(name)
    } else {
        dir.join(name)
    }
}

/// Where a file deja writes goes, and so how it is written.
pub enum Destination {
    /// A path the user named (`-o FILE`, a recording to bless): replaced as
    /// [`write_atomic`] replaces it, through a symlink to its target.
    Named(PathBuf),
    /// A name deja chooses: a new file `STEM.EXT` in `dir`, or the first of
    /// `STEM-2.EXT`, `STEM-3.EXT`, ... that nothing has, made by
    /// [`write_new`] and never over anything.
    New {
        dir: PathBuf,
        stem: String,
        extension: &'static str,
    },
    /// A file deja made under a name it chose, written again (a played
    /// run after each key): the name itself is replaced by
    /// [`rewrite_own`], never a link's target.
    Own(PathBuf),
}

impl Destination {
    /// The path to name in a message before the file is written: the path
    /// itself, or the first name a new file tries.
    pub fn shown(&self) -> PathBuf {
        match self {
            Destination::Named(path) | Destination::Own(path) => path.clone(),
            Destination::New {
                dir,
                stem,
                extension,
            } => candidate(dir, stem, extension, 1),
        }
    }

    /// Writes `bytes` there, whole; the path written. A signal that ends
    /// the command waits for the file to be in place, as it does for
    /// [`write_atomic`].
    pub fn write(&self, bytes: &[u8]) -> Result<PathBuf, Error> {
        use crate::plumbing::interrupt::while_writing;
        match self {
            Destination::Named(path) => write_atomic(path, bytes).map(|()| path.clone()),
            Destination::New {
                dir,
                stem,
                extension,
            } => while_writing(|| write_new(dir, stem, extension, bytes)),
            Destination::Own(path) => {
                while_writing(|| rewrite_own(path, bytes)).map(|()| path.clone())
            }
        }
    }
}

/// Writes `bytes` as a new file in `dir` under a name nothing has yet:
/// `STEM.EXT`, else `STEM-2.EXT`, `STEM-3.EXT`, ...; the path written.
/// What is at a name already, anything (a file, a link, a dangling link,
/// a device), is left as it is and the name passed over: a name deja
/// chooses is never written through.
///
/// The bytes go to a temporary file made with `O_EXCL`, are synced, and
/// the file is then hard-linked to the first free name (`link(2)` fails
/// on any name already there and never follows a link), and the temporary
/// name removed. So the new file appears whole or not at all, and two
/// writers racing for a name each get their own. On a file system without
/// hard links the file is made at its name with `O_EXCL` and written
/// there: never over anything still, but a kill mid-write leaves a part.
pub fn write_new(dir: &Path, stem: &str, extension: &str, bytes: &[u8]) -> Result<PathBuf, Error> {
    let first = candidate(dir, stem, extension, 1);
    let fail = |e: std::io::Error| {
        Error::from(format!("{}: {e}", crate::plumbing::printable::path(&first)))
    };
    let name = format!("{stem}.{extension}");
    let (temp, mut file) = fresh_temporary(dir, name.as_ref(), "tmp").map_err(fail)?;
    let linked = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(fail)
        .and_then(|()| link_to_a_free_name(&temp, dir, stem, extension));
    drop(file);
    let _ = std::fs::remove_file(&temp);
    let path = match linked? {
        Linked::At(path) => path,
        Linked::Unsupported => write_under_a_free_name(dir, stem, extension, bytes)?,
    };
    sync_directory(dir);
    Ok(path)
}

/// What came of linking a new file to a free name.
enum Linked {
    At(PathBuf),
    /// The file system has no hard links.
    Unsupported,
}

/// Links `temp` to the first free name for `STEM.EXT` in `dir`.
fn link_to_a_free_name(
    temp: &Path,
    dir: &Path,
    stem: &str,
    extension: &str,
) -> Result<Linked, Error> {
    for n in 1..=MAX_NAME_TRIES {
        let path = candidate(dir, stem, extension, n);
        match std::fs::hard_link(temp, &path) {
            Ok(()) => return Ok(Linked::At(path)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) if no_hard_links(&e) => return Ok(Linked::Unsupported),
            Err(e) => {
                return Err(format!("{}: {e}", crate::plumbing::printable::path(&path)).into());
            }
        }
    }
    Err(all_names_taken(dir, stem, extension).into())
}

/// Whether a failed `link(2)` says the file system cannot make hard links
/// (FAT gives EPERM, some network file systems ENOTSUP).
fn no_hard_links(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(e.raw_os_error(), Some(libc::EPERM | libc::ENOTSUP))
    }
    #[cfg(not(unix))]
    {
        e.kind() == std::io::ErrorKind::Unsupported
    }
}

/// [`write_new`] where there are no hard links: the first free name made
/// with `O_EXCL` and written in place.
fn write_under_a_free_name(
    dir: &Path,
    stem: &str,
    extension: &str,
    bytes: &[u8],
) -> Result<PathBuf, Error> {
    for n in 1..=MAX_NAME_TRIES {
        let path = candidate(dir, stem, extension, n);
        let fail = |e: std::io::Error| format!("{}: {e}", crate::plumbing::printable::path(&path));
        match create_fresh(&path) {
            Ok(mut file) => {
                file.write_all(bytes)
                    .and_then(|()| file.sync_all())
                    .map_err(fail)?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(fail(e).into()),
        }
    }
    Err(all_names_taken(dir, stem, extension).into())
}

fn all_names_taken(dir: &Path, stem: &str, extension: &str) -> String {
    format!(
        "{}: {MAX_NAME_TRIES} files are named {stem}-N.{extension} already; move some away or give -o FILE",
        crate::plumbing::printable::path(dir)
    )
}

/// A new directory in `parent` for deja's own scratch files, `STEM` or the
/// first of `STEM-2`, `STEM-3`, ... that nothing has: made by this call
/// (`mkdir` never follows a link planted at the name), so nothing another
/// user prepared is written into. Only its owner may enter it.
pub fn fresh_dir(parent: &Path, stem: &str) -> Result<PathBuf, Error> {
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    for n in 1..=MAX_NAME_TRIES {
        let path = parent.join(numbered(stem, n));
        match builder.create(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                return Err(format!("{}: {e}", crate::plumbing::printable::path(&path)).into());
            }
        }
    }
    Err(format!(
        "{}: {MAX_NAME_TRIES} directories are named {stem}-N already; remove the litter",
        crate::plumbing::printable::path(parent)
    )
    .into())
}

/// Checks, before any work starts, that files can be written into `dir`,
/// making it (and its parents) when missing. What is there and is no
/// directory is named for what it is.
pub fn check_output_dir(dir: &Path) -> Result<(), Error> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(meta) => {
            let what = if meta.is_file() {
                "a file"
            } else {
                special_kind(meta.file_type())
            };
            return Err(format!(
                "{}: is {what}, not a directory; give a directory",
                crate::plumbing::printable::path(dir)
            )
            .into());
        }
        Err(e) if is_a_loop(&e) => {
            return Err(format!(
                "{}: is a loop of symlinks, which leads to no directory; remove a link of the loop, or give another directory",
                crate::plumbing::printable::path(dir)
            ).into());
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if let Ok(target) = std::fs::read_link(dir) {
                return Err(format!(
                    "{}: is a symlink to nothing ({} does not exist); create that directory, or give another",
                    crate::plumbing::printable::path(dir),
                    crate::plumbing::printable::path(&target)
                ).into());
            }
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(dir)))?;
        }
        Err(e) => return Err(format!("{}: {e}", crate::plumbing::printable::path(dir)).into()),
    }
    can_make_a_file_in(dir)
        .map_err(|e| {
            format!(
                "{}: cannot write here: {e}",
                crate::plumbing::printable::path(dir)
            )
        })
        .map_err(Error::from)
}

/// Whether a failed look at a path met a loop of symlinks (or a chain
/// longer than the kernel follows).
fn is_a_loop(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        e.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

fn can_make_a_file_in(dir: &Path) -> std::io::Result<()> {
    let (probe, _file) = fresh_temporary(dir, "deja-write-check".as_ref(), "tmp")?;
    std::fs::remove_file(&probe)
}

/// A new file at `path`, made by this call (`O_EXCL`): whatever is already
/// there is never opened (a symlink included, which `O_EXCL` never
/// follows), so nothing planted at a name deja chooses can make deja,
/// running as root, write through it into another file.
fn create_fresh(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(path)
}

/// A new temporary file in `dir` for what will become `target` there (see
/// [`temporary_name`]): the first of its temporary names that nothing has.
/// What is at a taken one (litter of a killed deja, or a trap) is left
/// alone, never removed or opened.
fn fresh_temporary(
    dir: &Path,
    target: &std::ffi::OsStr,
    suffix: &str,
) -> std::io::Result<(PathBuf, std::fs::File)> {
    for n in 1..=MAX_NAME_TRIES {
        let path = dir.join(temporary_name(target, n, suffix));
        match create_fresh(&path) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        format!(
            "{MAX_NAME_TRIES} temporary names beside it are taken (.{}.*.{suffix}); remove the litter",
            target.to_string_lossy()
        ),
    ))
}

/// Replaces `path` with `bytes`, atomically: see [`write_atomic_with`].
/// Every file deja writes goes through one of the two.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
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
///
/// What is at the path is kept what it is. A symlink is followed and its
/// target replaced (the link stays, now naming the new file). A device or
/// a FIFO is written through, with no temporary file (there is no old
/// version to keep whole, and renaming over it would turn the machine's
/// `/dev/null` into a file when run as root); its write errors are errors,
/// so a full device is reported, not taken for success.
///
/// A file replaced keeps its mode and its owner and group: the temporary
/// file is given them before a byte is written. Only root may give a file
/// to another user; anyone else who may write a file owned by another
/// (through its group or other write bit) makes the new file their own,
/// in the old file's group when they are in that group, else in their own,
/// and with the old mode. Two files are refused, untouched, with what to
/// do (see [`replaceable`]): a read-only one, which is not deja's to
/// replace, and one with other names (hard links), which a rename would
/// part from this name, leaving them the old content; writing such a file
/// in place instead would give up the whole-or-nothing promise.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Error> {
    if is_stdout(path) {
        // `-`: standard output, which has no old version to keep.
        let mut out = std::io::stdout().lock();
        return write(&mut out)
            .and_then(|()| out.flush())
            .map_err(crate::plumbing::output::output_error);
    }
    let target = resolve(path)?;
    match kind_of(&target) {
        Kind::Directory => Err(is_a_directory(path).into()),
        Kind::Special(kind) => {
            writable_special(path, kind)?;
            write_through(path, &target, write)
        }
        // A signal that ends the command waits for the file to be in place.
        Kind::FileOrNothing => {
            let old = replaceable(path, &target)?;
            crate::plumbing::interrupt::while_writing(|| {
                replace_atomically(path, &target, old.as_ref(), write)
            })
        }
    }
}

/// Replaces `path`, a file deja made under a name it chose ([`write_new`]),
/// with `bytes`, atomically as [`write_atomic`] does. The name itself is
/// replaced, whatever is there now: a link planted at it since is replaced,
/// never followed, so the file deja writes is always the one it named.
/// The file keeps the mode it has (its user may have changed it).
pub fn rewrite_own(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let old = std::fs::symlink_metadata(path)
        .ok()
        .filter(std::fs::Metadata::is_file);
    replace_atomically(path, path, old.as_ref(), |out| out.write_all(bytes))
}

/// What is at `target` (`path` resolved), when it is a regular file that
/// writing `path` would replace: checked to be one deja may replace. A
/// read-only file (no write bit, or none this user has) is the user's to
/// keep; a file with other names (hard links) would lose them to a rename,
/// which leaves them the old content. Both are refused with what to do.
fn replaceable(path: &Path, target: &Path) -> Result<Option<std::fs::Metadata>, Error> {
    let old = match std::fs::symlink_metadata(target) {
        Ok(meta) if meta.is_file() => meta,
        _ => return Ok(None),
    };
    let read_only = if old.permissions().readonly() {
        Some("read-only")
    } else if !writable_by_this_user(target) {
        Some("not writable by this user")
    } else {
        None
    };
    if let Some(what) = read_only {
        return Err(format!(
            "{}: is {what} ({}), so deja leaves it as it is; make it writable first (chmod u+w), or give another file",
            crate::plumbing::printable::path(path),
            mode_and_owner(&old)
        ).into());
    }
    let names = link_count(&old);
    if names > 1 {
        let others = match names - 1 {
            1 => "the other name".to_string(),
            n => format!("the {n} other names"),
        };
        return Err(format!(
            "{}: has {names} names (hard links); replacing it would leave {others} with the old content, so deja leaves it as it is: give another file, or break the link first (copy the file and move the copy onto this name)",
            crate::plumbing::printable::path(path)
        ).into());
    }
    Ok(Some(old))
}

/// Whether this user (its effective ids) may write the file at `path`; a
/// file that cannot be asked about is taken as writable, and the write
/// itself then says what is wrong.
#[cfg(unix)]
fn writable_by_this_user(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(name) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return true;
    };
    // SAFETY: `name` is a NUL-terminated string that lives through the
    // call; faccessat only reads it.
    let answer =
        unsafe { libc::faccessat(libc::AT_FDCWD, name.as_ptr(), libc::W_OK, libc::AT_EACCESS) };
    answer == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::EACCES)
}

#[cfg(not(unix))]
fn writable_by_this_user(_: &Path) -> bool {
    true
}

#[cfg(unix)]
fn link_count(meta: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    meta.nlink()
}

#[cfg(not(unix))]
fn link_count(_: &std::fs::Metadata) -> u64 {
    1
}

/// `mode 0444, owner 1000:1000`, for a message about a file.
#[cfg(unix)]
fn mode_and_owner(meta: &std::fs::Metadata) -> String {
    use std::os::unix::fs::MetadataExt;
    format!(
        "mode {:04o}, owner {}:{}",
        meta.mode() & 0o7777,
        meta.uid(),
        meta.gid()
    )
}

#[cfg(not(unix))]
fn mode_and_owner(_: &std::fs::Metadata) -> String {
    "read-only".to_string()
}

/// The temporary file, sync and rename of [`write_atomic_with`], onto
/// `target` (a regular file or none yet), the temporary file given `old`'s
/// mode and owner first; errors name `path`, as given.
fn replace_atomically(
    path: &Path,
    target: &Path,
    old: Option<&std::fs::Metadata>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Error> {
    let fail = |e: std::io::Error| format!("{}: {e}", crate::plumbing::printable::path(path));
    let name = target.file_name().ok_or_else(|| {
        format!(
            "{}: not a file name",
            crate::plumbing::printable::path(path)
        )
    })?;
    let dir = directory_of(target);
    let (temp, file) = fresh_temporary(dir, name, "tmp").map_err(fail)?;
    let written = (|| {
        if let Some(old) = old {
            keep_mode_and_owner(&file, old)?;
        }
        let mut out = std::io::BufWriter::new(file);
        write(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, target)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(fail(e).into());
    }
    sync_directory(dir);
    Ok(())
}

/// Gives `file` the owner, group and mode of `old`, the file it replaces.
/// The owner goes first, since a change of owner clears set-id bits. A
/// user who may not give the file away (only root may) keeps the group
/// when they are in it, else the file is theirs; the mode is kept either
/// way.
#[cfg(unix)]
fn keep_mode_and_owner(file: &std::fs::File, old: &std::fs::Metadata) -> std::io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    if std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid())).is_err() {
        let _ = std::os::unix::fs::fchown(file, None, Some(old.gid()));
    }
    file.set_permissions(std::fs::Permissions::from_mode(old.mode() & 0o7777))
}

#[cfg(not(unix))]
fn keep_mode_and_owner(file: &std::fs::File, old: &std::fs::Metadata) -> std::io::Result<()> {
    file.set_permissions(old.permissions())
}

/// Syncs `dir`, so a rename or a link made in it survives a power cut;
/// where a directory cannot be opened for syncing (some platforms), what
/// was made in it has still been made.
fn sync_directory(dir: &Path) {
    if let Ok(dir) = std::fs::File::open(dir) {
        let _ = dir.sync_all();
    }
}

/// Writes straight into a device or a FIFO at `target`. A FIFO is opened
/// without blocking, so one that nothing reads is an error now rather than
/// a wait forever; the writes then block as a pipe's writer's should.
fn write_through(
    path: &Path,
    target: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Error> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(target).map_err(|e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ENXIO) {
            return format!(
                "{}: is a FIFO that nothing reads; start its reader first, or give a file",
                crate::plumbing::printable::path(path)
            );
        }
        format!("{}: {e}", crate::plumbing::printable::path(path))
    })?;
    #[cfg(unix)]
    blocking(&file).map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(path)))?;
    let mut out = std::io::BufWriter::new(file);
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(path)))
        .map_err(Error::from)
}

/// Clears `O_NONBLOCK` on an open file, so writes wait for room in a pipe
/// instead of failing with "would block".
#[cfg(unix)]
fn blocking(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: `fd` is an open descriptor owned by `file` for the whole
    // call; F_GETFL and F_SETFL read and set its status flags only.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
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

/// The `n`th hidden name beside the target for a file on its way to
/// becoming it: `.TARGET.PID.SUFFIX`, then `.TARGET.PID-2.SUFFIX`, ... The
/// process id keeps two deja processes writing the same target apart; a
/// leftover from a killed process is litter named after its target, passed
/// over and never read.
fn temporary_name(target: &std::ffi::OsStr, n: u32, suffix: &str) -> std::ffi::OsString {
    let mut name = std::ffi::OsString::from(".");
    name.push(target);
    name.push(format!(
        ".{}.{suffix}",
        numbered(&std::process::id().to_string(), n)
    ));
    name
}

/// A scratch file beside `target`, for what will go into it once complete
/// (a sweep's results, which only fit on disk): read and write, and, on
/// Unix, already unlinked, so a kill leaves nothing behind and the space is
/// freed when it is dropped.
pub fn scratch_beside(target: &Path) -> Result<std::fs::File, Error> {
    // Standard output, a device or a FIFO has no directory of its own to
    // put a file beside (a scratch file in /dev would be litter there).
    let resolved = if is_stdout(target) {
        None
    } else {
        Some(resolve(target)?).filter(|at| matches!(kind_of(at), Kind::FileOrNothing))
    };
    let (dir, name) = match &resolved {
        None => (std::env::temp_dir(), "deja-stdout".as_ref()),
        Some(at) => (
            directory_of(at).to_path_buf(),
            at.file_name().ok_or_else(|| {
                format!(
                    "{}: not a file name",
                    crate::plumbing::printable::path(target)
                )
            })?,
        ),
    };
    let (path, file) = fresh_temporary(&dir, name, "scratch")
        .map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(&dir.join(name))))?;
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
        let err = write_atomic(&dir, b"x").unwrap_err().to_string();
        assert!(err.contains("is a directory"), "{err}");
        let err = write_atomic(&dir.join("missing/out.txt"), b"x")
            .unwrap_err()
            .to_string();
        assert!(err.contains("missing/out.txt"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A fresh directory for one test, in the system's temporary directory.
    fn test_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("deja-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A symlink planted where the temporary file would be made is passed
    /// over for the next temporary name, and left as it is: the file it
    /// points at keeps its bytes.
    #[cfg(unix)]
    #[test]
    fn a_link_at_the_temporary_name_is_never_written_through_or_removed() {
        let dir = test_dir("planted-temporary");
        let victim = dir.join("victim");
        std::fs::write(&victim, b"keep").unwrap();
        let target = dir.join("out.txt");
        let temp = dir.join(temporary_name(target.file_name().unwrap(), 1, "tmp"));
        std::os::unix::fs::symlink(&victim, &temp).unwrap();
        write_atomic(&target, b"new").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        assert!(std::fs::symlink_metadata(&target).unwrap().is_file());
        assert!(std::fs::symlink_metadata(&temp).unwrap().is_symlink());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// What can be at a name deja chooses: a file, a link to a file
    /// elsewhere, a dangling link. Each is passed over and kept.
    #[cfg(unix)]
    fn plant_taken_names(dir: &Path, victim: &Path) {
        std::fs::write(dir.join("report.ron"), b"someone's").unwrap();
        std::os::unix::fs::symlink(victim, dir.join("report-2.ron")).unwrap();
        std::os::unix::fs::symlink("nowhere", dir.join("report-3.ron")).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_new_file_takes_the_first_free_name_and_writes_through_nothing() {
        let dir = test_dir("new-file");
        let victim = dir.join("victim");
        std::fs::write(&victim, b"keep").unwrap();
        // By a hard link from a temporary file, and where there are no
        // hard links, by O_EXCL at the name.
        type Writer = fn(&Path) -> Result<PathBuf, Error>;
        let writers: [Writer; 2] = [
            |dir| write_new(dir, "report", "ron", b"new"),
            |dir| write_under_a_free_name(dir, "report", "ron", b"new"),
        ];
        for write in writers {
            let taken = dir.join("taken");
            std::fs::create_dir_all(&taken).unwrap();
            plant_taken_names(&taken, &victim);
            let written = write(&taken).unwrap();
            assert_eq!(written, taken.join("report-4.ron"));
            assert_eq!(std::fs::read(&written).unwrap(), b"new");
            assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
            assert_eq!(
                std::fs::read(taken.join("report.ron")).unwrap(),
                b"someone's"
            );
            assert!(std::fs::read_link(taken.join("report-3.ron")).is_ok());
            // Nothing but the four names: no temporary file is left.
            assert_eq!(std::fs::read_dir(&taken).unwrap().count(), 4);
            std::fs::remove_dir_all(&taken).unwrap();
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_name_in_the_working_directory_stays_bare() {
        assert_eq!(
            candidate(Path::new("."), "deja-failure-seed3-step3", "ron", 2),
            PathBuf::from("deja-failure-seed3-step3-2.ron")
        );
        assert_eq!(
            candidate(Path::new("failures"), "seed1-step9", "ron", 1),
            PathBuf::from("failures/seed1-step9.ron")
        );
    }

    /// A file deja made and writes again is replaced by its name: a link
    /// swapped in for it is replaced, and its target keeps its bytes.
    #[cfg(unix)]
    #[test]
    fn a_file_of_deja_s_own_is_rewritten_by_its_name_never_through_a_link() {
        let dir = test_dir("own-file");
        let victim = dir.join("victim");
        std::fs::write(&victim, b"keep").unwrap();
        let own = write_new(&dir, "run", "ron", b"first").unwrap();
        std::fs::remove_file(&own).unwrap();
        std::os::unix::fs::symlink(&victim, &own).unwrap();
        Destination::Own(own.clone()).write(b"second").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        assert!(std::fs::symlink_metadata(&own).unwrap().is_file());
        assert_eq!(std::fs::read(&own).unwrap(), b"second");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A scratch directory is made new: a link to another directory at its
    /// name, or a file, is passed over, and nothing is made inside them.
    #[cfg(unix)]
    #[test]
    fn a_scratch_directory_is_made_new() {
        let dir = test_dir("scratch-dir");
        let elsewhere = dir.join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, dir.join("deja-shrink")).unwrap();
        std::fs::write(dir.join("deja-shrink-2"), b"a file").unwrap();
        let made = fresh_dir(&dir, "deja-shrink").unwrap();
        assert_eq!(made, dir.join("deja-shrink-3"));
        assert!(std::fs::symlink_metadata(&made).unwrap().is_dir());
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&made).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
