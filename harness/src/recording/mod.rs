//! The recording file: a run written down as a seed plus keystrokes, with
//! enough state hashes to name the first step of a replay that differs.
//!
//! The format is RON, documented field by field in docs/recording-format.md.
//! Reading is strict and bounded: a file over [`MAX_FILE_BYTES`], more than
//! [`MAX_KEYS`] keys, an unknown format version, a truncated file or a value
//! of the wrong type is refused with a message naming the line and column,
//! never a panic.

use std::fmt::Write as _;
use std::io::Read as _;
use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD as BASE64;
use game_core::Key;
use game_core::canary::Canary;
use game_core::content::scan::{
    self, column_in_literal, locate_field, locate_list_element, locate_list_item,
};
use serde::{Deserialize, Serialize};

pub mod expect;
pub mod keys_input;

/// The version of the format this build writes. 2 adds `expect`; this
/// build reads 1 and 2.
pub const FORMAT_VERSION: u32 = 2;
/// The oldest format this build reads.
pub const OLDEST_FORMAT: u32 = 1;
/// Most expectations a recording may state.
pub const MAX_EXPECTATIONS: usize = 64;
/// Largest recording read (and written): room for [`MAX_KEYS`] keys of the
/// longest notation (`<S-C-A-U+3000>`, 14 bytes) with their hashes and
/// part digests (about 34 bytes a key in all, a typical key about 17) and
/// every free field at its limit, so any run this build lets happen can be
/// written and read back. A test writes that worst case.
pub const MAX_FILE_BYTES: u64 = 40 * 1024 * 1024;
/// Most keys a recording may hold, and so a run: scripts, sweeps' bots and
/// a player at the terminal stop there.
pub const MAX_KEYS: usize = 1_000_000;
/// Longest origin path kept (Linux's PATH_MAX).
pub const MAX_ORIGIN_CHARS: usize = 4096;
/// Longest free-text note.
pub const MAX_NOTE_CHARS: usize = 16 * 1024;
/// The frame size runs are drawn at unless they say otherwise: a
/// recording without a `frame` was drawn at this size.
pub const DEFAULT_FRAME: (u16, u16) = (80, 24);
/// A full 64-bit hash is written every this many steps (and at the last).
pub const CHECKPOINT_EVERY: u64 = 1000;
/// Key notation per line when writing.
const KEY_LINE_CHARS: usize = 64;
/// Steps of 32-bit hashes per base64 line when writing (48 * 4 bytes = 256
/// base64 characters, no padding).
const HASHES_PER_LINE: usize = 48;
/// Steps of part digests written on one line (7 bytes each, 224 base64
/// characters a line, as long as a line of hashes).
const PART_DIGESTS_PER_LINE: usize = 24;
/// Bytes of part digests per step: one per part of the state.
pub const PART_BYTES: usize = game_core::game::digest::STATE_PARTS.len();

/// A run, as written to a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recording {
    pub game_name: String,
    pub game_version: String,
    /// The content fingerprint the run used.
    pub content: u64,
    pub seed: u64,
    /// The floor the run starts on: 1 for a run, deeper for a sweep's
    /// report of a floor that fails its checks when generated.
    pub start_depth: u32,
    pub map_width: i32,
    pub map_height: i32,
    /// The frame drawn after every key, width by height (80x24 in files
    /// written before it was kept).
    pub frame: (u16, u16),
    /// For bot runs: the most keys in a row without progress
    /// (`play.progress`); `None` for runs without the check.
    pub progress_limit: Option<u64>,
    /// Planted defects the run had switched on (tests of the harness only).
    pub canaries: Vec<Canary>,
    pub keys: Vec<Key>,
    /// The low 32 bits of the state hash at step 0 (the start) and after
    /// each key, up to the last step with a known state: every key when the
    /// run had no failure, every key before the failing one otherwise.
    pub step_hashes: Vec<u32>,
    /// A one-byte digest of each part of the state
    /// (`game_core::game::digest::STATE_PARTS`) at the same steps as
    /// `step_hashes`, so a drift can say which parts differ; empty in files
    /// written before format 2 had them.
    pub part_digests: Vec<[u8; PART_BYTES]>,
    /// Full state hashes at some of those steps: every [`CHECKPOINT_EVERY`]
    /// and the last.
    pub checkpoints: Vec<(u64, u64)>,
    pub outcome: RecordedOutcome,
    pub failure: Option<Failure>,
    pub note: String,
    /// For a run a player took over from another recording (`deja play
    /// --from`): that file and the step the player took control at. The keys
    /// up to that step are that recording's.
    pub origin: Option<Origin>,
    /// What the run must show (format 2), checked by replay and bless.
    pub expect: Vec<crate::recording::expect::Expectation>,
}

/// Where a taken-over run came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Origin {
    /// The recording's path as the player gave it.
    pub file: String,
    /// The step control was taken at: keys after it are the player's own.
    pub step: u64,
}

/// How the recorded run stood at its last step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum RecordedOutcome {
    Running {
        depth: u32,
        turn: u64,
    },
    Died {
        cause: String,
        depth: u32,
        turn: u64,
    },
    Won {
        turn: u64,
    },
    Quit {
        depth: u32,
        turn: u64,
    },
    /// The run ended in a failure (see `failure`).
    Failed,
}

impl std::fmt::Display for RecordedOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordedOutcome::Running { depth, turn } => {
                write!(f, "running on depth {depth} at turn {turn}")
            }
            RecordedOutcome::Died { cause, depth, turn } => {
                write!(f, "died on depth {depth} at turn {turn}: {cause}")
            }
            RecordedOutcome::Won { turn } => write!(f, "won at turn {turn}"),
            RecordedOutcome::Quit { depth, turn } => {
                write!(f, "quit on depth {depth} at turn {turn}")
            }
            RecordedOutcome::Failed => write!(f, "failed"),
        }
    }
}

/// A failure found during a run: the bug a bug report reproduces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Failure {
    /// The step at which it happened: the key with this 1-based number (0 for
    /// a failure before any key, in the starting state).
    pub step: u64,
    pub kind: FailureKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum FailureKind {
    /// The game panicked. `location` is where, which moves as code changes, so
    /// only the message decides whether a replay reproduces it.
    Panic {
        message: String,
        location: Option<String>,
    },
    /// An invariant of the catalogue was broken.
    Invariant { id: String, message: String },
    /// A loop in the game gave up without making progress.
    Stuck { message: String },
    /// A key (or a floor's generation) ran past the watchdog's wall-clock
    /// budget (see `crate::run::watchdog`).
    Hang { message: String },
}

impl FailureKind {
    /// Whether `other` is the same failure: the same kind, and the same
    /// invariant id or panic message. Messages of invariants and stuck loops
    /// carry positions and counts that may change with a fix elsewhere, so
    /// they do not have to match.
    pub fn same_as(&self, other: &FailureKind) -> bool {
        match (self, other) {
            (FailureKind::Panic { message: a, .. }, FailureKind::Panic { message: b, .. }) => {
                a == b
            }
            (FailureKind::Invariant { id: a, .. }, FailureKind::Invariant { id: b, .. }) => a == b,
            (FailureKind::Stuck { .. }, FailureKind::Stuck { .. }) => true,
            (FailureKind::Hang { .. }, FailureKind::Hang { .. }) => true,
            _ => false,
        }
    }
}

impl std::fmt::Display for FailureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FailureKind::Panic { message, location } => {
                write!(f, "panic: {message}")?;
                if let Some(at) = location {
                    write!(f, " (at {at})")?;
                }
                Ok(())
            }
            FailureKind::Invariant { id, message } => write!(f, "invariant {id} broken: {message}"),
            FailureKind::Stuck { message } => write!(f, "stuck: {message}"),
            FailureKind::Hang { message } => write!(f, "hang: {message}"),
        }
    }
}

impl Recording {
    /// How many steps have a recorded hash: step 0 and every key, or, for a
    /// bug report, the steps before the failing one (none when it failed at
    /// the start).
    pub fn hash_count(&self) -> u64 {
        match &self.failure {
            Some(failure) => failure.step,
            None => self.keys.len() as u64 + 1,
        }
    }

    /// The full checkpoints for a list of full hashes (one per step from 0).
    pub fn checkpoints_of(full_hashes: &[u64]) -> Vec<(u64, u64)> {
        let last = full_hashes.len().saturating_sub(1) as u64;
        full_hashes
            .iter()
            .enumerate()
            .map(|(step, &hash)| (step as u64, hash))
            .filter(|&(step, _)| step % CHECKPOINT_EVERY == 0 || step == last)
            .collect()
    }
}

// ----- the file as serde sees it -----

// Named `Recording` in ron's messages ("missing field `map` in `Recording`").
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Recording")]
struct File {
    format: u32,
    game: GameInfo,
    content: String,
    seed: u64,
    /// Absent in files written before it existed: those start on floor 1.
    #[serde(default = "first_floor")]
    start_depth: u32,
    map: MapSize,
    /// Absent in files written before it existed: drawn at 80x24.
    #[serde(default = "default_frame")]
    frame: FrameSize,
    /// Absent in files written before it existed, and in runs without it.
    #[serde(default)]
    progress_limit: Option<u64>,
    canaries: Vec<String>,
    keys: Vec<String>,
    hashes: Hashes,
    outcome: RecordedOutcome,
    failure: Option<Failure>,
    note: String,
    /// Absent unless the run was taken over from another recording.
    #[serde(default)]
    origin: Option<Origin>,
    /// Format 2; absent when the recording states nothing.
    #[serde(default)]
    expect: Vec<crate::recording::expect::Expectation>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameInfo {
    name: String,
    version: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapSize {
    width: i32,
    height: i32,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FrameSize {
    width: u16,
    height: u16,
}

fn default_frame() -> FrameSize {
    let (width, height) = DEFAULT_FRAME;
    FrameSize { width, height }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Hashes {
    per_step: Vec<String>,
    /// Format 2; absent from older files.
    #[serde(default)]
    parts: Vec<String>,
    checkpoints: Vec<Checkpoint>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Checkpoint {
    step: u64,
    hash: String,
}

fn first_floor() -> u32 {
    1
}

/// Only the version, read first and leniently, so a file from a newer deja
/// is refused for its version rather than for the fields it added.
#[derive(Deserialize)]
#[serde(rename = "Recording")]
struct Header {
    format: u32,
}

// ----- writing -----

/// The recording as RON text, laid out for people: keys wrapped into lines,
/// hashes packed into lines of base64.
pub fn to_text(recording: &Recording) -> String {
    let mut out = String::new();
    let quoted = |s: &str| ron::to_string(s).expect("strings always serialize");
    out.push_str("// A deja recording. Replay it with: deja replay <this file>\n");
    out.push_str("// Format: docs/recording-format.md\n");
    out.push_str("(\n");
    let _ = writeln!(out, "    format: {FORMAT_VERSION},");
    let _ = writeln!(
        out,
        "    game: (name: {}, version: {}),",
        quoted(&recording.game_name),
        quoted(&recording.game_version)
    );
    let _ = writeln!(out, "    content: \"{:016x}\",", recording.content);
    let _ = writeln!(out, "    seed: {},", recording.seed);
    let _ = writeln!(out, "    start_depth: {},", recording.start_depth);
    let _ = writeln!(
        out,
        "    map: (width: {}, height: {}),",
        recording.map_width, recording.map_height
    );
    let _ = writeln!(
        out,
        "    frame: (width: {}, height: {}),",
        recording.frame.0, recording.frame.1
    );
    if let Some(limit) = recording.progress_limit {
        let _ = writeln!(out, "    progress_limit: Some({limit}),");
    }
    let canaries: Vec<String> = recording
        .canaries
        .iter()
        .map(|c| quoted(c.name()))
        .collect();
    let _ = writeln!(out, "    canaries: [{}],", canaries.join(", "));
    out.push_str("    keys: [\n");
    for line in wrap_keys(&recording.keys) {
        let _ = writeln!(out, "        {},", quoted(&line));
    }
    out.push_str("    ],\n");
    out.push_str("    hashes: (\n        per_step: [\n");
    for chunk in recording.step_hashes.chunks(HASHES_PER_LINE) {
        let bytes: Vec<u8> = chunk.iter().flat_map(|h| h.to_le_bytes()).collect();
        let _ = writeln!(out, "            \"{}\",", BASE64.encode(bytes));
    }
    out.push_str("        ],\n");
    if !recording.part_digests.is_empty() {
        out.push_str("        parts: [\n");
        for chunk in recording.part_digests.chunks(PART_DIGESTS_PER_LINE) {
            let bytes: Vec<u8> = chunk.iter().flatten().copied().collect();
            let _ = writeln!(out, "            \"{}\",", BASE64.encode(bytes));
        }
        out.push_str("        ],\n");
    }
    out.push_str("        checkpoints: [\n");
    for (step, hash) in &recording.checkpoints {
        let _ = writeln!(out, "            (step: {step}, hash: \"{hash:016x}\"),");
    }
    out.push_str("        ],\n    ),\n");
    let pretty = ron::ser::PrettyConfig::new().compact_structs(true);
    let outcome = ron::ser::to_string_pretty(&recording.outcome, pretty.clone())
        .expect("outcomes always serialize");
    let _ = writeln!(out, "    outcome: {outcome},");
    match &recording.failure {
        None => out.push_str("    failure: None,\n"),
        Some(failure) => {
            let kind = ron::ser::to_string_pretty(&failure.kind, pretty)
                .expect("failures always serialize");
            let _ = writeln!(
                out,
                "    failure: Some((step: {}, kind: {kind})),",
                failure.step
            );
        }
    }
    if !recording.expect.is_empty() {
        let expect: Vec<String> = recording
            .expect
            .iter()
            .map(|e| ron::ser::to_string(e).expect("expectations always serialize"))
            .collect();
        let _ = writeln!(out, "    expect: [{}],", expect.join(", "));
    }
    let _ = writeln!(out, "    note: {},", quoted(&recording.note));
    if let Some(origin) = &recording.origin {
        let _ = writeln!(
            out,
            "    origin: Some((file: {}, step: {})),",
            quoted(&origin.file),
            origin.step
        );
    }
    out.push_str(")\n");
    out
}

/// Key notation in lines of about [`KEY_LINE_CHARS`], broken only between
/// keys.
fn wrap_keys(keys: &[Key]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for key in keys {
        let text = key.to_string();
        if !line.is_empty() && line.len() + text.len() > KEY_LINE_CHARS {
            lines.push(std::mem::take(&mut line));
        }
        line.push_str(&text);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Writes a recording. One that would be too large to read back (or whose
/// note is too long) is refused rather than written.
pub fn write(path: &Path, recording: &Recording) -> Result<(), String> {
    if recording.note.chars().count() > MAX_NOTE_CHARS {
        return Err(format!(
            "{}: the note is longer than {MAX_NOTE_CHARS} characters",
            path.display()
        ));
    }
    let text = to_text(recording);
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "{}: the recording would be {} bytes, over the {MAX_FILE_BYTES}-byte limit a reader accepts",
            path.display(),
            text.len()
        ));
    }
    crate::plumbing::files::write_atomic(path, text.as_bytes())
}

// ----- reading -----

/// Reads and checks a recording file. Errors about the file's content start
/// with `path:line:column: `, including a file too large or not UTF-8.
pub fn read(path: &Path) -> Result<Recording, String> {
    let name = path.display();
    let io = |e: std::io::Error| format!("{name}: {e}");
    let file = crate::plumbing::files::open_regular(path)?;
    let size = file.metadata().map_err(io)?.len();
    if size > MAX_FILE_BYTES {
        return Err(format!(
            "{name}:1:1: {size} bytes is over the {MAX_FILE_BYTES}-byte limit"
        ));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
        let (line, col) = scan::position(valid, valid.len());
        format!(
            "{name}:{line}:{col}: not UTF-8 text (bad byte at offset {})",
            e.valid_up_to()
        )
    })?;
    from_text(text).map_err(|e| format!("{name}:{e}"))
}

/// Parses and checks recording text. Errors start with `line:column: `.
pub fn from_text(text: &str) -> Result<Recording, String> {
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "1:1: {} bytes is over the {MAX_FILE_BYTES}-byte limit",
            text.len()
        ));
    }
    if text.trim().is_empty() {
        return Err("1:1: the file is empty".into());
    }
    let header: Header = ron::from_str(text).map_err(|e| ron_error(&e, text))?;
    if !(OLDEST_FORMAT..=FORMAT_VERSION).contains(&header.format) {
        let (line, col) = locate_field(text, "format").unwrap_or((1, 1));
        return Err(format!(
            "{line}:{col}: unknown format version {}; this deja reads versions {OLDEST_FORMAT} to {FORMAT_VERSION} (a newer deja may read it)",
            header.format
        ));
    }
    let file: File = ron::from_str(text).map_err(|e| ron_error(&e, text))?;
    check(text, file)
}

fn ron_error(e: &ron::error::SpannedError, text: &str) -> String {
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
    format!("{}:{}: {what}", at.line, at.col)
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
) -> Result<Vec<[u8; N]>, String> {
    let mut steps = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let where_ = || {
            let (line_no, col) = locate_list_item(text, field, i).unwrap_or((1, 1));
            format!("{line_no}:{col}")
        };
        let bytes = BASE64
            .decode(line)
            .map_err(|e| format!("{}: {what} are not base64: {e}", where_()))?;
        if bytes.len() % N != 0 {
            return Err(format!(
                "{}: {what} are {size}; this line holds {}",
                where_(),
                bytes.len()
            ));
        }
        steps.extend(
            bytes
                .chunks_exact(N)
                .map(|b| <[u8; N]>::try_from(b).expect("chunks of N")),
        );
        if steps.len() > MAX_KEYS + 1 {
            return Err(format!("{}: more {what} than keys", where_()));
        }
    }
    Ok(steps)
}

/// The checks serde cannot make: key notation, hash encoding, counts and
/// consistency, in the order the errors are reported (the first found is
/// the one said); each error points at the offending field.
fn check(text: &str, file: File) -> Result<Recording, String> {
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
    fn field(&self, field: &str) -> String {
        let (line, col) = locate_field(self.text, field).unwrap_or((1, 1));
        format!("{line}:{col}")
    }

    fn item(&self, list: &str, index: usize) -> String {
        let (line, col) = locate_list_item(self.text, list, index).unwrap_or((1, 1));
        format!("{line}:{col}")
    }
}

/// The game a recording is of: its content's fingerprint, map size, first
/// floor and canaries.
fn check_game(at: &Places, file: &File) -> Result<(u64, Vec<Canary>), String> {
    let content = parse_hex64(&file.content).ok_or_else(|| {
        format!(
            "{}: content {:?} is not a 16-digit hex fingerprint",
            at.field("content"),
            file.content
        )
    })?;
    let (w, h) = (file.map.width, file.map.height);
    let map_ok = (game_core::map::MIN_WIDTH..=game_core::map::MAX_WIDTH).contains(&w)
        && (game_core::map::MIN_HEIGHT..=game_core::map::MAX_HEIGHT).contains(&h);
    if !map_ok {
        return Err(format!(
            "{}: map size {w}x{h} is outside what the game plays on",
            at.field("map")
        ));
    }
    if !(1..=game_core::mapgen::LAST_DEPTH).contains(&file.start_depth) {
        return Err(format!(
            "{}: start_depth {} is outside 1 to {}",
            at.field("start_depth"),
            file.start_depth,
            game_core::mapgen::LAST_DEPTH
        ));
    }
    let mut canaries = Vec::new();
    for (i, name) in file.canaries.iter().enumerate() {
        let canary = Canary::from_name(name).ok_or_else(|| {
            let known: Vec<&str> = Canary::ALL.iter().map(|c| c.name()).collect();
            format!(
                "{}: unknown canary {name:?}; known: {}",
                at.item("canaries", i),
                known.join(", ")
            )
        })?;
        canaries.push(canary);
    }
    Ok((content, canaries))
}

/// The keys, line by line, a bad one named by the column it is written at.
fn read_keys(text: &str, lines: &[String]) -> Result<Vec<Key>, String> {
    let mut keys = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let parsed = Key::parse_all(line).map_err(|e| {
            let (line_no, col) = locate_list_item(text, "keys", i).unwrap_or((1, 1));
            format!(
                "{line_no}:{}: bad key {:?}: {}",
                column_in_literal(text, line_no, col, e.column),
                e.token,
                e.reason
            )
        })?;
        keys.extend(parsed);
        if keys.len() > MAX_KEYS {
            let (line, col) = locate_field(text, "keys").unwrap_or((1, 1));
            return Err(format!("{line}:{col}: more than {MAX_KEYS} keys"));
        }
    }
    Ok(keys)
}

/// A recording's hashes as the file holds them: per step, the parts' digests
/// per step, and the checkpoints (step, full hash).
type DecodedHashes = (Vec<u32>, Vec<[u8; PART_BYTES]>, Vec<(u64, u64)>);

/// Per-step hashes, part digests and checkpoints, decoded.
fn read_hashes(at: &Places, hashes: &Hashes) -> Result<DecodedHashes, String> {
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
            format!(
                "{}: checkpoint hash {:?} is not 16 hex digits",
                at.item("checkpoints", i),
                c.hash
            )
        })?;
        checkpoints.push((c.step, hash));
    }
    Ok((step_hashes, part_digests, checkpoints))
}

/// The note's length, the frame's size and the progress limit; the frame.
fn check_sizes(at: &Places, file: &File) -> Result<(u16, u16), String> {
    if file.note.chars().count() > MAX_NOTE_CHARS {
        return Err(format!(
            "{}: the note is longer than {MAX_NOTE_CHARS} characters",
            at.field("note")
        ));
    }
    use game_core::frame::{MAX_FRAME_HEIGHT, MAX_FRAME_WIDTH, MIN_FRAME_HEIGHT, MIN_FRAME_WIDTH};
    let frame = (file.frame.width, file.frame.height);
    if !(MIN_FRAME_WIDTH..=MAX_FRAME_WIDTH).contains(&frame.0)
        || !(MIN_FRAME_HEIGHT..=MAX_FRAME_HEIGHT).contains(&frame.1)
    {
        return Err(format!(
            "{}: frame size {}x{} is outside {MIN_FRAME_WIDTH}x{MIN_FRAME_HEIGHT} to {MAX_FRAME_WIDTH}x{MAX_FRAME_HEIGHT}",
            at.field("frame"),
            frame.0,
            frame.1
        ));
    }
    if file.progress_limit == Some(0) {
        return Err(format!(
            "{}: a progress limit of 0 keys fails every run; leave it out or give 1 or more",
            at.field("progress_limit")
        ));
    }
    Ok(frame)
}

/// The `expect` list: only in format 2, at most [`MAX_EXPECTATIONS`], each
/// item one the expect checker takes.
fn check_expect(at: &Places, recording: &Recording, format: u32) -> Result<(), String> {
    if !recording.expect.is_empty() && format < 2 {
        return Err(format!(
            "{}: `expect` is part of format 2; write `format: 2`",
            at.field("expect")
        ));
    }
    if recording.expect.len() > MAX_EXPECTATIONS {
        return Err(format!(
            "{}: {} expectations; a recording states at most {MAX_EXPECTATIONS}",
            at.field("expect"),
            recording.expect.len()
        ));
    }
    crate::recording::expect::check(&recording.expect, recording.start_depth).map_err(
        |(index, what)| {
            let (line, col) = locate_list_element(at.text, "expect", index).unwrap_or((1, 1));
            format!(
                "{line}:{col}: expect item {}: {what}; fix or remove it",
                index + 1
            )
        },
    )
}

/// The fields that must agree with each other: the failure's and the
/// origin's steps with the keys, the outcome with the failure, the hashes
/// and checkpoints with the steps.
fn check_agreement(at: &Places, recording: &Recording) -> Result<(), String> {
    if let Some(failure) = &recording.failure
        && failure.step > recording.keys.len() as u64
    {
        return Err(format!(
            "{}: the failure is at step {} but there are only {} keys",
            at.field("failure"),
            failure.step,
            recording.keys.len()
        ));
    }
    if let Some(origin) = &recording.origin
        && origin.file.chars().count() > MAX_ORIGIN_CHARS
    {
        return Err(format!(
            "{}: the origin's file name is longer than {MAX_ORIGIN_CHARS} characters",
            at.field("origin")
        ));
    }
    if let Some(origin) = &recording.origin
        && origin.step > recording.keys.len() as u64
    {
        return Err(format!(
            "{}: the run was taken over at step {} but there are only {} keys",
            at.field("origin"),
            origin.step,
            recording.keys.len()
        ));
    }
    if recording.failure.is_some() != (recording.outcome == RecordedOutcome::Failed) {
        return Err(format!(
            "{}: the outcome is Failed exactly when there is a failure",
            at.field("outcome")
        ));
    }
    let expected = recording.hash_count();
    if recording.step_hashes.len() as u64 != expected {
        return Err(format!(
            "{}: {} per-step hashes for {} steps (the start and each key{})",
            at.field("per_step"),
            recording.step_hashes.len(),
            expected,
            if recording.failure.is_some() {
                " before the failing one"
            } else {
                ""
            }
        ));
    }
    if !recording.part_digests.is_empty()
        && recording.part_digests.len() != recording.step_hashes.len()
    {
        return Err(format!(
            "{}: part digests for {} steps, hashes for {}",
            at.field("parts"),
            recording.part_digests.len(),
            recording.step_hashes.len()
        ));
    }
    if let Some((i, &(step, _))) = recording
        .checkpoints
        .iter()
        .enumerate()
        .find(|&(_, &(step, _))| step >= expected)
    {
        return Err(format!(
            "{}: a checkpoint at step {step}, past the last hashed step",
            at.item("checkpoints", i)
        ));
    }
    Ok(())
}

fn parse_hex64(text: &str) -> Option<u64> {
    (text.len() == 16 && text.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u64::from_str_radix(text, 16).ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Recording {
        let keys = Key::parse_all("llll<Esc>ia<Tab><Enter>;<lt>").expect("valid");
        let n = keys.len();
        let full: Vec<u64> = (0..=n as u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        Recording {
            game_name: "undercroft".into(),
            game_version: "0.1.0".into(),
            content: 0x1e28_e194_8b00_7230,
            seed: 7,
            start_depth: 1,
            map_width: 80,
            map_height: 40,
            frame: (80, 24),
            progress_limit: None,
            canaries: Vec::new(),
            keys,
            step_hashes: full.iter().map(|&h| h as u32).collect(),
            part_digests: full.iter().map(|&h| [h as u8; PART_BYTES]).collect(),
            checkpoints: Recording::checkpoints_of(&full),
            outcome: RecordedOutcome::Died {
                cause: "killed by a \"goblin\"".into(),
                depth: 2,
                turn: 12,
            },
            failure: None,
            note: "A note.\nOn two lines, with \"quotes\".".into(),
            origin: None,
            expect: vec![
                crate::recording::expect::Expectation::Died("a \"goblin\"".into()),
                crate::recording::expect::Expectation::Depth(2),
                crate::recording::expect::Expectation::Screen("pack open to throw".into()),
            ],
        }
    }

    #[test]
    fn writing_then_reading_gives_the_recording_back() {
        let recording = sample();
        let text = to_text(&recording);
        assert_eq!(from_text(&text), Ok(recording));
    }

    #[test]
    fn a_bug_report_round_trips() {
        let mut recording = sample();
        recording.failure = Some(Failure {
            step: 5,
            kind: FailureKind::Invariant {
                id: "hp.range".into(),
                message: "the player has 31/30 hp".into(),
            },
        });
        recording.outcome = RecordedOutcome::Failed;
        recording.step_hashes.truncate(5);
        recording.part_digests.truncate(5);
        recording.checkpoints = vec![(0, 1), (4, 2)];
        let text = to_text(&recording);
        assert_eq!(from_text(&text), Ok(recording));
    }

    /// The cost per step stays what docs/recording-format.md states: a
    /// key (about one character), 4 bytes of hash and 7 of part digests,
    /// in base64 (4 characters for 3 bytes).
    #[test]
    fn ten_thousand_keys_cost_under_twenty_bytes_a_step() {
        let mut recording = sample();
        let mut rng = game_core::RunSeed(1).stream("test", 0);
        let alphabet = Key::parse_all("hjklyubno.,g>iatdw;<Esc><Tab><Enter>").expect("valid");
        recording.keys = (0..10_000)
            .map(|_| *rng.pick(&alphabet).expect("keys"))
            .collect();
        hash_every_step(&mut recording);
        let text = to_text(&recording);
        assert!(text.len() < 20 * 10_001, "{} bytes", text.len());
        assert_eq!(from_text(&text), Ok(recording));
    }

    /// Gives `recording` made-up hashes and part digests for the start and
    /// every key, and its checkpoints, as a run of its keys would have.
    fn hash_every_step(recording: &mut Recording) {
        let full: Vec<u64> = (0..=recording.keys.len() as u64)
            .map(|i| i.wrapping_mul(0x2545_f491_4f6c_dd1d))
            .collect();
        recording.step_hashes = full.iter().map(|&h| h as u32).collect();
        recording.part_digests = full.iter().map(|&h| [(h >> 8) as u8; PART_BYTES]).collect();
        recording.checkpoints = Recording::checkpoints_of(&full);
    }

    /// The limits agree: a run of [`MAX_KEYS`] keys, each of the longest
    /// notation, with the note, the expect list and the origin at their
    /// limits, is written under [`MAX_FILE_BYTES`] and reads back.
    #[test]
    fn the_longest_run_allowed_fits_the_file_limit() {
        use crate::recording::expect::{Expectation, MAX_TEXT_CHARS};
        let mut recording = sample();
        let [longest] = Key::parse_all("<S-C-A-U+3000>").expect("valid")[..] else {
            panic!("one key");
        };
        assert_eq!(longest.to_string().len(), 14);
        recording.keys = vec![longest; MAX_KEYS];
        hash_every_step(&mut recording);
        // Characters RON writes longest: escaped controls.
        recording.note = "\u{1}".repeat(MAX_NOTE_CHARS);
        recording.expect = (0..MAX_EXPECTATIONS)
            .map(|_| Expectation::Says("\u{1}".repeat(MAX_TEXT_CHARS)))
            .collect();
        recording.origin = Some(Origin {
            file: "\u{1}".repeat(MAX_ORIGIN_CHARS),
            step: 1,
        });
        let text = to_text(&recording);
        assert!(
            text.len() as u64 <= MAX_FILE_BYTES,
            "{} bytes is over the {MAX_FILE_BYTES}-byte limit",
            text.len()
        );
        assert_eq!(from_text(&text), Ok(recording));
    }

    #[test]
    fn errors_name_line_and_column() {
        let text = to_text(&sample());
        let bad_key = text.replacen("llll<Esc>", "llll<Esx>", 1);
        let err = from_text(&bad_key).unwrap_err();
        assert!(err.starts_with("13:14:"), "{err}");
        assert!(err.contains("<Esx>"), "{err}");

        let future = text.replacen("format: 2", "format: 3", 1);
        let err = from_text(&future).unwrap_err();
        assert!(
            err.starts_with("4:5:") && err.contains("unknown format version 3"),
            "{err}"
        );
        // Format 1 reads, but cannot state expectations.
        let old = text.replacen("format: 2", "format: 1", 1);
        let err = from_text(&old).unwrap_err();
        assert!(err.contains("`expect` is part of format 2"), "{err}");
        let mut plain = sample();
        plain.expect.clear();
        let old = to_text(&plain).replacen("format: 2", "format: 1", 1);
        assert_eq!(from_text(&old), Ok(plain));

        let truncated = &text[..text.len() / 2];
        let err = from_text(truncated).unwrap_err();
        assert!(err.contains("truncated") || err.contains(':'), "{err}");

        let wrong_type = text.replacen("seed: 7", "seed: \"seven\"", 1);
        let err = from_text(&wrong_type).unwrap_err();
        assert!(err.starts_with("7:"), "{err}");
    }

    #[test]
    fn the_locator_skips_strings_and_comments() {
        let text = "// keys: nope\n(note: \"keys: [\\\"x\\\"]\", keys: [\"a\", \"b\"])";
        assert_eq!(locate_list_item(text, "keys", 1), Some((2, 37)));
        assert_eq!(locate_field(text, "keys"), Some((2, 25)));
    }
}
