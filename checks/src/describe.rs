//! How reports say the game's values: text for people reading a failure
//! (invariant messages, sweep reports, replay drift), never read back by
//! the game and never shown to the player (the game's own words are in its
//! messages and game/render.rs).
//!
//! A value is worded through [`Words::words`] (`format!("{}", tile.words())`):
//! the words belong to the checks, not to the game's types, so they live
//! here rather than as the types' `Display`. The unit tests below hold the
//! wording.

use std::fmt;

use game_core::content::{Content, ItemId};
use game_core::game::RunEnd;
use game_core::game::events::{Event, HpCause, Place, StatusChange, Who};
use game_core::game::screens::{PackMode, Purpose, Reticle, Screen};
use game_core::game::state::{Stack, slot_letter};
use game_core::map::Tile;
use game_core::rules::StepResult;

/// A game value as reports word it: see [`Words`].
pub struct Said<'a, T>(&'a T);

/// The game's values that reports word: `value.words()` displays as a
/// report says the value.
pub trait Words: Sized {
    /// The value, displayed as reports word it.
    fn words(&self) -> Said<'_, Self> {
        Said(self)
    }
}

impl Words for Tile {}
impl Words for StepResult {}
impl Words for RunEnd {}
impl Words for Screen {}
impl Words for Reticle {}
impl Words for Who {}
impl Words for HpCause {}
impl Words for StatusChange {}
impl Words for Place {}

/// What the tile is, in a sentence: "floor", "a wall", "stairs down".
pub const fn tile_name(tile: Tile) -> &'static str {
    match tile {
        Tile::Wall => "a wall",
        Tile::Floor => "floor",
        Tile::Door => "a doorway",
        Tile::StairsDown => "stairs down",
        Tile::Exit => "the exit",
    }
}

impl fmt::Display for Said<'_, Tile> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(tile_name(*self.0))
    }
}

/// What came of a step, as a report says it: "a move", "a refusal".
impl fmt::Display for Said<'_, StepResult> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            StepResult::Move => "a move",
            StepResult::Attack => "an attack",
            StepResult::Refused => "a refusal (no time spent)",
            StepResult::Wasted => "a wasted turn",
        })
    }
}

/// "a dart", "3 darts".
pub fn stack_words(stack: &Stack, content: &Content) -> String {
    content.item(stack.item).describe(stack.count)
}

/// A pack slot that may be empty, as a report says it: "slot c", "no slot".
pub fn describe_slot(slot: Option<u8>) -> String {
    slot.map_or_else(|| "no slot".into(), |s| format!("slot {}", slot_letter(s)))
}

/// After "the run was": "lost (killed by a goblin)", "won", "quit".
impl fmt::Display for Said<'_, RunEnd> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            RunEnd::Died { cause } => write!(f, "lost ({cause})"),
            RunEnd::Won => f.write_str("won"),
            RunEnd::Quit => f.write_str("quit"),
        }
    }
}

/// "the pack open to drop", "the item menu of slot c", "the help screen".
impl fmt::Display for Said<'_, Screen> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Screen::Pack(mode) => write!(f, "the pack open to {}", pack_verb(*mode)),
            Screen::ItemMenu { slot } => write!(f, "the item menu of slot {}", slot_letter(*slot)),
            Screen::Reticle(reticle) => write!(f, "{reticle}", reticle = reticle.words()),
            Screen::Help { .. } => f.write_str("the help screen"),
            Screen::History { .. } => f.write_str("the message history"),
            Screen::QuitPrompt => f.write_str("the quit prompt"),
        }
    }
}

/// The top screen, or the map when there is none: for reports.
pub fn describe_top(top: Option<&Screen>) -> String {
    top.map_or_else(
        || "the map (no screen)".into(),
        |screen| screen.words().to_string(),
    )
}

/// What the pack is open to do: "browse", "drop", "wear or wield".
pub fn pack_verb(mode: PackMode) -> &'static str {
    match mode {
        PackMode::Browse => "browse",
        PackMode::Drop => "drop",
        PackMode::Apply => "use",
        PackMode::Throw => "throw",
        PackMode::Wear => "wear or wield",
    }
}

/// "the reticle looking at (3, 4)", "the reticle aiming slot c at (3, 4)".
impl fmt::Display for Said<'_, Reticle> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cursor = self.0.cursor;
        match self.0.purpose {
            Purpose::Look => write!(f, "the reticle looking at {cursor}"),
            Purpose::Throw { slot } => write!(
                f,
                "the reticle throwing slot {} at {cursor}",
                slot_letter(slot)
            ),
            Purpose::Use { slot } => write!(
                f,
                "the reticle using slot {} at {cursor}",
                slot_letter(slot)
            ),
        }
    }
}

/// "the player", "monster 3". Reports that know the monster's kind say more
/// (see [`Event::describe`]).
impl fmt::Display for Said<'_, Who> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Who::Player => f.write_str("the player"),
            Who::Monster(id) => write!(f, "{id}"),
        }
    }
}

/// The event as a sentence, for reports: "monster 3 (goblin) attacks the
/// player: roll 14 hits for 3 damage". `name` names a creature.
// Longer than 70 lines: one arm per event, each a sentence; split, the arms would only be renamed.
pub fn describe_event(event: &Event, content: &Content, name: impl Fn(Who) -> String) -> String {
    let items = |item: ItemId, count: u32| content.item(item).describe(count);
    match *event {
        Event::PlayerActed { cost } => {
            format!("the player acts, spending {cost} hundredths of a turn")
        }
        Event::MonsterTurn { id } => format!("{}'s turn comes", name(Who::Monster(id))),
        Event::Round => "a round passes".into(),
        Event::Lurch {
            who,
            intended,
            hijack,
            direction,
        } => format!(
            "{}, confused and meaning to go {}, rolls {hijack} of 100 and {direction} of 8",
            name(who),
            intended.name()
        ),
        Event::Step {
            who,
            from,
            dir,
            confused,
            result,
        } => format!(
            "{} steps {} from {from}{}: {result}",
            name(who),
            dir.name(),
            if confused { " while confused" } else { "" },
            result = result.words()
        ),
        Event::Attack {
            attacker,
            defender,
            missile,
            roll,
            hit,
            damage,
        } => {
            let with = missile.map_or_else(String::new, |item| format!(" with {}", items(item, 1)));
            format!(
                "{} attacks {}{with}: roll {roll} {}",
                name(attacker),
                name(defender),
                blow_result(hit, damage)
            )
        }
        Event::HitPoints {
            who,
            before,
            after,
            cause,
        } => format!(
            "{}'s hit points go from {before} to {after} by {cause}",
            name(who),
            cause = cause.words()
        ),
        Event::Died { who } => format!("{} dies", name(who)),
        Event::Status { who, change } => {
            format!("{} is {change}", name(who), change = change.words())
        }
        Event::Items {
            item,
            count,
            from,
            to,
        } => items_moved(&items(item, count), count, from, to),
        Event::Thrown {
            item,
            slot,
            landing,
        } => format!(
            "{} thrown from pack slot {} comes down at {landing}",
            items(item, 1),
            slot_letter(slot)
        ),
        Event::Equipped { slot, worn } => format!(
            "the player {} the item in pack slot {}",
            if worn { "puts on" } else { "wields" },
            slot_letter(slot)
        ),
        Event::Teleported { from, to } => {
            format!("the player is teleported from {from} to {to}")
        }
        Event::MapRevealed => "the whole floor is revealed".into(),
        Event::Descended { depth } => format!("the player arrives on depth {depth}"),
        Event::Noticed { id } => format!("{} notices the player", name(Who::Monster(id))),
        Event::Named { who } => format!("a message names {}", name(who)),
    }
}

/// Items going from one place to another, or used up.
fn items_moved(items: &str, count: u32, from: Place, to: Place) -> String {
    match to {
        Place::Used => format!(
            "{items} from {from} {} used up",
            if count == 1 { "is" } else { "are" },
            from = from.words()
        ),
        to => format!(
            "{items} {} from {from} to {to}",
            if count == 1 { "moves" } else { "move" },
            from = from.words(),
            to = to.words()
        ),
    }
}

/// What a swing's roll came to: "hits for 3 damage", "misses", or a miss
/// that still dealt damage.
fn blow_result(hit: bool, damage: i32) -> String {
    if hit {
        format!("hits for {damage} damage")
    } else if damage == 0 {
        "misses".into()
    } else {
        format!("misses, dealing {damage} damage")
    }
}

/// After "by": "a blow", "poison", "a potion (rolled 7)".
impl fmt::Display for Said<'_, HpCause> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            HpCause::Blow => f.write_str("a blow"),
            HpCause::Poison => f.write_str("poison"),
            HpCause::Heal { rolled } => write!(f, "a potion (rolled {rolled})"),
        }
    }
}

/// After "is": "poisoned for 5 rounds", "cured of poison".
impl fmt::Display for Said<'_, StatusChange> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            StatusChange::Poisoned { rounds } => write!(f, "poisoned for {rounds} rounds"),
            StatusChange::Confused { rounds } => write!(f, "confused for {rounds} rounds"),
            StatusChange::Cured => f.write_str("cured of poison"),
        }
    }
}

/// "pack slot c", "the floor at (3, 4)", "being used up".
impl fmt::Display for Said<'_, Place> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Place::Pack(slot) => write!(f, "pack slot {}", slot_letter(*slot)),
            Place::Floor(at) => write!(f, "the floor at {at}"),
            Place::Used => f.write_str("being used up"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::game::state::MonsterRef;
    use game_core::geom::Pos;

    fn names(who: Who) -> String {
        match who {
            Who::Player => "the player".into(),
            Who::Monster(_) => "the goblin".into(),
        }
    }

    #[test]
    fn events_read_as_sentences() {
        let content = Content::embedded();
        let dart = content
            .item_named("dart")
            .expect("darts are in the content");
        let goblin = Who::Monster(MonsterRef(3));
        let swing = Event::Attack {
            attacker: goblin,
            defender: Who::Player,
            missile: None,
            roll: 14,
            hit: true,
            damage: 3,
        };
        assert_eq!(
            describe_event(&swing, &content, names),
            "the goblin attacks the player: roll 14 hits for 3 damage"
        );
        let throw = Event::Attack {
            attacker: Who::Player,
            defender: goblin,
            missile: Some(dart),
            roll: 1,
            hit: false,
            damage: 0,
        };
        assert_eq!(
            describe_event(&throw, &content, names),
            "the player attacks the goblin with a dart: roll 1 misses"
        );
        let dropped = Event::Items {
            item: dart,
            count: 3,
            from: Place::Pack(2),
            to: Place::Floor(Pos::new(4, 5)),
        };
        assert_eq!(
            describe_event(&dropped, &content, names),
            "3 darts move from pack slot c to the floor at (4, 5)"
        );
        let poisoned = Event::Status {
            who: Who::Player,
            change: StatusChange::Poisoned { rounds: 5 },
        };
        assert_eq!(
            describe_event(&poisoned, &content, |who| who.words().to_string()),
            "the player is poisoned for 5 rounds"
        );
        assert_eq!(goblin.words().to_string(), "monster 3");
    }
}
