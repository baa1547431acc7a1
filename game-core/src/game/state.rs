//! The whole game state, as plain serializable data.
//!
//! Everything that can change during a run lives in [`GameState`], and
//! nothing else does: the state hash and saves both serialize it, so a field
//! added here is hashed and saved without further work. Derived data that is
//! cheap to rebuild (the Dijkstra map) lives outside it, in the game's cache.

use std::collections::VecDeque;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::canary::Canaries;
use crate::content::{ItemId, MonsterId};
use crate::dice::Dice;
use crate::geom::Pos;
use crate::map::SharedMap;
use crate::mapgen::{GeneratorKind, Vault};
use crate::rng::{RunSeed, Stream};

use super::screens::Screen;
use super::turn::TurnQueue;

// The pack and a monster's id are the state's too; they sit below it, where
// the screens and the turn queue that name them can reach them.
pub use super::pack::{MAX_STACK, PACK_SLOTS, Pack, Stack, letter_slot, slot_letter};
pub use super::turn::MonsterRef;

/// Messages kept in the log (older ones fall off).
pub const LOG_CAPACITY: usize = 100;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    pub seed: RunSeed,
    /// The content this run was started with; a save only loads against it.
    pub content_fingerprint: u64,
    /// Planted defects switched on for this run (none in a normal run).
    pub canaries: Canaries,
    pub depth: u32,
    pub floor: Floor,
    pub player: Player,
    /// Living monsters, in spawn order (which is also turn-order tie order).
    pub monsters: Vec<Monster>,
    pub items: Vec<FloorItem>,
    pub clock: TurnQueue,
    /// In-play randomness: combat rolls, stumbles, teleports.
    pub rng: Stream,
    /// The modal stack, bottom first. Empty means the map has the keys.
    pub screens: Vec<Screen>,
    pub log: MessageLog,
    pub status: RunStatus,
    /// Next id for a spawned monster.
    pub next_monster_id: u32,
    /// Player actions that spent time.
    pub turns_taken: u32,
    pub kills: u32,
}

/// The current floor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Floor {
    /// Shared between copies of the game until one changes it.
    pub map: SharedMap,
    pub generator: GeneratorKind,
    pub start: Pos,
    /// Stairs down, or the exit on the last floor.
    pub goal: Pos,
    pub rooms: u32,
    pub vault: Option<Vault>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub pos: Pos,
    pub hp: i32,
    pub max_hp: i32,
    pub statuses: Statuses,
    pub pack: Pack,
    /// Pack slot of the wielded weapon.
    pub wielded: Option<u8>,
    /// Pack slot of the worn armour.
    pub worn: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Monster {
    pub id: MonsterRef,
    pub kind: MonsterId,
    pub pos: Pos,
    pub hp: i32,
    pub statuses: Statuses,
    /// Has it noticed the player? Monsters wake when the player sees them.
    pub awake: bool,
}

/// Conditions on a creature, ticked once a round.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Statuses {
    pub poison: Option<Poisoned>,
    /// Rounds of confusion left.
    pub confused: u32,
}

impl Statuses {
    pub fn is_poisoned(&self) -> bool {
        self.poison.is_some()
    }

    pub fn is_confused(&self) -> bool {
        self.confused > 0
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Poisoned {
    pub rounds: u32,
    pub damage: Dice,
    /// Who poisoned it, for the tombstone: "a giant newt".
    pub source: String,
}

/// Items lying on the floor. Several may share a tile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FloorItem {
    pub item: ItemId,
    pub count: u32,
    pub pos: Pos,
    /// Has the player seen it? Auto-explore stops for newly seen items.
    pub seen: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Whole turns on the clock when it was last said.
    pub turn: u64,
    pub text: String,
    /// How many times in a row it was said: a repeat is merged into the
    /// line before it ("Not with a monster in view. (x3)") rather than
    /// pushing older lines off the screen. At least 1.
    #[serde(default = "once")]
    pub count: u64,
}

/// A message said once: what a save from before repeats were merged holds.
fn once() -> u64 {
    1
}

impl Message {
    /// The message as a player reads it, with its repeats: "You miss. (x2)".
    pub fn shown(&self) -> String {
        if self.count > 1 {
            format!("{} (x{})", self.text, self.count)
        } else {
            self.text.clone()
        }
    }
}

/// The message log: the last [`LOG_CAPACITY`] messages (a repeat of the
/// newest merged into it), a count of every message ever said so callers can
/// ask what is new, and that count as it was when the latest key was
/// pressed, so the frame can draw that key's messages bright and older ones
/// dim from the state alone (replays and the viewer redraw from it).
///
/// The messages are shared between copies of a game until one of them says
/// something: the harness copies the game after every key on a screen (to
/// check that Esc closes it) and fuzzers copy started games, and copying a
/// hundred strings each time was most of that cost. Serialised as the plain
/// list, so saves and the state hash do not see the sharing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageLog {
    /// Each line in an allocation of its own too, so a copy of the lines
    /// (a game's copy saying something, the state hash keeping the lines
    /// it encoded) shares the lines' text, and comparing a line with its
    /// copy is a comparison of addresses (`Arc`'s `==` asks that first).
    messages: Arc<VecDeque<Arc<Message>>>,
    total: u64,
    /// `total` when the latest key was pressed: what was said since is that
    /// key's.
    #[serde(default)]
    key_start: u64,
}

/// See [`MessageLog::mark`].
#[derive(Clone, Debug, Default)]
pub struct LogMark(std::sync::Weak<VecDeque<Arc<Message>>>);

impl MessageLog {
    /// Says `text`: merged into the newest message when it is the same
    /// words, else a new line (the oldest falls off a full log).
    pub fn push(&mut self, turn: u64, text: String) {
        let messages = Arc::make_mut(&mut self.messages);
        match messages.back_mut() {
            Some(newest) if newest.text == text => {
                let newest = Arc::make_mut(newest);
                newest.count = newest.count.saturating_add(1);
                newest.turn = turn;
            }
            _ => {
                if messages.len() == LOG_CAPACITY {
                    messages.pop_front();
                }
                messages.push_back(Arc::new(Message {
                    turn,
                    text,
                    count: 1,
                }));
            }
        }
        self.total += 1;
    }

    /// A key is being pressed: what is said from now on is its.
    pub fn begin_key(&mut self) {
        self.key_start = self.total;
    }

    /// Every message ever said, including ones that fell off and repeats.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// [`total`](Self::total) as it was when the latest key was pressed:
    /// what was said since is that key's.
    pub fn total_at_key_start(&self) -> u64 {
        self.key_start
    }

    /// A mark of the kept lines as they are now, to tell later whether they
    /// are still the same without keeping or comparing them.
    pub fn mark(&self) -> LogMark {
        LogMark(Arc::downgrade(&self.messages))
    }

    /// Whether the kept lines are the ones `mark` was made of, unchanged.
    /// The lines sit in one allocation shared between copies of a game, and
    /// a mark holds a weak reference to it: while the mark lives that
    /// address can be no other log's, and saying a line in a log with a
    /// mark on it moves the lines to a new allocation (`Arc::make_mut` does
    /// not write through shared or marked lines). So the same address means
    /// the same lines. A mark never costs a copy of the lines, as keeping a
    /// copy of the log (a strong reference) would on every line said.
    pub fn has_mark(&self, mark: &LogMark) -> bool {
        std::ptr::eq(mark.0.as_ptr(), Arc::as_ptr(&self.messages))
    }

    /// The kept lines, oldest first, each with its repeat count.
    pub fn messages(&self) -> &VecDeque<Arc<Message>> {
        &self.messages
    }

    /// How many of the kept lines, counted from the newest, hold a message
    /// said since the total was `before`. A line whose repeats began earlier
    /// counts when its latest saying is that recent.
    pub fn lines_since(&self, before: u64) -> usize {
        let mut left = self.total.saturating_sub(before);
        let mut lines = 0;
        for message in self.messages.iter().rev() {
            if left == 0 {
                break;
            }
            left = left.saturating_sub(message.count.max(1));
            lines += 1;
        }
        lines
    }

    /// How many of the kept lines are the latest key's: drawn bright.
    pub fn lines_of_this_key(&self) -> usize {
        self.lines_since(self.key_start)
    }

    /// Every message said since the total was `before`, in order, a repeat
    /// as often as it was said (as many as are kept).
    pub fn since(&self, before: u64) -> impl Iterator<Item = &Message> {
        let mut left = self.total.saturating_sub(before);
        let mut said = Vec::new();
        for message in self.messages.iter().rev() {
            if left == 0 {
                break;
            }
            let times = message.count.max(1).min(left);
            left -= times;
            said.extend(std::iter::repeat_n(&**message, times as usize));
        }
        said.reverse();
        said.into_iter()
    }
}

/// Where the run stands. Once it is not `Playing`, keys change nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunStatus {
    Playing,
    Died(Death),
    Won { turn: u64 },
    Quit { turn: u64 },
}

/// What the tombstone says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Death {
    /// "killed by a goblin", "died of poison from a giant newt".
    pub cause: String,
    pub depth: u32,
    pub turn: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stackable_items_share_a_slot_and_others_take_the_first_free_one() {
        let mut pack = Pack::default();
        let darts = ItemId(0);
        let sword = ItemId(1);
        let slot = pack.slot_for(darts, 5, true).expect("empty pack has room");
        assert_eq!(slot, 0);
        pack.add(slot, darts, 5);
        assert_eq!(pack.slot_for(darts, 3, true), Some(0));
        assert_eq!(pack.slot_for(sword, 1, false), Some(1));
        pack.add(1, sword, 1);
        assert_eq!(pack.slot_for(sword, 1, false), Some(2));
        assert_eq!(pack.len(), 2);
    }

    #[test]
    fn taking_the_last_of_a_stack_frees_its_letter() {
        let mut pack = Pack::default();
        pack.add(0, ItemId(0), 2);
        assert_eq!(
            pack.take(0, 1),
            Some(Stack {
                item: ItemId(0),
                count: 1
            })
        );
        assert_eq!(pack.get(0).map(|s| s.count), Some(1));
        assert_eq!(
            pack.take(0, 5),
            Some(Stack {
                item: ItemId(0),
                count: 1
            })
        );
        assert_eq!(pack.get(0), None);
        assert_eq!(pack.take(0, 1), None);
        assert_eq!(pack.take(200, 1), None);
    }

    #[test]
    fn a_full_pack_has_no_slot_for_something_new() {
        let mut pack = Pack::default();
        for slot in 0..PACK_SLOTS as u8 {
            pack.add(slot, ItemId(u16::from(slot)), 1);
        }
        assert_eq!(pack.slot_for(ItemId(99), 1, false), None);
        assert_eq!(pack.slot_for(ItemId(3), 1, true), Some(3));
    }

    #[test]
    fn a_mark_tells_the_same_lines_in_copies_and_breaks_when_either_says_a_line() {
        let mut log = MessageLog::default();
        log.push(1, "You see a rat.".into());
        let mark = log.mark();
        let mut copy = log.clone();
        assert!(log.has_mark(&mark) && copy.has_mark(&mark));
        copy.push(2, "The rat bites.".into());
        assert!(!copy.has_mark(&mark), "the copy said a line");
        assert!(log.has_mark(&mark), "the original did not");
        // A line said in the marked log itself, unshared: the mark breaks
        // though the log is the only owner of its lines.
        drop(copy);
        log.push(3, "You see a rat.".into());
        assert!(!log.has_mark(&mark));
        // A log that owns no marked lines, made new, never has the mark.
        assert!(!MessageLog::default().has_mark(&log.mark()));
    }

    #[test]
    fn the_log_keeps_the_last_messages_and_counts_all() {
        let mut log = MessageLog::default();
        for i in 0..(LOG_CAPACITY as u64 + 5) {
            log.push(i, format!("m{i}"));
        }
        assert_eq!(log.messages().len(), LOG_CAPACITY);
        assert_eq!(log.total(), LOG_CAPACITY as u64 + 5);
        let before = log.total();
        log.push(0, "new".into());
        assert_eq!(
            log.since(before)
                .map(|m| m.text.as_str())
                .collect::<Vec<_>>(),
            vec!["new"]
        );
    }

    #[test]
    fn a_repeat_merges_into_the_newest_line_and_is_still_counted_as_said() {
        let mut log = MessageLog::default();
        log.push(1, "You see a rat.".into());
        log.push(1, "Not with a monster in view.".into());
        log.begin_key();
        let before = log.total();
        log.push(2, "Not with a monster in view.".into());
        log.push(2, "Not with a monster in view.".into());
        let lines: Vec<(&str, u64)> = log
            .messages()
            .iter()
            .map(|m| (m.text.as_str(), m.count))
            .collect();
        assert_eq!(
            lines,
            vec![("You see a rat.", 1), ("Not with a monster in view.", 3)]
        );
        assert_eq!(
            log.messages()[1].shown(),
            "Not with a monster in view. (x3)"
        );
        assert_eq!(log.messages()[0].shown(), "You see a rat.");
        assert_eq!(log.total(), 4);
        // Each saying since `before` is reported, though they share a line
        // with one said before it.
        let said: Vec<&str> = log.since(before).map(|m| m.text.as_str()).collect();
        assert_eq!(said, vec!["Not with a monster in view."; 2]);
        assert_eq!(log.lines_since(before), 1);
        assert_eq!(log.lines_of_this_key(), 1);
        // A different message starts a line of its own.
        log.push(2, "You see a dart.".into());
        assert_eq!(log.messages().len(), 3);
        assert_eq!(log.lines_of_this_key(), 2);
        log.begin_key();
        assert_eq!(log.lines_of_this_key(), 0);
        assert_eq!(log.since(log.total()).count(), 0);
    }

    #[test]
    fn repeats_apart_are_not_merged() {
        let mut log = MessageLog::default();
        for text in ["You miss.", "The rat bites you.", "You miss."] {
            log.push(0, text.into());
        }
        assert_eq!(log.messages().len(), 3);
        assert!(log.messages().iter().all(|m| m.count == 1));
        assert_eq!(log.since(0).count(), 3);
    }

    #[test]
    fn slot_letters() {
        assert_eq!(slot_letter(0), 'a');
        assert_eq!(slot_letter(25), 'z');
        assert_eq!(letter_slot('c'), Some(2));
        assert_eq!(letter_slot('C'), None);
    }
}
