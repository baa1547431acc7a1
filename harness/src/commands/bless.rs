//! `deja bless`: follow an intended rule change by re-recording the hashes,
//! outcome and version of recordings, keeping their seed, keys, note and
//! expectations. Bless never silently rewrites what a recording is for: a
//! file whose run would now end differently (won, died and of what, quit,
//! or fail otherwise) is refused unless `--accept-outcome` says so, and one
//! whose run no longer shows its `expect` list is refused always.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use game_core::content::Content;

use crate::commands::args::ContentArgs;
use crate::plumbing::error::{CommandResult, Error};
use crate::plumbing::exit::Exit;
use crate::recording::{self, RecordedOutcome, Recording};
use crate::replay;

#[derive(Args)]
pub struct BlessArgs {
    /// Recording files to rewrite.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Rewrite a recording even when its run would now end differently
    /// (won, died and of what, quit, failed): after reading why.
    #[arg(long)]
    pub accept_outcome: bool,
    #[command(flatten)]
    pub content: ContentArgs,
}

/// One file's line in the table bless ends with.
struct Row {
    file: String,
    old: String,
    new: String,
    /// The first step whose state hash changed ("step N"), or "-".
    drift: String,
    /// "blessed", "unchanged", or why it was refused.
    result: String,
    code: Exit,
}

pub fn run(args: BlessArgs) -> CommandResult {
    use crate::plumbing::interrupt;
    let content = super::load_content(&args.content)?;
    // A signal stops the bless at the next key or file: each file is
    // blessed whole or left as it was, and the table says which.
    interrupt::stop_on_signals(true);
    let mut rows = Vec::new();
    for file in &args.files {
        if interrupt::requested() {
            break;
        }
        let row = match recording::read(file) {
            Ok(old) => match bless_one(file, &old, &content, args.accept_outcome) {
                Ok(row) => row,
                // A signal stopped the run: the table says what was done.
                Err(_) => break,
            },
            Err(message) => {
                crate::plumbing::output::err(format_args!("error: {message}"));
                Row {
                    file: crate::plumbing::printable::path(file),
                    old: "unreadable".into(),
                    new: "-".into(),
                    drift: "-".into(),
                    result: "not read (see the error above)".into(),
                    code: Exit::Error,
                }
            }
        };
        rows.push(row);
    }
    print_table(&rows)?;
    if rows.len() < args.files.len() {
        crate::plumbing::output::out(format!(
            "INTERRUPTED: blessed {} of {} files; the other {} are as they were",
            rows.len(),
            args.files.len(),
            args.files.len() - rows.len()
        ))?;
        return Ok(Exit::Interrupted);
    }
    Ok(rows.iter().map(|r| r.code).max().unwrap_or(Exit::Ok))
}

/// `old`'s keys pressed again on `runner` (at its start), to the end or a
/// failure: the recording this build makes of them, keeping `old`'s note,
/// origin and expect list, and what the list saw. A signal the command
/// took over stops it at the next key.
fn run_again(
    old: &Recording,
    mut runner: crate::run::runner::Runner,
) -> Result<(Recording, crate::recording::expect::Watch<'_>), Error> {
    let mut watch = crate::recording::expect::Watch::new(&old.expect, runner.game());
    for &key in &old.keys {
        if crate::plumbing::interrupt::requested() {
            return Err(Error::Interrupted);
        }
        match runner.press(key) {
            Ok(outcome) => watch.after_key(runner.game(), &outcome),
            Err(_) => break,
        }
    }
    let mut new = runner.recording(old.note.clone());
    new.origin = old.origin.clone();
    new.expect = old.expect.clone();
    Ok((new, watch))
}

/// Re-runs `old`'s keys and rewrites `file` when what changed is allowed.
/// A file that cannot be written (read-only, one of several names for one
/// file, a full disk) is said as an error and its row says so; the other
/// files are still blessed. The error is only a signal that stopped the
/// run ([`Error::Interrupted`]).
fn bless_one(
    file: &Path,
    old: &Recording,
    content: &Arc<Content>,
    accept_outcome: bool,
) -> Result<Row, Error> {
    let name = crate::plumbing::printable::path(file);
    let refused = |new: &str, drift: String, why: String, code: Exit| Row {
        file: name.clone(),
        old: old.outcome.to_string(),
        new: new.to_string(),
        drift,
        result: why,
        code,
    };
    let runner = match replay::start(old, content.clone()) {
        Ok(runner) => runner,
        Err(message) => {
            crate::plumbing::output::err(format_args!("error: {name}: {message}"));
            return Ok(refused("-", "-".into(), "cannot start".into(), Exit::Error));
        }
    };
    let (new, watch) = run_again(old, runner)?;
    let drift = first_drift(old, &new).map_or_else(|| "-".into(), |step| format!("step {step}"));
    let new_end = end_of(&new);
    if let Some((why, code)) = refusal(&name, old, &new, &watch, accept_outcome) {
        return Ok(refused(&new_end, drift, why.into(), code));
    }
    let changes = changes(old, &new);
    let result = if changes.is_empty() {
        "unchanged".to_string()
    } else {
        if let Err(message) = recording::write(file, &new) {
            crate::plumbing::output::err(format_args!("error: {message}"));
            let why = "not written (see the error above)";
            return Ok(refused(&new_end, drift, why.into(), Exit::Error));
        }
        format!("blessed: {}", changes.join("; "))
    };
    Ok(Row {
        file: name,
        old: end_of(old),
        new: new_end,
        drift,
        result,
        code: Exit::Ok,
    })
}

/// Why `new`, the run of `old`'s keys now, must not be written over the
/// recording `name`, said on standard error, with the table's words and
/// the exit code: a new failure, an `expect` list that no longer holds, or
/// an end that changed without `--accept-outcome`.
fn refusal(
    name: &str,
    old: &Recording,
    new: &Recording,
    watch: &crate::recording::expect::Watch<'_>,
    accept_outcome: bool,
) -> Option<(&'static str, Exit)> {
    if let Some(failure) = &new.failure {
        let expected = old
            .failure
            .as_ref()
            .is_some_and(|f| f.step == failure.step && f.kind.same_as(&failure.kind));
        if !expected && !accept_outcome {
            crate::plumbing::output::err(format_args!(
                "error: {name}: fails at step {} ({}); not blessed. Fix the failure, or replay it to see it",
                failure.step, failure.kind
            ));
            return Some(("REFUSED: a new failure", Exit::Failure));
        }
    }
    let unmet = watch.unmet(&new.outcome);
    if !unmet.is_empty() {
        crate::plumbing::output::err(format_args!(
            "error: {name}: the run no longer shows what its expect list says: expected {}; not blessed. If the change is intended, edit the list",
            crate::recording::expect::describe(&unmet)
        ));
        return Some(("REFUSED: expect no longer holds", Exit::Drift));
    }
    if !same_end(old, new) && !accept_outcome {
        crate::plumbing::output::err(format_args!(
            "error: {name}: the run would end differently: {} -> {}; not blessed. Rewrite it anyway with --accept-outcome",
            end_of(old),
            end_of(new)
        ));
        return Some(("REFUSED: the outcome changes", Exit::Drift));
    }
    None
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

/// The table bless ends with: every file with the first step that moved
/// and what bless did, then how its run ends (once when bless left the
/// ending as it was, `old -> new` when it moved), within [`TABLE_WIDTH`]
/// columns: a long cell wraps under its column rather than widening the
/// table, and a file name too long for its column takes a line of its own.
fn print_table(rows: &[Row]) -> Result<(), Error> {
    // --quiet leaves out the files bless did not touch, and the table
    // itself when that is all of them.
    let touched: Vec<&Row> = rows
        .iter()
        .filter(|row| !(crate::plumbing::output::quiet() && row.result == "unchanged"))
        .collect();
    if touched.is_empty() {
        return Ok(());
    }
    for line in table_lines(&touched) {
        crate::plumbing::output::out(line)?;
    }
    Ok(())
}

/// A cell's text wrapped to `width` (the game's word wrap), at least one
/// line so that every row is printed.
fn cell_lines(text: &str, width: usize) -> Vec<String> {
    let lines = game_core::game::wrap(text, width);
    if lines.is_empty() {
        vec![String::new()]
    } else {
        lines
    }
}

/// The widest a line of the bless table gets.
const TABLE_WIDTH: usize = 100;
/// The widest the file column gets; a longer name has a line to itself.
const MAX_FILE_COLUMN: usize = 44;

fn table_lines(rows: &[&Row]) -> Vec<String> {
    let column = |cell: fn(&Row) -> &str, title: &str| {
        rows.iter()
            .map(|row| cell(row).chars().count())
            .chain(std::iter::once(title.chars().count()))
            .max()
            .unwrap_or(0)
    };
    let wf = column(|r| &r.file, "file").min(MAX_FILE_COLUMN);
    let wd = column(|r| &r.drift, "first drift");
    let result_at = wf + 2 + wd + 2;
    let wr = TABLE_WIDTH.saturating_sub(result_at).max(20);
    let mut lines = vec![format!("{:<wf$}  {:<wd$}  result", "file", "first drift")];
    for row in rows {
        let file = if row.file.chars().count() > wf {
            lines.push(row.file.clone());
            ""
        } else {
            row.file.as_str()
        };
        for (i, part) in cell_lines(&row.result, wr).into_iter().enumerate() {
            lines.push(if i == 0 {
                format!("{file:<wf$}  {:<wd$}  {part}", row.drift)
            } else {
                format!("{:result_at$}{part}", "")
            });
        }
        let ending = if row.old == row.new || row.new == "-" {
            row.old.clone()
        } else {
            format!("{} -> {}", row.old, row.new)
        };
        let indent = "    ending: ";
        let width = TABLE_WIDTH - indent.len();
        for (i, part) in cell_lines(&ending, width).into_iter().enumerate() {
            let lead = if i == 0 { indent } else { "            " };
            lines.push(format!("{lead}{part}"));
        }
    }
    lines
}

/// What a re-recording changed, in words.
fn changes(old: &Recording, new: &Recording) -> Vec<String> {
    use crate::plumbing::printable::escape;
    let mut found = Vec::new();
    if old.game_version != new.game_version || old.game_name != new.game_name {
        found.push(format!(
            "version {} {} -> {} {}",
            escape(&old.game_name),
            escape(&old.game_version),
            escape(&new.game_name),
            escape(&new.game_version)
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
        // The table's ending line says from what to what.
        found.push("outcome changed".into());
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(file: &str, old: &str, new: &str, result: &str) -> Row {
        Row {
            file: file.into(),
            old: old.into(),
            new: new.into(),
            drift: "step 12".into(),
            result: result.into(),
            code: Exit::Ok,
        }
    }

    #[test]
    fn the_table_fits_its_width_and_says_an_unchanged_ending_once() {
        let poison = "died on depth 2 at turn 131: died of poison from a cave spider";
        let rows = [
            row(
                "recordings/death-by-poison.ron",
                poison,
                poison,
                "unchanged",
            ),
            row(
                "recordings/a-recording-whose-name-is-longer-than-its-column.ron",
                "won at turn 1621",
                "running on depth 6 at turn 1621",
                "REFUSED: the outcome changes; bless with --accept-outcome if the change is intended, or remake it",
            ),
        ];
        let lines = table_lines(&rows.iter().collect::<Vec<_>>());
        let table = lines.join("\n");
        for line in &lines {
            assert!(line.chars().count() <= TABLE_WIDTH, "{table}");
        }
        assert_eq!(table.matches(poison).count(), 1, "{table}");
        assert!(
            table.contains("ending: won at turn 1621 -> running on depth 6"),
            "{table}"
        );
        // The long name stands whole on its own line.
        assert!(lines.contains(&rows[1].file), "{table}");
        // Wrapped, nothing is lost: the result's words are all there, in order.
        let mut words = table.split_whitespace();
        for word in rows[1].result.split_whitespace() {
            assert!(words.any(|w| w == word), "{word} is missing:\n{table}");
        }
    }
}
