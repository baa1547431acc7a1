//! The balance report (`deja report`): charts drawn from sweep reports, as
//! one SVG or a self-contained HTML page.
//!
//! Pure: sweep reports in, text out. No clock, no file, no environment, and
//! every map is a `BTreeMap`, so the same reports give the same bytes. Every
//! text taken from a report (file names, monster kinds, the game's name) is
//! escaped where it is written: plotters escapes what it draws, and the
//! page and the SVG's own header go through [`escape`].

use std::collections::BTreeMap;
use std::fmt::Write as _;

use plotters::style::RGBColor;

use crate::sweep::bots::BotKind;
use crate::sweep::{self, BotSummary, DepthPlay, SweepReport};

mod drawing;
mod numbers;
mod tables;

use crate::plumbing::error::Error;
use drawing::{Points, depths, draw_all, nested};
use numbers::{clean, ratio};
use tables::{capitalized, figures_table, reach_table, sources_table};

/// A sweep report and the name it was read from (the path as given).
pub struct Source {
    pub name: String,
    /// Its results need not be held: what the charts take from them is
    /// `most_hp`.
    pub report: SweepReport,
    /// The most hit points any run arrived on a floor with, from the
    /// report's results when it has them.
    pub most_hp: Option<i32>,
}

/// The charts, in the order they are drawn: an id (for the SVG element and
/// the page's anchors) and the title each chart's caption starts with.
pub const CHARTS: [(&str, &str); 5] = [
    ("survival", "Survival by depth"),
    ("deaths", "Deaths by cause and depth"),
    ("danger", "Danger of monsters met, by depth"),
    ("hit-points", "Hit points on entering each floor"),
    ("items", "Items found and used per depth"),
];

/// The size of one chart, and of its legend on the right.
const WIDTH: u32 = 1000;
const HEIGHT: u32 = 440;
const LEGEND_WIDTH: u32 = 270;
/// The SVG's header above the charts.
const HEADER: u32 = 64;

/// Monster kinds drawn apart in the deaths chart; the rest share a bar.
const KINDS_SHOWN: usize = 8;

/// Tableau 10: told apart by most readers, printed or on screen.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x4E, 0x79, 0xA7),
    RGBColor(0xF2, 0x8E, 0x2B),
    RGBColor(0xE1, 0x57, 0x59),
    RGBColor(0x76, 0xB7, 0xB2),
    RGBColor(0x59, 0xA1, 0x4F),
    RGBColor(0xED, 0xC9, 0x48),
    RGBColor(0xB0, 0x7A, 0xA1),
    RGBColor(0xFF, 0x9D, 0xA7),
    RGBColor(0x9C, 0x75, 0x5F),
    RGBColor(0xBA, 0xB0, 0xAC),
];
const INK: RGBColor = RGBColor(0x33, 0x33, 0x33);
const GREY: RGBColor = RGBColor(0x88, 0x88, 0x88);

/// Refuses a report this deja cannot draw, naming the file and the figure
/// and what to do: every figure drawn is recomputed from the report's
/// results where it holds them, and bounded where it does not (see
/// `sweep::check`), so no chart shows what no sweep could give.
pub fn check(source: &Source) -> Result<(), Error> {
    sweep::check::in_memory(&source.name, &source.report).map(|_| ())
}

/// The report as one SVG: a header naming the sources, then every chart,
/// one under the other.
pub fn svg(sources: &[Source]) -> Result<String, Error> {
    let charts = draw_all(sources)?;
    let height = HEADER + HEIGHT * charts.len() as u32;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&page_title(sources)));
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#FFFFFF"/>"##
    );
    let _ = writeln!(
        out,
        r#"<text x="20" y="28" font-family="sans-serif" font-size="20" font-weight="bold" fill="{INK_HEX}">{}</text>"#,
        escape(&page_title(sources))
    );
    let _ = writeln!(
        out,
        r#"<text x="20" y="50" font-family="sans-serif" font-size="12" fill="{INK_HEX}">{}</text>"#,
        escape(&sources_line(sources))
    );
    for (i, (chart, (id, title))) in charts.iter().zip(CHARTS).enumerate() {
        let y = HEADER + HEIGHT * i as u32;
        out.push_str(&nested(chart, id, title, Some(y))?);
    }
    out.push_str("</svg>\n");
    Ok(out)
}

/// The report as a self-contained page: what was read, a table of the key
/// figures per report, and the charts as inline SVG. No script, no style
/// sheet or font from elsewhere.
pub fn html(sources: &[Source]) -> Result<String, Error> {
    let charts = draw_all(sources)?;
    let title = escape(&page_title(sources));
    let mut out = String::new();
    let _ = writeln!(out, "<!DOCTYPE html>");
    let _ = writeln!(out, r#"<html lang="en">"#);
    let _ = writeln!(out, "<head>");
    let _ = writeln!(out, r#"<meta charset="utf-8">"#);
    let _ = writeln!(out, "<title>{title}</title>");
    let _ = writeln!(out, "<style>{STYLE}</style>");
    let _ = writeln!(out, "</head>");
    let _ = writeln!(out, "<body>");
    let _ = writeln!(out, "<h1>{title}</h1>");
    let _ = writeln!(
        out,
        "<p>Drawn by <code>deja report</code> from {} sweep {}. Each bot's figures are over its runs; a floor's figures are over the floors generated.</p>",
        sources.len(),
        if sources.len() == 1 {
            "report"
        } else {
            "reports"
        }
    );
    out.push_str(&sources_table(sources));
    out.push_str(&figures_table(sources));
    out.push_str(&reach_table(sources));
    let _ = writeln!(
        out,
        "<p>Deaths are counted by killer, as <code>deja sweep</code>'s summary counts them: {}, so a kind's deaths are its blows' and its poison's together.</p>",
        sweep::KILLER_MEANS
    );
    let _ = writeln!(out, "<h2>Charts</h2>");
    for (chart, (id, title)) in charts.iter().zip(CHARTS) {
        let _ = writeln!(out, r#"<figure id="{id}">"#);
        out.push_str(&nested(chart, id, title, None)?);
        let _ = writeln!(out, "</figure>");
    }
    let _ = writeln!(out, "</body>");
    let _ = writeln!(out, "</html>");
    Ok(out)
}

const INK_HEX: &str = "#333333";

const STYLE: &str = "body{font-family:sans-serif;color:#333;margin:2em;max-width:1040px}\
table{border-collapse:collapse;margin:0.5em 0 1.5em}\
th,td{border:1px solid #ccc;padding:0.25em 0.6em;text-align:left;vertical-align:top}\
th{background:#f2f2f2}td.n{text-align:right}\
figure{margin:1em 0}svg{max-width:100%;height:auto}";

/// "Undercroft balance report: explorer, random".
fn page_title(sources: &[Source]) -> String {
    let game = sources
        .first()
        .and_then(|s| s.report.game.split_whitespace().next())
        .map_or_else(|| "Undercroft".to_string(), capitalized);
    let labels = labels(sources);
    format!("{game} balance report: {}", labels.join(", "))
}

/// One line naming every source: "explorer: e.json, seeds 1..41; ...".
fn sources_line(sources: &[Source]) -> String {
    let labels = labels(sources);
    sources
        .iter()
        .zip(&labels)
        .map(|(s, label)| {
            format!(
                "{label}: {}, seeds {}{}",
                clean(&s.name),
                s.report.spec.seeds,
                shard_text(&s.report)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn shard_text(report: &SweepReport) -> String {
    let shard = report
        .spec
        .shard
        .map_or_else(String::new, |s| format!(" shard {}/{}", s.index, s.count));
    let cut = report.incomplete.as_ref().map_or_else(String::new, |cut| {
        format!(" (incomplete: {} of {} seeds)", cut.covered, cut.of)
    });
    shard + &cut
}

/// Each source's label: its bot's name, with the file's name added where
/// two sources have the same bot.
fn labels(sources: &[Source]) -> Vec<String> {
    let mut count = BTreeMap::<&str, usize>::new();
    for s in sources {
        *count.entry(sweep::bot_name(s.report.spec.bot)).or_default() += 1;
    }
    sources
        .iter()
        .map(|s| {
            let bot = sweep::bot_name(s.report.spec.bot);
            if count[bot] > 1 {
                format!("{bot} ({})", clean(&s.name))
            } else {
                bot.to_string()
            }
        })
        .collect()
}

/// A source whose bot played: the series it gives.
struct Played<'a> {
    label: String,
    color: RGBColor,
    source: &'a Source,
    bot: &'a BotSummary,
}

impl Played<'_> {
    fn play(&self, depth: u32) -> Option<&DepthPlay> {
        self.bot.by_depth.get(&depth)
    }

    /// `per(depth)` over the runs that entered each depth, where any did.
    fn per_entering(&self, per: impl Fn(&DepthPlay) -> u64) -> Points {
        depths()
            .filter_map(|d| {
                let play = self.play(d).filter(|p| p.entered > 0)?;
                Some((f64::from(d), ratio(per(play), play.entered)))
            })
            .collect()
    }
}

fn played(sources: &[Source]) -> Vec<Played<'_>> {
    let labels = labels(sources);
    sources
        .iter()
        .zip(labels)
        .enumerate()
        .filter_map(|(i, (source, label))| {
            let bot = source.report.summary.bot.as_ref()?;
            (source.report.spec.bot != BotKind::None && bot.runs > 0).then(|| Played {
                label,
                color: PALETTE[i % PALETTE.len()],
                source,
                bot,
            })
        })
        .collect()
}

/// `text` safe in HTML and XML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in clean(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::drawing::charts;
    use super::*;

    use crate::sweep::{DepthRange, REPORT_FORMAT, SeedRange, Summary, SweepSpec};

    fn source(bot: BotKind, summary: Summary) -> Source {
        Source {
            name: "a.json".into(),
            report: SweepReport {
                format: REPORT_FORMAT,
                game: "undercroft 0.1.0".into(),
                content: "0123456789abcdef".into(),
                spec: SweepSpec {
                    seeds: SeedRange { start: 1, end: 3 },
                    depths: DepthRange { first: 1, last: 6 },
                    bot,
                    keys: 10,
                    map_width: 80,
                    map_height: 40,
                    canaries: Vec::new(),
                    shard: None,
                    progress_limit: 200,
                },
                incomplete: None,
                summary,
                results: Vec::new(),
            },
            most_hp: None,
        }
    }

    /// Figures no sweep writes (runs that entered nowhere, more deaths than
    /// runs, counts near the top of a u64) are refused, naming the figure;
    /// and drawn anyway, they are drawn, not a panic.
    #[test]
    fn figures_out_of_all_proportion_are_refused_and_would_not_panic() {
        let huge = DepthPlay {
            entered: 1,
            died: u64::MAX,
            killers: BTreeMap::from([("orc".to_string(), u64::MAX), ("imp".to_string(), 3)]),
            hp_on_arrival: u64::MAX,
            hp_deciles: BTreeMap::new(),
            met: BTreeMap::from([(u32::MAX, u64::MAX), (1, u64::MAX)]),
            items_found: u64::MAX,
            items_used: 0,
            kills: 0,
        };
        let bot = BotSummary {
            runs: 1,
            wins: u64::MAX,
            by_depth: BTreeMap::from([(1, huge), (2, DepthPlay::default())]),
            ..BotSummary::default()
        };
        let odd = source(
            BotKind::Explorer,
            Summary {
                seeds: 1,
                floors: 6,
                bot: Some(bot),
                ..Summary::default()
            },
        );
        let err = check(&odd).unwrap_err().to_string();
        assert!(err.starts_with("a.json: summary."), "{err}");
        assert!(err.contains("sweep again with this deja"), "{err}");
        let none = source(BotKind::None, Summary::default());
        for sources in [vec![odd], vec![none]] {
            let charts = charts(&sources).expect("drawn");
            assert_eq!(charts.len(), CHARTS.len());
            assert!(figures_table(&sources).contains("<table class=\"figures\">"));
        }
    }

    #[test]
    fn a_report_of_another_format_is_refused() {
        let mut old = source(BotKind::None, Summary::default());
        old.report.format = REPORT_FORMAT - 1;
        let err = check(&old).unwrap_err().to_string();
        assert!(err.starts_with("a.json: a sweep report of format"), "{err}");
        assert!(err.contains("sweep again"), "{err}");
    }

    #[test]
    fn escape_leaves_no_markup_and_no_character_xml_refuses() {
        assert_eq!(
            escape("<b>\"orc\" & 'imp'</b>\u{1}"),
            "&lt;b&gt;&quot;orc&quot; &amp; &#39;imp&#39;&lt;/b&gt;?"
        );
    }
}
