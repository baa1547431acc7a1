//! The report as JSON: written from a scratch file of the seeds' results,
//! so a sweep of any number of seeds holds none of them in memory.

use serde::Serialize;

use crate::plumbing::error::Error;
use crate::sweep::results::{Incomplete, SeedResult, Summary, SweepReport};
use crate::sweep::spec::SweepSpec;

/// The report as JSON, the bytes `--format json` writes and `merge` compares.
pub fn to_json(report: &SweepReport) -> String {
    let mut text = serde_json::to_string_pretty(&ReportOut::of(report, &report.results))
        .expect("reports always serialize");
    text.push('\n');
    text
}

/// A report's fields in the order they are written, with its results any
/// sequence: a report whose results wait on disk ([`ResultsFile`]) is
/// written by the same serializer as one held in memory, so the bytes are
/// the same. (A test holds this to `SweepReport`'s own fields.)
#[derive(Serialize)]
struct ReportOut<'a, R: Serialize> {
    format: u32,
    game: &'a str,
    content: &'a str,
    spec: &'a SweepSpec,
    #[serde(skip_serializing_if = "Option::is_none")]
    incomplete: Option<&'a Incomplete>,
    summary: &'a Summary,
    results: R,
}

impl<'a, R: Serialize> ReportOut<'a, R> {
    fn of(report: &'a SweepReport, results: R) -> ReportOut<'a, R> {
        ReportOut {
            format: report.format,
            game: &report.game,
            content: &report.content,
            spec: &report.spec,
            incomplete: report.incomplete.as_ref(),
            summary: &report.summary,
            results,
        }
    }
}

/// A sweep's results on their way into its JSON report (`--format json`). Each seed's
/// result is appended to a scratch file beside the report as it comes (in
/// seed order), and the report is written from it at the end, atomically:
/// a sweep of any number of seeds holds none of them in memory.
pub struct ResultsFile {
    path: std::path::PathBuf,
    scratch: std::io::BufWriter<std::fs::File>,
    /// The first failure to write the scratch file (a full disk): the sweep
    /// goes on, and the report is not written.
    error: Option<String>,
}

impl ResultsFile {
    /// Results for the report at `path`; the scratch file is made now, so a
    /// directory that cannot take it fails before the sweep starts.
    pub fn beside(path: &std::path::Path) -> Result<ResultsFile, Error> {
        Ok(ResultsFile {
            path: path.to_path_buf(),
            scratch: std::io::BufWriter::new(crate::plumbing::files::scratch_beside(path)?),
            error: None,
        })
    }

    /// Appends the next seed's result, as one line of JSON.
    pub fn add(&mut self, result: &SeedResult) {
        use std::io::Write as _;
        if self.error.is_some() {
            return;
        }
        let written = serde_json::to_writer(&mut self.scratch, result)
            .map_err(std::io::Error::other)
            .and_then(|()| self.scratch.write_all(b"\n"));
        if let Err(e) = written {
            self.error = Some(format!(
                "{}: writing the results on the way to it: {e}",
                crate::plumbing::printable::path(&self.path)
            ));
        }
    }

    /// Writes the report: `report`'s fields with the results added so far
    /// (`report.results` is not read).
    pub fn write(self, report: &SweepReport) -> Result<(), Error> {
        use std::io::Seek as _;
        if let Some(error) = self.error {
            return Err(error.into());
        }
        let scratch_failed = |e: std::io::Error| {
            format!(
                "{}: reading back the results on the way to it: {e}",
                crate::plumbing::printable::path(&self.path)
            )
        };
        let mut scratch = self
            .scratch
            .into_inner()
            .map_err(|e| scratch_failed(e.into_error()))?;
        scratch.rewind().map_err(scratch_failed)?;
        let results = Spooled(std::cell::RefCell::new(std::io::BufReader::new(scratch)));
        crate::plumbing::files::write_atomic_with(&self.path, |out| {
            serde_json::to_writer_pretty(&mut *out, &ReportOut::of(report, &results))
                .map_err(std::io::Error::other)?;
            out.write_all(b"\n")
        })
    }
}

/// Results read back from a [`ResultsFile`]'s scratch file one at a time as
/// they are serialized.
struct Spooled(std::cell::RefCell<std::io::BufReader<std::fs::File>>);

impl Serialize for Spooled {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeSeq as _};
        let mut reader = self.0.borrow_mut();
        let mut seq = serializer.serialize_seq(None)?;
        for result in serde_json::Deserializer::from_reader(&mut *reader).into_iter::<SeedResult>()
        {
            seq.serialize_element(&result.map_err(S::Error::custom)?)?;
        }
        seq.end()
    }
}
