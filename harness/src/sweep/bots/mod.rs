//! Bots that play the game by pressing keys, so every bot run is an ordinary
//! recording. Each draws from its own named stream of the run's seed, never
//! from the game's, so a bot's choices are as reproducible as the game.
//!
//! - `random` presses weighted random keys, menus, throws and Esc included:
//!   it goes where a player's fumbling goes.
//! - `explorer` plays to win: explores, fights what it meets, drinks healing
//!   when low, reads and throws, wears what it finds, and descends when the
//!   floor is done.
//! - `swarm` draws each run's own way of playing from the run's stream
//!   (swarm testing, as TigerBeetle's simulator does it): most runs are the
//!   explorer with its own leanings (some actions switched off: never throw,
//!   rest, read or drink; some preferred: throw first, make for the stairs;
//!   its own nerve: when to drink, when to hurry down), about two in five
//!   press the random bot's keys, and every run tours the screens in quiet
//!   moments. Runs unlike each other reach situations one fixed way of
//!   playing reaches seldom.

use game_core::{Game, Key};

mod explorer;
mod leanings;
mod random;
mod swarm;

pub use explorer::ExplorerBot;
pub use leanings::Leanings;
pub use random::RandomBot;
pub use swarm::SwarmBot;

/// Which bot plays.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum BotKind {
    /// No bot: floors are generated and checked, nothing is played.
    None,
    /// Weighted random keys, menus, throws and Esc included: a monkey that
    /// finds what no plan would.
    Random,
    /// Plays to win: explores, fights, uses what it finds, takes the stairs.
    Explorer,
    /// Each run its own way of playing: the explorer with leanings drawn
    /// per run (actions switched off or preferred), or random keys; tours of
    /// the screens.
    Swarm,
}

impl BotKind {
    /// The name the command line takes (`--bot explorer`).
    pub const fn name(self) -> &'static str {
        match self {
            BotKind::None => "none",
            BotKind::Random => "random",
            BotKind::Explorer => "explorer",
            BotKind::Swarm => "swarm",
        }
    }
}

impl std::fmt::Display for BotKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A bot: what to press next.
pub trait Bot {
    /// The next keys to press (at least one).
    fn next_keys(&mut self, game: &Game) -> Vec<Key>;

    /// How this run's bot differs from its kind's usual play, for the bug
    /// report a failing run becomes; `None` when it plays as its kind does.
    fn leanings(&self) -> Option<String> {
        None
    }
}

/// The bot of `kind` for the run of `seed`; `None` for [`BotKind::None`].
pub fn bot(kind: BotKind, seed: u64) -> Option<Box<dyn Bot + Send>> {
    match kind {
        BotKind::None => None,
        BotKind::Random => Some(Box::new(RandomBot::new(seed))),
        BotKind::Explorer => Some(Box::new(ExplorerBot::new(seed))),
        BotKind::Swarm => Some(Box::new(SwarmBot::new(seed))),
    }
}

#[cfg(test)]
mod tests {
    use super::random::{KEY_GROUPS, RANDOM_KEYS};
    use super::*;
    use game_core::GameConfig;

    fn play(bot: &mut dyn Bot, seed: u64, keys: usize) -> Game {
        let mut game = Game::new(GameConfig::new(seed)).expect("valid");
        let mut pressed = 0;
        while pressed < keys && !game.is_over() {
            for key in bot.next_keys(&game) {
                game.press(key).expect("not stuck");
                pressed += 1;
            }
        }
        game
    }

    #[test]
    fn bot_names_are_the_command_line_names() {
        use clap::ValueEnum;
        for kind in BotKind::value_variants() {
            let value = kind.to_possible_value().expect("every bot is named");
            assert_eq!(kind.name(), value.get_name());
            assert_eq!(kind.to_string(), value.get_name());
        }
    }

    #[test]
    fn a_monkeys_key_groups_are_every_key_but_the_moves_once() {
        let moves = KEY_GROUPS[0].start;
        for (notation, _) in &RANDOM_KEYS[..moves] {
            let key = Key::parse_all(notation).expect("valid")[0];
            assert!(
                game_core::game::screens::direction_of(key).is_some(),
                "{notation} is among the moves but is none"
            );
        }
        let mut next = moves;
        for group in KEY_GROUPS {
            assert_eq!(group.start, next, "the groups follow each other");
            assert!(group.end > group.start);
            next = group.end;
        }
        assert_eq!(next, RANDOM_KEYS.len(), "the groups reach the table's end");
    }

    /// Every way a swarm run can lean is drawn in some runs of a few
    /// hundred seeds, and a run's note says how it leaned: a draw dropped
    /// by a change would leave its leaning in no run, and no sweep would
    /// say so.
    #[test]
    fn the_swarm_draws_every_leaning_and_says_which() {
        let runs: Vec<SwarmBot> = (1..=400).map(SwarmBot::new).collect();
        let monkeys = runs.iter().filter(|r| r.monkey).count();
        assert!((100..=220).contains(&monkeys), "{monkeys} monkeys of 400");
        let notes: Vec<String> = runs.iter().filter_map(|r| r.leanings()).collect();
        assert_eq!(notes.len(), runs.len(), "every run says how it leaned");
        for word in [
            "presses the random bot's keys",
            "never throws on depth",
            "throws first on depth",
            "never rests",
            "never reads on depth",
            "never drinks on depth",
            "makes for the stairs on depth",
            "drinks at 25%",
            "hurries at 30%",
            "random keys in",
            "picks from the pack",
            "tours the screens in 5%",
            "may quit",
        ] {
            assert!(
                notes.iter().any(|n| n.contains(word)),
                "no run of 400 says {word:?}"
            );
        }
    }

    #[test]
    fn bots_are_deterministic() {
        for kind in [BotKind::Random, BotKind::Explorer, BotKind::Swarm] {
            let a = play(bot(kind, 5).expect("a bot").as_mut(), 5, 300).state_hash();
            let b = play(bot(kind, 5).expect("a bot").as_mut(), 5, 300).state_hash();
            assert_eq!(a, b, "{kind:?}");
        }
    }

    #[test]
    fn the_explorer_goes_down_the_floors() {
        let deepest = (0..8u64)
            .map(|seed| play(&mut ExplorerBot::new(seed), seed, 3000).state().depth)
            .max()
            .expect("seeds");
        assert!(deepest >= 3, "the explorer never got past depth {deepest}");
    }
}
