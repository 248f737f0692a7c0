//! Easter Egg Hunt on the Hill: every entry on one walled board, all moving at once,
//! fighting with rock-paper-scissors over squares and collecting eggs.
//!
//! The rules are stated in `games/eggs.md` in this repository: "The board", "A turn" (the
//! protocol), "What happens" (resolving a turn) and "Leaderboard". `board` builds boards
//! (seeded generator, map files), `protocol` turns bytes into moves and views into bytes,
//! `rules` plays a turn, and `game` runs the [`crate::engine::Game`] state machine.

mod board;
mod game;
mod options;
mod probes;
mod protocol;
mod rules;
#[cfg(test)]
mod tests;

pub use game::Eggs;
pub use options::EggsOptions;

use crate::declaration::{Pairing, RegisteredGame, Scoring, Templates, templates};
use crate::engine::{Answer, SetupError};
use crate::probe::Plan;

/// Easter Egg Hunt, as the registry knows it.
impl RegisteredGame for Eggs {
    type Options = EggsOptions;
    const NAME: &'static str = "eggs";
    const SCORING: Scoring = Scoring::Mean;
    const DEFAULT_GAMES: u32 = 10;
    const PAIRINGS: &'static [Pairing] = &[Pairing::FreeForAll];
    const TEMPLATES: Templates = templates!("eggs");

    fn probes(_options: &EggsOptions, answers: &[Answer]) -> Plan {
        probes::probes(answers)
    }

    fn start(options: &EggsOptions, seed: u64, seats: usize) -> Result<Eggs, SetupError> {
        Eggs::new(options, seed, seats)
    }
}
