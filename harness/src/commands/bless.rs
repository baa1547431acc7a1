//! `deja bless`: follow an intended rule change by re-recording the hashes,
//! outcome and version of recordings, keeping their seed, keys, note and
//! expectations. Bless never silently rewrites what a recording is for: a
//! file whose run would now end differently (won, died and of what, quit,
//! or fail otherwise) is refused unless `--accept-outcome` says so, and one
//! whose run no longer shows its `expect` list is refused always.

use std::path::Path;
use std::sync::Arc;

use game_core::content::Content;

use crate::cli::BlessArgs;
use crate::exit;
use crate::recording::{self, RecordedOutcome, Recording};
use crate::replay;

/// One file's line in the table bless ends with.
struct Row {
    file: String,
    old: String,
    new: String,
    /// The first step whose state hash changed ("step N"), or "-".
    drift: String,
    /// "blessed", "unchanged", or why it was refused.
    result: String,
    code: u8,
}

pub fn run(args: BlessArgs) -> Result<u8, String> {
    let content = super::load_content(&args.content)?;
    let mut rows = Vec::new();
    for file in &args.files {
        let row = match recording::read(file) {
            Ok(old) => bless_one(file, &old, &content, args.accept_outcome)?,
            Err(message) => {
                crate::commands::err(format_args!("error: {message}"));
                Row {
                    file: file.display().to_string(),
                    old: "unreadable".into(),
                    new: "-".into(),
                    drift: "-".into(),
                    result: "not read (see the error above)".into(),
                    code: exit::ERROR,
                }
            }
        };
        rows.push(row);
    }
    print_table(&rows)?;
    Ok(rows.iter().map(|r| r.code).max().unwrap_or(exit::OK))
}

/// Re-runs `old`'s keys and rewrites `file` when what changed is allowed.
/// The error is only for a file that cannot be written.
fn bless_one(
    file: &Path,
    old: &Recording,
    content: &Arc<Content>,
    accept_outcome: bool,
) -> Result<Row, String> {
    let name = file.display().to_string();
    let refused = |new: &str, drift: String, why: String, code: u8| Row {
        file: name.clone(),
        old: old.outcome.to_string(),
        new: new.to_string(),
        drift,
        result: why,
        code,
    };
    let mut runner = match replay::start(old, content.clone()) {
        Ok(runner) => runner,
        Err(message) => {
            crate::commands::err(format_args!("error: {name}: {message}"));
            return Ok(refused("-", "-".into(), "cannot start".into(), exit::ERROR));
        }
    };
    let mut watch = crate::expect::Watch::new(&old.expect, runner.game());
    for &key in &old.keys {
        match runner.press(key) {
            Ok(outcome) => watch.after_key(runner.game(), &outcome),
            Err(_) => break,
        }
    }
    let mut new = runner.recording(old.note.clone());
    new.origin = old.origin.clone();
    new.expect = old.expect.clone();
    let drift = first_drift(old, &new).map_or_else(|| "-".into(), |step| format!("step {step}"));
    let new_end = end_of(&new);
    if let Some(failure) = &new.failure {
        let expected = old
            .failure
            .as_ref()
            .is_some_and(|f| f.step == failure.step && f.kind.same_as(&failure.kind));
        if !expected && !accept_outcome {
            crate::commands::err(format_args!(
                "error: {name}: fails at step {} ({}); not blessed. Fix the failure, or replay it to see it",
                failure.step, failure.kind
            ));
            return Ok(refused(
                &new_end,
                drift,
                "REFUSED: a new failure".into(),
                exit::FAILURE,
            ));
        }
    }
    let unmet = watch.unmet(&new.outcome);
    if !unmet.is_empty() {
        crate::commands::err(format_args!(
            "error: {name}: the run no longer shows what its expect list says: expected {}; not blessed. If the change is intended, edit the list",
            crate::expect::describe(&unmet)
        ));
        return Ok(refused(
            &new_end,
            drift,
            "REFUSED: expect no longer holds".into(),
            exit::DRIFT,
        ));
    }
    if !same_end(old, &new) && !accept_outcome {
        crate::commands::err(format_args!(
            "error: {name}: the run would end differently: {} -> {}; not blessed. Rewrite it anyway with --accept-outcome",
            end_of(old),
            new_end
        ));
        return Ok(refused(
            &new_end,
            drift,
            "REFUSED: the outcome changes".into(),
            exit::DRIFT,
        ));
    }
    let changes = changes(old, &new);
    let result = if changes.is_empty() {
        "unchanged".to_string()
    } else {
        recording::write(file, &new)?;
        format!("blessed: {}", changes.join("; "))
    };
    Ok(Row {
        file: name,
        old: end_of(old),
        new: new_end,
        drift,
        result,
        code: exit::OK,
    })
}

/// How a recording ends, in words: its outcome, or its failure.
fn end_of(recording: &Recording) -> String {
    match &recording.failure {
        Some(failure) => format!("fails at step {}: {}", failure.step, failure.kind),
        None => recording.outcome.to_string(),
    }
}

/// Whether two runs end the same way, as far as what a recording is for:
/// both won, both quit, both still going, both died of the same cause, or
/// both failed with the same kind of failure (invariant id, panic message).
/// Turns, depths of a run still going and failure steps may move.
fn same_end(old: &Recording, new: &Recording) -> bool {
    match (&old.failure, &new.failure) {
        (Some(a), Some(b)) => return a.kind.same_as(&b.kind),
        (None, None) => {}
        _ => return false,
    }
    match (&old.outcome, &new.outcome) {
        (RecordedOutcome::Died { cause: a, .. }, RecordedOutcome::Died { cause: b, .. }) => a == b,
        (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

/// The first step whose recorded state hash differs, or where one run's
/// hashes stop.
fn first_drift(old: &Recording, new: &Recording) -> Option<u64> {
    let step = old
        .step_hashes
        .iter()
        .zip(&new.step_hashes)
        .position(|(a, b)| a != b)
        .or_else(|| {
            (old.step_hashes.len() != new.step_hashes.len())
                .then(|| old.step_hashes.len().min(new.step_hashes.len()))
        })?;
    Some(step as u64)
}

/// The table bless ends with: every file, how it ended before and after,
/// the first step that moved, and what bless did.
fn print_table(rows: &[Row]) -> Result<(), String> {
    let header = Row {
        file: "file".into(),
        old: "old outcome".into(),
        new: "new outcome".into(),
        drift: "first drift".into(),
        result: "result".into(),
        code: 0,
    };
    // --quiet leaves out the files bless did not touch, and the table
    // itself when that is all of them.
    let touched: Vec<&Row> = rows
        .iter()
        .filter(|row| !(super::quiet() && row.result == "unchanged"))
        .collect();
    if touched.is_empty() {
        return Ok(());
    }
    let shown: Vec<&Row> = std::iter::once(&header).chain(touched).collect();
    let width = |cell: fn(&Row) -> &str| {
        shown
            .iter()
            .map(|row| cell(row).chars().count())
            .max()
            .unwrap_or(0)
    };
    let (wf, wo, wn, wd) = (
        width(|r| &r.file),
        width(|r| &r.old),
        width(|r| &r.new),
        width(|r| &r.drift),
    );
    for row in shown {
        super::out(format!(
            "{:<wf$}  {:<wo$}  {:<wn$}  {:<wd$}  {}",
            row.file, row.old, row.new, row.drift, row.result
        ))?;
    }
    Ok(())
}

/// What a re-recording changed, in words.
fn changes(old: &Recording, new: &Recording) -> Vec<String> {
    let mut found = Vec::new();
    if old.game_version != new.game_version || old.game_name != new.game_name {
        found.push(format!(
            "version {} {} -> {} {}",
            old.game_name, old.game_version, new.game_name, new.game_version
        ));
    }
    if old.content != new.content {
        found.push(format!(
            "content {:016x} -> {:016x}",
            old.content, new.content
        ));
    }
    if let Some(step) = first_drift(old, new) {
        found.push(format!("state hashes differ from step {step}"));
    } else if old.checkpoints != new.checkpoints {
        found.push("checkpoint hashes differ".into());
    } else if old.part_digests.is_empty() && !new.part_digests.is_empty() {
        found.push("part digests added".into());
    } else if old.part_digests != new.part_digests {
        found.push("part digests differ".into());
    }
    if old.outcome != new.outcome {
        found.push(format!("outcome {} -> {}", old.outcome, new.outcome));
    }
    if old.failure != new.failure {
        match (&old.failure, &new.failure) {
            (Some(f), None) => {
                found.push(format!("the failure at step {} no longer happens", f.step))
            }
            _ => found.push("failure details changed".into()),
        }
    }
    found
}
