//! Reading a sweep's JSON report back, for `deja report` and `deja merge`:
//! bounded in size, streamed, and checked as it is read.
//!
//! The report is parsed from the file as it comes, never read whole, and
//! each seed's result is checked and added up ([`check::Results`]) as soon
//! as it is parsed, then dropped unless the caller keeps the results (a
//! merge writes them out again): the balance report of any number of seeds
//! holds one seed's result at a time. The results are checked against the
//! spec, which a sweep writes before them; in a file whose keys a tool
//! sorted, the results come first, are passed over, and are read again
//! once the spec is known.

use std::cell::RefCell;
use std::fmt;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::check::{self, Checked, Folded};
use super::{Incomplete, SeedResult, Summary, SweepReport, SweepSpec};
use crate::plumbing::error::Error;

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
pub fn file(path: &Path, keep: Keep) -> Result<Checked, Error> {
    let name = crate::plumbing::printable::path(path);
    if let Err(e) = std::fs::metadata(path)
        && e.kind() == std::io::ErrorKind::NotFound
    {
        return Err(format!("{name}: no such file; {GIVE}").into());
    }
    let refusal = RefCell::new(None);
    let (report, folded) = parse(path, &name, &refusal, |json| {
        ReportSeed {
            name: &name,
            keep,
            refusal: &refusal,
        }
        .deserialize(json)
    })?;
    let (report, folded) = match folded {
        Some(folded) => (report, folded),
        // The results came before the spec they are checked against (a tool
        // that sorts keys wrote the file): they are read again, alone.
        None => {
            let (results, folded) = parse(path, &name, &refusal, |json| {
                ResultsAlone {
                    results: check::Results::new(&name, &report.spec),
                    keep,
                    refusal: &refusal,
                }
                .deserialize(json)
            })?;
            (SweepReport { results, ..report }, folded)
        }
    };
    check::whole(&name, &report, &folded)?;
    Ok(Checked::new(name, report, &folded))
}

type Json = serde_json::Deserializer<serde_json::de::IoRead<BufReader<Limited<std::fs::File>>>>;

/// Parses the file at `path` with `visit`, streaming and bounded; a check's
/// refusal (left in `refusal`) or the place the JSON is malformed.
fn parse<T>(
    path: &Path,
    name: &str,
    refusal: &RefCell<Option<String>>,
    visit: impl FnOnce(&mut Json) -> Result<T, serde_json::Error>,
) -> Result<T, Error> {
    let file = crate::plumbing::files::open_regular(path)?;
    let len = file.metadata().map_err(|e| format!("{name}: {e}"))?.len();
    if len > REPORT_LIMIT {
        return Err(format!("{name}: {len} bytes is over the {REPORT_LIMIT}-byte limit").into());
    }
    // The limit holds while reading too: a file that grows is still refused.
    let limited = Limited {
        inner: file,
        left: REPORT_LIMIT,
    };
    let mut reader = BufReader::new(limited);
    skip_byte_order_mark(&mut reader).map_err(|e| format!("{name}: {e}"))?;
    let mut json = serde_json::Deserializer::from_reader(reader);
    let parsed = visit(&mut json).and_then(|read| json.end().map(|()| read));
    parsed
        .map_err(|e| {
            if let Some(message) = refusal.take() {
                return message;
            }
            if e.is_io() {
                return format!("{name}: {e}");
            }
            // serde_json ends its message with the place, which leads here.
            let message = e.to_string();
            let place = format!(" at line {} column {}", e.line(), e.column());
            format!(
                "{name}:{}:{}: not a sweep report: {}; {GIVE}",
                e.line(),
                e.column(),
                message.strip_suffix(&place).unwrap_or(&message)
            )
        })
        .map_err(Error::from)
}

/// Skips a byte-order mark at the start of `reader`, as every reader of
/// text does (`files::BYTE_ORDER_MARK`). A regular file's first read
/// fills the buffer with more than the mark's three bytes.
fn skip_byte_order_mark(reader: &mut impl BufRead) -> std::io::Result<()> {
    let mark = crate::plumbing::files::BYTE_ORDER_MARK;
    if reader.fill_buf()?.starts_with(mark) {
        reader.consume(mark.len());
    }
    Ok(())
}

/// A reader that fails past `left` bytes.
struct Limited<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        match self.left.checked_sub(n as u64) {
            Some(left) => {
                self.left = left;
                Ok(n)
            }
            None => Err(std::io::Error::other(format!(
                "grew past the {REPORT_LIMIT}-byte limit while it was read"
            ))),
        }
    }
}

/// The report, visited field by field so its results can be checked one by
/// one as they stream past. A check's refusal goes to `refusal`, and the
/// parse stops with an error that carries no message of its own.
struct ReportSeed<'a> {
    name: &'a str,
    keep: Keep,
    refusal: &'a RefCell<Option<String>>,
}

impl ReportSeed<'_> {
    fn refuse<E: de::Error>(&self, message: String) -> E {
        *self.refusal.borrow_mut() = Some(message);
        E::custom("refused by its checks")
    }

    /// The results, checked against `spec` as they come and added up; before
    /// the spec (`None`), passed over for now, to be read again.
    fn results<'de, A: MapAccess<'de>>(
        &self,
        map: &mut A,
        spec: Option<&SweepSpec>,
    ) -> Result<(Vec<SeedResult>, Option<Folded>), A::Error> {
        let Some(spec) = spec else {
            map.next_value::<IgnoredAny>()?;
            return Ok((Vec::new(), None));
        };
        let mut checked = check::Results::new(self.name, spec);
        let kept = map.next_value_seed(ResultsSeed {
            results: &mut checked,
            keep: self.keep,
            refusal: self.refusal,
        })?;
        Ok((kept, Some(checked.finish())))
    }
}

/// A field of a report is read once: a second is refused, as a derived
/// reader refuses it.
fn once<T, E: de::Error>(slot: &Option<T>, field: &'static str) -> Result<(), E> {
    match slot {
        Some(_) => Err(E::duplicate_field(field)),
        None => Ok(()),
    }
}

/// The report, and what its results came to; `None` when they came before
/// the spec and were passed over, to be read again.
type Parsed = (SweepReport, Option<Folded>);

impl<'de> DeserializeSeed<'de> for ReportSeed<'_> {
    type Value = Parsed;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ReportSeed<'_> {
    type Value = Parsed;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sweep report")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let name = self.name;
        let mut format: Option<u32> = None;
        let mut game: Option<String> = None;
        let mut content: Option<String> = None;
        let mut spec: Option<SweepSpec> = None;
        let mut incomplete: Option<Option<Incomplete>> = None;
        let mut summary: Option<Summary> = None;
        let mut results: Option<(Vec<SeedResult>, Option<Folded>)> = None;
        // Each field is checked as it is read, so a report of another
        // format is told so before its fields are held to this one's.
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "format" => {
                    once(&format, "format")?;
                    let value = map.next_value()?;
                    check::format(name, value).map_err(|m| self.refuse(m.to_string()))?;
                    format = Some(value);
                }
                "game" => {
                    once(&game, "game")?;
                    game = Some(map.next_value()?);
                }
                "content" => {
                    once(&content, "content")?;
                    let value: String = map.next_value()?;
                    check::content(name, &value).map_err(|m| self.refuse(m.to_string()))?;
                    content = Some(value);
                }
                "spec" => {
                    once(&spec, "spec")?;
                    let value: SweepSpec = map.next_value()?;
                    check::spec(name, &value).map_err(|m| self.refuse(m.to_string()))?;
                    spec = Some(value);
                }
                "incomplete" => {
                    once(&incomplete, "incomplete")?;
                    incomplete = Some(map.next_value()?);
                }
                "summary" => {
                    once(&summary, "summary")?;
                    summary = Some(map.next_value()?);
                }
                "results" => {
                    once(&results, "results")?;
                    results = Some(self.results(&mut map, spec.as_ref())?);
                }
                // A field this deja does not know is passed over, as a
                // derived reader would.
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let (results, folded) = results.ok_or_else(|| de::Error::missing_field("results"))?;
        let report = SweepReport {
            format: format.ok_or_else(|| de::Error::missing_field("format"))?,
            game: game.ok_or_else(|| de::Error::missing_field("game"))?,
            content: content.ok_or_else(|| de::Error::missing_field("content"))?,
            spec: spec.ok_or_else(|| de::Error::missing_field("spec"))?,
            incomplete: incomplete.flatten(),
            summary: summary.ok_or_else(|| de::Error::missing_field("summary"))?,
            results,
        };
        Ok((report, folded))
    }
}

/// A report read again for its results alone, the rest passed over.
struct ResultsAlone<'a> {
    results: check::Results<'a>,
    keep: Keep,
    refusal: &'a RefCell<Option<String>>,
}

impl<'de> DeserializeSeed<'de> for ResultsAlone<'_> {
    type Value = (Vec<SeedResult>, Folded);

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ResultsAlone<'_> {
    type Value = (Vec<SeedResult>, Folded);

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sweep report")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut kept = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == "results" && kept.is_none() {
                kept = Some(map.next_value_seed(ResultsSeed {
                    results: &mut self.results,
                    keep: self.keep,
                    refusal: self.refusal,
                })?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        let kept = kept.ok_or_else(|| de::Error::missing_field("results"))?;
        Ok((kept, self.results.finish()))
    }
}

/// A report's results, checked and added up one at a time as they are
/// parsed; kept only with [`Keep::Results`].
struct ResultsSeed<'r, 'a> {
    results: &'r mut check::Results<'a>,
    keep: Keep,
    refusal: &'r RefCell<Option<String>>,
}

impl<'de> DeserializeSeed<'de> for ResultsSeed<'_, '_> {
    type Value = Vec<SeedResult>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ResultsSeed<'_, '_> {
    type Value = Vec<SeedResult>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of seeds' results")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
        let mut kept = Vec::new();
        while let Some(result) = seq.next_element::<SeedResult>()? {
            if let Err(error) = self.results.add(&result) {
                *self.refusal.borrow_mut() = Some(error.to_string());
                return Err(de::Error::custom("refused by its checks"));
            }
            if self.keep == Keep::Results {
                kept.push(result);
            }
        }
        Ok(kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file that grows past the limit while it is read fails, however
    /// it measured before.
    #[test]
    fn reading_past_the_limit_fails() {
        let mut within = Limited {
            inner: &[7u8; 10][..],
            left: 10,
        };
        let mut read = Vec::new();
        within.read_to_end(&mut read).expect("ten bytes of ten");
        assert_eq!(read.len(), 10);
        let mut past = Limited {
            inner: &[7u8; 10][..],
            left: 9,
        };
        let err = past.read_to_end(&mut Vec::new()).unwrap_err();
        assert!(err.to_string().contains("byte limit"), "{err}");
    }
}
