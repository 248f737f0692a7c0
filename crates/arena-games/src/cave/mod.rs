//! Cave Rangers: every entry in one cave with creatures, items, pits and Nurse Nina,
//! collecting gold for 50 turns with a fresh process per bot per turn.
//!
//! The rules are stated in `games/cave.md` in this repository: "The cave", "A turn" (with
//! "Moves" and "Attacks"), "Protocol" and "Leaderboard". `world` holds the cave's contents,
//! `generate` builds a cave from the seed, `rules` plays the steps of a turn, `view` and
//! `protocol` make the bytes a bot reads and parse its reply, and `game` runs the
//! [`crate::engine::Game`] state machine.

mod game;
mod generate;
mod options;
mod probes;
mod protocol;
mod rules;
#[cfg(test)]
mod tests;
mod view;
mod world;

pub use game::Cave;
pub use options::{CaveOptions, Confusion, Density, Order};

use crate::declaration::{
    Aggregate, Bounds, Pairing, RegisteredGame, Scoring, StatColumn, Templates, templates,
};
use crate::engine::{Answer, SetupError};
use crate::probe::Plan;

/// Cave Rangers, as the registry knows it.
impl RegisteredGame for Cave {
    type Options = CaveOptions;
    const NAME: &'static str = "cave";
    const SCORING: Scoring = Scoring::Mean;
    const DEFAULT_GAMES: u32 = 4;
    const PAIRINGS: &'static [Pairing] = &[Pairing::FreeForAll];
    const STAT_COLUMNS: &'static [StatColumn] = &[
        StatColumn {
            name: "gold",
            stat: "gold",
            aggregate: Aggregate::Mean,
        },
        StatColumn {
            name: "turns",
            stat: "turns",
            aggregate: Aggregate::Mean,
        },
        StatColumn {
            name: "deaths",
            stat: "died",
            aggregate: Aggregate::Total,
        },
    ];
    // A request's own time limit: 2 s (games/cave.md, "Reply").
    const DEFAULT_TIMEOUT_MS: Option<u64> = Some(2_000);
    // The 1 KB file store kept across turns and games (games/cave.md, "The private folder").
    const PRIVATE_FOLDERS: bool = true;
    const TEMPLATES: Templates = templates!("cave");
    const WIDEST_BOUNDS: Bounds = options::WIDEST_BOUNDS;

    fn probes(_options: &CaveOptions, answers: &[Answer]) -> Plan {
        probes::probes(answers)
    }

    fn start(options: &CaveOptions, seed: u64, seats: usize) -> Result<Cave, SetupError> {
        Cave::new(options, seed, seats)
    }
}
