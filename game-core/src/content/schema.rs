//! What a monster and an item are, as content files write them.
//!
//! The line between engine and content: content decides stats, flavour and
//! spawn weights; the engine decides what each field means. A new kind of
//! behaviour needs Rust (a new [`ItemEffect`] variant or monster field); a new
//! creature or potion needs only a RON entry.

use serde::{Deserialize, Serialize};

use crate::dice::Dice;

/// Index of a monster definition in [`super::Content::monsters`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct MonsterId(pub u16);

/// Index of an item definition in [`super::Content::items`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ItemId(pub u16);

/// A poisonous bite: on a hit, the victim is poisoned for `turns` rounds and
/// takes `damage` each round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Poison {
    pub turns: u32,
    pub damage: Dice,
}

/// One entry of monsters.ron.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterDef {
    /// Unique (case-insensitively), as shown in messages: "giant newt".
    pub name: String,
    /// One printable ASCII character that is not a map glyph (`# . + > X @`).
    pub glyph: char,
    pub max_hp: i32,
    /// Added to the d20 to-hit roll.
    pub att: i32,
    /// Defence value: a swing connects when d20 + att reaches it.
    pub dv: i32,
    pub damage: Dice,
    /// Percent of normal speed: 100 acts once a turn, 200 twice.
    pub speed: u32,
    /// The depth this monster is at home at (see `spawn`).
    pub danger: u32,
    /// Commonness among monsters of similar danger; 0 never spawns.
    pub weight: u32,
    /// A hit also poisons.
    #[serde(default)]
    pub poison: Option<Poison>,
    /// A hit also confuses the victim for this many rounds.
    #[serde(default)]
    pub confuses: Option<u32>,
    pub description: String,
}

/// What using an item does. Variants that need a target are aimed with the
/// reticle ([`ItemEffect::needs_target`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ItemEffect {
    /// Restores hit points, never above the maximum.
    Heal { amount: Dice },
    /// Ends poisoning.
    CurePoison,
    /// Read at a creature: confuses it for this many rounds.
    Confuse { turns: u32 },
    /// Reveals the whole floor.
    MagicMapping,
    /// Moves the reader to a random free tile of the floor.
    Teleport,
    /// Thrown at a target: a ranged attack with this to-hit bonus and damage.
    Thrown { to_hit: i32, damage: Dice },
    /// Wielded: replaces bare-handed damage and adds to to-hit.
    Weapon { to_hit: i32, damage: Dice },
    /// Worn: adds to the defence value.
    Armour { defence: i32 },
}

/// What the item is for: "healing (2d4)", "a weapon (+1 to hit, 1d8)".
impl std::fmt::Display for ItemEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ItemEffect::Heal { amount } => write!(f, "healing ({amount})"),
            ItemEffect::CurePoison => f.write_str("a cure for poison"),
            ItemEffect::Confuse { turns } => write!(f, "confusion ({turns} rounds)"),
            ItemEffect::MagicMapping => f.write_str("magic mapping"),
            ItemEffect::Teleport => f.write_str("teleportation"),
            ItemEffect::Thrown { to_hit, damage } => {
                write!(f, "a missile ({to_hit:+} to hit, {damage})")
            }
            ItemEffect::Weapon { to_hit, damage } => {
                write!(f, "a weapon ({to_hit:+} to hit, {damage})")
            }
            ItemEffect::Armour { defence } => write!(f, "armour ({defence:+} defence)"),
        }
    }
}

impl ItemEffect {
    pub fn needs_target(&self) -> bool {
        matches!(self, ItemEffect::Confuse { .. } | ItemEffect::Thrown { .. })
    }

    pub fn is_equipment(&self) -> bool {
        matches!(self, ItemEffect::Weapon { .. } | ItemEffect::Armour { .. })
    }
}

/// One entry of items.ron.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemDef {
    /// Unique (case-insensitively), singular: "potion of healing".
    pub name: String,
    /// For stacks: "potions of healing". Defaults to `name` + "s".
    #[serde(default)]
    pub plural: Option<String>,
    /// One printable ASCII character that is not a map glyph.
    pub glyph: char,
    pub effect: ItemEffect,
    /// The depth this item is at home at, like a monster's danger.
    pub danger: u32,
    /// Commonness among items of similar danger; 0 never spawns.
    pub weight: u32,
    /// Whether several of it share one pack slot.
    pub stackable: bool,
    /// How many the player starts with.
    #[serde(default)]
    pub start_with: u32,
    pub description: String,
}

impl ItemDef {
    /// "a dart", "3 darts", "an orcish blade".
    pub fn describe(&self, count: u32) -> String {
        if count == 1 {
            let article = match self.name.chars().next() {
                Some(c) if "aeiouAEIOU".contains(c) => "an",
                _ => "a",
            };
            format!("{article} {}", self.name)
        } else {
            format!("{count} {}", self.plural_name())
        }
    }

    pub fn plural_name(&self) -> String {
        self.plural
            .clone()
            .unwrap_or_else(|| format!("{}s", self.name))
    }
}
