//! Reading a recording: strict and bounded, every refusal naming the line
//! and column (found with game-core's `content::scan` locator).

use std::io::Read as _;
use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD as BASE64;
use game_core::Key;
use game_core::canary::Canary;
use game_core::content::scan::{
    self, column_in_literal, locate_field, locate_list_element, locate_list_item,
};

use super::{
    FORMAT_VERSION, File, Hashes, Header, MAX_EXPECTATIONS, MAX_FILE_BYTES, MAX_KEYS,
    MAX_NOTE_CHARS, MAX_ORIGIN_CHARS, OLDEST_FORMAT, PART_BYTES, RecordedOutcome, Recording,
};
use crate::plumbing::error::Error;

/// Reads and checks a recording file. Errors about the file's content start
/// with `path:line:column: `, including a file too large or not UTF-8.
pub fn read(path: &Path) -> Result<Recording, Error> {
    let name = crate::plumbing::printable::path(path);
    let io = |e: std::io::Error| format!("{name}: {e}");
    let file = crate::plumbing::files::open_regular(path)?;
    let size = file.metadata().map_err(io)?.len();
    if size > MAX_FILE_BYTES {
        let over = format!("{size} bytes is over the {MAX_FILE_BYTES}-byte limit");
        return Err(Error::at(1, 1, over).in_file(&name));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
        let (line, column) = scan::position(valid, valid.len());
        let what = format!("not UTF-8 text (bad byte at offset {})", e.valid_up_to());
        Error::at(line, column, what).in_file(&name)
    })?;
    from_text(crate::plumbing::files::without_byte_order_mark(text)).map_err(|e| e.in_file(&name))
}

/// Parses and checks recording text. Errors start with `line:column: `.
pub fn from_text(text: &str) -> Result<Recording, Error> {
    if text.len() as u64 > MAX_FILE_BYTES {
        let over = format!(
            "{} bytes is over the {MAX_FILE_BYTES}-byte limit",
            text.len()
        );
        return Err(Error::at(1, 1, over));
    }
    if text.trim().is_empty() {
        return Err(Error::at(1, 1, "the file is empty"));
    }
    let header: Header = ron::from_str(text).map_err(|e| ron_error(&e, text))?;
    if !(OLDEST_FORMAT..=FORMAT_VERSION).contains(&header.format) {
        return Err(Places { text }.field("format").error(format!(
            "unknown format version {}; this deja reads versions {OLDEST_FORMAT} to {FORMAT_VERSION} (a newer deja may read it)",
            header.format
        )));
    }
    let file: File = ron::from_str(text).map_err(|e| ron_error(&e, text))?;
    check(text, file)
}

fn ron_error(e: &ron::error::SpannedError, text: &str) -> Error {
    let what = match &e.code {
        ron::Error::Eof => "the file ends too soon (is it truncated?)".to_string(),
        // ron's own text suggests raising its limit, which a user cannot do.
        ron::Error::ExceededRecursionLimit => "values are nested too deeply".to_string(),
        ron::Error::TrailingCharacters => {
            "text after the recording's closing `)` (two files in one?)".to_string()
        }
        // A file cut inside a name or a string is not reported as Eof.
        other if scan::ends_inside_brackets(text) => {
            format!("{other}; the file ends with a bracket still open (is it truncated?)")
        }
        other => other.to_string(),
    };
    // Trailing text starts where the span ends; ron's start is the end of
    // the comment or whitespace before it.
    let at = match e.code {
        ron::Error::TrailingCharacters => e.span.end,
        _ => e.span.start,
    };
    Error::at(at.line, at.col, what)
}

/// Lines of unpadded base64 holding `N` bytes a step, decoded: each line on
/// its own, refused (at its `LINE:COL`) when it is not base64 or not whole
/// steps, and the total capped at a step per key. `what` names the data
/// and its size for the messages.
fn decode_steps<const N: usize>(
    text: &str,
    field: &str,
    lines: &[String],
    (what, size): (&str, &str),
) -> Result<Vec<[u8; N]>, Error> {
    let mut steps = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let where_ = || {
            let (line, column) = locate_list_item(text, field, i).unwrap_or((1, 1));
            Spot { line, column }
        };
        let bytes = BASE64
            .decode(line)
            .map_err(|e| where_().error(format!("{what} are not base64: {e}")))?;
        if bytes.len() % N != 0 {
            return Err(where_().error(format!(
                "{what} are {size}; this line holds {}",
                bytes.len()
            )));
        }
        steps.extend(
            bytes
                .chunks_exact(N)
                .map(|b| <[u8; N]>::try_from(b).expect("chunks of N")),
        );
        if steps.len() > MAX_KEYS + 1 {
            return Err(where_().error(format!("more {what} than keys")));
        }
    }
    Ok(steps)
}

/// The checks serde cannot make: key notation, hash encoding, counts and
/// consistency, in the order the errors are reported (the first found is
/// the one said); each error points at the offending field.
fn check(text: &str, file: File) -> Result<Recording, Error> {
    let at = Places { text };
    let (content, canaries) = check_game(&at, &file)?;
    let keys = read_keys(text, &file.keys)?;
    let (step_hashes, part_digests, checkpoints) = read_hashes(&at, &file.hashes)?;
    let frame = check_sizes(&at, &file)?;
    let recording = Recording {
        game_name: file.game.name,
        game_version: file.game.version,
        content,
        seed: file.seed,
        map_width: file.map.width,
        map_height: file.map.height,
        frame,
        frame_every: file.frame_every,
        oracle_every: file.oracle_every,
        progress_limit: file.progress_limit,
        start_depth: file.start_depth,
        canaries,
        keys,
        step_hashes,
        part_digests,
        checkpoints,
        outcome: file.outcome,
        failure: file.failure,
        note: file.note,
        origin: file.origin,
        expect: file.expect,
    };
    check_expect(&at, &recording, file.format)?;
    check_agreement(&at, &recording)?;
    Ok(recording)
}

/// Where a field or a list's item is written in a recording's text, as the
/// `LINE:COL` an error starts with (1:1 when it cannot be found).
struct Places<'a> {
    text: &'a str,
}

impl Places<'_> {
    fn field(&self, field: &str) -> Spot {
        let (line, column) = locate_field(self.text, field).unwrap_or((1, 1));
        Spot { line, column }
    }

    fn item(&self, list: &str, index: usize) -> Spot {
        let (line, column) = locate_list_item(self.text, list, index).unwrap_or((1, 1));
        Spot { line, column }
    }
}

/// A line and column of a recording's text.
#[derive(Clone, Copy)]
struct Spot {
    line: usize,
    column: usize,
}

impl Spot {
    /// What is wrong here.
    fn error(self, message: impl Into<String>) -> Error {
        Error::at(self.line, self.column, message)
    }
}

/// The game a recording is of: its content's fingerprint, map size, first
/// floor and canaries.
fn check_game(at: &Places, file: &File) -> Result<(u64, Vec<Canary>), Error> {
    let content = parse_hex64(&file.content).ok_or_else(|| {
        at.field("content").error(format!(
            "content {:?} is not a 16-digit hex fingerprint",
            file.content
        ))
    })?;
    let (w, h) = (file.map.width, file.map.height);
    let map_ok = (game_core::map::MIN_WIDTH..=game_core::map::MAX_WIDTH).contains(&w)
        && (game_core::map::MIN_HEIGHT..=game_core::map::MAX_HEIGHT).contains(&h);
    if !map_ok {
        return Err(at.field("map").error(format!(
            "map size {w}x{h} is outside what the game plays on"
        )));
    }
    if !(1..=game_core::mapgen::LAST_DEPTH).contains(&file.start_depth) {
        return Err(at.field("start_depth").error(format!(
            "start_depth {} is outside 1 to {}",
            file.start_depth,
            game_core::mapgen::LAST_DEPTH
        )));
    }
    let mut canaries = Vec::new();
    for (i, name) in file.canaries.iter().enumerate() {
        let canary = Canary::from_name(name).ok_or_else(|| {
            let known: Vec<&str> = Canary::ALL.iter().map(|c| c.name()).collect();
            at.item("canaries", i).error(format!(
                "unknown canary {name:?}; known: {}",
                known.join(", ")
            ))
        })?;
        canaries.push(canary);
    }
    Ok((content, canaries))
}

/// The keys, line by line, a bad one named by the column it is written at.
fn read_keys(text: &str, lines: &[String]) -> Result<Vec<Key>, Error> {
    let mut keys = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let parsed = Key::parse_all(line).map_err(|e| {
            let (line_no, col) = locate_list_item(text, "keys", i).unwrap_or((1, 1));
            let column = column_in_literal(text, line_no, col, e.column);
            Error::at(
                line_no,
                column,
                format!("bad key {:?}: {}", e.token, e.reason),
            )
        })?;
        keys.extend(parsed);
        if keys.len() > MAX_KEYS {
            let spot = Places { text }.field("keys");
            return Err(spot.error(format!("more than {MAX_KEYS} keys")));
        }
    }
    Ok(keys)
}

/// A recording's hashes as the file holds them: per step, the parts' digests
/// per step, and the checkpoints (step, full hash).
type DecodedHashes = (Vec<u32>, Vec<[u8; PART_BYTES]>, Vec<(u64, u64)>);

/// Per-step hashes, part digests and checkpoints, decoded.
fn read_hashes(at: &Places, hashes: &Hashes) -> Result<DecodedHashes, Error> {
    let step_hashes = decode_steps::<4>(
        at.text,
        "per_step",
        &hashes.per_step,
        ("per-step hashes", "4 bytes each"),
    )?
    .into_iter()
    .map(u32::from_le_bytes)
    .collect();
    let part_digests = decode_steps::<PART_BYTES>(
        at.text,
        "parts",
        &hashes.parts,
        ("part digests", "7 bytes a step"),
    )?;
    let mut checkpoints = Vec::new();
    for (i, c) in hashes.checkpoints.iter().enumerate() {
        // Each checkpoint holds one string, its hash.
        let hash = parse_hex64(&c.hash).ok_or_else(|| {
            at.item("checkpoints", i)
                .error(format!("checkpoint hash {:?} is not 16 hex digits", c.hash))
        })?;
        checkpoints.push((c.step, hash));
    }
    Ok((step_hashes, part_digests, checkpoints))
}

/// The note's length, the frame's size and the progress limit; the frame.
fn check_sizes(at: &Places, file: &File) -> Result<(u16, u16), Error> {
    if file.note.chars().count() > MAX_NOTE_CHARS {
        return Err(at.field("note").error(format!(
            "the note is longer than {MAX_NOTE_CHARS} characters"
        )));
    }
    use game_core::frame::{MAX_FRAME_HEIGHT, MAX_FRAME_WIDTH, MIN_FRAME_HEIGHT, MIN_FRAME_WIDTH};
    let frame = (file.frame.width, file.frame.height);
    if !(MIN_FRAME_WIDTH..=MAX_FRAME_WIDTH).contains(&frame.0)
        || !(MIN_FRAME_HEIGHT..=MAX_FRAME_HEIGHT).contains(&frame.1)
    {
        return Err(at.field("frame").error(format!("frame size {}x{} is outside {MIN_FRAME_WIDTH}x{MIN_FRAME_HEIGHT} to {MAX_FRAME_WIDTH}x{MAX_FRAME_HEIGHT}", frame.0,
            frame.1)));
    }
    if !(1..=crate::recording::MAX_FRAME_EVERY).contains(&file.frame_every) {
        return Err(at.field("frame_every").error(format!("frame_every {} is outside 1..={}: the runner reads the run's frame after every this many keys; leave it out to read every key", file.frame_every,
            crate::recording::MAX_FRAME_EVERY)));
    }
    if !(1..=crate::recording::MAX_ORACLE_EVERY).contains(&file.oracle_every) {
        return Err(at.field("oracle_every").error(format!("oracle_every {} is outside 1..={}: the runner runs the oracles after every this many keys; leave it out for every 128", file.oracle_every,
            crate::recording::MAX_ORACLE_EVERY)));
    }
    if file.progress_limit == Some(0) {
        return Err(at.field("progress_limit").error(
            "a progress limit of 0 keys fails every run; leave it out or give 1 or more"
                .to_string(),
        ));
    }
    Ok(frame)
}

/// The `expect` list: only in format 2, at most [`MAX_EXPECTATIONS`], each
/// item one the expect checker takes.
fn check_expect(at: &Places, recording: &Recording, format: u32) -> Result<(), Error> {
    if !recording.expect.is_empty() && format < 2 {
        return Err(at
            .field("expect")
            .error("`expect` is part of format 2; write `format: 2`".to_string()));
    }
    if recording.expect.len() > MAX_EXPECTATIONS {
        return Err(at.field("expect").error(format!(
            "{} expectations; a recording states at most {MAX_EXPECTATIONS}",
            recording.expect.len()
        )));
    }
    crate::recording::expect::check(&recording.expect, recording.start_depth).map_err(
        |(index, what)| {
            let (line, column) = locate_list_element(at.text, "expect", index).unwrap_or((1, 1));
            let what = format!("expect item {}: {what}; fix or remove it", index + 1);
            Error::at(line, column, what)
        },
    )
}

/// The fields that must agree with each other: the failure's and the
/// origin's steps with the keys, the outcome with the failure, the hashes
/// and checkpoints with the steps.
fn check_agreement(at: &Places, recording: &Recording) -> Result<(), Error> {
    if let Some(failure) = &recording.failure
        && failure.step > recording.keys.len() as u64
    {
        return Err(at.field("failure").error(format!(
            "the failure is at step {} but there are only {} keys",
            failure.step,
            recording.keys.len()
        )));
    }
    if let Some(origin) = &recording.origin
        && origin.file.chars().count() > MAX_ORIGIN_CHARS
    {
        return Err(at.field("origin").error(format!(
            "the origin's file name is longer than {MAX_ORIGIN_CHARS} characters"
        )));
    }
    if let Some(origin) = &recording.origin
        && origin.step > recording.keys.len() as u64
    {
        return Err(at.field("origin").error(format!(
            "the run was taken over at step {} but there are only {} keys",
            origin.step,
            recording.keys.len()
        )));
    }
    if recording.failure.is_some() != (recording.outcome == RecordedOutcome::Failed) {
        return Err(at
            .field("outcome")
            .error("the outcome is Failed exactly when there is a failure".to_string()));
    }
    let expected = recording.hash_count();
    if recording.step_hashes.len() as u64 != expected {
        return Err(at.field("per_step").error(format!(
            "{} per-step hashes for {} steps (the start and each key{})",
            recording.step_hashes.len(),
            expected,
            if recording.failure.is_some() {
                " before the failing one"
            } else {
                ""
            }
        )));
    }
    if !recording.part_digests.is_empty()
        && recording.part_digests.len() != recording.step_hashes.len()
    {
        return Err(at.field("parts").error(format!(
            "part digests for {} steps, hashes for {}",
            recording.part_digests.len(),
            recording.step_hashes.len()
        )));
    }
    if let Some((i, &(step, _))) = recording
        .checkpoints
        .iter()
        .enumerate()
        .find(|&(_, &(step, _))| step >= expected)
    {
        return Err(at.item("checkpoints", i).error(format!(
            "a checkpoint at step {step}, past the last hashed step"
        )));
    }
    Ok(())
}

fn parse_hex64(text: &str) -> Option<u64> {
    (text.len() == 16 && text.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u64::from_str_radix(text, 16).ok())
        .flatten()
}
