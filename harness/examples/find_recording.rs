//! Finds a run that shows what an expect list says, for remaking the
//! example recordings in `recordings/` after a change to the content or the
//! rules moved them (`deja bless` refuses a recording whose run no longer
//! shows its expect list, and a recording's keys mean nothing once the
//! floors they were pressed on are different).
//!
//! A bot plays each seed of a range from a start depth; the run is cut at the
//! first key after which every expectation holds, and the shortest such run
//! over the range is written as a recording with that expect list:
//!
//! ```text
//! cargo run --release -p harness --example find_recording -- \
//!     --expect '[Died("poison"), Uses("potion of healing")]' \
//!     --seeds 1..500 --bot explorer -o recordings/death-by-poison.ron \
//!     --note "..."
//! ```
//!
//! Then watch it (`deja replay --watch`), write the note from what it shows,
//! and review what moved in the frame snapshots.

use std::path::PathBuf;

use game_core::game::screens::key_for_direction;
use game_core::{Game, GameConfig, Key};
use harness::recording::Recording;
use harness::recording::expect::{Expectation, Watch};
use harness::run::runner::Runner;
use harness::sweep::bots::{self, Bot, BotKind};

/// Who plays: one of the harness's bots, or the auto-explore policy below.
#[derive(Clone, Copy)]
enum Player {
    Bot(BotKind),
    AutoExplore,
}

/// The keys a person leaning on auto-explore presses: `o`, a bump at a
/// monster next to them (the first in `Dir::ALL` order), and `.` to let a
/// monster in view come to them (auto-explore will not walk on with one in
/// sight). The auto-explore recording shows `o` doing the walking.
struct AutoExplore;

impl Bot for AutoExplore {
    fn next_keys(&mut self, game: &Game) -> Vec<Key> {
        let state = game.state();
        let me = state.player.pos;
        let map = &state.floor.map;
        let next_to = state
            .monsters
            .iter()
            .filter(|m| me.chebyshev(m.pos) == 1)
            .filter_map(|m| me.direction_to(m.pos))
            .min_by_key(|d| d.index());
        if let Some(dir) = next_to {
            return vec![key_for_direction(dir)];
        }
        if state.monsters.iter().any(|m| map.is_visible(m.pos)) {
            return vec![Key::char('.')];
        }
        vec![Key::char('o')]
    }
}

struct Args {
    expect: Vec<Expectation>,
    seeds: std::ops::Range<u64>,
    bot: Player,
    start_depth: u32,
    max_keys: u64,
    output: PathBuf,
    note: String,
}

fn usage() -> String {
    "usage: find_recording --expect RON-LIST --seeds A..B [--bot explorer|random|auto-explore] \
     [--start-depth N] [--max-keys N] -o FILE [--note TEXT]"
        .into()
}

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let (mut expect, mut seeds, mut output) = (None, None, None);
    let (mut bot, mut start_depth, mut max_keys, mut note) =
        (Player::Bot(BotKind::Explorer), 1, 3000, String::new());
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{flag} needs a value; {}", usage()))
        };
        match flag.as_str() {
            "--expect" => {
                let text = value()?;
                expect = Some(
                    ron::from_str::<Vec<Expectation>>(&text)
                        .map_err(|e| format!("--expect {text:?}: {e}"))?,
                );
            }
            "--seeds" => {
                let text = value()?;
                let (a, b) = text
                    .split_once("..")
                    .ok_or_else(|| format!("--seeds {text:?}: write A..B"))?;
                let parse = |s: &str| {
                    s.parse::<u64>()
                        .map_err(|e| format!("--seeds {text:?}: {e}"))
                };
                seeds = Some(parse(a)?..parse(b)?);
            }
            "--bot" => {
                bot = match value()?.as_str() {
                    "explorer" => Player::Bot(BotKind::Explorer),
                    "random" => Player::Bot(BotKind::Random),
                    "auto-explore" => Player::AutoExplore,
                    other => {
                        return Err(format!("--bot {other:?}: explorer, random or auto-explore"));
                    }
                }
            }
            "--start-depth" => {
                start_depth = value()?
                    .parse()
                    .map_err(|e| format!("--start-depth: {e}"))?
            }
            "--max-keys" => max_keys = value()?.parse().map_err(|e| format!("--max-keys: {e}"))?,
            "-o" | "--output" => output = Some(PathBuf::from(value()?)),
            "--note" => note = value()?,
            other => return Err(format!("unknown argument {other:?}; {}", usage())),
        }
    }
    let expect = expect.ok_or_else(usage)?;
    // A list no run could show (or every run shows) is refused here, as a
    // recording holding it would be when read.
    harness::recording::expect::check(&expect, start_depth)
        .map_err(|(index, what)| format!("--expect item {}: {what}", index + 1))?;
    Ok(Args {
        expect,
        seeds: seeds.ok_or_else(usage)?,
        bot,
        start_depth,
        max_keys,
        output: output.ok_or_else(usage)?,
        note,
    })
}

/// The shortest prefix of the bot's run of `seed` that shows every
/// expectation, as a recording, with what the game said at each step (to
/// write the note from).
fn search(args: &Args, seed: u64) -> Option<(Recording, Vec<String>)> {
    let mut said = Vec::new();
    let mut runner = Runner::new_at_depth(GameConfig::new(seed), args.start_depth).ok()?;
    let mut bot: Box<dyn Bot> = match args.bot {
        Player::Bot(kind) => bots::bot(kind, seed)?,
        Player::AutoExplore => Box::new(AutoExplore),
    };
    let mut watch = Watch::new(&args.expect, runner.game());
    while runner.step() < args.max_keys && !runner.game().is_over() {
        for key in bot.next_keys(runner.game()) {
            let outcome = runner.press(key).ok()?;
            watch.after_key(runner.game(), &outcome);
            for message in &outcome.messages {
                said.push(format!(
                    "step {} (depth {}): {message}",
                    runner.step(),
                    runner.game().state().depth
                ));
            }
            if watch.unmet(&runner.outcome()).is_empty() {
                let mut recording = runner.recording(args.note.clone());
                recording.expect = args.expect.clone();
                return Some((recording, said));
            }
            if runner.game().is_over() {
                return None;
            }
        }
    }
    None
}

fn main() -> std::process::ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("error: {message}");
            return std::process::ExitCode::from(2);
        }
    };
    let best = args
        .seeds
        .clone()
        .filter_map(|seed| search(&args, seed))
        .min_by_key(|(r, _)| (r.keys.len(), r.seed));
    let Some((recording, said)) = best else {
        eprintln!("error: no seed in the range shows every expectation; try more seeds");
        return std::process::ExitCode::from(1);
    };
    if let Err(message) = harness::recording::write(&args.output, &recording) {
        eprintln!("error: {message}");
        return std::process::ExitCode::from(1);
    }
    for line in said {
        println!("  {line}");
    }
    println!(
        "{}: seed {}, {} keys, {}",
        args.output.display(),
        recording.seed,
        recording.keys.len(),
        recording.outcome
    );
    std::process::ExitCode::SUCCESS
}
