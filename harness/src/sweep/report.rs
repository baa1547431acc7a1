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

use game_core::mapgen::LAST_DEPTH;
use plotters::prelude::*;

use crate::sweep::bots::BotKind;
use crate::sweep::{self, BotSummary, DepthPlay, OUT_OF_DEPTH, SweepReport};

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
pub fn check(source: &Source) -> Result<(), String> {
    sweep::check::in_memory(&source.name, &source.report).map(|_| ())
}

/// The report as one SVG: a header naming the sources, then every chart,
/// one under the other.
pub fn svg(sources: &[Source]) -> Result<String, String> {
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
pub fn html(sources: &[Source]) -> Result<String, String> {
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

/// The depths a bot plays through: every floor of the game (a sweep's
/// `--depths` limits the floors it checks, not how deep its bot goes).
fn depths() -> std::ops::RangeInclusive<u32> {
    1..=LAST_DEPTH
}

fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    ratio(part, whole) * 100.0
}

/// How a series is drawn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// A line with a dot at each point.
    Line,
    /// A dashed line (references and second figures).
    Dashed,
    /// Dots only.
    Dots,
    /// A box (a bar's colour, in the legend).
    Box,
}

/// A series' points: (depth, value).
type Points = Vec<(f64, f64)>;

struct Series {
    label: String,
    color: RGBColor,
    mark: Mark,
    points: Points,
    /// On the right-hand axis.
    secondary: bool,
}

struct Bar {
    depth: u32,
    from: f64,
    to: f64,
    color: RGBColor,
}

/// How an axis' numbers are written.
#[derive(Clone, Copy)]
enum Numbers {
    Whole,
    Tenths,
}

impl Numbers {
    fn write(self, v: f64) -> String {
        match self {
            // Only whole numbers: a tick between two is left unlabelled.
            Numbers::Whole if (v - v.round()).abs() > 1e-6 => String::new(),
            Numbers::Whole => format!("{v:.0}"),
            Numbers::Tenths => format!("{v:.1}"),
        }
    }
}

/// One chart, ready to draw.
struct Figure {
    title: String,
    y_desc: String,
    y_numbers: Numbers,
    y_max: f64,
    /// The right-hand axis: what it says and its top.
    y2: Option<(String, f64)>,
    /// A "won" column after the last depth.
    won: bool,
    series: Vec<Series>,
    bars: Vec<Bar>,
    /// Legend lines beside the series' own (the bars' colours).
    keys: Vec<(String, RGBColor, Mark)>,
    /// Said in the plot when it has nothing to show.
    empty: Option<String>,
}

impl Figure {
    fn new(title: String, y_desc: &str, y_numbers: Numbers) -> Figure {
        Figure {
            title,
            y_desc: y_desc.to_string(),
            y_numbers,
            y_max: 1.0,
            y2: None,
            won: false,
            series: Vec::new(),
            bars: Vec::new(),
            keys: Vec::new(),
            empty: None,
        }
    }

    /// The top of the left axis: a little above the highest value, and at
    /// least `floor`.
    fn fit_y(&mut self, floor: f64) {
        let highest = self
            .series
            .iter()
            .filter(|s| !s.secondary)
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .chain(self.bars.iter().map(|b| b.to))
            .fold(0.0f64, f64::max);
        self.y_max = (highest * 1.1).max(floor);
    }

    /// A chart with nothing to draw says why, over an axis of 0 to 10.
    fn nothing(&mut self, why: &str) {
        self.empty = Some(why.to_string());
        self.y_max = self.y_max.max(10.0);
    }
}

/// Every chart of the report, each as a whole SVG document.
fn draw_all(sources: &[Source]) -> Result<Vec<String>, String> {
    if sources.is_empty() {
        return Err("no sweep reports to draw".into());
    }
    for source in sources {
        check(source)?;
    }
    charts(sources)
}

/// Every chart drawn from `sources`, which [`check`] passed. (Drawn from
/// figures it would refuse, they are still drawn, without a panic.)
fn charts(sources: &[Source]) -> Result<Vec<String>, String> {
    let played = played(sources);
    let figures = [
        survival(&played),
        deaths(&played),
        danger(sources, &played),
        hit_points(&played),
        items(&played),
    ];
    figures.iter().map(draw).collect()
}

const NO_BOT: &str = "no bot played in these reports (swept with --bot none)";

fn survival(played: &[Played]) -> Figure {
    let mut figure = Figure::new(
        CHARTS[0].1.to_string(),
        "runs alive on entering, %",
        Numbers::Whole,
    );
    figure.won = true;
    for p in played {
        let points = depths()
            .map(|d| {
                let entered = p.play(d).map_or(0, |play| play.entered);
                (f64::from(d), percent(entered, p.bot.runs))
            })
            .collect();
        figure.series.push(Series {
            label: format!("{} ({} runs)", p.label, p.bot.runs),
            color: p.color,
            mark: Mark::Line,
            points,
            secondary: false,
        });
        figure.series.push(Series {
            label: format!("{}: won", p.label),
            color: p.color,
            mark: Mark::Dots,
            points: vec![(f64::from(LAST_DEPTH + 1), percent(p.bot.wins, p.bot.runs))],
            secondary: false,
        });
    }
    figure.fit_y(100.0);
    if played.is_empty() {
        figure.nothing(NO_BOT);
    }
    figure
}

/// The report whose deaths are drawn: the explorer's when it has deaths
/// (it plays to win, so its deaths are the game's balance), else the first
/// with any.
fn deaths_of<'a, 'b>(played: &'b [Played<'a>]) -> Option<&'b Played<'a>> {
    let died = |p: &&Played| p.bot.by_depth.values().any(|d| d.died > 0);
    played
        .iter()
        .filter(died)
        .find(|p| p.source.report.spec.bot == BotKind::Explorer)
        .or_else(|| played.iter().find(died))
}

fn deaths(played: &[Played]) -> Figure {
    let Some(p) = deaths_of(played) else {
        let mut figure = Figure::new(CHARTS[1].1.to_string(), "deaths", Numbers::Whole);
        figure.nothing(if played.is_empty() {
            NO_BOT
        } else {
            "no run died in these reports"
        });
        return figure;
    };
    let mut figure = Figure::new(
        format!("{} ({}, {} runs)", CHARTS[1].1, p.label, p.bot.runs),
        "deaths",
        Numbers::Whole,
    );
    // Killers by their deaths, most first, as the sweep's summary ranks
    // them; past KINDS_SHOWN they share a bar.
    let kinds = sweep::killers(p.bot);
    let shown: Vec<&str> = kinds
        .iter()
        .take(KINDS_SHOWN)
        .map(|k| k.0.as_str())
        .collect();
    let color_of = |kind: &str| {
        shown
            .iter()
            .position(|k| *k == kind)
            .map_or(GREY, |i| PALETTE[i % PALETTE.len()])
    };
    for kind in &shown {
        figure.keys.push((clean(kind), color_of(kind), Mark::Box));
    }
    if kinds.len() > shown.len() {
        figure.keys.push((
            format!("{} other kinds", kinds.len() - shown.len()),
            GREY,
            Mark::Box,
        ));
    }
    for d in depths() {
        let Some(play) = p.play(d) else { continue };
        let mut base = 0.0;
        let mut others = 0u64;
        for (kind, &n) in &play.killers {
            if !shown.contains(&kind.as_str()) {
                others = others.saturating_add(n);
            }
        }
        let stack = shown
            .iter()
            .map(|kind| {
                (
                    color_of(kind),
                    play.killers.get(*kind).copied().unwrap_or(0),
                )
            })
            .chain([(GREY, others)]);
        for (color, n) in stack {
            if n == 0 {
                continue;
            }
            let top = base + n as f64;
            figure.bars.push(Bar {
                depth: d,
                from: base,
                to: top,
                color,
            });
            base = top;
        }
    }
    figure.series.push(Series {
        label: "died there, % of the runs entering".into(),
        color: INK,
        mark: Mark::Line,
        points: p.per_entering(|play| play.died.saturating_mul(100)),
        secondary: true,
    });
    figure.fit_y(5.0);
    figure.y2 = Some(("died, % of the runs entering".into(), 100.0));
    figure
}

fn danger(sources: &[Source], played: &[Played]) -> Figure {
    let mut figure = Figure::new(
        CHARTS[2].1.to_string(),
        "danger of the monsters met",
        Numbers::Whole,
    );
    for p in played {
        let mut mean = Vec::new();
        let mut max = Vec::new();
        for d in depths() {
            let Some(play) = p.play(d) else { continue };
            let (mut sum, mut count) = (0.0, 0.0);
            for (&danger, &n) in &play.met {
                sum += f64::from(danger) * n as f64;
                count += n as f64;
            }
            if count > 0.0 {
                mean.push((f64::from(d), sum / count));
            }
            if let Some((&highest, _)) = play.met.iter().rev().find(|(_, n)| **n > 0) {
                max.push((f64::from(d), f64::from(highest)));
            }
        }
        figure.series.push(Series {
            label: format!("{}: mean", p.label),
            color: p.color,
            mark: Mark::Line,
            points: mean,
            secondary: false,
        });
        figure.series.push(Series {
            label: format!("{}: highest", p.label),
            color: p.color,
            mark: Mark::Dashed,
            points: max,
            secondary: false,
        });
    }
    figure.series.push(Series {
        label: format!("out-of-depth limit: depth + {OUT_OF_DEPTH}"),
        color: INK,
        mark: Mark::Dashed,
        points: depths()
            .map(|d| (f64::from(d), f64::from(d + OUT_OF_DEPTH)))
            .collect(),
        secondary: false,
    });
    // Floors with an out-of-depth spawn: every report has them; reports of
    // the same seeds and floors give the same line, drawn once.
    let labels = labels(sources);
    let mut lines: Vec<(Points, Vec<&str>)> = Vec::new();
    for (source, label) in sources.iter().zip(&labels) {
        let points: Points = source
            .report
            .summary
            .depths
            .iter()
            .filter(|(d, s)| s.floors > 0 && depths().contains(*d))
            .map(|(&d, s)| (f64::from(d), percent(s.out_of_depth, s.floors)))
            .collect();
        match lines.iter_mut().find(|(p, _)| *p == points) {
            Some((_, names)) => names.push(label),
            None => lines.push((points, vec![label])),
        }
    }
    let several = lines.len() > 1;
    let mut highest: f64 = 0.0;
    for (i, (points, names)) in lines.into_iter().enumerate() {
        highest = points.iter().map(|p| p.1).fold(highest, f64::max);
        let of = if several {
            format!(" ({})", names.join(", "))
        } else {
            String::new()
        };
        figure.series.push(Series {
            label: format!("floors with an out-of-depth monster, %{of}"),
            color: PALETTE[(PALETTE.len() - 4 + i) % PALETTE.len()],
            mark: Mark::Line,
            points,
            secondary: true,
        });
    }
    figure.fit_y(f64::from(LAST_DEPTH + OUT_OF_DEPTH + 1));
    figure.y2 = Some((
        "floors with an out-of-depth monster, %".into(),
        (highest * 1.25).clamp(10.0, 100.0).max(highest),
    ));
    figure
}

fn hit_points(played: &[Played]) -> Figure {
    let mut figure = Figure::new(
        CHARTS[3].1.to_string(),
        "mean hit points on arrival",
        Numbers::Whole,
    );
    let mut maxima: Vec<(f64, Vec<&str>)> = Vec::new();
    for p in played {
        figure.series.push(Series {
            label: format!("{}: mean on arrival", p.label),
            color: p.color,
            mark: Mark::Line,
            points: p.per_entering(|play| play.hp_on_arrival),
            secondary: false,
        });
        if let Some(max) = max_hp(p) {
            match maxima.iter_mut().find(|(m, _)| *m == max) {
                Some((_, names)) => names.push(&p.label),
                None => maxima.push((max, vec![&p.label])),
            }
        }
    }
    let several = maxima.len() > 1;
    for (max, names) in maxima {
        let of = if several {
            format!(" ({})", names.join(", "))
        } else {
            String::new()
        };
        figure.series.push(Series {
            label: format!("most hit points: {}{of}", Numbers::Whole.write(max)),
            color: GREY,
            mark: Mark::Dashed,
            points: depths().map(|d| (f64::from(d), max)).collect(),
            secondary: false,
        });
    }
    figure.fit_y(5.0);
    if played.is_empty() {
        figure.nothing(NO_BOT);
    }
    figure
}

/// The player's most hit points: the highest maximum any run arrived with,
/// from the runs' floors; from a summary alone, the mean on arriving at
/// depth 1 (every run starts unhurt).
fn max_hp(p: &Played) -> Option<f64> {
    match p.source.most_hp {
        Some(max) => Some(f64::from(max)),
        None => {
            let first = p.play(1).filter(|play| play.entered > 0)?;
            Some(ratio(first.hp_on_arrival, first.entered))
        }
    }
}

fn items(played: &[Played]) -> Figure {
    let mut figure = Figure::new(
        CHARTS[4].1.to_string(),
        "items per run entering the depth",
        Numbers::Tenths,
    );
    for p in played {
        figure.series.push(Series {
            label: format!("{}: found", p.label),
            color: p.color,
            mark: Mark::Line,
            points: p.per_entering(|play| play.items_found),
            secondary: false,
        });
        figure.series.push(Series {
            label: format!("{}: used", p.label),
            color: p.color,
            mark: Mark::Dashed,
            points: p.per_entering(|play| play.items_used),
            secondary: false,
        });
    }
    figure.fit_y(5.0);
    if played.is_empty() {
        figure.nothing(NO_BOT);
    }
    figure
}

/// Draws one chart as a whole SVG document: the plot on the left, its
/// legend on the right.
fn draw(figure: &Figure) -> Result<String, String> {
    let mut svg = String::new();
    let failed = |e: &dyn std::fmt::Display| format!("drawing the chart {:?}: {e}", figure.title);
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(&e))?;
        let (plot, legend) = root.split_horizontally(WIDTH - LEGEND_WIDTH);
        let last = LAST_DEPTH + u32::from(figure.won);
        let x_range = 0.5..f64::from(last) + 0.5;
        let y2_max = figure.y2.as_ref().map_or(1.0, |y2| y2.1);
        let mut chart = ChartBuilder::on(&plot)
            .caption(&figure.title, ("sans-serif", 20).into_font().color(&INK))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .right_y_label_area_size(if figure.y2.is_some() { 56 } else { 0 })
            .build_cartesian_2d(x_range.clone(), 0.0..figure.y_max)
            .map_err(|e| failed(&e))?
            .set_secondary_coord(x_range, 0.0..y2_max);
        let x_label = |x: &f64| depth_label(figure, *x);
        let y_label = |y: &f64| figure.y_numbers.write(*y);
        let x_desc = if figure.won { "depth entered" } else { "depth" };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(last as usize + 1)
            .x_label_formatter(&x_label)
            .y_label_formatter(&y_label)
            .x_desc(x_desc)
            .y_desc(figure.y_desc.as_str())
            .label_style(("sans-serif", 13).into_font().color(&INK))
            .axis_desc_style(("sans-serif", 14).into_font().color(&INK))
            .max_light_lines(0)
            .draw()
            .map_err(|e| failed(&e))?;
        if let Some((desc, _)) = &figure.y2 {
            let whole = |y: &f64| Numbers::Whole.write(*y);
            chart
                .configure_secondary_axes()
                .y_desc(desc.as_str())
                .y_label_formatter(&whole)
                .label_style(("sans-serif", 13).into_font().color(&INK))
                .axis_desc_style(("sans-serif", 14).into_font().color(&INK))
                .draw()
                .map_err(|e| failed(&e))?;
        }
        chart
            .draw_series(figure.bars.iter().map(|bar| {
                let x = f64::from(bar.depth);
                Rectangle::new([(x - 0.3, bar.from), (x + 0.3, bar.to)], bar.color.filled())
            }))
            .map_err(|e| failed(&e))?;
        for series in &figure.series {
            let points = series.points.iter().copied();
            let line = series.color.stroke_width(2);
            let drawn = match (series.mark, series.secondary) {
                (Mark::Line, false) => chart
                    .draw_series(LineSeries::new(points, line).point_size(3))
                    .map(|_| ()),
                (Mark::Line, true) => chart
                    .draw_secondary_series(LineSeries::new(points, line).point_size(3))
                    .map(|_| ()),
                (Mark::Dashed, false) => chart
                    .draw_series(DashedLineSeries::new(points, 6, 4, line))
                    .map(|_| ()),
                (Mark::Dashed, true) => chart
                    .draw_secondary_series(DashedLineSeries::new(points, 6, 4, line))
                    .map(|_| ()),
                (Mark::Dots | Mark::Box, false) => chart
                    .draw_series(points.map(|p| Circle::new(p, 5, series.color.filled())))
                    .map(|_| ()),
                (Mark::Dots | Mark::Box, true) => chart
                    .draw_secondary_series(points.map(|p| Circle::new(p, 5, series.color.filled())))
                    .map(|_| ()),
            };
            drawn.map_err(|e| failed(&e))?;
        }
        if let Some(empty) = &figure.empty {
            let (w, h) = plot.dim_in_pixel();
            plot.draw(&Text::new(
                clean(empty),
                (w as i32 / 2 - 160, h as i32 / 2),
                ("sans-serif", 15).into_font().color(&GREY),
            ))
            .map_err(|e| failed(&e))?;
        }
        draw_legend(&legend, &legend_entries(figure)).map_err(|e| failed(&e))?;
        root.present().map_err(|e| failed(&e))?;
    }
    Ok(svg)
}

/// The x axis's label at `x`: the depth at a whole depth, "won" past the
/// last when the figure draws wins, nothing between.
fn depth_label(figure: &Figure, x: f64) -> String {
    let depth = x.round();
    if (x - depth).abs() > 1e-6 || depth < 1.0 {
        String::new()
    } else if figure.won && depth == f64::from(LAST_DEPTH + 1) {
        "won".into()
    } else {
        format!("{depth:.0}")
    }
}

/// The legend's lines: each series, then the figure's own keys.
fn legend_entries(figure: &Figure) -> Vec<(String, RGBColor, Mark)> {
    figure
        .series
        .iter()
        .map(|s| (s.label.clone(), s.color, s.mark))
        .chain(figure.keys.iter().cloned())
        .collect()
}

/// The legend: a sample of each series' mark and its label, a line each.
fn draw_legend(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    entries: &[(String, RGBColor, Mark)],
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    if entries.is_empty() {
        return Ok(());
    }
    let top = 48;
    let row = ((HEIGHT as i32 - top - 12) / entries.len() as i32).clamp(6, 22);
    for (i, (label, color, mark)) in entries.iter().enumerate() {
        let y = top + row * i as i32 + row / 2;
        let x = 8;
        match mark {
            Mark::Line => {
                area.draw(&PathElement::new(
                    vec![(x, y), (x + 26, y)],
                    color.stroke_width(2),
                ))?;
                area.draw(&Circle::new((x + 13, y), 3, color.filled()))?;
            }
            Mark::Dashed => {
                for start in [x, x + 10, x + 20] {
                    area.draw(&PathElement::new(
                        vec![(start, y), (start + 6, y)],
                        color.stroke_width(2),
                    ))?;
                }
            }
            Mark::Dots => area.draw(&Circle::new((x + 13, y), 5, color.filled()))?,
            Mark::Box => area.draw(&Rectangle::new(
                [(x + 4, y - 6), (x + 22, y + 6)],
                color.filled(),
            ))?,
        }
        area.draw(&Text::new(
            clean(label),
            (x + 34, y - 7),
            ("sans-serif", 13).into_font().color(&INK),
        ))?;
    }
    Ok(())
}

/// A chart's SVG document as an element of a larger document: an `<svg>`
/// with the chart's id and title (at `y` in the report's SVG; in a page,
/// where it stands alone, without a namespace).
fn nested(chart: &str, id: &str, title: &str, y: Option<u32>) -> Result<String, String> {
    let body = chart
        .strip_prefix("<svg ")
        .and_then(|rest| rest.split_once(">\n"))
        .map(|(_, body)| body)
        .ok_or_else(|| format!("drawing the chart {title:?}: plotters wrote no <svg> element"))?;
    let place = y.map_or_else(String::new, |y| format!(r#" x="0" y="{y}""#));
    Ok(format!(
        r#"<svg id="chart-{id}"{place} width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{}">
{body}"#,
        escape(title)
    ))
}

/// The table naming each source: its file, bot, seeds and what it swept.
fn sources_table(sources: &[Source]) -> String {
    let labels = labels(sources);
    let mut out = String::from(
        "<h2>Sources</h2>\n<table class=\"sources\">\n<tr><th>series</th><th>file</th><th>bot</th><th>seeds</th><th>depths checked</th><th>keys per seed</th><th>map</th><th>game</th><th>content</th></tr>\n",
    );
    for (s, label) in sources.iter().zip(&labels) {
        let r = &s.report;
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}{}</td><td>{}</td><td>{}</td><td>{}x{}</td><td>{}</td><td>{}</td></tr>",
            escape(label),
            escape(&s.name),
            sweep::bot_name(r.spec.bot),
            r.spec.seeds,
            escape(&shard_text(r)),
            r.spec.depths,
            r.spec.keys,
            r.spec.map_width,
            r.spec.map_height,
            escape(&r.game),
            escape(&r.content),
        );
    }
    out.push_str("</table>\n");
    out
}

/// The key balance figures, a row per source.
fn figures_table(sources: &[Source]) -> String {
    let labels = labels(sources);
    let mut out = String::from(
        "<h2>Key figures</h2>\n<table class=\"figures\">\n<tr><th>series</th><th>runs</th><th>won</th><th>left depth 1 alive</th><th>worst depth's death rate</th><th>top killer's share of deaths</th><th>floors with an out-of-depth monster, depth 1</th><th>depth 2</th></tr>\n",
    );
    for (s, label) in sources.iter().zip(&labels) {
        let summary = &s.report.summary;
        let out_of_depth = |depth: u32| {
            summary
                .depths
                .get(&depth)
                .filter(|d| d.floors > 0)
                .map_or_else(
                    || "not swept".to_string(),
                    |d| share(d.out_of_depth, d.floors),
                )
        };
        let bot_cells = match summary.bot.as_ref().filter(|b| b.runs > 0) {
            None => vec!["no bot".to_string(); 5],
            Some(bot) => {
                let entered = |d: u32| bot.by_depth.get(&d).map_or(0, |p| p.entered);
                let worst = bot
                    .by_depth
                    .iter()
                    .filter(|(_, p)| p.entered > 0)
                    .max_by(|a, b| {
                        let rate = |p: &DepthPlay| ratio(p.died, p.entered);
                        rate(a.1).total_cmp(&rate(b.1)).then(b.0.cmp(a.0))
                    })
                    .map_or_else(
                        || "none".to_string(),
                        |(d, p)| format!("depth {d}: {}", share(p.died, p.entered)),
                    );
                let died = bot
                    .by_depth
                    .values()
                    .fold(0u64, |died, play| died.saturating_add(play.died));
                // The top of the ranking the sweep's text summary prints.
                let top = sweep::killers(bot).into_iter().next().map_or_else(
                    || "no deaths".to_string(),
                    |(kind, n)| format!("{}: {}", escape(&kind), share(n, died)),
                );
                vec![
                    bot.runs.to_string(),
                    share(bot.wins, bot.runs),
                    share(entered(2), bot.runs),
                    worst,
                    top,
                ]
            }
        };
        let _ = write!(out, "<tr><td>{}</td>", escape(label));
        for cell in bot_cells {
            let _ = write!(out, "<td class=\"n\">{cell}</td>");
        }
        let _ = writeln!(
            out,
            "<td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            out_of_depth(1),
            out_of_depth(2)
        );
    }
    out.push_str("</table>\n");
    out
}

/// The proof of reach: how often each bot's runs reached each situation
/// of the reach catalogue (docs/invariants.md), per 1,000 runs and in how
/// many runs, the rarest first, so a situation a sweep seldom or never
/// reaches (and whose bugs it would miss) stands at the top.
fn reach_table(sources: &[Source]) -> String {
    let played: Vec<(String, &BotSummary)> = labels(sources)
        .into_iter()
        .zip(sources)
        .filter_map(|(label, s)| Some((label, s.report.summary.bot.as_ref()?)))
        .filter(|(_, bot)| bot.runs > 0)
        .collect();
    if played.is_empty() {
        return String::new();
    }
    let mut ids: Vec<&String> = played
        .iter()
        .flat_map(|(_, bot)| bot.reach.keys())
        .collect();
    ids.sort();
    ids.dedup();
    // The rarest first: by the least any source reached it, per run.
    let rate = |bot: &BotSummary, id: &str| {
        ratio(bot.reach.get(id).map_or(0, |r| r.times), bot.runs) * 1000.0
    };
    ids.sort_by(|a, b| {
        let least = |id: &str| {
            played
                .iter()
                .map(|(_, bot)| rate(bot, id))
                .fold(f64::INFINITY, f64::min)
        };
        least(a).total_cmp(&least(b)).then(a.cmp(b))
    });
    let mut out = String::from(
        "<h2>Reach</h2>\n<p>How often the runs reached each situation of the reach catalogue (docs/invariants.md): times per 1,000 runs, and how many runs reached it. The rarest come first: a check of a situation a sweep never reaches proves nothing there.</p>\n<table class=\"reach\">\n<tr><th>situation</th>",
    );
    for (label, _) in &played {
        let _ = write!(out, "<th>{}</th>", escape(label));
    }
    out.push_str("</tr>\n");
    for id in ids {
        let _ = write!(out, "<tr><td><code>{}</code></td>", escape(id));
        for (_, bot) in &played {
            let runs = bot.reach.get(id.as_str()).map_or(0, |r| r.runs);
            let _ = write!(
                out,
                "<td class=\"n\">{:.1} ({runs} of {})</td>",
                rate(bot, id),
                bot.runs
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out
}

/// "35.0% (7 of 20)".
fn share(part: u64, whole: u64) -> String {
    format!("{:.1}% ({part} of {whole})", percent(part, whole))
}

/// `text` with the characters XML cannot hold at all (control characters
/// other than tab and newline) written `?`.
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| {
            if (c.is_control() && c != '\t' && c != '\n') || c == '\u{FFFE}' || c == '\u{FFFF}' {
                '?'
            } else {
                c
            }
        })
        .collect()
}

/// "undercroft" -> "Undercroft".
fn capitalized(word: &str) -> String {
    let word = clean(word);
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
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
        let err = check(&odd).unwrap_err();
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
        let err = check(&old).unwrap_err();
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
