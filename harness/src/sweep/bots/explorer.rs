//! The explorer bot: plays to win, as a careful player would; the
//! balance's measure (docs/balance.md).

use game_core::content::ItemEffect;
use game_core::game::screens::key_for_direction;
use game_core::game::state::{GameState, Monster};
use game_core::geom::{Dir, Pos};
use game_core::map::Tile;
use game_core::rng::Stream;
use game_core::{Aim, Game, Intent, Key, RunSeed, Slot};

use crate::sweep::bots::Bot;
use crate::sweep::bots::leanings::{LOW_HP_PERCENT, Leanings};

/// Plays to win.
pub struct ExplorerBot {
    rng: Stream,
    /// The state at its last decision and how many decisions in a row have
    /// seen it since: a bot that keeps seeing the same state is going
    /// nowhere and tries a random step instead.
    last_state: Option<Seen>,
    repeats: u32,
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
    pub(super) leanings: Leanings,
}

/// Decisions without progress before the explorer stops chasing what it
/// cannot reach and heads for the way down: a monster and the bot can each
/// be unable to reach the other, and pursuing it, losing it and meeting it
/// again went round for the rest of a run (`play.progress`).
pub(super) const GIVE_UP_AFTER: u32 = 40;

/// Keys a monster gone out of view is followed for.
pub(super) const CHASE_KEYS: u32 = 8;
/// The longest route the explorer takes to close in on a monster.
pub(super) const CLOSE_IN_STEPS: usize = 12;

/// This many monsters in view at once are more than the explorer takes on
/// when it knows the way down.
pub(super) const OUTNUMBERED: usize = 3;
/// Seeing the same state this many times in a row breaks a stalemate.
pub(super) const STALEMATE: u32 = 3;

impl ExplorerBot {
    pub fn new(seed: u64) -> ExplorerBot {
        ExplorerBot {
            rng: RunSeed(seed).stream("bot-explorer", 0),
            last_state: None,
            repeats: 0,
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

/// A state as the explorer remembers it, to tell whether it sees the same
/// one again: what comparing the two states' hashes told, for a copy and a
/// comparison instead of an encoding of the whole state every decision.
///
/// The message log is kept as its two counts, not copied: a copy would
/// share the log's lines and make the game copy all hundred of them on the
/// next line said. The counts tell the lines apart because the explorer
/// sees one run pressed forward: a log changes only by a line said
/// (`MessageLog::push`, its one way to change), which raises its total, so
/// in one run the same total means the same lines.
struct Seen {
    /// The state, its log left empty.
    state: GameState,
    /// The log's total and its total when the latest key was pressed.
    log: (u64, u64),
}

impl Seen {
    fn of(state: &GameState) -> Seen {
        let mut kept = state.clone();
        kept.log = Default::default();
        Seen {
            state: kept,
            log: (state.log.total(), state.log.total_at_key_start()),
        }
    }

    /// Whether `now` is the state seen, field by field: the cheap ones that
    /// nearly every key changes first, the floor last.
    fn is(&self, now: &GameState) -> bool {
        let GameState {
            seed,
            content_fingerprint,
            canaries,
            depth,
            floor,
            player,
            monsters,
            items,
            clock,
            rng,
            screens,
            log: _,
            status,
            next_monster_id,
            turns_taken,
            kills,
        } = &self.state;
        (now.log.total(), now.log.total_at_key_start()) == self.log
            && now.clock == *clock
            && now.player == *player
            && now.turns_taken == *turns_taken
            && now.rng == *rng
            && now.seed == *seed
            && now.content_fingerprint == *content_fingerprint
            && now.canaries == *canaries
            && now.depth == *depth
            && now.monsters == *monsters
            && now.items == *items
            && now.screens == *screens
            && now.status == *status
            && now.next_monster_id == *next_monster_id
            && now.kills == *kills
            && now.floor == *floor
    }
}

impl Bot for ExplorerBot {
    fn next_keys(&mut self, game: &Game) -> Vec<Key> {
        let now = game.state();
        if self.last_state.as_ref().is_some_and(|last| last.is(now)) {
            self.repeats += 1;
        } else {
            self.last_state = Some(Seen::of(now));
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
pub(super) fn find_item(game: &Game, wanted: impl Fn(&ItemEffect) -> bool) -> Option<Slot> {
    game.state()
        .player
        .pack
        .slots()
        .find(|(_, stack)| wanted(&game.content().item(stack.item).effect))
        .map(|(slot, _)| Slot::new(slot))
}

/// A route from `from` to `to`, through the game's own pathfinding.
pub(super) fn route(state: &GameState, from: Pos, to: Pos) -> Option<Vec<Pos>> {
    let map = &state.floor.map;
    game_core::paths::astar(map, from, to, map.len())
}

/// The first step of a route from `from` to `to`.
pub(super) fn first_step(state: &GameState, from: Pos, to: Pos) -> Option<Dir> {
    route(state, from, to)?
        .first()
        .and_then(|&next| from.direction_to(next))
}

/// The step an intent to step takes.
pub(super) fn step_of(intent: Intent) -> Option<Dir> {
    match intent {
        Intent::Step(dir) => Some(dir),
        _ => None,
    }
}

/// The first step toward the nearest known tile that borders the unknown,
/// over known ground: exploring by hand.
pub(super) fn frontier_step(state: &GameState) -> Option<Dir> {
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
pub(super) fn explored(state: &GameState) -> bool {
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

    /// The explorer's memory of a state tells what comparing the states
    /// whole tells, across a random walk that opens screens, says lines and
    /// leaves keys that change nothing.
    #[test]
    fn a_remembered_state_is_the_same_exactly_when_the_states_are_equal() {
        let mut game = Game::new(GameConfig::new(3)).expect("a game");
        let mut rng = RunSeed(3).stream("test-seen", 0);
        let keys = Key::parse_all("hjklyubn.o;<Esc>i<Esc>?<Esc>xq<Tab>>g").expect("keys");
        let (mut same, mut differ) = (0, 0);
        let mut before = (Seen::of(game.state()), game.state().clone());
        for _ in 0..600 {
            let key = *rng.pick(&keys).expect("keys");
            game.press(key).expect("no stuck loop");
            if game.is_over() {
                break;
            }
            let equal = *game.state() == before.1;
            assert_eq!(before.0.is(game.state()), equal, "after {key}");
            if equal {
                same += 1;
            } else {
                differ += 1;
            }
            before = (Seen::of(game.state()), game.state().clone());
        }
        assert!(same > 0 && differ > 0, "{same} same, {differ} differ");
    }
}
