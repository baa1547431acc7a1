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

/// A monster's name is free text from a content file: it reaches the SVG
/// and the page as text, never as markup.
#[test]
fn names_from_the_reports_are_escaped() {
    let dir = scratch("escaped");
    let mut e = json(&dir.join("e.json"));
    let name = "<b>\"Bob\" & 'the' imp</b>";
    e["summary"]["bot"]["by_depth"]["1"]["killers"][name] = 50.into();
    std::fs::write(dir.join("odd.json"), e.to_string()).expect("written");
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
    let cases: [(&[&str], i32, &str); 6] = [
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
