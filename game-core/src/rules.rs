//! The rules, as pure functions of their inputs and their rolls.
//!
//! Every function here takes the dice it needs as plain numbers instead of a
//! random stream, so tests can probe every edge exactly. The game rolls and
//! passes the result in.

use crate::geom::Dir;

/// Time is counted in hundredths of a step: a normal action costs this much.
pub const BASE_ACTION_COST: u64 = 100;

/// The player's sheet before equipment.
pub const PLAYER_MAX_HP: i32 = 30;
pub const PLAYER_ATTACK: i32 = 3;
pub const PLAYER_DEFENCE: i32 = 10;
pub const PLAYER_SPEED: u32 = 100;
/// Bare-handed damage.
pub const PLAYER_FISTS: &str = "1d4";

/// Chance in 100 that a confused creature's step goes a random way instead.
pub const STUMBLE_CHANCE: u32 = 50;

/// How far a thrown item or a read scroll reaches, in steps.
pub const THROW_RANGE: i32 = 8;

/// Does a swing connect? `roll` is a d20: a natural 1 always misses and a
/// natural 20 always hits, so no fight is ever a certainty; otherwise the
/// swing connects when roll + attack reaches the defence value.
pub fn hit_connects(roll: i32, attack: i32, defence: i32) -> bool {
    debug_assert!((1..=20).contains(&roll), "a d20 rolled {roll}");
    match roll {
        1 => false,
        20 => true,
        _ => roll + attack >= defence,
    }
}

/// Damage dealt from a damage roll: never negative (a feeble blow does
/// nothing rather than heal).
pub fn damage_dealt(roll: i32) -> i32 {
    roll.max(0)
}

/// Hit points after healing `amount`: tops up, never above the maximum, and
/// never lowers hit points that are somehow above it.
pub fn healed(hp: i32, max_hp: i32, amount: i32) -> i32 {
    if hp >= max_hp {
        return hp;
    }
    (hp + amount.max(0)).min(max_hp)
}

/// Time an action of `base` cost takes an actor of `speed_percent`:
/// `base * 100 / speed`, in integers, never less than 1 so the clock always
/// moves.
pub fn scaled_cost(base: u64, speed_percent: u32) -> u64 {
    debug_assert!(speed_percent > 0);
    (base * 100 / u64::from(speed_percent.max(1))).max(1)
}

/// Whether a confused creature's step with this `hijack_roll` (0..100) goes
/// a random way: below [`STUMBLE_CHANCE`].
pub fn stumbles(hijack_roll: u32) -> bool {
    hijack_roll < STUMBLE_CHANCE
}

/// Where a confused creature's step goes. `hijack_roll` is 0..100 and
/// `direction_roll` 0..8: below [`STUMBLE_CHANCE`] the step is replaced by a
/// random direction (possibly the intended one).
pub fn confused_direction(intended: Dir, hijack_roll: u32, direction_roll: u32) -> Dir {
    if stumbles(hijack_roll) {
        Dir::ALL[(direction_roll % 8) as usize]
    } else {
        intended
    }
}

/// What is on the tile a step goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepTarget {
    /// Free and legal to enter.
    Open,
    /// A wall, or a diagonal squeeze the step rule refuses.
    Blocked,
    /// Another creature stands there.
    Occupied,
}

/// What a step does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepResult {
    Move,
    /// Attack whoever is there (a stumble attacks friend or foe alike).
    Attack,
    /// Nothing happens and no time passes.
    Refused,
    /// Nothing happens but the turn is spent.
    Wasted,
}

/// The step rules in one place. An unconfused bump into a wall is refused
/// for free. A confused creature's step always costs the turn, a lurch into
/// a wall included, or confusion would be free in a corridor (re-press until
/// the roll goes your way) and would never tick down; and since its dice were
/// rolled, a free bump would reroll them.
pub fn resolve_step(target: StepTarget, confused: bool) -> StepResult {
    match (target, confused) {
        (StepTarget::Open, _) => StepResult::Move,
        (StepTarget::Occupied, _) => StepResult::Attack,
        (StepTarget::Blocked, false) => StepResult::Refused,
        (StepTarget::Blocked, true) => StepResult::Wasted,
    }
}

/// Rounds of poison after a new dose: the longer of what is left and what
/// the new dose brings (doses do not stack into an endless poisoning).
pub fn poison_rounds_after_dose(remaining: u32, dose: u32) -> u32 {
    remaining.max(dose)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_natural_one_always_misses_and_a_natural_twenty_always_hits() {
        assert!(!hit_connects(1, 100, 0));
        assert!(hit_connects(20, -100, 1000));
    }

    #[test]
    fn otherwise_roll_plus_attack_must_reach_defence() {
        for roll in 2..=19 {
            for attack in -5..=5 {
                for defence in 0..=30 {
                    assert_eq!(
                        hit_connects(roll, attack, defence),
                        roll + attack >= defence
                    );
                }
            }
        }
        assert!(hit_connects(7, 3, 10));
        assert!(!hit_connects(6, 3, 10));
    }

    #[test]
    fn damage_is_never_negative() {
        assert_eq!(damage_dealt(-3), 0);
        assert_eq!(damage_dealt(0), 0);
        assert_eq!(damage_dealt(5), 5);
    }

    #[test]
    fn healing_tops_up_but_never_overheals() {
        assert_eq!(healed(10, 30, 5), 15);
        assert_eq!(healed(28, 30, 5), 30);
        assert_eq!(healed(30, 30, 5), 30);
        assert_eq!(healed(29, 30, 1), 30);
        assert_eq!(healed(10, 30, -4), 10);
        assert_eq!(healed(35, 30, 5), 35);
        assert_eq!(healed(-2, 30, 5), 3);
    }

    #[test]
    fn cost_scales_with_speed_and_never_stalls_the_clock() {
        assert_eq!(scaled_cost(100, 100), 100);
        assert_eq!(scaled_cost(100, 200), 50);
        assert_eq!(scaled_cost(100, 50), 200);
        assert_eq!(scaled_cost(100, 300), 33);
        assert_eq!(scaled_cost(1, 400), 1);
    }

    #[test]
    fn a_confused_step_is_hijacked_below_the_stumble_chance() {
        for direction_roll in 0..8 {
            assert_eq!(
                confused_direction(Dir::N, STUMBLE_CHANCE - 1, direction_roll),
                Dir::ALL[direction_roll as usize]
            );
            assert_eq!(
                confused_direction(Dir::N, STUMBLE_CHANCE, direction_roll),
                Dir::N
            );
            assert_eq!(confused_direction(Dir::N, 99, direction_roll), Dir::N);
        }
    }

    #[test]
    fn every_step_case() {
        use StepResult::*;
        use StepTarget::*;
        assert_eq!(resolve_step(Open, false), Move);
        assert_eq!(resolve_step(Open, true), Move);
        assert_eq!(resolve_step(Occupied, false), Attack);
        assert_eq!(resolve_step(Occupied, true), Attack);
        assert_eq!(resolve_step(Blocked, false), Refused);
        assert_eq!(
            resolve_step(Blocked, true),
            Wasted,
            "a confused bump costs the turn"
        );
    }

    #[test]
    fn poison_doses_take_the_longer() {
        assert_eq!(poison_rounds_after_dose(0, 3), 3);
        assert_eq!(poison_rounds_after_dose(5, 3), 5);
        assert_eq!(poison_rounds_after_dose(2, 6), 6);
    }
}
