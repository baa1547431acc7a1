//! Bots that play the game by pressing keys, so every bot run is an ordinary
//! recording. Each draws from its own named stream of the run's seed, never
//! from the game's, so a bot's choices are as reproducible as the game.
//!
//! - `random` presses weighted random keys, menus, throws and Esc included:
//!   it goes where a player's fumbling goes.
//! - `explorer` plays to win: explores, fights what it meets, drinks healing
//!   when low, reads and throws, wears what it finds, and descends when the
//!   floor is done.

use game_core::content::ItemEffect;
use game_core::game::screens::key_for_direction;
use game_core::game::state::GameState;
use game_core::geom::{Dir, Pos};
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
}

impl BotKind {
    /// The name the command line takes (`--bot explorer`).
    pub const fn name(self) -> &'static str {
        match self {
            BotKind::None => "none",
            BotKind::Random => "random",
            BotKind::Explorer => "explorer",
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
}

/// The bot of `kind` for the run of `seed`; `None` for [`BotKind::None`].
pub fn bot(kind: BotKind, seed: u64) -> Option<Box<dyn Bot + Send>> {
    match kind {
        BotKind::None => None,
        BotKind::Random => Some(Box::new(RandomBot::new(seed))),
        BotKind::Explorer => Some(Box::new(ExplorerBot::new(seed))),
    }
}

/// Weighted random keys.
pub struct RandomBot {
    rng: Stream,
    keys: Vec<Key>,
    weights: Vec<u32>,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        // (notation, weight): moving and exploring most, menus and aiming
        // often enough to reach every screen, quitting rarely; every key the
        // help lists, aliases too (digits, arrows and the numpad's
        // navigation keys, Shift for a run, Shift-Tab), so a key that stops
        // working is pressed.
        const TABLE: [(&str, u32); 69] = [
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
        let (keys, weights) = TABLE
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
        }
    }

    fn decide(&mut self, game: &Game) -> Intent {
        let state = game.state();
        let me = state.player.pos;
        let map = &state.floor.map;
        let seen: Vec<&game_core::game::state::Monster> = state
            .monsters
            .iter()
            .filter(|m| map.is_visible(m.pos))
            .collect();
        let low = state.player.hp * 100 <= state.player.max_hp * LOW_HP_PERCENT;
        if low && let Some(slot) = find_item(game, |e| matches!(e, ItemEffect::Heal { .. })) {
            return Intent::Use {
                slot,
                aim: Aim::Nearest,
            };
        }
        // Low with nothing to drink and a monster at its throat: read its
        // way out.
        if low
            && seen.iter().any(|m| me.chebyshev(m.pos) == 1)
            && let Some(slot) = find_item(game, |e| matches!(e, ItemEffect::Teleport))
        {
            return Intent::Use {
                slot,
                aim: Aim::Nearest,
            };
        }
        if state.player.statuses.is_poisoned()
            && let Some(slot) = find_item(game, |e| matches!(e, ItemEffect::CurePoison))
        {
            return Intent::Use {
                slot,
                aim: Aim::Nearest,
            };
        }
        // Hurt with nothing to drink, outnumbered, or on the last floor
        // where the way out ends the run: go for the way down once it is
        // known, rather than explore and fight more of the floor.
        let last_floor = state.depth >= game_core::mapgen::LAST_DEPTH;
        let no_healing = find_item(game, |e| matches!(e, ItemEffect::Heal { .. })).is_none();
        let hurt = state.player.hp * 100 <= state.player.max_hp * HURRY_HP_PERCENT;
        let outnumbered = seen.len() >= OUTNUMBERED;
        if (last_floor || outnumbered || hurt && no_healing)
            && !state.player.statuses.is_confused()
            && let Some(intent) = self.head_down(game)
        {
            return intent;
        }
        if let Some(m) = seen
            .iter()
            .find(|m| me.direction_to(m.pos).is_some_and(|d| map.can_step(me, d)))
        {
            return Intent::Step(me.direction_to(m.pos).expect("adjacent"));
        }
        // What lies underfoot is picked up before a distant monster is
        // chased: stepping off it to chase one that then goes out of view
        // sent the bot back to the item, and round again (`play.progress`).
        if state.items.iter().any(|i| i.pos == me)
            && state.player.pack.len() < game_core::game::state::PACK_SLOTS
            && !state.player.statuses.is_confused()
        {
            return Intent::PickUp;
        }
        if !seen.is_empty() {
            let nearest = seen.iter().map(|m| me.chebyshev(m.pos)).min().unwrap_or(0);
            if nearest <= game_core::rules::THROW_RANGE {
                let strong = seen
                    .iter()
                    .any(|m| game.content().monster(m.kind).danger > state.depth + 1);
                if strong
                    && let Some(slot) = find_item(game, |e| matches!(e, ItemEffect::Confuse { .. }))
                {
                    return Intent::Use {
                        slot,
                        aim: Aim::Nearest,
                    };
                }
                if let Some(slot) = find_item(game, |e| matches!(e, ItemEffect::Thrown { .. })) {
                    return Intent::Throw {
                        slot,
                        aim: Aim::Nearest,
                    };
                }
            }
            // Close in on the nearest one rather than wait for it: a monster
            // that cannot reach us would otherwise hold the bot forever. One
            // only reached the long way round is left be, and the bot goes on
            // exploring by hand (auto-explore refuses with a monster in view).
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
            return match by_hand {
                Some(dir) => Intent::Step(dir),
                None => Intent::Wait,
            };
        }
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
            return Intent::Wait;
        }
        if let Some(intent) = self.better_equipment(game) {
            return intent;
        }
        if let Some(slot) = find_item(game, |e| matches!(e, ItemEffect::MagicMapping)) {
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
    fn bots_are_deterministic() {
        for kind in [BotKind::Random, BotKind::Explorer] {
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
