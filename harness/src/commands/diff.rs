//! `deja diff A.ron B.ron`: two runs of one seed (a bug report and its shrunk
//! form, a recording before and after bless, two players' runs) replayed
//! side by side, step by step, to the first step whose states differ, where
//! the two states are compared field by field: the state is serde data, so
//! the difference is a list of paths and values, not two dumps to eyeball.
//! A failure ends the comparison: runs that fail alike (the same key and
//! the same failure at the same step) are the same, and the failure is
//! named for both; otherwise each run's failure, or that it played on.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use game_core::content::Content;
use game_core::game::digest::compare_parts;
use serde_json::Value;

use crate::commands::args::{ContentArgs, Format};
use crate::inspect::state_view;
use crate::plumbing::error::{CommandResult, Error};
use crate::plumbing::exit::Exit;
use crate::recording::{Failure, Recording};
use crate::replay;
use crate::run::runner::Runner;

#[derive(Args)]
pub struct DiffArgs {
    /// A recording (a bug report, a recording before bless).
    #[arg(value_name = "A")]
    pub a: PathBuf,
    /// Another recording of the same seed (its shrunk form, another
    /// player's run).
    #[arg(value_name = "B")]
    pub b: PathBuf,
    #[command(flatten)]
    pub content: ContentArgs,
    /// Replay B on the content in this directory instead (A keeps
    /// --content): what a content change does to a run, field by field.
    #[arg(long, value_name = "DIR")]
    pub content_b: Option<PathBuf>,
    /// text: the fields that differ in words, the player first, monsters
    /// by name and id, bit grids as tiles. json: one object with the raw
    /// serde paths and values, for scripts.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// The most field differences printed; the count of the rest is said.
const MAX_FIELDS_SHOWN: usize = 40;

pub fn run(args: DiffArgs) -> CommandResult {
    let a = crate::recording::read(&args.a)?;
    let b = crate::recording::read(&args.b)?;
    let (name_a, name_b) = (
        crate::plumbing::printable::path(&args.a),
        crate::plumbing::printable::path(&args.b),
    );
    let setup = |r: &Recording| (r.seed, r.start_depth, r.map_width, r.map_height);
    if setup(&a) != setup(&b) {
        return Err(format!(
            "{name_a} is seed {} from depth {} on {}x{}, {name_b} seed {} from depth {} on {}x{}: diff compares runs that start from the same game",
            a.seed,
            a.start_depth,
            a.map_width,
            a.map_height,
            b.seed,
            b.start_depth,
            b.map_width,
            b.map_height
        ).into());
    }
    let content_a = super::load_content(&args.content)?;
    let content_b = match &args.content_b {
        Some(dir) => crate::plumbing::content_dir::load(dir)?,
        None => content_a.clone(),
    };
    replay::warn(&name_a, &a, &content_a);
    replay::warn(&name_b, &b, &content_b);
    // Two contents on purpose (`--content-b`): the fingerprint differs at
    // every step by design, so the search compares what the runs did and
    // leaves out what they started with.
    let contents_differ = content_a.fingerprint() != content_b.fingerprint();
    if contents_differ {
        crate::plumbing::output::note(format!(
            "{name_a} on content {:016x} and {name_b} on content {:016x}: the contents differ on purpose, so the content fingerprint is left out of the comparison",
            content_a.fingerprint(),
            content_b.fingerprint()
        ));
    }
    let found = first_difference((&a, &name_a), (&b, &name_b), content_a, content_b)?;
    if args.format == Format::Json {
        // JSON names the files as they are, and escapes by its own rules.
        return json_report(&args.a.to_string_lossy(), &args.b.to_string_lossy(), found);
    }
    text_report(found, (&a, &name_a), (&b, &name_b))
}

/// What the search found, in words for people; the exit code (0 the same,
/// 3 a difference).
fn text_report(
    found: Found,
    (a, name_a): (&Recording, &str),
    (b, name_b): (&Recording, &str),
) -> CommandResult {
    let names = Names {
        a: name_a.to_string(),
        b: name_b.to_string(),
    };
    let Names {
        a: name_a,
        b: name_b,
    } = &names;
    let out = |line: String| crate::plumbing::output::out(line);
    match found {
        Found::RecordedOnly { steps, step, parts } => {
            let parts = if parts.is_empty() {
                String::new()
            } else {
                format!(" ({} differ, as recorded)", replay::and_list(&parts))
            };
            out(format!(
                "{name_a} and {name_b}: this build plays them the same at every step from 0 to {steps}, but the hashes they recorded first differ at step {step}{parts}: they were recorded by other rules or content (one blessed, the other not?); replay each to see which still holds"
            ))?;
            Ok(Exit::Drift)
        }
        Found::Same { steps, failure } => {
            // --quiet says only what differs; exit 0 says the rest.
            if !crate::plumbing::output::quiet() {
                out(names.same(steps, failure.as_ref(), (a.keys.len(), b.keys.len())))?;
            }
            Ok(Exit::Ok)
        }
        Found::Failed {
            step,
            keys,
            failures,
        } => {
            out(names.failed(step, keys, failures))?;
            Ok(Exit::Drift)
        }
        Found::Differs {
            step,
            keys,
            parts,
            fields,
            ..
        } => {
            out(format!(
                "{name_a} and {name_b} differ first at step {step} ({}): {} differ",
                names.keys(keys),
                replay::and_list(&parts)
            ))?;
            for field in fields.iter().take(MAX_FIELDS_SHOWN) {
                out(format!("  {field}"))?;
            }
            if fields.len() > MAX_FIELDS_SHOWN {
                out(format!(
                    "  ... and {} more fields",
                    fields.len() - MAX_FIELDS_SHOWN
                ))?;
            }
            Ok(Exit::Drift)
        }
    }
}

/// The two runs' names as a person reads them, and what is said in them.
struct Names {
    a: String,
    b: String,
}

impl Names {
    /// "the start", "both pressed l", "a.ron pressed l, b.ron pressed h".
    fn keys(&self, keys: (Option<String>, Option<String>)) -> String {
        match keys {
            (None, None) => "the start".to_string(),
            (Some(ka), Some(kb)) if ka == kb => format!("both pressed {ka}"),
            (ka, kb) => format!(
                "{} pressed {}, {} pressed {}",
                self.a,
                ka.unwrap_or_else(|| "nothing".into()),
                self.b,
                kb.unwrap_or_else(|| "nothing".into())
            ),
        }
    }

    /// The line for runs that are the same up to `step`, where one fails
    /// and the other plays on, or both fail but not alike.
    fn failed(
        &self,
        step: u64,
        keys: (Option<String>, Option<String>),
        failures: [Option<String>; 2],
    ) -> String {
        let Names { a, b } = self;
        let fails = match failures {
            [Some(what), None] => format!("{a} fails: {what}; {b} does not"),
            [None, Some(what)] => format!("{b} fails: {what}; {a} does not"),
            [wa, wb] => format!(
                "both fail, not alike: {a}: {}; {b}: {}",
                wa.unwrap_or_default(),
                wb.unwrap_or_default()
            ),
        };
        match step {
            0 => format!("{a} and {b}: at the start (step 0) {fails}"),
            _ => format!(
                "{a} and {b}: the same state up to step {}; then at step {step} ({}) {fails}",
                step - 1,
                self.keys(keys)
            ),
        }
    }

    /// The line for runs that are the same at every step from 0 to
    /// `steps`: and fail alike at the step after, or (`lengths`, their
    /// keys) one of them goes on where the other ends.
    fn same(&self, steps: u64, failure: Option<&Failure>, lengths: (usize, usize)) -> String {
        let Names { a, b } = self;
        match failure {
            Some(failure) if failure.step == 0 => {
                format!(
                    "{a} and {b}: both fail alike at the start (step 0): {}",
                    failure.kind
                )
            }
            Some(failure) => format!(
                "{a} and {b}: the same state at every step from 0 to {steps}, and both fail alike at step {}: {}",
                failure.step, failure.kind
            ),
            None => {
                let longer = match lengths {
                    (la, lb) if la < lb => format!("; {b} goes on for {} more keys", lb - la),
                    (la, lb) if la > lb => format!("; {a} goes on for {} more keys", la - lb),
                    _ => String::new(),
                };
                format!("{a} and {b}: the same state at every step from 0 to {steps}{longer}")
            }
        }
    }
}

/// For two recordings of the same keys: the first step whose recorded
/// hash differs, and which recorded parts differ there (none known when
/// either file has no part digests).
fn recorded_difference(a: &Recording, b: &Recording) -> Option<(u64, Vec<String>)> {
    let common = a.keys.len().min(b.keys.len());
    if a.keys[..common] != b.keys[..common] {
        return None;
    }
    let step = a
        .step_hashes
        .iter()
        .zip(&b.step_hashes)
        .position(|(x, y)| x != y)?;
    let parts = match (a.part_digests.get(step), b.part_digests.get(step)) {
        (Some(pa), Some(pb)) => names(compare_parts(pa, pb).0),
        _ => Vec::new(),
    };
    Some((step as u64, parts))
}

enum Found {
    /// The same state at every step both have, and, when both fail at the
    /// step after, the same key and the same failure there.
    Same {
        steps: u64,
        failure: Option<Failure>,
    },
    /// The same state at every step in this build, but the recordings (of
    /// the same keys) recorded other hashes from `step` on: made by other
    /// rules or content.
    RecordedOnly {
        steps: u64,
        step: u64,
        parts: Vec<String>,
    },
    /// One run or both failed at `step` before any state differed, and
    /// not alike: each run's failure, or none where it played on.
    Failed {
        step: u64,
        keys: (Option<String>, Option<String>),
        failures: [Option<String>; 2],
    },
    Differs {
        step: u64,
        keys: (Option<String>, Option<String>),
        parts: Vec<String>,
        /// `path: A's value -> B's value` in the state view's words, the
        /// parts in digest order.
        fields: Vec<String>,
        /// The same differences as raw serde paths, for `--format json`.
        raw: Vec<RawField>,
    },
}

/// A raw leaf of the serialized state that differs; `None` where one side
/// has no such field or element.
struct RawField {
    path: String,
    a: Option<Value>,
    b: Option<Value>,
}

impl RawField {
    fn line(&self) -> String {
        let side = |v: &Option<Value>| v.as_ref().map_or_else(|| "(absent)".into(), short);
        format!("{}: {} -> {}", self.path, side(&self.a), side(&self.b))
    }
}

/// `deja diff --format json`: one object saying what was found.
fn json_report(name_a: &str, name_b: &str, found: Found) -> CommandResult {
    let (object, code) = match found {
        Found::Same { steps, failure } => {
            let mut same = serde_json::json!({"result": "same", "steps": steps});
            if let Some(failure) = failure {
                same["failure"] =
                    serde_json::json!({"step": failure.step, "failure": failure.kind.to_string()});
            }
            (same, Exit::Ok)
        }
        Found::RecordedOnly { steps, step, parts } => (
            serde_json::json!({"result": "recorded hashes differ", "steps": steps, "step": step, "parts": parts}),
            Exit::Drift,
        ),
        Found::Failed {
            step,
            keys,
            failures,
        } => (
            serde_json::json!({"result": "failed", "step": step, "keys": [keys.0, keys.1], "failures": failures}),
            Exit::Drift,
        ),
        Found::Differs {
            step,
            keys,
            parts,
            raw,
            ..
        } => {
            let fields: Vec<Value> = raw
                .into_iter()
                .map(|f| {
                    let mut field = serde_json::Map::new();
                    field.insert("path".into(), Value::String(f.path));
                    if let Some(a) = f.a {
                        field.insert("a".into(), a);
                    }
                    if let Some(b) = f.b {
                        field.insert("b".into(), b);
                    }
                    Value::Object(field)
                })
                .collect();
            (
                serde_json::json!({"result": "differs", "step": step, "keys": [keys.0, keys.1], "parts": parts, "fields": fields}),
                Exit::Drift,
            )
        }
    };
    let mut object = object;
    object["a"] = Value::String(name_a.into());
    object["b"] = Value::String(name_b.into());
    // JSON escapes every control character, so the line is printed as is.
    println!("{object}");
    Ok(code)
}

fn first_difference(
    (a, name_a): (&Recording, &str),
    (b, name_b): (&Recording, &str),
    content_a: Arc<Content>,
    content_b: Arc<Content>,
) -> Result<Found, Error> {
    let contents_differ = content_a.fingerprint() != content_b.fingerprint();
    let start = |r: &Recording, name: &str, content| {
        replay::start(r, content).map_err(|e| format!("{name}: {e}"))
    };
    let mut runners = [start(a, name_a, content_a)?, start(b, name_b, content_b)?];
    let common = a.keys.len().min(b.keys.len()) as u64;
    let mut step = 0;
    loop {
        let key = |r: &Recording| (step > 0).then(|| r.keys[(step - 1) as usize].to_string());
        if let Some(found) = at_failure(
            step,
            (key(a), key(b)),
            [runners[0].failure(), runners[1].failure()],
        ) {
            return Ok(found);
        }
        // The runners hash every step already.
        let [da, db] = [&runners[0], &runners[1]].map(|r| {
            r.last_digest()
                .expect("a runner that has not failed hashes every step")
        });
        let differ = if contents_differ {
            runners[0].game().play_hash() != runners[1].game().play_hash()
        } else {
            da.hash != db.hash
        };
        if differ {
            let mut parts = names(compare_parts(&da.parts, &db.parts).0);
            if parts.is_empty() {
                parts.push("what the runs started with (seed, content, canaries)".into());
            }
            let (fields, raw) = fields_that_differ(&runners, contents_differ);
            return Ok(Found::Differs {
                step,
                keys: (key(a), key(b)),
                parts,
                fields,
                raw,
            });
        }
        if step == common {
            return Ok(match recorded_difference(a, b) {
                Some((at, parts)) => Found::RecordedOnly {
                    steps: step,
                    step: at,
                    parts,
                },
                None => Found::Same {
                    steps: step,
                    failure: None,
                },
            });
        }
        step += 1;
        let keys = [a.keys[(step - 1) as usize], b.keys[(step - 1) as usize]];
        for (runner, key) in runners.iter_mut().zip(keys) {
            // A failure is read at the top of the loop.
            let _ = runner.press(key);
        }
    }
}

/// The fields of the two runs' states that differ: in the state view's
/// words (or as raw paths where it names none of them), and as raw paths.
/// With two contents on purpose, the fingerprint is left out.
fn fields_that_differ(
    runners: &[Runner; 2],
    contents_differ: bool,
) -> (Vec<String>, Vec<RawField>) {
    let mut raw = raw_differences(&runners[0], &runners[1]);
    let tree = |r: &Runner| state_view::tree(r.game().state(), r.game().content());
    let mut fields = state_view::differences(&tree(&runners[0]), &tree(&runners[1]));
    if contents_differ {
        raw.retain(|field| field.path != "content_fingerprint");
        fields.retain(|field| !field.starts_with("content_fingerprint:"));
    }
    if fields.is_empty() {
        // What the state view leaves out (the order of equal things, a
        // counter it does not name) still tells.
        fields = raw.iter().map(RawField::line).collect();
    }
    (fields, raw)
}

/// What the runs come to at `step` when either has failed there (after
/// the same state at every step before it): the same when both pressed
/// the same key and failed alike (the same kind, invariant or panic, and
/// message), else each run's failure or that it played on.
fn at_failure(
    step: u64,
    keys: (Option<String>, Option<String>),
    failures: [Option<&Failure>; 2],
) -> Option<Found> {
    if let [Some(fa), Some(fb)] = failures
        && fa == fb
        && keys.0 == keys.1
    {
        return Some(Found::Same {
            steps: step.saturating_sub(1),
            failure: Some(fa.clone()),
        });
    }
    if failures.iter().all(Option::is_none) {
        return None;
    }
    Some(Found::Failed {
        step,
        keys,
        failures: failures.map(|f| f.map(|f| f.kind.to_string())),
    })
}

fn names(parts: Vec<&str>) -> Vec<String> {
    parts.into_iter().map(String::from).collect()
}

/// Every leaf of the two serialized states that differs, by raw path.
fn raw_differences(a: &Runner, b: &Runner) -> Vec<RawField> {
    let to_value = |r: &Runner| {
        serde_json::to_value(r.game().state()).expect("the game state serializes to JSON")
    };
    let mut found = Vec::new();
    compare("", &to_value(a), &to_value(b), &mut found);
    found
}

fn compare(path: &str, a: &Value, b: &Value, found: &mut Vec<RawField>) {
    if a == b {
        return;
    }
    let field = |path: String, a: Option<&Value>, b: Option<&Value>| RawField {
        path,
        a: a.cloned(),
        b: b.cloned(),
    };
    match (a, b) {
        (Value::Object(fa), Value::Object(fb)) => {
            // Fields in name order (serde_json's maps are sorted).
            for (key, va) in fa {
                let here = join(path, key);
                match fb.get(key) {
                    Some(vb) => compare(&here, va, vb, found),
                    None => found.push(field(here, Some(va), None)),
                }
            }
            for (key, vb) in fb {
                if !fa.contains_key(key) {
                    found.push(field(join(path, key), None, Some(vb)));
                }
            }
        }
        (Value::Array(xa), Value::Array(xb)) => {
            for (i, (va, vb)) in xa.iter().zip(xb).enumerate() {
                compare(&format!("{path}[{i}]"), va, vb, found);
            }
            for (i, extra) in xa.iter().enumerate().skip(xb.len()) {
                found.push(field(format!("{path}[{i}]"), Some(extra), None));
            }
            for (i, extra) in xb.iter().enumerate().skip(xa.len()) {
                found.push(field(format!("{path}[{i}]"), None, Some(extra)));
            }
        }
        _ => found.push(field(path.to_string(), Some(a), Some(b))),
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A value on one line, cut to a readable length.
fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 60 {
        return text;
    }
    let cut: String = text.chars().take(57).collect();
    format!("{cut}...")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Runs fail alike when both fail at the step on the same key with the
    /// same failure: kind, invariant and message. Anything else names each
    /// run's failure, or none for a run that played on.
    #[test]
    fn runs_fail_alike_only_on_the_same_key_with_the_same_failure() {
        use crate::recording::FailureKind;
        let broken = |id: &str, message: &str| Failure {
            step: 8,
            kind: FailureKind::Invariant {
                id: id.into(),
                message: message.into(),
            },
        };
        let key = |k: &str| Some(k.to_string());
        let (x, y) = (
            broken("screen.escapable", "left 1"),
            broken("screen.escapable", "left 2"),
        );
        let z = broken("player.hp", "left 1");
        let verdict = |keys: (&str, &str), failures: [Option<&Failure>; 2]| match at_failure(
            8,
            (key(keys.0), key(keys.1)),
            failures,
        ) {
            None => "plays on".to_string(),
            Some(Found::Same { steps, failure }) => {
                format!("same to {steps}, both {}", failure.expect("alike").kind)
            }
            Some(Found::Failed { failures, .. }) => {
                format!("failed: {:?}", failures.map(|f| f.is_some()))
            }
            Some(_) => "something else".to_string(),
        };
        let x_broken = "invariant screen.escapable broken: left 1";
        assert_eq!(
            verdict(("?", "?"), [Some(&x), Some(&x)]),
            format!("same to 7, both {x_broken}")
        );
        for (keys, failures) in [
            (("?", "?"), [Some(&x), Some(&y)]),
            (("?", "?"), [Some(&x), Some(&z)]),
            (("?", "h"), [Some(&x), Some(&x)]),
        ] {
            assert_eq!(verdict(keys, failures), "failed: [true, true]", "{keys:?}");
        }
        assert_eq!(
            verdict(("?", "h"), [None, Some(&x)]),
            "failed: [false, true]"
        );
        assert_eq!(verdict(("?", "?"), [None, None]), "plays on");
    }

    #[test]
    fn raw_fields_that_differ_are_listed_by_path() {
        let a = json!({"player": {"pos": {"x": 3, "y": 4}, "hp": 10}, "monsters": [{"hp": 2}, {"hp": 5}]});
        let b = json!({"player": {"pos": {"x": 3, "y": 5}, "hp": 9}, "monsters": [{"hp": 2}]});
        let mut found = Vec::new();
        compare("", &a, &b, &mut found);
        let found: Vec<String> = found.iter().map(RawField::line).collect();
        assert_eq!(
            found,
            [
                "monsters[1]: {\"hp\":5} -> (absent)",
                "player.hp: 10 -> 9",
                "player.pos.y: 4 -> 5",
            ]
        );
    }
}
