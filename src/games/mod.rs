//! The games `arena` can run: a closed set, so an enum rather than a registry of trait objects.
//! Each game is a pure engine (see [`crate::engine`]) with its own options type; this module
//! maps a game's name to its engine, its options and its tournament shape.

pub mod alienwar;
pub mod cave;
mod decimal;
pub mod eggs;
pub mod petri;
pub mod seeded;
pub mod slime;

use std::fmt;
use std::path::Path;

use serde::de::DeserializeOwned;

use crate::bots::JavaHost;
use crate::check::Plan;
use crate::engine::{Answer, Game, Rejection, Step};
use crate::replay::Snapshot;

/// A game's name, as written in a tournament file (`game = "petri"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum GameKind {
    /// Survival Game - AlienWar.
    AlienWar,
    /// Cave Rangers - Exploring the Darkness.
    Cave,
    /// Easter Egg Hunt on the Hill.
    Eggs,
    /// Battle for the Petri Dish.
    Petri,
    /// Slime: The Territory War.
    Slime,
}

impl GameKind {
    /// Every game, in the order they are listed to users.
    pub const ALL: &[GameKind] = &[
        GameKind::AlienWar,
        GameKind::Cave,
        GameKind::Eggs,
        GameKind::Petri,
        GameKind::Slime,
    ];

    /// The name used in tournament files, journals and `ARENA_GAME`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::AlienWar => "alienwar",
            GameKind::Cave => "cave",
            GameKind::Eggs => "eggs",
            GameKind::Petri => "petri",
            GameKind::Slime => "slime",
        }
    }

    /// Looks a game up by its name.
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL
            .iter()
            .copied()
            .find(|kind| kind.name() == name)
    }

    /// How results are summed up into a leaderboard.
    pub fn scoring(self) -> Scoring {
        match self {
            GameKind::AlienWar | GameKind::Cave | GameKind::Eggs => Scoring::Mean,
            GameKind::Petri => Scoring::Wins,
            GameKind::Slime => Scoring::Mean,
        }
    }

    /// `arena check`'s probes: prepared positions with the game's verdict on a reply, given
    /// the answers to the probes sent so far (each game's `probes.rs`).
    pub fn probes(self, answers: &[Answer]) -> Plan {
        match self {
            GameKind::AlienWar => alienwar::probes::probes(answers),
            GameKind::Cave => cave::probes::probes(answers),
            GameKind::Eggs => eggs::probes::probes(answers),
            GameKind::Petri => petri::probes::probes(answers),
            GameKind::Slime => slime::probes::probes(answers),
        }
    }

    /// The original challenge's number of games (per pairing, or runs).
    pub fn default_games(self) -> u32 {
        match self {
            GameKind::AlienWar | GameKind::Eggs => 10,
            GameKind::Cave => 4,
            GameKind::Petri => 100,
            // The original played each combination once: its engine has no randomness.
            GameKind::Slime => 1,
        }
    }

    /// The Java host that runs the original challenge's Java bots, for games whose
    /// originals were Java classes rather than programs (a bot's `java` sources).
    pub fn java_host(self) -> Option<&'static JavaHost> {
        match self {
            GameKind::AlienWar => Some(&alienwar::JAVA_HOST),
            GameKind::Cave | GameKind::Eggs | GameKind::Petri | GameKind::Slime => None,
        }
    }

    /// The game's own default time for one request, where its specification sets one
    /// (Cave Rangers: 2 s, R23); `None` for the runner's default.
    pub fn default_timeout_ms(self) -> Option<u64> {
        match self {
            GameKind::Cave => Some(2_000),
            GameKind::AlienWar | GameKind::Eggs | GameKind::Petri | GameKind::Slime => None,
        }
    }

    /// Whether each bot gets one private working folder for the whole tournament, kept across
    /// turns and games, as its current directory (Cave Rangers' 1 KB file store, R24). Such
    /// games run one at a time, so a folder carries state from game to game in index order
    /// and results do not depend on `jobs`.
    pub fn private_folders(self) -> bool {
        self == GameKind::Cave
    }

    /// The names of the players built into the engine ([`crate::engine::HouseSeat`]), whatever
    /// the options.
    pub fn house_names(self) -> Vec<&'static str> {
        match self {
            GameKind::AlienWar => alienwar::house_names(),
            GameKind::Cave | GameKind::Eggs | GameKind::Petri | GameKind::Slime => Vec::new(),
        }
    }

    /// Every schedule the game's options can give (see [`GameOptions::format`]): a journal,
    /// which names the game but not its options, is checked against the one that has its
    /// number of games.
    pub fn formats(self) -> &'static [Format] {
        match self {
            GameKind::AlienWar | GameKind::Cave | GameKind::Eggs => &[Format::FreeForAll],
            GameKind::Petri => &[Format::HeadToHead],
            GameKind::Slime => &[
                Format::Combinations {
                    size: 4,
                    rotate: true,
                },
                Format::Combinations {
                    size: 4,
                    rotate: false,
                },
            ],
        }
    }

    /// The game's figures beyond the score ([`crate::engine::SeatOutcome::stats`]) that the
    /// leaderboard shows, in display order, with how each adds up over a bot's games.
    pub fn stat_columns(self) -> &'static [StatColumn] {
        match self {
            GameKind::Cave => &[
                StatColumn {
                    name: "gold",
                    stat: "gold",
                    aggregate: Aggregate::Mean,
                },
                StatColumn {
                    name: "turns",
                    stat: "turns",
                    aggregate: Aggregate::Mean,
                },
                StatColumn {
                    name: "deaths",
                    stat: "died",
                    aggregate: Aggregate::Total,
                },
            ],
            GameKind::AlienWar | GameKind::Eggs | GameKind::Petri | GameKind::Slime => &[],
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An extra leaderboard column made from one named per-game figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatColumn {
    /// The column's name (also its key in a standing's `stats`).
    pub name: &'static str,
    /// The key in [`crate::engine::SeatOutcome::stats`] it is made from.
    pub stat: &'static str,
    /// How a bot's per-game values add up.
    pub aggregate: Aggregate,
}

/// How a per-game figure adds up over a bot's games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregate {
    /// The mean over the games played (a game without the figure counts as 0).
    Mean,
    /// The sum over the games played.
    Total,
}

/// Who plays whom in a tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Every pair of bots plays `games` games, each side first in half of them.
    HeadToHead,
    /// Every combination of `size` bots plays `games` games with seats in list order, or,
    /// with `rotate`, in each of the `size` rotations of that order.
    Combinations {
        /// Bots per game.
        size: usize,
        /// Whether each combination is also played in every seat rotation.
        rotate: bool,
    },
    /// Every bot plays in every game, seats in list order; `games` games.
    FreeForAll,
}

impl Format {
    /// The smallest number of bots the format can schedule.
    pub fn min_bots(self) -> usize {
        match self {
            Format::HeadToHead => 2,
            Format::Combinations { size, .. } => size,
            Format::FreeForAll => 1,
        }
    }
}

/// How a leaderboard is computed from game outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scoring {
    /// Total wins over all games; draws count for nobody. Head-to-head games only.
    Wins,
    /// The mean of a bot's per-game scores.
    Mean,
}

impl Scoring {
    /// The number a bot is ranked by, from the sum of its per-game scores over `games`.
    pub fn ranking_score(self, total: i64, games: u32) -> f64 {
        match self {
            Scoring::Wins => total as f64,
            Scoring::Mean if games == 0 => 0.0,
            Scoring::Mean => total as f64 / f64::from(games),
        }
    }
}

/// A game's validated options (the tournament file's `[options]` table).
#[derive(Debug, Clone, PartialEq)]
pub enum GameOptions {
    /// Options of AlienWar.
    AlienWar(alienwar::AlienWarOptions),
    /// Options of Cave Rangers.
    Cave(cave::CaveOptions),
    /// Options of Easter Egg Hunt.
    Eggs(eggs::EggsOptions),
    /// Options of Battle for the Petri Dish.
    Petri(petri::PetriOptions),
    /// Options of Slime: The Territory War.
    Slime(slime::SlimeOptions),
}

impl GameOptions {
    /// The game these options belong to.
    pub fn kind(&self) -> GameKind {
        match self {
            GameOptions::AlienWar(_) => GameKind::AlienWar,
            GameOptions::Cave(_) => GameKind::Cave,
            GameOptions::Eggs(_) => GameKind::Eggs,
            GameOptions::Petri(_) => GameKind::Petri,
            GameOptions::Slime(_) => GameKind::Slime,
        }
    }

    /// Who plays whom.
    pub fn format(&self) -> Format {
        match self {
            GameOptions::AlienWar(_) | GameOptions::Cave(_) | GameOptions::Eggs(_) => {
                Format::FreeForAll
            }
            GameOptions::Petri(_) => Format::HeadToHead,
            GameOptions::Slime(options) => Format::Combinations {
                size: 4,
                rotate: options.rotate_seats,
            },
        }
    }

    /// The fewest bots a tournament needs: what the format can schedule, raised by the
    /// game's own limits (Easter Egg Hunt's generator needs 7 unless told otherwise).
    pub fn min_bots(&self) -> usize {
        let game = match self {
            GameOptions::Eggs(options) => options.min_bots(),
            GameOptions::AlienWar(_)
            | GameOptions::Cave(_)
            | GameOptions::Petri(_)
            | GameOptions::Slime(_) => 1,
        };
        self.format().min_bots().max(game)
    }

    /// Problems with the option values (each a sentence); empty if they are fine.
    pub fn validate(&self) -> Vec<String> {
        match self {
            GameOptions::AlienWar(options) => options.validate(),
            GameOptions::Cave(options) => options.validate(),
            GameOptions::Eggs(_) => Vec::new(),
            GameOptions::Petri(options) => options.validate(),
            GameOptions::Slime(options) => options.validate(),
        }
    }

    /// The data file the options name, relative to the tournament file (the Egg Hunt's
    /// `map`). The tournament loader reads it and hands it to [`GameOptions::use_data_file`]:
    /// engines and options never touch files.
    pub fn data_file(&self) -> Option<&Path> {
        match self {
            GameOptions::Eggs(options) => options.map.as_deref(),
            GameOptions::AlienWar(_)
            | GameOptions::Cave(_)
            | GameOptions::Petri(_)
            | GameOptions::Slime(_) => None,
        }
    }

    /// Takes the text of [`GameOptions::data_file`] (read from `path`) and checks it against
    /// the number of entries; returns the problems found.
    pub fn use_data_file(&mut self, path: &Path, text: &str, entries: usize) -> Vec<String> {
        match self {
            GameOptions::Eggs(options) => options.use_map(path, text, entries),
            GameOptions::AlienWar(_)
            | GameOptions::Cave(_)
            | GameOptions::Petri(_)
            | GameOptions::Slime(_) => Vec::new(),
        }
    }

    /// The names of the players built into the engine ([`crate::engine::HouseSeat`]); no bot
    /// may take one.
    pub fn house_names(&self) -> Vec<&'static str> {
        self.kind().house_names()
    }

    /// A fresh engine for one game with these options, its seed and its number of seats.
    pub fn new_game(&self, seed: u64, seats: usize) -> AnyGame {
        match self {
            GameOptions::AlienWar(options) => {
                AnyGame::AlienWar(alienwar::AlienWar::new(options, seed, seats))
            }
            GameOptions::Cave(options) => {
                AnyGame::Cave(Box::new(cave::Cave::new(options, seed, seats)))
            }
            GameOptions::Eggs(options) => AnyGame::Eggs(eggs::Eggs::new(options, seed, seats)),
            GameOptions::Petri(options) => AnyGame::Petri(petri::Petri::new(options)),
            GameOptions::Slime(options) => AnyGame::Slime(slime::Slime::new(options)),
        }
    }
}

/// Deserializes the options of `kind` with `parse`, which is given the options type to use.
/// The tournament loader calls this so that each game's options are parsed by serde with
/// the game's own `deny_unknown_fields` type (and so with exact error locations).
pub trait OptionsParser {
    /// The error of a failed parse.
    type Error;
    /// Parses the options as `T`.
    fn parse<T: DeserializeOwned + Default>(&mut self) -> Result<T, Self::Error>;
}

impl GameKind {
    /// Parses this game's options with `parser`.
    pub fn parse_options<P: OptionsParser>(self, parser: &mut P) -> Result<GameOptions, P::Error> {
        match self {
            GameKind::AlienWar => parser.parse().map(GameOptions::AlienWar),
            GameKind::Cave => parser.parse().map(GameOptions::Cave),
            GameKind::Eggs => parser.parse().map(GameOptions::Eggs),
            GameKind::Petri => parser.parse().map(GameOptions::Petri),
            GameKind::Slime => parser.parse().map(GameOptions::Slime),
        }
    }
}

/// One game of any kind, dispatching to its engine.
#[derive(Debug)]
pub enum AnyGame {
    /// A game of AlienWar.
    AlienWar(alienwar::AlienWar),
    /// A game of Cave Rangers (boxed: its RNG makes it far larger than the others).
    Cave(Box<cave::Cave>),
    /// A run of Easter Egg Hunt.
    Eggs(eggs::Eggs),
    /// A game of Battle for the Petri Dish.
    Petri(petri::Petri),
    /// A game of Slime: The Territory War.
    Slime(slime::Slime),
}

impl Game for AnyGame {
    fn poll(&mut self) -> Step {
        match self {
            AnyGame::AlienWar(game) => game.poll(),
            AnyGame::Cave(game) => game.poll(),
            AnyGame::Eggs(game) => game.poll(),
            AnyGame::Petri(game) => game.poll(),
            AnyGame::Slime(game) => game.poll(),
        }
    }

    fn handle_answers(&mut self, answers: Vec<Answer>) {
        match self {
            AnyGame::AlienWar(game) => game.handle_answers(answers),
            AnyGame::Cave(game) => game.handle_answers(answers),
            AnyGame::Eggs(game) => game.handle_answers(answers),
            AnyGame::Petri(game) => game.handle_answers(answers),
            AnyGame::Slime(game) => game.handle_answers(answers),
        }
    }

    fn take_rejections(&mut self) -> Vec<Rejection> {
        match self {
            AnyGame::AlienWar(game) => game.take_rejections(),
            AnyGame::Cave(game) => game.take_rejections(),
            AnyGame::Eggs(game) => game.take_rejections(),
            AnyGame::Petri(game) => game.take_rejections(),
            AnyGame::Slime(game) => game.take_rejections(),
        }
    }

    fn session_farewell(&self) -> &'static [u8] {
        match self {
            AnyGame::AlienWar(game) => game.session_farewell(),
            AnyGame::Cave(game) => game.session_farewell(),
            AnyGame::Eggs(game) => game.session_farewell(),
            AnyGame::Petri(game) => game.session_farewell(),
            AnyGame::Slime(game) => game.session_farewell(),
        }
    }

    fn snapshot(&self) -> Option<Snapshot> {
        match self {
            AnyGame::AlienWar(game) => game.snapshot(),
            AnyGame::Cave(game) => game.snapshot(),
            AnyGame::Eggs(game) => game.snapshot(),
            AnyGame::Petri(game) => game.snapshot(),
            AnyGame::Slime(game) => game.snapshot(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::engine::{Answer, Rejection};

    /// Every game's options at their defaults.
    fn default_options() -> Vec<GameOptions> {
        vec![
            GameOptions::AlienWar(alienwar::AlienWarOptions::default()),
            GameOptions::Cave(cave::CaveOptions::default()),
            GameOptions::Eggs(eggs::EggsOptions::default()),
            GameOptions::Petri(petri::PetriOptions::default()),
            GameOptions::Slime(slime::SlimeOptions::default()),
        ]
    }

    #[test]
    fn every_game_gives_a_reason_for_each_invalid_reply_it_counts() {
        for options in default_options() {
            let kind = options.kind();
            let seats = options.min_bots();
            let mut game = options.new_game(7, seats);
            let mut rejections: Vec<Rejection> = Vec::new();
            let mut batches = 0;
            let outcome = loop {
                match game.poll() {
                    Step::Done(outcome) => break outcome,
                    Step::Ask(queries) => {
                        let answers: Vec<Answer> = queries
                            .iter()
                            .map(|_| Answer::Reply(b"? ?\n".to_vec()))
                            .collect();
                        game.handle_answers(answers);
                        let batch = game.take_rejections();
                        assert!(
                            batch
                                .iter()
                                .all(|r| r.answer < queries.len() && r.count > 0),
                            "{kind}: {batch:?}"
                        );
                        rejections.extend(batch);
                        batches += 1;
                        assert!(batches < 100_000, "{kind} did not end");
                    }
                }
            };
            assert!(game.take_rejections().is_empty(), "{kind}: taken once");
            let counted: u32 = outcome.seats.iter().map(|seat| seat.invalid_replies).sum();
            let reported: u32 = rejections.iter().map(|r| r.count).sum();
            assert!(counted > 0, "{kind}: garbage is invalid");
            assert_eq!(
                reported, counted,
                "{kind}: every invalid reply has a reason"
            );
            let reasons: BTreeSet<&str> = rejections.iter().map(|r| r.reason).collect();
            assert!(
                reasons.iter().all(|reason| reason.len() > 10),
                "{kind}: {reasons:?}"
            );
        }
    }
}
