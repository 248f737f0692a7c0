//! Who plays whom in which seats, in which order, and each game's seed. Pure: no I/O, no
//! clock.
//!
//! Games are played in rounds: a round plays every group of the pairing once (every pair, every
//! combination in each of its seat rotations, or the one game of all bots), and round `r` is
//! the `r`-th game of each group; so a run stopped at any point has given every bot about the
//! same number of games. Games are numbered from 0 in that order.
//!
//! A game's seed depends only on the master seed and the game's identity (the names of its
//! bots in seat order and its round), never on its number: adding, removing or reordering
//! bots leaves every other game's seed unchanged, and results never depend on how many games
//! run at once or in which order they finish.

use arena_games::Pairing;

/// One game to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixture {
    /// The game's number in the tournament.
    pub index: u64,
    /// The round it belongs to: which of its group's games it is.
    pub round: u32,
    /// The game's seed, from the master seed and the game's identity ([`game_seed`]).
    pub seed: u64,
    /// Bot indices (into the tournament's bot list), in seat order.
    pub seats: Vec<usize>,
}

/// The games of a tournament of the bots `names`, `games` rounds of `pairing`.
#[derive(Debug, Clone, Copy)]
pub struct Schedule<'a> {
    pairing: Pairing,
    names: &'a [String],
    games: u32,
    master_seed: u64,
    /// Whether the games of a pair come in twos with one seed (`--sprt`).
    paired: bool,
}

impl<'a> Schedule<'a> {
    /// The schedule of `names` playing `games` rounds of `pairing` under `master_seed`.
    pub fn new(pairing: Pairing, names: &'a [String], games: u32, master_seed: u64) -> Self {
        Schedule {
            pairing,
            names,
            games,
            master_seed,
            paired: false,
        }
    }

    /// With `paired`, a head-to-head game of an odd round gets the seed of the round before
    /// it, whose game it replays with the sides swapped: `--sprt` scores such pairs.
    pub fn paired(self, paired: bool) -> Self {
        Schedule { paired, ..self }
    }

    /// How many games the schedule has (saturating at `u64::MAX`).
    pub fn len(&self) -> u64 {
        fixture_count(self.pairing, self.names.len(), self.games)
    }

    /// Whether the schedule has no game.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Game `index`, or `None` past the last: computed directly, without the games before it.
    ///
    /// - Head-to-head: each round plays every pair `(i, j)` with `i < j` in lexicographic
    ///   order; bot `i` takes the first seat in even rounds, bot `j` in odd ones.
    /// - Combinations: each round plays every `size`-combination in lexicographic order, seats
    ///   in list order; with `rotate`, in every rotation of the seats in turn (rotation `r`
    ///   seats the combination starting at its `r`-th bot).
    /// - Free-for-all: each round is one game of every bot, seats in list order.
    pub fn fixture(&self, index: u64) -> Option<Fixture> {
        if index >= self.len() {
            return None;
        }
        let bots = self.names.len();
        let (size, rotations) = match self.pairing {
            Pairing::HeadToHead => (2, 1),
            Pairing::Combinations { size, rotate } => (size, if rotate { size as u64 } else { 1 }),
            Pairing::FreeForAll => (bots, 1),
        };
        let per_round = fixture_count(self.pairing, bots, 1);
        let round = u32::try_from(index / per_round).ok()?;
        let within = index % per_round;
        let (group, rotation) = (within / rotations, within % rotations);
        let mut seats = match self.pairing {
            Pairing::FreeForAll => (0..bots).collect(),
            _ => combination(bots, size, group),
        };
        seats.rotate_left(rotation as usize);
        if self.pairing == Pairing::HeadToHead && round % 2 == 1 {
            seats.reverse();
        }
        let mut seated: Vec<&str> = seats.iter().map(|&bot| self.names[bot].as_str()).collect();
        let mut seed_round = round;
        if self.paired && self.pairing == Pairing::HeadToHead && round % 2 == 1 {
            seated.reverse();
            seed_round -= 1;
        }
        Some(Fixture {
            index,
            round,
            seed: game_seed(self.master_seed, &seated, seed_round),
            seats,
        })
    }

    /// Every game, in index order.
    pub fn fixtures(self) -> impl Iterator<Item = Fixture> + 'a {
        (0..self.len()).map_while(move |index| self.fixture(index))
    }
}

/// How many games `games` rounds of `pairing` with `bots` bots have (saturating at
/// `u64::MAX`).
pub fn fixture_count(pairing: Pairing, bots: usize, games: u32) -> u64 {
    let games = u64::from(games);
    match pairing {
        Pairing::HeadToHead => binomial(bots, 2).saturating_mul(games),
        Pairing::Combinations { size, rotate } => binomial(bots, size)
            .saturating_mul(games)
            .saturating_mul(if rotate { size as u64 } else { 1 }),
        Pairing::FreeForAll if bots == 0 => 0,
        Pairing::FreeForAll => games,
    }
}

/// How many of the games of `games` rounds of `pairing` with `bots` bots seat one given bot
/// (a gauntlet's): all but those the other bots play among themselves.
pub fn games_of_one(pairing: Pairing, bots: usize, games: u32) -> u64 {
    match (pairing, bots) {
        (_, 0) => 0,
        (Pairing::FreeForAll, _) => fixture_count(pairing, bots, games),
        _ => fixture_count(pairing, bots, games) - fixture_count(pairing, bots - 1, games),
    }
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

/// The seed of the game that seats the bots `seats` (their names, in seat order) in `round`:
/// the 64-bit FNV-1a hash of every name's UTF-8 bytes, each followed by the byte 0xFF (which
/// UTF-8 never contains, so no two lists of names run together alike), then the round's four
/// bytes, little-endian; mixed with the mixed master seed by SplitMix64's finalizer. Written
/// out here, not taken from a library, so it can never change under us.
pub fn game_seed(master_seed: u64, seats: &[&str], round: u32) -> u64 {
    let mut identity = crate::fnv::Fnv::default();
    for name in seats {
        identity.feed(name.as_bytes());
        identity.feed(&[0xFF]);
    }
    identity.feed(&round.to_le_bytes());
    mix(mix(master_seed) ^ identity.finish())
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

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("bot{i}")).collect()
    }

    fn seats(pairing: Pairing, bots: usize, games: u32) -> Vec<Vec<usize>> {
        let names = names(bots);
        Schedule::new(pairing, &names, games, 7)
            .fixtures()
            .map(|f| f.seats)
            .collect()
    }

    #[test]
    fn paired_games_share_the_seed_of_their_pair_with_the_sides_swapped() {
        let names = names(3);
        let plain = Schedule::new(Pairing::HeadToHead, &names, 4, 9);
        let paired = plain.paired(true);
        let per_round = fixture_count(Pairing::HeadToHead, 3, 1);
        for index in 0..plain.len() {
            let (game, seeded) = (
                paired.fixture(index).unwrap(),
                plain.fixture(index).unwrap(),
            );
            assert_eq!(game.seats, seeded.seats, "the same games");
            if game.round % 2 == 0 {
                assert_eq!(game.seed, seeded.seed, "an even round keeps its seed");
            } else {
                let first = paired.fixture(index - per_round).unwrap();
                assert_eq!(
                    game.seed, first.seed,
                    "game {index} replays its pair's seed"
                );
                assert_eq!(
                    game.seats,
                    first.seats.iter().rev().copied().collect::<Vec<_>>()
                );
            }
        }
    }

    #[test]
    fn a_gauntlets_game_count_is_that_of_the_games_seating_its_bot() {
        let names: Vec<String> = (0..6).map(|i| format!("bot{i}")).collect();
        for pairing in [
            Pairing::HeadToHead,
            Pairing::Combinations {
                size: 4,
                rotate: true,
            },
            Pairing::Combinations {
                size: 3,
                rotate: false,
            },
            Pairing::FreeForAll,
        ] {
            let schedule = Schedule::new(pairing, &names, 3, 1);
            for bot in 0..names.len() {
                let seating = schedule
                    .fixtures()
                    .filter(|fixture| fixture.seats.contains(&bot))
                    .count() as u64;
                assert_eq!(
                    games_of_one(pairing, names.len(), 3),
                    seating,
                    "{pairing:?}"
                );
            }
        }
    }

    #[test]
    fn head_to_head_rounds_play_every_pair_then_every_pair_swapped() {
        assert_eq!(
            seats(Pairing::HeadToHead, 3, 2),
            [
                vec![0, 1],
                vec![0, 2],
                vec![1, 2],
                vec![1, 0],
                vec![2, 0],
                vec![2, 1]
            ]
        );
        let names = names(3);
        let rounds: Vec<u32> = Schedule::new(Pairing::HeadToHead, &names, 2, 7)
            .fixtures()
            .map(|f| f.round)
            .collect();
        assert_eq!(rounds, [0, 0, 0, 1, 1, 1]);
        assert_eq!(fixture_count(Pairing::HeadToHead, 3, 2), 6);
    }

    #[test]
    fn combination_rounds_come_in_lexicographic_order_with_optional_rotations() {
        let plain = Pairing::Combinations {
            size: 4,
            rotate: false,
        };
        assert_eq!(
            seats(plain, 5, 1),
            [
                vec![0, 1, 2, 3],
                vec![0, 1, 2, 4],
                vec![0, 1, 3, 4],
                vec![0, 2, 3, 4],
                vec![1, 2, 3, 4]
            ]
        );
        let rotated = Pairing::Combinations {
            size: 4,
            rotate: true,
        };
        let one_round = [
            vec![0, 1, 2, 3],
            vec![1, 2, 3, 0],
            vec![2, 3, 0, 1],
            vec![3, 0, 1, 2],
        ];
        assert_eq!(
            seats(rotated, 4, 2),
            [one_round.clone(), one_round].concat()
        );
        assert_eq!(fixture_count(rotated, 7, 1), 35 * 4);
        assert_eq!(seats(rotated, 7, 1).len(), 35 * 4);
        assert!(seats(plain, 3, 1).is_empty());
    }

    #[test]
    fn free_for_all_seats_everybody_in_list_order() {
        let all = seats(Pairing::FreeForAll, 3, 2);
        assert_eq!(all, [vec![0, 1, 2], vec![0, 1, 2]]);
        assert!(seats(Pairing::FreeForAll, 0, 2).is_empty());
    }

    #[test]
    fn a_stopped_run_has_given_every_bot_nearly_the_same_number_of_games() {
        for (pairing, bots) in [
            (Pairing::HeadToHead, 7),
            (
                Pairing::Combinations {
                    size: 4,
                    rotate: true,
                },
                6,
            ),
        ] {
            let names = names(bots);
            let schedule = Schedule::new(pairing, &names, 10, 1);
            let per_round = fixture_count(pairing, bots, 1) as usize;
            let per_bot_per_round = per_round * pairing.min_bots() / bots;
            let mut games = vec![0usize; bots];
            for fixture in schedule.fixtures() {
                for &bot in &fixture.seats {
                    games[bot] += 1;
                }
                let (least, most) = (games.iter().min(), games.iter().max());
                let spread = most.unwrap() - least.unwrap();
                assert!(
                    spread <= per_bot_per_round,
                    "{pairing:?} after game {}",
                    fixture.index
                );
            }
        }
    }

    #[test]
    fn seeds_follow_the_games_identity_not_its_number() {
        let three = names(3);
        let mut four = three.clone();
        four.insert(1, "newcomer".into());
        let seed_of = |names: &[String]| {
            Schedule::new(Pairing::HeadToHead, names, 4, 42)
                .fixtures()
                .map(|f| {
                    let seated: Vec<String> = f.seats.iter().map(|&b| names[b].clone()).collect();
                    ((seated, f.round), f.seed)
                })
                .collect::<std::collections::BTreeMap<_, _>>()
        };
        let before = seed_of(&three);
        let after = seed_of(&four);
        for (identity, seed) in &before {
            assert_eq!(after.get(identity), Some(seed), "{identity:?}");
        }
        let distinct: std::collections::BTreeSet<_> = after.values().collect();
        assert_eq!(distinct.len(), after.len());
        assert_ne!(game_seed(42, &["a", "b"], 0), game_seed(43, &["a", "b"], 0));
        assert_ne!(game_seed(42, &["a", "b"], 0), game_seed(42, &["b", "a"], 0));
        assert_ne!(
            game_seed(42, &["ab", "c"], 0),
            game_seed(42, &["a", "bc"], 0)
        );
    }

    #[test]
    fn fixture_is_the_iterations_fixture_and_none_past_the_end() {
        let names = names(9);
        for pairing in [
            Pairing::HeadToHead,
            Pairing::Combinations {
                size: 3,
                rotate: true,
            },
            Pairing::FreeForAll,
        ] {
            let schedule = Schedule::new(pairing, &names, 3, 11);
            let all: Vec<_> = schedule.fixtures().collect();
            assert_eq!(all.len() as u64, schedule.len());
            for (index, fixture) in all.iter().enumerate() {
                assert_eq!(fixture.index, index as u64);
            }
            assert_eq!(schedule.fixture(schedule.len()), None);
        }
    }

    #[test]
    fn counts_of_huge_fields_saturate_and_large_ones_are_exact() {
        assert_eq!(binomial(10_000, 4), 416_416_712_497_500);
        assert_eq!(binomial(1 << 40, 4), u64::MAX);
        assert_eq!(
            fixture_count(Pairing::HeadToHead, 1 << 33, u32::MAX),
            u64::MAX
        );
        let names = names(10_000);
        let schedule = Schedule::new(Pairing::HeadToHead, &names, 2, 0);
        let last = schedule.fixture(99_989_999).unwrap();
        assert_eq!(
            (last.seats.as_slice(), last.round),
            ([9_999, 9_998].as_slice(), 1)
        );
    }

    #[test]
    fn the_seed_function_is_pinned() {
        // Golden values: changing them changes every tournament's results.
        assert_eq!(mix(0), 0xE220_A839_7B1D_CDAF);
        // FNV-1a of the four bytes of round 0, and a seed, both computed outside Rust.
        assert_eq!(game_seed(1, &[], 0), mix(mix(1) ^ 0x4D25_767F_9DCE_13F5));
        assert_eq!(
            game_seed(2014, &["grower", "hunter"], 0),
            0xBF3E_CAA0_4517_BA88
        );
    }
}
