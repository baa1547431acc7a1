//! The pack: 26 lettered slots of stacks, and the letters that name them.
//!
//! Plain data at the bottom of the game's layers: the state holds a pack,
//! and the screens name its slots by letter.

use serde::{Deserialize, Serialize};

use crate::content::ItemId;

/// Pack slots, lettered a to z.
pub const PACK_SLOTS: usize = 26;
/// Largest stack a pack slot or floor pile holds.
pub const MAX_STACK: u32 = 99;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stack {
    pub item: ItemId,
    pub count: u32,
}

/// The pack: 26 lettered slots. An item keeps its letter until it leaves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pack {
    slots: [Option<Stack>; PACK_SLOTS],
}

impl Pack {
    pub fn get(&self, slot: u8) -> Option<Stack> {
        self.slots.get(usize::from(slot)).copied().flatten()
    }

    pub fn slots(&self) -> impl Iterator<Item = (u8, Stack)> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.map(|stack| (i as u8, stack)))
    }

    pub fn len(&self) -> usize {
        self.slots.iter().flatten().count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Where `count` of `item` would go: the slot already holding a stack of
    /// it with room (when `stackable`), else the first free slot.
    pub fn slot_for(&self, item: ItemId, count: u32, stackable: bool) -> Option<u8> {
        if stackable
            && let Some((slot, _)) = self
                .slots()
                .find(|(_, s)| s.item == item && s.count + count <= MAX_STACK)
        {
            return Some(slot);
        }
        self.slots.iter().position(Option::is_none).map(|i| i as u8)
    }

    /// Adds to `slot` (from [`Pack::slot_for`]).
    pub fn add(&mut self, slot: u8, item: ItemId, count: u32) {
        let entry = &mut self.slots[usize::from(slot)];
        match entry {
            Some(stack) => {
                debug_assert_eq!(stack.item, item);
                stack.count += count;
            }
            None => *entry = Some(Stack { item, count }),
        }
    }

    /// Takes `count` (at most what is there) out of `slot`, emptying it when
    /// nothing is left. Returns what was taken.
    pub fn take(&mut self, slot: u8, count: u32) -> Option<Stack> {
        let entry = self.slots.get_mut(usize::from(slot))?;
        let stack = entry.as_mut()?;
        let taken = count.min(stack.count);
        stack.count -= taken;
        let item = stack.item;
        if stack.count == 0 {
            *entry = None;
        }
        Some(Stack { item, count: taken })
    }
}

/// Pack slot letters.
pub fn slot_letter(slot: u8) -> char {
    char::from(b'a' + slot % PACK_SLOTS as u8)
}

pub fn letter_slot(c: char) -> Option<u8> {
    c.is_ascii_lowercase().then(|| c as u8 - b'a')
}
