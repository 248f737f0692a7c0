//! The tournament options of Cave Rangers: the densities of the cave's contents, the turn
//! cap, the revealer's noise, what a bat-confused turn does and whether bots act on the
//! current state or on one snapshot (games/cave.md, its `[options]` example and "Options
//! beyond the canonical rules").
//!
//! Every default is the canonical rule of games/cave.md. [`CaveOptions::validate`] reports
//! every problem at once; an engine is only built from options that passed it.

use serde::Deserialize;

use crate::declaration::{Bounds, Pairing, Settings};

/// Densities are in basis points: 1/10000 of the cave's cells.
pub const BASIS: u64 = 10_000;
/// The most of the cave the placed things may cover together, so that Nina and every bot
/// always find an empty cell (rejection sampling then ends quickly too).
const MAX_TOTAL_BP: u64 = 9_000;

/// How a Cave Rangers game is played.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CaveOptions {
    /// Turns after which the game ends even with several bots alive (default 50).
    pub max_turns: u32,
    /// How much of each thing the generator places (games/cave.md, "The cave").
    pub density: Density,
    /// Percent chance that a cell of the revealer's outer ring shows a wrong symbol
    /// (default 25: "75 % correct"; games/cave.md, "Input").
    pub revealer_noise_percent: u32,
    /// What a bot sharing its cell with bats does instead of its own actions (games/cave.md,
    /// "A turn", step 3).
    pub confusion: Confusion,
    /// Whether each bot sees the state left by the bots before it (games/cave.md, "A turn",
    /// step 3).
    pub order: Order,
}

impl Default for CaveOptions {
    fn default() -> CaveOptions {
        CaveOptions {
            max_turns: 50,
            density: Density::default(),
            revealer_noise_percent: 25,
            confusion: Confusion::TwoMoves,
            order: Order::Sequential,
        }
    }
}

/// Densities in basis points (1/10000 of the cells) of everything the generator places;
/// `count = (side*side*bp + 5000) / 10000` (games/cave.md, "The cave"). Nurse Nina is always
/// exactly one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Density {
    /// Boulders `}` (default 500).
    pub boulder: u64,
    /// Pits `P` (default 100).
    pub pit: u64,
    /// Gold `G` (default 150).
    pub gold: u64,
    /// Food `F` (default 50).
    pub food: u64,
    /// Water `W` (default 50).
    pub water: u64,
    /// Knives `K` (default 20).
    pub knife: u64,
    /// Revealers `R` (default 20).
    pub revealer: u64,
    /// Centipedes `C` (default 20).
    pub centipede: u64,
    /// Bats `B` (default 20).
    pub bats: u64,
    /// Lions `L` (default 10).
    pub lion: u64,
}

impl Default for Density {
    fn default() -> Density {
        Density {
            boulder: 500,
            pit: 100,
            gold: 150,
            food: 50,
            water: 50,
            knife: 20,
            revealer: 20,
            centipede: 20,
            bats: 20,
            lion: 10,
        }
    }
}

impl Density {
    /// The densities in the generator's placement order `} P G F W K R C B L`.
    pub fn in_placement_order(&self) -> [u64; 10] {
        [
            self.boulder,
            self.pit,
            self.gold,
            self.food,
            self.water,
            self.knife,
            self.revealer,
            self.centipede,
            self.bats,
            self.lion,
        ]
    }

    /// How many of a thing of density `bp` a cave of `side` holds, rounded half up.
    pub fn count(side: usize, bp: u64) -> usize {
        let cells = (side * side) as u64;
        usize::try_from((cells * bp + BASIS / 2) / BASIS).expect("a count fits the cave")
    }
}

/// What a confused bot (bats on its cell) does in its turn (games/cave.md, "A turn", step 3,
/// and "Options beyond the canonical rules"). It is still run; its output is discarded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Confusion {
    /// Two moves in one random direction (the canonical rule).
    #[default]
    TwoMoves,
    /// One move in a random direction, then a hold.
    OneMove,
    /// Two moves, each in its own random direction.
    TwoDirections,
}

/// How bots see each other's actions within a turn (games/cave.md, "A turn", step 3, and
/// "Options beyond the canonical rules").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Each bot is asked just before it acts and sees what the bots before it did (the
    /// canonical rule).
    #[default]
    Sequential,
    /// Every living bot is asked on the state after the creatures' phase, all at once; the
    /// answers are then applied in the turn's random order.
    Snapshot,
}

/// A score is gold plus turns survived, each counted in a `u32`.
pub(crate) const WIDEST_BOUNDS: Bounds = Bounds::up_to(2 * u32::MAX as i64);

impl Settings for CaveOptions {
    fn pairing(&self) -> Pairing {
        Pairing::FreeForAll
    }

    /// A score is the gold a seat picked up, at most all the cave's (gold is never placed
    /// again), plus the turns it survived, at most `max_turns`.
    fn bounds(&self, seats: usize) -> Bounds {
        let gold = Density::count(super::generate::side(seats), self.density.gold);
        let gold = i64::try_from(gold).unwrap_or(i64::MAX);
        Bounds::up_to(gold.saturating_add(i64::from(self.max_turns)))
    }

    /// Every problem with these options, as messages naming the option; empty if they can
    /// be played.
    fn validate(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if self.max_turns == 0 {
            problems.push("`max_turns` must be at least 1".to_owned());
        }
        if self.revealer_noise_percent > 100 {
            problems.push(format!(
                "`revealer_noise_percent` must be at most 100 (got {})",
                self.revealer_noise_percent
            ));
        }
        let total: u64 = self
            .density
            .in_placement_order()
            .iter()
            .fold(0, |sum, &bp| sum.saturating_add(bp));
        if total > MAX_TOTAL_BP {
            problems.push(format!(
                "the densities add up to {total} basis points; at most {MAX_TOTAL_BP} leave \
                 room for Nina and the bots"
            ));
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_is_at_most_the_caves_gold_and_every_turn() {
        // Two bots: a side of 50, 2500 cells, 1.5 % of them gold.
        let options = CaveOptions::default();
        assert_eq!(options.bounds(2), Bounds::up_to(38 + 50));
        assert!(options.bounds(1000).max_score <= WIDEST_BOUNDS.max_score);
    }

    #[test]
    fn defaults_are_the_canonical_rules() {
        let options = CaveOptions::default();
        assert_eq!(options.max_turns, 50);
        assert_eq!(options.revealer_noise_percent, 25);
        assert_eq!(options.confusion, Confusion::TwoMoves);
        assert_eq!(options.order, Order::Sequential);
        assert!(options.validate().is_empty());
    }

    #[test]
    fn counts_round_half_up_like_the_spec_table() {
        let counts = |side| {
            Density::default()
                .in_placement_order()
                .map(|bp| Density::count(side, bp))
        };
        assert_eq!(counts(50), [125, 25, 38, 13, 13, 5, 5, 5, 5, 3]);
        assert_eq!(counts(90), [405, 81, 122, 41, 41, 16, 16, 16, 16, 8]);
    }

    #[test]
    fn options_deserialize_with_defaults_and_reject_unknown_fields() {
        let parsed: CaveOptions = toml::from_str(
            "max_turns = 5\nconfusion = \"one-move\"\norder = \"snapshot\"\n\
             [density]\ngold = 300\nlion = 0",
        )
        .unwrap();
        assert_eq!(parsed.max_turns, 5);
        assert_eq!(parsed.confusion, Confusion::OneMove);
        assert_eq!(parsed.order, Order::Snapshot);
        assert_eq!((parsed.density.gold, parsed.density.lion), (300, 0));
        assert_eq!(parsed.density.boulder, 500);
        assert!(toml::from_str::<CaveOptions>("confusion = \"dizzy\"").is_err());
        assert!(toml::from_str::<CaveOptions>("[density]\ndragon = 1").is_err());
        assert!(toml::from_str::<CaveOptions>("turns = 5").is_err());
    }

    #[test]
    fn validation_reports_every_problem() {
        let options = CaveOptions {
            max_turns: 0,
            revealer_noise_percent: 101,
            density: Density {
                boulder: 9_000,
                ..Density::default()
            },
            ..CaveOptions::default()
        };
        assert_eq!(
            options.validate(),
            [
                "`max_turns` must be at least 1",
                "`revealer_noise_percent` must be at most 100 (got 101)",
                "the densities add up to 9440 basis points; at most 9000 leave room for Nina \
                 and the bots",
            ]
        );
    }
}
