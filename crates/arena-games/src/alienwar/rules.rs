//! The formulas of AlienWar, as its original controller computes them (games/alienwar.md,
//! "Abilities"): float ability levels rounded half up on use, hit points, dodging, damage,
//! vision, the cleverness blur, rewards and the score. Pure functions and small value types;
//! the round itself is `planet.rs`.

use rand_chacha::ChaCha12Rng;

use crate::compass::Compass;
use crate::decimal::Kept;
use crate::seeded::below;

/// Ability indexes, in the order of every array of the original API.
pub const LIFE: usize = 0;
/// Damage per hit is uniform in `1..=strength`.
pub const STRENGTH: usize = 1;
/// The chance to dodge each incoming hit.
pub const DEFENSE: usize = 2;
/// The radius of the view.
pub const VISION: usize = 3;
/// The blur added to what others see of you.
pub const CLEVERNESS: usize = 4;

/// The points an instance may spend at creation.
pub const POINTS: f32 = 10.0;

/// Java's `Math.round(float)`: half up, toward +infinity (1.5 → 2, -1.5 → -1). Exact for
/// every `f32`, because the `f64` sum `x + 0.5` cannot round. The floor is taken by hand:
/// `f64::floor` is a call into libm on the baseline x86-64 target, and every request line
/// rounds seven levels.
pub fn round_half_up(x: f32) -> i32 {
    let half_up = f64::from(x) + 0.5;
    // Truncates toward zero and saturates (NaN gives 0, as `floor` then `as` does).
    let truncated = half_up as i32;
    if f64::from(truncated) > half_up {
        truncated.saturating_sub(1)
    } else {
        truncated
    }
}

/// Whether an allocation is accepted (games/alienwar.md, "Abilities"): every value in
/// `0..=10` and the running `f32` sum, in index order, at most 10. NaN fails both tests.
pub fn valid_points(points: &[f32; 5]) -> bool {
    let mut sum = 0.0f32;
    for &value in points {
        if !(0.0..=POINTS).contains(&value) {
            return false;
        }
        sum += value;
    }
    sum <= POINTS
}

/// Starting hit points: `10 + 5 * round(life points)`, from the points, not the level
/// (text differs: "lifeLVL*5").
pub fn starting_hp(points: &[f32; 5]) -> i32 {
    10 + 5 * round_half_up(points[LIFE])
}

/// The side of the square board for `species` species of `instances` each:
/// `ceil(sqrt(species * instances * 2.5))` in double precision (48 × 100 → 110).
pub fn board_side(species: usize, instances: usize) -> usize {
    ((species * instances) as f64 * 2.5).sqrt().ceil() as usize
}

/// An instance's five ability levels: floats that start at 1.0 and grow with points and
/// rewards, rounded half up whenever they are used or shown. What is derived from the floats
/// is computed when they change, not at each of the many uses (every request about the
/// instance shows them, every blow of a fight reads two of them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Levels {
    floats: [f32; 5],
    rounded: [i32; 5],
    vision_radius: u32,
    blur: u32,
    /// The text of [`Levels::shown`], if it is short enough to keep.
    shown_text: Option<Kept>,
}

impl Levels {
    /// Levels of these floats.
    pub fn new(floats: [f32; 5]) -> Levels {
        let mut levels = Levels {
            floats,
            rounded: floats.map(round_half_up),
            // `round(vision / 2)` from the float (2.9 → level 3 but radius 1).
            vision_radius: round_half_up(floats[VISION] / 2.0).max(0).unsigned_abs(),
            // `round(cleverness / 2) + 1`.
            blur: (round_half_up(floats[CLEVERNESS] / 2.0).saturating_add(1))
                .max(1)
                .unsigned_abs(),
            shown_text: None,
        };
        levels.shown_text = Kept::of(&levels.shown());
        levels
    }

    /// The levels of a new instance: 1.0 plus its (accepted) points, added as `f32`.
    pub fn from_points(points: &[f32; 5]) -> Levels {
        Levels::new(points.map(|p| 1.0 + p))
    }

    /// The five floats, for tests that check rewards.
    #[cfg(test)]
    pub fn floats(&self) -> [f32; 5] {
        self.floats
    }

    /// The rounded level of ability `k` (what getters report and combat uses).
    pub fn level(&self, k: usize) -> i32 {
        self.rounded[k]
    }

    /// All five rounded levels.
    pub fn rounded(&self) -> [i32; 5] {
        self.rounded
    }

    /// The view radius: `round(vision / 2)` from the float (2.9 → level 3 but radius 1).
    pub fn vision_radius(&self) -> usize {
        self.vision_radius as usize
    }

    /// The cleverness blur: `round(cleverness / 2) + 1`; others see each value plus a
    /// uniform draw in `0..blur`.
    pub fn blur(&self) -> usize {
        self.blur as usize
    }

    /// What an instance is shown of its own levels: the five rounded levels, the view
    /// radius and the blur (radius and blur are not derivable from the rounded levels).
    pub fn shown(&self) -> [i64; 7] {
        let [life, strength, defense, vision, cleverness] = self.rounded.map(i64::from);
        let [radius, blur] = [self.vision_radius, self.blur].map(i64::from);
        [life, strength, defense, vision, cleverness, radius, blur]
    }

    /// [`Levels::shown`] as numbers separated by spaces, if it was short enough to keep
    /// (it is unless levels run into the thousands).
    pub fn shown_text(&self) -> Option<&[u8]> {
        self.shown_text.as_ref().map(Kept::as_bytes)
    }

    /// The score of a living instance: its five floats summed left to right as `f32`, then
    /// rounded (so the rounding trick of games/alienwar.md, "Abilities", does not inflate it).
    pub fn score(&self) -> i64 {
        let sum = self.floats.iter().fold(0.0f32, |sum, &level| sum + level);
        i64::from(round_half_up(sum))
    }

    /// The kill reward from `loser`: a fifth of each of its rounded levels, cleverness
    /// included, added as `f32` (text differs: "1/5 of the enemy's abilities").
    pub fn add_reward(&mut self, loser: &Levels) {
        let mut floats = self.floats;
        for (level, rounded) in floats.iter_mut().zip(loser.rounded) {
            *level += rounded as f32 / 5.0;
        }
        *self = Levels::new(floats);
    }
}

/// Whether a defender with defense level `defense` dodges one hit: `d = min(defense, 50)`,
/// a uniform draw in `0..50/d + 1` (integer division) must be 0. P = 1/51 at level 1, 1/2
/// from level 26 on (the cap); levels are never below 1.
pub fn dodges(rng: &mut ChaCha12Rng, defense: i32) -> bool {
    below(rng, dodge_range(defense)) == 0
}

/// The size of the dodge draw for defense level `defense`: `50 / min(defense, 50) + 1`
/// (text differs: "[0 to 50/def+1]"); a dodge is one value of it.
pub fn dodge_range(defense: i32) -> usize {
    50 / defense.clamp(1, 50) as usize + 1
}

/// The damage of one hit by an attacker of strength level `strength`: uniform in
/// `1..=strength`.
pub fn damage(rng: &mut ChaCha12Rng, strength: i32) -> i32 {
    below(rng, strength.max(1) as usize) as i32 + 1
}

/// What another instance is shown of `levels` (games/alienwar.md, "Abilities" and "A
/// round"): the rounded life, strength, defense and vision levels, each plus an independent
/// draw in `0..blur`, in that order.
pub fn blurred(rng: &mut ChaCha12Rng, levels: &Levels) -> [i32; 4] {
    let blur = levels.blur();
    let rounded = levels.rounded();
    // Element by element (left to right, so the draws keep their order): the same through
    // `[_; 4].map`, which was not inlined here, cost about 165 more instructions a call.
    let mut shown = |k: usize| rounded[k] + below(rng, blur) as i32;
    [shown(LIFE), shown(STRENGTH), shown(DEFENSE), shown(VISION)]
}

/// One step, in the order of the original `planet.Move` enum (bots iterate it): the eight
/// compass directions clockwise from north, then staying put.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// One step in a direction.
    Step(Compass),
    /// No step.
    Stay,
}

impl Move {
    /// Every move in enum order.
    pub const ALL: [Move; 9] = {
        let mut all = [Move::Stay; 9];
        let mut i = 0;
        while i < 8 {
            all[i] = Move::Step(Compass::ALL[i]);
            i += 1;
        }
        all
    };

    /// The step `(dx, dy)`: x grows east, y grows south.
    pub fn offset(self) -> (isize, isize) {
        match self {
            Move::Step(direction) => direction.delta(),
            Move::Stay => (0, 0),
        }
    }

    /// The Java constant's name, which is also the protocol's word.
    pub fn name(self) -> &'static str {
        match self {
            Move::Step(Compass::N) => "NORTH",
            Move::Step(Compass::NE) => "NORTHEAST",
            Move::Step(Compass::E) => "EAST",
            Move::Step(Compass::SE) => "SOUTHEAST",
            Move::Step(Compass::S) => "SOUTH",
            Move::Step(Compass::SW) => "SOUTHWEST",
            Move::Step(Compass::W) => "WEST",
            Move::Step(Compass::NW) => "NORTHWEST",
            Move::Stay => "STAY",
        }
    }

    /// The move named `word` (exact, upper case).
    pub fn from_name(word: &[u8]) -> Option<Move> {
        Move::ALL.into_iter().find(|m| m.name().as_bytes() == word)
    }
}

/// An empty cell of the snapshot and of views: the protocol's `.`, so that a view goes into
/// a request as it is (the Java host gives the alien `' '`, as the original did).
pub const BLANK: u8 = b'.';

/// A view: the square of snapshot cells around an instance, radius `radius`, stored row by
/// row (north first), each row west to east.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct View {
    /// The radius r; the side is 2r + 1.
    pub radius: usize,
    /// `(2r+1)²` cell characters: [`BLANK`], `b'A'` or a prey letter.
    pub cells: Vec<u8>,
}

impl View {
    /// The cell at offset `(dx, dy)` from the centre, if inside the view.
    pub fn at(&self, dx: isize, dy: isize) -> Option<u8> {
        let r = self.radius as isize;
        let side = 2 * r + 1;
        let (x, y) = (r + dx, r + dy);
        ((0..side).contains(&x) && (0..side).contains(&y))
            .then(|| self.cells[(y * side + x) as usize])
    }
}
