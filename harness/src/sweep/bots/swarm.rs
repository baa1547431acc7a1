//! The swarm bot: each run draws its own way of playing from its stream,
//! the explorer with its own leanings or a monkey pressing the random bot's
//! keys reweighed, and tours the screens in quiet moments.

use game_core::game::screens::{Screen, run_key_for_direction};
use game_core::geom::Dir;
use game_core::keys::KeyCode;
use game_core::rng::Stream;
use game_core::{Game, Key, RunSeed};

use crate::sweep::bots::Bot;
use crate::sweep::bots::explorer::ExplorerBot;
use crate::sweep::bots::leanings::Leanings;
use crate::sweep::bots::random::RandomBot;

/// A swarm run: each run its own way of playing, drawn from its stream.
///
/// - Two runs in five are **monkeys**: the random bot's keys, each group of
///   them (moves aside: runs, exploring, resting, the floor's keys, the
///   pack's, the screens', quitting, letters, keys that mean nothing) weighed
///   once, twice or three times its usual weight, and never a yes to the
///   quit prompt (in all but a few runs).
/// - The rest are **explorers** with leanings: on one floor of the run
///   (drawn) an action switched off (never throw, read or drink) or
///   preferred (throw first, make for the stairs); over the whole run never
///   resting, its own marks for drinking and for hurrying down, in some
///   runs bursts of random keys in quiet moments (fumbling) and tours that
///   act on the pack (fiddling).
/// - Every run tours the screens in quiet moments: the help and the
///   history scrolled, the pack, the quit prompt, or a run some way.
///
/// Why so, and not every leaning in half the runs as swarm testing often
/// draws them: a swarm sweep must reach every situation of the reach
/// catalogue at least as often per run as the explorer's and the random
/// bot's sweeps pooled, but for the run's end, which comes once a run
/// (docs/invariants.md, "Swarm"). The monkeys, which never quit, live and
/// die on the first floors and bring the random bot's situations (a potion
/// drunk at full health, a confused stumble into a creature); the
/// explorers bring the deep ones (depth 6, trolls and basilisks), so they
/// must lose little. An action switched off for a whole run costs depth and
/// takes its situations with it, so each switch holds on one floor.
pub struct SwarmBot {
    explorer: ExplorerBot,
    random: RandomBot,
    /// The swarm's own stream: the run's leanings, then its tours and
    /// fumbles.
    rng: Stream,
    /// Whether this run presses the random bot's keys instead of the
    /// explorer's.
    pub(super) monkey: bool,
    /// Whether the run may answer the quit prompt yes.
    may_quit: bool,
    /// Percent of quiet moments that start a tour of the screens (or a run
    /// in some direction).
    touring: u32,
    /// Whether its tours pick from the pack and press Enter (a monkey's
    /// always do).
    fiddles: bool,
    /// Percent of an explorer's quiet choices that start a burst of random
    /// keys (0 for most).
    fumbles: u32,
    /// Keys still to press in the tour under way, the next last.
    tour: Vec<Key>,
    /// Random keys still to press in the burst under way.
    burst: u32,
}

/// What opens a screen on the map: help, history, the pack, and the pack
/// to drop from, use, throw and wear, and the quit prompt.
pub(super) const TOUR_OPENERS: [&str; 8] = ["?", "m", "i", "d", "a", "t", "w", "Q"];
/// What a tour presses on a screen: scrolling, paging and ways out, then
/// (when the run fiddles) a pack letter, which on the pack opens the item
/// menu and on a drop or use screen acts, Enter, which does an item menu's
/// first action, and a menu's letters with Ctrl or Alt held, which a
/// terminal sends and no menu reads.
pub(super) const TOUR_KEYS: [&str; 19] = [
    "j", "k", "<Down>", "<Up>", "<PgDn>", "<PgUp>", "<Home>", "<End>", "<Space>", "<Esc>", "n",
    "a", "b", "c", "<Enter>", "<C-a>", "<C-d>", "<A-t>", "<C-w>",
];
/// How many of [`TOUR_KEYS`] a run that does not fiddle presses: none that
/// acts. A tour that drinks a potion or reads a scroll at nothing in a
/// quiet moment leaves the run without it when a monster comes.
pub(super) const HARMLESS_TOUR_KEYS: usize = 11;
/// The longest burst of random keys: enough to open a screen and work it.
pub(super) const LONGEST_BURST: u32 = 12;

impl SwarmBot {
    pub fn new(seed: u64) -> SwarmBot {
        let mut rng = RunSeed(seed).stream("bot-swarm", 0);
        let monkey = rng.percent(40);
        let mut leanings = Leanings {
            never_throw: rng.percent(12),
            throw_first: rng.percent(15),
            never_rest: rng.percent(25),
            never_read: rng.percent(10),
            never_drink: rng.percent(10),
            prefer_stairs: rng.percent(10),
            on_depth: None,
            drink_below: [25, 30, 35][rng.below(3) as usize],
            hurry_below: [30, 45][rng.below(2) as usize],
        };
        leanings.throw_first &= !leanings.never_throw;
        let may_quit = rng.percent(2);
        let touring = [1, 2, 5][rng.below(3) as usize];
        let fiddles = monkey || rng.percent(25);
        let fumbles = if !monkey && rng.percent(15) {
            [1, 2, 4][rng.below(3) as usize]
        } else {
            0
        };
        leanings.on_depth = Some(1 + rng.below(game_core::mapgen::LAST_DEPTH));
        let mut explorer = ExplorerBot::new(seed);
        explorer.leanings = leanings;
        let mut random = RandomBot::new(seed);
        random.reweigh(&mut rng);
        SwarmBot {
            explorer,
            random,
            rng,
            monkey,
            may_quit,
            touring,
            fiddles,
            fumbles,
            tour: Vec::new(),
            burst: 0,
        }
    }

    /// The keys of a tour of the screens, the first last: a screen opened,
    /// a few keys pressed on it, and in a run that may quit, now and then a
    /// yes to the quit prompt. Or, half the time, a run in some direction.
    fn plan_tour(&mut self) {
        if self.rng.one_in(2) {
            let dir = Dir::ALL[self.rng.below(8) as usize];
            self.tour.push(run_key_for_direction(dir));
            return;
        }
        let opener = TOUR_OPENERS[self.rng.below(TOUR_OPENERS.len() as u32) as usize];
        self.tour.push(notation(opener));
        let keys = if self.fiddles {
            &TOUR_KEYS[..]
        } else {
            &TOUR_KEYS[..HARMLESS_TOUR_KEYS]
        };
        for _ in 0..1 + self.rng.below(6) {
            let key = keys[self.rng.below(keys.len() as u32) as usize];
            self.tour.push(notation(key));
        }
        if self.may_quit && opener == "Q" && self.rng.one_in(3) {
            self.tour.push(Key::char('y'));
        }
        self.tour.reverse();
    }

    /// The random bot's next key, unless it would answer the quit prompt
    /// yes in a run that may not quit (or, fumbling, take the way down,
    /// which is the explorer's to take when a floor is done: a random `>`
    /// sends it down half-equipped to die).
    fn random_key(&mut self, game: &Game) -> Option<Key> {
        let key = self.random.next_keys(game)[0];
        let quits = matches!(key.code, KeyCode::Char('y' | 'Y'))
            && matches!(game.state().screens.last(), Some(Screen::QuitPrompt));
        let descends = !self.monkey && key == Key::char('>');
        ((self.may_quit || !quits) && !descends).then_some(key)
    }
}

/// One key in key notation, from the tables above.
pub(super) fn notation(text: &str) -> Key {
    Key::parse_all(text).expect("the tables hold valid notation")[0]
}

impl Bot for SwarmBot {
    fn next_keys(&mut self, game: &Game) -> Vec<Key> {
        let state = game.state();
        let map = &state.floor.map;
        let calm = !state.monsters.iter().any(|m| map.is_visible(m.pos));
        if !calm {
            self.tour.clear();
            self.burst = 0;
            // With a monster in view a run is refused, for free: a fumble
            // a player makes and the explorer never does.
            if self.rng.percent(self.touring) {
                return vec![run_key_for_direction(Dir::ALL[self.rng.below(8) as usize])];
            }
        } else if self.tour.is_empty() && self.rng.percent(self.touring) {
            self.plan_tour();
        }
        if let Some(key) = self.tour.pop() {
            return vec![key];
        }
        if self.monkey {
            if let Some(key) = self.random_key(game) {
                return vec![key];
            }
        } else if calm && self.fumbles > 0 {
            if self.burst == 0 && self.rng.percent(self.fumbles) {
                self.burst = 1 + self.rng.below(LONGEST_BURST);
            }
            if self.burst > 0 {
                self.burst -= 1;
                if let Some(key) = self.random_key(game) {
                    return vec![key];
                }
            }
        }
        self.explorer.next_keys(game)
    }

    fn leanings(&self) -> Option<String> {
        let mut words = if self.monkey {
            vec!["presses the random bot's keys, each kind weighed its own way".to_string()]
        } else {
            self.explorer.leanings.words()
        };
        if self.fumbles > 0 {
            words.push(format!("random keys in {}% of quiet moments", self.fumbles));
        }
        if self.fiddles && !self.monkey {
            words.push("picks from the pack on its tours".to_string());
        }
        words.push(format!(
            "tours the screens in {}% of quiet moments",
            self.touring
        ));
        if self.may_quit {
            words.push("may quit".to_string());
        }
        Some(words.join(", "))
    }
}
