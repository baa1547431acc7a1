//! Looking into a state: the view of a game's state by field name
//! (`state_view`) that `show`, `diff` and `when` print and compare, and the
//! conditions `when` searches a run for. Uses only game-core.

pub mod condition;
pub mod state_view;
