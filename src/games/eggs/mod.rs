//! Easter Egg Hunt on the Hill: every entry on one walled board, all moving at once,
//! fighting with rock-paper-scissors over squares and collecting eggs.
//!
//! The specification is `games/eggs.md` in the shared design documents (board §3, protocol
//! §4, turn resolution §5, resolved ambiguities §10); the user guide is `games/eggs.md` in
//! this repository. `board` builds boards (seeded generator, map files), `protocol` turns
//! bytes into moves and views into bytes, `rules` plays a turn, and `game` runs the
//! [`crate::engine::Game`] state machine.

mod board;
mod game;
mod options;
pub(crate) mod probes;
mod protocol;
mod rules;
#[cfg(test)]
mod tests;

pub use game::Eggs;
pub use options::EggsOptions;
