//! The interface between a pure game engine and the driver that does its I/O.
//!
//! An engine is a deterministic state machine in the "sans-IO" style: it never starts a
//! process, reads a clock or touches a file. The driver calls [`Game::poll`] to learn what the
//! engine needs next. A [`Step::Ask`] lists requests for some seats; the driver obtains one
//! [`Answer`] per request and hands them back, in the order of the requests, through
//! [`Game::handle_answers`]. The requests of one `Ask` are independent of each other, so the
//! driver may run them concurrently; answers are still applied in request order, so results
//! never depend on scheduling. A [`Step::Done`] carries the [`Outcome`] and ends the game.
//!
//! The engine owns the protocol: it renders the exact bytes a bot receives ([`Input`]) and
//! parses the exact bytes it sends. Bot failures reach it as [`Answer::NoReply`] and the game's
//! rules decide what they mean (usually the same fallback as an invalid reply).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::snapshot::Snapshot;

/// A pure, deterministic game engine driven by [`Step`]s and [`Answer`]s.
pub trait Game {
    /// What the driver must do next. A [`Step::Ask`] has at most one query per seat, so the
    /// driver may run them all at once, each on its seat's process; every engine hands its
    /// asks out through `PendingAsk::ask`, which checks it. After a [`Step::Ask`], the driver
    /// must call [`Game::handle_answers`] before polling again.
    fn poll(&mut self) -> Step;

    /// The answers to the requests of the last [`Step::Ask`], in the same order; borrowed,
    /// because the driver still needs them afterwards for its log and the replay.
    fn handle_answers(&mut self, answers: &[Answer]);

    /// The replies the rules rejected in the last [`Game::handle_answers`], emptied by the
    /// call: the engine only says why, the driver logs, journals and records them.
    fn take_rejections(&mut self) -> Vec<Rejection>;

    /// Bytes written to every still-running persistent bot process when the game ends, before
    /// its stdin is closed (Petri's LOOP mode expects `END\n`).
    fn session_farewell(&self) -> &'static [u8] {
        b""
    }

    /// The position as a replay draws it, or `None` while there is nothing to draw. The
    /// driver asks after every batch of answers, only when recording replays. An engine
    /// without it still gets replays of its requests and replies, just no board.
    fn snapshot(&self) -> Option<Snapshot> {
        None
    }
}

/// Why an engine could not set up a game. The tournament loader checks options and seats
/// before any game is built, so a runner sees this only for options it did not check.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The options fail their game's [`crate::Settings::validate`].
    #[error("invalid options: {}", .0.join("; "))]
    InvalidOptions(Vec<String>),
    /// A number of seats the game cannot play with.
    #[error("{seats} seats, but the game needs {needs}")]
    Seats {
        /// The seats asked for.
        seats: usize,
        /// What it needs, in words ("at least 7", "exactly 2").
        needs: String,
    },
    /// A data file the options name was not loaded through
    /// [`crate::Settings::use_data_file`], or cannot seat the players.
    #[error("{0}")]
    DataFile(String),
}

impl SetupError {
    /// `Ok` if `options` pass their validation and can seat `seats` players.
    pub(crate) fn check<S: crate::Settings>(options: &S, seats: usize) -> Result<(), SetupError> {
        let problems = options.validate();
        if !problems.is_empty() {
            return Err(SetupError::InvalidOptions(problems));
        }
        let min = options.fewest_bots();
        if seats < min {
            let needs = format!("at least {min}");
            return Err(SetupError::Seats { seats, needs });
        }
        Ok(())
    }

    /// `Ok` if a game for exactly `players` is given that many seats.
    pub(crate) fn exact_seats(seats: usize, players: usize) -> Result<(), SetupError> {
        if seats != players {
            let needs = format!("exactly {players}");
            return Err(SetupError::Seats { seats, needs });
        }
        Ok(())
    }
}

/// What an engine needs next.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Send these requests and report the answers in this order.
    Ask(Vec<Query>),
    /// The game is over.
    Done(Outcome),
}

/// One request to one seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// Index of the seat (player) in the game, 0-based.
    pub seat: usize,
    /// What the bot receives, and how.
    pub input: Input,
    /// Which time limit applies.
    pub phase: Phase,
}

/// How a request reaches a bot. The engine chooses, because the protocol is the game's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Start a fresh process, write these bytes to its stdin and close it; the reply is
    /// everything the process writes to stdout until it exits.
    Stdin(Vec<u8>),
    /// Start a fresh process with these extra command-line arguments and no stdin; the reply
    /// is everything it writes to stdout until it exits.
    Args(Vec<String>),
    /// Write these bytes to the seat's persistent process (started on first use and kept for
    /// the whole game) and read one line back; the reply excludes the newline.
    Session(Vec<u8>),
}

/// Which time limit a request gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Setup requests get the longer setup timeout (interpreter and JVM start-up).
    Setup,
    /// Every other request gets the per-request timeout.
    Play,
}

/// The driver's answer to one [`Query`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// What the bot printed. A process that printed and then crashed still replied.
    Reply(Vec<u8>),
    /// No usable reply: timeout, no process, or a reply over the size cap. The driver counts
    /// the reason; the engine applies the game's fallback.
    NoReply,
}

/// A reply the rules rejected and replaced by the game's fallback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// The position of the rejected answer in its batch (and of its query in the `Ask`).
    pub answer: usize,
    /// The turn as a replay counts it: the reply led to the position after `turn` turns
    /// (0 for a setup request before the first position).
    pub turn: u32,
    /// How many invalid replies it counts as: 1, except where a game counts each part of a
    /// reply (AlienWar: one word per instance).
    pub count: u32,
    /// Why, in a short sentence. It names the rule broken, never the reply's own bytes, so
    /// it also serves as the key the journal counts rejections by.
    pub reason: &'static str,
}

/// An engine's record of rejected replies: counts per seat for the [`Outcome`], and the
/// rejections of the current batch for [`Game::take_rejections`].
#[derive(Debug, Clone, Default)]
pub(crate) struct Rejections {
    counts: Vec<u32>,
    batch: Vec<Rejection>,
}

impl Rejections {
    /// No rejections yet for `seats` seats.
    pub(crate) fn new(seats: usize) -> Rejections {
        Rejections {
            counts: vec![0; seats],
            batch: Vec::new(),
        }
    }

    /// Counts the rejection of `seat`'s answer at position `answer` of the batch, as `count`
    /// invalid replies (nothing for 0).
    pub(crate) fn reject(
        &mut self,
        seat: usize,
        answer: usize,
        turn: u32,
        count: u32,
        reason: &'static str,
    ) {
        if count == 0 {
            return;
        }
        self.counts[seat] += count;
        self.batch.push(Rejection {
            answer,
            turn,
            count,
            reason,
        });
    }

    /// Invalid replies of `seat` so far.
    pub(crate) fn count(&self, seat: usize) -> u32 {
        self.counts[seat]
    }

    /// The rejections since the last call.
    pub(crate) fn take(&mut self) -> Vec<Rejection> {
        std::mem::take(&mut self.batch)
    }
}

/// How one game ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// One entry per seat, in seat order.
    pub seats: Vec<SeatOutcome>,
    /// A one-line human-readable account of how the game ended.
    pub summary: String,
    /// Players built into the engine rather than run as bots (AlienWar's prey), ranked with
    /// the bots under their own names; empty for most games.
    #[serde(default, skip_serializing_if = "Vec::is_empty", rename = "house")]
    pub built_in: Vec<BuiltInSeat>,
}

/// The result of a player built into the engine (not a bot process).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuiltInSeat {
    /// Its name on the leaderboard, distinct from every bot's (see
    /// `GameOptions::built_in_names`).
    pub name: String,
    /// The game's points for it in this game.
    pub score: i64,
}

/// One seat's result in one game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatOutcome {
    /// The game's points for this seat in this game (Petri: 1 for a win, else 0).
    pub score: i64,
    /// Win, draw or loss, for head-to-head games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// Replies the rules rejected (unparseable or illegal) and replaced by the fallback.
    pub invalid_replies: u32,
    /// Named figures of the game beyond the score (Cave Rangers: `gold`, `turns`, `died`),
    /// aggregated into the leaderboard's extra columns ([`crate::GameKind::stat_columns`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<String, i64>,
}

/// The result of a head-to-head game for one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    /// This side won.
    Win,
    /// Nobody won.
    Draw,
    /// The other side won.
    Loss,
}

/// The driver's half of the call protocol, checked the same way in every engine: answers
/// come only after an [`Step::Ask`], exactly one per query. An engine keeps one of these,
/// returns its asks through [`PendingAsk::ask`] and passes answers through
/// [`PendingAsk::answer`] before using them.
#[derive(Debug, Clone, Default)]
pub(crate) struct PendingAsk {
    /// How many queries the outstanding ask has, if one is outstanding.
    queries: Option<usize>,
}

impl PendingAsk {
    /// Records `queries` as the outstanding ask and returns the step to hand out. Polling
    /// again before the answers simply replaces it.
    ///
    /// # Panics
    ///
    /// If two queries are for the same seat: a bug in the engine, which would have one
    /// process asked two things at once.
    pub(crate) fn ask(&mut self, queries: Vec<Query>) -> Step {
        // Pairwise, without allocating: an ask is a handful of seats, asked every turn.
        let twice = queries.iter().enumerate().any(|(i, query)| {
            queries[..i]
                .iter()
                .any(|earlier| earlier.seat == query.seat)
        });
        assert!(!twice, "an Ask asks one seat twice");
        self.queries = Some(queries.len());
        Step::Ask(queries)
    }

    /// Checks `answers` against the outstanding ask and clears it.
    ///
    /// # Panics
    ///
    /// If no ask is outstanding or the counts differ: a bug in the driver, and guessing which
    /// answer belongs to which query would corrupt the game.
    pub(crate) fn answer(&mut self, answers: &[Answer]) {
        let queries = self
            .queries
            .take()
            .expect("handle_answers called without an outstanding Ask");
        assert_eq!(
            answers.len(),
            queries,
            "an Ask of {queries} queries got {} answers",
            answers.len()
        );
    }
}

/// A synchronous, in-process harness for engine tests: bots are closures.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Answer, Game, Outcome, Query, Step};

    /// Plays `game` to the end, answering each query with `bot(query)`; panics if the game
    /// needs more than `max_steps` polls, so a game that never ends fails the test.
    pub(crate) fn play(
        game: &mut dyn Game,
        mut bot: impl FnMut(&Query) -> Answer,
        max_steps: usize,
    ) -> Outcome {
        for _ in 0..max_steps {
            match game.poll() {
                Step::Done(outcome) => return outcome,
                Step::Ask(queries) => {
                    let answers: Vec<Answer> = queries.iter().map(&mut bot).collect();
                    game.handle_answers(&answers);
                }
            }
        }
        panic!("game did not end within {max_steps} steps");
    }

    /// One record of a byte-exact vector file under `games/<game>/`: a header line
    /// `=== word word ...`, then payload lines up to the next header. The payload is its lines
    /// joined with `\n`, plus one final `\n` when the header ends with `+newline` (a word
    /// not kept in `words`). Lines starting with `#` before the first record are comments.
    pub(crate) struct VectorRecord {
        /// The header's words after `===`, without `+newline`.
        pub(crate) words: Vec<String>,
        /// The payload bytes.
        pub(crate) payload: Vec<u8>,
    }

    impl VectorRecord {
        /// The payload as text (vector files are UTF-8).
        pub(crate) fn text(&self) -> &str {
            std::str::from_utf8(&self.payload).expect("vector files are UTF-8")
        }
    }

    /// Splits a vector file into its records.
    pub(crate) fn vector_records(text: &str) -> Vec<VectorRecord> {
        let mut raw: Vec<(Vec<String>, Vec<&str>)> = Vec::new();
        for line in text.lines() {
            if let Some(header) = line.strip_prefix("=== ") {
                raw.push((header.split(' ').map(str::to_owned).collect(), Vec::new()));
            } else if let Some((_, lines)) = raw.last_mut() {
                lines.push(line);
            } else {
                assert!(
                    line.starts_with('#'),
                    "stray line before the first record: {line:?}"
                );
            }
        }
        raw.into_iter()
            .map(|(mut words, lines)| {
                let mut payload = lines.join("\n").into_bytes();
                if words.last().is_some_and(|word| word == "+newline") {
                    words.pop();
                    payload.push(b'\n');
                }
                VectorRecord { words, payload }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(seat: usize) -> Query {
        Query {
            seat,
            input: Input::Stdin(Vec::new()),
            phase: Phase::Play,
        }
    }

    #[test]
    fn a_pending_ask_takes_one_answer_per_query_once() {
        let mut pending = PendingAsk::default();
        assert_eq!(
            pending.ask(vec![query(0), query(1)]),
            Step::Ask(vec![query(0), query(1)])
        );
        // Polling again replaces the outstanding ask.
        pending.ask(vec![query(1)]);
        pending.answer(&[Answer::NoReply]);
        let twice = std::panic::catch_unwind(move || pending.answer(&[Answer::NoReply]));
        assert!(twice.is_err(), "the ask was already answered");
    }

    #[test]
    #[should_panic(expected = "an Ask of 2 queries got 3 answers")]
    fn a_wrong_number_of_answers_is_a_driver_bug() {
        let mut pending = PendingAsk::default();
        pending.ask(vec![query(0), query(1)]);
        pending.answer(&[Answer::NoReply, Answer::NoReply, Answer::NoReply]);
    }

    #[test]
    #[should_panic(expected = "an Ask asks one seat twice")]
    fn an_ask_of_one_seat_twice_is_an_engine_bug() {
        PendingAsk::default().ask(vec![query(1), query(0), query(1)]);
    }
}
