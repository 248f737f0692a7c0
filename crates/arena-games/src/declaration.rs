//! What each game declares about itself for the [`crate::registry`]: its engine's
//! [`RegisteredGame`] implementation and its options' [`Settings`], with the vocabulary they
//! are written in (pairings, scoring, extra leaderboard columns, Java host, templates).

use std::fmt;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::engine::{Answer, Game, GameResult, SetupError};
use crate::probe::Plan;

/// What a game declares about itself: its name, its tournament shape and scoring, its
/// defaults, its probes for `arena check`, its bot templates and how to start one game.
pub trait RegisteredGame: Game + fmt::Debug + Sized {
    /// The game's `[options]` table.
    type Options: Settings;
    /// The name used in tournament files, journals and `ARENA_GAME`.
    const NAME: &'static str;
    /// How results are summed up into a leaderboard.
    const SCORING: Scoring;
    /// The original challenge's number of games (per pairing, or runs).
    const DEFAULT_GAMES: u32;
    /// Every pairing the options can give: a journal, which names the game but not its
    /// options, is checked against the one that has its number of games.
    const PAIRINGS: &'static [Pairing];
    /// The game's figures beyond the score that the leaderboard shows, in display order.
    const STAT_COLUMNS: &'static [StatColumn] = &[];
    /// The game's own default time for one request, where its rules set one; `None` for the
    /// runner's default.
    const DEFAULT_TIMEOUT_MS: Option<u64> = None;
    /// Whether each bot gets one private working folder for the whole tournament, kept
    /// across turns and games, as its current directory. Such games run one at a time, so a
    /// folder carries state from game to game in index order and results do not depend on
    /// `jobs`.
    const PRIVATE_FOLDERS: bool = false;
    /// Whether a bot may answer from one process kept for the whole game (Petri's LOOP mode,
    /// AlienWar), which is not restarted after a timeout or crash: the game's fallback
    /// answers for it from then on.
    const PERSISTENT_PROCESSES: bool = false;
    /// The Java host that runs the original challenge's Java bots, for games whose originals
    /// were Java classes rather than programs.
    const JAVA_HOST: Option<&'static JavaHost> = None;
    /// The minimal bots `arena new` writes.
    const TEMPLATES: Templates;
    /// What one game can give a seat whatever its options and seats ([`Settings::bounds`]
    /// of every option): what a journal whose header records no bounds is checked against,
    /// and what a header's bounds may not exceed.
    const WIDEST_BOUNDS: Bounds = Bounds::up_to(i64::MAX);

    /// The names of the players built into the engine ([`crate::engine::BuiltInSeat`]),
    /// whatever the options; no bot may take one.
    fn built_in_names() -> Vec<&'static str> {
        Vec::new()
    }

    /// `arena check`'s probes: prepared positions with the game's verdict on a reply under
    /// `options` (what they change of a request or a verdict), given the answers to the
    /// probes sent so far.
    fn probes(options: &Self::Options, answers: &[Answer]) -> Plan;

    /// A fresh engine for one game with these options, its seed and its number of seats.
    fn start(options: &Self::Options, seed: u64, seats: usize) -> Result<Self, SetupError>;
}

/// A game's options, as the tournament loader uses them.
pub trait Settings: DeserializeOwned + Default + Clone + PartialEq + fmt::Debug {
    /// Who plays whom with these options.
    fn pairing(&self) -> Pairing;

    /// The fewest bots the game itself needs, whatever the pairing can schedule.
    fn min_bots(&self) -> usize {
        1
    }

    /// The option, as its key and value, that lets fewer bots than [`Settings::min_bots`]
    /// play, if one does: named where a tournament has too few.
    fn fewer_bots(&self) -> Option<(&'static str, &'static str)> {
        None
    }

    /// The fewest bots a game with these options seats: what the pairing can schedule,
    /// raised by the game's own limit.
    fn fewest_bots(&self) -> usize {
        self.pairing().min_bots().max(self.min_bots())
    }

    /// Problems with the option values (each a sentence); empty if they are fine.
    fn validate(&self) -> Vec<String> {
        Vec::new()
    }

    /// The key of the option that names [`Settings::data_file`], if the game has one: where
    /// options come from elsewhere than a file (`arena match --option`), its path is made
    /// absolute before it is written into one.
    fn data_file_option(&self) -> Option<&'static str> {
        None
    }

    /// The data file the options name, relative to the tournament file. The tournament
    /// loader reads it and hands it to [`Settings::use_data_file`]: engines and options never
    /// touch files.
    fn data_file(&self) -> Option<&Path> {
        None
    }

    /// Takes the text of [`Settings::data_file`] (read from `path`) and checks it against the
    /// number of entries; returns the problems found.
    fn use_data_file(&mut self, path: &Path, text: &str, entries: usize) -> Vec<String> {
        let _ = (path, text, entries);
        Vec::new()
    }

    /// What one game of `seats` bot seats with these options can give a seat (built-in
    /// players included). Recorded in a journal's header, so that a journal read without the
    /// tournament file is still checked against the options it was played with.
    fn bounds(&self, seats: usize) -> Bounds;
}

/// What one game can give each of its seats: the range of its score and how many invalid
/// replies one request can count. A journal's records are checked against these (README.md,
/// "each game's outcome must be one the game can give"): an edited score that no game gives
/// would otherwise move a mean, or overflow a sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bounds {
    /// The fewest points a seat can score.
    pub min_score: i64,
    /// The most points a seat can score.
    pub max_score: i64,
    /// The most invalid replies one request can count: one where a reply answers one
    /// question (the engine rejects a reply at most once, the runner a reply over the size
    /// cap once), more where one reply answers for many (AlienWar's instances).
    pub invalid_per_request: u32,
}

impl Bounds {
    /// Bounds of one invalid reply per request and scores from 0 to `max_score`.
    pub const fn up_to(max_score: i64) -> Bounds {
        Bounds {
            min_score: 0,
            max_score,
            invalid_per_request: 1,
        }
    }
}

/// A game's Java host: the original API re-implemented in Java plus a main class that speaks
/// the game's protocol for one bot class. Only its sources and names: the runner compiles
/// and starts it.
#[derive(Debug)]
pub struct JavaHost {
    /// The host's sources: path under the source root, and text.
    pub sources: &'static [(&'static str, &'static str)],
    /// The main class; its one argument is the bot's class name.
    pub main_class: &'static str,
    /// The main class that runs several bots in one JVM, each by a class loader of its own:
    /// its arguments are `seat classes-folder class-name` per bot, and each request is
    /// preceded by the line `SEAT <seat>`.
    pub shared_main_class: &'static str,
    /// The package bot classes live in. A bot source without a `package` line is put in it.
    pub package: &'static str,
    /// What a source put into the package also imports (written on its first line, so
    /// javac's line numbers stay those of the file).
    pub imports: &'static str,
    /// The minimal bot of the host's API that `arena new --lang java` writes: its file name
    /// (the class's) and text, from `templates/<game>/`.
    pub template: (&'static str, &'static str),
}

/// A game's minimal bots (`templates/<game>/`, read by `templates!`), one source per language;
/// each reads the game's input, parses it and answers legally.
#[derive(Debug, Clone, Copy)]
pub struct Templates {
    /// `bot.py`.
    pub python: &'static str,
    /// `bot.js`.
    pub javascript: &'static str,
    /// `src/main.rs` of a Cargo project.
    pub rust: &'static str,
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
pub enum Pairing {
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

impl Pairing {
    /// The bot seats of one game of a tournament of `bots` bots.
    pub fn seats(self, bots: usize) -> usize {
        match self {
            Pairing::HeadToHead => 2,
            Pairing::Combinations { size, .. } => size,
            Pairing::FreeForAll => bots,
        }
    }

    /// The smallest number of bots the format can schedule.
    pub fn min_bots(self) -> usize {
        match self {
            Pairing::HeadToHead => 2,
            Pairing::Combinations { size, .. } => size,
            Pairing::FreeForAll => 1,
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
    /// Why the seats' (score, result) pairs cannot be one game's outcome under this scoring,
    /// if they cannot. A journal read back is checked with it, so that an edited score or a
    /// game won by both sides is refused instead of counted.
    pub fn impossible(self, seats: &[(i64, Option<GameResult>)]) -> Option<&'static str> {
        use GameResult::{Draw, Loss, Win};
        match self {
            Scoring::Wins => {
                let results: Vec<Option<GameResult>> = seats.iter().map(|seat| seat.1).collect();
                let decided = matches!(
                    results.as_slice(),
                    [Some(Win), Some(Loss)] | [Some(Loss), Some(Win)] | [Some(Draw), Some(Draw)]
                );
                if !decided {
                    Some("its two seats are not a win and a loss, or a draw")
                } else if seats
                    .iter()
                    .any(|&(score, result)| score != i64::from(result == Some(Win)))
                {
                    Some("a score is not 1 for the win and 0 otherwise")
                } else {
                    None
                }
            }
            Scoring::Mean => seats
                .iter()
                .any(|seat| seat.1.is_some())
                .then_some("a seat has a win, a draw or a loss, which this game never gives"),
        }
    }

    /// The number a bot is ranked by, from the sum of its per-game scores over `games`. The
    /// sum is an `i128`, which `u32::MAX` games of any `i64` score cannot overflow.
    pub fn ranking_score(self, total: i128, games: u32) -> f64 {
        match self {
            Scoring::Wins => total as f64,
            Scoring::Mean if games == 0 => 0.0,
            Scoring::Mean => total as f64 / f64::from(games),
        }
    }
}

/// Deserializes the options of a game with `parse`, which is given the options type to use.
/// The tournament loader calls this so that each game's options are parsed by serde with the
/// game's own `deny_unknown_fields` type (and so with exact error locations).
pub trait OptionsParser {
    /// The error of a failed parse.
    type Error;
    /// Parses the options as `T`.
    fn parse<T: DeserializeOwned + Default>(&mut self) -> Result<T, Self::Error>;
}

/// The [`Templates`] of the game named `$game`, from its folder `templates/<game>/` at the
/// repository's root.
macro_rules! templates {
    ($game:literal) => {
        $crate::declaration::Templates {
            python: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../templates/",
                $game,
                "/bot.py"
            )),
            javascript: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../templates/",
                $game,
                "/bot.js"
            )),
            rust: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../templates/",
                $game,
                "/main.rs"
            )),
        }
    };
}

pub(crate) use templates;

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::{Draw, Loss, Win};

    #[test]
    fn only_outcomes_a_game_can_give_are_possible() {
        let wins = Scoring::Wins;
        for possible in [
            [(1, Some(Win)), (0, Some(Loss))],
            [(0, Some(Loss)), (1, Some(Win))],
            [(0, Some(Draw)), (0, Some(Draw))],
        ] {
            assert_eq!(wins.impossible(&possible), None, "{possible:?}");
        }
        for impossible in [
            &[(1, Some(Win)), (1, Some(Win))][..],
            &[(0, Some(Draw)), (0, Some(Loss))],
            &[(1, Some(Win)), (0, None)],
            &[(99, Some(Draw)), (0, Some(Draw))],
            &[(1, Some(Loss)), (0, Some(Win))],
            &[(1, Some(Win)), (0, Some(Loss)), (0, Some(Loss))],
        ] {
            assert!(wins.impossible(impossible).is_some(), "{impossible:?}");
        }
        assert_eq!(Scoring::Mean.impossible(&[(-3, None), (9000, None)]), None);
        assert!(Scoring::Mean.impossible(&[(1, Some(Win))]).is_some());
    }
}
