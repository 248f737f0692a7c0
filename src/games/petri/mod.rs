//! Battle for the Petri Dish: two species of cells fight for a small grid.
//!
//! The specification is `games/petri.md` in the shared design documents (rules §2 to §8,
//! protocol §9 and §10, the original driver §12, resolved ambiguities §13); the user guide
//! is `games/petri.md` in this repository. The engine is split the way every game here is:
//! `protocol` turns bytes into raw actions and state into bytes, `rules` decides what is
//! legal and what it does, and `game` runs the [`crate::engine::Game`] state machine.

mod game;
mod options;
pub(crate) mod probes;
mod protocol;
mod rules;
#[cfg(test)]
mod tests;

pub use game::Petri;
pub use options::{PetriOptions, RuleSet};
