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

use game_core::content::ItemEffect;
use game_core::game::screens::{Screen, key_for_direction, run_key_for_direction};
use game_core::game::state::{GameState, Monster};
use game_core::geom::{Dir, Pos};
use game_core::keys::KeyCode;
use game_core::map::Tile;
use game_core::rng::Stream;
use game_core::{Aim, Game, Intent, Key, RunSeed, Slot};

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

/// What a swarm run leaves out or leans on. The default is the explorer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leanings {
    /// Never throws anything.
    pub never_throw: bool,
    /// Throws what it has at a monster in range before anything else, a
    /// neighbour too.
    pub throw_first: bool,
    /// Never waits: a confused player stumbles about instead of waiting the
    /// confusion out, and a bot with nowhere to go steps anyway.
    pub never_rest: bool,
    /// Never reads a scroll.
    pub never_read: bool,
    /// Never drinks a potion.
    pub never_drink: bool,
    /// Makes for the way down as soon as it knows it.
    pub prefer_stairs: bool,
    /// The one depth on which the switches above hold (never throw, throw
    /// first, never read, never drink, make for the stairs); `None`: on
    /// every floor.
    pub on_depth: Option<u32>,
    /// Hit points (percent of the most) at or below which it drinks healing.
    pub drink_below: i32,
    /// Hit points (percent of the most) at or below which, with nothing to
    /// drink, it makes for the way down.
    pub hurry_below: i32,
}

impl Default for Leanings {
    /// The explorer's own play.
    fn default() -> Leanings {
        Leanings {
            never_throw: false,
            throw_first: false,
            never_rest: false,
            never_read: false,
            never_drink: false,
            prefer_stairs: false,
            on_depth: None,
            drink_below: LOW_HP_PERCENT,
            hurry_below: HURRY_HP_PERCENT,
        }
    }
}

impl Leanings {
    /// The leanings that hold on `depth`: the switches only on their own
    /// floor.
    fn at(&self, depth: u32) -> Leanings {
        if self.on_depth.is_none_or(|d| d == depth) {
            return *self;
        }
        Leanings {
            never_throw: false,
            throw_first: false,
            never_read: false,
            never_drink: false,
            prefer_stairs: false,
            ..*self
        }
    }

    /// Whether an item of this effect may be used (drunk, read or thrown).
    fn allows(&self, effect: &ItemEffect) -> bool {
        match effect {
            ItemEffect::Heal { .. } | ItemEffect::CurePoison => !self.never_drink,
            ItemEffect::Teleport | ItemEffect::Confuse { .. } | ItemEffect::MagicMapping => {
                !self.never_read
            }
            ItemEffect::Thrown { .. } => !self.never_throw,
            _ => true,
        }
    }

    /// The leanings that hold, in words: "never throws, makes for the
    /// stairs, drinks at 30% and hurries at 45%".
    fn words(&self) -> Vec<String> {
        let switches = [
            (self.never_throw, "never throws"),
            (self.throw_first, "throws first"),
            (self.never_rest, "never rests"),
            (self.never_read, "never reads"),
            (self.never_drink, "never drinks"),
            (self.prefer_stairs, "makes for the stairs"),
        ];
        let on = match self.on_depth {
            Some(depth) => format!(" on depth {depth}"),
            None => String::new(),
        };
        let mut words: Vec<String> = switches
            .into_iter()
            .filter(|(on, _)| *on)
            .map(|(_, word)| format!("{word}{on}"))
            .collect();
        let default = Leanings::default();
        if (self.drink_below, self.hurry_below) != (default.drink_below, default.hurry_below) {
            words.push(format!(
                "drinks at {}% and hurries at {}% of its hit points",
                self.drink_below, self.hurry_below
            ));
        }
        words
    }
}

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
/// bot's sweeps pooled (docs/invariants.md, "Swarm"). The random bot's
/// situations (deaths on the first floors, a potion drunk at full health, a
/// confused stumble into a creature) come from the monkeys, which never
/// quit and so live and die on the first floors more often than the random
/// bot; the deep ones (depth 6, trolls and basilisks) from the explorers,
/// which must lose little: a leaning that switches an action off for a
/// whole run costs about half a point of depth 6 per percent of runs it
/// holds in (never throwing, never drinking), and takes that action's
/// situations with it, so the switches hold on one floor each. Measured on
/// seeds 1..2001 and 2001..4001, every situation but the run's end (won,
/// died, quit: one per run, so no bot reaches all three as often as two
/// bots together) is reached at least as often as the two sweeps pooled.
pub struct SwarmBot {
    explorer: ExplorerBot,
    random: RandomBot,
    /// The swarm's own stream: the run's leanings, then its tours and
    /// fumbles.
    rng: Stream,
    /// Whether this run presses the random bot's keys instead of the
    /// explorer's.
    monkey: bool,
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
const TOUR_OPENERS: [&str; 8] = ["?", "m", "i", "d", "a", "t", "w", "Q"];
/// What a tour presses on a screen: scrolling, paging and ways out, then
/// (when the run fiddles) a pack letter, which on the pack opens the item
/// menu and on a drop or use screen acts, Enter, which does an item menu's
/// first action, and a menu's letters with Ctrl or Alt held, which a
/// terminal sends and no menu reads.
const TOUR_KEYS: [&str; 19] = [
    "j", "k", "<Down>", "<Up>", "<PgDn>", "<PgUp>", "<Home>", "<End>", "<Space>", "<Esc>", "n",
    "a", "b", "c", "<Enter>", "<C-a>", "<C-d>", "<A-t>", "<C-w>",
];
/// How many of [`TOUR_KEYS`] a run that does not fiddle presses: none that
/// acts. A tour that drank a potion or read a scroll at nothing in a quiet
/// moment left the run without it when a monster came.
const HARMLESS_TOUR_KEYS: usize = 11;
/// The longest burst of random keys: enough to open a screen and work it.
const LONGEST_BURST: u32 = 12;

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
fn notation(text: &str) -> Key {
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

/// The random bot's keys, (notation, weight): moving and exploring most,
/// menus and aiming often enough to reach every screen, quitting rarely;
/// every key the help lists, aliases too (digits, arrows and the numpad's
/// navigation keys, Shift for a run, Shift-Tab), so a key that stops
/// working is pressed.
const RANDOM_KEYS: [(&str, u32); 69] = [
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
const KEY_GROUPS: [std::ops::Range<usize>; 10] = [
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
    fn reweigh(&mut self, rng: &mut Stream) {
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

/// Plays to win.
pub struct ExplorerBot {
    rng: Stream,
    /// State hash and repeat count: a bot that keeps seeing the same state is
    /// going nowhere and tries a random step instead.
    last_hash: u64,
    repeats: u32,
    /// The buffer the state is encoded into for its hash, kept between keys.
    hash_buffer: Vec<u8>,
    /// The item it is walking to. Once chosen it is kept until reached or
    /// gone: choosing afresh each step let two items trade places as the
    /// nearest one in view, and the bot walked back and forth between them
    /// for the rest of its run (found by `play.progress`).
    item_target: Option<Pos>,
    /// Where the monster it was closing in on was last seen, and for how
    /// many more keys to follow it there.
    chase: Option<(Pos, u32)>,
    /// (revealed tiles, depth, kills, pack size) when it last got anywhere,
    /// and decisions since.
    progress: ((usize, u32, u32, usize), u32),
    /// What it leaves out or leans on: none for the explorer, a swarm run's
    /// own.
    leanings: Leanings,
}

/// Decisions without progress before the explorer stops chasing what it
/// cannot reach and heads for the way down: a monster and the bot can each
/// be unable to reach the other, and pursuing it, losing it and meeting it
/// again went round for the rest of a run (`play.progress`).
const GIVE_UP_AFTER: u32 = 40;

/// Keys a monster gone out of view is followed for.
const CHASE_KEYS: u32 = 8;
/// The longest route the explorer takes to close in on a monster.
const CLOSE_IN_STEPS: usize = 12;

/// Hit points at or below this fraction (percent) of the maximum send the
/// explorer to its potions.
const LOW_HP_PERCENT: i32 = 45;
/// Hit points at or below this fraction (percent) of the maximum, with no
/// potion to drink, send the explorer to the way down as soon as it knows
/// it: the next floor's finds are a better hope than this floor's fights.
const HURRY_HP_PERCENT: i32 = 60;
/// This many monsters in view at once are more than the explorer takes on
/// when it knows the way down.
const OUTNUMBERED: usize = 3;
/// Seeing the same state this many times in a row breaks a stalemate.
const STALEMATE: u32 = 3;

impl ExplorerBot {
    pub fn new(seed: u64) -> ExplorerBot {
        ExplorerBot {
            rng: RunSeed(seed).stream("bot-explorer", 0),
            last_hash: 0,
            repeats: 0,
            hash_buffer: Vec::new(),
            item_target: None,
            chase: None,
            progress: ((0, 0, 0, 0), 0),
            leanings: Leanings::default(),
        }
    }

    /// The first pack slot holding an item whose effect matches, among those
    /// the leanings let it use.
    fn usable(&self, game: &Game, wanted: impl Fn(&ItemEffect) -> bool) -> Option<Slot> {
        let leanings = self.leanings.at(game.state().depth);
        find_item(game, |e| wanted(e) && leanings.allows(e))
    }

    /// Waiting, unless the leanings say never to rest: then a step any way
    /// (confused, a stumble).
    fn wait_or_wander(&mut self) -> Intent {
        if self.leanings.never_rest {
            Intent::Step(Dir::ALL[self.rng.below(8) as usize])
        } else {
            Intent::Wait
        }
    }

    /// The explorer's choice, in order of urgency: save itself, leave the
    /// floor when it should, fight what it sees, and with nothing in view,
    /// follow, pick up, equip, map, descend or explore.
    fn decide(&mut self, game: &Game) -> Intent {
        let state = game.state();
        let map = &state.floor.map;
        let seen: Vec<&Monster> = state
            .monsters
            .iter()
            .filter(|m| map.is_visible(m.pos))
            .collect();
        if let Some(intent) = self.save_itself(game, &seen) {
            return intent;
        }
        if let Some(intent) = self.leave_when_it_should(game, &seen) {
            return intent;
        }
        if let Some(intent) = self.fight(game, &seen) {
            return intent;
        }
        self.go_on_unseen(game)
    }

    /// Drinking when low, reading its way out when low with a monster at its
    /// throat (at the explorer's mark, whenever the run drinks), curing a
    /// poisoning.
    fn save_itself(&self, game: &Game, seen: &[&Monster]) -> Option<Intent> {
        let state = game.state();
        let me = state.player.pos;
        let below = |percent: i32| state.player.hp * 100 <= state.player.max_hp * percent;
        let use_it = |slot| Intent::Use {
            slot,
            aim: Aim::Nearest,
        };
        if below(self.leanings.drink_below)
            && let Some(slot) = self.usable(game, |e| matches!(e, ItemEffect::Heal { .. }))
        {
            return Some(use_it(slot));
        }
        if below(LOW_HP_PERCENT)
            && seen.iter().any(|m| me.chebyshev(m.pos) == 1)
            && let Some(slot) = self.usable(game, |e| matches!(e, ItemEffect::Teleport))
        {
            return Some(use_it(slot));
        }
        if state.player.statuses.is_poisoned()
            && let Some(slot) = self.usable(game, |e| matches!(e, ItemEffect::CurePoison))
        {
            return Some(use_it(slot));
        }
        None
    }

    /// Hurt with nothing to drink, outnumbered, or on the last floor where
    /// the way out ends the run: go for the way down once it is known,
    /// rather than explore and fight more of the floor.
    fn leave_when_it_should(&mut self, game: &Game, seen: &[&Monster]) -> Option<Intent> {
        let state = game.state();
        let last_floor = state.depth >= game_core::mapgen::LAST_DEPTH;
        let no_healing = self
            .usable(game, |e| matches!(e, ItemEffect::Heal { .. }))
            .is_none();
        let hurt = state.player.hp * 100 <= state.player.max_hp * self.leanings.hurry_below;
        let outnumbered = seen.len() >= OUTNUMBERED;
        if (last_floor
            || outnumbered
            || hurt && no_healing
            || self.leanings.at(state.depth).prefer_stairs)
            && !state.player.statuses.is_confused()
        {
            return self.head_down(game);
        }
        None
    }

    /// With monsters about: throw first when the run leans so, step into a
    /// neighbour, pick up what lies underfoot, then confuse, throw at or
    /// close in on the nearest in view.
    fn fight(&mut self, game: &Game, seen: &[&Monster]) -> Option<Intent> {
        let state = game.state();
        let me = state.player.pos;
        let map = &state.floor.map;
        // Throwing first: at a monster in range, a neighbour too, before
        // any swing.
        if self.leanings.at(state.depth).throw_first
            && seen
                .iter()
                .any(|m| me.chebyshev(m.pos) <= game_core::rules::THROW_RANGE)
            && let Some(slot) = self.usable(game, |e| matches!(e, ItemEffect::Thrown { .. }))
        {
            return Some(Intent::Throw {
                slot,
                aim: Aim::Nearest,
            });
        }
        if let Some(m) = seen
            .iter()
            .find(|m| me.direction_to(m.pos).is_some_and(|d| map.can_step(me, d)))
        {
            return Some(Intent::Step(me.direction_to(m.pos).expect("adjacent")));
        }
        // What lies underfoot is picked up before a distant monster is
        // chased: stepping off it to chase one that then goes out of view
        // sent the bot back to the item, and round again (`play.progress`).
        if state.items.iter().any(|i| i.pos == me)
            && state.player.pack.len() < game_core::game::state::PACK_SLOTS
            && !state.player.statuses.is_confused()
        {
            return Some(Intent::PickUp);
        }
        if seen.is_empty() {
            return None;
        }
        let nearest = seen.iter().map(|m| me.chebyshev(m.pos)).min().unwrap_or(0);
        if nearest <= game_core::rules::THROW_RANGE
            && let Some(intent) = self.at_range(game, seen)
        {
            return Some(intent);
        }
        Some(self.close_in(game, seen))
    }

    /// A monster in throwing range: confuse a strong one, throw at any.
    fn at_range(&self, game: &Game, seen: &[&Monster]) -> Option<Intent> {
        let state = game.state();
        let strong = seen
            .iter()
            .any(|m| game.content().monster(m.kind).danger > state.depth + 1);
        if strong && let Some(slot) = self.usable(game, |e| matches!(e, ItemEffect::Confuse { .. }))
        {
            return Some(Intent::Use {
                slot,
                aim: Aim::Nearest,
            });
        }
        self.usable(game, |e| matches!(e, ItemEffect::Thrown { .. }))
            .map(|slot| Intent::Throw {
                slot,
                aim: Aim::Nearest,
            })
    }

    /// Close in on the nearest monster rather than wait for it: a monster
    /// that cannot reach us would otherwise hold the bot forever. One only
    /// reached the long way round is left be, and the bot goes on exploring
    /// by hand (auto-explore refuses with a monster in view).
    fn close_in(&mut self, game: &Game, seen: &[&Monster]) -> Intent {
        let state = game.state();
        let me = state.player.pos;
        let nearest = seen
            .iter()
            .min_by_key(|m| (me.chebyshev(m.pos), m.pos.y, m.pos.x))
            .map(|m| m.pos);
        let route = nearest.and_then(|at| route(state, me, at));
        if let (Some(at), Some(route)) = (nearest, route)
            && route.len() <= CLOSE_IN_STEPS
            && let Some(dir) = route.first().and_then(|&next| me.direction_to(next))
        {
            self.chase = Some((at, CHASE_KEYS));
            return Intent::Step(dir);
        }
        let by_hand = self
            .item_step(state)
            .or_else(|| frontier_step(state))
            .or_else(|| self.head_down(game).and_then(step_of));
        match by_hand {
            Some(dir) => Intent::Step(dir),
            None => self.wait_or_wander(),
        }
    }

    /// Nothing in view: follow a monster just gone, pick up, wait out a
    /// confusion, equip, map, descend from an explored floor, walk to an
    /// item, or explore.
    fn go_on_unseen(&mut self, game: &Game) -> Intent {
        let state = game.state();
        let me = state.player.pos;
        let map = &state.floor.map;
        // A monster just out of view is followed to where it was last seen
        // for a few keys, rather than dropped for the next thing in view and
        // chased again when it reappears.
        if let Some((at, left)) = self.chase.take()
            && at != me
            && left > 0
            && let Some(dir) = first_step(state, me, at)
        {
            self.chase = Some((at, left - 1));
            return Intent::Step(dir);
        }
        if state.items.iter().any(|i| i.pos == me)
            && state.player.pack.len() < game_core::game::state::PACK_SLOTS
        {
            return Intent::PickUp;
        }
        // Walks refuse a confused player for free, so the confusion would
        // never wear off: wait it out (found by `play.progress`).
        if state.player.statuses.is_confused() {
            return self.wait_or_wander();
        }
        if let Some(intent) = self.better_equipment(game) {
            return intent;
        }
        if let Some(slot) = self.usable(game, |e| matches!(e, ItemEffect::MagicMapping)) {
            return Intent::Use {
                slot,
                aim: Aim::Nearest,
            };
        }
        if matches!(map.tile(me), Tile::StairsDown | Tile::Exit) && explored(state) {
            return Intent::Descend;
        }
        if let Some(dir) = self.item_step(state) {
            return Intent::Step(dir);
        }
        Intent::AutoExplore
    }

    /// Wield a weapon or wear armour that is better than what is on.
    fn better_equipment(&self, game: &Game) -> Option<Intent> {
        let state = game.state();
        let content = game.content();
        let effect_of = |slot: Option<u8>| {
            slot.and_then(|s| state.player.pack.get(s))
                .map(|s| &content.item(s.item).effect)
        };
        let wielded_score = match effect_of(state.player.wielded) {
            Some(ItemEffect::Weapon { to_hit, damage }) => damage.max() + damage.min() + 2 * to_hit,
            _ => 0,
        };
        let worn_score = match effect_of(state.player.worn) {
            Some(ItemEffect::Armour { defence }) => *defence,
            _ => 0,
        };
        for (slot, stack) in state.player.pack.slots() {
            match &content.item(stack.item).effect {
                ItemEffect::Weapon { to_hit, damage }
                    if damage.max() + damage.min() + 2 * to_hit > wielded_score =>
                {
                    return Some(Intent::Wear {
                        slot: Slot::new(slot),
                    });
                }
                ItemEffect::Armour { defence } if *defence > worn_score => {
                    return Some(Intent::Wear {
                        slot: Slot::new(slot),
                    });
                }
                _ => {}
            }
        }
        None
    }
}

impl Bot for ExplorerBot {
    fn next_keys(&mut self, game: &Game) -> Vec<Key> {
        let hash = game.state_hash_in(&mut self.hash_buffer);
        if hash == self.last_hash {
            self.repeats += 1;
        } else {
            self.last_hash = hash;
            self.repeats = 0;
        }
        if self.repeats >= STALEMATE {
            // Going nowhere: a random step shakes things loose.
            self.repeats = 0;
            let dir = Dir::ALL[self.rng.below(8) as usize];
            return vec![key_for_direction(dir)];
        }
        let state = game.state();
        let now = (
            state.floor.map.revealed.count(),
            state.depth,
            state.kills,
            state.player.pack.len(),
        );
        self.progress = if now == self.progress.0 {
            (now, self.progress.1 + 1)
        } else {
            (now, 0)
        };
        let stuck = self.progress.1 > GIVE_UP_AFTER;
        let intent = match stuck.then(|| self.head_down(game)).flatten() {
            Some(intent) => intent,
            None => self.decide(game),
        };
        let keys = game.keys_for(&intent);
        if keys.is_empty() {
            vec![Key::char('.')]
        } else {
            keys
        }
    }
}

impl ExplorerBot {
    /// A step toward an item: items in view are worth the walk, and the one
    /// chosen is kept to until it is reached or gone.
    fn item_step(&mut self, state: &GameState) -> Option<Dir> {
        let me = state.player.pos;
        let map = &state.floor.map;
        let kept = self
            .item_target
            .filter(|&t| t != me && state.items.iter().any(|i| i.pos == t));
        self.item_target = kept.or_else(|| {
            state
                .items
                .iter()
                .filter(|i| map.is_visible(i.pos) && i.pos != me)
                .min_by_key(|i| (me.chebyshev(i.pos), i.pos.y, i.pos.x))
                .map(|i| i.pos)
        });
        let step = self.item_target.and_then(|t| first_step(state, me, t));
        if step.is_none() {
            self.item_target = None;
        }
        step
    }

    /// Straight for the way down, when it is known and no monster is next
    /// to the bot; on it, down.
    fn head_down(&mut self, game: &Game) -> Option<Intent> {
        let state = game.state();
        let (me, goal) = (state.player.pos, state.floor.goal);
        let map = &state.floor.map;
        let beset = state.monsters.iter().any(|m| me.chebyshev(m.pos) == 1);
        if beset || !map.is_revealed(goal) {
            return None;
        }
        self.chase = None;
        self.item_target = None;
        if me == goal {
            return Some(Intent::Descend);
        }
        first_step(state, me, goal).map(Intent::Step)
    }
}

/// The first pack slot holding an item whose effect matches.
fn find_item(game: &Game, wanted: impl Fn(&ItemEffect) -> bool) -> Option<Slot> {
    game.state()
        .player
        .pack
        .slots()
        .find(|(_, stack)| wanted(&game.content().item(stack.item).effect))
        .map(|(slot, _)| Slot::new(slot))
}

/// A route from `from` to `to`, through the game's own pathfinding.
fn route(state: &GameState, from: Pos, to: Pos) -> Option<Vec<Pos>> {
    let map = &state.floor.map;
    game_core::paths::astar(map, from, to, map.len())
}

/// The first step of a route from `from` to `to`.
fn first_step(state: &GameState, from: Pos, to: Pos) -> Option<Dir> {
    route(state, from, to)?
        .first()
        .and_then(|&next| from.direction_to(next))
}

/// The step an intent to step takes.
fn step_of(intent: Intent) -> Option<Dir> {
    match intent {
        Intent::Step(dir) => Some(dir),
        _ => None,
    }
}

/// The first step toward the nearest known tile that borders the unknown,
/// over known ground: exploring by hand.
fn frontier_step(state: &GameState) -> Option<Dir> {
    let map = &state.floor.map;
    let from = state.player.pos;
    let mut first: Vec<Option<Dir>> = vec![None; map.len()];
    let mut seen = vec![false; map.len()];
    seen[map.xy_idx(from)] = true;
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(here) = queue.pop_front() {
        let borders_unknown = Dir::ALL.iter().any(|&d| {
            let p = here.step(d);
            map.in_bounds(p) && !map.is_revealed(p)
        });
        if here != from && borders_unknown {
            return first[map.xy_idx(here)];
        }
        for dir in Dir::ALL {
            let next = here.step(dir);
            if !map.in_bounds(next) || !map.is_revealed(next) || !map.can_step(here, dir) {
                continue;
            }
            let i = map.xy_idx(next);
            if !seen[i] {
                seen[i] = true;
                first[i] = first[map.xy_idx(here)].or(Some(dir));
                queue.push_back(next);
            }
        }
    }
    None
}

/// Whether nothing walkable the player could reach is still unknown: every
/// revealed walkable tile has only revealed neighbours.
fn explored(state: &GameState) -> bool {
    let map = &state.floor.map;
    map.revealed
        .iter_ones()
        .map(|i| map.idx_pos(i))
        .filter(|&p| map.is_walkable(p))
        .all(|p| {
            Dir::ALL
                .iter()
                .all(|&d| !map.in_bounds(p.step(d)) || map.is_revealed(p.step(d)))
        })
}

#[cfg(test)]
mod tests {
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
