//! Slime: The Territory War: four slimes spread, jump and merge over a square board.
//!
//! The specification is `games/slime.md` in the shared design documents (board §2, turns §4,
//! protocol §5, moves §6, the original controller §9, resolved ambiguities §10); the user
//! guide is `games/slime.md` in this repository. The split follows Petri: `protocol` turns
//! the board into the command-line argument and the reply bytes into a raw move, `rules`
//! decides what is legal and what it does, and `game` runs the [`crate::engine::Game`]
//! state machine.

mod game;
mod options;
pub(crate) mod probes;
mod protocol;
mod rules;
#[cfg(test)]
mod tests;

pub use game::Slime;
pub use options::{Parsing, SlimeOptions};
