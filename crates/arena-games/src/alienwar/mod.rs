//! AlienWar: every species on one toroidal planet, 100 instances each, plus five built-in
//! prey; for 1000 rounds each instance steps, newcomers meet a cell's first arrival and may
//! fight, and kills grow the winner's abilities.
//!
//! The rules are stated in `games/alienwar.md` in this repository: "The planet", "Abilities",
//! "The prey", "A round" (with the original controller's quirks), this project's "Protocol",
//! "Java aliens" and "Leaderboard". `rules` holds the formulas, `prey` the built-in species,
//! `planet` the world and the round's steps, `protocol` the bytes, and `game` the
//! [`crate::engine::Game`] state machine. `host` names the Java host that runs the original
//! Java aliens.

mod game;
mod host;
mod options;
mod planet;
mod prey;
mod probes;
mod protocol;
mod rules;
#[cfg(test)]
mod tests;

pub use game::AlienWar;
pub use host::JAVA_HOST;
pub use options::AlienWarOptions;

use crate::declaration::{
    Bounds, JavaHost, Pairing, RegisteredGame, Scoring, Templates, templates,
};
use crate::engine::{Answer, SetupError};
use crate::probe::Plan;

/// AlienWar, as the registry knows it.
impl RegisteredGame for AlienWar {
    type Options = AlienWarOptions;
    const NAME: &'static str = "alienwar";
    const SCORING: Scoring = Scoring::Mean;
    const DEFAULT_GAMES: u32 = 10;
    const PAIRINGS: &'static [Pairing] = &[Pairing::FreeForAll];
    const JAVA_HOST: Option<&'static JavaHost> = Some(&JAVA_HOST);
    const PERSISTENT_PROCESSES: bool = true;
    const TEMPLATES: Templates = templates!("alienwar");
    const WIDEST_BOUNDS: Bounds = options::WIDEST_BOUNDS;

    fn built_in_names() -> Vec<&'static str> {
        prey::Prey::ALL.map(prey::Prey::name).to_vec()
    }

    fn probes(options: &AlienWarOptions, answers: &[Answer]) -> Plan {
        probes::probes(options, answers)
    }

    fn start(options: &AlienWarOptions, seed: u64, seats: usize) -> Result<AlienWar, SetupError> {
        AlienWar::new(options, seed, seats)
    }
}
