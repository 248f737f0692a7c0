//! Joins the journals of a sharded run (`arena run --shard I/N`) into the journal of the
//! whole tournament. Refuses anything but one complete journal per shard of one tournament:
//! a duplicate, overlapping, missing or unfinished shard is an error, never a silent gap, and
//! so are shards that played another version of a bot (see [`BotVersions`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::journal::JOURNAL_FILE;
use crate::journal::{BotVersions, Header, Journal, JournalError};
use crate::shard::Shard;

/// Why journals cannot be merged.
#[derive(Debug, Error)]
pub enum MergeError {
    /// A journal could not be read.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The journals are not the complete shards of one tournament.
    #[error("cannot merge the shards:\n{}", problems.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"))]
    Shards {
        /// Every problem found, each a sentence.
        problems: Vec<String>,
    },
}

/// The journal in `path`: the file itself, or `journal.jsonl` in a results folder.
pub fn journal_path(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join(JOURNAL_FILE)
    } else {
        path.to_path_buf()
    }
}

/// Reads the journals at `paths` (files or results folders) and merges them.
pub fn merge_paths(paths: &[PathBuf]) -> Result<Journal, MergeError> {
    let journals = paths
        .iter()
        .map(|path| {
            let path = journal_path(path);
            Journal::read(&path).map(|journal| (path, journal))
        })
        .collect::<Result<Vec<_>, _>>()?;
    merge(&journals)
}

/// Merges the journals of every shard of one tournament into one journal of all its games,
/// with the header of an unsharded run. `journals` name their files for the messages.
pub fn merge(journals: &[(PathBuf, Journal)]) -> Result<Journal, MergeError> {
    let fail = |problems| Err(MergeError::Shards { problems });
    let Some((first_path, first)) = journals.first() else {
        return fail(vec!["no journals given".into()]);
    };
    let whole = |header: &Header| Header {
        shard: None,
        ..header.clone()
    };
    let mut problems = Vec::new();
    let mut by_shard: BTreeMap<u32, Vec<&Path>> = BTreeMap::new();
    for (path, journal) in journals {
        let here = path.display();
        let there = format!("in {}", first_path.display());
        if let Some(why) =
            whole(&journal.header).differs_from(&whole(&first.header), "here", &there)
        {
            problems.push(format!(
                "{here} is another tournament than {}: {why}",
                first_path.display()
            ));
            continue;
        }
        let Some(shard) = journal.header.shard else {
            problems.push(format!("{here} is a whole run, not a shard"));
            continue;
        };
        let count = first.header.shard.map_or(shard.count, |s| s.count);
        if shard.count != count {
            problems.push(format!(
                "{here} is shard {shard}, but the first journal splits the tournament in {count}"
            ));
            continue;
        }
        by_shard.entry(shard.index).or_default().push(path);
        let stray: Vec<u64> = journal
            .games
            .iter()
            .map(|game| game.index)
            .filter(|&index| !shard.contains(index) || index >= journal.header.total_games)
            .collect();
        if !stray.is_empty() {
            problems.push(format!(
                "{here} (shard {shard}) holds games of other shards: {}",
                list(&stray)
            ));
        }
        let expected = shard.games(journal.header.total_games);
        let played = journal.games.len() as u64;
        if played < expected {
            problems.push(format!(
                "{here} (shard {shard}) has {played} of its {expected} games: finish it with \
                 `arena run FILE --shard {shard} --resume DIR`"
            ));
        }
    }
    if let Some(count) = first.header.shard.map(|s| s.count) {
        for (index, paths) in &by_shard {
            if let [_, _, ..] = paths.as_slice() {
                problems.push(format!(
                    "shard {} is given {} times: {}",
                    Shard {
                        index: *index,
                        count
                    },
                    paths.len(),
                    names(paths)
                ));
            }
        }
        problems.extend(missing_shards(count, &by_shard));
    }
    problems.extend(mixed_versions(journals));
    if !problems.is_empty() {
        return fail(problems);
    }
    let mut games: Vec<_> = journals
        .iter()
        .flat_map(|(_, journal)| journal.games.iter().cloned())
        .collect();
    games.sort_by_key(|game| game.index);
    Ok(Journal {
        header: whole(&first.header),
        games,
    })
}

/// The shards of a split in `count` that `given` lacks, as a sentence naming the first few.
/// A header may claim any count (up to `u32::MAX`): only the given shards and the few
/// missing ones shown are visited.
fn missing_shards<T>(count: u32, given: &BTreeMap<u32, T>) -> Option<String> {
    let missing_count = count as usize - given.len();
    let first: Vec<String> = (1..=count)
        .filter(|index| !given.contains_key(index))
        .take(SHOWN)
        .map(|index| Shard { index, count }.to_string())
        .collect();
    match missing_count {
        0 => None,
        1 => Some(format!("shard {} is missing", first[0])),
        _ => Some(format!(
            "shards {} are missing",
            shown_of(&first, missing_count - first.len())
        )),
    }
}

/// One problem per bot whose games in `journals` record more than one digest: a bot whose
/// files or settings changed between the shards, which would join the games of two versions
/// of it into one leaderboard.
fn mixed_versions(journals: &[(PathBuf, Journal)]) -> Vec<String> {
    let mut by_bot: BTreeMap<String, BTreeMap<String, Vec<&Path>>> = BTreeMap::new();
    for (path, journal) in journals {
        let mut versions = BotVersions::default();
        journal.games.iter().for_each(|game| versions.note(game));
        for (bot, digests) in versions.iter() {
            let by_digest = by_bot.entry(bot.to_owned()).or_default();
            for digest in digests {
                by_digest.entry(digest.clone()).or_default().push(path);
            }
        }
    }
    by_bot
        .into_iter()
        .filter(|(_, by_digest)| by_digest.len() > 1)
        .map(|(bot, by_digest)| {
            let versions: Vec<String> = (by_digest.iter())
                .map(|(digest, paths)| format!("digest {digest} ({})", names(paths)))
                .collect();
            format!(
                "bot `{}` is not the same in every shard: {} (a file under its `dir`, or its \
                 command, environment, limits or sandbox changed between them); play again, \
                 with the bot as it is now, the shards that played another version of it \
                 (`arena run FILE --shard I/N --reuse DIR --out NEW` keeps the games of the \
                 bots that did not change)",
                bot.escape_debug(),
                versions.join("; ")
            )
        })
        .collect()
}

/// Paths for a message: `a, b`.
fn names(paths: &[&Path]) -> String {
    (paths.iter())
        .map(|path| path.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// How many numbers or names a message lists before it says how many more there are.
const SHOWN: usize = 8;

/// Game numbers for a message, the first few only.
fn list(indexes: &[u64]) -> String {
    let shown: Vec<String> = indexes.iter().take(SHOWN).map(u64::to_string).collect();
    shown_of(&shown, indexes.len() - shown.len())
}

/// `shown` joined, and how many `more` there are if any.
fn shown_of(shown: &[String], more: usize) -> String {
    if more == 0 {
        shown.join(", ")
    } else {
        format!("{} and {more} more", shown.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::{GameRecord, SeatRecord};

    fn journal(shard: Option<(u32, u32)>, games: &[u64]) -> Journal {
        Journal {
            header: Header {
                shard: shard.map(|(index, count)| Shard { index, count }),
                ..Header::new("slime", 1, 1, vec!["a".into()], 5, "d".into())
            },
            games: games
                .iter()
                .map(|&index| GameRecord {
                    index,
                    seed: index,
                    summary: String::new(),
                    duration_ms: 0,
                    seats: Vec::new(),
                })
                .collect(),
        }
    }

    fn problems(journals: Vec<Journal>) -> Vec<String> {
        let named: Vec<(PathBuf, Journal)> = journals
            .into_iter()
            .enumerate()
            .map(|(n, j)| (PathBuf::from(format!("j{n}")), j))
            .collect();
        match merge(&named) {
            Ok(_) => Vec::new(),
            Err(MergeError::Shards { problems }) => problems,
            Err(other) => panic!("{other}"),
        }
    }

    #[test]
    fn complete_shards_merge_into_one_unsharded_journal_in_index_order() {
        let named = vec![
            (PathBuf::from("b"), journal(Some((2, 2)), &[3, 1])),
            (PathBuf::from("a"), journal(Some((1, 2)), &[0, 2, 4])),
        ];
        let merged = merge(&named).unwrap();
        assert_eq!(merged.header.shard, None);
        let indexes: Vec<u64> = merged.games.iter().map(|g| g.index).collect();
        assert_eq!(indexes, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn duplicate_missing_unfinished_and_foreign_shards_are_each_reported() {
        let duplicate = problems(vec![
            journal(Some((1, 2)), &[0, 2, 4]),
            journal(Some((1, 2)), &[0, 2, 4]),
        ]);
        assert_eq!(
            duplicate,
            ["shard 1/2 is given 2 times: j0, j1", "shard 2/2 is missing"]
        );
        let unfinished = problems(vec![
            journal(Some((1, 2)), &[0, 4]),
            journal(Some((2, 2)), &[1, 3]),
        ]);
        assert_eq!(unfinished.len(), 1);
        assert!(
            unfinished[0].starts_with("j0 (shard 1/2) has 2 of its 3 games"),
            "{unfinished:?}"
        );
        let overlapping = problems(vec![
            journal(Some((1, 2)), &[0, 2, 4, 1]),
            journal(Some((2, 2)), &[1, 3]),
        ]);
        assert_eq!(
            overlapping,
            ["j0 (shard 1/2) holds games of other shards: 1"]
        );
        let mut other = journal(Some((2, 2)), &[1, 3]);
        other.header.config_digest = "e".into();
        other.header.games = 7;
        let foreign = problems(vec![journal(Some((1, 2)), &[0, 2, 4]), other]);
        assert_eq!(foreign.len(), 2, "{foreign:?}");
        assert!(
            foreign[0].contains("j1 is another tournament than j0: `games` is 7 here but 1 in j0"),
            "{foreign:?}"
        );
        let split = problems(vec![
            journal(Some((1, 2)), &[0, 2, 4]),
            journal(Some((2, 3)), &[1, 4]),
        ]);
        assert!(split[0].contains("splits the tournament in 2"), "{split:?}");
        assert_eq!(
            problems(vec![journal(None, &[0, 1, 2, 3, 4])]),
            ["j0 is a whole run, not a shard"]
        );
    }

    #[test]
    fn shards_of_two_versions_of_a_bot_are_refused() {
        let versioned = |shard, games: &[u64], digest: &str| {
            let mut journal = journal(Some((shard, 2)), games);
            for game in &mut journal.games {
                game.seats = vec![SeatRecord {
                    requests: 1,
                    digest: Some(digest.to_owned()),
                    ..SeatRecord::new("a", 0)
                }];
            }
            journal
        };
        let same = [versioned(1, &[0, 2, 4], "d1"), versioned(2, &[1, 3], "d1")];
        assert!(problems(same.to_vec()).is_empty());
        let mut mixed = versioned(2, &[1, 3], "d1");
        mixed.games[1].seats[0].digest = Some("d2".into());
        let changed = problems(vec![versioned(1, &[0, 2, 4], "d1"), mixed]);
        assert_eq!(changed.len(), 1, "{changed:?}");
        assert!(
            changed[0].starts_with("bot `a` is not the same in every shard: digest d1 (j0, j1); digest d2 (j1) (a file under its `dir`"),
            "{changed:?}"
        );
    }

    #[test]
    fn missing_shards_are_counted_not_listed_whatever_count_a_header_claims() {
        let few = problems(vec![journal(Some((3, 4)), &[2])]);
        assert_eq!(few, ["shards 1/4, 2/4, 4/4 are missing"]);
        let count = u32::MAX;
        let many = problems(vec![journal(Some((2, count)), &[1])]);
        let shown: Vec<String> = [1, 3, 4, 5, 6, 7, 8, 9]
            .map(|index| format!("{index}/{count}"))
            .into();
        let expected = format!(
            "shards {} and {} more are missing",
            shown.join(", "),
            count - 9
        );
        assert_eq!(many, [expected]);
    }
}
