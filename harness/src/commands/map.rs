//! `deja map`: a generated floor as text, with its stats.

use std::collections::BTreeMap;

use clap::Args;
use game_core::mapgen::{self, stats::FloorStats};
use game_core::{Game, GameConfig, RunSeed};

use crate::commands::args::ContentArgs;
use crate::plumbing::error::CommandResult;
use crate::plumbing::exit::Exit;

#[derive(Args)]
pub struct MapArgs {
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Which floor, 1 to 6.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=6))]
    pub depth: u32,
    /// Show the whole floor with everything on it, not only what the player
    /// sees on arrival.
    #[arg(long)]
    pub reveal: bool,
    /// Map size, WIDTHxHEIGHT.
    #[arg(long, default_value = "80x40", value_parser = crate::play::frames::parse_map_size)]
    pub map_size: (u16, u16),
    #[command(flatten)]
    pub content: ContentArgs,
}

pub fn run(args: MapArgs) -> CommandResult {
    let content = super::load_content(&args.content)?;
    let (width, height) = (i32::from(args.map_size.0), i32::from(args.map_size.1));
    let config = GameConfig {
        seed: RunSeed(args.seed),
        content,
        width,
        height,
        canaries: game_core::canary::Canaries::NONE,
    };
    let game = Game::new_at_depth(config, args.depth).map_err(|e| e.to_string())?;
    let built = mapgen::generate_floor(RunSeed(args.seed), args.depth, width, height);
    crate::plumbing::output::out(format_args!(
        "seed {}, depth {}: {}",
        args.seed,
        args.depth,
        FloorStats::of(&built)
    ))?;
    let state = game.state();
    let mut monsters: BTreeMap<&str, u32> = BTreeMap::new();
    for m in &state.monsters {
        *monsters
            .entry(&game.content().monster(m.kind).name)
            .or_default() += 1;
    }
    let mut items: BTreeMap<&str, u32> = BTreeMap::new();
    for i in &state.items {
        *items.entry(&game.content().item(i.item).name).or_default() += i.count;
    }
    let list = |counts: &BTreeMap<&str, u32>| {
        counts
            .iter()
            .map(|(name, n)| format!("{name} x{n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    crate::plumbing::output::out(format_args!(
        "monsters {}: {}",
        state.monsters.len(),
        list(&monsters)
    ))?;
    crate::plumbing::output::out(format_args!(
        "items {}: {}",
        state.items.len(),
        list(&items)
    ))?;
    crate::plumbing::output::out(format_args!("{}", floor_text(&game, args.reveal)))?;
    Ok(Exit::Ok)
}

/// The floor as text: every tile with `reveal`, otherwise what the player
/// sees on arrival; monsters, items and the player on top where shown.
fn floor_text(game: &Game, reveal: bool) -> String {
    let state = game.state();
    let map = &state.floor.map;
    // Revealed, rock is drawn only where it borders something walkable: the
    // walls a player could ever see, not the solid mass around them.
    let borders_floor = |p: game_core::geom::Pos| {
        game_core::geom::Dir::ALL
            .iter()
            .any(|&d| map.is_walkable(p.step(d)))
    };
    let shown = |p: game_core::geom::Pos| {
        if reveal {
            map.is_walkable(p) || borders_floor(p)
        } else {
            map.is_revealed(p)
        }
    };
    let mut rows: Vec<Vec<char>> = (0..map.height())
        .map(|y| {
            (0..map.width())
                .map(|x| {
                    let p = game_core::geom::Pos::new(x, y);
                    if shown(p) { map.tile(p).glyph() } else { ' ' }
                })
                .collect()
        })
        .collect();
    let mut put = |p: game_core::geom::Pos, glyph: char| {
        if reveal || map.is_visible(p) {
            rows[p.y as usize][p.x as usize] = glyph;
        }
    };
    for item in &state.items {
        put(item.pos, game.content().item(item.item).glyph);
    }
    for m in &state.monsters {
        put(m.pos, game.content().monster(m.kind).glyph);
    }
    put(state.player.pos, '@');
    rows.into_iter()
        .map(|row| row.into_iter().collect::<String>().trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}
