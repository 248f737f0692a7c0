//! The tournament options of Easter Egg Hunt: sizing for fewer than seven entries, and a
//! fixed map instead of generated boards.
//!
//! A map file is read by the tournament loader, which hands its text to
//! [`Settings::use_data_file`]: nothing under `games/` touches files, and every problem with the
//! map is reported with the other configuration errors before any game starts.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;

use crate::declaration::{Bounds, Pairing, Settings};

use super::board::Board;

/// The fewest entries the generator is meant for (games/eggs.md, "The board").
pub const MIN_ENTRIES: usize = 7;

/// How an Easter Egg Hunt is played.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EggsOptions {
    /// Size the board, walls, eggs and turn limit as if there were at least 7 entries
    /// (games/eggs.md, "The board"), so fewer entries can play; default false: fewer than 7
    /// is an error.
    pub size_as_seven: bool,
    /// A map file in the original format, relative to the tournament file: every run is
    /// played on it, with new random start squares, instead of on a generated board.
    pub map: Option<PathBuf>,
    /// The parsed map, filled in by [`Settings::use_data_file`].
    #[serde(skip)]
    pub fixed_map: Option<Arc<Board>>,
}

impl Settings for EggsOptions {
    fn pairing(&self) -> Pairing {
        Pairing::FreeForAll
    }

    /// The fewest entries these options can play with: 7 for generated boards unless
    /// `size_as_seven`; one for a fixed map, whose size does not depend on them
    /// (games/eggs.md, "The board").
    fn min_bots(&self) -> usize {
        if self.map.is_some() || self.size_as_seven {
            1
        } else {
            MIN_ENTRIES
        }
    }

    fn data_file_option(&self) -> Option<&'static str> {
        Some("map")
    }

    fn fewer_bots(&self) -> Option<(&'static str, &'static str)> {
        Some(("size_as_seven", "true"))
    }

    /// Checks the text of the map file named by `map` (read by the tournament loader, which
    /// passes its `path` for messages); `entries` players must find distinct start squares on
    /// it. Returns the problems found; on none the map is kept for every run.
    fn data_file(&self) -> Option<&Path> {
        self.map.as_deref()
    }

    fn use_data_file(&mut self, path: &Path, text: &str, entries: usize) -> Vec<String> {
        let board = match Board::parse(text) {
            Ok(board) => board,
            Err(why) => return vec![format!("map {}: {why}", path.display())],
        };
        match board.start_cells() {
            None => vec![format!(
                "map {}: it needs at least one egg, and every egg must be reachable from \
                 every other (8 directions, walls block)",
                path.display()
            )],
            Some(starts) if starts.len() < entries => vec![format!(
                "map {}: {} free squares can reach the eggs, too few for {entries} entries",
                path.display(),
                starts.len()
            )],
            Some(_) => {
                self.fixed_map = Some(Arc::new(board));
                Vec::new()
            }
        }
    }

    /// A score is the eggs a seat collected: at most all the eggs of the board, `4n` on a
    /// generated one (games/eggs.md, "The board"), those of the map on a map. A map not
    /// loaded yet bounds nothing.
    fn bounds(&self, seats: usize) -> Bounds {
        let eggs = match (&self.map, &self.fixed_map) {
            (None, _) => 4 * self.size(seats),
            (Some(_), Some(map)) => map.eggs(),
            (Some(_), None) => return Bounds::up_to(i64::MAX),
        };
        Bounds::up_to(i64::try_from(eggs).unwrap_or(i64::MAX))
    }
}

impl EggsOptions {
    /// The `n` that sizes the board, the eggs and the turn limit for `entries` players.
    pub fn size(&self, entries: usize) -> usize {
        if self.size_as_seven {
            entries.max(MIN_ENTRIES)
        } else {
            entries
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_deserialize_with_defaults_and_reject_unknown_fields() {
        let parsed: EggsOptions = toml::from_str("size_as_seven = true").unwrap();
        assert!(parsed.size_as_seven);
        assert_eq!(parsed.map, None);
        let parsed: EggsOptions = toml::from_str("map = \"maps/a.txt\"").unwrap();
        assert_eq!(parsed.map, Some(PathBuf::from("maps/a.txt")));
        assert!(toml::from_str::<EggsOptions>("fixed_map = 1").is_err());
        assert!(toml::from_str::<EggsOptions>("size = 7").is_err());
    }

    #[test]
    fn seven_entries_are_needed_unless_sized_as_seven_or_on_a_map() {
        let default = EggsOptions::default();
        assert_eq!(default.min_bots(), 7);
        assert_eq!((default.size(7), default.size(9)), (7, 9));
        let small = EggsOptions {
            size_as_seven: true,
            ..EggsOptions::default()
        };
        assert_eq!(small.min_bots(), 1);
        assert_eq!((small.size(3), small.size(9)), (7, 9));
        let map = EggsOptions {
            map: Some("m.txt".into()),
            ..EggsOptions::default()
        };
        assert_eq!(map.min_bots(), 1);
        assert_eq!(map.size(3), 3);
    }

    #[test]
    fn a_score_is_at_most_the_eggs_of_the_board() {
        let seven = EggsOptions {
            size_as_seven: true,
            ..EggsOptions::default()
        };
        let eggs = |size| super::super::board::generate(&mut crate::seeded::rng(3), size, 3).0;
        assert_eq!(seven.bounds(3).max_score, eggs(7).eggs() as i64);
        assert_eq!(EggsOptions::default().bounds(9).max_score, 36);
        let mut map = EggsOptions {
            map: Some("m.txt".into()),
            ..EggsOptions::default()
        };
        assert_eq!(map.bounds(2).max_score, i64::MAX, "not loaded yet");
        let text = "#####\n#o  #\n#  o#\n#####\n";
        assert!(map.use_data_file(Path::new("m.txt"), text, 2).is_empty());
        assert_eq!(map.bounds(2), Bounds::up_to(2));
    }

    #[test]
    fn map_texts_are_checked_against_the_entries() {
        let load = |text: &str, entries| {
            let mut options = EggsOptions {
                map: Some("m.txt".into()),
                ..EggsOptions::default()
            };
            let problems = options.use_data_file(Path::new("m.txt"), text, entries);
            (options.fixed_map.is_some(), problems)
        };
        let good = "#####\n#o  #\n#  o#\n#####\n";
        assert_eq!(load(good, 4), (true, Vec::<String>::new()));
        let (loaded, problems) = load(good, 5);
        assert!(!loaded);
        assert!(problems[0].ends_with("4 free squares can reach the eggs, too few for 5 entries"));
        assert!(load("#####\n#o#o#\n#####\n", 1).1[0].contains("every egg must be reachable"));
        assert!(load("#####\n#o #\n#####\n", 1).1[0].contains("line 2 has 4 characters"));
    }
}
