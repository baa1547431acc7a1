//! A fuzz corpus run through its targets' bodies: every committed input,
//! one folder per target. `deja corpus` runs it; `deja probe` lists it
//! first and runs it last.

use std::path::{Path, PathBuf};

use crate::fuzz;
use crate::plumbing::error::Error;

/// Largest corpus file read: the fuzzers write far smaller ones.
const MAX_INPUT_BYTES: u64 = 1024 * 1024;

/// What running a corpus found.
pub struct CorpusCheck {
    /// Inputs run, per target.
    pub ran: Vec<(&'static str, usize)>,
    pub problems: Vec<String>,
}

/// Every input of the corpus in `dir`, by target, in name order; an error
/// naming the folder when `dir` does not hold one folder per target. Cheap,
/// so a command that runs the corpus last (`deja probe`) lists it first.
pub fn inputs(dir: &Path) -> Result<Vec<(&'static str, Vec<PathBuf>)>, Error> {
    fuzz::TARGETS
        .iter()
        .map(|&target| {
            let target_dir = dir.join(target);
            let mut files: Vec<PathBuf> = std::fs::read_dir(&target_dir)
                .map_err(|e| {
                    format!(
                        "{}: {e}; a corpus directory holds one folder per fuzz target ({}): run from the repository's root, or give the corpus",
                        crate::plumbing::printable::path(&target_dir),
                        fuzz::TARGETS.join(", ")
                    )
                })?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .collect();
            files.sort();
            Ok((target, files))
        })
        .collect()
}

/// Runs every file under `dir/TARGET/` through `TARGET`'s body, prints a
/// line per target and one per failure, and returns what it found.
pub fn check(dir: &Path) -> Result<CorpusCheck, Error> {
    let mut result = CorpusCheck {
        ran: Vec::new(),
        problems: Vec::new(),
    };
    for (target, files) in inputs(dir)? {
        let mut ran = 0;
        for file in files {
            // Everything in a target's folder is an input: what is not a
            // regular file is refused by name rather than skipped unsaid.
            let bytes = crate::plumbing::files::read_bytes(&file, MAX_INPUT_BYTES)?;
            let Some(outcome) = fuzz::run_bytes(target, &bytes) else {
                continue;
            };
            ran += 1;
            if let Err(failure) = outcome {
                let problem = format!(
                    "{}: {}",
                    crate::plumbing::printable::path(&file),
                    fuzz::crash_message(target, &failure)
                        .replace("<artifact>", &crate::plumbing::printable::path(&file))
                );
                crate::plumbing::output::out(format!("FAILURE corpus {problem}"))?;
                result.problems.push(problem);
            }
        }
        result.ran.push((target, ran));
    }
    let total: usize = result.ran.iter().map(|(_, n)| n).sum();
    let per_target: Vec<String> = result.ran.iter().map(|(t, n)| format!("{t} {n}")).collect();
    crate::plumbing::output::out(format!(
        "corpus {}: {total} inputs ({}), {} failures",
        crate::plumbing::printable::path(dir),
        per_target.join(", "),
        result.problems.len()
    ))?;
    Ok(result)
}
