//! Reading a sweep's JSON report back, for `deja report` and `deja merge`:
//! bounded in size and checked ([`check`]) before anything is drawn from it
//! or added to it.

use std::path::Path;

use super::SweepReport;
use super::check::{self, Checked};

/// The largest sweep report read.
pub const REPORT_LIMIT: u64 = 256 * 1024 * 1024;

/// What is said when something other than a sweep's report is given.
pub const GIVE: &str = "give the JSON report of a sweep (`deja sweep --format json -o FILE`)";

/// What to keep of a report's results once they are checked and added up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// None: the summary and the figures checked against the results are
    /// all a balance report draws.
    Summary,
    /// Every result, in order (a merge writes them out).
    Results,
}

/// Reads and checks the sweep report at `path`. Malformed JSON is refused
/// naming file:line:column; a report that fails its checks, naming the file
/// and the figure.
pub fn file(path: &Path, keep: Keep) -> Result<Checked, String> {
    let name = path.display().to_string();
    if let Err(e) = std::fs::metadata(path)
        && e.kind() == std::io::ErrorKind::NotFound
    {
        return Err(format!("{name}: no such file; {GIVE}"));
    }
    let text = crate::files::read_text(path, REPORT_LIMIT)?;
    let mut report: SweepReport = serde_json::from_str(&text).map_err(|e| {
        // serde_json ends its message with the place, which leads here.
        let message = e.to_string();
        let place = format!(" at line {} column {}", e.line(), e.column());
        format!(
            "{name}:{}:{}: not a sweep report: {}; {GIVE}",
            e.line(),
            e.column(),
            message.strip_suffix(&place).unwrap_or(&message)
        )
    })?;
    let folded = check::in_memory(&name, &report)?;
    if keep == Keep::Summary {
        report.results = Vec::new();
    }
    Ok(Checked::new(name, report, &folded))
}
