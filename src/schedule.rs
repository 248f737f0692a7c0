//! Who plays whom in which seats, and each game's seed. Pure: no I/O, no clock.
//!
//! Games are numbered from 0 in a fixed order and each game's seed is a fixed function of the
//! master seed and that number, so results never depend on how many games run at once or in
//! which order they finish, and a subset of games (a resumed run, a shard) gets the same seeds.

use crate::games::Format;

/// One game to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixture {
    /// The game's number in the tournament.
    pub index: u64,
    /// The game's seed, derived from the master seed and `index`.
    pub seed: u64,
    /// Bot indices (into the tournament's bot list), in seat order.
    pub seats: Vec<usize>,
}

/// Every game of a tournament of `bots` entries, in index order.
///
/// - Head-to-head: each pair `(i, j)` with `i < j`, in lexicographic order, plays `games`
///   games; in game `g` of the pair, bot `i` takes the first seat when `g` is even.
/// - Combinations: each `size`-combination of bots, in lexicographic order, plays `games`
///   games with seats in list order; with `rotate`, each of those games is played in every
///   rotation of the seats (rotation `r` seats the combination starting at its `r`-th bot).
/// - Free-for-all: `games` games with every bot, seats in list order.
pub fn fixtures(
    format: Format,
    bots: usize,
    games: u32,
    master_seed: u64,
) -> impl Iterator<Item = Fixture> {
    let (groups, rotations): (Box<dyn Iterator<Item = Vec<usize>>>, usize) = match format {
        Format::HeadToHead => (Box::new(Combinations::new(bots, 2)), 1),
        Format::Combinations { size, rotate } => (
            Box::new(Combinations::new(bots, size)),
            if rotate { size } else { 1 },
        ),
        Format::FreeForAll => (Box::new(std::iter::once((0..bots).collect())), 1),
    };
    let swap_sides = format == Format::HeadToHead;
    groups
        .flat_map(move |group| {
            (0..games).flat_map(move |g| {
                let group = group.clone();
                (0..rotations).map(move |r| {
                    let mut seats = group.clone();
                    seats.rotate_left(r);
                    if swap_sides && g % 2 == 1 {
                        seats.reverse();
                    }
                    seats
                })
            })
        })
        .zip(0u64..)
        .map(move |(seats, index)| Fixture {
            index,
            seed: game_seed(master_seed, index),
            seats,
        })
}

/// How many games [`fixtures`] yields.
pub fn fixture_count(format: Format, bots: usize, games: u32) -> u64 {
    let games = u64::from(games);
    match format {
        Format::HeadToHead => binomial(bots, 2) * games,
        Format::Combinations { size, rotate } => {
            binomial(bots, size) * games * if rotate { size as u64 } else { 1 }
        }
        Format::FreeForAll => games,
    }
}

fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i as u64 + 1))
}

/// The `k`-combinations of `0..n` in lexicographic order.
struct Combinations {
    n: usize,
    next: Option<Vec<usize>>,
}

impl Combinations {
    fn new(n: usize, k: usize) -> Combinations {
        Combinations {
            n,
            next: (k <= n).then(|| (0..k).collect()),
        }
    }
}

impl Iterator for Combinations {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        let current = self.next.take()?;
        let k = current.len();
        // Advance the rightmost position that can still move right, and reset those after it.
        let mut following = current.clone();
        if let Some(i) = (0..k).rev().find(|&i| following[i] < self.n - k + i) {
            following[i] += 1;
            for j in i + 1..k {
                following[j] = following[j - 1] + 1;
            }
            self.next = Some(following);
        }
        Some(current)
    }
}

/// The seed of game `index`: SplitMix64's finalizer applied to the mixed master seed plus the
/// index. Written out here, not taken from a library, so it can never change under us.
pub fn game_seed(master_seed: u64, index: u64) -> u64 {
    mix(mix(master_seed).wrapping_add(index))
}

/// The SplitMix64 output function (Steele, Lea and Flood, 2014).
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_to_head_plays_every_pair_with_alternating_first_seat() {
        let all: Vec<_> = fixtures(Format::HeadToHead, 3, 2, 7).collect();
        let seats: Vec<_> = all.iter().map(|f| f.seats.clone()).collect();
        assert_eq!(
            seats,
            [
                vec![0, 1],
                vec![1, 0],
                vec![0, 2],
                vec![2, 0],
                vec![1, 2],
                vec![2, 1]
            ]
        );
        assert_eq!(
            all.iter().map(|f| f.index).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4, 5]
        );
        assert_eq!(fixture_count(Format::HeadToHead, 3, 2), 6);
    }

    #[test]
    fn combinations_come_in_lexicographic_order_with_optional_rotations() {
        let plain = Format::Combinations {
            size: 4,
            rotate: false,
        };
        let seats: Vec<_> = fixtures(plain, 5, 1, 0).map(|f| f.seats).collect();
        assert_eq!(
            seats,
            [
                vec![0, 1, 2, 3],
                vec![0, 1, 2, 4],
                vec![0, 1, 3, 4],
                vec![0, 2, 3, 4],
                vec![1, 2, 3, 4]
            ]
        );
        assert_eq!(fixture_count(plain, 5, 1), 5);
        let rotated = Format::Combinations {
            size: 4,
            rotate: true,
        };
        let seats: Vec<_> = fixtures(rotated, 4, 2, 0).map(|f| f.seats).collect();
        let one_game = [
            vec![0, 1, 2, 3],
            vec![1, 2, 3, 0],
            vec![2, 3, 0, 1],
            vec![3, 0, 1, 2],
        ];
        assert_eq!(seats, [one_game.clone(), one_game].concat());
        assert_eq!(fixture_count(rotated, 4, 2), 8);
        assert_eq!(fixture_count(rotated, 7, 1), 35 * 4);
        assert_eq!(fixtures(rotated, 7, 1, 0).count(), 35 * 4);
        assert_eq!(fixtures(plain, 3, 1, 0).count(), 0);
    }

    #[test]
    fn free_for_all_seats_everybody_in_list_order() {
        let all: Vec<_> = fixtures(Format::FreeForAll, 3, 2, 5).collect();
        assert_eq!(all.len(), 2);
        assert!(all.iter().all(|f| f.seats == [0, 1, 2]));
        assert_eq!(fixture_count(Format::FreeForAll, 3, 2), 2);
    }

    #[test]
    fn seeds_depend_only_on_master_seed_and_index() {
        let a: Vec<_> = fixtures(Format::HeadToHead, 4, 3, 42).collect();
        let b: Vec<_> = fixtures(Format::HeadToHead, 4, 3, 42).collect();
        assert_eq!(a, b);
        assert_eq!(a[5].seed, game_seed(42, 5));
        assert_ne!(game_seed(42, 5), game_seed(43, 5));
        let distinct: std::collections::BTreeSet<_> = a.iter().map(|f| f.seed).collect();
        assert_eq!(distinct.len(), a.len());
    }

    #[test]
    fn the_seed_function_is_pinned() {
        // Golden values: changing them changes every tournament's results.
        assert_eq!(mix(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(game_seed(1, 0), mix(mix(1)));
    }
}
