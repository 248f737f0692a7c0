//! Cave Rangers: every entry in one cave with creatures, items, pits and Nurse Nina,
//! collecting gold for 50 turns with a fresh process per bot per turn.
//!
//! The specification is `games/cave.md` in the shared design documents (rules §2–§12, the
//! rulings R1–R28 in §13); the user guide is `games/cave.md` in this repository. `world`
//! holds the cave's contents, `generate` builds a cave from the seed, `rules` plays the steps
//! of a turn, `view` and `protocol` make the bytes a bot reads and parse its reply, and
//! `game` runs the [`crate::engine::Game`] state machine.

mod game;
mod generate;
mod options;
pub(crate) mod probes;
mod protocol;
mod rules;
#[cfg(test)]
mod tests;
mod view;
mod world;

pub use game::Cave;
pub use options::{CaveOptions, Confusion, Density, Order};
