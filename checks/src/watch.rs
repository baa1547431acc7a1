//! What the turn invariants compare against: the state before the key.

use game_core::content::{ItemId, MonsterId};
use game_core::dice::Dice;
use game_core::game::Game;
use game_core::game::events::Who;
use game_core::game::screens::Screen;
use game_core::game::state::{GameState, Monster, Pack, RunStatus, Statuses};
use game_core::game::turn::Actor;
use game_core::geom::Pos;
use game_core::keys::Key;
use game_core::map::Tile;

use crate::command::{Command, explore_has_target, map_command};

/// A creature as the watch saw it before the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Seen {
    pub(crate) who: Who,
    pub(crate) kind: Option<MonsterId>,
    pub(crate) pos: Pos,
    pub(crate) hp: i32,
    pub(crate) max_hp: i32,
    pub(crate) poison: Option<(u32, Dice)>,
    pub(crate) confused: u32,
    pub(crate) awake: bool,
    pub(crate) alive: bool,
    /// In the player's view (the player's own entry: always).
    pub(crate) visible: bool,
    /// When the turn queue has it act next (a monster's; `None` for the
    /// player, whose turn it is, or a monster the queue does not hold).
    pub(crate) due: Option<u64>,
}

impl Seen {
    /// The player as the watch sees it.
    fn player(state: &GameState) -> Seen {
        let (poison, confused) = statuses(&state.player.statuses);
        Seen {
            who: Who::Player,
            kind: None,
            pos: state.player.pos,
            hp: state.player.hp,
            max_hp: state.player.max_hp,
            poison,
            confused,
            awake: true,
            alive: !matches!(state.status, RunStatus::Died(_)),
            visible: true,
            due: None,
        }
    }

    /// Monster `m` as the watch sees it. Inlined: the watch is taken before
    /// every key.
    #[inline]
    fn monster(game: &Game, m: &Monster) -> Seen {
        let state = game.state();
        let (poison, confused) = statuses(&m.statuses);
        Seen {
            who: Who::Monster(m.id),
            kind: Some(m.kind),
            pos: m.pos,
            hp: m.hp,
            max_hp: game.content().monster(m.kind).max_hp,
            poison,
            confused,
            awake: m.awake,
            alive: true,
            visible: state.floor.map.is_visible(m.pos),
            due: state
                .clock
                .entries()
                .iter()
                .find(|e| e.actor == Actor::Monster(m.id))
                .map(|e| e.at),
        }
    }
}

/// A creature's poisoning (rounds left, dice a round) and confusion.
fn statuses(s: &Statuses) -> (Option<(u32, Dice)>, u32) {
    (s.poison.as_ref().map(|p| (p.rounds, p.damage)), s.confused)
}

/// What the turn invariants compare against: the state before the key, and
/// the key. Taken with [`TurnWatch::before`], handed to [`check_turn`] with
/// the state after the key and the key's [`game_core::Outcome`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnWatch {
    pub clock: u64,
    /// Player actions that had spent time.
    pub turns_taken: u32,
    /// How far the in-play random stream had been drawn.
    pub rng: u128,
    pub(crate) key: Key,
    pub(crate) playing: bool,
    /// Messages said so far, ever.
    pub(crate) log_total: u64,
    /// The player's turn had not come round: a press that got stuck left the
    /// turn loop to finish first.
    pub(crate) queued_player: bool,
    pub(crate) depth: u32,
    pub(crate) screens: Vec<Screen>,
    pub(crate) kills: u32,
    pub(crate) standing_on: Tile,
    pub(crate) monster_in_view: bool,
    /// Floor items the player has seen (a newly seen one stops a walk).
    pub(crate) items_seen: usize,
    /// Whether the reticle's cursor, if one is open, is on a tile in view.
    pub(crate) cursor_visible: bool,
    pub(crate) player: Seen,
    pub(crate) pack: Pack,
    pub(crate) wielded: Option<u8>,
    pub(crate) worn: Option<u8>,
    pub(crate) monsters: Vec<Seen>,
    /// Floor items, in the state's order: (where, what, how many).
    pub(crate) items: Vec<(Pos, ItemId, u32)>,
    /// Where the floor items the player has not seen yet lie.
    pub(crate) unseen_items: Vec<Pos>,
    /// For `o` on the map: whether the reference finds somewhere to go.
    pub(crate) explore_target: Option<bool>,
}

impl TurnWatch {
    /// The watch for pressing `key` on `game` as it stands.
    pub fn before(game: &Game, key: Key) -> TurnWatch {
        let state = game.state();
        let map = &state.floor.map;
        let player = Seen::player(state);
        let monsters = state
            .monsters
            .iter()
            .map(|m| Seen::monster(game, m))
            .collect();
        let playing = state.status == RunStatus::Playing;
        let queued_player = state.clock.contains(Actor::Player);
        let explore_target = (playing
            && !queued_player
            && state.screens.is_empty()
            && map_command(key) == Some(Command::Explore))
        .then(|| explore_has_target(game));
        let cursor_visible = match state.screens.last() {
            Some(Screen::Reticle(r)) => map.is_visible(r.cursor),
            _ => false,
        };
        TurnWatch {
            clock: state.clock.now(),
            turns_taken: state.turns_taken,
            rng: state.rng.position(),
            key,
            playing,
            log_total: state.log.total(),
            queued_player,
            depth: state.depth,
            screens: state.screens.clone(),
            kills: state.kills,
            standing_on: map.tile(state.player.pos),
            monster_in_view: state.monsters.iter().any(|m| map.is_visible(m.pos)),
            items_seen: state.items.iter().filter(|i| i.seen).count(),
            cursor_visible,
            player,
            pack: state.player.pack.clone(),
            wielded: state.player.wielded,
            worn: state.player.worn,
            monsters,
            items: state
                .items
                .iter()
                .map(|i| (i.pos, i.item, i.count))
                .collect(),
            unseen_items: state
                .items
                .iter()
                .filter(|i| !i.seen)
                .map(|i| i.pos)
                .collect(),
            explore_target,
        }
    }

    /// The key this watch was taken for.
    pub fn key(&self) -> Key {
        self.key
    }
}
