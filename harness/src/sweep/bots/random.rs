//! The random bot: weighted random keys, every key the help lists.

use game_core::rng::Stream;
use game_core::{Game, Key, RunSeed};

use crate::sweep::bots::Bot;

/// The random bot's keys, (notation, weight): moving and exploring most,
/// menus and aiming often enough to reach every screen, quitting rarely;
/// every key the help lists, aliases too (digits, arrows and the numpad's
/// navigation keys, Shift for a run, Shift-Tab), so a key that stops
/// working is pressed.
pub(super) const RANDOM_KEYS: [(&str, u32); 69] = [
    ("h", 10),
    ("j", 10),
    ("k", 10),
    ("l", 10),
    ("y", 5),
    ("u", 5),
    ("b", 5),
    ("n", 5),
    ("1", 1),
    ("2", 1),
    ("3", 1),
    ("4", 1),
    ("6", 1),
    ("7", 1),
    ("8", 1),
    ("9", 1),
    ("<Up>", 1),
    ("<Down>", 1),
    ("<Left>", 1),
    ("<Right>", 1),
    ("<Home>", 1),
    ("<End>", 1),
    ("<PgUp>", 1),
    ("<PgDn>", 1),
    ("H", 1),
    ("J", 1),
    ("K", 1),
    ("L", 1),
    ("Y", 1),
    ("U", 1),
    ("B", 1),
    ("N", 1),
    ("<S-Up>", 1),
    ("<S-Down>", 1),
    ("<S-Left>", 1),
    ("<S-Right>", 1),
    ("<S-Home>", 1),
    ("<S-End>", 1),
    ("<S-PgUp>", 1),
    ("<S-PgDn>", 1),
    ("o", 16),
    (".", 4),
    ("5", 2),
    ("g", 4),
    (",", 2),
    (">", 6),
    ("i", 4),
    ("a", 4),
    ("t", 6),
    ("d", 2),
    ("w", 2),
    (";", 4),
    ("?", 2),
    ("m", 2),
    ("<Esc>", 10),
    ("<Tab>", 4),
    ("<S-Tab>", 2),
    ("<Enter>", 6),
    ("Q", 2),
    // Pack letters: on a pack they pick (a to f reach the kit and
    // the first finds); on the map most also do something. `y` and
    // `n` also answer the quit prompt.
    ("c", 2),
    ("e", 2),
    ("f", 2),
    ("y", 2),
    ("n", 1),
    ("u", 1),
    // Keys the help gives no command, which must do nothing.
    ("x", 1),
    ("<C-k>", 1),
    ("<A-Up>", 1),
    ("<C-S-Left>", 1),
];

/// The groups of [`RANDOM_KEYS`] a swarm monkey weighs its own way, by
/// index: every key after the first 24, the moves (`hjklyubn`, the digits,
/// the arrows and the numpad's navigation keys), which stay as they are so
/// that every monkey walks about.
pub(super) const KEY_GROUPS: [std::ops::Range<usize>; 10] = [
    24..40, // runs: Shift with a direction
    40..41, // auto-explore
    41..43, // resting
    43..46, // the floor: pick up, descend
    46..51, // the pack: browse, use, throw, drop, wear
    51..54, // look, help, history
    54..58, // a screen's keys: Esc, Tab, Shift-Tab, Enter
    58..59, // quit
    59..65, // pack letters
    65..69, // keys with no command
];

/// Weighted random keys.
pub struct RandomBot {
    rng: Stream,
    keys: Vec<Key>,
    weights: Vec<u32>,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        let (keys, weights) = RANDOM_KEYS
            .iter()
            .map(|&(notation, weight)| {
                (Key::parse_all(notation).expect("valid notation")[0], weight)
            })
            .unzip();
        RandomBot {
            rng: RunSeed(seed).stream("bot-random", 0),
            keys,
            weights,
        }
    }
}

impl RandomBot {
    /// Weighs each group of keys but the moves once, twice or three times
    /// its usual weight, drawn from `rng`: a swarm run's own random bot.
    pub(super) fn reweigh(&mut self, rng: &mut Stream) {
        for group in KEY_GROUPS {
            let factor = 1 + rng.below(3);
            for weight in &mut self.weights[group] {
                *weight *= factor;
            }
        }
    }
}

impl Bot for RandomBot {
    fn next_keys(&mut self, _game: &Game) -> Vec<Key> {
        let i = self.rng.weighted(&self.weights).expect("positive weights");
        vec![self.keys[i]]
    }
}
