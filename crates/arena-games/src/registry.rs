//! The registry: every game `arena` can run, each declared once by its engine's
//! [`RegisteredGame`] implementation (see [`crate::declaration`]) and named once in the list
//! of `every_game!` at the end of this file. `games!` makes [`GameKind`], [`GameOptions`] and
//! [`AnyGame`], and all their dispatch, from that list, so adding a game is its module plus
//! one line there.

use std::fmt;
use std::path::Path;

use crate::declaration::{
    Bounds, JavaHost, OptionsParser, Pairing, RegisteredGame, Scoring, Settings, StatColumn,
    Templates,
};
use crate::engine::{Answer, Game, Rejection, SetupError, Step};
use crate::probe::Plan;
use crate::snapshot::Snapshot;

/// Makes [`GameKind`], [`GameOptions`] and [`AnyGame`] from a list of `Variant =>
/// EngineType` lines, each with its doc comment.
macro_rules! games {
    ($( $(#[doc = $doc:literal])* $variant:ident => $engine:ty ),+ $(,)?) => {
        /// A game's name, as written in a tournament file (`game = "petri"`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
        pub enum GameKind {
            $( $(#[doc = $doc])* $variant, )+
        }

        impl GameKind {
            /// Every game, in the order they are listed to users.
            pub const ALL: &[GameKind] = &[ $( GameKind::$variant, )+ ];

            /// The name used in tournament files, journals and `ARENA_GAME`.
            pub fn name(self) -> &'static str {
                match self { $( GameKind::$variant => <$engine as RegisteredGame>::NAME, )+ }
            }

            /// How results are summed up into a leaderboard.
            pub fn scoring(self) -> Scoring {
                match self { $( GameKind::$variant => <$engine as RegisteredGame>::SCORING, )+ }
            }

            /// The original challenge's number of games (per pairing, or runs).
            pub fn default_games(self) -> u32 {
                match self {
                    $( GameKind::$variant => <$engine as RegisteredGame>::DEFAULT_GAMES, )+
                }
            }

            /// The Java host that runs the original challenge's Java bots, if the game has one.
            pub fn java_host(self) -> Option<&'static JavaHost> {
                match self { $( GameKind::$variant => <$engine as RegisteredGame>::JAVA_HOST, )+ }
            }

            /// The game's own default time for one request, if its rules set one.
            pub fn default_timeout_ms(self) -> Option<u64> {
                match self {
                    $( GameKind::$variant => <$engine as RegisteredGame>::DEFAULT_TIMEOUT_MS, )+
                }
            }

            /// Whether each bot keeps one private working folder for the whole tournament.
            pub fn private_folders(self) -> bool {
                match self {
                    $( GameKind::$variant => <$engine as RegisteredGame>::PRIVATE_FOLDERS, )+
                }
            }

            /// Whether a bot may answer from one process kept for the whole game.
            pub fn persistent_processes(self) -> bool {
                match self {
                    $( GameKind::$variant => <$engine as RegisteredGame>::PERSISTENT_PROCESSES, )+
                }
            }

            /// The names of the players built into the engine, whatever the options.
            pub fn built_in_names(self) -> Vec<&'static str> {
                match self {
                    $( GameKind::$variant => <$engine as RegisteredGame>::built_in_names(), )+
                }
            }

            /// Every pairing the game's options can give.
            pub fn pairings(self) -> &'static [Pairing] {
                match self { $( GameKind::$variant => <$engine as RegisteredGame>::PAIRINGS, )+ }
            }

            /// The figures beyond the score that the leaderboard shows, in display order.
            pub fn stat_columns(self) -> &'static [StatColumn] {
                match self {
                    $( GameKind::$variant => <$engine as RegisteredGame>::STAT_COLUMNS, )+
                }
            }

            /// What one game can give a seat whatever its options.
            pub fn widest_bounds(self) -> Bounds {
                match self {
                    $( GameKind::$variant => <$engine as RegisteredGame>::WIDEST_BOUNDS, )+
                }
            }

            /// The minimal bots `arena new` writes.
            pub fn templates(self) -> Templates {
                match self { $( GameKind::$variant => <$engine as RegisteredGame>::TEMPLATES, )+ }
            }

            /// The game's options at their defaults.
            pub fn default_options(self) -> GameOptions {
                match self { $( GameKind::$variant => GameOptions::$variant(Default::default()), )+ }
            }

            /// Parses this game's options with `parser`.
            pub fn parse_options<P: OptionsParser>(
                self,
                parser: &mut P,
            ) -> Result<GameOptions, P::Error> {
                match self { $( GameKind::$variant => parser.parse().map(GameOptions::$variant), )+ }
            }
        }

        /// A game's validated options (the tournament file's `[options]` table).
        #[derive(Debug, Clone, PartialEq)]
        pub enum GameOptions {
            $( $(#[doc = $doc])* $variant(<$engine as RegisteredGame>::Options), )+
        }

        impl GameOptions {
            /// The game these options belong to.
            pub fn kind(&self) -> GameKind {
                match self { $( GameOptions::$variant(_) => GameKind::$variant, )+ }
            }

            /// The options as the loader uses them, whatever the game.
            fn settings(&self) -> &dyn SettingsView {
                match self { $( GameOptions::$variant(options) => options, )+ }
            }

            /// Takes the text of [`GameOptions::data_file`] (read from `path`) and checks it
            /// against the number of entries; returns the problems found.
            pub fn use_data_file(&mut self, path: &Path, text: &str, entries: usize) -> Vec<String> {
                match self {
                    $( GameOptions::$variant(options) => options.use_data_file(path, text, entries), )+
                }
            }

            /// `arena check`'s probes with these options, given the answers to the probes sent
            /// so far.
            pub fn probes(&self, answers: &[Answer]) -> Plan {
                match self {
                    $( GameOptions::$variant(options) => {
                        <$engine as RegisteredGame>::probes(options, answers)
                    } )+
                }
            }

            /// A fresh engine for one game with these options, its seed and its number of
            /// seats.
            pub fn new_game(&self, seed: u64, seats: usize) -> Result<AnyGame, SetupError> {
                match self {
                    $( GameOptions::$variant(options) => {
                        <$engine as RegisteredGame>::start(options, seed, seats)
                            .map(|game| AnyGame::$variant(Box::new(game)))
                    } )+
                }
            }
        }

        /// One game of any kind, dispatching to its engine (boxed: engines differ in size).
        #[derive(Debug)]
        pub enum AnyGame {
            $( $(#[doc = $doc])* $variant(Box<$engine>), )+
        }

        impl AnyGame {
            /// The engine, whatever the game.
            fn engine(&mut self) -> &mut dyn Game {
                match self { $( AnyGame::$variant(game) => game.as_mut(), )+ }
            }

            /// The engine, whatever the game, to read.
            fn engine_ref(&self) -> &dyn Game {
                match self { $( AnyGame::$variant(game) => game.as_ref(), )+ }
            }
        }

        impl GameOptions {
            /// Who plays whom.
            pub fn pairing(&self) -> Pairing {
                self.settings().pairing()
            }

            /// The fewest bots a tournament needs: what the pairing can schedule, raised by the
            /// game's own limits (Easter Egg Hunt's generator needs 7 unless told otherwise).
            pub fn min_bots(&self) -> usize {
                self.settings().fewest_bots()
            }

            /// The option, key and value, that lets fewer bots than [`GameOptions::min_bots`]
            /// play (the Egg Hunt's `size_as_seven`), if one does.
            pub fn fewer_bots(&self) -> Option<(&'static str, &'static str)> {
                self.settings().fewer_bots()
            }

            /// The key of the option that names the game's data file (the Egg Hunt's `map`).
            pub fn data_file_option(&self) -> Option<&'static str> {
                self.settings().data_file_option()
            }

            /// Problems with the option values (each a sentence); empty if they are fine.
            pub fn validate(&self) -> Vec<String> {
                self.settings().validate()
            }

            /// The data file the options name, relative to the tournament file (the Egg Hunt's
            /// `map`).
            pub fn data_file(&self) -> Option<&Path> {
                self.settings().data_file()
            }

            /// The names of the players built into the engine; no bot may take one.
            pub fn built_in_names(&self) -> Vec<&'static str> {
                self.kind().built_in_names()
            }

            /// What one game of `seats` bot seats can give a seat with these options.
            pub fn bounds(&self, seats: usize) -> Bounds {
                self.settings().bounds(seats)
            }
        }

        impl fmt::Display for GameKind {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl GameKind {
            /// Looks a game up by its name.
            pub fn from_name(name: &str) -> Option<GameKind> {
                GameKind::ALL
                    .iter()
                    .copied()
                    .find(|kind| kind.name() == name)
            }
        }

        impl Game for AnyGame {
            fn poll(&mut self) -> Step {
                self.engine().poll()
            }

            fn handle_answers(&mut self, answers: &[Answer]) {
                self.engine().handle_answers(answers);
            }

            fn take_rejections(&mut self) -> Vec<Rejection> {
                self.engine().take_rejections()
            }

            fn session_farewell(&self) -> &'static [u8] {
                self.engine_ref().session_farewell()
            }

            fn snapshot(&self) -> Option<Snapshot> {
                self.engine_ref().snapshot()
            }
        }
    };
}

/// [`Settings`] without its `Sized` parts, so [`GameOptions`] can dispatch through one
/// reference.
pub(crate) trait SettingsView {
    fn pairing(&self) -> Pairing;
    fn fewest_bots(&self) -> usize;
    fn fewer_bots(&self) -> Option<(&'static str, &'static str)>;
    fn data_file_option(&self) -> Option<&'static str>;
    fn validate(&self) -> Vec<String>;
    fn data_file(&self) -> Option<&Path>;
    fn bounds(&self, seats: usize) -> Bounds;
}

impl<T: Settings> SettingsView for T {
    fn pairing(&self) -> Pairing {
        Settings::pairing(self)
    }
    fn fewest_bots(&self) -> usize {
        Settings::fewest_bots(self)
    }
    fn fewer_bots(&self) -> Option<(&'static str, &'static str)> {
        Settings::fewer_bots(self)
    }
    fn data_file_option(&self) -> Option<&'static str> {
        Settings::data_file_option(self)
    }
    fn validate(&self) -> Vec<String> {
        Settings::validate(self)
    }
    fn data_file(&self) -> Option<&Path> {
        Settings::data_file(self)
    }
    fn bounds(&self, seats: usize) -> Bounds {
        Settings::bounds(self, seats)
    }
}

/// The list of games: a game is added here, in one line. `extra` lines are for the toy sixth
/// game's test, which builds its own registry of these games and the toy.
macro_rules! every_game {
    ($($extra:tt)*) => {
        games! {
            /// Survival Game - AlienWar.
            AlienWar => crate::alienwar::AlienWar,
            /// Cave Rangers - Exploring the Darkness.
            Cave => crate::cave::Cave,
            /// Easter Egg Hunt on the Hill.
            Eggs => crate::eggs::Eggs,
            /// Battle for the Petri Dish.
            Petri => crate::petri::Petri,
            /// Slime: The Territory War.
            Slime => crate::slime::Slime,
            $($extra)*
        }
    };
}

#[cfg(test)]
pub(crate) use {every_game, games};

every_game! {}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::engine::{Answer, Outcome, Rejection};

    /// Every game's options at their defaults.
    fn default_options() -> Vec<GameOptions> {
        GameKind::ALL
            .iter()
            .map(|kind| kind.default_options())
            .collect()
    }

    #[test]
    fn a_game_declares_persistent_processes_exactly_when_its_requests_can_go_to_one() {
        use crate::engine::Input;
        // Petri's bots choose a persistent process in their setup reply (`LOOP`).
        let setups = [Vec::new(), vec![Answer::Reply(b"6 3 3 LOOP\n".to_vec())]];
        for &kind in GameKind::ALL {
            let session = setups.iter().any(|answers| {
                (kind.default_options().probes(answers).probes.iter())
                    .any(|probe| matches!(probe.input, Input::Session(_)))
            });
            assert_eq!(kind.persistent_processes(), session, "{kind}");
        }
    }

    #[test]
    fn every_game_gives_a_reason_for_each_invalid_reply_it_counts() {
        for options in default_options() {
            let kind = options.kind();
            let seats = options.min_bots();
            let mut game = options.new_game(7, seats).unwrap();
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
                        game.handle_answers(&answers);
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

    /// Plays a game of `options` with `seats` seats, every request answered with `reply`.
    /// Returns the outcome, the requests of each seat and the most invalid replies one
    /// answer counted.
    fn play(options: &GameOptions, seats: usize, reply: &[u8]) -> (Outcome, Vec<u32>, u32) {
        let mut game = options.new_game(7, seats).unwrap();
        let mut requests = vec![0; seats];
        let mut most = 0;
        loop {
            match game.poll() {
                Step::Done(outcome) => return (outcome, requests, most),
                Step::Ask(queries) => {
                    for query in &queries {
                        requests[query.seat] += 1;
                    }
                    let answers = vec![Answer::Reply(reply.to_vec()); queries.len()];
                    game.handle_answers(&answers);
                    let mut per_answer = vec![0; queries.len()];
                    for rejection in game.take_rejections() {
                        per_answer[rejection.answer] += rejection.count;
                    }
                    most = per_answer.into_iter().fold(most, u32::max);
                }
            }
        }
    }

    #[test]
    fn every_games_outcome_is_within_its_bounds_and_the_invalid_bound_is_reached() {
        // Many garbage words: a reply that answers for many (AlienWar's) is as wrong as can be.
        let garbage = [b"? ".repeat(20_000), b"\n".to_vec()].concat();
        for options in default_options() {
            let kind = options.kind();
            let seats = options.min_bots();
            let bounds = options.bounds(seats);
            assert_eq!(bounds.min_score, kind.widest_bounds().min_score, "{kind}");
            assert!(bounds.max_score <= kind.widest_bounds().max_score, "{kind}");
            assert!(
                bounds.invalid_per_request <= kind.widest_bounds().invalid_per_request,
                "{kind}"
            );
            let (outcome, requests, most) = play(&options, seats, &garbage);
            assert_eq!(most, bounds.invalid_per_request, "{kind}");
            for (seat, requests) in outcome.seats.iter().zip(requests) {
                let allowed = u64::from(requests) * u64::from(bounds.invalid_per_request);
                assert!(u64::from(seat.invalid_replies) <= allowed, "{kind}");
            }
            let scores = (outcome.seats.iter().map(|seat| seat.score))
                .chain(outcome.built_in.iter().map(|player| player.score));
            for score in scores {
                assert!(
                    (bounds.min_score..=bounds.max_score).contains(&score),
                    "{kind}: {score} is not within {bounds:?}"
                );
            }
        }
    }
}
