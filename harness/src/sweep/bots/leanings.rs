//! A way of playing: what the explorer leaves out or leans on. The
//! explorer plays by its default; the swarm draws one per run.

use game_core::content::ItemEffect;

/// Hit points at or below this fraction (percent) of the maximum send the
/// explorer to its potions.
pub(super) const LOW_HP_PERCENT: i32 = 45;
/// Hit points at or below this fraction (percent) of the maximum, with no
/// potion to drink, send the explorer to the way down as soon as it knows
/// it: the next floor's finds are a better hope than this floor's fights.
pub(super) const HURRY_HP_PERCENT: i32 = 60;
/// What a swarm run leaves out or leans on. The default is the explorer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leanings {
    /// Never throws anything.
    pub never_throw: bool,
    /// Throws what it has at a monster in range before anything else, a
    /// neighbour too.
    pub throw_first: bool,
    /// Never waits: a confused player stumbles about instead of waiting the
    /// confusion out, and a bot with nowhere to go steps anyway.
    pub never_rest: bool,
    /// Never reads a scroll.
    pub never_read: bool,
    /// Never drinks a potion.
    pub never_drink: bool,
    /// Makes for the way down as soon as it knows it.
    pub prefer_stairs: bool,
    /// The one depth on which the switches above hold (never throw, throw
    /// first, never read, never drink, make for the stairs); `None`: on
    /// every floor.
    pub on_depth: Option<u32>,
    /// Hit points (percent of the most) at or below which it drinks healing.
    pub drink_below: i32,
    /// Hit points (percent of the most) at or below which, with nothing to
    /// drink, it makes for the way down.
    pub hurry_below: i32,
}

impl Default for Leanings {
    /// The explorer's own play.
    fn default() -> Leanings {
        Leanings {
            never_throw: false,
            throw_first: false,
            never_rest: false,
            never_read: false,
            never_drink: false,
            prefer_stairs: false,
            on_depth: None,
            drink_below: LOW_HP_PERCENT,
            hurry_below: HURRY_HP_PERCENT,
        }
    }
}

impl Leanings {
    /// The leanings that hold on `depth`: the switches only on their own
    /// floor.
    pub(super) fn at(&self, depth: u32) -> Leanings {
        if self.on_depth.is_none_or(|d| d == depth) {
            return *self;
        }
        Leanings {
            never_throw: false,
            throw_first: false,
            never_read: false,
            never_drink: false,
            prefer_stairs: false,
            ..*self
        }
    }

    /// Whether an item of this effect may be used (drunk, read or thrown).
    pub(super) fn allows(&self, effect: &ItemEffect) -> bool {
        match effect {
            ItemEffect::Heal { .. } | ItemEffect::CurePoison => !self.never_drink,
            ItemEffect::Teleport | ItemEffect::Confuse { .. } | ItemEffect::MagicMapping => {
                !self.never_read
            }
            ItemEffect::Thrown { .. } => !self.never_throw,
            _ => true,
        }
    }

    /// The leanings that hold, in words: "never throws, makes for the
    /// stairs, drinks at 30% and hurries at 45%".
    pub(super) fn words(&self) -> Vec<String> {
        let switches = [
            (self.never_throw, "never throws"),
            (self.throw_first, "throws first"),
            (self.never_rest, "never rests"),
            (self.never_read, "never reads"),
            (self.never_drink, "never drinks"),
            (self.prefer_stairs, "makes for the stairs"),
        ];
        let on = match self.on_depth {
            Some(depth) => format!(" on depth {depth}"),
            None => String::new(),
        };
        let mut words: Vec<String> = switches
            .into_iter()
            .filter(|(on, _)| *on)
            .map(|(_, word)| format!("{word}{on}"))
            .collect();
        let default = Leanings::default();
        if (self.drink_below, self.hurry_below) != (default.drink_below, default.hurry_below) {
            words.push(format!(
                "drinks at {}% and hurries at {}% of its hit points",
                self.drink_below, self.hurry_below
            ));
        }
        words
    }
}
