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
/// Saturates at `u64::MAX`.
pub fn fixture_count(format: Format, bots: usize, games: u32) -> u64 {
    let games = u64::from(games);
    match format {
        Format::HeadToHead => binomial(bots, 2).saturating_mul(games),
        Format::Combinations { size, rotate } => binomial(bots, size)
            .saturating_mul(games)
            .saturating_mul(if rotate { size as u64 } else { 1 }),
        Format::FreeForAll => games,
    }
}

/// Game `index` of [`fixtures`] (the same fixture, without walking the ones before it), or
/// `None` past the last game: what a journal's record is checked against.
pub fn fixture_at(
    format: Format,
    bots: usize,
    games: u32,
    master_seed: u64,
    index: u64,
) -> Option<Fixture> {
    if index >= fixture_count(format, bots, games) {
        return None;
    }
    let (size, rotations) = match format {
        Format::HeadToHead => (2, 1),
        Format::Combinations { size, rotate } => (size, if rotate { size as u64 } else { 1 }),
        Format::FreeForAll => (bots, 1),
    };
    let per_group = u64::from(games) * rotations;
    let (group, within) = (index / per_group, index % per_group);
    let (g, r) = (within / rotations, within % rotations);
    let mut seats = match format {
        Format::FreeForAll => (0..bots).collect(),
        _ => combination(bots, size, group),
    };
    seats.rotate_left(r as usize);
    if format == Format::HeadToHead && g % 2 == 1 {
        seats.reverse();
    }
    Some(Fixture {
        index,
        seed: game_seed(master_seed, index),
        seats,
    })
}

/// The `rank`-th `k`-combination of `0..n` in lexicographic order (`rank` below C(n, k)),
/// found position by position by binary search: among the combinations of what is left,
/// those whose first element is below `c` number C(m, j) - C(n - c, j).
fn combination(n: usize, k: usize, mut rank: u64) -> Vec<usize> {
    let mut seats = Vec::with_capacity(k);
    let mut low = 0;
    for chosen in 0..k {
        let left = k - chosen;
        let all = binomial(n - low, left);
        let before = |c: usize| all - binomial(n - c, left);
        // The last c in low..=n-left with `before(c) <= rank`.
        let (mut lo, mut hi) = (low, n - left);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if before(mid) <= rank {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        rank -= before(lo);
        seats.push(lo);
        low = lo + 1;
    }
    seats
}

/// C(n, k), saturating at `u64::MAX` (a tournament that large is refused when loaded).
fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut acc: u128 = 1;
    for i in 0..k {
        // Exact: the product of i + 1 consecutive numbers is divisible by (i + 1)!.
        acc = acc * (n - i) as u128 / (i as u128 + 1);
        if acc > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    acc as u64
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
    fn fixture_at_is_the_fixture_of_that_index() {
        let formats = [
            Format::HeadToHead,
            Format::Combinations {
                size: 4,
                rotate: true,
            },
            Format::Combinations {
                size: 3,
                rotate: false,
            },
            Format::FreeForAll,
        ];
        for format in formats {
            for bots in [1, 2, 4, 5, 9] {
                let all: Vec<_> = fixtures(format, bots, 3, 11).collect();
                let at: Vec<_> = (0..=all.len() as u64)
                    .map_while(|index| fixture_at(format, bots, 3, 11, index))
                    .collect();
                assert_eq!(at, all, "{format:?} with {bots} bots");
            }
        }
    }

    #[test]
    fn counts_of_huge_fields_saturate_and_large_ones_are_exact() {
        assert_eq!(binomial(10_000, 4), 416_416_712_497_500);
        assert_eq!(binomial(1 << 40, 4), u64::MAX);
        assert_eq!(
            fixture_count(Format::HeadToHead, 1 << 33, u32::MAX),
            u64::MAX
        );
        let last = fixture_at(Format::HeadToHead, 10_000, 2, 0, 99_989_999).unwrap();
        assert_eq!(last.seats, [9_999, 9_998]);
    }

    #[test]
    fn the_seed_function_is_pinned() {
        // Golden values: changing them changes every tournament's results.
        assert_eq!(mix(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(game_seed(1, 0), mix(mix(1)));
    }
}
