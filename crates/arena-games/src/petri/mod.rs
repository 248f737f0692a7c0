//! Battle for the Petri Dish: two species of cells fight for a small grid.
//!
//! The rules are stated in `games/petri.md` in this repository: "Rules" and "Rule sets" for
//! the game, "Protocol" for the bytes, "Outcome and scoring" for a tournament. The engine is
//! split the way every game here is: `protocol` turns bytes into raw actions and state into
//! bytes, `rules` decides what is legal and what it does, and `game` runs the
//! [`crate::engine::Game`] state machine.

mod game;
mod options;
mod probes;
mod protocol;
mod rules;
#[cfg(test)]
mod tests;

pub use game::Petri;
pub use options::{PetriOptions, RuleSet};

use crate::declaration::{Bounds, Pairing, RegisteredGame, Scoring, Templates, templates};
use crate::engine::{Answer, SetupError};
use crate::probe::Plan;

/// Battle for the Petri Dish, as the registry knows it.
impl RegisteredGame for Petri {
    type Options = PetriOptions;
    const NAME: &'static str = "petri";
    const SCORING: Scoring = Scoring::Wins;
    const DEFAULT_GAMES: u32 = 100;
    const PAIRINGS: &'static [Pairing] = &[Pairing::HeadToHead];
    const PERSISTENT_PROCESSES: bool = true;
    const TEMPLATES: Templates = templates!("petri");
    const WIDEST_BOUNDS: Bounds = options::BOUNDS;

    fn probes(options: &PetriOptions, answers: &[Answer]) -> Plan {
        probes::probes(options, answers)
    }

    fn start(options: &PetriOptions, _seed: u64, seats: usize) -> Result<Petri, SetupError> {
        SetupError::exact_seats(seats, 2)?;
        Petri::new(options)
    }
}
