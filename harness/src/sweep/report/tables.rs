//! The report page's tables: the sources, every figure by source, and
//! the situations reached.

use std::fmt::Write as _;

use crate::sweep::report::numbers::{clean, percent, ratio};
use crate::sweep::report::{Source, escape, labels, shard_text};
use crate::sweep::{self, BotSummary, DepthPlay};
/// The table naming each source: its file, bot, seeds and what it swept.
pub(super) fn sources_table(sources: &[Source]) -> String {
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
pub(super) fn figures_table(sources: &[Source]) -> String {
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
pub(super) fn reach_table(sources: &[Source]) -> String {
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
pub(super) fn share(part: u64, whole: u64) -> String {
    format!("{:.1}% ({part} of {whole})", percent(part, whole))
}

/// "undercroft" -> "Undercroft".
pub(super) fn capitalized(word: &str) -> String {
    let word = clean(word);
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}
