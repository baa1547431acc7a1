//! Canaries: defects planted on purpose, to prove the harness finds bugs.
//!
//! Each canary is switched on separately through [`crate::GameConfig`] and
//! travels in the game state, so a recording of a canary run replays the
//! same defect. The defects only exist in builds with the `canary` cargo
//! feature: in any other build [`Canaries::has`] is false whatever the flags
//! say, so a default build has none. There the flags are inert labels: a
//! canary's bug report replays as the game without the defect, with the
//! same state hashes up to the failure, and the verdict is "fixed", which
//! is the truth about that build. Planting one where it cannot take
//! (`--canary` in a default build) is refused by the harness, with
//! [`crate::game::ConfigError::CanariesUnavailable`].
//!
//! A canary that no tool catches is a bug in the harness.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One planted defect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Canary {
    /// A monster whose action is refused is not charged a wait, so it asks
    /// again at the same instant forever and the turn loop stops progressing.
    UnchargedRefusal,
    /// Esc does not close the help screen.
    StickyHelp,
    /// Drinking a potion of healing panics.
    PanickingPotion,
    /// The cavern generator's last-resort candidate is returned unpruned, so
    /// on a cramped map a pocket may be unreachable (crawlfest's bug).
    UnprunedCavern,
    /// A confused stumble into a wall does not spend the turn, so confusion
    /// can be rerolled for free.
    FreeStumble,
    /// A monster killed stays on the floor with no hit points, and acts.
    UndeadMonster,
    /// The player's step goes two tiles when the second is open too: a move the record does not explain (`move.legal`).
    DoubleStep,
    /// The player's natural 1 hits: the to-hit rule broken (`combat.rules`).
    LuckyOnes,
    /// A potion of healing heals nothing though it rolled (`hp.explained`).
    WeakPotion,
    /// Confusion never counts down (`status.rules`).
    EndlessConfusion,
    /// A dropped item vanishes instead of lying on the floor (`items.conserved`).
    VanishingDrop,
    /// Every seventh round boundary passes without statuses ticking (`clock.rounds`).
    SkippedRound,
    /// Asleep monsters walk toward the player (`monster.notice`).
    Sleepwalker,
    /// Messages name monsters the player cannot see (`message.unseen`).
    LooseLips,
    /// Below the first floor, a monster spawns next to the stairs' foot (`spawn.rules`).
    CrowdedStart,
    /// `k` does not move the player (`key.contract`).
    StuckNorth,
    /// The tile north of the player is never in view (`fov.around_player`).
    BlindSpot,
    /// The player sees one tile less far than the rules say (`fov.oracle`).
    NarrowSight,
    /// The chase map monsters walk by reaches half as far as it should (`paths.oracle`).
    CrookedChase,
    /// A save forgets the kill count (`state.persist`).
    ForgetfulSave,
    /// Auto-explore heads back to the floor's start instead of the unknown: it always moves, and never gets anywhere (`play.progress`).
    HomesickExplore,
    /// Enter on the look reticle never returns: the watchdog's canary (a hang).
    StallingLook,
    /// Every spawn takes the first row of the table, so every monster is a rat: no invariant breaks, the bots' figures leave their baselines.
    WeakSpawns,
    /// The frame's top-left cell shows a stray `?` (`frame.oracle`).
    WarpedFrame,
    /// The play's dice are drawn from the first floor's map stream (`rng.streams`).
    SharedDice,
    /// A dropped or thrown stackable item never joins the pile it lands on (`inventory.capacity`).
    LoosePiles,
    /// Tab and Shift-Tab on the reticle go the wrong way round (`key.contract`).
    BackwardTab,
    /// A run stops after its first step (`key.contract`).
    ShortRun,
    /// A press reports only the first of the messages it said, so a front
    /// end showing the press's messages drops the rest (`press.outcome`).
    HalfHeard,
    /// The item menu ignores every key but Esc: every item's menu is a dead
    /// end, which no key's contract forbids (the sweep's commands tally: the
    /// item menu never works).
    DeafMenu,
    /// A scroll of teleportation does nothing, as though no tile were free
    /// (the reach baseline: `use.teleport.moved` vanishes; every check
    /// passes, since a teleport with nowhere to go is within the rules).
    FizzlingTeleport,
    /// A walk that stops for a pile coming into view says nothing of it
    /// (`key.contract`: a walk names what stopped it, "You see a dart.").
    QuietWalk,
}

impl Canary {
    pub const ALL: [Canary; 32] = [
        Canary::UnchargedRefusal,
        Canary::StickyHelp,
        Canary::PanickingPotion,
        Canary::UnprunedCavern,
        Canary::FreeStumble,
        Canary::UndeadMonster,
        Canary::DoubleStep,
        Canary::LuckyOnes,
        Canary::WeakPotion,
        Canary::EndlessConfusion,
        Canary::VanishingDrop,
        Canary::SkippedRound,
        Canary::Sleepwalker,
        Canary::LooseLips,
        Canary::CrowdedStart,
        Canary::StuckNorth,
        Canary::BlindSpot,
        Canary::NarrowSight,
        Canary::CrookedChase,
        Canary::ForgetfulSave,
        Canary::HomesickExplore,
        Canary::StallingLook,
        Canary::WeakSpawns,
        Canary::WarpedFrame,
        Canary::SharedDice,
        Canary::LoosePiles,
        Canary::BackwardTab,
        Canary::ShortRun,
        Canary::HalfHeard,
        Canary::DeafMenu,
        Canary::FizzlingTeleport,
        Canary::QuietWalk,
    ];

    /// The name used on the command line and in recordings.
    pub const fn name(self) -> &'static str {
        match self {
            Canary::UnchargedRefusal => "uncharged-refusal",
            Canary::StickyHelp => "sticky-help",
            Canary::PanickingPotion => "panicking-potion",
            Canary::UnprunedCavern => "unpruned-cavern",
            Canary::FreeStumble => "free-stumble",
            Canary::UndeadMonster => "undead-monster",
            Canary::DoubleStep => "double-step",
            Canary::LuckyOnes => "lucky-ones",
            Canary::WeakPotion => "weak-potion",
            Canary::EndlessConfusion => "endless-confusion",
            Canary::VanishingDrop => "vanishing-drop",
            Canary::SkippedRound => "skipped-round",
            Canary::Sleepwalker => "sleepwalker",
            Canary::LooseLips => "loose-lips",
            Canary::CrowdedStart => "crowded-start",
            Canary::StuckNorth => "stuck-north",
            Canary::BlindSpot => "blind-spot",
            Canary::NarrowSight => "narrow-sight",
            Canary::CrookedChase => "crooked-chase",
            Canary::ForgetfulSave => "forgetful-save",
            Canary::HomesickExplore => "homesick-explore",
            Canary::StallingLook => "stalling-look",
            Canary::WeakSpawns => "weak-spawns",
            Canary::WarpedFrame => "warped-frame",
            Canary::SharedDice => "shared-dice",
            Canary::LoosePiles => "loose-piles",
            Canary::BackwardTab => "backward-tab",
            Canary::ShortRun => "short-run",
            Canary::HalfHeard => "half-heard",
            Canary::DeafMenu => "deaf-menu",
            Canary::FizzlingTeleport => "fizzling-teleport",
            Canary::QuietWalk => "quiet-walk",
        }
    }

    /// The defect in a line, for `--canary`'s help (the variants' docs say
    /// more, and which check finds it).
    pub const fn defect(self) -> &'static str {
        match self {
            Canary::UnchargedRefusal => {
                "A refused monster action costs nothing, so the turn loop stalls (stuck)"
            }
            Canary::StickyHelp => "Esc does not close the help screen",
            Canary::PanickingPotion => "Drinking a potion of healing panics",
            Canary::UnprunedCavern => {
                "A cramped cavern may leave a pocket unreachable (map.connected)"
            }
            Canary::FreeStumble => {
                "A confused stumble into a wall spends no turn (rng.only_with_time)"
            }
            Canary::UndeadMonster => "A monster killed stays on the floor and acts (hp.range)",
            Canary::DoubleStep => "The player's step goes two tiles when it can (move.legal)",
            Canary::LuckyOnes => {
                "The player's natural 1 hits: the to-hit rule broken (combat.rules)"
            }
            Canary::WeakPotion => {
                "A potion of healing heals nothing though it rolled (hp.explained)"
            }
            Canary::EndlessConfusion => "Confusion never counts down (status.rules)",
            Canary::VanishingDrop => {
                "A dropped item vanishes instead of lying on the floor (items.conserved)"
            }
            Canary::SkippedRound => {
                "Every seventh round boundary passes without statuses ticking (clock.rounds)"
            }
            Canary::Sleepwalker => "Asleep monsters walk toward the player (monster.notice)",
            Canary::LooseLips => "Messages name monsters the player cannot see (message.unseen)",
            Canary::CrowdedStart => {
                "Below the first floor, a monster spawns next to the stairs' foot (spawn.rules)"
            }
            Canary::StuckNorth => "The k key does not move the player (key.contract)",
            Canary::BlindSpot => {
                "The tile north of the player is never in view (fov.around_player)"
            }
            Canary::NarrowSight => {
                "The player sees one tile less far than the rules say (fov.oracle)"
            }
            Canary::CrookedChase => "The chase map reaches half as far as it should (paths.oracle)",
            Canary::ForgetfulSave => "A save forgets the kill count (state.persist)",
            Canary::HomesickExplore => {
                "Auto-explore heads back to the start and never gets anywhere (play.progress)"
            }
            Canary::StallingLook => "Enter on the look reticle never returns (a hang)",
            Canary::WeakSpawns => {
                "Every monster spawned is a rat (the bots' figures leave their baselines)"
            }
            Canary::WarpedFrame => "The frame's top-left cell shows a stray ? (frame.oracle)",
            Canary::SharedDice => {
                "The play's dice are drawn from the first floor's map stream (rng.streams)"
            }
            Canary::LoosePiles => {
                "A dropped or thrown stack never joins the pile it lands on (inventory.capacity)"
            }
            Canary::BackwardTab => {
                "Tab and Shift-Tab on the reticle go the wrong way round (key.contract)"
            }
            Canary::ShortRun => "A run stops after its first step (key.contract)",
            Canary::HalfHeard => "A press reports only its first message (press.outcome)",
            Canary::DeafMenu => "The item menu ignores every key but Esc (key.contract)",
            Canary::FizzlingTeleport => {
                "A scroll of teleportation never moves the reader (the reach baseline)"
            }
            Canary::QuietWalk => {
                "A walk stopped by a pile coming into view does not name it (key.contract)"
            }
        }
    }

    pub fn from_name(name: &str) -> Option<Canary> {
        Canary::ALL.into_iter().find(|c| c.name() == name)
    }

    const fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

impl fmt::Display for Canary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// unpruned-cavern: whether the cavern generator's candidate number
/// `attempt` (of `candidates`) is its last resort and goes unpruned. Here,
/// not in caverns.rs, so the generator holds only the call.
pub(crate) fn unpruned_last_resort(canaries: Canaries, attempt: u32, candidates: u32) -> bool {
    canaries.has(Canary::UnprunedCavern) && attempt == candidates - 1
}

/// Which canaries a run has switched on. Empty by default.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Canaries(u32);

impl Canaries {
    pub const NONE: Canaries = Canaries(0);

    /// Whether this build can plant defects at all.
    pub const AVAILABLE: bool = cfg!(feature = "canary");

    pub fn with(self, canary: Canary) -> Canaries {
        Canaries(self.0 | canary.bit())
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The canaries switched on, in [`Canary::ALL`] order.
    pub fn list(self) -> Vec<Canary> {
        Canary::ALL
            .into_iter()
            .filter(|c| self.0 & c.bit() != 0)
            .collect()
    }

    /// Whether the defect is live: switched on, in a build that has them.
    pub fn has(self, canary: Canary) -> bool {
        Self::AVAILABLE && self.0 & canary.bit() != 0
    }

    /// Bits that name no canary, from a tampered save.
    pub fn unknown_bits(self) -> u32 {
        self.0 & !Canary::ALL.iter().fold(0, |bits, c| bits | c.bit())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_sets_list_in_order() {
        for canary in Canary::ALL {
            assert_eq!(Canary::from_name(canary.name()), Some(canary));
        }
        assert_eq!(Canary::from_name("nope"), None);
        let set = Canaries::NONE
            .with(Canary::PanickingPotion)
            .with(Canary::UnchargedRefusal);
        assert_eq!(
            set.list(),
            vec![Canary::UnchargedRefusal, Canary::PanickingPotion]
        );
        assert_eq!(set.unknown_bits(), 0);
        assert!(Canaries::NONE.is_empty());
    }

    #[test]
    fn a_defect_is_live_only_in_a_canary_build() {
        let set = Canaries::NONE.with(Canary::StickyHelp);
        assert_eq!(set.has(Canary::StickyHelp), cfg!(feature = "canary"));
        assert!(!set.has(Canary::PanickingPotion));
    }
}
