//! Baselines: what a sweep's figures were when the game was last known to be
//! right, committed (`baselines/sweep.ron`) and blessed like recordings, and
//! the check that a sweep's figures stay within their confidence band.
//!
//! A baseline entry belongs to one kind of sweep: its bot, key budget,
//! depths and map size. It keeps each figure's mean, its spread (standard
//! deviation over seeds) and how many values it was measured on. A sweep of
//! n values fails a figure whose mean lies further from the baseline's than
//! [`Z`] standard errors of the difference of the two means,
//! `sd * sqrt(1/n + 1/n_baseline)`, or [`RELATIVE`] of the baseline mean when
//! that is wider: a real bug moves a figure by far more, while another range
//! of seeds, a renamed monster or one more monster in the deepest floor's
//! table does not (harness/tests/probe.rs shows both).
//!
//! An entry also keeps how often a sweep's runs reached each situation of
//! the reach catalogue (`checks::reach`), per run. A sweep
//! fails a situation it reaches far less often than its baseline did (see
//! [`shortfalls`]): a rule that silently stops working makes its situation
//! vanish, though every check still passes. Reaching one more often is no
//! failure, nor is a situation the baseline does not know (new content).
//!
//! A file is checked as it is read, and refused naming the line, the
//! column and the figure when it could hold no sweep to anything: an entry
//! with no figures, or a figure whose mean or spread is not a number a
//! sweep measures (NaN passes every comparison; an infinite spread makes a
//! band no mean leaves) or that was measured on nothing. A bless refuses a
//! sweep that measured nothing (a shard with no seeds) for the same reason.
//!
//! Floats live here and only here: figures are measured in integers
//! (`crate::sweep::figures`) and compared as floats, and nothing of this reaches the
//! game.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use game_core::content::scan;
use serde::{Deserialize, Serialize};

use crate::plumbing::error::Error;
use crate::sweep::figures::Moments;
use crate::sweep::{SweepReport, SweepSpec, bot_name};

/// The version of the baseline file format. 2 names an entry's key budget
/// `keys`, as the sweep's `--keys` does; format 1 called it `turns`, and is
/// still read (see [`Baselines::read`]). 3 adds each entry's `reach`; an
/// entry of format 1 or 2 has none, so its sweep's reach is not held to
/// anything until it is blessed again.
pub const FORMAT: u32 = 3;
/// How far below its baseline a situation's count may fall, as a share of
/// what the baseline leads a sweep of as many runs to expect, when that is
/// wider than [`Z`] standard errors: a situation that vanishes (or halves)
/// is a rule that stopped working; one that moves by a third is a change
/// of balance, which the figures judge.
pub const REACH_RELATIVE: f64 = 0.5;
/// How many standard errors a figure may move: at 5 a sweep of 20 figures
/// fails by chance about once in a hundred thousand runs.
pub const Z: f64 = 5.0;
/// The least a band is, as a share of the baseline mean: changes to content
/// that are not bugs move figures a little, beyond what chance does.
pub const RELATIVE: f64 = 0.05;
/// Largest baseline file read.
const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The baseline file.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Baselines {
    pub format: u32,
    pub sweeps: Vec<Entry>,
}

/// One kind of sweep's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entry {
    pub bot: String,
    /// The most keys a run presses (`--keys`).
    pub keys: u64,
    pub depths: (u32, u32),
    pub map: (i32, i32),
    /// The seeds it was measured on, for the reader.
    pub measured_on: String,
    pub figures: BTreeMap<String, Stat>,
    /// Each situation the sweep's runs reached: its count per run.
    pub reach: BTreeMap<String, Stat>,
}

/// The file as written, in either format: an entry's key budget is
/// `keys` in format 2 and `turns` in format 1, and which one a file may use
/// is held to its format once it is read. Each part is named for ron's
/// messages as [`shape_of`] describes it to a person.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "file")]
struct FileIn {
    format: u32,
    sweeps: Vec<EntryIn>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "entry")]
struct EntryIn {
    bot: String,
    #[serde(default, deserialize_with = "present")]
    keys: Option<u64>,
    #[serde(default, deserialize_with = "present")]
    turns: Option<u64>,
    depths: (u32, u32),
    map: (i32, i32),
    measured_on: String,
    #[serde(deserialize_with = "figures")]
    figures: BTreeMap<String, Stat>,
    #[serde(default, deserialize_with = "situations")]
    reach: BTreeMap<String, Stat>,
}

/// A field that may be left out, written as a plain number when it is
/// there (RON would otherwise want `Some(3000)`).
fn present<'de, D: serde::Deserializer<'de>>(value: D) -> Result<Option<u64>, D::Error> {
    u64::deserialize(value).map(Some)
}

/// An entry's figures, each refused as it is read when no sweep could
/// fail it ([`Stat::unusable`]), so the error is at its place in the file.
fn figures<'de, D: serde::Deserializer<'de>>(value: D) -> Result<BTreeMap<String, Stat>, D::Error> {
    value.deserialize_map(Stats { what: "figure" })
}

/// An entry's reach, each situation's count checked as a figure is.
fn situations<'de, D: serde::Deserializer<'de>>(
    value: D,
) -> Result<BTreeMap<String, Stat>, D::Error> {
    value.deserialize_map(Stats { what: "situation" })
}

/// Reads a map of named [`Stat`]s; `what` names one in a refusal.
struct Stats {
    what: &'static str,
}

impl<'de> serde::de::Visitor<'de> for Stats {
    type Value = BTreeMap<String, Stat>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "each {} in braces: {{\"NAME\": (mean: M, sd: S, n: N), ...}}",
            self.what
        )
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut stats = BTreeMap::new();
        while let Some(name) = map.next_key::<String>()? {
            let stat: Stat = map.next_value()?;
            if let Some(why) = stat.unusable() {
                return Err(serde::de::Error::custom(format!(
                    "{} {}: {why}; bless the file again (deja sweep --bless-baseline FILE)",
                    self.what,
                    crate::plumbing::printable::escape(&format!("{name:?}"))
                )));
            }
            stats.insert(name, stat);
        }
        Ok(stats)
    }
}

/// ron's error in the file's own words: a field missing, unknown or
/// written twice names the part of the file it is in and what that part
/// holds, never the reader's types.
fn explain(error: &ron::Error) -> String {
    use ron::Error as E;
    match error {
        E::MissingStructField { field, outer } => {
            let (part, shape) = shape_of(outer.as_deref());
            format!("{part} has no `{field}`; {shape}")
        }
        E::NoSuchStructField {
            expected,
            found,
            outer,
        } => {
            let (part, _) = shape_of(outer.as_deref());
            let fields: Vec<String> = expected.iter().map(|f| format!("`{f}`")).collect();
            format!(
                "{part} has no field `{}`; its fields are {}",
                crate::plumbing::printable::escape(found),
                fields.join(", ")
            )
        }
        E::DuplicateStructField { field, outer } => {
            let (part, _) = shape_of(outer.as_deref());
            format!("`{field}` is written twice in {part}; keep one")
        }
        E::Eof => "the file ends too soon (is it cut short?)".into(),
        other => other.to_string(),
    }
}

/// Which part of the file a name of [`FileIn`]'s parts stands for, and
/// how that part is written.
fn shape_of(outer: Option<&str>) -> (&'static str, String) {
    match outer {
        Some("file") => (
            "the file",
            format!("a baseline file is `(format: {FORMAT}, sweeps: [ENTRY, ...])`"),
        ),
        Some("entry") => (
            "an entry of `sweeps`",
            "an entry is `(bot: \"NAME\", keys: N, depths: (FIRST, LAST), map: (WIDTH, HEIGHT), measured_on: \"...\", figures: {...}, reach: {...})`".into(),
        ),
        Some("figure") => (
            "a figure",
            "a figure is `\"NAME\": (mean: M, sd: S, n: N)`".into(),
        ),
        _ => (
            "a value",
            "bless the file again (deja sweep --bless-baseline FILE)".into(),
        ),
    }
}

/// A figure as measured.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "figure")]
pub struct Stat {
    pub mean: f64,
    pub sd: f64,
    pub n: u64,
}

/// The largest mean or spread a figure can have: every value a sweep
/// measures is a whole number in a u64.
const MOST: f64 = u64::MAX as f64;

impl Stat {
    /// Why a figure read from a file could hold no sweep to anything, if it
    /// could not: a mean or spread that is not a number (NaN passes every
    /// comparison, an infinite spread makes a band no mean leaves), outside
    /// what a sweep measures (below 0, or past a u64, where the band is no
    /// longer a finite number), or measured on no values.
    fn unusable(&self) -> Option<String> {
        let measurable = |x: f64| (0.0..=MOST).contains(&x);
        // 1e300 as 1e300, not its 301 digits.
        let shown = |x: f64| {
            if x.abs() < 1e15 {
                x.to_string()
            } else {
                format!("{x:e}")
            }
        };
        for (name, value) in [("mean", self.mean), ("sd", self.sd)] {
            if !measurable(value) {
                return Some(format!(
                    "its {name} is {}, which no sweep measures (a figure's mean and sd are from 0 to 2^64)",
                    shown(value)
                ));
            }
        }
        if self.n == 0 {
            return Some("n is 0, so it was measured on nothing".into());
        }
        None
    }
}

/// A figure outside its band.
#[derive(Clone, Debug, PartialEq)]
pub struct Deviation {
    pub figure: String,
    pub mean: f64,
    pub baseline: Stat,
    pub band: f64,
    pub n: u64,
}

impl std::fmt::Display for Deviation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.n == 0 {
            return write!(
                f,
                "{}: the baseline has it ({}) but the sweep did not measure it",
                self.figure,
                round(self.baseline.mean)
            );
        }
        if self.baseline.n == 0 {
            return write!(
                f,
                "{}: the sweep measured it ({}) but the baseline has no such figure",
                self.figure,
                round(self.mean)
            );
        }
        write!(
            f,
            "{} {}, baseline {} +- {} (over {} values; baseline over {})",
            self.figure,
            round(self.mean),
            round(self.baseline.mean),
            round(self.band),
            self.n,
            self.baseline.n
        )
    }
}

fn round(x: f64) -> String {
    format!("{x:.3}")
}

/// A situation reached far less often than its baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct Shortfall {
    pub id: String,
    /// Times the sweep reached it.
    pub times: u64,
    /// Times the baseline leads a sweep of as many runs to expect, and how
    /// far below that the sweep may fall.
    pub expected: f64,
    pub band: f64,
    pub runs: u64,
}

impl std::fmt::Display for Shortfall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: reached {} times, baseline {:.0} +- {:.0} per {} runs",
            self.id, self.times, self.expected, self.band, self.runs
        )
    }
}

impl Entry {
    fn matches(&self, spec: &SweepSpec) -> bool {
        self.bot == bot_name(spec.bot)
            && self.keys == spec.keys
            && self.depths == (spec.depths.first, spec.depths.last)
            && self.map == (spec.map_width, spec.map_height)
    }

    /// The entry a report's figures make.
    pub fn of(report: &SweepReport) -> Entry {
        let spec = &report.spec;
        Entry {
            bot: bot_name(spec.bot).to_string(),
            keys: spec.keys,
            depths: (spec.depths.first, spec.depths.last),
            map: (spec.map_width, spec.map_height),
            measured_on: format!("seeds {}..{}", spec.seeds.start, spec.seeds.end),
            figures: report
                .summary
                .figures
                .iter()
                .map(|(name, m)| {
                    (
                        name.clone(),
                        Stat {
                            mean: m.mean(),
                            sd: m.sd(),
                            n: m.n,
                        },
                    )
                })
                .collect(),
            reach: report
                .summary
                .bot
                .iter()
                .flat_map(|bot| {
                    bot.reach.iter().map(|(id, reached)| {
                        let m = reached.moments(bot.runs);
                        let stat = Stat {
                            mean: m.mean(),
                            sd: m.sd(),
                            n: m.n,
                        };
                        (id.clone(), stat)
                    })
                })
                .collect(),
        }
    }
}

/// The band a sweep of `n` values must keep a figure's mean within.
pub fn band(baseline: Stat, n: u64) -> f64 {
    let n = n.max(1) as f64;
    let base_n = baseline.n.max(1) as f64;
    let statistical = Z * baseline.sd * (1.0 / n + 1.0 / base_n).sqrt();
    statistical.max(RELATIVE * baseline.mean.abs())
}

impl Baselines {
    /// Reads a baseline file that a sweep is held to: a path with nothing
    /// there is refused, saying how to make one.
    pub fn read(path: &Path) -> Result<Baselines, Error> {
        if let Err(e) = std::fs::symlink_metadata(path)
            && e.kind() == std::io::ErrorKind::NotFound
        {
            let name = crate::plumbing::printable::path(path);
            return Err(format!(
                "{name}: no such file; give the baselines a bless wrote (the repository's are baselines/sweep.ron), or make this file with --bless-baseline {name}"
            ).into());
        }
        Baselines::read_file(path)
    }

    /// Reads the baseline file a bless rewrites: nothing there yet is an
    /// empty file, which the bless then makes.
    pub fn read_or_empty(path: &Path) -> Result<Baselines, Error> {
        match std::fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Baselines {
                format: FORMAT,
                sweeps: Vec::new(),
            }),
            _ => Baselines::read_file(path),
        }
    }

    /// Reads and checks the file at `path`; every refusal starts with the
    /// path, and with the line and column where the problem is known.
    fn read_file(path: &Path) -> Result<Baselines, Error> {
        let name = crate::plumbing::printable::path(path);
        let text = crate::plumbing::files::read_text(path, MAX_FILE_BYTES)?;
        let file: FileIn = ron::from_str(&text).map_err(|e| {
            format!(
                "{name}:{}:{}: {}",
                e.span.start.line,
                e.span.start.col,
                explain(&e.code)
            )
        })?;
        Baselines::of_file(file, &text)
            .map_err(|e| format!("{name}:{e}"))
            .map_err(Error::from)
    }

    /// The baselines a file read holds, in this format. A format-1 file
    /// (from before `--turns` was renamed `--keys`) is read with its
    /// entries' `turns` taken as their `keys`: it measured the same thing,
    /// and the next bless writes it in format 2.
    /// Errors start with the `LINE:COL: ` of the problem in `text`.
    fn of_file(file: FileIn, text: &str) -> Result<Baselines, Error> {
        let name = match file.format {
            1 => "turns",
            2 | FORMAT => "keys",
            other => {
                let (line, col) = scan::locate_field(text, "format").unwrap_or((1, 1));
                return Err(format!(
                    "{line}:{col}: baseline format {other} is not one this deja reads (1 to {FORMAT}); bless it again with this deja (deja probe --bless)"
                ).into());
            }
        };
        let sweeps = file
            .sweeps
            .into_iter()
            .enumerate()
            .map(|(i, e)| {
                let (budget, other) = if file.format == 1 {
                    (e.turns, e.keys.map(|_| "keys"))
                } else {
                    (e.keys, e.turns.map(|_| "turns"))
                };
                let (line, col) = scan::locate_list_element(text, "sweeps", i).unwrap_or((1, 1));
                let at = format!(
                    "{line}:{col}: sweeps[{i}] (the {} sweep)",
                    crate::plumbing::printable::escape(&e.bot)
                );
                if let Some(other) = other {
                    return Err(format!(
                        "{at} has `{other}`, which a format-{} file does not: its key budget is `{name}`",
                        file.format
                    ));
                }
                let Some(keys) = budget else {
                    return Err(format!("{at} has no `{name}`, its key budget"));
                };
                if e.figures.is_empty() {
                    return Err(format!(
                        "{at} has no figures, so it holds a sweep to nothing; bless it again from a sweep that covers seeds (deja sweep --bless-baseline FILE)"
                    ));
                }
                Ok(Entry {
                    bot: e.bot,
                    keys,
                    depths: e.depths,
                    map: e.map,
                    measured_on: e.measured_on,
                    figures: e.figures,
                    reach: e.reach,
                })
            })
            .collect::<Result<Vec<Entry>, String>>()?;
        Ok(Baselines {
            format: FORMAT,
            sweeps,
        })
    }

    /// The entry for the kind of sweep `spec` is, if one was blessed.
    pub fn entry(&self, spec: &SweepSpec) -> Option<&Entry> {
        self.sweeps.iter().find(|e| e.matches(spec))
    }

    /// Replaces (or adds) the entry for `report`'s kind of sweep; refuses
    /// a sweep that measured nothing, whose entry would hold no later
    /// sweep to anything.
    pub fn bless(&mut self, report: &SweepReport) -> Result<(), Error> {
        if report.summary.figures.is_empty() {
            return Err(format!(
                "not blessed: the sweep covered no seeds, so it measured no figures{}; sweep more seeds to bless from",
                match report.spec.shard {
                    Some(shard) => format!(
                        " (shard {}/{} of its seeds is empty)",
                        shard.index, shard.count
                    ),
                    None => String::new(),
                }
            ).into());
        }
        self.format = FORMAT;
        let entry = Entry::of(report);
        match self.sweeps.iter_mut().find(|e| e.matches(&report.spec)) {
            Some(old) => *old = entry,
            None => self.sweeps.push(entry),
        }
        self.sweeps
            .sort_by(|a, b| (&a.bot, a.keys, a.depths).cmp(&(&b.bot, b.keys, b.depths)));
        Ok(())
    }

    /// The file's text: one figure a line, means and spreads to six places,
    /// with a header that says what it is.
    pub fn to_text(&self) -> String {
        let mut out = String::from(
            "// deja's baselines: each sweep's figures when the game was last known right.\n\
             // `deja sweep --baseline FILE` (and `deja probe`) fail a figure that leaves its band;\n\
             // `deja sweep --bless-baseline FILE` (or `deja probe --bless`) rewrites an entry after\n\
             // an intended change to the game. See docs/mutation.md.\n",
        );
        let _ = writeln!(out, "(\n    format: {},\n    sweeps: [", self.format);
        for e in &self.sweeps {
            let _ = writeln!(out, "        (");
            let _ = writeln!(out, "            bot: {:?},", e.bot);
            let _ = writeln!(out, "            keys: {},", e.keys);
            let _ = writeln!(out, "            depths: ({}, {}),", e.depths.0, e.depths.1);
            let _ = writeln!(out, "            map: ({}, {}),", e.map.0, e.map.1);
            let _ = writeln!(out, "            measured_on: {:?},", e.measured_on);
            let _ = writeln!(out, "            figures: {{");
            for (name, s) in &e.figures {
                let _ = writeln!(
                    out,
                    "                {name:?}: (mean: {:.6}, sd: {:.6}, n: {}),",
                    s.mean, s.sd, s.n
                );
            }
            let _ = writeln!(out, "            }},");
            if !e.reach.is_empty() {
                let _ = writeln!(out, "            reach: {{");
                for (id, s) in &e.reach {
                    let _ = writeln!(
                        out,
                        "                {id:?}: (mean: {:.6}, sd: {:.6}, n: {}),",
                        s.mean, s.sd, s.n
                    );
                }
                let _ = writeln!(out, "            }},");
            }
            let _ = writeln!(out, "        ),");
        }
        out.push_str("    ],\n)\n");
        out
    }
}

/// The figures of `figures` that leave the band of `entry`, in name order,
/// and every figure one of them has and the other does not: a sweep that
/// stops measuring something, or starts measuring something new (a
/// generator renamed or added), differs from its baseline as surely as one
/// whose figure moved. Re-bless after an intended change.
pub fn deviations(entry: &Entry, figures: &BTreeMap<String, Moments>) -> Vec<Deviation> {
    let mut found: Vec<Deviation> = figures
        .iter()
        .filter_map(|(name, now)| {
            let Some(&baseline) = entry.figures.get(name) else {
                return Some(Deviation {
                    figure: name.clone(),
                    mean: now.mean(),
                    baseline: Stat {
                        mean: f64::NAN,
                        sd: 0.0,
                        n: 0,
                    },
                    band: 0.0,
                    n: now.n,
                });
            };
            let band = band(baseline, now.n);
            ((now.mean() - baseline.mean).abs() > band).then(|| Deviation {
                figure: name.clone(),
                mean: now.mean(),
                baseline,
                band,
                n: now.n,
            })
        })
        .collect();
    for (name, &baseline) in &entry.figures {
        if !figures.contains_key(name) {
            found.push(Deviation {
                figure: name.clone(),
                mean: f64::NAN,
                baseline,
                band: 0.0,
                n: 0,
            });
        }
    }
    found.sort_by(|a, b| a.figure.cmp(&b.figure));
    found
}

/// The situations of `entry`'s reach that `bot`'s runs reached far less
/// often than it leads a sweep of as many runs to expect: below the expected
/// count by more than [`Z`] standard errors of the difference and by more
/// than [`REACH_RELATIVE`] of it. Only situations in `known` (the catalogue
/// for the content swept) are held: a monster renamed or taken out leaves
/// nothing to reach.
pub fn shortfalls(
    entry: &Entry,
    bot: &crate::sweep::BotSummary,
    known: &[String],
) -> Vec<Shortfall> {
    let runs = bot.runs;
    entry
        .reach
        .iter()
        .filter(|(id, _)| known.contains(id))
        .filter_map(|(id, baseline)| {
            let times = bot.reach.get(id).map_or(0, |r| r.times);
            let (expected, band) = reach_band(*baseline, runs);
            ((times as f64) < expected - band).then(|| Shortfall {
                id: id.clone(),
                times,
                expected,
                band,
                runs,
            })
        })
        .collect()
}

/// How the situations a sweep's runs reached stand against the baseline's
/// reach: how many of the baseline's situations the content has (so are
/// held), and those reached far less often than their baseline.
pub fn compare_reach(
    entry: &Entry,
    bot: &crate::sweep::BotSummary,
    situations: &[String],
) -> (usize, Vec<Shortfall>) {
    let held = entry
        .reach
        .keys()
        .filter(|id| situations.contains(id))
        .count();
    (held, shortfalls(entry, bot, situations))
}

/// What a baseline leads a sweep of `runs` runs to expect of a situation,
/// and how far below that it may fall.
pub fn reach_band(baseline: Stat, runs: u64) -> (f64, f64) {
    let n = runs.max(1) as f64;
    let base_n = baseline.n.max(1) as f64;
    let expected = baseline.mean * runs as f64;
    let statistical = Z * baseline.sd * (1.0 / n + 1.0 / base_n).sqrt() * runs as f64;
    (expected, statistical.max(REACH_RELATIVE * expected))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_band_narrows_with_more_seeds_but_not_below_its_floor() {
        let stat = Stat {
            mean: 3.0,
            sd: 1.0,
            n: 2000,
        };
        let few = band(stat, 100);
        let many = band(stat, 20_000);
        assert!(few > many, "{few} {many}");
        assert!((many - 0.15).abs() < 1e-9, "the 5% floor: {many}");
    }

    fn parsed(text: &str) -> Result<Baselines, Error> {
        Baselines::of_file(ron::from_str(text).expect("RON"), text)
    }

    /// A format-1 file (its key budget named `turns`) is read as the
    /// format-2 file it would be blessed into; a file that mixes the names
    /// is refused naming the entry.
    #[test]
    fn a_format_1_file_is_read_with_its_turns_as_keys() {
        let entry = |budget: &str| {
            format!(
                "(bot: \"random\", {budget}, depths: (1, 6), map: (80, 40), measured_on: \"seeds 1..2001\", figures: {{\"win rate\": (mean: 0.0, sd: 0.0, n: 2000)}})"
            )
        };
        let old = parsed(&format!("(format: 1, sweeps: [{}])", entry("turns: 2000"))).unwrap();
        let new = parsed(&format!("(format: 2, sweeps: [{}])", entry("keys: 2000"))).unwrap();
        assert_eq!(old, new);
        assert_eq!((old.format, old.sweeps[0].keys), (FORMAT, 2000));
        // What the next bless writes reads back the same.
        let text = old.to_text();
        assert!(text.contains("keys: 2000,"), "{text}");
        assert_eq!(parsed(&text).unwrap(), old);
        let mixed = parsed(&format!("(format: 2, sweeps: [{}])", entry("turns: 2000")));
        assert_eq!(
            mixed.unwrap_err().to_string(),
            "1:22: sweeps[0] (the random sweep) has `turns`, which a format-2 file does not: its key budget is `keys`"
        );
        let newer = parsed(&format!("(format: 4, sweeps: [{}])", entry("keys: 2000")));
        assert!(
            newer
                .unwrap_err()
                .to_string()
                .starts_with("1:2: baseline format 4 is not one"),
            "a newer format is refused"
        );
    }

    /// The committed baselines are in this format, as a bless writes them.
    #[test]
    fn the_committed_baselines_are_as_a_bless_writes_them() {
        let text = include_str!("../../../baselines/sweep.ron");
        let read = parsed(text).unwrap();
        assert_eq!(read.to_text(), text);
    }

    #[test]
    fn a_figure_outside_its_band_is_named() {
        let mut figures = BTreeMap::new();
        let mut m = Moments::default();
        for _ in 0..400 {
            m.add(1);
        }
        figures.insert("deepest floor".to_string(), m);
        let entry = Entry {
            bot: "explorer".into(),
            keys: 3000,
            depths: (1, 6),
            map: (80, 40),
            measured_on: "seeds 1..2001".into(),
            figures: BTreeMap::from([(
                "deepest floor".to_string(),
                Stat {
                    mean: 3.1,
                    sd: 1.0,
                    n: 2000,
                },
            )]),
            reach: BTreeMap::new(),
        };
        let found = deviations(&entry, &figures);
        assert_eq!(found.len(), 1);
        let text = found[0].to_string();
        assert!(
            text.starts_with("deepest floor 1.000, baseline 3.100 +- 0.274 (over 400 values"),
            "{text}"
        );
    }

    /// A situation that vanishes, or falls to well under half its count, is
    /// named with what was expected; one reached a little less often, more
    /// often, or unknown to the content swept is not.
    #[test]
    fn a_situation_reached_far_less_often_is_named() {
        let stat = |mean: f64| Stat {
            mean,
            sd: 1.0,
            n: 2000,
        };
        let entry = Entry {
            bot: "explorer".into(),
            keys: 3000,
            depths: (1, 6),
            map: (80, 40),
            measured_on: "seeds 1..2001".into(),
            figures: BTreeMap::from([("win rate".to_string(), stat(0.5))]),
            reach: BTreeMap::from([
                ("use.teleport.moved".to_string(), stat(0.5)),
                ("use.heal.healed".to_string(), stat(5.0)),
                ("monster.goblin.met".to_string(), stat(3.0)),
                ("end.won".to_string(), stat(0.2)),
            ]),
        };
        let reached = |times: u64, runs: u64| crate::sweep::Reached {
            times,
            runs,
            sum_squares: u128::from(times),
        };
        let bot = crate::sweep::BotSummary {
            runs: 2000,
            reach: BTreeMap::from([
                // 10,000 expected: 6,000 is within half.
                ("use.heal.healed".to_string(), reached(6000, 1500)),
                ("end.won".to_string(), reached(900, 900)),
            ]),
            ..crate::sweep::BotSummary::default()
        };
        let known: Vec<String> = ["use.teleport.moved", "use.heal.healed", "end.won"]
            .map(String::from)
            .to_vec();
        let found = shortfalls(&entry, &bot, &known);
        let names: Vec<String> = found.iter().map(ToString::to_string).collect();
        assert_eq!(
            names,
            ["use.teleport.moved: reached 0 times, baseline 1000 +- 500 per 2000 runs"]
        );
        let text = Baselines {
            format: FORMAT,
            sweeps: vec![entry.clone()],
        }
        .to_text();
        assert!(text.contains("            reach: {\n"), "{text}");
        assert_eq!(parsed(&text).unwrap().sweeps, vec![entry]);
    }

    /// A situation's count is checked as a figure is: one no sweep could
    /// fall short of is refused, naming it.
    #[test]
    fn a_situation_that_cannot_be_held_to_is_refused_naming_it() {
        let text = "(format: 3, sweeps: [(bot: \"explorer\", keys: 3000, depths: (1, 6), map: (80, 40), measured_on: \"seeds 1..3\",\n figures: {\"win rate\": (mean: 0.5, sd: 0.5, n: 2)},\n reach: {\"end.won\": (mean: 0.5, sd: inf, n: 2)})])";
        let error = ron::from_str::<FileIn>(text).err().expect("refused");
        assert_eq!(error.span.start.line, 3);
        assert!(
            error
                .code
                .to_string()
                .starts_with("situation \"end.won\": its sd is inf, which no sweep measures"),
            "{}",
            error.code
        );
    }

    /// Every situation of the reach catalogue is reached by some sweep of
    /// the probe (its counts are in the committed baselines, which the
    /// probe blesses), unless docs/invariants.md says why it cannot be.
    #[test]
    fn the_probe_reaches_every_situation_but_those_the_docs_excuse() {
        let doc = include_str!("../../../docs/invariants.md");
        let excused: Vec<&str> = doc
            .split_once("Never reached by the probe")
            .expect("docs/invariants.md lists what the probe never reaches")
            .1
            .lines()
            .skip_while(|line| !line.starts_with("- `"))
            .take_while(|line| !line.is_empty())
            .filter_map(|line| line.strip_prefix("- `")?.split('`').next())
            .collect();
        let baselines = parsed(include_str!("../../../baselines/sweep.ron")).unwrap();
        let content = game_core::content::Content::embedded();
        let unreached: Vec<String> = checks::reach::ids(&content)
            .into_iter()
            .filter(|id| {
                !baselines
                    .sweeps
                    .iter()
                    .any(|e| e.reach.get(id).is_some_and(|s| s.mean > 0.0))
            })
            .collect();
        assert_eq!(
            unreached, excused,
            "the situations no sweep of the probe reaches are those docs/invariants.md excuses"
        );
    }
}
