//! The seeded cave generator (games/cave.md, "The cave"): side `30 + 10·bots`, then every
//! thing by count in the order `} P G F W K R C B L`, then Nina, then the bots, each on a
//! cell drawn as `below(side²)` and redrawn until it is empty.

use rand_chacha::ChaCha12Rng;

use crate::seeded::below;

use super::options::Density;
use super::world::{Creature, Ground, Item, Kind, Nina, Pos, Robot, World};

/// The side of a cave for its first `bots` entrants (games/cave.md, "The cave").
pub fn side(bots: usize) -> usize {
    30 + 10 * bots
}

/// What each entry of [`Density::in_placement_order`] places.
enum Thing {
    Ground(Ground),
    Creature(Kind),
}

const PLACEMENT_ORDER: [Thing; 10] = [
    Thing::Ground(Ground::Boulder),
    Thing::Ground(Ground::Pit),
    Thing::Ground(Ground::Item(Item::Gold)),
    Thing::Ground(Ground::Item(Item::Food)),
    Thing::Ground(Ground::Item(Item::Water)),
    Thing::Ground(Ground::Item(Item::Knife)),
    Thing::Ground(Ground::Item(Item::Revealer)),
    Thing::Creature(Kind::Centipede),
    Thing::Creature(Kind::Bats),
    Thing::Creature(Kind::Lion),
];

/// A uniformly random empty cell (games/cave.md, "The cave"): `r = below(side²)` is cell
/// `(r mod side, r div side)`, redrawn until empty. Also Nina's jump target ("A turn").
pub fn empty_cell(world: &World, rng: &mut ChaCha12Rng) -> Pos {
    loop {
        let r = below(rng, world.side * world.side);
        let pos = Pos::new(r % world.side, r / world.side);
        if world.is_empty(pos) {
            return pos;
        }
    }
}

/// Generates the cave for `bots` entrants with `density`, drawing from `rng`.
pub fn generate(density: &Density, bots: usize, rng: &mut ChaCha12Rng) -> World {
    let side = side(bots);
    // Nina and the robots are placed last; until then Nina stands off the cave.
    let mut cave = World::bare(side, Pos::new(usize::MAX, usize::MAX), &[]);
    for (thing, bp) in PLACEMENT_ORDER.iter().zip(density.in_placement_order()) {
        for _ in 0..Density::count(side, bp) {
            let pos = empty_cell(&cave, rng);
            match *thing {
                Thing::Ground(ground) => cave.set_ground(pos, ground),
                Thing::Creature(kind) => cave.creatures.push(Creature { kind, pos }),
            }
        }
    }
    let nina = empty_cell(&cave, rng);
    cave.nina = Nina { pos: nina, stay: 3 };
    for _ in 0..bots {
        let pos = empty_cell(&cave, rng);
        cave.robots.push(Robot::new(pos));
    }
    cave
}
