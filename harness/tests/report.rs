//! `deja report` over real sweeps: the SVG parses and holds every chart with
//! its series, the page is self-contained, the output is the same bytes
//! every time, text from the reports is escaped, and bad input is refused
//! with a message that names it.

mod support;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use support::{assert_exit, run as deja, text};

/// The charts' ids and the titles their captions start with, in order.
const CHARTS: [(&str, &str); 5] = [
    ("survival", "Survival by depth"),
    ("deaths", "Deaths by cause and depth"),
    ("danger", "Danger of monsters met, by depth"),
    ("hit-points", "Hit points on entering each floor"),
    ("items", "Items found and used per depth"),
];

/// A directory holding `e.json` and `r.json`, the explorer's and the random
/// bot's sweeps of seeds 1..41, made once for every test here.
fn sweeps() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = support::scratch("report", "sweeps");
        for (bot, file) in [("explorer", "e.json"), ("random", "r.json")] {
            let out = deja(
                &[
                    "sweep", "-q", "--seeds", "1..41", "--bot", bot, "--format", "json", "-o", file,
                ],
                &dir,
            );
            assert_exit(&out, 0);
        }
        dir
    })
}

/// A scratch directory with copies of the sweeps.
fn scratch(name: &str) -> PathBuf {
    let dir = support::scratch("report", name);
    for file in ["e.json", "r.json"] {
        std::fs::copy(sweeps().join(file), dir.join(file)).expect("a copy");
    }
    dir
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("written")).expect("JSON")
}

/// The text of every `<text>` under `node`, trimmed.
fn texts(node: roxmltree::Node) -> Vec<String> {
    node.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect()
}

/// The chart `<svg id="chart-ID">` of a report.
fn chart<'a>(doc: &'a roxmltree::Document, id: &str) -> roxmltree::Node<'a, 'a> {
    let id = format!("chart-{id}");
    doc.descendants()
        .find(|n| n.has_tag_name("svg") && n.attribute("id") == Some(id.as_str()))
        .unwrap_or_else(|| panic!("no <svg id={id:?}>"))
}

#[test]
fn the_svg_holds_every_chart_with_its_series() {
    let dir = scratch("svg");
    let out = deja(&["report", "e.json", "r.json", "-o", "report.svg"], &dir);
    assert_exit(&out, 0);
    let svg = std::fs::read_to_string(dir.join("report.svg")).expect("written");
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is well-formed XML");
    assert!(doc.root_element().has_tag_name("svg"));
    for (id, title) in CHARTS {
        let chart = chart(&doc, id);
        let texts = texts(chart);
        assert!(
            texts.iter().any(|t| t.starts_with(title)),
            "{title:?} not among the texts of chart {id}: {texts:?}"
        );
        assert!(
            texts.iter().any(|t| t == "depth" || t == "depth entered"),
            "chart {id} has no x axis label: {texts:?}"
        );
    }
    // Survival: a legend line per bot, and a line per bot with a point per
    // depth (the axis lines and legend samples have two points).
    let survival = chart(&doc, "survival");
    let legend = texts(survival);
    for bot in ["explorer", "random"] {
        assert!(
            legend.iter().any(|t| t.starts_with(bot)),
            "no {bot} series: {legend:?}"
        );
    }
    let e = json(&dir.join("e.json"));
    let depths = e["spec"]["depths"]["last"].as_u64().expect("depths");
    let lines: Vec<usize> = survival
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .map(|n| {
            n.attribute("points")
                .unwrap_or("")
                .split_whitespace()
                .count()
        })
        .filter(|&points| points > 2)
        .collect();
    assert_eq!(
        lines,
        vec![depths as usize; 2],
        "two survival lines, one point per depth"
    );
    // Deaths: the explorer's, stacked by the kinds that killed its runs.
    let deaths = texts(chart(&doc, "deaths"));
    assert!(
        deaths.iter().any(|t| t.contains("(explorer")),
        "the explorer's deaths are drawn: {deaths:?}"
    );
    let killers: Vec<String> = e["summary"]["bot"]["by_depth"]
        .as_object()
        .expect("by_depth")
        .values()
        .flat_map(|d| d["killers"].as_object().expect("killers").keys().cloned())
        .collect();
    assert!(!killers.is_empty(), "the explorer died in 40 seeds");
    assert!(
        killers.iter().any(|k| deaths.contains(k)),
        "none of {killers:?} in the deaths chart's legend: {deaths:?}"
    );
    assert!(
        deaths.iter().any(|t| t.contains("% of the runs entering")),
        "{deaths:?}"
    );
    let danger = texts(chart(&doc, "danger"));
    for wanted in ["depth + 2", "out-of-depth monster"] {
        assert!(
            danger.iter().any(|t| t.contains(wanted)),
            "{wanted:?} not in {danger:?}"
        );
    }
}

#[test]
fn the_page_is_self_contained_with_charts_and_key_figures() {
    let dir = scratch("html");
    let out = deja(&["report", "e.json", "r.json", "-o", "report.html"], &dir);
    assert_exit(&out, 0);
    let html = std::fs::read_to_string(dir.join("report.html")).expect("written");
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    for (id, title) in CHARTS {
        assert!(
            html.contains(&format!("<svg id=\"chart-{id}\"")),
            "no inline chart {id}"
        );
        assert!(html.contains(title), "no {title:?}");
    }
    assert!(html.contains("<table class=\"figures\">"), "no key figures");
    for wanted in [
        "e.json",
        "r.json",
        "1..41",
        "<td>explorer</td>",
        "<td>random</td>",
        "left depth 1 alive",
        "top killer",
    ] {
        assert!(html.contains(wanted), "{wanted:?} not in the page");
    }
    // Nothing is fetched: no address at all, no script, no external file.
    for refused in ["http", "<script", "src=", "<link", "url("] {
        assert!(!html.contains(refused), "{refused:?} in the page");
    }
}

#[test]
fn the_same_sweeps_give_the_same_bytes() {
    let dir = scratch("same");
    for name in ["a", "b"] {
        for ext in ["svg", "html"] {
            let out = format!("{name}.{ext}");
            assert_exit(&deja(&["report", "e.json", "r.json", "-o", &out], &dir), 0);
        }
    }
    for ext in ["svg", "html"] {
        let a = std::fs::read(dir.join(format!("a.{ext}"))).expect("a");
        let b = std::fs::read(dir.join(format!("b.{ext}"))).expect("b");
        assert!(a == b, "two reports of the same sweeps differ ({ext})");
    }
}

/// `value` with the monster kind `kind` called `name` wherever the report
/// names it: as a killer, and at the end of a death's cause ("killed by an
/// orc"), in the summary and the results alike, so the report still adds up.
fn renamed(value: &serde_json::Value, kind: &str, name: &str) -> serde_json::Value {
    use serde_json::Value;
    let text = |s: &str| match s.strip_suffix(kind) {
        Some(head) if head.is_empty() || head.ends_with(' ') => format!("{head}{name}"),
        _ => s.to_string(),
    };
    match value {
        Value::String(s) => Value::String(text(s)),
        Value::Array(items) => Value::Array(items.iter().map(|v| renamed(v, kind, name)).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(k, v)| (text(k), renamed(v, kind, name)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A monster's name is free text from a content file: it reaches the SVG
/// and the page as text, never as markup.
#[test]
fn names_from_the_reports_are_escaped() {
    let dir = scratch("escaped");
    let e = json(&dir.join("e.json"));
    let name = "<b>\"Bob\" & 'the' imp</b>";
    let kind = e["summary"]["bot"]["by_depth"]
        .as_object()
        .expect("by_depth")
        .values()
        .flat_map(|d| d["killers"].as_object().expect("killers").keys())
        .next()
        .expect("the explorer died in 40 seeds")
        .clone();
    // Written with sorted keys, so its results come before its spec.
    let odd = renamed(&e, &kind, name);
    std::fs::write(dir.join("odd.json"), odd.to_string()).expect("written");
    for out in ["odd.svg", "odd.html"] {
        assert_exit(&deja(&["report", "odd.json", "-o", out], &dir), 0);
    }
    let svg = std::fs::read_to_string(dir.join("odd.svg")).expect("written");
    let doc = roxmltree::Document::parse(&svg).expect("well-formed");
    assert!(
        texts(chart(&doc, "deaths")).iter().any(|t| t == name),
        "the name is drawn as text"
    );
    let html = std::fs::read_to_string(dir.join("odd.html")).expect("written");
    assert!(!html.contains("<b>"), "markup from a report in the page");
    assert!(html.contains("&lt;b&gt;&quot;Bob&quot; &amp;"), "escaped");
}

#[test]
fn bad_input_is_refused_naming_it() {
    let dir = scratch("bad");
    std::fs::write(dir.join("junk.json"), "not json at all").expect("written");
    std::fs::write(dir.join("other.json"), "{\"format\": 3}").expect("written");
    // Past the 256 MiB a report may be (sparse: it takes no room).
    let huge = std::fs::File::create(dir.join("huge.json")).expect("made");
    huge.set_len(256 * 1024 * 1024 + 1).expect("sized");
    let cases: [(&[&str], i32, &str); 8] = [
        (
            &["report", "huge.json", "-o", "x.svg"],
            1,
            "huge.json: 268435457 bytes is over the 268435456-byte limit",
        ),
        (
            &["merge", "huge.json"],
            1,
            "huge.json: 268435457 bytes is over the 268435456-byte limit",
        ),
        (
            &["report", "missing.json", "-o", "x.svg"],
            1,
            "missing.json",
        ),
        (
            &["report", "e.json", "junk.json", "-o", "x.svg"],
            1,
            "junk.json",
        ),
        (&["report", "other.json", "-o", "x.html"], 1, "other.json"),
        (&["report", "e.json", "-o", "x.png"], 2, "x.png"),
        (&["report", "e.json", "-o", "x"], 2, ".svg or .html"),
        (
            &["report", "e.json", "-o", "no-such-dir/x.svg"],
            1,
            "no-such-dir",
        ),
    ];
    for (args, code, named) in cases {
        let out = deja(args, &dir);
        assert_exit(&out, code);
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(named),
            "{args:?}: {named:?} not in {stderr}"
        );
    }
    for bad in ["junk.json", "missing.json"] {
        let said = text(&deja(&["report", bad, "-o", "x.svg"], &dir).stderr);
        assert!(
            said.contains("deja sweep --format json"),
            "says what to give: {said}"
        );
    }
    for file in ["x.svg", "x.html", "x.png", "x"] {
        assert!(!dir.join(file).exists(), "{file} was written");
    }
}

/// Reports no sweep could write, among them those `deja report` once drew
/// ("1000.0% (20 of 2)", deaths on a depth nobody entered, a danger axis
/// to 4.5e9, seeds 100..1) and `merge` once took (depths 6..=1 and 0..=6, a
/// fingerprint that is not hex) or panicked over (sums past a u64): each is
/// refused by both, exit 1, naming the file and the figure, and nothing is
/// written. Edits of the summary are given with the report's results and
/// without them (the summary then bounded, as it cannot be recomputed).
#[test]
fn impossible_reports_are_refused_by_report_and_merge_naming_the_file_and_the_figure() {
    use serde_json::{Value, json};
    let dir = support::scratch("report", "impossible");
    // Two seeds, as in "20 of 2"; fifty keys, so no run gets near depth 6.
    let sweep = [
        "sweep",
        "-q",
        "--seeds",
        "1..3",
        "--keys",
        "50",
        "--format",
        "json",
        "-o",
        "base.json",
    ];
    assert_exit(&deja(&sweep, &dir), 0);
    let base = json(&dir.join("base.json"));
    assert!(
        base["summary"]["bot"]["by_depth"].get("6").is_none(),
        "no run entered depth 6"
    );
    type Edit = fn(&mut Value);
    let summary_edits: [(&str, Edit, &str); 4] = [
        (
            "wins",
            |r| r["summary"]["bot"]["wins"] = json!(20),
            "summary.bot.wins is 20",
        ),
        (
            "deaths",
            |r| {
                r["summary"]["bot"]["by_depth"]["6"] = json!({
                    "entered": 0, "died": 3, "killers": {"orc": 3}, "hp_on_arrival": 0,
                    "hp_deciles": {}, "met": {}, "items_found": 0, "items_used": 0, "kills": 0
                })
            },
            "summary.bot.by_depth.6.died is 3",
        ),
        (
            "danger",
            |r| r["summary"]["bot"]["by_depth"]["1"]["met"]["4294967295"] = json!(1),
            "summary.bot.by_depth.1.met",
        ),
        (
            "out-of-depth",
            |r| r["summary"]["depths"]["1"]["out_of_depth"] = json!(20),
            "summary.depths.1.out_of_depth is 20",
        ),
    ];
    let report_edits: [(&str, Edit, &str); 8] = [
        (
            "met",
            |r| {
                let met = r["results"][0]["bot"]["floors"][0]["met"].as_array_mut();
                met.expect("met").push(json!(4294967295u32));
            },
            "results, seed 1: bot.floors[0].met holds a danger of 4294967295",
        ),
        (
            "seeds",
            |r| r["spec"]["seeds"] = json!({"start": 100, "end": 1}),
            "spec.seeds is 100..1",
        ),
        (
            "depths-backwards",
            |r| r["spec"]["depths"] = json!({"first": 6, "last": 1}),
            "spec.depths is 6..=1",
        ),
        (
            "depths-from-0",
            |r| r["spec"]["depths"] = json!({"first": 0, "last": 6}),
            "spec.depths is 0..=6",
        ),
        (
            "fingerprint",
            |r| r["content"] = json!("5f0ae2c84c78zzzz"),
            "content is \"5f0ae2c84c78zzzz\"",
        ),
        (
            "format",
            |r| r["format"] = json!(2),
            "a sweep report of format 2",
        ),
        (
            "revealed",
            |r| r["results"][0]["bot"]["revealed"] = json!(1u64 << 63),
            "results, seed 1: bot.revealed is 9223372036854775808",
        ),
        (
            "floor-depth",
            |r| r["results"][0]["floors"][0]["depth"] = json!(u32::MAX),
            "results, seed 1: floors[0].depth is 4294967295",
        ),
    ];
    // Each is written twice: in the order a sweep writes a report's fields,
    // and with its keys sorted (results before the spec), as a tool that
    // edits JSON may write it; the two are read by different paths.
    let mut files = Vec::new();
    let mut write = |name: String, report: &Value, figure: &'static str| {
        let typed: harness::sweep::SweepReport =
            serde_json::from_value(report.clone()).expect("an edit within the types");
        let sorted = serde_json::to_string_pretty(report).expect("JSON");
        for (file, text) in [
            (format!("{name}.json"), harness::sweep::to_json(&typed)),
            (format!("{name}-sorted.json"), sorted),
        ] {
            std::fs::write(dir.join(&file), text).expect("written");
            files.push((file, figure));
        }
    };
    for (name, edit, figure) in summary_edits {
        let mut report = base.clone();
        edit(&mut report);
        write(name.to_string(), &report, figure);
        report["results"] = json!([]);
        write(format!("{name}-alone"), &report, figure);
    }
    for (name, edit, figure) in report_edits {
        let mut report = base.clone();
        edit(&mut report);
        write(name.to_string(), &report, figure);
    }
    // The report they were made from is drawn and merged.
    assert_exit(&deja(&["report", "base.json", "-o", "base.svg"], &dir), 0);
    assert_exit(&deja(&["merge", "base.json", "-o", "merged.json"], &dir), 0);
    let mut wrong = Vec::new();
    for (file, figure) in &files {
        let svg = file.replace(".json", ".svg");
        let out = file.replace(".json", "-merged.json");
        for args in [
            vec!["report", file.as_str(), "-o", svg.as_str()],
            vec!["merge", file.as_str(), "-o", out.as_str()],
        ] {
            let ran = deja(&args, &dir);
            let said = text(&ran.stderr);
            let named = format!("{file}: ");
            if ran.status.code() != Some(1)
                || !said.contains(&named)
                || !said.contains(figure)
                || support::debug_looking(&said).is_some()
            {
                wrong.push(format!(
                    "deja {}: exit {:?}, wanted 1 naming {named:?} and {figure:?}:\n{said}",
                    args.join(" "),
                    ran.status.code()
                ));
            }
        }
        for written in [&svg, &out] {
            if dir.join(written).exists() {
                wrong.push(format!("{written} was written"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} went wrong:\n\n{}",
        wrong.len(),
        files.len() * 2,
        wrong.join("\n\n")
    );
}

/// Reading a report holds one seed's result at a time: three reports of a
/// hundred thousand seeds (35 MB each) are drawn in what three of a
/// thousand take. (Read whole, as they once were, they took over 200 MB.)
/// The three are one sweep's report and two copies named as other games'
/// sweeps, as `report` draws a sweep once.
#[test]
fn reports_are_read_in_memory_flat_in_their_seeds() {
    let dir = support::scratch("report", "memory");
    let sweep = |seeds: &str, file: &str| {
        let args = [
            "sweep",
            "-q",
            "--seeds",
            seeds,
            "--depths",
            "1..=1",
            "--map-size",
            "20x12",
            "--bot",
            "none",
            "--format",
            "json",
            "-o",
            file,
        ];
        assert_exit(&deja(&args, &dir), 0);
    };
    // Copied, and the game's name's last letter changed in place, so the
    // test holds none of a report in its own memory (which a child's peak
    // may count from before it starts its own program).
    let copies = |file: &str| {
        use std::io::{Read, Seek, Write};
        ["b", "c"].map(|copy| {
            let name = format!("{copy}-{file}");
            std::fs::copy(dir.join(file), dir.join(&name)).expect("copied");
            let mut out = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(dir.join(&name))
                .expect("opened");
            let mut head = [0; 256];
            out.read_exact(&mut head).expect("a report's start");
            let head = String::from_utf8_lossy(&head);
            let game = head.find("\"game\": \"").expect("the game's name") + "\"game\": \"".len();
            let last = game + head[game..].find('"').expect("its end") - 1;
            out.seek(std::io::SeekFrom::Start(last as u64))
                .expect("seek");
            out.write_all(copy.as_bytes()).expect("written");
            name
        })
    };
    sweep("1..1001", "few.json");
    sweep("1..100001", "many.json");
    let peak = |file: &str| {
        let [b, c] = copies(file);
        let args = ["report", file, &b, &c, "-o", "out.svg"];
        let (code, kb) = support::peak_kb_of(&args, &dir);
        assert_eq!(code, 0, "report {file}");
        kb
    };
    let few = peak("few.json");
    let many = peak("many.json");
    let bytes = std::fs::metadata(dir.join("many.json"))
        .expect("written")
        .len();
    assert!(bytes > 30_000_000, "{bytes} bytes");
    assert!(
        many < 50 * 1024,
        "{many} kB at the peak for 3 x {bytes} bytes"
    );
    assert!(
        many < few + 8 * 1024,
        "{many} kB at the peak for 100,000 seeds, {few} kB for 1,000"
    );
    for file in ["many.json", "b-many.json", "c-many.json"] {
        std::fs::remove_file(dir.join(file)).expect("removed");
    }
}

/// The sweep's text summary and the balance report name the same top
/// killer with the same count: both count a death against the kind of
/// monster whose blow or poison it was. And the summary's deaths, killer by
/// killer and in its "and N more" line, add up to the runs that died.
#[test]
fn the_summary_and_the_report_name_the_same_top_killer() {
    let dir = scratch("killers");
    let sweep = [
        "sweep", "--seeds", "1..41", "--bot", "explorer", "--format", "json", "-o", "k.json",
    ];
    let out = deja(&sweep, &dir);
    assert_exit(&out, 0);
    let summary = text(&out.stdout);
    let report = json(&dir.join("k.json"));
    let died = report["summary"]["bot"]["outcomes"]["died"]
        .as_u64()
        .expect("the outcomes count deaths");
    assert!(died > 0, "no run died in 40 explorer runs: {summary}");
    let lines: Vec<&str> = summary.lines().collect();
    let heading = lines
        .iter()
        .position(|l| l.starts_with("  deaths by killer ("))
        .unwrap_or_else(|| panic!("no deaths by killer in {summary}"));
    assert!(
        lines[heading].contains("the kind of monster whose blow or poison the death was"),
        "the summary says what a killer is: {}",
        lines[heading]
    );
    // "    17 basilisk (12 killed by a basilisk, 5 died of poison from a basilisk)"
    let killer_lines: Vec<&str> = lines[heading + 1..]
        .iter()
        .take_while(|l| l.starts_with("    ") && !l.starts_with("    and "))
        .copied()
        .collect();
    let count_and_kind = |line: &str| {
        let line = line.trim();
        let (n, rest) = line.split_once(' ').expect("a count and a kind");
        let kind = rest.split(" (").next().expect("a kind").to_string();
        (n.parse::<u64>().expect("a count"), kind)
    };
    let (top_n, top_kind) = count_and_kind(killer_lines[0]);
    let mut said: u64 = killer_lines.iter().map(|l| count_and_kind(l).0).sum();
    if let Some(more) = lines.get(heading + 1 + killer_lines.len())
        && let Some(rest) = more.strip_prefix("    and ")
    {
        said += rest
            .split(' ')
            .next()
            .and_then(|n| n.parse::<u64>().ok())
            .expect("and N more");
    }
    assert_eq!(
        said, died,
        "the deaths listed add up to the deaths: {summary}"
    );

    assert_exit(&deja(&["report", "k.json", "-o", "k.html"], &dir), 0);
    let html = std::fs::read_to_string(dir.join("k.html")).expect("written");
    let row = html
        .lines()
        .find(|l| l.starts_with("<tr><td>explorer</td><td class=\"n\">"))
        .unwrap_or_else(|| panic!("no key figures row in {html}"));
    let cells: Vec<&str> = row
        .split("<td class=\"n\">")
        .skip(1)
        .map(|c| c.split("</td>").next().expect("a cell"))
        .collect();
    // runs, won, left depth 1 alive, worst depth, top killer's share.
    let top = cells[4];
    assert!(
        top.starts_with(&format!("{top_kind}: ")) && top.contains(&format!("({top_n} of {died})")),
        "the report's top killer is {top:?}, the summary's {top_n} {top_kind}"
    );
    assert!(
        html.contains("the kind of monster whose blow or poison the death was"),
        "the page says what a killer is"
    );
}

/// A report of format 3, from before `--turns` became `--keys` and the
/// summary counted how every run ended, is refused by `report` and `merge`
/// alike, naming the file and saying to sweep again; nothing is written.
#[test]
fn a_report_of_the_older_format_is_refused_naming_the_file_and_what_to_do() {
    let dir = scratch("older");
    let mut old = json(&dir.join("e.json"));
    old["format"] = serde_json::json!(3);
    let spec = old["spec"].as_object_mut().expect("a spec");
    let keys = spec.remove("keys").expect("spec.keys");
    spec.insert("turns".into(), keys);
    old["summary"]["bot"]
        .as_object_mut()
        .expect("the bot's summary")
        .remove("outcomes");
    std::fs::write(dir.join("old.json"), old.to_string()).expect("written");
    for args in [
        &["report", "old.json", "-o", "old.html"][..],
        &["merge", "old.json", "-o", "merged.json"],
    ] {
        let out = deja(args, &dir);
        assert_exit(&out, 1);
        let stderr = text(&out.stderr);
        for wanted in [
            "old.json: a sweep report of format 3, written by an older deja",
            "this deja reads format 5",
            "sweep again with this deja",
        ] {
            assert!(
                stderr.contains(wanted),
                "{args:?}: {wanted:?} not in {stderr}"
            );
        }
    }
    for file in ["old.html", "merged.json"] {
        assert!(!dir.join(file).exists(), "{file} was written");
    }
}

/// One sweep given twice, as the same file or as a copy of it, is drawn
/// by `report` no more than `merge` adds it up twice: both refuse it with
/// the same words, naming the files, and nothing is written.
#[test]
fn a_sweep_given_twice_is_refused_by_report_as_by_merge() {
    let dir = scratch("twice");
    std::fs::copy(dir.join("e.json"), dir.join("copy.json")).expect("a copy");
    let cases: [(&[&str], &str); 3] = [
        (
            &["e.json", "e.json"],
            "e.json: given twice; give each report once",
        ),
        (
            &["e.json", "r.json", "copy.json"],
            "copy.json: the same sweep as e.json (the explorer sweep of seeds 1..41), given twice; give each report once",
        ),
        (
            &["r.json", "e.json", "r.json"],
            "r.json: given twice; give each report once",
        ),
    ];
    for (files, said) in cases {
        let report = deja(&[&["report"][..], files, &["-o", "x.svg"]].concat(), &dir);
        let merge = deja(&[&["merge"][..], files, &["-o", "x.json"]].concat(), &dir);
        for out in [&report, &merge] {
            assert_exit(out, 1);
            assert_eq!(text(&out.stderr), format!("error: {said}\n"), "{files:?}");
        }
        for written in ["x.svg", "x.json"] {
            assert!(!dir.join(written).exists(), "{written} was written");
        }
    }
}
