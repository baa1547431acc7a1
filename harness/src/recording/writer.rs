//! Writing a recording: RON laid out for people, keys wrapped into lines
//! and hashes packed into lines of base64, through the one atomic writer.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD as BASE64;
use game_core::Key;

use super::{
    FORMAT_VERSION, HASHES_PER_LINE, KEY_LINE_CHARS, MAX_FILE_BYTES, MAX_NOTE_CHARS,
    PART_DIGESTS_PER_LINE, Recording,
};
use crate::plumbing::error::Error;
use crate::plumbing::files::Destination;

/// How the run was checked: the frame's size, how often the frame was read
/// and the oracles ran (each left out at the value files without it mean),
/// and a bot run's progress limit.
fn write_checks(out: &mut String, recording: &Recording) {
    let _ = writeln!(
        out,
        "    frame: (width: {}, height: {}),",
        recording.frame.0, recording.frame.1
    );
    if recording.frame_every != 1 {
        let _ = writeln!(out, "    frame_every: {},", recording.frame_every);
    }
    if recording.oracle_every != crate::recording::ORACLES_BEFORE_KEPT {
        let _ = writeln!(out, "    oracle_every: {},", recording.oracle_every);
    }
    if let Some(limit) = recording.progress_limit {
        let _ = writeln!(out, "    progress_limit: Some({limit}),");
    }
}

/// The recording as RON text, laid out for people: keys wrapped into lines,
/// hashes packed into lines of base64.
pub fn to_text(recording: &Recording) -> String {
    let mut out = String::new();
    out.push_str("// A deja recording. Replay it with: deja replay <this file>\n");
    out.push_str("// Format: docs/recording-format.md\n");
    out.push_str("(\n");
    write_start(&mut out, recording);
    write_checks(&mut out, recording);
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
    write_hashes(&mut out, recording);
    write_end(&mut out, recording);
    out.push_str(")\n");
    out
}

/// A string as RON writes it, quoted and escaped.
fn quoted(s: &str) -> String {
    ron::to_string(s).expect("strings always serialize")
}

/// What the run started from: the format, the game, the content, the seed,
/// the depth and the map's size.
fn write_start(out: &mut String, recording: &Recording) {
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
}

/// The hashes: each step's packed into lines of base64, the part digests
/// likewise when there are any, then the checkpoints.
fn write_hashes(out: &mut String, recording: &Recording) {
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
}

/// How the run ended and what is said of it: the outcome, the failure, the
/// expectations (left out when none), the note and where it came from.
fn write_end(out: &mut String, recording: &Recording) {
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

/// Where a bug report goes when no `-o` path was given: a new file in the
/// current directory, named by seed and step, and never over anything
/// already there (`-2`, `-3`, ... when the name is taken), so a report
/// from another run, or an earlier one of this, is not lost, and nothing
/// planted at the name is written through.
pub fn default_report(seed: u64, step: u64) -> Destination {
    Destination::New {
        dir: PathBuf::from("."),
        stem: format!("deja-failure-seed{seed}-step{step}"),
        extension: "ron",
    }
}

/// Writes a recording to `path`, a file the user named, replacing it
/// atomically. One that would be too large to read back (or whose note is
/// too long) is refused rather than written.
pub fn write(path: &Path, recording: &Recording) -> Result<(), Error> {
    write_to(&Destination::Named(path.to_path_buf()), recording).map(drop)
}

/// Writes a recording where `to` says (a file named, a new name deja
/// chooses, or deja's own file again), refused as [`write`] refuses; the
/// path written.
pub fn write_to(to: &Destination, recording: &Recording) -> Result<PathBuf, Error> {
    if recording.note.chars().count() > MAX_NOTE_CHARS {
        return Err(format!(
            "{}: the note is longer than {MAX_NOTE_CHARS} characters",
            crate::plumbing::printable::path(&to.shown())
        )
        .into());
    }
    let text = to_text(recording);
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "{}: the recording would be {} bytes, over the {MAX_FILE_BYTES}-byte limit a reader accepts",
            crate::plumbing::printable::path(&to.shown()),
            text.len()
        ).into());
    }
    to.write(text.as_bytes())
}
