//! Game-level intents, for bots, fuzzers and tests that think in actions
//! rather than keys.
//!
//! Every intent is carried out by pressing the keys a player would press, so
//! an intent sequence is also a key sequence: [`Game::keys_for`] says which
//! keys, [`Game::apply`] presses them. A recording of intents is therefore an
//! ordinary recording of keys.

use serde::{Deserialize, Serialize};

use crate::geom::{Dir, Pos};
use crate::keys::Key;

use super::screens::{Purpose, key_for_direction, key_for_slot, run_key_for_direction};
use super::state::PACK_SLOTS;
use super::{Game, Outcome, Stuck};

/// A pack slot, 0 (`a`) to 25 (`z`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Slot(u8);

impl Slot {
    /// Slot `n`, wrapped into the 26 letters.
    pub fn new(n: u8) -> Slot {
        Slot(n % PACK_SLOTS as u8)
    }

    pub fn index(self) -> u8 {
        self.0
    }
}

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for Slot {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(Slot::new(u.arbitrary()?))
    }
}

/// Where an aimed action points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Aim {
    /// The reticle's opening choice: the nearest target in reach.
    Nearest,
    /// Tab pressed this many times from the opening choice.
    Cycle(u8),
    /// A tile relative to the player, reached by moving the cursor.
    Offset { dx: i8, dy: i8 },
}

/// What the player means to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Intent {
    /// Move, or attack what is there.
    Step(Dir),
    /// Shift + direction.
    Run(Dir),
    Wait,
    PickUp,
    Descend,
    AutoExplore,
    Drop {
        slot: Slot,
    },
    /// Use an item; the aim matters for items that need a target.
    Use {
        slot: Slot,
        aim: Aim,
    },
    Throw {
        slot: Slot,
        aim: Aim,
    },
    /// Wear armour or wield a weapon.
    Wear {
        slot: Slot,
    },
}

impl Game {
    /// The keys that carry out `intent` from the current state. Any open
    /// screens are closed first. When the intent cannot go ahead (an empty
    /// slot, an item of the wrong kind), the keys are the ones that make the
    /// game refuse it, followed by Esc, so nothing is left open.
    pub fn keys_for(&self, intent: &Intent) -> Vec<Key> {
        let mut keys = vec![Key::ESC; self.state.screens.len()];
        match *intent {
            Intent::Step(dir) => keys.push(key_for_direction(dir)),
            Intent::Run(dir) => keys.push(run_key_for_direction(dir)),
            Intent::Wait => keys.push(Key::char('.')),
            Intent::PickUp => keys.push(Key::char('g')),
            Intent::Descend => keys.push(Key::char('>')),
            Intent::AutoExplore => keys.push(Key::char('o')),
            Intent::Drop { slot } => self.pack_keys('d', slot, None, &mut keys),
            Intent::Wear { slot } => self.pack_keys('w', slot, None, &mut keys),
            Intent::Use { slot, aim } => {
                let aimed = self.item_in(slot).is_some_and(|i| i.effect.needs_target());
                let purpose = Purpose::Use { slot: slot.index() };
                self.pack_keys('a', slot, aimed.then_some((purpose, aim)), &mut keys);
            }
            Intent::Throw { slot, aim } => {
                let purpose = Purpose::Throw { slot: slot.index() };
                self.pack_keys('t', slot, Some((purpose, aim)), &mut keys);
            }
        }
        keys
    }

    /// Carries out an intent by pressing its keys; the outcomes are summed.
    pub fn apply(&mut self, intent: &Intent) -> Result<Outcome, Stuck> {
        let mut total = Outcome::default();
        for key in self.keys_for(intent) {
            let outcome = self.press(key)?;
            total.turns += outcome.turns;
            total.messages.extend(outcome.messages);
            total.events.extend(outcome.events);
            total.ended = outcome.ended;
        }
        Ok(total)
    }

    fn item_in(&self, slot: Slot) -> Option<&crate::content::ItemDef> {
        let stack = self.state.player.pack.get(slot.index())?;
        Some(self.content.item(stack.item))
    }

    /// `verb`, the slot's letter, and for an aimed action the reticle keys and
    /// Enter. Stops at the point the game would refuse, closing what is open.
    fn pack_keys(&self, verb: char, slot: Slot, aim: Option<(Purpose, Aim)>, keys: &mut Vec<Key>) {
        use super::screens::PackMode;
        let mode = match verb {
            'd' => PackMode::Drop,
            'w' => PackMode::Wear,
            't' => PackMode::Throw,
            _ => PackMode::Apply,
        };
        let any_admitted = self
            .state
            .player
            .pack
            .slots()
            .any(|(s, _)| self.admits(mode, s));
        keys.push(Key::char(verb));
        if !any_admitted {
            return; // the pack does not open; the refusal is said
        }
        keys.push(key_for_slot(slot.index()));
        if !self.admits(mode, slot.index()) {
            keys.push(Key::ESC); // refused; close the pack
            return;
        }
        if let Some((purpose, aim)) = aim {
            keys.extend(self.reticle_keys(purpose, aim));
            keys.push(Key::ENTER);
        }
    }

    /// Moves the reticle from where it opens to where `aim` points.
    fn reticle_keys(&self, purpose: Purpose, aim: Aim) -> Vec<Key> {
        let player = self.state.player.pos;
        let opening = self.targets(purpose).first().copied().unwrap_or(player);
        match aim {
            Aim::Nearest => Vec::new(),
            Aim::Cycle(n) => vec![Key::TAB; usize::from(n)],
            Aim::Offset { dx, dy } => {
                let map = &self.state.floor.map;
                let want = Pos::new(
                    (player.x + i32::from(dx)).clamp(0, map.width() - 1),
                    (player.y + i32::from(dy)).clamp(0, map.height() - 1),
                );
                cursor_moves(opening, want)
            }
        }
    }
}

/// Cursor keys from `from` to `to`: diagonal moves first, then straight.
fn cursor_moves(from: Pos, to: Pos) -> Vec<Key> {
    let mut keys = Vec::new();
    let mut at = from;
    let mut bound = crate::bound::Bound::new("reticle route", from.chebyshev(to) as usize);
    while at != to {
        bound.tick();
        let dx = (to.x - at.x).signum();
        let dy = (to.y - at.y).signum();
        let dir = Dir::from_delta(dx, dy).expect("a nonzero step of at most one");
        keys.push(key_for_direction(dir));
        at = at.step(dir);
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_moves_reach_the_target() {
        let from = Pos::new(3, 3);
        let to = Pos::new(-2, 5);
        let keys = cursor_moves(from, to);
        assert_eq!(keys.len(), 5);
        let mut at = from;
        for key in keys {
            at = at.step(super::super::screens::direction_of(key).expect("a direction key"));
        }
        assert_eq!(at, to);
    }

    #[test]
    fn slots_wrap_into_the_alphabet() {
        assert_eq!(Slot::new(27).index(), 1);
        assert_eq!(Slot::new(25).index(), 25);
    }
}
