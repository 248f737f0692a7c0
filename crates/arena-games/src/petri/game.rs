//! The Petri engine: the [`Game`] state machine that asks for the species, opens the LOOP
//! sessions, asks one cell at a time, applies the fallbacks and reports the outcome.
//!
//! It ties `protocol.rs` (bytes) to `rules.rs` (state) and owns everything about seats: how
//! each is talked to, how its failures are counted, and who won. Like every engine it does
//! no I/O; the driver runs the processes.

use std::collections::BTreeMap;
use std::fmt;
use std::mem;

use crate::engine::{
    Answer, Game, GameResult, Input, Outcome, PendingAsk, Phase, Query, Rejection, Rejections,
    SeatOutcome, SetupError, Step,
};

use crate::snapshot::{Glyph, Legend, Snapshot};

use super::options::PetriOptions;
use super::protocol::{self, ParseError};
use super::rules::{
    Action, CellId, Contents, Dish, Framing, Illegal, Next, Side, Species, SpeciesError,
};

/// One game of Battle for the Petri Dish (see `games/petri.md`). Seat 0 is player 1: it
/// moves first and starts at (1, 1); seat 1 starts at (W-2, H-2).
///
/// The first poll asks both seats for their species at once. Seats that answer with `LOOP`
/// are then sent `BEGIN\n` on their persistent session. After that every request is for a
/// single cell, because each cell must see what the cells before it did.
#[derive(Debug, Clone)]
pub struct Petri {
    options: PetriOptions,
    stage: Stage,
    /// The last [`Step::Ask`] while it waits for its answers. A second poll before they
    /// arrive repeats the same requests.
    pending: PendingAsk,
    /// How each seat is talked to, fixed by its setup reply.
    framing: [Framing; 2],
    /// Replies that were unparseable or illegal and replaced by the fallback.
    rejections: Rejections,
}

/// Where the game stands. Each transition consumes the old stage.
#[derive(Debug, Clone)]
enum Stage {
    /// Both seats are to be asked for their species.
    Species,
    /// The LOOP seats are to be sent `BEGIN\n`, which also starts their processes under the
    /// setup time limit.
    OpenSessions(Box<Dish>),
    /// Cells act one at a time.
    Play(Box<Dish>),
    /// The game is over; every later poll reports this outcome.
    Finished(Outcome),
}

/// Why a seat forfeited at setup (games/petri.md, "Fallbacks").
#[derive(Debug, Clone, PartialEq, Eq)]
enum Forfeit {
    /// No usable reply: timeout, crash without output, or no process.
    NoReply,
    /// The first three tokens are not all integers.
    Unparseable(String),
    /// Three integers, but no playable species.
    Rejected(String, SpeciesError),
}

impl Forfeit {
    /// Why the reply broke the protocol, or `None` if the seat only failed to reply or
    /// chose a losing species.
    fn invalid_reason(&self) -> Option<&'static str> {
        match self {
            Forfeit::NoReply => None,
            Forfeit::Unparseable(_) => Some("the species is not three integers"),
            Forfeit::Rejected(_, why) => why.invalid_reason(),
        }
    }
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::NoReply => write!(f, "no species spec (no reply)"),
            Forfeit::Unparseable(reply) => {
                write!(f, "species spec `{reply}` is not three integers")
            }
            Forfeit::Rejected(reply, why) => write!(f, "species spec `{reply}` {why}"),
        }
    }
}

impl Petri {
    /// A game with these options.
    ///
    /// # Errors
    ///
    /// If `options` fail their validation.
    pub fn new(options: &PetriOptions) -> Result<Petri, SetupError> {
        SetupError::check(options, 2)?;
        Ok(Petri {
            options: options.clone(),
            stage: Stage::Species,
            pending: PendingAsk::default(),
            framing: [Framing::OneShot; 2],
            rejections: Rejections::new(2),
        })
    }

    fn handle_species(&mut self, answers: &[Answer]) -> Stage {
        let [first, second] = answers else {
            unreachable!("two seats asked, checked by PendingAsk");
        };
        let species = [first, second].map(read_species);
        for (side, result) in Side::BOTH.into_iter().zip(&species) {
            match result {
                Ok((_, framing)) => self.framing[side.index()] = *framing,
                Err(forfeit) => {
                    if let Some(reason) = forfeit.invalid_reason() {
                        let seat = side.index();
                        self.rejections.reject(seat, seat, 0, 1, reason);
                    }
                }
            }
        }
        let [first, second] = species;
        match (first, second) {
            (Ok((first, _)), Ok((second, _))) => {
                let dish = Box::new(Dish::new(
                    self.options.width,
                    self.options.height,
                    self.options.turns,
                    self.options.rules,
                    [first, second],
                ));
                if self.framing.contains(&Framing::Loop) {
                    Stage::OpenSessions(dish)
                } else {
                    Stage::Play(dish)
                }
            }
            (Err(first), Err(second)) => self.finish(
                None,
                format!("both seats forfeited (seat 0: {first}; seat 1: {second})"),
            ),
            (Err(forfeit), Ok(_)) => self.forfeit(Side::First, &forfeit),
            (Ok(_), Err(forfeit)) => self.forfeit(Side::Second, &forfeit),
        }
    }

    fn forfeit(&self, loser: Side, forfeit: &Forfeit) -> Stage {
        self.finish(
            Some(loser.opponent()),
            format!("{loser} forfeited: {forfeit}"),
        )
    }

    /// Applies one cell's answer: anything but a legal action is a rest (games/petri.md,
    /// "Actions").
    fn handle_action(&mut self, dish: &mut Dish, answer: &Answer) {
        let action = match answer {
            // The driver counts timeouts and crashes; for the rules they are only a rest.
            Answer::NoReply => Action::Rest,
            Answer::Reply(reply) => {
                let legal = protocol::parse_action(reply)
                    .map_err(ParseError::reason)
                    .and_then(|raw| dish.validate(raw).map_err(Illegal::reason));
                legal.unwrap_or_else(|reason| {
                    let seat = dish.mover().index();
                    self.rejections
                        .reject(seat, 0, dish.turns_done() + 1, 1, reason);
                    Action::Rest
                })
            }
        };
        dish.act(action);
    }

    /// The final stage: 1 point to the winner, none for a draw.
    fn finish(&self, winner: Option<Side>, summary: String) -> Stage {
        let seats = Side::BOTH
            .map(|side| {
                let result = match winner {
                    None => GameResult::Draw,
                    Some(winner) if winner == side => GameResult::Win,
                    Some(_) => GameResult::Loss,
                };
                SeatOutcome {
                    score: i64::from(result == GameResult::Win),
                    result: Some(result),
                    invalid_replies: self.rejections.count(side.index()),
                    stats: BTreeMap::new(),
                }
            })
            .to_vec();
        Stage::Finished(Outcome {
            seats,
            summary,
            built_in: Vec::new(),
        })
    }
}

/// The request for the cell `actor`, framed the way its owner asked for at setup.
fn cell_query(dish: &Dish, actor: CellId, framing: &[Framing; 2]) -> Query {
    let side = dish.cell(actor).side();
    let framing = framing[side.index()];
    let request = protocol::encode_request(dish, actor, framing);
    Query {
        seat: side.index(),
        input: match framing {
            Framing::OneShot => Input::Stdin(request),
            Framing::Loop => Input::Session(request),
        },
        phase: Phase::Play,
    }
}

/// A seat's species and framing from its setup answer, or why it forfeits.
fn read_species(answer: &Answer) -> Result<(Species, Framing), Forfeit> {
    let Answer::Reply(reply) = answer else {
        return Err(Forfeit::NoReply);
    };
    let raw = protocol::parse_species(reply)
        .map_err(|_| Forfeit::Unparseable(protocol::excerpt(reply)))?;
    let species =
        Species::from_raw(&raw).map_err(|why| Forfeit::Rejected(protocol::excerpt(reply), why))?;
    Ok((species, raw.framing))
}

impl Game for Petri {
    fn poll(&mut self) -> Step {
        let queries = match &mut self.stage {
            Stage::Species => Side::BOTH
                .map(|side| Query {
                    seat: side.index(),
                    input: Input::Stdin(protocol::SETUP_REQUEST.to_vec()),
                    phase: Phase::Setup,
                })
                .to_vec(),
            Stage::OpenSessions(_) => Side::BOTH
                .into_iter()
                .filter(|side| self.framing[side.index()] == Framing::Loop)
                .map(|side| Query {
                    seat: side.index(),
                    input: Input::Session(protocol::SESSION_START.to_vec()),
                    phase: Phase::Setup,
                })
                .collect(),
            Stage::Play(dish) => match dish.next() {
                Next::Act(actor) => vec![cell_query(dish, actor, &self.framing)],
                Next::Over(ending) => {
                    self.stage = self.finish(ending.winner(), ending.to_string());
                    return self.poll();
                }
            },
            Stage::Finished(outcome) => return Step::Done(outcome.clone()),
        };
        self.pending.ask(queries)
    }

    /// # Panics
    ///
    /// On answers that do not match the outstanding ask ([`PendingAsk::answer`]).
    fn handle_answers(&mut self, answers: &[Answer]) {
        self.pending.answer(answers);
        // `Species` is only a placeholder here; every arm below sets the real next stage.
        self.stage = match mem::replace(&mut self.stage, Stage::Species) {
            Stage::Species => self.handle_species(answers),
            Stage::OpenSessions(dish) => {
                // The reply line (bots repeat their species) carries nothing. A session that
                // failed to start shows as no reply to its first cell request, i.e. a rest.
                Stage::Play(dish)
            }
            Stage::Play(mut dish) => {
                let [answer] = answers else {
                    unreachable!("one cell asked, checked by PendingAsk");
                };
                self.handle_action(&mut dish, answer);
                Stage::Play(dish)
            }
            Stage::Finished(_) => unreachable!("a finished game asks nothing"),
        };
    }

    fn take_rejections(&mut self) -> Vec<Rejection> {
        self.rejections.take()
    }

    fn session_farewell(&self) -> &'static [u8] {
        protocol::SESSION_END
    }

    /// The dish once both species are known; scores are living cells, and a turn is one
    /// side's player turn.
    fn snapshot(&self) -> Option<Snapshot> {
        let (Stage::OpenSessions(dish) | Stage::Play(dish)) = &self.stage else {
            return None;
        };
        let (width, height) = dish.size();
        let things = [
            Glyph::thing('.', '.', "empty", "#20242c"),
            Glyph::thing('+', '+', "corpse", "#6b5a4a"),
        ];
        let legend = Legend::new(things, 2, |seat| format!("cell of seat {seat}"));
        Some(Snapshot {
            turn: dish.turns_done(),
            width: usize::from(width),
            height: usize::from(height),
            cells: dish
                .squares()
                .map(|contents| match contents {
                    Contents::Empty => '.',
                    Contents::Corpse => '+',
                    Contents::Living(side) => legend.seat(side.index()),
                })
                .collect(),
            legend: legend.into_glyphs(),
            scores: dish.living().map(|n| n as i64).to_vec(),
            events: Vec::new(),
        })
    }
}

#[cfg(test)]
impl Petri {
    /// A game already in play on `dish`, for tests that need a particular position.
    pub(crate) fn from_dish(dish: Dish, framing: [Framing; 2]) -> Petri {
        Petri {
            options: PetriOptions::default(),
            stage: Stage::Play(Box::new(dish)),
            pending: PendingAsk::default(),
            framing,
            rejections: Rejections::new(2),
        }
    }

    /// The dish, once setup is over and until the game ends.
    pub(crate) fn dish(&self) -> Option<&Dish> {
        match &self.stage {
            Stage::OpenSessions(dish) | Stage::Play(dish) => Some(dish),
            Stage::Species | Stage::Finished(_) => None,
        }
    }
}
