//! The versions of its bots a journal's games were played with. Each bot seat records the
//! digest of what decided its bot's play (see [`crate::reuse::bot_digests`]); a run computes
//! the digests once and plays every game with that version of each bot, so the games of one
//! tournament record one digest per bot. A resume or a merge that would join games of two
//! versions of a bot into one leaderboard is refused with the bots named, and a reuse says
//! which bots' games it plays again because they changed.

use std::collections::{BTreeMap, BTreeSet};

use super::GameRecord;

/// The digests each bot's games record, by bot name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BotVersions {
    digests: BTreeMap<String, BTreeSet<String>>,
}

impl BotVersions {
    /// Notes the digests of `game`'s bot seats. A seat without one (a journal older than
    /// digests, a built-in player) tells nothing.
    pub fn note(&mut self, game: &GameRecord) {
        for seat in game.seats.iter().filter(|seat| !seat.built_in) {
            if let Some(digest) = &seat.digest {
                self.digests
                    .entry(seat.bot.clone())
                    .or_default()
                    .insert(digest.clone());
            }
        }
    }

    /// Each bot noted, with the digests its games record.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &BTreeSet<String>)> {
        self.digests
            .iter()
            .map(|(bot, digests)| (bot.as_str(), digests))
    }

    /// The bots some of whose games record another digest than `current` (digests by bot
    /// name) gives them, with the digests of theirs that differ: games that are not of the
    /// bots a run with `current` plays.
    pub fn differing<'a>(
        &'a self,
        current: &'a BTreeMap<String, String>,
    ) -> impl Iterator<Item = (&'a str, Vec<&'a str>)> {
        self.iter().filter_map(|(bot, digests)| {
            let now = current.get(bot)?;
            let other: Vec<&str> = (digests.iter())
                .map(String::as_str)
                .filter(|digest| digest != now)
                .collect();
            (!other.is_empty()).then_some((bot, other))
        })
    }

    /// The bots none of whose games records the digest `current` gives them: bots changed
    /// since every game noted, none of which a run with `current` can reuse.
    pub fn changed<'a>(
        &'a self,
        current: &'a BTreeMap<String, String>,
    ) -> impl Iterator<Item = &'a str> {
        self.iter()
            .filter(|(bot, digests)| current.get(*bot).is_some_and(|now| !digests.contains(now)))
            .map(|(bot, _)| bot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::SeatRecord;

    fn game(seats: &[(&str, Option<&str>)]) -> GameRecord {
        GameRecord {
            index: 0,
            seed: 0,
            summary: String::new(),
            duration_ms: 0,
            seats: seats
                .iter()
                .map(|&(bot, digest)| SeatRecord {
                    digest: digest.map(str::to_owned),
                    ..SeatRecord::new(bot, 0)
                })
                .collect(),
        }
    }

    #[test]
    fn bots_of_another_version_are_told_from_bots_of_this_one() {
        let mut versions = BotVersions::default();
        versions.note(&game(&[("a", Some("1")), ("b", Some("7"))]));
        versions.note(&game(&[("a", Some("2")), ("c", None)]));
        let current = BTreeMap::from([
            ("a".to_owned(), "2".to_owned()),
            ("b".to_owned(), "8".to_owned()),
            ("c".to_owned(), "9".to_owned()),
        ]);
        let differing: Vec<_> = versions.differing(&current).collect();
        assert_eq!(differing, [("a", vec!["1"]), ("b", vec!["7"])]);
        // `a` has games of its current version, which a reuse can keep.
        assert_eq!(versions.changed(&current).collect::<Vec<_>>(), ["b"]);
    }
}
