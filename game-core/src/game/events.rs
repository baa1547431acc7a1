//! What happened during a key press: the record the game returns beside the
//! state ([`crate::Outcome::events`]), never part of it.
//!
//! A well-formed state can still be wrong: an attack that does nothing, a
//! potion that heals 0, a dropped item that vanishes. So every press says what
//! it did, in order: the steps taken with what came of them, the swings with
//! their d20 and damage, hit point changes and why, status doses, round ticks,
//! items moving between the pack and the floor, stairs. The turn invariants
//! (the checks crate's `check_turn`) replay this record against the state before the key
//! and the rules' own bounds, and check that the state after the key is what
//! the record explains: nothing changes that is not recorded, and nothing
//! recorded breaks a rule.
//!
//! Events are emitted where the game decides (a step resolved, a swing
//! rolled), not in the setters that carry the decision out, so a setter that
//! does nothing leaves a record the state does not match.

use crate::content::ItemId;
use crate::geom::{Dir, Pos};
use crate::rules::StepResult;

use super::turn::MonsterRef;

/// A creature: the player or a monster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Who {
    Player,
    Monster(MonsterRef),
}

/// One thing that happened, in the order it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The player's action spent this much time (hundredths of a step).
    PlayerActed { cost: u64 },
    /// A monster's turn came round.
    MonsterTurn { id: MonsterRef },
    /// A round boundary passed: statuses tick, the player first, then the
    /// monsters in spawn order.
    Round,
    /// A confused creature rolled where its step goes: `hijack` (0..100)
    /// below the stumble chance sends it the way `direction` (0..8, an index
    /// into `Dir::ALL`) names, else it goes the way it meant to.
    Lurch {
        who: Who,
        intended: Dir,
        hijack: u32,
        direction: u32,
    },
    /// A creature tried to step from `from` toward `dir`; `confused` is
    /// whether it was confused at the time.
    Step {
        who: Who,
        from: Pos,
        dir: Dir,
        confused: bool,
        result: StepResult,
    },
    /// A melee swing, or a missile (`missile` names the item) reaching a
    /// creature: the d20 `roll`, whether it connected, and the damage dealt
    /// (0 on a miss).
    Attack {
        attacker: Who,
        defender: Who,
        missile: Option<ItemId>,
        roll: i32,
        hit: bool,
        damage: i32,
    },
    /// Hit points went from `before` to `after`.
    HitPoints {
        who: Who,
        before: i32,
        after: i32,
        cause: HpCause,
    },
    /// A creature died (its hit points reached 0).
    Died { who: Who },
    /// A status was given, renewed or taken away.
    Status { who: Who, change: StatusChange },
    /// `count` of `item` moved from one place to another.
    Items {
        item: ItemId,
        count: u32,
        from: Place,
        to: Place,
    },
    /// One `item` thrown from pack slot `slot` came down at `landing`; the
    /// creature standing there, if any, is attacked next.
    Thrown {
        item: ItemId,
        slot: u8,
        landing: Pos,
    },
    /// The player wielded (`worn: false`) or put on (`worn: true`) the item
    /// in a pack slot.
    Equipped { slot: u8, worn: bool },
    /// The player was moved by magic.
    Teleported { from: Pos, to: Pos },
    /// The whole floor was revealed (magic mapping).
    MapRevealed,
    /// The player took the stairs and arrived on floor `depth`.
    Descended { depth: u32 },
    /// A monster noticed the player: the player can see its tile.
    Noticed { id: MonsterRef },
    /// A message named this creature ("the goblin hits you"): the player
    /// must be able to see it.
    Named { who: Who },
}

/// Why hit points changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HpCause {
    /// The damage of the [`Event::Attack`] just before.
    Blow,
    /// A round's poison bite.
    Poison,
    /// A potion: `rolled` is its dice roll, before the cap at the maximum.
    Heal { rolled: i32 },
}

/// A change to a creature's statuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusChange {
    /// Poisoned (or the poisoning renewed) for `rounds` rounds.
    Poisoned { rounds: u32 },
    /// Confused (or the confusion renewed) for `rounds` rounds.
    Confused { rounds: u32 },
    /// The poison was cured.
    Cured,
}

/// Where items are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Pack(u8),
    Floor(Pos),
    /// Used up: drunk or read.
    Used,
}
