//! The state invariants: what the state after a key must be on its own.

use game_core::game::Game;
use game_core::game::validity::Rule;

use crate::catalogue::{Id, Violation, violation};

/// The state invariants: game-core's validity check, which a load of a save
/// also runs, with each broken rule named by its catalogue id.
pub fn check_state(game: &Game) -> Vec<Violation> {
    game_core::game::validity::check_state(game)
        .into_iter()
        .map(|invalid| violation(invalid.rule.into(), invalid.message))
        .collect()
}

/// Each rule of a valid state is the catalogue's invariant of the same id.
impl From<Rule> for Id {
    fn from(rule: Rule) -> Id {
        match rule {
            Rule::EntityInBounds => Id::EntityInBounds,
            Rule::EntityInWall => Id::EntityInWall,
            Rule::EntityOverlap => Id::EntityOverlap,
            Rule::HpRange => Id::HpRange,
            Rule::InventoryCapacity => Id::InventoryCapacity,
            Rule::ClockQueue => Id::ClockQueue,
            Rule::FovRevealedCoversVisible => Id::FovRevealedCoversVisible,
            Rule::FovAroundPlayer => Id::FovAroundPlayer,
            Rule::MonsterNotice => Id::MonsterNotice,
            Rule::FovSymmetric => Id::FovSymmetric,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_of_a_valid_state_is_the_invariant_of_its_id() {
        for rule in Rule::ALL {
            assert_eq!(Id::from(rule).name(), rule.id());
        }
    }
}
