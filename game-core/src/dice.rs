//! Dice notation: `NdS`, `NdS+B`, `NdS-B`.
//!
//! Parsing is strict and bounded, so a typo in content is refused when it is
//! loaded, with a message that says what to write instead, rather than rolling
//! something surprising three floors into a run.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::rng::Stream;

/// Limits on what content may ask for. A die count in the thousands is a typo,
/// not a monster.
pub const MAX_COUNT: u32 = 100;
pub const MAX_SIDES: u32 = 1000;
pub const MAX_BONUS: i32 = 1000;

/// A dice expression: roll `count` dice of `sides` faces and add `bonus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dice {
    count: u32,
    sides: u32,
    bonus: i32,
}

impl Dice {
    /// Checked constructor: the same limits as parsing.
    pub fn new(count: u32, sides: u32, bonus: i32) -> Result<Self, DiceError> {
        if count == 0 {
            return Err(DiceError::ZeroCount);
        }
        if count > MAX_COUNT {
            return Err(DiceError::TooManyDice(count));
        }
        if sides == 0 {
            return Err(DiceError::ZeroSides);
        }
        if sides > MAX_SIDES {
            return Err(DiceError::TooManySides(sides));
        }
        if bonus.abs() > MAX_BONUS {
            return Err(DiceError::BonusTooLarge(bonus));
        }
        Ok(Self {
            count,
            sides,
            bonus,
        })
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn sides(&self) -> u32 {
        self.sides
    }

    pub fn bonus(&self) -> i32 {
        self.bonus
    }

    /// The lowest total this expression can roll.
    pub fn min(&self) -> i32 {
        self.count as i32 + self.bonus
    }

    /// The highest total this expression can roll.
    pub fn max(&self) -> i32 {
        (self.count * self.sides) as i32 + self.bonus
    }

    /// Roll it. Damage and healing clamp the result at their use site.
    pub fn roll(&self, rng: &mut Stream) -> i32 {
        rng.roll(self.count, self.sides) + self.bonus
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.bonus {
            0 => Ok(()),
            b if b > 0 => write!(f, "+{b}"),
            b => write!(f, "{b}"),
        }
    }
}

/// Why a dice string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiceError {
    Empty,
    Malformed(String),
    ZeroCount,
    TooManyDice(u32),
    ZeroSides,
    TooManySides(u32),
    BonusTooLarge(i32),
}

impl fmt::Display for DiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiceError::Empty => write!(f, "empty dice expression; write NdS or NdS+B, e.g. 1d6+1"),
            DiceError::Malformed(s) => {
                write!(
                    f,
                    "{s:?} is not dice notation; write NdS or NdS+B, e.g. 2d4 or 1d6-1"
                )
            }
            DiceError::ZeroCount => write!(f, "a die count of 0 rolls nothing; use 1 or more dice"),
            DiceError::TooManyDice(n) => {
                write!(f, "{n} dice is more than the limit of {MAX_COUNT}")
            }
            DiceError::ZeroSides => write!(f, "a die needs at least 1 side"),
            DiceError::TooManySides(n) => {
                write!(
                    f,
                    "a {n}-sided die is more than the limit of {MAX_SIDES} sides"
                )
            }
            DiceError::BonusTooLarge(b) => {
                write!(f, "a bonus of {b} is outside -{MAX_BONUS}..=+{MAX_BONUS}")
            }
        }
    }
}

impl std::error::Error for DiceError {}

impl FromStr for Dice {
    type Err = DiceError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.is_empty() {
            return Err(DiceError::Empty);
        }
        let malformed = || DiceError::Malformed(s.chars().take(40).collect());
        let (count, rest) = s.split_once('d').ok_or_else(malformed)?;
        let (sides, bonus) = match rest.find(['+', '-']) {
            Some(at) => (&rest[..at], Some(&rest[at..])),
            None => (rest, None),
        };
        let count = parse_digits(count).ok_or_else(malformed)?;
        let sides = parse_digits(sides).ok_or_else(malformed)?;
        let bonus = match bonus {
            None => 0,
            Some(b) => {
                let (sign, digits) = b.split_at(1);
                let magnitude = parse_digits(digits).ok_or_else(malformed)?;
                let magnitude = i32::try_from(magnitude).map_err(|_| malformed())?;
                if sign == "-" { -magnitude } else { magnitude }
            }
        };
        Dice::new(count, sides, bonus)
    }
}

/// Plain ASCII digits only (no sign, no spaces), at most 9 of them so the value
/// fits in `u32` before the range checks see it.
fn parse_digits(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl Serialize for Dice {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Dice {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RunSeed;

    #[test]
    fn parses_the_three_forms() {
        assert_eq!("2d6".parse(), Dice::new(2, 6, 0));
        assert_eq!("1d8+2".parse(), Dice::new(1, 8, 2));
        assert_eq!("3d4-1".parse(), Dice::new(3, 4, -1));
        assert_eq!("1d1".parse(), Dice::new(1, 1, 0));
    }

    #[test]
    fn refuses_degenerate_and_huge_dice() {
        assert_eq!("0d6".parse::<Dice>(), Err(DiceError::ZeroCount));
        assert_eq!("2d0".parse::<Dice>(), Err(DiceError::ZeroSides));
        assert_eq!("101d6".parse::<Dice>(), Err(DiceError::TooManyDice(101)));
        assert_eq!("1d1001".parse::<Dice>(), Err(DiceError::TooManySides(1001)));
        assert_eq!(
            "1d6+1001".parse::<Dice>(),
            Err(DiceError::BonusTooLarge(1001))
        );
        assert_eq!(
            "1d6-1001".parse::<Dice>(),
            Err(DiceError::BonusTooLarge(-1001))
        );
        assert_eq!("".parse::<Dice>(), Err(DiceError::Empty));
    }

    #[test]
    fn refuses_junk() {
        for junk in [
            "d6",
            "2d",
            "2x6",
            "2d6+",
            "2d6++1",
            "2d6+-1",
            "-2d6",
            "+2d6",
            " 2d6",
            "2d6 ",
            "2 d6",
            "2d6+1d4",
            "1d6*2",
            "99999999999d6",
            "1d6+99999999999",
            "２d6",
            "1d6+0x1",
            "dd",
        ] {
            assert!(
                matches!(junk.parse::<Dice>(), Err(DiceError::Malformed(_))),
                "{junk:?} should be malformed, got {:?}",
                junk.parse::<Dice>()
            );
        }
    }

    #[test]
    fn display_round_trips() {
        for text in ["1d4", "2d6+3", "10d10-5", "1d1000+1000"] {
            let dice: Dice = text.parse().expect("valid");
            assert_eq!(dice.to_string(), text);
        }
        // A zero bonus is not written.
        assert_eq!(
            "1d4+0".parse::<Dice>().map(|d| d.to_string()),
            Ok("1d4".into())
        );
    }

    #[test]
    fn rolls_stay_between_min_and_max() {
        let mut rng = RunSeed(1).stream("test", 0);
        let dice: Dice = "3d4-2".parse().expect("valid");
        assert_eq!((dice.min(), dice.max()), (1, 10));
        let mut seen_min = false;
        let mut seen_max = false;
        for _ in 0..5000 {
            let r = dice.roll(&mut rng);
            assert!((dice.min()..=dice.max()).contains(&r));
            seen_min |= r == dice.min();
            seen_max |= r == dice.max();
        }
        assert!(seen_min && seen_max);
    }

    #[test]
    fn errors_say_what_to_write() {
        let msg = "0d6".parse::<Dice>().unwrap_err().to_string();
        assert!(msg.contains("1 or more"), "{msg}");
        let msg = "fish".parse::<Dice>().unwrap_err().to_string();
        assert!(msg.contains("NdS"), "{msg}");
    }
}
