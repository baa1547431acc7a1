//! `deja bench`: one table of figures, and the same rows in its JSON record.
//! Nothing here is timed: the figures only have to be figures.

mod support;

use std::collections::BTreeMap;

use support::{assert_exit, assert_says, run, text};

/// The table's rows: the lines between the header and the blank line
/// before the notes.
fn table_rows(table: &str) -> Vec<&str> {
    let mut lines = table.lines();
    let header = lines.next().expect("a header");
    assert!(header.starts_with("figure "), "{table}");
    assert!(
        header.contains("median") && header.contains("min") && header.contains("max"),
        "{header}"
    );
    lines.take_while(|line| !line.is_empty()).collect()
}

/// A number as the table writes it: thousands separated by commas.
fn number(cell: &str) -> f64 {
    cell.replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("{cell:?} is not a number"))
}

#[test]
fn a_quick_subset_prints_each_row_once_and_the_json_record_carries_the_same_rows() {
    let dir = support::scratch("bench", "subset");
    let selected = "explorer,floors,replay,press,fuzz,memory,recording";
    let out = run(
        &[
            "bench",
            "--only",
            selected,
            "--keys",
            "300",
            "--runs",
            "2",
            "--sweep-runs",
            "1",
            "--explorer-seeds",
            "1..3",
            "--floor-seeds",
            "1..5",
            "--memory-seeds",
            "20",
            "--memory-runs",
            "2",
            "--fuzz-inputs",
            "10",
            "--press-seeds",
            "1",
            "--format",
            "json",
            "-o",
            "bench.json",
        ],
        &dir,
    );
    // Exit 0, and no Debug dump in what it says.
    assert_exit(&out, 0);
    let table = text(&out.stdout);
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("bench.json")).unwrap())
            .expect("the record is JSON");
    let rows = record["rows"].as_array().expect("rows");
    // Every figure asked for, with its rows; no other.
    let mut per_figure = BTreeMap::new();
    for row in rows {
        *per_figure
            .entry(row["figure"].as_str().expect("a figure").to_string())
            .or_insert(0) += 1;
    }
    let expected: BTreeMap<String, i32> = [
        ("explorer", 1),
        ("floors", 1),
        ("replay", 1),
        ("press", 1),
        ("fuzz", 1),
        ("memory", 2),
        ("recording", 4),
    ]
    .into_iter()
    .map(|(figure, rows)| (figure.to_string(), rows))
    .collect();
    assert_eq!(per_figure, expected, "{table}");
    let lines = table_rows(&table);
    assert_eq!(lines.len(), rows.len(), "{table}");
    for row in rows {
        let name = row["name"].as_str().expect("a name");
        let (median, min, max) = (
            row["median"].as_f64().expect("a median"),
            row["min"].as_f64().expect("a min"),
            row["max"].as_f64().expect("a max"),
        );
        assert!(median > 0.0, "{name}: median {median}");
        assert!(
            min <= median && median <= max,
            "{name}: {min} {median} {max}"
        );
        let samples = row["samples"].as_array().expect("samples");
        assert_eq!(row["runs"].as_u64(), Some(samples.len() as u64), "{name}");
        assert!(!row["unit"].as_str().expect("a unit").is_empty(), "{name}");
        match row["target"].as_object() {
            Some(target) => assert!(row["met"].is_boolean(), "{name}: {target:?}"),
            None => assert!(row["met"].is_null(), "{name}"),
        }
        // Once in the table, with the record's median, min and max as
        // rounded for people.
        let matching: Vec<&&str> = lines
            .iter()
            .filter(|line| line.starts_with(&format!("{name}  ")))
            .collect();
        assert_eq!(matching.len(), 1, "{name} in\n{table}");
        let cells: Vec<&str> = matching[0][name.len()..].split_whitespace().collect();
        for (cell, value) in cells.iter().take(3).zip([median, min, max]) {
            let shown = number(cell);
            let decimals = cell.split_once('.').map_or(0, |(_, f)| f.len());
            let step = 10f64.powi(-i32::try_from(decimals).unwrap());
            assert!(
                (shown - value).abs() <= step / 2.0 + 1e-9,
                "{name}: the table says {cell}, the record {value}"
            );
        }
        assert_eq!(number(cells[3]), samples.len() as f64, "{name}: runs");
        let note = row["note"].as_str().expect("a note");
        assert!(table.contains(&format!("  {name}: {note}")), "{name}");
    }
}

/// Where the JSON record and the table go: `--format json` alone puts the
/// record on standard output and the table on standard error; `--json FILE`
/// (the same as `--format json -o FILE`) writes the record and keeps the
/// table on standard output; both spellings at once are refused.
#[test]
fn the_record_goes_where_it_is_asked_and_the_table_where_it_is_read() {
    let dir = support::scratch("bench", "record");
    let quick_replay = |extra: &[&str]| {
        let mut args = vec!["bench", "--only", "replay", "--keys", "100", "--runs", "1"];
        args.extend_from_slice(extra);
        run(&args, &dir)
    };
    let unit_of = |record: &[u8]| {
        let record: serde_json::Value = serde_json::from_slice(record).expect("the JSON record");
        record["rows"][0]["unit"].clone()
    };
    let table_row = "replay, a hash at every step  ";

    let out = quick_replay(&["--format", "json"]);
    assert_exit(&out, 0);
    assert_eq!(
        unit_of(&out.stdout),
        "steps/s",
        "standard output is the record alone"
    );
    assert!(text(&out.stderr).contains(table_row));

    let out = quick_replay(&["--json", "b.json"]);
    assert_exit(&out, 0);
    assert!(text(&out.stdout).contains(table_row));
    let written = std::fs::read(dir.join("b.json")).expect("b.json written");
    assert_eq!(unit_of(&written), "steps/s");

    let out = quick_replay(&["--json", "c.json", "-o", "d.json"]);
    assert_exit(&out, 2);
    assert!(!dir.join("c.json").exists() && !dir.join("d.json").exists());
}

#[test]
fn a_bad_figure_or_output_is_refused() {
    let dir = support::scratch("bench", "refused");
    let out = run(&["bench", "--only", "replay,warp"], &dir);
    assert_exit(&out, 2);
    assert_says(&out, "warp");
    assert_says(&out, "explorer");
    assert_exit(&run(&["bench", "--only", ""], &dir), 2);
    assert_exit(&run(&["bench", "--sweep-runs", "0"], &dir), 2);
    let out = run(&["bench", "--only", "replay", "-o", "b.json"], &dir);
    assert_exit(&out, 1);
    assert_says(&out, "--format json");
}
