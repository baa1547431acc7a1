//! `deja report`: the balance report drawn from sweep reports.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::plumbing::error::{CommandResult, Error};
use crate::plumbing::exit::Exit;
use crate::sweep;
use crate::sweep::report::{self, Source};

#[derive(Args)]
pub struct ReportArgs {
    /// Sweep reports (from `sweep --format json -o FILE`), typically one per
    /// bot.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Where the report goes: a name ending .html (a page with the charts
    /// and a table of key figures) or .svg (the charts alone).
    #[arg(short, long, value_name = "OUT", value_parser = parse_report_output)]
    pub output: PathBuf,
}

/// What `deja report` writes, by the name of its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    Svg,
    Html,
}

impl ReportFormat {
    /// The format a file name's extension asks for, in any case.
    pub fn of(path: &std::path::Path) -> Option<ReportFormat> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "svg" => Some(ReportFormat::Svg),
            "html" | "htm" => Some(ReportFormat::Html),
            _ => None,
        }
    }
}

fn parse_report_output(text: &str) -> Result<PathBuf, Error> {
    let path = PathBuf::from(text);
    match ReportFormat::of(&path) {
        Some(_) => Ok(path),
        None => Err(crate::commands::report::OUTPUT_NAMES.to_string().into()),
    }
}

pub fn run(args: ReportArgs) -> CommandResult {
    crate::plumbing::files::check_output_file(&args.output, &args.files)?;
    let mut sources = Vec::with_capacity(args.files.len());
    for file in &args.files {
        sources.push(read(file)?);
    }
    sweep::check::each_once(sources.iter().map(|s| (s.name.as_str(), &s.report)))?;
    let text = match ReportFormat::of(&args.output) {
        Some(ReportFormat::Svg) => report::svg(&sources)?,
        Some(ReportFormat::Html) => report::html(&sources)?,
        // clap's parser took only these two.
        None => {
            return Err(format!(
                "{}: {}",
                crate::plumbing::printable::path(&args.output),
                OUTPUT_NAMES
            )
            .into());
        }
    };
    crate::plumbing::files::write_atomic(&args.output, text.as_bytes())?;
    crate::plumbing::output::note(format!(
        "wrote the balance report of {} sweep {} to {}",
        sources.len(),
        if sources.len() == 1 {
            "report"
        } else {
            "reports"
        },
        crate::plumbing::printable::path(&args.output)
    ));
    Ok(Exit::Ok)
}

/// What `-o` takes, said when it is given something else.
pub const OUTPUT_NAMES: &str =
    "the report is written as SVG or HTML: give a file name ending .svg or .html";

/// Reads a sweep's JSON report, bounded and streamed, checks it, and keeps
/// only what the charts draw: the per-seed results are checked and added up
/// as they are read, then dropped, so memory does not grow with the seeds.
fn read(file: &Path) -> Result<Source, Error> {
    let checked = sweep::read::file(file, sweep::read::Keep::Summary)?;
    let most_hp = checked.most_hp();
    let (name, report) = checked.into_parts();
    Ok(Source {
        name,
        report,
        most_hp,
    })
}
