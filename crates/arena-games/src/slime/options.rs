//! The tournament options of a Slime game: board size, turn cap, reply parsing and seat
//! rotation.
//!
//! The values are deserialized from the tournament file as they are and checked by
//! [`SlimeOptions::validate`], which reports every problem at once; an engine is only ever
//! built from options that passed it.

use serde::Deserialize;

use crate::declaration::{Bounds, Pairing, Settings};

/// The smallest board: 2×2 already holds the four corners (it starts full).
const MIN_SIZE: u16 = 2;
/// The largest board. The whole board travels as one command-line argument of N·(N+1)+1
/// bytes, and Linux refuses a single argument over 128 KiB (`MAX_ARG_STRLEN`); 256 keeps
/// it at 66 KB.
const MAX_SIZE: u16 = 256;

/// How a Slime game is played.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SlimeOptions {
    /// Side of the square board (default 8, the original controller's).
    pub size: u16,
    /// Turns in total, over all four seats, after which the game ends even if the board is
    /// not full (default 2000, the original's `4*500`).
    pub max_turns: u32,
    /// How a reply's first line is read (default: exactly like the original controller).
    pub parsing: Parsing,
    /// Whether each combination of four bots is also played in its other three seat
    /// rotations (default false: seats in list order, as the original did).
    pub rotate_seats: bool,
}

impl Default for SlimeOptions {
    fn default() -> SlimeOptions {
        SlimeOptions {
            size: 8,
            max_turns: 2000,
            parsing: Parsing::Strict,
            rotate_seats: false,
        }
    }
}

/// Whether the fourth integer of a reply must be followed by another character
/// (games/slime.md, "Protocol").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Parsing {
    /// The original controller: its stream read rejects a fourth integer that ends the
    /// line without a newline (or any other character) after it. Bots that print no
    /// newline always pass. This reproduces the posted results, so it is the default.
    #[default]
    Strict,
    /// The same reading, but a fourth integer may end the reply.
    Lenient,
}

/// The most cells a seat can own on the largest board.
pub(crate) const WIDEST_BOUNDS: Bounds = Bounds::up_to(MAX_SIZE as i64 * MAX_SIZE as i64);

impl Settings for SlimeOptions {
    fn pairing(&self) -> Pairing {
        Pairing::Combinations {
            size: 4,
            rotate: self.rotate_seats,
        }
    }

    /// A score is the cells a seat owns: at most the whole board.
    fn bounds(&self, _seats: usize) -> Bounds {
        Bounds::up_to(i64::from(self.size) * i64::from(self.size))
    }

    /// Every problem with these options, as messages naming the option; empty if they can
    /// be played.
    fn validate(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if !(MIN_SIZE..=MAX_SIZE).contains(&self.size) {
            problems.push(format!(
                "`size` must be between {MIN_SIZE} and {MAX_SIZE} (got {})",
                self.size
            ));
        }
        if self.max_turns == 0 {
            problems.push("`max_turns` must be at least 1".to_owned());
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_original_controller() {
        let options = SlimeOptions::default();
        assert_eq!((options.size, options.max_turns), (8, 2000));
        assert_eq!(options.parsing, Parsing::Strict);
        assert!(!options.rotate_seats);
        assert!(options.validate().is_empty());
    }

    #[test]
    fn options_deserialize_with_defaults_and_reject_unknown_fields() {
        let parsed: SlimeOptions =
            toml::from_str("parsing = \"lenient\"\nsize = 5\nrotate_seats = true").unwrap();
        assert_eq!(
            parsed,
            SlimeOptions {
                size: 5,
                parsing: Parsing::Lenient,
                rotate_seats: true,
                ..SlimeOptions::default()
            }
        );
        assert!(toml::from_str::<SlimeOptions>("parsing = \"loose\"").is_err());
        assert!(toml::from_str::<SlimeOptions>("max_turn = 3").is_err());
    }

    #[test]
    fn validation_reports_every_problem() {
        let options = |size, max_turns| SlimeOptions {
            size,
            max_turns,
            ..SlimeOptions::default()
        };
        assert_eq!(
            options(1, 0).validate(),
            [
                "`size` must be between 2 and 256 (got 1)",
                "`max_turns` must be at least 1",
            ]
        );
        assert_eq!(options(257, 1).validate().len(), 1);
        for fine in [options(2, 1), options(256, u32::MAX)] {
            assert!(fine.validate().is_empty(), "{fine:?}");
        }
    }
}
