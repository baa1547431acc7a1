//! What a definition must satisfy beyond parsing: ranges, names, glyphs.
//!
//! Every check reports and carries on, so a file with three mistakes names
//! all three. Limits are generous for modding and tight enough that nothing a
//! file says can overflow the rules' arithmetic or make a screen unreadable.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use super::load::{Entry, File, Named};
use super::{ItemDef, ItemEffect, MonsterDef};
use crate::dice::Dice;

pub const MAX_NAME_CHARS: usize = 40;
pub const MAX_DESCRIPTION_CHARS: usize = 500;
/// Glyphs the map draws with; a creature or item drawn the same way would be
/// mistaken for the dungeon.
pub const MAP_GLYPHS: &str = "#.+>X@";

const MAX_HP: RangeInclusive<i64> = 1..=1000;
const ATTACK: RangeInclusive<i64> = -20..=50;
const DEFENCE_VALUE: RangeInclusive<i64> = 0..=60;
const SPEED: RangeInclusive<i64> = 25..=400;
/// The highest danger a monster or item may have: what a sweep report's
/// dangers are held to when it is read back.
pub const MAX_DANGER: u32 = 20;
const DANGER: RangeInclusive<i64> = 1..=MAX_DANGER as i64;
const WEIGHT: RangeInclusive<i64> = 0..=1000;
const STATUS_TURNS: RangeInclusive<i64> = 1..=100;
const BONUS: RangeInclusive<i64> = -20..=50;
const START_WITH: RangeInclusive<i64> = 0..=99;
/// The most one roll of damage or healing may reach: the largest hit points
/// anything can have.
const MAX_ROLL: i32 = 1000;

/// Reports against one entry's fields.
struct Check<'f, 'a, 'e, T> {
    file: &'f mut File<'a>,
    entry: &'e Entry<T>,
}

impl<T: Named> Check<'_, '_, '_, T> {
    fn fail(&mut self, path: &[&str], message: String) {
        self.file.report_field(self.entry, path, message);
    }

    /// `path` holds `value`, which must lie in `range`; `meaning` says what
    /// the number is, so the reader can pick a better one.
    fn in_range(
        &mut self,
        path: &[&str],
        value: impl Into<i64>,
        range: RangeInclusive<i64>,
        meaning: &str,
    ) {
        let value = value.into();
        if !range.contains(&value) {
            let message = format!(
                "{} {value} is outside {}..={} ({meaning})",
                path.join("."),
                range.start(),
                range.end()
            );
            self.fail(path, message);
        }
    }

    /// Dice rolled for damage or healing must be able to do something and
    /// must not dwarf every hit point total in the game.
    fn effective_dice(&mut self, path: &[&str], dice: Dice, verb: &str) {
        let field = path.join(".");
        if dice.max() < 1 {
            let message = format!(
                "{field} {dice} can never roll above 0, so it never {verb}; lower the penalty"
            );
            self.fail(path, message);
        } else if dice.max() > MAX_ROLL {
            let message = format!(
                "{field} {dice} can roll {}, more than the limit of {MAX_ROLL}; use fewer or \
                 smaller dice",
                dice.max()
            );
            self.fail(path, message);
        }
    }

    /// A one-line label shown in messages and lists.
    fn label(&mut self, path: &[&str], text: &str) {
        let field = path.join(".");
        let length = text.chars().count();
        if text.is_empty() {
            self.fail(path, format!("{field} is empty; write one"));
        } else if length > MAX_NAME_CHARS {
            let message =
                format!("{field} is {length} characters, more than the limit of {MAX_NAME_CHARS}");
            self.fail(path, message);
        } else if let Some(bad) = text.chars().find(|&c| !(' '..='~').contains(&c)) {
            let message = format!(
                "{field} contains {bad:?}; use printable ASCII (letters, digits, spaces, \
                 punctuation) so it fits the screen's grid"
            );
            self.fail(path, message);
        } else if text.trim() != text {
            self.fail(
                path,
                format!("{field} starts or ends with a space; remove it"),
            );
        } else if text.contains("  ") {
            // Messages are held to single spaces (the invariant
            // message.form), where a doubled one means a word left out.
            self.fail(
                path,
                format!("{field} has two spaces in a row; use one between words"),
            );
        }
    }

    fn description(&mut self, text: &str) {
        let length = text.chars().count();
        if text.trim().is_empty() {
            let message = "description is empty; write a sentence for the look screen".to_owned();
            self.fail(&["description"], message);
        } else if length > MAX_DESCRIPTION_CHARS {
            let message = format!(
                "description is {length} characters, more than the limit of \
                 {MAX_DESCRIPTION_CHARS}"
            );
            self.fail(&["description"], message);
        } else if let Some((at, bad)) = text
            .chars()
            .enumerate()
            .find(|&(_, c)| crate::text::class(c) != crate::text::Class::Plain)
        {
            // The look screen draws a description one character a cell:
            // anything that is not one column drawn as itself would break
            // the frame's grid or hide in it.
            let message = format!(
                "description's character {} is U+{:04X}, {}; write it as one paragraph of \
                 plain text, one column a character",
                at + 1,
                u32::from(bad),
                crate::text::class(bad).name()
            );
            self.fail(&["description"], message);
        }
    }

    fn glyph(&mut self, glyph: char) {
        if glyph == ' ' {
            let message = "glyph is a space, which would draw nothing; pick a letter or a \
                           symbol"
                .to_owned();
            self.fail(&["glyph"], message);
        } else if !glyph.is_ascii_graphic() {
            let message = format!(
                "glyph {glyph:?} is not printable ASCII; pick a letter or a symbol between \
                 '!' and '~'"
            );
            self.fail(&["glyph"], message);
        } else if MAP_GLYPHS.contains(glyph) {
            let message = format!(
                "glyph '{glyph}' is drawn by the map ({MAP_GLYPHS}); pick another so it is \
                 not mistaken for the dungeon"
            );
            self.fail(&["glyph"], message);
        }
    }
}

/// Names must be unique ignoring case: messages and the harness look them up
/// that way. Each duplicate points back at the first entry with the name.
fn unique_names<T: Named>(file: &mut File<'_>, entries: &[Entry<T>]) {
    let mut first_with_name: BTreeMap<String, usize> = BTreeMap::new();
    for entry in entries {
        let here = file.field_offset(entry.span.clone(), &["name"]);
        let key = entry.def.name().to_ascii_lowercase();
        match first_with_name.get(&key) {
            Some(&first) => {
                let message = format!(
                    "name {:?} is already used by the entry at {}; names must differ \
                     (ignoring case)",
                    entry.def.name(),
                    file.describe(first)
                );
                file.report(here, Some(entry.def.name()), message);
            }
            None => {
                first_with_name.insert(key, here);
            }
        }
    }
}

pub(crate) fn monsters(file: &mut File<'_>, monsters: &[Entry<MonsterDef>]) {
    unique_names(file, monsters);
    for entry in monsters {
        let monster = &entry.def;
        let mut check = Check { file, entry };
        check.label(&["name"], &monster.name);
        check.glyph(monster.glyph);
        check.in_range(&["max_hp"], monster.max_hp, MAX_HP, "hit points");
        check.in_range(
            &["att"],
            monster.att,
            ATTACK,
            "added to its d20 to-hit roll",
        );
        check.in_range(
            &["dv"],
            monster.dv,
            DEFENCE_VALUE,
            "the total a to-hit roll must reach",
        );
        check.effective_dice(&["damage"], monster.damage, "hurts");
        check.in_range(
            &["speed"],
            monster.speed,
            SPEED,
            "percent of normal speed; 100 acts once a turn",
        );
        check.in_range(
            &["danger"],
            monster.danger,
            DANGER,
            "the depth it is at home at",
        );
        check.in_range(
            &["weight"],
            monster.weight,
            WEIGHT,
            "how common it is; 0 never spawns",
        );
        if let Some(poison) = &monster.poison {
            check.in_range(
                &["poison", "turns"],
                poison.turns,
                STATUS_TURNS,
                "rounds the poison lasts",
            );
            check.effective_dice(&["poison", "damage"], poison.damage, "hurts");
        }
        if let Some(turns) = monster.confuses {
            check.in_range(
                &["confuses"],
                turns,
                STATUS_TURNS,
                "rounds its victim stays confused",
            );
        }
        check.description(&monster.description);
    }
}

/// The checks only an item has.
impl Check<'_, '_, '_, ItemDef> {
    /// A plural given must be a label; leaving it out means the name plus "s".
    fn plural(&mut self, plural: &str) {
        if plural.is_empty() {
            let message = "plural is empty; leave it out to use the name plus \"s\"".into();
            self.fail(&["plural"], message);
        } else {
            self.label(&["plural"], plural);
        }
    }

    /// The numbers of what using the item does.
    fn effect(&mut self, effect: &ItemEffect) {
        match *effect {
            ItemEffect::Heal { amount } => {
                self.effective_dice(&["effect", "amount"], amount, "heals");
            }
            ItemEffect::Confuse { turns } => self.in_range(
                &["effect", "turns"],
                turns,
                STATUS_TURNS,
                "rounds the target stays confused",
            ),
            ItemEffect::Thrown { to_hit, damage } | ItemEffect::Weapon { to_hit, damage } => {
                self.in_range(
                    &["effect", "to_hit"],
                    to_hit,
                    BONUS,
                    "added to the d20 to-hit roll",
                );
                self.effective_dice(&["effect", "damage"], damage, "hurts");
            }
            ItemEffect::Armour { defence } => self.in_range(
                &["effect", "defence"],
                defence,
                BONUS,
                "added to the wearer's defence value",
            ),
            ItemEffect::CurePoison | ItemEffect::MagicMapping | ItemEffect::Teleport => {}
        }
    }
}

pub(crate) fn items(file: &mut File<'_>, items: &[Entry<ItemDef>]) {
    unique_names(file, items);
    for entry in items {
        let item = &entry.def;
        let mut check = Check { file, entry };
        check.label(&["name"], &item.name);
        if let Some(plural) = &item.plural {
            check.plural(plural);
        }
        check.glyph(item.glyph);
        check.effect(&item.effect);
        check.in_range(
            &["danger"],
            item.danger,
            DANGER,
            "the depth it is at home at",
        );
        check.in_range(
            &["weight"],
            item.weight,
            WEIGHT,
            "how common it is; 0 never spawns",
        );
        if item.stackable && item.effect.is_equipment() {
            let message = "stackable equipment cannot be worn or wielded one at a time; set \
                           stackable: false"
                .to_owned();
            check.fail(&["stackable"], message);
        }
        check.in_range(
            &["start_with"],
            item.start_with,
            START_WITH,
            "how many the player starts with",
        );
        if item.start_with > 1 && !item.stackable {
            let message = format!(
                "start_with {} needs stackable: true; an item that does not stack can start \
                 with at most 1",
                item.start_with
            );
            check.fail(&["start_with"], message);
        }
        check.description(&item.description);
    }
}
