//! The Slime engine: the [`Game`] state machine that asks one seat per turn, plays or
//! passes its move, ends the game and reports the cells owned.
//!
//! It ties `protocol.rs` (bytes) to `rules.rs` (the board) and owns what the original controller's
//! main loop did (games/slime.md, "Rules"): seats 1 to 4 in turn, the end checks before every turn,
//! and no shortcut for eliminated players, whose turns still count towards the cap. Like every
//! engine it does no I/O; the driver runs the processes.

use std::collections::BTreeMap;

use crate::engine::{
    Answer, Game, Input, Outcome, PendingAsk, Phase, Query, Rejection, Rejections, SeatOutcome,
    SetupError, Step,
};
use crate::snapshot::{Glyph, Legend, Snapshot};

use super::options::{Parsing, SlimeOptions};
use super::protocol::{self, ParseError};
use super::rules::{Board, EMPTY, IllegalMove, Move, MoveKind, mark};

/// Seats per game: the board has four corners.
const SEATS: usize = 4;

/// One game of Slime: The Territory War (see `games/slime.md`). Seat 0 is player 1: it
/// starts in the top-left corner and moves first.
#[derive(Debug, Clone)]
pub struct Slime {
    parsing: Parsing,
    max_turns: u32,
    board: Board,
    /// Turns taken so far, passes included; seat `turns % 4` moves next.
    turns: u32,
    /// The last [`Step::Ask`] while it waits for its answer.
    pending: PendingAsk,
    /// Replies that were unparseable or illegal, played as a pass.
    rejections: Rejections,
    /// What the last turn's seat did (`None`: passed), for replays.
    last_move: Option<Move>,
}

impl Slime {
    /// A game with these options, at the starting position.
    ///
    /// # Errors
    ///
    /// If `options` fail their validation.
    pub fn new(options: &SlimeOptions) -> Result<Slime, SetupError> {
        SetupError::check(options, 4)?;
        Ok(Slime {
            parsing: options.parsing,
            max_turns: options.max_turns,
            board: Board::new(usize::from(options.size)),
            turns: 0,
            pending: PendingAsk::default(),
            rejections: Rejections::new(SEATS),
            last_move: None,
        })
    }

    fn mover(&self) -> usize {
        (self.turns % SEATS as u32) as usize
    }

    /// Plays the mover's answer: anything but a legal move is a pass (games/slime.md,
    /// "Protocol" and "Rules").
    fn handle_answer(&mut self, answer: &Answer) {
        let seat = self.mover();
        // The driver counts timeouts and crashes; for the rules they are only a pass.
        self.last_move = None;
        if let Answer::Reply(reply) = answer {
            let legal = protocol::parse_reply(reply, self.parsing)
                .map_err(ParseError::reason)
                .and_then(|raw| self.board.validate(seat, raw).map_err(IllegalMove::reason));
            match legal {
                Ok(mv) => self.board.apply(seat, mv),
                // A player without a legal move (without cells, say) is asked all the same
                // but can only pass: whatever it says is that pass, no mistake of its bot.
                Err(_) if !self.board.has_move(seat) => {}
                Err(reason) => self.rejections.reject(seat, 0, self.turns + 1, 1, reason),
            }
            self.last_move = legal.ok();
        }
        self.turns += 1;
    }

    /// The outcome if the game is over: the board is full or the turn cap is reached, both
    /// checked before every turn as the original's loop condition does.
    fn ending(&self) -> Option<Outcome> {
        let reason = if self.board.is_full() {
            format!("board full after {} turns", self.turns)
        } else if self.turns >= self.max_turns {
            let empty = self.board.empty_cells();
            format!(
                "turn cap of {} reached with {empty} empty cells",
                self.max_turns
            )
        } else {
            return None;
        };
        let scores: Vec<usize> = (0..SEATS).map(|seat| self.board.count(seat)).collect();
        let listed: Vec<String> = scores.iter().map(usize::to_string).collect();
        Some(Outcome {
            seats: (0..SEATS)
                .map(|seat| SeatOutcome {
                    score: scores[seat] as i64,
                    result: None,
                    invalid_replies: self.rejections.count(seat),
                    stats: BTreeMap::new(),
                })
                .collect(),
            summary: format!("{reason}; cells {}", listed.join("-")),
            built_in: Vec::new(),
        })
    }
}

impl Game for Slime {
    fn poll(&mut self) -> Step {
        if let Some(outcome) = self.ending() {
            return Step::Done(outcome);
        }
        let seat = self.mover();
        self.pending.ask(vec![Query {
            seat,
            input: Input::Args(vec![protocol::encode_request(&self.board, seat)]),
            phase: Phase::Play,
        }])
    }

    /// # Panics
    ///
    /// On answers that do not match the outstanding ask ([`PendingAsk::answer`]).
    fn handle_answers(&mut self, answers: &[Answer]) {
        self.pending.answer(answers);
        let [answer] = answers else {
            unreachable!("one seat asked, checked by PendingAsk");
        };
        self.handle_answer(answer);
    }

    fn take_rejections(&mut self) -> Vec<Rejection> {
        self.rejections.take()
    }

    /// The board with the players' cells coded by seat; scores are cells owned. The event
    /// is the last move in the protocol's `row col` coordinates, or the pass.
    fn snapshot(&self) -> Option<Snapshot> {
        let empty = Glyph::thing('.', '.', "empty", "#20242c");
        let legend = Legend::new([empty], SEATS, |seat| format!("player {}", seat + 1));
        let cells = self
            .board
            .rows()
            .flatten()
            .map(|&cell| match cell {
                EMPTY => '.',
                cell => legend.seat(usize::from(cell - mark(0))),
            })
            .collect();
        let events = if self.turns == 0 {
            Vec::new()
        } else {
            let player = (self.turns - 1) % SEATS as u32 + 1;
            vec![match self.last_move {
                Some(mv) => {
                    let verb = match mv.kind {
                        MoveKind::Spread => "spreads",
                        MoveKind::Jump => "jumps",
                        MoveKind::Merge => "merges",
                    };
                    let (from, to) = (mv.from, mv.to);
                    format!("{player} {verb} {},{} → {},{}", from.0, from.1, to.0, to.1)
                }
                None => format!("{player} passes"),
            }]
        };
        let (height, width) = self.board.size();
        Some(Snapshot {
            turn: self.turns,
            width,
            height,
            cells,
            legend: legend.into_glyphs(),
            scores: (0..SEATS)
                .map(|seat| self.board.count(seat) as i64)
                .collect(),
            events,
        })
    }
}

#[cfg(test)]
impl Slime {
    /// A game already in play on `board`, `turns` turns in, for tests that need a position.
    pub(crate) fn from_board(board: Board, turns: u32, options: &SlimeOptions) -> Slime {
        Slime {
            board,
            turns,
            ..Slime::new(options).unwrap()
        }
    }

    /// The board as it stands.
    pub(crate) fn board(&self) -> &Board {
        &self.board
    }
}
