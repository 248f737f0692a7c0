//! The Easter Egg Hunt engine: the [`Game`] state machine that asks every player of a turn
//! at once, applies the fallbacks, keeps the memory lines and reports the eggs collected.
//!
//! It ties `protocol.rs` (bytes) to `rules.rs` (state). Like every engine it does no I/O;
//! the board comes from the seed or from a map the tournament loader has already read.

use std::collections::BTreeMap;

use crate::engine::{
    Answer, Game, Input, Outcome, PendingAsk, Phase, Query, Rejection, Rejections, SeatOutcome,
    SetupError, Step,
};
use crate::snapshot::{Glyph, Legend, Snapshot};

use super::board::{self, Board, Cell};
use super::options::EggsOptions;
use super::protocol;
use super::rules::{Hunt, Move};
use crate::seeded;

/// One run of Easter Egg Hunt (see `games/eggs.md`) for every seat on one board.
///
/// Each poll asks all players for their move in one [`Step::Ask`], because every view is
/// taken from the start-of-turn state, so the requests are independent and may run at once.
#[derive(Debug, Clone)]
pub struct Eggs {
    stage: Stage,
    /// The last [`Step::Ask`] while it waits for its answers.
    pending: PendingAsk,
    /// Each seat's memory line, given back on its next turn.
    memories: Vec<String>,
    /// Replies with a present but unusable direction or action.
    rejections: Rejections,
    /// Eggs collected per seat and eggs destroyed before the last turn, so replays can say
    /// what the turn did.
    before_last_turn: (Vec<u32>, usize),
}

/// Where the run stands.
#[derive(Debug, Clone)]
enum Stage {
    /// Turns are being played.
    Play(Box<Hunt>),
    /// The run is over; every later poll reports this outcome.
    Finished(Outcome),
}

impl Eggs {
    /// A run for `seats` players with game seed `seed`: on the options' fixed map with
    /// random start squares, or on a board generated from the seed.
    ///
    /// # Errors
    ///
    /// If there are too few seats for the options, or a fixed map is named but was not
    /// loaded or has too few start squares: the tournament loader checks all three before
    /// any game is built.
    pub fn new(options: &EggsOptions, seed: u64, seats: usize) -> Result<Eggs, SetupError> {
        SetupError::check(options, seats)?;
        let mut rng = seeded::rng(seed);
        let size = options.size(seats);
        let (board, starts) = match (&options.map, &options.fixed_map) {
            (None, _) => board::generate(&mut rng, size, seats),
            (Some(path), map) => {
                let cells = map.as_ref().and_then(|map| map.start_cells());
                let (Some(map), Some(cells)) = (map, cells) else {
                    let why = format!("map {} was not loaded", path.display());
                    return Err(SetupError::DataFile(why));
                };
                if cells.len() < seats {
                    let why = format!(
                        "map {} has {} start squares for {seats} entries",
                        path.display(),
                        cells.len()
                    );
                    return Err(SetupError::DataFile(why));
                }
                let starts = seeded::sample(&mut rng, &cells, seats);
                (Board::clone(map), starts)
            }
        };
        Ok(Eggs::from_hunt(Hunt::new(board, starts, size)))
    }

    /// A run already set up, for tests that need a particular position.
    pub(crate) fn from_hunt(hunt: Hunt) -> Eggs {
        let seats = hunt.positions().len();
        Eggs {
            stage: Stage::Play(Box::new(hunt)),
            pending: PendingAsk::default(),
            memories: vec![String::new(); seats],
            rejections: Rejections::new(seats),
            before_last_turn: (vec![0; seats], 0),
        }
    }

    /// The run, until it is over.
    #[cfg(test)]
    pub(crate) fn hunt(&self) -> Option<&Hunt> {
        match &self.stage {
            Stage::Play(hunt) => Some(hunt),
            Stage::Finished(_) => None,
        }
    }

    /// What the last turn did to the eggs, for replays.
    fn last_turn_events(&self, hunt: &Hunt) -> Vec<String> {
        let (scores, destroyed) = &self.before_last_turn;
        let mut events: Vec<String> = (1..)
            .zip(hunt.scores().iter().zip(scores))
            .filter(|(_, (now, before))| now > before)
            .map(|(player, _)| format!("{player} collects an egg"))
            .collect();
        match hunt.destroyed() - destroyed {
            0 => {}
            1 => events.push("an egg is destroyed".to_owned()),
            n => events.push(format!("{n} eggs are destroyed")),
        }
        events
    }

    fn finish(&self, hunt: &Hunt) -> Outcome {
        let seats = hunt
            .scores()
            .iter()
            .enumerate()
            .map(|(seat, &score)| SeatOutcome {
                score: i64::from(score),
                result: None,
                invalid_replies: self.rejections.count(seat),
                stats: BTreeMap::new(),
            })
            .collect();
        let collected: u32 = hunt.scores().iter().sum();
        let left = hunt.board().eggs();
        let summary = format!(
            "{} after {} turns: {collected} eggs collected, {} destroyed, {left} left",
            if left == 0 {
                "no eggs left"
            } else {
                "turn limit"
            },
            hunt.turn(),
            hunt.destroyed(),
        );
        Outcome {
            seats,
            summary,
            built_in: Vec::new(),
        }
    }
}

impl Game for Eggs {
    fn poll(&mut self) -> Step {
        let hunt = match &self.stage {
            Stage::Finished(outcome) => return Step::Done(outcome.clone()),
            Stage::Play(hunt) if hunt.is_over() => {
                self.stage = Stage::Finished(self.finish(hunt));
                return self.poll();
            }
            Stage::Play(hunt) => hunt,
        };
        let queries = (0..self.memories.len())
            .map(|seat| Query {
                seat,
                input: Input::Stdin(protocol::encode_request(
                    &hunt.view(seat),
                    &self.memories[seat],
                )),
                phase: Phase::Play,
            })
            .collect();
        self.pending.ask(queries)
    }

    /// # Panics
    ///
    /// On answers that do not match the outstanding ask ([`PendingAsk::answer`]).
    fn handle_answers(&mut self, answers: &[Answer]) {
        self.pending.answer(answers);
        let Stage::Play(hunt) = &mut self.stage else {
            unreachable!("a finished run asks nothing");
        };
        // The replies lead to the position after this turn.
        let turn = hunt.turn() as u32 + 1;
        let moves: Vec<Move> = answers
            .iter()
            .enumerate()
            .map(|(seat, answer)| match answer {
                // No reply is no lines, so the memory is lost too (games/eggs.md, "A turn").
                Answer::NoReply => {
                    self.memories[seat].clear();
                    Move::REST
                }
                Answer::Reply(bytes) => {
                    let reply = protocol::parse_reply(bytes);
                    if let Some(reason) = reply.invalid {
                        self.rejections.reject(seat, seat, turn, 1, reason);
                    }
                    self.memories[seat] = reply.memory;
                    reply.mv
                }
            })
            .collect();
        self.before_last_turn = (hunt.scores().to_vec(), hunt.destroyed());
        hunt.play(&moves);
    }

    fn take_rejections(&mut self) -> Vec<Rejection> {
        self.rejections.take()
    }

    /// The board with each player on its square; scores are eggs collected; the events say
    /// who collected an egg in the last turn and how many were destroyed.
    fn snapshot(&self) -> Option<Snapshot> {
        let Stage::Play(hunt) = &self.stage else {
            return None;
        };
        let board = hunt.board();
        let things = [
            Glyph::thing('_', ' ', "floor", "#2a2f3a"),
            Glyph::thing('#', '#', "wall", "#8a8f98"),
            Glyph::thing('o', 'o', "egg", "#f4e4b0"),
        ];
        let legend = Legend::new(things, hunt.positions().len(), |seat| {
            format!("seat {seat}")
        });
        let mut cells: Vec<char> = (0..board.rows())
            .flat_map(|row| (0..board.cols()).map(move |col| board::Pos::new(row, col)))
            .map(|pos| match board.get(pos) {
                Some(Cell::Wall) => '#',
                Some(Cell::Egg) => 'o',
                Some(Cell::Floor) | None => '_',
            })
            .collect();
        for (seat, pos) in hunt.positions().iter().enumerate() {
            cells[pos.row * board.cols() + pos.col] = legend.seat(seat);
        }
        Some(Snapshot {
            turn: hunt.turn() as u32,
            width: board.cols(),
            height: board.rows(),
            cells: cells.into_iter().collect(),
            legend: legend.into_glyphs(),
            scores: hunt
                .scores()
                .iter()
                .map(|&score| i64::from(score))
                .collect(),
            events: self.last_turn_events(hunt),
        })
    }
}
