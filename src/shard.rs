//! Shards: one tournament split over several machines. Shard `I/N` plays the games whose
//! index `g` has `g % N == I - 1`, with the same seeds as a whole run (seeds depend only on
//! the master seed and the index). Interleaving rather than contiguous blocks spreads every
//! pairing, and so the slow bots, evenly over the shards.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::text::plural;

/// Shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 1 to `count`.
    pub index: u32,
    /// How many shards the tournament is split into.
    pub count: u32,
}

impl Shard {
    /// Whether game `game` (its tournament index) belongs to this shard.
    pub fn contains(self, game: u64) -> bool {
        game % u64::from(self.count) == u64::from(self.index - 1)
    }

    /// How many of `total` games this shard plays.
    pub fn games(self, total: u64) -> u64 {
        let (count, offset) = (u64::from(self.count), u64::from(self.index - 1));
        total / count + u64::from(offset < total % count)
    }

    /// Why this shard of a tournament of `total` games plays none of them, if so: the split
    /// has more shards than there are games. A warning, not an error: a scheduler's array of
    /// more tasks than games should not fail (a merge waiting on the whole array would never
    /// run), and `arena merge` needs the empty shard's journal as much as any other.
    pub fn without_games(self, total: u64) -> Option<String> {
        (self.games(total) == 0).then(|| {
            format!(
                "shard {self} has no games: the tournament has {}, so at most {} any",
                plural(total, "game", "games"),
                plural(total, "shard has", "shards have")
            )
        })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with `1 <= I <= N`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let usage = || format!("`{text}` is not a shard: write I/N with 1 <= I <= N, e.g. 2/8");
        let (index, count) = text.split_once('/').ok_or_else(usage)?;
        let index: u32 = index.trim().parse().map_err(|_| usage())?;
        let count: u32 = count.trim().parse().map_err(|_| usage())?;
        if index == 0 || index > count {
            return Err(usage());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_print_as_i_of_n() {
        let shard: Shard = "2/8".parse().unwrap();
        assert_eq!(shard, Shard { index: 2, count: 8 });
        assert_eq!(shard.to_string(), "2/8");
        for bad in ["0/3", "4/3", "1", "a/b", "1/0", "-1/3", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn only_a_shard_beyond_the_games_is_without_games() {
        let shard = |text: &str| text.parse::<Shard>().unwrap();
        assert_eq!(
            shard("99/100").without_games(20).as_deref(),
            Some(
                "shard 99/100 has no games: the tournament has 20 games, so at most 20 shards have any"
            )
        );
        assert_eq!(
            shard("2/3").without_games(1).as_deref(),
            Some("shard 2/3 has no games: the tournament has 1 game, so at most 1 shard has any")
        );
        for (text, total) in [("20/100", 20), ("1/1", 1), ("3/3", 3)] {
            assert_eq!(shard(text).without_games(total), None, "{text} of {total}");
        }
    }

    #[test]
    fn the_shards_of_a_split_cover_every_game_exactly_once() {
        for count in 1..6 {
            for total in 0..20 {
                let shards: Vec<Shard> = (1..=count).map(|index| Shard { index, count }).collect();
                for game in 0..total {
                    let owners = shards.iter().filter(|s| s.contains(game)).count();
                    assert_eq!(owners, 1, "game {game} of {total} in {count} shards");
                }
                for shard in &shards {
                    let counted = (0..total).filter(|&g| shard.contains(g)).count() as u64;
                    assert_eq!(shard.games(total), counted, "{shard} of {total}");
                }
            }
        }
    }
}
