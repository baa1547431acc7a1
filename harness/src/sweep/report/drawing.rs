//! The report's charts: each figure's series computed from the runs the
//! reports hold, and drawn with plotters into an SVG of its own.

use game_core::mapgen::LAST_DEPTH;
use plotters::chart::{ChartBuilder, DualCoordChartContext};
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::types::RangedCoordf64;
use plotters::drawing::{DrawingArea, DrawingAreaErrorKind, IntoDrawingArea as _};
use plotters::element::{Circle, PathElement, Rectangle, Text};
use plotters::prelude::SVGBackend;
use plotters::series::{DashedLineSeries, LineSeries};
use plotters::style::{Color as _, IntoFont as _, RGBColor, WHITE};

use crate::plumbing::error::Error;
use crate::sweep::bots::BotKind;
use crate::sweep::report::numbers::{clean, percent, ratio};
use crate::sweep::report::{
    CHARTS, GREY, HEIGHT, INK, KINDS_SHOWN, LEGEND_WIDTH, PALETTE, Played, Source, WIDTH, check,
    escape, labels, played,
};
use crate::sweep::{self, OUT_OF_DEPTH};
/// The depths a bot plays through: every floor of the game (a sweep's
/// `--depths` limits the floors it checks, not how deep its bot goes).
pub(super) fn depths() -> std::ops::RangeInclusive<u32> {
    1..=LAST_DEPTH
}

/// How a series is drawn.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mark {
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
pub(super) type Points = Vec<(f64, f64)>;

pub(super) struct Series {
    label: String,
    color: RGBColor,
    mark: Mark,
    points: Points,
    /// On the right-hand axis.
    secondary: bool,
}

pub(super) struct Bar {
    depth: u32,
    from: f64,
    to: f64,
    color: RGBColor,
}

/// How an axis' numbers are written.
#[derive(Clone, Copy)]
pub(super) enum Numbers {
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
pub(super) struct Figure {
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
pub(super) fn draw_all(sources: &[Source]) -> Result<Vec<String>, Error> {
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
pub(super) fn charts(sources: &[Source]) -> Result<Vec<String>, Error> {
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

pub(super) fn survival(played: &[Played]) -> Figure {
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
pub(super) fn deaths_of<'a, 'b>(played: &'b [Played<'a>]) -> Option<&'b Played<'a>> {
    let died = |p: &&Played| p.bot.by_depth.values().any(|d| d.died > 0);
    played
        .iter()
        .filter(died)
        .find(|p| p.source.report.spec.bot == BotKind::Explorer)
        .or_else(|| played.iter().find(died))
}

pub(super) fn deaths(played: &[Played]) -> Figure {
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
    for kind in &shown {
        figure
            .keys
            .push((clean(kind), killer_color(&shown, kind), Mark::Box));
    }
    if kinds.len() > shown.len() {
        figure.keys.push((
            format!("{} other kinds", kinds.len() - shown.len()),
            GREY,
            Mark::Box,
        ));
    }
    figure.bars = death_bars(p, &shown);
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

/// A killer's colour: its place among the kinds `shown` in the palette, or
/// grey for the others.
fn killer_color(shown: &[&str], kind: &str) -> RGBColor {
    shown
        .iter()
        .position(|k| *k == kind)
        .map_or(GREY, |i| PALETTE[i % PALETTE.len()])
}

/// Each depth's deaths as a stack of bars, a bar for each kind `shown` that
/// killed there and one for all the others, bottom up.
fn death_bars(p: &Played, shown: &[&str]) -> Vec<Bar> {
    let mut bars = Vec::new();
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
                    killer_color(shown, kind),
                    play.killers.get(*kind).copied().unwrap_or(0),
                )
            })
            .chain([(GREY, others)]);
        for (color, n) in stack {
            if n == 0 {
                continue;
            }
            let top = base + n as f64;
            bars.push(Bar {
                depth: d,
                from: base,
                to: top,
                color,
            });
            base = top;
        }
    }
    bars
}

pub(super) fn danger(sources: &[Source], played: &[Played]) -> Figure {
    let mut figure = Figure::new(
        CHARTS[2].1.to_string(),
        "danger of the monsters met",
        Numbers::Whole,
    );
    for p in played {
        let (mean, max) = dangers_met(p);
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
    let labels = labels(sources);
    let lines = out_of_depth_lines(sources, &labels);
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

/// The mean and the highest danger of the monsters a report's runs met,
/// at each depth where they met any.
fn dangers_met(p: &Played) -> (Points, Points) {
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
    (mean, max)
}

/// Floors with an out-of-depth spawn, % at each depth: every report has
/// them; reports of the same seeds and floors give the same line, drawn
/// once, with the `labels` of the reports it stands for.
fn out_of_depth_lines<'a>(sources: &[Source], labels: &'a [String]) -> Vec<(Points, Vec<&'a str>)> {
    let mut lines: Vec<(Points, Vec<&str>)> = Vec::new();
    for (source, label) in sources.iter().zip(labels) {
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
    lines
}

pub(super) fn hit_points(played: &[Played]) -> Figure {
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
pub(super) fn max_hp(p: &Played) -> Option<f64> {
    match p.source.most_hp {
        Some(max) => Some(f64::from(max)),
        None => {
            let first = p.play(1).filter(|play| play.entered > 0)?;
            Some(ratio(first.hp_on_arrival, first.entered))
        }
    }
}

pub(super) fn items(played: &[Played]) -> Figure {
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
pub(super) fn draw(figure: &Figure) -> Result<String, Error> {
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
        draw_axes(&mut chart, figure, last).map_err(|e| failed(&e))?;
        draw_marks(&mut chart, figure).map_err(|e| failed(&e))?;
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

/// A chart of a figure: depths along the bottom, a left and a right axis.
type Chart<'a, 'b> = DualCoordChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<RangedCoordf64, RangedCoordf64>,
    Cartesian2d<RangedCoordf64, RangedCoordf64>,
>;

/// The axes: the depths (to `last`, "won" past the last depth when the
/// figure draws wins), the left axis' numbers, and the right-hand axis when
/// the figure has one.
fn draw_axes(
    chart: &mut Chart,
    figure: &Figure,
    last: u32,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
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
        .draw()?;
    if let Some((desc, _)) = &figure.y2 {
        let whole = |y: &f64| Numbers::Whole.write(*y);
        chart
            .configure_secondary_axes()
            .y_desc(desc.as_str())
            .y_label_formatter(&whole)
            .label_style(("sans-serif", 13).into_font().color(&INK))
            .axis_desc_style(("sans-serif", 14).into_font().color(&INK))
            .draw()?;
    }
    Ok(())
}

/// The figure's bars, then each series by its mark, on its axis.
fn draw_marks(
    chart: &mut Chart,
    figure: &Figure,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    chart.draw_series(figure.bars.iter().map(|bar| {
        let x = f64::from(bar.depth);
        Rectangle::new([(x - 0.3, bar.from), (x + 0.3, bar.to)], bar.color.filled())
    }))?;
    for series in &figure.series {
        let points = series.points.iter().copied();
        let line = series.color.stroke_width(2);
        match (series.mark, series.secondary) {
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
        }?;
    }
    Ok(())
}

/// The x axis's label at `x`: the depth at a whole depth, "won" past the
/// last when the figure draws wins, nothing between.
pub(super) fn depth_label(figure: &Figure, x: f64) -> String {
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
pub(super) fn legend_entries(figure: &Figure) -> Vec<(String, RGBColor, Mark)> {
    figure
        .series
        .iter()
        .map(|s| (s.label.clone(), s.color, s.mark))
        .chain(figure.keys.iter().cloned())
        .collect()
}

/// The legend: a sample of each series' mark and its label, a line each.
pub(super) fn draw_legend(
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
pub(super) fn nested(chart: &str, id: &str, title: &str, y: Option<u32>) -> Result<String, Error> {
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
