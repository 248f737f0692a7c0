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
/// Head-to-head: each pair `(i, j)` with `i < j`, in lexicographic order, plays `games`
/// games; in game `g` of the pair, bot `i` takes the first seat when `g` is even.
pub fn fixtures(
    format: Format,
    bots: usize,
    games: u32,
    master_seed: u64,
) -> impl Iterator<Item = Fixture> {
    let pairs = match format {
        Format::HeadToHead => (0..bots).flat_map(move |i| (i + 1..bots).map(move |j| (i, j))),
    };
    pairs
        .flat_map(move |(i, j)| {
            (0..games).map(move |g| if g % 2 == 0 { vec![i, j] } else { vec![j, i] })
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
    match format {
        Format::HeadToHead => (bots * bots.saturating_sub(1) / 2) as u64 * u64::from(games),
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
