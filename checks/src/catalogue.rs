//! The catalogue: every invariant with its stable id, when it is checked
//! and what it asserts, and what a broken one reports.

use std::fmt;

/// When an invariant is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Once per generated floor.
    Floor,
    /// After every key.
    Turn,
    /// On a sample of keys (every [`ORACLE_EVERY`]th): the slow oracles.
    Sampled,
    /// Over a bot's run: progress (`harness::run::runner`).
    Run,
}

/// The oracles run, and the frames are read closely, after every this many
/// keys (steps 1, 257, ...): they are the dearest checks, and what they
/// hold to the reference (the game's searches and views) is at work on most
/// keys, so a bug shows on many samples, not one (docs/performance.md has
/// the figures, docs/mutation.md the mutation sample). A recording keeps
/// the interval its run used (`oracle_every`), so it replays its oracles
/// where its run ran them; one without it replays them every 128 keys. The
/// save and load oracle runs after every [`PERSIST_EVERY`].
pub const ORACLE_EVERY: u64 = 256;
pub const PERSIST_EVERY: u64 = 512;
/// The frame at the run's size is drawn and read after every this many
/// keys (steps 1, 9, 17, ...; and on the oracles' sample, and at a run's
/// end): drawing and reading it after every key would be half of what the
/// checks add to a key, and a bug in drawing shows on most frames it
/// touches, not one (docs/performance.md has the figures, docs/mutation.md
/// the mutation sample with and without).
pub const FRAME_EVERY: u64 = 8;

/// Declares the catalogue: each invariant's name in the code, its stable
/// id, when it is checked and what it asserts. The compiler checks every id
/// a check names; reports, recordings and docs/invariants.md use the text.
macro_rules! catalogue {
    ($($name:ident = $id:literal, $when:ident: $asserts:literal,)*) => {
        /// An invariant of the catalogue.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Id {
            $($name,)*
        }

        impl Id {
            /// The stable id, as reports, recordings and the docs write it.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Id::$name => $id,)*
                }
            }
        }

        /// Every invariant, in the order they are documented.
        pub const CATALOGUE: &[Invariant] = &[
            $(Invariant { id: Id::$name, when: When::$when, asserts: $asserts },)*
        ];
    };
}

/// One entry of the catalogue.
#[derive(Clone, Copy, Debug)]
pub struct Invariant {
    pub id: Id,
    pub when: When,
    pub asserts: &'static str,
}

impl Id {
    /// The invariant whose stable id is `name`, if the catalogue has one.
    pub fn named(name: &str) -> Option<Id> {
        CATALOGUE.iter().map(|i| i.id).find(|id| id.name() == name)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

catalogue! {
    MapConnected = "map.connected", Floor:
        "every walkable tile is reachable from the start by legal steps",
    MapHasExit = "map.has_exit", Floor:
        "the goal is stairs (the exit on the last floor), is not the start, and is reachable",
    MapStartInRegion0 = "map.start_in_region0", Floor:
        "spawn region 0 contains the start, and every region's cells are walkable",
    MapVaultSingleEntrance = "map.vault_single_entrance", Floor:
        "a temple vault has exactly one opening in its walls and one crossing of the moat",
    EntityInBounds = "entity.in_bounds", Turn:
        "the player, every monster and every floor item is on the map",
    EntityInWall = "entity.in_wall", Turn:
        "the player, every monster and every floor item stands on a walkable tile",
    EntityOverlap = "entity.overlap", Turn:
        "no two creatures share a tile",
    HpRange = "hp.range", Turn:
        "hit points are within 1..=max for the living; the player is at 0 or below only when dead",
    InventoryCapacity = "inventory.capacity", Turn:
        "stacks hold 1..=99, unstackable items one each, piles of one stackable item on one tile are put together while they fit, and wielded/worn slots hold a weapon/armour",
    ClockMonotonic = "clock.monotonic", Turn:
        "the turn clock never runs backwards",
    ClockAdvances = "clock.advances", Turn:
        "a key that spends the player's turns moves the clock on",
    ClockQueue = "clock.queue", Turn:
        "on the player's turn every monster is queued exactly once, no later-than-now entry is missing, and the player is not queued",
    RngOnlyWithTime = "rng.only_with_time", Turn:
        "the in-play dice are rolled only by keys that spend time, so no roll can be retried for free",
    FovSymmetric = "fov.symmetric", Turn:
        "every monster the player can see can see the player",
    FovRevealedCoversVisible = "fov.revealed_covers_visible", Turn:
        "every visible tile is also revealed",
    ScreenEscapable = "screen.escapable", Turn:
        "Esc closes the top screen without spending time",
    PressOutcome = "press.outcome", Turn:
        "what a press returns is what happened: the turns it spent, the messages it said, how the run ended",
    FovAroundPlayer = "fov.around_player", Turn:
        "the player's own tile and its open neighbours are always in view",
    MoveLegal = "move.legal", Turn:
        "creatures move only by recorded steps, one tile at a time, one per action, each resolved by the step rule (move, attack, refused, or wasted when confused)",
    CombatRules = "combat.rules", Turn:
        "every swing is at a neighbour, rolls a d20 that hits by the to-hit rule, and deals damage within the attacker's dice",
    HpExplained = "hp.explained", Turn:
        "hit points change only by recorded blows, poison bites within their dice and heals capped at the maximum; a creature dies exactly when they reach 0",
    StatusRules = "status.rules", Turn:
        "a poisoner's or confuser's hit, a scroll and an antidote set statuses as the rules say, and statuses count down once a round and end",
    ItemsConserved = "items.conserved", Turn:
        "items are never made or lost except by a recorded spawn, pickup, drop, throw or use, and equipment changes only by wearing or losing it",
    ClockRounds = "clock.rounds", Turn:
        "statuses tick once for every hundred the clock passes, and every turn counted is a recorded action",
    ClockTime = "clock.time", Turn:
        "the clock moves from one player turn to the next by the cost of the player's action at the player's speed, and every monster takes each turn its speed gives it, in the player's action it falls in, no more and no fewer",
    MonsterNotice = "monster.notice", Turn:
        "a monster wakes exactly when the player can see its tile (the reference field of view): every one in view after the player acts and when the player's turn comes round, none out of view; an asleep monster does not walk unless confused",
    MessageUnseen = "message.unseen", Turn:
        "a message names a monster only when the player can see it",
    MessageForm = "message.form", Turn:
        "every message a key says is a sentence: it starts with a capital letter or a digit, ends with `.`, `!` or `?`, and has no space at either end or two in a row (names are single-spaced labels, so a word left out shows as a doubled space)",
    SpawnRules = "spawn.rules", Floor:
        "a new floor's monsters arrive whole, away from the start, no more than the rules allow and none out of depth on the first floors; items one each, off the start and the way down (checked on every floor a sweep or a run builds, and again on arriving by the stairs)",
    KeyContract = "key.contract", Turn:
        "every key does what the help promises when its conditions hold: a move key steps, `o` explores while there is somewhere to go, `i` opens a pack that holds something",
    RngStreams = "rng.streams", Floor:
        "a seed's named streams (maps, spawns and play, for every depth) are all different, so no part of the game shares another's randomness",
    FovOracle = "fov.oracle", Sampled:
        "what the player sees is the reference symmetric shadowcasting from where they stand",
    PathsOracle = "paths.oracle", Sampled:
        "distances, the chase map and A* routes from the player agree with a plain breadth-first search",
    FrameOracle = "frame.oracle", Sampled:
        "the map part of the frame shows what the state holds: the camera on the player, each tile remembered or in view, and what stands on it in view",
    ScreenSize = "screen.size", Turn:
        "the frame holds as many cells as its size says, and one below the smallest size shows only the notice of the size it needs",
    ScreenStatus = "screen.status", Turn:
        "the status line shows the depth, hit points, the statuses that hold and the turn, in the widest form that fits, the head an alarm at a third of the hit points or less",
    ScreenMap = "screen.map", Turn:
        "the map rows show, through the camera on the focus, unknown ground blank, known ground remembered or in view, every creature and item in view where it stands and none where none is, and the reticle's path and cursor",
    ScreenBox = "screen.box", Turn:
        "the top screen's box, centred over the map and inside the frame, shows its title and its rows from where it is scrolled to, counting the lines above and below",
    ScreenMessages = "screen.messages", Turn:
        "the message rows end with the newest message, read from its start, this key's lines bright and older ones dim, no row blank while the log holds more; under a reticle, what the cursor is on and the keys",
    ScreenEnding = "screen.ending", Turn:
        "the end of a run shows how it ended, the depth, the turn and the kills the state holds, in a box on a blank frame",
    StatePersist = "state.persist", Sampled:
        "the state hash is the documented hash of the state, and a save loads back into the same state",
    PlayProgress = "play.progress", Run:
        "a bot's run reveals ground, changes floor, fights, picks up or uses something, or comes nearer than ever since then to the unknown or the way down, at least once in every stretch of keys of the stated length",
}

/// A broken invariant: its id and what was seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub id: Id,
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.id, self.message)
    }
}

pub(crate) fn violation(id: Id, message: String) -> Violation {
    Violation { id, message }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_the_required_ones_are_there() {
        let mut ids: Vec<&str> = CATALOGUE.iter().map(|i| i.id.name()).collect();
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), before, "duplicate ids");
        for required in [
            Id::MapConnected,
            Id::MapHasExit,
            Id::MapStartInRegion0,
            Id::MapVaultSingleEntrance,
            Id::EntityInBounds,
            Id::EntityInWall,
            Id::EntityOverlap,
            Id::HpRange,
            Id::InventoryCapacity,
            Id::ClockMonotonic,
            Id::FovSymmetric,
            Id::FovRevealedCoversVisible,
            Id::ScreenEscapable,
        ] {
            assert!(ids.contains(&required.name()), "{required} missing");
        }
        for invariant in CATALOGUE {
            assert_eq!(Id::named(invariant.id.name()), Some(invariant.id));
        }
        assert_eq!(Id::named("map.conected"), None);
    }
}
