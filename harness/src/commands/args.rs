//! The arguments several commands share, and the parsers of the values
//! they take (seed and depth ranges, shards, canaries).

use std::path::PathBuf;

use crate::plumbing::error::Error;
use clap::Args;

/// Options every command that runs the game shares.
#[derive(Args, Clone)]
pub struct ContentArgs {
    /// Load monsters.ron and items.ron from this directory instead of the
    /// embedded content.
    #[arg(long, value_name = "DIR")]
    pub content: Option<PathBuf>,
}

impl ContentArgs {
    /// The content files read, which no output may be written over.
    pub fn files(&self) -> Vec<PathBuf> {
        crate::plumbing::content_dir::files(self.content.as_deref())
    }
}

/// How replay reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Lines for people.
    Text,
    /// One JSON object per file (or one for a summary), for scripts.
    Json,
}

/// `--canary NAME`: one of the planted defects, each listed with its line
/// in `--help`.
pub(crate) fn parse_canary()
-> impl clap::builder::TypedValueParser<Value = game_core::canary::Canary> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    use game_core::canary::Canary;
    PossibleValuesParser::new(
        Canary::ALL.map(|canary| PossibleValue::new(canary.name()).help(canary.defect())),
    )
    .map(|name| Canary::from_name(&name).expect("clap passes only the names listed"))
}

/// `START..END` (END excluded) or `START..=LAST`, LAST up to u64::MAX: the
/// start and one past the last seed.
pub(crate) fn parse_seed_range(text: &str) -> Result<(u64, u128), Error> {
    let (a, b) = text.split_once("..").ok_or_else(|| {
        format!("{text:?} is not a range; write START..END or START..=LAST, e.g. 1..1001")
    })?;
    let (b, inclusive) = match b.strip_prefix('=') {
        Some(last) => (last, true),
        None => (b, false),
    };
    let number = |s: &str| {
        s.parse::<u64>().map_err(|_| {
            format!(
                "{s:?} in {text:?} is not a seed (a whole number from 0 to {})",
                u64::MAX
            )
        })
    };
    let (a, b) = (number(a)?, number(b)?);
    let end = u128::from(b) + u128::from(inclusive);
    if u128::from(a) >= end {
        return Err(format!(
            "{text:?} is empty; write {a}..={a} for one seed, or START..END with END above START"
        )
        .into());
    }
    Ok((a, end))
}

pub(crate) fn parse_depth_range(text: &str) -> Result<(u32, u32), Error> {
    let (a, b) = text
        .split_once("..=")
        .ok_or_else(|| format!("{text:?} is not a range; write FIRST..=LAST, e.g. 1..=6"))?;
    let number = |s: &str| {
        s.parse::<u32>()
            .ok()
            .filter(|d| (1..=game_core::mapgen::LAST_DEPTH).contains(d))
            .ok_or_else(|| {
                format!(
                    "{s:?} in {text:?} is not a depth from 1 to {}",
                    game_core::mapgen::LAST_DEPTH
                )
            })
    };
    let (a, b) = (number(a)?, number(b)?);
    if a > b {
        return Err(format!("{text:?} is empty").into());
    }
    Ok((a, b))
}

pub(crate) fn parse_shard(text: &str) -> Result<(u32, u32), Error> {
    use crate::sweep::MOST_SHARDS;
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| format!("{text:?} is not a shard; write I/N, e.g. 2/4"))?;
    let (i, n) = (i.parse::<u32>(), n.parse::<u32>());
    match (i, n) {
        (Ok(i), Ok(n)) if (1..=n).contains(&i) && n <= MOST_SHARDS => Ok((i, n)),
        _ => Err(format!("{text:?}: a shard is I/N with 1 <= I <= N <= {MOST_SHARDS}").into()),
    }
}
