//! Key dispatch: a pure state machine over (game, key).
//!
//! Whatever screen is on top owns the key; Esc always closes the top screen
//! and never spends a turn. A key either changes the screens, or becomes an
//! [`Action`] the game performs, or does nothing.

use crate::content::ItemEffect;
use crate::geom::Pos;
use crate::keys::{Key, KeyCode, Mods};
use crate::rules::THROW_RANGE;
use crate::text::capitalise;

use super::Game;
use super::actions::{Action, with_article};
use super::render::HELP;
use super::screens::{
    PackMode, Purpose, Reticle, Screen, direction_of, run_direction_of, scrolled,
};
use super::state::letter_slot;

impl Game {
    /// Routes a key to the top screen, or to the map when no screen is open.
    pub(super) fn dispatch(&mut self, key: Key) -> Option<Action> {
        if key == Key::ESC {
            // Esc always closes the top screen, whatever it is, for free.
            if !self.planted_sticky_help() {
                self.state.screens.pop();
            }
            return None;
        }
        match self.state.screens.last().cloned() {
            None => self.map_key(key),
            Some(Screen::Pack(mode)) => self.pack_key(mode, key),
            Some(Screen::ItemMenu { slot }) => self.item_menu_key(slot, key),
            Some(Screen::Reticle(reticle)) => self.reticle_key(reticle, key),
            Some(Screen::Help { top }) => {
                if matches!(key.code, KeyCode::Char('?' | ' ') | KeyCode::Enter) {
                    self.state.screens.pop();
                } else {
                    self.scroll(top, HELP.len(), key);
                }
                None
            }
            Some(Screen::History { top }) => {
                if matches!(key.code, KeyCode::Char('m' | ' ') | KeyCode::Enter) {
                    self.state.screens.pop();
                } else {
                    self.scroll(top, self.state.log.messages().len(), key);
                }
                None
            }
            Some(Screen::QuitPrompt) => match key.code {
                KeyCode::Char('y' | 'Y') => {
                    self.state.screens.clear();
                    Some(Action::Quit)
                }
                KeyCode::Char('n' | 'N') => {
                    self.state.screens.pop();
                    None
                }
                _ => None,
            },
        }
    }

    fn map_key(&mut self, key: Key) -> Option<Action> {
        if self.planted_stuck_north(key) {
            return None;
        }
        if let Some(dir) = direction_of(key).filter(|_| key.mods.is_empty()) {
            return Some(Action::Step(dir));
        }
        if let Some(dir) = run_direction_of(key) {
            return Some(Action::Run(dir));
        }
        if !key.mods.is_empty() {
            return None;
        }
        let KeyCode::Char(c) = key.code else {
            return None;
        };
        match c {
            '.' | '5' => Some(Action::Wait),
            'g' | ',' => Some(Action::PickUp),
            '>' => Some(Action::Descend),
            'o' => Some(Action::AutoExplore),
            'i' => self.open_pack(PackMode::Browse),
            'd' => self.open_pack(PackMode::Drop),
            'a' => self.open_pack(PackMode::Apply),
            't' => self.open_pack(PackMode::Throw),
            'w' => self.open_pack(PackMode::Wear),
            ';' => {
                let cursor = self.state.player.pos;
                self.state.screens.push(Screen::Reticle(Reticle {
                    purpose: Purpose::Look,
                    cursor,
                }));
                None
            }
            '?' => {
                self.state.screens.push(Screen::Help { top: 0 });
                None
            }
            'm' => {
                self.state.screens.push(Screen::History { top: 0 });
                None
            }
            'Q' => {
                self.state.screens.push(Screen::QuitPrompt);
                None
            }
            _ => None,
        }
    }

    /// A scrolling key on the help or the history, which has `rows` rows:
    /// moves its first row shown.
    fn scroll(&mut self, top: u16, rows: usize, key: Key) {
        if let Some(moved) = scrolled(top, rows, key)
            && let Some(Screen::Help { top } | Screen::History { top }) =
                self.state.screens.last_mut()
        {
            *top = moved;
        }
    }

    /// Whether the item in `slot` can be picked in `mode`.
    pub fn admits(&self, mode: PackMode, slot: u8) -> bool {
        let Some(stack) = self.state.player.pack.get(slot) else {
            return false;
        };
        let effect = &self.content.item(stack.item).effect;
        match mode {
            PackMode::Browse | PackMode::Drop | PackMode::Apply => true,
            PackMode::Throw => matches!(effect, ItemEffect::Thrown { .. }),
            PackMode::Wear => effect.is_equipment(),
        }
    }

    fn open_pack(&mut self, mode: PackMode) -> Option<Action> {
        let any = self
            .state
            .player
            .pack
            .slots()
            .any(|(slot, _)| self.admits(mode, slot));
        if any {
            self.state.screens.push(Screen::Pack(mode));
        } else {
            self.say(mode.nothing_to());
        }
        None
    }

    fn pack_key(&mut self, mode: PackMode, key: Key) -> Option<Action> {
        let KeyCode::Char(c) = key.code else {
            return None;
        };
        let slot = letter_slot(c).filter(|_| key.mods.is_empty())?;
        if self.state.player.pack.get(slot).is_none() {
            self.say(format!("You have no item {c}."));
            return None;
        }
        if !self.admits(mode, slot) {
            self.say(mode.cannot());
            return None;
        }
        match mode {
            PackMode::Browse => {
                self.state.screens.push(Screen::ItemMenu { slot });
                None
            }
            PackMode::Drop => self.commit(Action::Drop(slot)),
            PackMode::Apply => self.use_or_aim(slot),
            PackMode::Throw => {
                self.open_reticle(Purpose::Throw { slot });
                None
            }
            PackMode::Wear => self.commit(Action::Wear(slot)),
        }
    }

    fn item_menu_key(&mut self, slot: u8, key: Key) -> Option<Action> {
        if !key.mods.is_empty() || self.planted_deaf_menu() {
            return None;
        }
        match key.code {
            KeyCode::Char('a' | 'u') => self.use_or_aim(slot),
            KeyCode::Char('d') => self.commit(Action::Drop(slot)),
            KeyCode::Char('t') => {
                if self.admits(PackMode::Throw, slot) {
                    self.open_reticle(Purpose::Throw { slot });
                } else {
                    self.say(PackMode::Throw.cannot());
                }
                None
            }
            KeyCode::Char('w') => {
                if self.admits(PackMode::Wear, slot) {
                    self.commit(Action::Wear(slot))
                } else {
                    self.say(PackMode::Wear.cannot());
                    None
                }
            }
            _ => None,
        }
    }

    /// Using an item that needs a target opens the reticle; anything else is
    /// used at once.
    fn use_or_aim(&mut self, slot: u8) -> Option<Action> {
        let stack = self.state.player.pack.get(slot)?;
        if self.content.item(stack.item).effect.needs_target() {
            self.open_reticle(Purpose::Use { slot });
            None
        } else {
            self.commit(Action::Use { slot, target: None })
        }
    }

    /// An action chosen from the screens closes all of them.
    fn commit(&mut self, action: Action) -> Option<Action> {
        self.state.screens.clear();
        Some(action)
    }

    /// Opens the reticle on the nearest target in reach (look mode opens on
    /// the player: its cursor is the player's attention).
    fn open_reticle(&mut self, purpose: Purpose) {
        let cursor = match purpose {
            Purpose::Look => self.state.player.pos,
            _ => self
                .targets(purpose)
                .first()
                .copied()
                .unwrap_or(self.state.player.pos),
        };
        self.state
            .screens
            .push(Screen::Reticle(Reticle { purpose, cursor }));
    }

    /// What Tab cycles through, nearest first (ties in reading order): visible
    /// monsters in reach, and for looking, visible items as well.
    pub fn targets(&self, purpose: Purpose) -> Vec<Pos> {
        let origin = self.state.player.pos;
        let map = &self.state.floor.map;
        let mut targets: Vec<Pos> = self
            .state
            .monsters
            .iter()
            .map(|m| m.pos)
            .filter(|&p| map.is_visible(p))
            .filter(|&p| purpose == Purpose::Look || origin.chebyshev(p) <= THROW_RANGE)
            .collect();
        if purpose == Purpose::Look {
            targets.extend(
                self.state
                    .items
                    .iter()
                    .map(|i| i.pos)
                    .filter(|&p| map.is_visible(p)),
            );
        }
        targets.sort_by_key(|&p| (origin.distance_squared(p), p.y, p.x));
        targets.dedup();
        targets
    }

    fn reticle_key(&mut self, reticle: Reticle, key: Key) -> Option<Action> {
        let map = &self.state.floor.map;
        let mut cursor = reticle.cursor;
        if let Some(dir) = direction_of(key).filter(|_| key.mods.is_empty()) {
            let next = cursor.step(dir);
            if map.in_bounds(next) {
                cursor = next;
            }
        } else if key.code == KeyCode::Tab {
            let targets = self.targets(reticle.purpose);
            if !targets.is_empty() {
                let current = targets.iter().position(|&p| p == cursor);
                let n = targets.len();
                let back = key.mods.contains(Mods::SHIFT) != self.planted_backward_tab();
                let next = match (current, back) {
                    (Some(i), false) => (i + 1) % n,
                    (Some(i), true) => (i + n - 1) % n,
                    (None, false) => 0,
                    (None, true) => n - 1,
                };
                cursor = targets[next];
            }
        } else if key.code == KeyCode::Enter && key.mods.is_empty() {
            return self.fire(reticle);
        } else {
            return None;
        }
        if let Some(Screen::Reticle(r)) = self.state.screens.last_mut() {
            r.cursor = cursor;
        }
        None
    }

    /// Enter on the reticle. Looking just closes it; an aimed action is
    /// checked here so a refusal leaves the reticle up and costs nothing.
    fn fire(&mut self, reticle: Reticle) -> Option<Action> {
        let Reticle { purpose, cursor } = reticle;
        let slot = match purpose {
            Purpose::Look => {
                self.planted_stall();
                self.state.screens.pop();
                return None;
            }
            Purpose::Throw { slot } | Purpose::Use { slot } => slot,
        };
        let player = self.state.player.pos;
        let refusal = if cursor == player {
            Some("You can't aim at yourself.")
        } else if !self.state.floor.map.is_visible(cursor) {
            Some("You can't see there.")
        } else if player.chebyshev(cursor) > THROW_RANGE {
            Some("That is out of range.")
        } else {
            None
        };
        if let Some(refusal) = refusal {
            self.say(refusal);
            return None;
        }
        self.commit(match purpose {
            Purpose::Throw { slot } => Action::Throw {
                slot,
                target: cursor,
            },
            _ => Action::Use {
                slot,
                target: Some(cursor),
            },
        })
    }

    /// One line describing a tile, for look mode.
    pub fn describe_tile(&self, at: Pos) -> String {
        let map = &self.state.floor.map;
        if !map.is_revealed(at) {
            return "You have not seen that place.".into();
        }
        if at == self.state.player.pos {
            return "That is you.".into();
        }
        if map.is_visible(at)
            && let Some(m) = self.state.monsters.iter().find(|m| m.pos == at)
        {
            let def = self.content.monster(m.kind);
            let mut line = format!(
                "{} ({}/{} hp)",
                capitalise(&with_article(&def.name)),
                m.hp,
                def.max_hp
            );
            if m.statuses.is_confused() {
                line.push_str(", confused");
            }
            if m.statuses.is_poisoned() {
                line.push_str(", poisoned");
            }
            line.push_str(". ");
            line.push_str(&def.description);
            return line;
        }
        if map.is_visible(at)
            && let Some(item) = self.state.items.iter().find(|i| i.pos == at)
        {
            let def = self.content.item(item.item);
            return format!(
                "{}. {}",
                capitalise(&def.describe(item.count)),
                def.description
            );
        }
        use crate::map::Tile;
        match map.tile(at) {
            Tile::Wall => "A wall of rough stone.",
            Tile::Floor => "The floor.",
            Tile::Door => "An open doorway.",
            Tile::StairsDown => "Stairs leading down.",
            Tile::Exit => "The way out of the Undercroft.",
        }
        .into()
    }
}
