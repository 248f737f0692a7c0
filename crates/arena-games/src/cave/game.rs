//! The Cave Rangers engine: the [`Game`] state machine that plays the turns in the order of
//! games/cave.md, "A turn", asks each living bot in the turn's random order, and reports gold
//! plus turns survived.
//!
//! It ties `view.rs` and `protocol.rs` (bytes) to `rules.rs` (the cave). Like every engine it
//! does no I/O; the driver starts a fresh process per bot per turn (`Input::Stdin`).

use std::collections::BTreeMap;

use rand_chacha::ChaCha12Rng;

use crate::engine::{
    Answer, Game, Input, Outcome, PendingAsk, Phase, Query, Rejection, Rejections, SeatOutcome,
    SetupError, Step,
};
use crate::seeded;
use crate::snapshot::{Glyph, Legend, Snapshot};

use super::generate::generate;
use super::options::{CaveOptions, Order};
use super::protocol::{encode_input, parse_reply};
use super::rules::Action;
use super::view::window;
use super::world::{Killer, Kind, Pos, World};

/// One game of Cave Rangers (see `games/cave.md`) for every seat in one cave.
#[derive(Debug, Clone)]
pub struct Cave {
    options: CaveOptions,
    world: World,
    /// The game's one RNG: generation, creatures, Nina, bot order, view noise, bats.
    rng: ChaCha12Rng,
    stage: Stage,
    /// The queries of the last [`Step::Ask`] while they wait for answers: polling again
    /// returns them unchanged, so the view noise is drawn once per input.
    asked: Option<Vec<Query>>,
    pending: PendingAsk,
    /// Replies that did not parse (played as two holds).
    rejections: Rejections,
}

/// Where the game stands.
#[derive(Debug, Clone)]
enum Stage {
    /// Before a turn (or after the last one).
    BetweenTurns,
    /// The bot phase of a turn: the turn's order and how many of it have been handled.
    Bots { order: Vec<usize>, next: usize },
    /// The game is over; every later poll reports this outcome.
    Finished(Outcome),
}

impl Cave {
    /// A game for `seats` bots in a cave generated from `seed`.
    ///
    /// # Errors
    ///
    /// If `options` fail their validation.
    pub fn new(options: &CaveOptions, seed: u64, seats: usize) -> Result<Cave, SetupError> {
        SetupError::check(options, seats)?;
        let mut rng = seeded::rng(seed);
        let world = generate(&options.density, seats, &mut rng);
        Ok(Cave::from_world(options.clone(), world, rng))
    }

    /// A game in a cave already set up, for tests that need a particular position.
    pub(crate) fn from_world(options: CaveOptions, world: World, rng: ChaCha12Rng) -> Cave {
        let seats = world.robots.len();
        Cave {
            options,
            world,
            rng,
            stage: Stage::BetweenTurns,
            asked: None,
            pending: PendingAsk::default(),
            rejections: Rejections::new(seats),
        }
    }

    /// The cave as it stands.
    #[cfg(test)]
    pub(crate) fn world(&self) -> &World {
        &self.world
    }

    /// The input of `seat` on the current state (its view noise is drawn now).
    fn query(&mut self, seat: usize) -> Query {
        let rows = window(
            &self.world,
            seat,
            self.options.revealer_noise_percent,
            &mut self.rng,
        );
        Query {
            seat,
            input: Input::Stdin(encode_input(&self.world.robots[seat], &rows)),
            phase: Phase::Play,
        }
    }

    /// Applies one answer of `seat`, at position `index` of its batch (steps 3.2 to 3.4). A
    /// dead bot's answer (snapshot order: killed after it was asked) is ignored.
    fn apply(&mut self, seat: usize, index: usize, answer: &Answer) {
        let actions = match answer {
            Answer::NoReply => Action::HOLDS,
            Answer::Reply(bytes) => parse_reply(bytes).unwrap_or_else(|reason| {
                let turn = self.world.turn;
                self.rejections.reject(seat, index, turn, 1, reason);
                Action::HOLDS
            }),
        };
        if self.world.robots[seat].alive() {
            self.world
                .act(seat, actions, self.options.confusion, &mut self.rng);
        }
    }

    fn finish(&self) -> Outcome {
        let seats = self
            .world
            .robots
            .iter()
            .enumerate()
            .map(|(seat, robot)| SeatOutcome {
                score: i64::from(robot.gold) + i64::from(robot.turns),
                result: None,
                invalid_replies: self.rejections.count(seat),
                stats: BTreeMap::from([
                    ("gold".to_owned(), i64::from(robot.gold)),
                    ("turns".to_owned(), i64::from(robot.turns)),
                    ("died".to_owned(), i64::from(!robot.alive())),
                ]),
            })
            .collect();
        Outcome {
            seats,
            built_in: Vec::new(),
            summary: self.summary(),
        }
    }

    /// E.g. `turn limit after 50 turns: 2 of 3 bots alive, 7 gold collected; died: seat 1 in
    /// turn 12 (lion)`.
    fn summary(&self) -> String {
        let world = &self.world;
        let alive = world.alive();
        let gold: u32 = world.robots.iter().map(|r| r.gold).sum();
        let reason = if world.turn >= self.options.max_turns {
            "turn limit"
        } else if alive == 1 {
            "last bot standing"
        } else {
            "no bot left"
        };
        let mut text = format!(
            "{reason} after {} turns: {alive} of {} bots alive, {gold} gold collected",
            world.turn,
            world.robots.len(),
        );
        let deaths: Vec<String> = world
            .robots
            .iter()
            .enumerate()
            .filter_map(|(seat, robot)| {
                let (turn, killer) = robot.death?;
                let by = match killer {
                    Killer::Poison => "poison".to_owned(),
                    Killer::Creature(Kind::Lion) => "lion".to_owned(),
                    Killer::Creature(Kind::Centipede) => "centipede".to_owned(),
                    Killer::Creature(Kind::Bats) => "bats".to_owned(),
                    Killer::Bot(other) => format!("seat {other}"),
                };
                Some(format!("seat {seat} in turn {turn} ({by})"))
            })
            .collect();
        if !deaths.is_empty() {
            text.push_str("; died: ");
            text.push_str(&deaths.join(", "));
        }
        text
    }
}

impl Game for Cave {
    fn poll(&mut self) -> Step {
        if let Some(queries) = &self.asked {
            return self.pending.ask(queries.clone());
        }
        loop {
            match &mut self.stage {
                Stage::Finished(outcome) => return Step::Done(outcome.clone()),
                Stage::BetweenTurns => {
                    if self.world.is_over(self.options.max_turns) {
                        self.stage = Stage::Finished(self.finish());
                        continue;
                    }
                    self.world.start_turn(&mut self.rng);
                    let order = self.world.bot_order(&mut self.rng);
                    self.stage = Stage::Bots { order, next: 0 };
                }
                Stage::Bots { order, next } => {
                    let robots = &self.world.robots;
                    while *next < order.len() && !robots[order[*next]].alive() {
                        *next += 1;
                    }
                    if *next == order.len() {
                        self.world.end_turn();
                        self.stage = Stage::BetweenTurns;
                        continue;
                    }
                    let seats = match self.options.order {
                        Order::Sequential => vec![order[*next]],
                        Order::Snapshot => order[*next..].to_vec(),
                    };
                    let queries: Vec<Query> = seats.into_iter().map(|s| self.query(s)).collect();
                    self.asked = Some(queries.clone());
                    return self.pending.ask(queries);
                }
            }
        }
    }

    /// # Panics
    ///
    /// On answers that do not match the outstanding ask ([`PendingAsk::answer`]).
    fn handle_answers(&mut self, answers: &[Answer]) {
        self.pending.answer(answers);
        let queries = self.asked.take().expect("an answered ask was recorded");
        for (index, (query, answer)) in queries.iter().zip(answers).enumerate() {
            self.apply(query.seat, index, answer);
        }
        let Stage::Bots { order, next } = &mut self.stage else {
            unreachable!("only the bot phase asks");
        };
        *next += queries.len();
        // The turn ends as soon as its last bot has acted, so a replay frame taken now shows
        // the whole turn (the next poll would end it anyway).
        let robots = &self.world.robots;
        if order[*next..].iter().all(|&seat| !robots[seat].alive()) {
            self.world.end_turn();
            self.stage = Stage::BetweenTurns;
        }
    }

    fn take_rejections(&mut self) -> Vec<Rejection> {
        self.rejections.take()
    }

    /// The cave as everyone's positions show it (bots by seat), the scores as they stand and
    /// this turn's deaths. A turn counts once its bot phase and end are over.
    fn snapshot(&self) -> Option<Snapshot> {
        let world = &self.world;
        let turn = match self.stage {
            Stage::Finished(_) => return None,
            Stage::BetweenTurns => world.turn,
            Stage::Bots { .. } => world.turn - 1,
        };
        let things = [
            ('-', ' ', "bare ground", "#2a2f3a"),
            ('}', '}', "boulder", "#8a8f98"),
            ('P', 'P', "pit", "#101216"),
            ('G', 'G', "gold", "#f2c14e"),
            ('F', 'F', "food", "#8bc34a"),
            ('W', 'W', "water", "#4fc3f7"),
            ('K', 'K', "knife", "#cfd8dc"),
            ('R', 'R', "revealer", "#ce93d8"),
            ('C', 'C', "centipede", "#a1887f"),
            ('B', 'B', "bats", "#7e57c2"),
            ('L', 'L', "lion", "#ff7043"),
            ('N', 'N', "Nurse Nina", "#f48fb1"),
        ]
        .into_iter()
        .map(|(code, glyph, name, colour)| Glyph::thing(code, glyph, name, colour));
        let legend = Legend::new(things, world.robots.len(), |seat| format!("seat {seat}"));
        let mut cells: Vec<char> = (0..world.side * world.side)
            .map(|i| char::from(world.symbol(Pos::new(i % world.side, i / world.side), usize::MAX)))
            .collect();
        for (seat, robot) in world.robots.iter().enumerate().filter(|(_, r)| r.alive()) {
            cells[robot.pos.y * world.side + robot.pos.x] = legend.seat(seat);
        }
        Some(Snapshot {
            turn,
            width: world.side,
            height: world.side,
            cells: cells.into_iter().collect(),
            legend: legend.into_glyphs(),
            scores: world
                .robots
                .iter()
                .map(|r| i64::from(r.gold) + i64::from(r.turns))
                .collect(),
            events: Vec::new(),
        })
    }
}
