//! Where the planted defects (`crate::canary`) enter the game: one method
//! each, called where the defect would be, doing nothing unless the canary
//! is switched on (which needs a `canary` build and a run that asks).
//!
//! They live here, apart from the code they sit in, so that the game's own
//! files hold only the calls: a mutation test of the game (ci/mutants.sh)
//! then mutates the game, not defects that are off in every run it makes.
//! This file is outside its scope (.cargo/mutants.toml).

use crate::canary::Canary;
use crate::content::MonsterId;
use crate::fov::SIGHT_RADIUS;
use crate::geom::{Dir, Pos};
use crate::mapgen::BuiltFloor;

use super::events::Who;
use super::screens::Screen;
use super::state::GameState;
use super::{CHASE_RADIUS, Game};

impl Game {
    fn planted(&self, canary: Canary) -> bool {
        self.state.canaries.has(canary)
    }

    /// double-step: the player's move goes on a second tile when it can.
    pub(super) fn planted_double_step(&mut self, who: Who, to: Pos, dir: Dir) {
        let beyond = to.step(dir);
        if self.planted(Canary::DoubleStep)
            && who == Who::Player
            && self.state.floor.map.can_step(to, dir)
            && self.occupant(beyond).is_none()
        {
            self.state.player.pos = beyond;
        }
    }

    /// lucky-ones: whether the player's natural 1 hits anyway.
    pub(super) fn planted_lucky_one(&self, attacker: Who, roll: i32) -> bool {
        self.planted(Canary::LuckyOnes) && attacker == Who::Player && roll == 1
    }

    /// loose-lips: what a message calls a monster, seen or not.
    pub(super) fn planted_loose_lips(&self, who: Who) -> Option<String> {
        match who {
            Who::Monster(id) if self.planted(Canary::LooseLips) => self
                .monster(id)
                .map(|m| format!("the {}", self.content.monster(m.kind).name)),
            _ => None,
        }
    }

    /// undead-monster: a killed monster stays on the floor.
    pub(super) fn planted_undead(&self) -> bool {
        self.planted(Canary::UndeadMonster)
    }

    /// free-stumble: a confused stumble into a wall costs nothing.
    pub(super) fn planted_free_stumble(&self) -> bool {
        self.planted(Canary::FreeStumble)
    }

    /// vanishing-drop: a dropped item is not put down.
    pub(super) fn planted_vanishing_drop(&self) -> bool {
        self.planted(Canary::VanishingDrop)
    }

    /// panicking-potion: drinking a potion of healing panics.
    pub(super) fn planted_panicking_potion(&self, name: &str) {
        if self.planted(Canary::PanickingPotion) {
            panic!("canary {}: drinking {name} panics", Canary::PanickingPotion);
        }
    }

    /// weak-potion: a potion of healing heals nothing.
    pub(super) fn planted_weak_potion(&self) -> bool {
        self.planted(Canary::WeakPotion)
    }

    /// skipped-round: every seventh round boundary skips the tick.
    pub(super) fn planted_skipped_round(&self) -> bool {
        self.planted(Canary::SkippedRound) && self.state.clock.turn() % 7 == 0
    }

    /// uncharged-refusal: a monster refused its step is not charged a wait.
    pub(super) fn planted_uncharged(&self, acted: super::monsters::Acted) -> bool {
        self.planted(Canary::UnchargedRefusal) && acted == super::monsters::Acted::Refused
    }

    /// sleepwalker: asleep monsters chase too.
    pub(super) fn planted_sleepwalking(&self) -> bool {
        self.planted(Canary::Sleepwalker)
    }

    /// crooked-chase: how far the chase map reaches.
    pub(super) fn planted_chase_reach(&self) -> u16 {
        if self.planted(Canary::CrookedChase) {
            CHASE_RADIUS / 2
        } else {
            CHASE_RADIUS
        }
    }

    /// endless-confusion: confusion does not count down.
    pub(super) fn planted_endless_confusion(&self) -> bool {
        self.planted(Canary::EndlessConfusion)
    }

    /// narrow-sight: how far the player sees.
    pub(super) fn planted_sight_radius(&self) -> i32 {
        if self.planted(Canary::NarrowSight) {
            SIGHT_RADIUS - 1
        } else {
            SIGHT_RADIUS
        }
    }

    /// blind-spot: the tile north of the player drops out of view.
    pub(super) fn planted_blind_spot(&mut self) {
        let north = self.state.player.pos.step(Dir::N);
        let map = &mut self.state.floor.map;
        if self.state.canaries.has(Canary::BlindSpot) && map.in_bounds(north) {
            let idx = map.xy_idx(north);
            map.visible.remove(idx);
        }
    }

    /// sticky-help: Esc does not close the help.
    pub(super) fn planted_sticky_help(&self) -> bool {
        self.planted(Canary::StickyHelp)
            && matches!(self.state.screens.last(), Some(Screen::Help { .. }))
    }

    /// stuck-north: `k` does nothing.
    pub(super) fn planted_stuck_north(&self, key: crate::keys::Key) -> bool {
        self.planted(Canary::StuckNorth) && key == crate::keys::Key::char('k')
    }

    /// stalling-look: closing the look reticle never returns.
    pub(super) fn planted_stall(&self) {
        if self.planted(Canary::StallingLook) {
            // Never returns: the watchdog must turn this into a hang.
            let mut spins = 0u64;
            loop {
                spins = std::hint::black_box(spins.wrapping_add(1));
            }
        }
    }

    /// homesick-explore: auto-explore's way back to the start, and off it
    /// again, instead of to the unknown (`None` when not planted).
    pub(super) fn planted_homesick(&self) -> Option<Option<Dir>> {
        self.planted(Canary::HomesickExplore)
            .then(|| self.homesick_direction())
    }

    /// The homesick walk: back to the floor's start, and off it again.
    fn homesick_direction(&self) -> Option<Dir> {
        let map = &self.state.floor.map;
        let from = self.state.player.pos;
        let start = self.state.floor.start;
        if from == start {
            return Dir::ALL
                .into_iter()
                .find(|&d| map.can_step(from, d) && self.occupant(from.step(d)).is_none());
        }
        let known = super::explore::known_ground(map);
        let route = crate::paths::astar(&known, from, start, map.len())?;
        route.first().and_then(|&next| from.direction_to(next))
    }

    /// forgetful-save: the state a save writes.
    pub(super) fn planted_saved_state(&self) -> std::borrow::Cow<'_, GameState> {
        if self.planted(Canary::ForgetfulSave) {
            std::borrow::Cow::Owned(GameState {
                kills: 0,
                ..self.state.clone()
            })
        } else {
            std::borrow::Cow::Borrowed(&self.state)
        }
    }

    /// warped-frame: a stray glyph in the frame's corner.
    pub(super) fn planted_warped_frame(&self, frame: &mut crate::frame::Frame) {
        if self.planted(Canary::WarpedFrame) {
            frame.set(
                0,
                0,
                crate::frame::Cell::new('?', crate::frame::Style::Text),
            );
        }
    }

    /// shared-dice: the play's stream is the first floor's map stream.
    pub(super) fn planted_shared_dice(&mut self) {
        if self.planted(Canary::SharedDice) {
            self.state.rng = self.state.seed.stream("mapgen", 1);
        }
    }

    /// loose-piles: what lands on its own kind starts a pile of its own.
    pub(super) fn planted_loose_piles(&self) -> bool {
        self.planted(Canary::LoosePiles)
    }

    /// backward-tab: Tab and Shift-Tab swap.
    pub(super) fn planted_backward_tab(&self) -> bool {
        self.planted(Canary::BackwardTab)
    }

    /// short-run: a run stops after its first step.
    pub(super) fn planted_short_run(&self) -> bool {
        self.planted(Canary::ShortRun)
    }

    /// weak-spawns: every monster is the table's first.
    pub(super) fn planted_spawn_kind(&self, kind: MonsterId) -> MonsterId {
        if self.planted(Canary::WeakSpawns) {
            MonsterId(0)
        } else {
            kind
        }
    }

    /// crowded-start: below the first floor, the first monster spawns next
    /// to the start.
    pub(super) fn planted_spawn_pos(
        &self,
        nth: u32,
        depth: u32,
        built: &BuiltFloor,
        pos: Pos,
    ) -> Pos {
        if !self.planted(Canary::CrowdedStart) || nth != 0 || depth < 2 {
            return pos;
        }
        Dir::ALL
            .into_iter()
            .map(|d| built.start.step(d))
            .find(|&p| built.map.is_walkable(p) && p != built.goal)
            .unwrap_or(pos)
    }

    /// half-heard: a press reports only the first message it said.
    pub(super) fn planted_half_heard(&self, messages: &mut Vec<String>) {
        if self.planted(Canary::HalfHeard) {
            messages.truncate(1);
        }
    }

    /// quiet-walk: a walk stopped by a pile coming into view says nothing.
    pub(super) fn planted_quiet_walk(&self) -> bool {
        self.planted(Canary::QuietWalk)
    }

    /// deaf-menu: the item menu ignores every key (Esc is handled before).
    pub(super) fn planted_deaf_menu(&self) -> bool {
        self.planted(Canary::DeafMenu)
    }

    /// fizzling-teleport: no tile is free to teleport to.
    pub(super) fn planted_fizzling_teleport(&self, free: Vec<Pos>) -> Vec<Pos> {
        if self.planted(Canary::FizzlingTeleport) {
            Vec::new()
        } else {
            free
        }
    }
}
