//! The tournament options of a Petri game: arena size, turn limit and rule set.
//!
//! The values are deserialized from the tournament file as they are and checked by
//! [`PetriOptions::validate`], which reports every problem at once; an engine is only ever
//! built from options that passed it.

use serde::Deserialize;

use crate::declaration::{Bounds, Pairing, Settings};

/// The smallest width or height: both start squares, (1, 1) and (W-2, H-2), must be at least
/// one square in from the edges they face.
const MIN_SIDE: u16 = 3;
/// The largest width or height. A request carries the whole board, so a bigger arena would
/// mean megabytes per cell per call; no posted bot was written for anything near this.
const MAX_SIDE: u16 = 1000;

/// How a Petri game is played.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PetriOptions {
    /// Arena width in squares (default 10, the original driver's).
    pub width: u16,
    /// Arena height in squares (default 4, the original driver's).
    pub height: u16,
    /// Player turns per side; the game ends after the second player's last turn
    /// (default 150, as in the challenge).
    pub turns: u32,
    /// The challenge text's rules or the original driver's (default: the text's).
    pub rules: RuleSet,
}

impl Default for PetriOptions {
    fn default() -> PetriOptions {
        PetriOptions {
            width: 10,
            height: 4,
            turns: 150,
            rules: RuleSet::Text,
        }
    }
}

/// Which of the two rule sets to play (games/petri.md, "Rule sets"): they differ only in the
/// cost of a move and in the explosion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
pub enum RuleSet {
    /// The challenge text: a move costs 1 energy, an explosion deals HP + acidity to all
    /// eight neighbours. Bots were written against the text, so this is the default.
    #[default]
    #[serde(rename = "text")]
    Text,
    /// The original `petri.js` driver, quirks included: moves are free, and an explosion
    /// deals HP only, to the NW, W, SW and N neighbours only.
    #[serde(rename = "petri.js")]
    PetriJs,
}

/// A game is won (1) or not (0), whatever the options.
pub(crate) const BOUNDS: Bounds = Bounds::up_to(1);

impl Settings for PetriOptions {
    fn pairing(&self) -> Pairing {
        Pairing::HeadToHead
    }

    fn bounds(&self, _seats: usize) -> Bounds {
        BOUNDS
    }

    /// Every problem with these options, as messages naming the option; empty if they can
    /// be played.
    fn validate(&self) -> Vec<String> {
        let mut problems = Vec::new();
        for (name, value) in [("width", self.width), ("height", self.height)] {
            if !(MIN_SIDE..=MAX_SIDE).contains(&value) {
                problems.push(format!(
                    "`{name}` must be between {MIN_SIDE} and {MAX_SIDE} (got {value})"
                ));
            }
        }
        if self.width == MIN_SIDE && self.height == MIN_SIDE {
            problems.push(
                "a 3x3 arena puts both start squares on (1, 1); make `width` or `height` at \
                 least 4"
                    .to_owned(),
            );
        }
        if self.turns == 0 {
            problems.push("`turns` must be at least 1".to_owned());
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(width: u16, height: u16, turns: u32) -> PetriOptions {
        PetriOptions {
            width,
            height,
            turns,
            rules: RuleSet::Text,
        }
    }

    #[test]
    fn defaults_are_the_original_arena() {
        let options = PetriOptions::default();
        assert_eq!(options, self::options(10, 4, 150));
        assert!(options.validate().is_empty());
    }

    #[test]
    fn options_deserialize_with_defaults_and_reject_unknown_fields() {
        let parsed: PetriOptions = toml::from_str("rules = \"petri.js\"\nturns = 40").unwrap();
        assert_eq!(
            parsed,
            PetriOptions {
                turns: 40,
                rules: RuleSet::PetriJs,
                ..PetriOptions::default()
            }
        );
        let parsed: PetriOptions = toml::from_str("rules = \"text\"").unwrap();
        assert_eq!(parsed.rules, RuleSet::Text);
        assert!(toml::from_str::<PetriOptions>("rules = \"js\"").is_err());
        assert!(toml::from_str::<PetriOptions>("widht = 12").is_err());
    }

    #[test]
    fn validation_reports_every_problem() {
        assert_eq!(
            options(2, 1001, 0).validate(),
            [
                "`width` must be between 3 and 1000 (got 2)",
                "`height` must be between 3 and 1000 (got 1001)",
                "`turns` must be at least 1",
            ]
        );
        assert_eq!(options(3, 3, 1).validate().len(), 1);
        for fine in [
            options(3, 4, 1),
            options(4, 3, 1),
            options(1000, 1000, u32::MAX),
        ] {
            assert!(fine.validate().is_empty(), "{fine:?}");
        }
    }
}
