//! The planet: every instance of every species on a torus, and one round of the original
//! controller split into the steps the engine needs between its questions to the bots
//! (games/alienwar.md, "A round"): shuffle and snapshot, moves, then the meetings wave by
//! wave, then removal of the dead.
//!
//! The original resolves meetings one by one in shuffled order. Every instance ends its move
//! on exactly one cell, and only instances on the same cell meet (each newcomer meets the
//! cell's first arrival, its resident), so meetings on different cells never share an
//! instance. Meetings are therefore grouped into waves: wave k holds the k-th meeting of
//! every cell, in shuffled order. Each cell's meetings still happen in order, against the
//! resident as earlier meetings left it, which is all the rules depend on.

use rand_chacha::ChaCha12Rng;

use super::rules::{self, BLANK, Levels, Move, View};
use crate::seeded::{below, rng};

/// One alien or prey animal.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// Its species' index in the roster (seats first, then the prey).
    pub species: usize,
    /// Its number within the species, in creation order (the protocol's id).
    pub id: u32,
    /// Its ability levels.
    pub levels: Levels,
    /// Hit points; dead at 0 or below, removed at the end of the round.
    pub hp: i32,
    /// Column, growing east.
    pub x: usize,
    /// Row, growing south.
    pub y: usize,
}

impl Instance {
    /// Whether it has died (it stays on the planet until the round ends).
    pub fn is_dead(&self) -> bool {
        self.hp <= 0
    }
}

/// A newcomer meeting a cell's resident, with what each is shown of the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meeting {
    /// The instance that just arrived (its index this round).
    pub newcomer: usize,
    /// The cell's first arrival this round.
    pub resident: usize,
    /// The resident's blurred life, strength, defense and vision, shown to the newcomer.
    pub newcomer_sees: [i32; 4],
    /// The newcomer's blurred levels, shown to the resident.
    pub resident_sees: [i32; 4],
}

/// The arrivals on one cell after the first, still to meet its resident: a chain through
/// [`Planet::later`] from `next` (the next to meet) to `last` (the latest arrival).
#[derive(Debug, Clone, Copy)]
struct Arrivals {
    resident: usize,
    /// The next newcomer to meet the resident; [`NOBODY`] once all have.
    next: usize,
    last: usize,
}

/// No instance: the end of an arrivals chain; as a crowd index, a resident without one.
const NOBODY: usize = usize::MAX;

/// Who arrived first on each cell this round: a cell's entry holds only if its stamp is
/// this round's (see [`Planet::next_stamp`]), so a round neither clears the board nor
/// allocates. Every move looks up a stamp, so they are kept apart and small, two bytes a
/// cell, where they stay in the processor's cache.
#[derive(Debug, Clone, Default)]
struct Arrived {
    stamp: Vec<u16>,
    first: Vec<usize>,
}

/// Independent random streams, so that e.g. a Cow's step never shifts a fight's rolls.
#[derive(Debug, Clone)]
struct Streams {
    shuffle: ChaCha12Rng,
    fight: ChaCha12Rng,
    cow: ChaCha12Rng,
}

/// Counts for the game's summary line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MeetingCounts {
    /// Meetings where at least one side wanted to fight.
    pub fights: u64,
    /// Meetings where both wanted peace.
    pub peaceful: u64,
    /// Rewards paid again by a resident that was already dead (games/alienwar.md, "Quirks of
    /// the original controller, reproduced").
    pub dead_resident_rewards: u64,
}

/// The whole world of one game.
#[derive(Debug, Clone)]
pub struct Planet {
    side: usize,
    /// Species below this index are played by bots; the others are the built-in prey, which
    /// never want to fight.
    bots: usize,
    /// The character of each species on the snapshot.
    symbols: Vec<u8>,
    /// The instances, in this round's shuffled order once the round has begun.
    instances: Vec<Instance>,
    /// The start-of-round board every view of the round is cut from, [`Planet::stride`]
    /// cells a row: each row is followed by its first cells again, as many as the round's
    /// widest view needs, so that every row of a view is one slice even where it crosses
    /// the torus's edge (writing a large game's views is a large part of the runner's work).
    snapshot: Vec<u8>,
    /// The length of a snapshot row: the side and the repeated cells.
    stride: usize,
    /// Cells with more than one arrival this round.
    crowded: Vec<Arrivals>,
    /// Per cell, this round's first arrival.
    arrived: Arrived,
    /// The stamp of this round's moves, counted from 1; 0 marks no round.
    stamp: u16,
    /// Per instance, the index of its [`Arrivals`] if it is a resident with newcomers.
    crowd: Vec<usize>,
    /// Per instance, the one that arrived after it on its cell ([`NOBODY`] if none).
    later: Vec<usize>,
    /// Whether a dead resident still meets (and rewards) later arrivals (games/alienwar.md,
    /// "Quirks of the original controller, reproduced").
    dead_resident_reward: bool,
    streams: Streams,
    tally: MeetingCounts,
}

impl Planet {
    /// A planet of side `side` for species drawn as `symbols`, the first `bots` of them
    /// played by bots, with `instances` placed on distinct random cells in creation order
    /// (games/alienwar.md, "The planet").
    ///
    /// # Panics
    ///
    /// If there are more instances than cells (the board formula leaves 2.5 cells each).
    pub fn new(
        side: usize,
        bots: usize,
        symbols: Vec<u8>,
        mut instances: Vec<Instance>,
        seed: u64,
        dead_resident_reward: bool,
    ) -> Planet {
        assert!(instances.len() <= side * side, "more instances than cells");
        let mut placement = stream(seed, 0);
        let mut taken = vec![false; side * side];
        for instance in &mut instances {
            loop {
                let (x, y) = (below(&mut placement, side), below(&mut placement, side));
                if !std::mem::replace(&mut taken[y * side + x], true) {
                    (instance.x, instance.y) = (x, y);
                    break;
                }
            }
        }
        Planet::placed(side, bots, symbols, instances, seed, dead_resident_reward)
    }

    /// A planet like [`Planet::new`]'s with `instances` where they already are (`arena
    /// check` prepares positions this way).
    pub fn placed(
        side: usize,
        bots: usize,
        symbols: Vec<u8>,
        instances: Vec<Instance>,
        seed: u64,
        dead_resident_reward: bool,
    ) -> Planet {
        Planet {
            side,
            bots,
            symbols,
            instances,
            snapshot: Vec::new(),
            stride: side,
            crowded: Vec::new(),
            arrived: Arrived::default(),
            stamp: 0,
            crowd: Vec::new(),
            later: Vec::new(),
            dead_resident_reward,
            streams: Streams {
                shuffle: stream(seed, 1),
                fight: stream(seed, 2),
                cow: stream(seed, 3),
            },
            tally: MeetingCounts::default(),
        }
    }

    /// The instances, in this round's order.
    pub fn instances(&self) -> &[Instance] {
        &self.instances
    }

    /// The instances, for tests that set up a position.
    #[cfg(test)]
    pub fn instances_mut(&mut self) -> &mut Vec<Instance> {
        &mut self.instances
    }

    /// The counts so far.
    pub fn tally(&self) -> MeetingCounts {
        self.tally
    }

    /// The Cows' random stream.
    pub fn cow_rng(&mut self) -> &mut ChaCha12Rng {
        &mut self.streams.cow
    }

    /// Starts a round: shuffles the instances (as `Collections.shuffle`: from the last
    /// position down, each swapped with a uniform earlier-or-same one) and draws the
    /// snapshot, later instances over earlier ones on a shared cell.
    pub fn begin_round(&mut self) {
        for i in (1..self.instances.len()).rev() {
            let j = below(&mut self.streams.shuffle, i + 1);
            self.instances.swap(i, j);
        }
        let side = self.side;
        let widest = self
            .instances
            .iter()
            .map(|i| 2 * i.levels.vision_radius() + 1);
        self.stride = side + widest.max().unwrap_or(1) - 1;
        self.snapshot.clear();
        self.snapshot.resize(self.stride * side, BLANK);
        for instance in &self.instances {
            self.snapshot[instance.y * self.stride + instance.x] = self.symbols[instance.species];
        }
        for row in self.snapshot.chunks_exact_mut(self.stride) {
            // A view wider than the planet needs the row repeated more than once.
            for start in (side..row.len()).step_by(side) {
                let end = row.len().min(start + side);
                row.copy_within(..end - start, start);
            }
        }
    }

    /// The view of instance `i` (see [`Planet::view_into`]).
    #[cfg(test)]
    pub fn view(&self, i: usize) -> View {
        let mut view = View {
            radius: 0,
            cells: Vec::new(),
        };
        self.view_into(i, &mut view);
        view
    }

    /// The view of instance `i` from this round's snapshot, around its position before it
    /// moves, wrapping around the torus, into `view`, reusing its cells' allocation (a round
    /// cuts thousands).
    pub fn view_into(&self, i: usize, view: &mut View) {
        view.radius = self.instances[i].levels.vision_radius();
        view.cells.clear();
        view.cells.reserve((2 * view.radius + 1).pow(2));
        for row in self.view_rows(i) {
            view.cells.extend_from_slice(row);
        }
    }

    /// The rows of instance `i`'s view (see [`Planet::view_into`]), north first, each its cells
    /// west first. A `MOVE` line is written from them without cutting the view first.
    pub fn view_rows(&self, i: usize) -> impl Iterator<Item = &[u8]> {
        let instance = &self.instances[i];
        let radius = instance.levels.vision_radius();
        let width = 2 * radius + 1;
        let west = self.wrap(instance.x, -(radius as isize));
        let mut y = self.wrap(instance.y, -(radius as isize));
        (0..width).map(move |_| {
            let start = y * self.stride + west;
            y = if y + 1 == self.side { 0 } else { y + 1 };
            &self.snapshot[start..start + width]
        })
    }

    /// `pos + delta` on the torus (a division only when it leaves the board).
    fn wrap(&self, pos: usize, delta: isize) -> usize {
        let (to, side) = (pos as isize + delta, self.side as isize);
        if (0..side).contains(&to) {
            to as usize
        } else {
            to.rem_euclid(side) as usize
        }
    }

    /// Moves every instance (`moves[i]` for instance `i`), in round order, and records who
    /// arrived first on each cell and who came later. Nothing blocks a move.
    pub fn apply_moves(&mut self, moves: &[Move]) {
        let stamp = self.next_stamp();
        self.crowded.clear();
        for chain in [&mut self.crowd, &mut self.later] {
            chain.clear();
            chain.resize(self.instances.len(), NOBODY);
        }
        for (i, mv) in moves.iter().enumerate() {
            let (dx, dy) = mv.offset();
            let instance = &self.instances[i];
            let (x, y) = (self.wrap(instance.x, dx), self.wrap(instance.y, dy));
            let instance = &mut self.instances[i];
            (instance.x, instance.y) = (x, y);
            let cell = y * self.side + x;
            if self.arrived.stamp[cell] != stamp {
                self.arrived.stamp[cell] = stamp;
                self.arrived.first[cell] = i;
                continue;
            }
            let resident = self.arrived.first[cell];
            // A resident without newcomers yet has the crowd index NOBODY, which `get` misses.
            match self.crowded.get_mut(self.crowd[resident]) {
                Some(arrivals) => {
                    self.later[arrivals.last] = i;
                    arrivals.last = i;
                }
                None => {
                    self.crowd[resident] = self.crowded.len();
                    self.crowded.push(Arrivals {
                        resident,
                        next: i,
                        last: i,
                    });
                }
            }
        }
    }

    /// The stamp of a new round's arrivals. Once in 65,535 rounds the count starts again,
    /// and every cell is unstamped so that no old stamp can match.
    fn next_stamp(&mut self) -> u16 {
        let cells = self.side * self.side;
        self.arrived.stamp.resize(cells, 0);
        self.arrived.first.resize(cells, NOBODY);
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.arrived.stamp.fill(0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Whether instance `i` belongs to a bot's species (prey need no question).
    pub fn is_bots(&self, i: usize) -> bool {
        self.instances[i].species < self.bots
    }

    /// The next wave of meetings that need a bot's answer, in round order, each with the
    /// blurred levels both sides are shown (the resident's drawn first); empty when the
    /// round's meetings are over. Meetings of two prey are settled on the way (both always
    /// want peace, so nothing changes). Without the dead-resident quirk, a dead resident
    /// gives its cell to the next arrival.
    pub fn next_wave(&mut self) -> Vec<Meeting> {
        let mut pairs = Vec::new();
        let mut crowded = std::mem::take(&mut self.crowded);
        for cell in &mut crowded {
            while cell.next != NOBODY {
                let newcomer = cell.next;
                cell.next = self.later[newcomer];
                if !self.dead_resident_reward && self.instances[cell.resident].is_dead() {
                    cell.resident = newcomer;
                } else if self.is_bots(newcomer) || self.is_bots(cell.resident) {
                    pairs.push((newcomer, cell.resident));
                    break;
                } else {
                    self.tally.peaceful += 1;
                }
            }
        }
        self.crowded = crowded;
        pairs.sort_unstable();
        pairs
            .into_iter()
            .map(|(newcomer, resident)| {
                let fight = &mut self.streams.fight;
                let newcomer_sees = rules::blurred(fight, &self.instances[resident].levels);
                let resident_sees = rules::blurred(fight, &self.instances[newcomer].levels);
                Meeting {
                    newcomer,
                    resident,
                    newcomer_sees,
                    resident_sees,
                }
            })
            .collect()
    }

    /// Settles a meeting given both answers (games/alienwar.md, "A round"): peace if both
    /// said no; otherwise exchanges of blows, newcomer hit first, until one is dead (none if
    /// the resident died earlier this round), then the survivor is rewarded from the loser.
    pub fn settle(&mut self, meeting: &Meeting, newcomer_fights: bool, resident_fights: bool) {
        if !newcomer_fights && !resident_fights {
            self.tally.peaceful += 1;
            return;
        }
        self.tally.fights += 1;
        let fight = &mut self.streams.fight;
        let (newcomer, resident) =
            pair_mut(&mut self.instances, meeting.newcomer, meeting.resident);
        if resident.is_dead() {
            self.tally.dead_resident_rewards += 1;
        }
        while !newcomer.is_dead() && !resident.is_dead() {
            if !rules::dodges(fight, newcomer.levels.level(rules::DEFENSE)) {
                newcomer.hp -= rules::damage(fight, resident.levels.level(rules::STRENGTH));
            }
            if !rules::dodges(fight, resident.levels.level(rules::DEFENSE)) {
                resident.hp -= rules::damage(fight, newcomer.levels.level(rules::STRENGTH));
            }
        }
        if !newcomer.is_dead() {
            reward(newcomer, resident);
        } else if !resident.is_dead() {
            reward(resident, newcomer);
        }
    }

    /// Ends the round: the dead are removed. Returns how many died, per species.
    pub fn end_round(&mut self) -> Vec<usize> {
        let mut deaths = vec![0; self.symbols.len()];
        self.instances.retain(|instance| {
            deaths[instance.species] += usize::from(instance.is_dead());
            !instance.is_dead()
        });
        deaths
    }

    /// The side of the square planet.
    pub fn side(&self) -> usize {
        self.side
    }

    /// Each species' score: the sum over its living instances of their rounded level sums.
    pub fn scores(&self) -> Vec<i64> {
        let mut scores = vec![0; self.symbols.len()];
        for instance in &self.instances {
            scores[instance.species] += instance.levels.score();
        }
        scores
    }
}

/// Random stream `n` of the game's seed.
fn stream(seed: u64, n: u64) -> ChaCha12Rng {
    let mut stream = rng(seed);
    stream.set_stream(n);
    stream
}

/// The winner's reward from the loser: a fifth of each rounded level, and twice its life
/// level as hit points (added, no cap).
fn reward(winner: &mut Instance, loser: &Instance) {
    winner.levels.add_reward(&loser.levels);
    winner.hp += 2 * loser.levels.level(rules::LIFE);
}

/// Two distinct elements of `items`, mutably.
fn pair_mut<T>(items: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "an instance never meets itself");
    if a < b {
        let (left, right) = items.split_at_mut(b);
        (&mut left[a], &mut right[0])
    } else {
        let (left, right) = items.split_at_mut(a);
        (&mut right[0], &mut left[b])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compass::Compass;

    /// A cell stamped 65,535 rounds ago carries this round's stamp again when the count
    /// starts over; its old first arrival must not meet anyone.
    #[test]
    fn stamps_that_start_over_forget_old_arrivals() {
        let at = |x: usize| Instance {
            species: 0,
            id: x as u32,
            levels: Levels::new([1.0; 5]),
            hp: 10,
            x,
            y: 0,
        };
        let mut planet = Planet::placed(3, 1, b"A".to_vec(), vec![at(0), at(1)], 1, true);
        // Stamp 1: instance 0 is the first on (0, 0).
        planet.apply_moves(&[Move::Stay, Move::Stay]);
        planet.stamp = u16::MAX;
        // Stamp 1 again: 0 leaves (0, 0) for (2, 0), then 1 steps onto (0, 0).
        let west = Move::Step(Compass::W);
        planet.apply_moves(&[west, west]);
        let places: Vec<_> = planet.instances().iter().map(|i| (i.x, i.y)).collect();
        assert_eq!(places, [(2, 0), (0, 0)]);
        assert_eq!(planet.next_wave(), []);
        // And the stamps still tell a real meeting: 1 follows 0 onto (2, 0).
        planet.apply_moves(&[Move::Stay, west]);
        let wave = planet.next_wave();
        assert_eq!((wave.len(), wave[0].newcomer, wave[0].resident), (1, 1, 0));
    }
}
