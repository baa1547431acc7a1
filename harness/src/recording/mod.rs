//! The recording file: a run written down as a seed plus keystrokes, with
//! enough state hashes to name the first step of a replay that differs.
//!
//! The format is RON, documented field by field in docs/recording-format.md.
//! Reading is strict and bounded: a file over [`MAX_FILE_BYTES`], more than
//! [`MAX_KEYS`] keys, an unknown format version, a truncated file or a value
//! of the wrong type is refused with a message naming the line and column,
//! never a panic.

use game_core::Key;
use game_core::canary::Canary;
use serde::{Deserialize, Serialize};

pub mod expect;
pub mod keys_input;
mod outcome;
mod reader;
mod writer;

pub use outcome::RecordedOutcome;
pub use reader::{from_text, read};
pub use writer::{default_report, to_text, write, write_to};

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
    /// The size the runner draws and checks the run's frames at, width by
    /// height (80x24 in files written before it was kept).
    pub frame: (u16, u16),
    /// The runner read that frame after every this many keys
    /// (`Settings::frame_every`); 1, every key, in files written before it
    /// was kept, as those runs did.
    pub frame_every: u64,
    /// The runner ran the oracles and read the frames closely after every
    /// this many keys (`Settings::oracle_every`, steps 1, 1 + n, ...); 128
    /// in files written before it was kept, as those runs did.
    pub oracle_every: u64,
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

/// The failure in a line. Its id, message and location may come from a
/// file someone else wrote, so each is escaped where it is put: a line
/// break in a message stays `\n`, on this line.
impl std::fmt::Display for FailureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::plumbing::printable::escape;
        match self {
            FailureKind::Panic { message, location } => {
                write!(f, "panic: {}", escape(message))?;
                if let Some(at) = location {
                    write!(f, " (at {})", escape(at))?;
                }
                Ok(())
            }
            FailureKind::Invariant { id, message } => {
                write!(f, "invariant {} broken: {}", escape(id), escape(message))
            }
            FailureKind::Stuck { message } => write!(f, "stuck: {}", escape(message)),
            FailureKind::Hang { message } => write!(f, "hang: {}", escape(message)),
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
    /// Absent in files written before it existed, and in runs that read
    /// every key's frame: 1.
    #[serde(default = "every_key")]
    frame_every: u64,
    /// Absent in files written before it existed: 128.
    #[serde(default = "oracles_before_kept")]
    oracle_every: u64,
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

/// A run's frames read after every key, as every run's were before
/// `frame_every` was kept.
fn every_key() -> u64 {
    1
}

/// The most keys between two frames a recording may ask the runner to read
/// (`frame_every`): a larger gap reads almost no frame at all.
pub const MAX_FRAME_EVERY: u64 = 1024;

/// How often every run's oracles ran before `oracle_every` was kept: a
/// recording without it replays its oracles where its run ran them.
pub const ORACLES_BEFORE_KEPT: u64 = 128;

fn oracles_before_kept() -> u64 {
    ORACLES_BEFORE_KEPT
}

/// The most keys between two oracle samples a recording may ask for
/// (`oracle_every`), as for the frames.
pub const MAX_ORACLE_EVERY: u64 = 1024;

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
            frame_every: 1,
            oracle_every: ORACLES_BEFORE_KEPT,
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
    fn how_often_the_frame_was_read_is_kept_and_absent_means_every_key() {
        let every_key = sample();
        let text = to_text(&every_key);
        assert!(!text.contains("frame_every"), "{text}");
        assert_eq!(from_text(&text), Ok(every_key.clone()));
        let sampled = Recording {
            frame_every: 4,
            ..every_key
        };
        let text = to_text(&sampled);
        assert!(text.contains("\n    frame_every: 4,\n"), "{text}");
        assert_eq!(from_text(&text), Ok(sampled));
    }

    #[test]
    fn how_often_the_oracles_ran_is_kept_and_absent_means_every_128_keys() {
        let before = sample();
        let text = to_text(&before);
        assert!(!text.contains("oracle_every"), "{text}");
        assert_eq!(from_text(&text).map(|r| r.oracle_every), Ok(128));
        let sparser = Recording {
            oracle_every: 256,
            ..before
        };
        let text = to_text(&sparser);
        assert!(text.contains("\n    oracle_every: 256,\n"), "{text}");
        assert_eq!(from_text(&text), Ok(sparser));
    }

    #[test]
    fn errors_name_line_and_column() {
        let text = to_text(&sample());
        let bad_key = text.replacen("llll<Esc>", "llll<Esx>", 1);
        let err = from_text(&bad_key).unwrap_err().to_string();
        assert!(err.starts_with("13:14:"), "{err}");
        assert!(err.contains("<Esx>"), "{err}");

        let future = text.replacen("format: 2", "format: 3", 1);
        let err = from_text(&future).unwrap_err().to_string();
        assert!(
            err.starts_with("4:5:") && err.contains("unknown format version 3"),
            "{err}"
        );
        // Format 1 reads, but cannot state expectations.
        let old = text.replacen("format: 2", "format: 1", 1);
        let err = from_text(&old).unwrap_err().to_string();
        assert!(err.contains("`expect` is part of format 2"), "{err}");
        let mut plain = sample();
        plain.expect.clear();
        let old = to_text(&plain).replacen("format: 2", "format: 1", 1);
        assert_eq!(from_text(&old), Ok(plain));

        let truncated = &text[..text.len() / 2];
        let err = from_text(truncated).unwrap_err().to_string();
        assert!(err.contains("truncated") || err.contains(':'), "{err}");

        let wrong_type = text.replacen("seed: 7", "seed: \"seven\"", 1);
        let err = from_text(&wrong_type).unwrap_err().to_string();
        assert!(err.starts_with("7:"), "{err}");
    }
}
