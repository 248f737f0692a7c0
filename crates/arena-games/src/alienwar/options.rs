//! The tournament options of AlienWar: the length of a game, the size of each species, and
//! the dead-resident quirk.

use serde::Deserialize;

use crate::declaration::{Bounds, Pairing, Settings};

/// The most instances per species: a request holds one line per instance.
const MAX_INSTANCES: u32 = 10_000;

/// How an AlienWar game is played.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AlienWarOptions {
    /// Rounds per game (default 1000, the original's `ROUND_COUNT`).
    pub rounds: u32,
    /// Instances of each species, prey included (default 100, the original's
    /// `SPECIE_COUNT`); the board is sized for them.
    pub instances: u32,
    /// Whether a resident that died this round still meets later arrivals and rewards a
    /// winner again (default true: the original controller's behaviour; games/alienwar.md,
    /// "Quirks of the original controller, reproduced"). Off, the next arrival takes over the
    /// cell instead.
    pub dead_resident_reward: bool,
}

impl Default for AlienWarOptions {
    fn default() -> AlienWarOptions {
        AlienWarOptions {
            rounds: 1000,
            instances: 100,
            dead_resident_reward: true,
        }
    }
}

/// [`AlienWarOptions::bounds`] of the most instances.
pub(crate) const WIDEST_BOUNDS: Bounds = bounds_of(MAX_INSTANCES);

/// What a game of species of `instances` instances can give a seat: a species' score is the
/// sum of its living instances' scores, each a rounded `f32` that saturates at `i32::MAX`;
/// one reply answers for up to `instances` instances (a word each), each word invalid at
/// most once, and surplus words count once more (`protocol::parse_words`).
const fn bounds_of(instances: u32) -> Bounds {
    Bounds {
        min_score: 0,
        max_score: instances as i64 * i32::MAX as i64,
        invalid_per_request: instances + 1,
    }
}

impl Settings for AlienWarOptions {
    fn pairing(&self) -> Pairing {
        Pairing::FreeForAll
    }

    fn bounds(&self, _seats: usize) -> Bounds {
        bounds_of(self.instances)
    }

    /// Every problem with these options, as messages naming the option; empty if they can
    /// be played.
    fn validate(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if self.rounds == 0 {
            problems.push("`rounds` must be at least 1".to_owned());
        }
        if !(1..=MAX_INSTANCES).contains(&self.instances) {
            problems.push(format!(
                "`instances` must be between 1 and {MAX_INSTANCES}, not {}",
                self.instances
            ));
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_default_to_the_original_and_reject_unknown_fields() {
        let parsed: AlienWarOptions = toml::from_str("").unwrap();
        assert_eq!(parsed, AlienWarOptions::default());
        assert_eq!((parsed.rounds, parsed.instances), (1000, 100));
        assert!(parsed.dead_resident_reward);
        let parsed: AlienWarOptions =
            toml::from_str("rounds = 5\ndead_resident_reward = false").unwrap();
        assert_eq!((parsed.rounds, parsed.dead_resident_reward), (5, false));
        assert!(toml::from_str::<AlienWarOptions>("round = 5").is_err());
    }

    #[test]
    fn zero_rounds_or_instances_are_refused() {
        let options = AlienWarOptions {
            rounds: 0,
            instances: 0,
            ..AlienWarOptions::default()
        };
        let problems = options.validate();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(AlienWarOptions::default().validate().is_empty());
    }
}
