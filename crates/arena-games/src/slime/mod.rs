//! Slime: The Territory War: four slimes spread, jump and merge over a square board.
//!
//! The rules are stated in `games/slime.md` in this repository: "Rules" (board, turns and
//! moves), "Protocol" and "Tournament". The split follows Petri: `protocol` turns the board
//! into the command-line argument and the reply bytes into a raw move, `rules` decides what
//! is legal and what it does, and `game` runs the [`crate::engine::Game`] state machine.

mod game;
mod options;
mod probes;
mod protocol;
mod rules;
#[cfg(test)]
mod tests;

pub use game::Slime;
pub use options::{Parsing, SlimeOptions};

use crate::declaration::{Bounds, Pairing, RegisteredGame, Scoring, Templates, templates};
use crate::engine::{Answer, SetupError};
use crate::probe::Plan;

/// Slime, as the registry knows it.
impl RegisteredGame for Slime {
    type Options = SlimeOptions;
    const NAME: &'static str = "slime";
    const SCORING: Scoring = Scoring::Mean;
    // The original played each combination once: its engine has no randomness.
    const DEFAULT_GAMES: u32 = 1;
    const PAIRINGS: &'static [Pairing] = &[
        Pairing::Combinations {
            size: 4,
            rotate: true,
        },
        Pairing::Combinations {
            size: 4,
            rotate: false,
        },
    ];
    const TEMPLATES: Templates = templates!("slime");
    const WIDEST_BOUNDS: Bounds = options::WIDEST_BOUNDS;

    fn probes(options: &SlimeOptions, answers: &[Answer]) -> Plan {
        probes::probes(options, answers)
    }

    fn start(options: &SlimeOptions, _seed: u64, seats: usize) -> Result<Slime, SetupError> {
        SetupError::exact_seats(seats, 4)?;
        Slime::new(options)
    }
}
