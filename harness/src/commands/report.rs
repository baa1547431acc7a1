//! `deja report`: the balance report drawn from sweep reports.

use std::path::Path;

use crate::cli::{ReportArgs, ReportFormat};
use crate::exit;
use crate::report::{self, Source};
use crate::sweep::SweepReport;

/// The largest sweep report read, as `deja merge` reads them.
const REPORT_LIMIT: u64 = 256 * 1024 * 1024;

pub fn run(args: ReportArgs) -> Result<u8, String> {
    let inputs: Vec<&Path> = args.files.iter().map(|p| p.as_path()).collect();
    crate::files::check_output_file(&args.output, &inputs)?;
    let mut sources = Vec::with_capacity(args.files.len());
    for file in &args.files {
        sources.push(read(file)?);
    }
    let text = match ReportFormat::of(&args.output) {
        Some(ReportFormat::Svg) => report::svg(&sources)?,
        Some(ReportFormat::Html) => report::html(&sources)?,
        // clap's parser took only these two.
        None => return Err(format!("{}: {}", args.output.display(), OUTPUT_NAMES)),
    };
    crate::files::write_atomic(&args.output, text.as_bytes())?;
    super::note(format!(
        "wrote the balance report of {} sweep {} to {}",
        sources.len(),
        if sources.len() == 1 {
            "report"
        } else {
            "reports"
        },
        args.output.display()
    ));
    Ok(exit::OK)
}

/// What `-o` takes, said when it is given something else.
pub const OUTPUT_NAMES: &str =
    "the report is written as SVG or HTML: give a file name ending .svg or .html";

/// What `deja report` reads, said when it is given something else.
const GIVE: &str = "give the JSON report of a sweep (`deja sweep --format json -o FILE`)";

/// Reads a sweep's JSON report, bounded, and checks it can be drawn.
fn read(file: &Path) -> Result<Source, String> {
    if let Err(e) = std::fs::metadata(file)
        && e.kind() == std::io::ErrorKind::NotFound
    {
        return Err(format!("{}: no such file; {GIVE}", file.display()));
    }
    let text = crate::files::read_text(file, REPORT_LIMIT)?;
    let report: SweepReport = serde_json::from_str(&text).map_err(|e| {
        // serde_json ends its message with the place, which leads here.
        let message = e.to_string();
        let place = format!(" at line {} column {}", e.line(), e.column());
        format!(
            "{}:{}:{}: not a sweep report: {}; {GIVE}",
            file.display(),
            e.line(),
            e.column(),
            message.strip_suffix(&place).unwrap_or(&message)
        )
    })?;
    let source = Source {
        name: file.display().to_string(),
        report,
    };
    report::check(&source)?;
    Ok(source)
}
