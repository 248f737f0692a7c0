//! The five built-in prey species (games/alienwar.md, "The prey"): each puts all ten points
//! into one ability, never wants to fight, and moves by a fixed rule. They are part of the
//! engine, not bot processes, and are scored like aliens.

use rand_chacha::ChaCha12Rng;

use super::rules::{BLANK, CLEVERNESS, DEFENSE, LIFE, Move, STRENGTH, VISION, View};
use crate::compass::Compass;
use crate::seeded::below;

/// A prey species, in the original roster's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prey {
    /// Life 10 (60 HP); always stays.
    Whale,
    /// Strength 10; moves uniformly at random over the nine moves.
    Cow,
    /// Defense 10; always south-west.
    Turtle,
    /// Vision 10 (radius 6); moves along the emptiest ray.
    Eagle,
    /// Cleverness 10 (blur 7); always north-east.
    Human,
}

impl Prey {
    /// Every prey species, in roster order (after the aliens).
    pub const ALL: [Prey; 5] = [
        Prey::Whale,
        Prey::Cow,
        Prey::Turtle,
        Prey::Eagle,
        Prey::Human,
    ];

    /// The name on the leaderboard, as the original printed its class.
    pub fn name(self) -> &'static str {
        match self {
            Prey::Whale => "prey.Whale",
            Prey::Cow => "prey.Cow",
            Prey::Turtle => "prey.Turtle",
            Prey::Eagle => "prey.Eagle",
            Prey::Human => "prey.Human",
        }
    }

    /// The character others see on its cell.
    pub fn symbol(self) -> u8 {
        match self {
            Prey::Whale => b'W',
            Prey::Cow => b'C',
            Prey::Turtle => b'T',
            Prey::Eagle => b'E',
            Prey::Human => b'H',
        }
    }

    /// Its colour in replays.
    pub fn colour(self) -> &'static str {
        match self {
            Prey::Whale => "#7a6aa8",
            Prey::Cow => "#c9a26b",
            Prey::Turtle => "#7d8a3a",
            Prey::Eagle => "#b8b8b8",
            Prey::Human => "#e07a9b",
        }
    }

    /// Its ability points: all ten in one ability.
    pub fn points(self) -> [f32; 5] {
        let ability = match self {
            Prey::Whale => LIFE,
            Prey::Cow => STRENGTH,
            Prey::Turtle => DEFENSE,
            Prey::Eagle => VISION,
            Prey::Human => CLEVERNESS,
        };
        let mut points = [0.0; 5];
        points[ability] = 10.0;
        points
    }

    /// Its move this round; only the Cow draws from `rng`.
    pub fn choose_move(self, view: &View, rng: &mut ChaCha12Rng) -> Move {
        match self {
            Prey::Whale => Move::Stay,
            Prey::Cow => Move::ALL[below(rng, Move::ALL.len())],
            Prey::Turtle => Move::Step(Compass::SW),
            Prey::Eagle => emptiest_ray(view),
            Prey::Human => Move::Step(Compass::NE),
        }
    }
}

/// The Eagle's rule: for each move in enum order, count the occupied cells at `i` steps
/// along it for `i = 1..=r` (STAY counts the centre, itself included, r times); the
/// smallest count wins, the first move on ties.
fn emptiest_ray(view: &View) -> Move {
    let r = view.radius as isize;
    let occupied = |m: Move| {
        let (dx, dy) = m.offset();
        (1..=r)
            .filter(|&i| view.at(i * dx, i * dy).is_some_and(|c| c != BLANK))
            .count()
    };
    let mut best = (Move::Step(Compass::N), occupied(Move::Step(Compass::N)));
    for m in &Move::ALL[1..] {
        let count = occupied(*m);
        if count < best.1 {
            best = (*m, count);
        }
    }
    best.0
}
