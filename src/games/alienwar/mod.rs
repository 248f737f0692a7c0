//! AlienWar: every species on one toroidal planet, 100 instances each, plus five built-in
//! prey; for 1000 rounds each instance steps, newcomers meet a cell's first arrival and may
//! fight, and kills grow the winner's abilities.
//!
//! The specification is `games/alienwar.md` in the shared design documents (formulas §2,
//! setup §3, the round §4, the original API §5, scoring §6, the protocol's needs §8); the
//! user guide with this project's protocol is `games/alienwar.md` in this repository.
//! `rules` holds the formulas, `prey` the built-in species, `planet` the world and the
//! round's steps, `protocol` the bytes, and `game` the [`crate::engine::Game`] state
//! machine. `host` names the Java host that runs the original Java aliens.

mod game;
mod host;
mod options;
mod planet;
mod prey;
pub(crate) mod probes;
mod protocol;
mod rules;
#[cfg(test)]
mod tests;

pub use game::AlienWar;
pub use host::JAVA_HOST;
pub use options::AlienWarOptions;

/// The built-in prey's names on the leaderboard, which no bot may take.
pub fn house_names() -> Vec<&'static str> {
    prey::Prey::ALL.map(prey::Prey::name).to_vec()
}
