//! The AlienWar engine: the [`Game`] state machine that creates every species' instances,
//! then plays each round as one batch of move requests (one per species) followed by the
//! round's meetings, one batch of fight questions per wave.
//!
//! It ties `protocol.rs` (bytes) to `planet.rs` (the world). Bot failures take the
//! original's defaults: no points (the instance is not created), STAY, and "fight".

use crate::engine::{
    Answer, BuiltInSeat, Game, Input, Outcome, PendingAsk, Phase, Query, Rejection, Rejections,
    SeatOutcome, SetupError, Step,
};
use crate::snapshot::{Glyph, Legend, Snapshot};

use super::options::AlienWarOptions;
use super::planet::{Instance, Meeting, Planet};
use super::prey::Prey;
use super::protocol;
use super::rules::{self, Levels, Move, View};

/// One game of AlienWar (see `games/alienwar.md`): every seat is a species, plus the five
/// prey built into the engine.
#[derive(Debug, Clone)]
pub struct AlienWar {
    options: AlienWarOptions,
    seed: u64,
    seats: usize,
    stage: Stage,
    pending: PendingAsk,
    /// Unusable answers: each bad, missing or illegal word of a reply counts once.
    rejections: Rejections,
}

/// Where the game stands.
#[derive(Debug, Clone)]
enum Stage {
    /// Nothing asked yet.
    Start,
    /// Every seat was asked for its instances' points.
    Creating,
    /// Rounds are being played.
    Play(Box<Play>),
    /// The game is over; every later poll reports this outcome.
    Finished(Outcome),
}

/// The planet and the progress of the current round.
#[derive(Debug, Clone)]
struct Play {
    planet: Planet,
    /// Rounds completed.
    round: u32,
    turn: Turn,
    /// The next wave's fight questions, asked at the next poll.
    queued: Option<Vec<Query>>,
    /// How many of each species died in the last completed round, for replays.
    deaths: Vec<usize>,
    /// Per seat, the lines of its next request: kept between requests, so that their
    /// buffers grow in the first rounds only.
    lines: Vec<Vec<u8>>,
}

/// The step of the current round.
#[derive(Debug, Clone)]
enum Turn {
    /// The next poll starts a round.
    Begin,
    /// Move requests are out; the prey's moves are already in `moves`.
    Moving {
        moves: Vec<Move>,
        /// Per query, the instances it asked about, in request order.
        asked: Vec<Vec<usize>>,
    },
    /// The next poll takes the next wave of meetings.
    Meetings,
    /// Fight questions about `wave` are out.
    Questions {
        wave: Vec<Meeting>,
        /// Per query, the (meeting, is-newcomer) pairs it asked about, in request order.
        asked: Vec<Vec<(usize, bool)>>,
    },
}

impl AlienWar {
    /// A game for `seats` species with game seed `seed`.
    ///
    /// # Errors
    ///
    /// If `options` fail their validation.
    pub fn new(options: &AlienWarOptions, seed: u64, seats: usize) -> Result<AlienWar, SetupError> {
        SetupError::check(options, seats)?;
        Ok(AlienWar {
            options: options.clone(),
            seed,
            seats,
            stage: Stage::Start,
            pending: PendingAsk::default(),
            rejections: Rejections::new(seats),
        })
    }

    /// The board side for this game: all seats plus the five prey.
    fn side(&self) -> usize {
        rules::board_side(
            self.seats + Prey::ALL.len(),
            self.options.instances as usize,
        )
    }

    /// The planet after creation: each seat's accepted instances, then the prey's.
    fn populate(&mut self, answers: &[Answer]) -> Planet {
        let count = self.options.instances as usize;
        let mut instances = Vec::new();
        for (seat, answer) in answers.iter().enumerate() {
            let Answer::Reply(reply) = answer else {
                continue;
            };
            let (points, unusable) = protocol::parse_words(reply, count, protocol::parse_points);
            let reason = "not one word of five decimals per instance";
            reject(&mut self.rejections, [seat, seat], 0, unusable, reason);
            let mut illegal = 0;
            for (id, points) in points.into_iter().enumerate() {
                match points {
                    Some(points) if rules::valid_points(&points) => {
                        instances.push(new_instance(seat, id, &points));
                    }
                    // An illegal allocation is not created; counted as invalid
                    // (games/alienwar.md, "Protocol").
                    Some(_) => illegal += 1,
                    None => {}
                }
            }
            let reason = "an allocation's points are not each 0 to 10 with a sum of at most 10";
            self.rejections.reject(seat, seat, 0, illegal, reason);
        }
        for (k, prey) in Prey::ALL.into_iter().enumerate() {
            for id in 0..count {
                instances.push(new_instance(self.seats + k, id, &prey.points()));
            }
        }
        let symbols = (0..self.seats)
            .map(|_| b'A')
            .chain(Prey::ALL.map(Prey::symbol))
            .collect();
        Planet::new(
            self.side(),
            self.seats,
            symbols,
            instances,
            self.seed,
            self.options.dead_resident_reward,
        )
    }
}

/// Counts the `unusable` words of `seat`'s reply, answer `answer` of the ask, at `turn`:
/// the bot's own failures (`!`) apart, so that the journal tells an alien whose code throws
/// from a bot that gets the protocol wrong (`reason`).
fn reject(
    rejections: &mut Rejections,
    [seat, answer]: [usize; 2],
    turn: u32,
    unusable: protocol::Unusable,
    reason: &'static str,
) {
    rejections.reject(seat, answer, turn, unusable.failed, protocol::FAILED_MEANS);
    rejections.reject(seat, answer, turn, unusable.other, reason);
}

/// Starts a round: the prey move at once, each seat with living instances gets one
/// `MOVE` request. Returns the queries; when no alien is alive there are none and the
/// moves are already made.
fn begin_round(seats: usize, play: &mut Play) -> Vec<Query> {
    let Play { planet, lines, .. } = play;
    planet.begin_round();
    let mut moves = vec![Move::Stay; planet.instances().len()];
    clear_lines(lines, seats);
    // Sized at once: a seat's list grows to its living instances, a hundred or more.
    let mut asked: Vec<Vec<usize>> = instances_per_seat(seats, planet.instances())
        .into_iter()
        .map(Vec::with_capacity)
        .collect();
    let mut view = View::default();
    for (i, mv) in moves.iter_mut().enumerate() {
        let species = planet.instances()[i].species;
        match species.checked_sub(seats).map(|k| Prey::ALL[k]) {
            Some(prey) => {
                planet.view_into(i, &mut view);
                *mv = prey.choose_move(&view, planet.cow_rng());
            }
            None => {
                let instance = &planet.instances()[i];
                protocol::write_move_line(&mut lines[species], instance, planet.view_rows(i));
                asked[species].push(i);
            }
        }
    }
    let (queries, asked) = requests("MOVE", lines, asked);
    if queries.is_empty() {
        planet.apply_moves(&moves);
        play.turn = Turn::Meetings;
    } else {
        play.turn = Turn::Moving { moves, asked };
    }
    queries
}

/// How many instances each of `seats` seats has (the prey are not counted).
fn instances_per_seat(seats: usize, instances: &[Instance]) -> Vec<usize> {
    let mut counts = vec![0; seats];
    for instance in instances {
        if let Some(count) = counts.get_mut(instance.species) {
            *count += 1;
        }
    }
    counts
}

/// Queues the next wave's fight questions, or ends the round when its meetings are over
/// (at once, so a replay sees the round end with the answers that ended it).
fn advance(seats: usize, play: &mut Play) {
    let wave = play.planet.next_wave();
    if wave.is_empty() {
        play.deaths = play.planet.end_round();
        play.round += 1;
        play.turn = Turn::Begin;
        return;
    }
    // Every meeting of a wave has a bot's instance on at least one side.
    let asked = fight_lines(seats, play.planet.instances(), &wave, &mut play.lines);
    let (queries, asked) = requests("FIGHT", &play.lines, asked);
    play.queued = Some(queries);
    play.turn = Turn::Questions { wave, asked };
}

/// What one seat is asked about in a wave: (meeting, is-newcomer) pairs, in request order.
type Questions = Vec<(usize, bool)>;

/// Writes the `FIGHT` lines of a wave into `lines`, per seat (the newcomer's first), and
/// returns what each seat is asked about.
pub(super) fn fight_lines(
    seats: usize,
    instances: &[Instance],
    wave: &[Meeting],
    lines: &mut Vec<Vec<u8>>,
) -> Vec<Questions> {
    clear_lines(lines, seats);
    let mut asked = vec![Vec::new(); seats];
    for (m, meeting) in wave.iter().enumerate() {
        let sides = [
            (meeting.newcomer, meeting.newcomer_sees, true),
            (meeting.resident, meeting.resident_sees, false),
        ];
        for (i, sees, newcomer) in sides {
            let species = instances[i].species;
            if species < seats {
                protocol::write_fight_line(&mut lines[species], &instances[i], sees);
                asked[species].push((m, newcomer));
            }
        }
    }
    asked
}

/// Empties `lines` for a request to each of `seats` seats, keeping the buffers.
fn clear_lines(lines: &mut Vec<Vec<u8>>, seats: usize) {
    lines.resize_with(seats, Vec::new);
    lines.iter_mut().for_each(Vec::clear);
}

/// The outcome after `rounds` rounds: the seats' scores and the prey's as built-in seats.
fn finish(seats: usize, rejections: &Rejections, planet: &Planet, rounds: u32) -> Outcome {
    let scores = planet.scores();
    let seat_outcomes = (0..seats)
        .map(|seat| SeatOutcome {
            score: scores[seat],
            result: None,
            invalid_replies: rejections.count(seat),
            stats: std::collections::BTreeMap::new(),
        })
        .collect();
    let built_in = Prey::ALL
        .into_iter()
        .enumerate()
        .map(|(k, prey)| BuiltInSeat {
            name: prey.name().to_owned(),
            score: scores[seats + k],
        })
        .collect();
    let alive = planet.instances();
    let aliens = alive.iter().filter(|i| i.species < seats).count();
    let tally = planet.tally();
    let summary = format!(
        "{rounds} rounds: {} instances alive ({aliens} aliens), {} fights, {} peaceful \
         meetings, {} rewards from dead residents",
        alive.len(),
        tally.fights,
        tally.peaceful,
        tally.dead_resident_rewards,
    );
    Outcome {
        seats: seat_outcomes,
        summary,
        built_in,
    }
}
/// A new instance of roster species `species` with accepted `points`.
pub(super) fn new_instance(species: usize, id: usize, points: &[f32; 5]) -> Instance {
    Instance {
        species,
        id: id as u32,
        levels: Levels::from_points(points),
        hp: rules::starting_hp(points),
        x: 0,
        y: 0,
    }
}

/// One query per seat that has lines, its request being `<word> <count>` and the lines,
/// with what each query asked about.
pub(super) fn requests<T>(
    word: &str,
    lines: &[Vec<u8>],
    asked: Vec<Vec<T>>,
) -> (Vec<Query>, Vec<Vec<T>>) {
    let mut queries = Vec::new();
    let mut kept = Vec::new();
    for (seat, (lines, asked)) in lines.iter().zip(asked).enumerate() {
        if asked.is_empty() {
            continue;
        }
        let mut request = Vec::with_capacity(lines.len() + 16);
        protocol::write_header(&mut request, word, asked.len());
        request.extend_from_slice(lines);
        queries.push(Query {
            seat,
            input: Input::Session(request),
            phase: Phase::Play,
        });
        kept.push(asked);
    }
    (queries, kept)
}

impl Game for AlienWar {
    fn poll(&mut self) -> Step {
        loop {
            let (seats, rounds) = (self.seats, self.options.rounds);
            let play = match &mut self.stage {
                Stage::Finished(outcome) => return Step::Done(outcome.clone()),
                Stage::Start => {
                    let request =
                        protocol::encode_create(self.options.instances as usize, self.side());
                    let queries = (0..seats)
                        .map(|seat| Query {
                            seat,
                            input: Input::Session(request.clone()),
                            phase: Phase::Setup,
                        })
                        .collect();
                    self.stage = Stage::Creating;
                    return self.pending.ask(queries);
                }
                Stage::Creating => panic!("poll called while the creation requests are out"),
                Stage::Play(play) => play,
            };
            if let Some(queries) = play.queued.take() {
                return self.pending.ask(queries);
            }
            let queries = match play.turn {
                Turn::Begin if play.round == rounds => {
                    let outcome = finish(seats, &self.rejections, &play.planet, rounds);
                    self.stage = Stage::Finished(outcome);
                    continue;
                }
                Turn::Begin => begin_round(seats, play),
                Turn::Meetings => {
                    advance(seats, play);
                    Vec::new()
                }
                Turn::Moving { .. } | Turn::Questions { .. } => {
                    panic!("poll called while requests are out")
                }
            };
            if !queries.is_empty() {
                return self.pending.ask(queries);
            }
        }
    }

    /// # Panics
    ///
    /// On answers that do not match the outstanding ask ([`PendingAsk::answer`]).
    fn handle_answers(&mut self, answers: &[Answer]) {
        self.pending.answer(answers);
        if matches!(self.stage, Stage::Creating) {
            let planet = self.populate(answers);
            self.stage = Stage::Play(Box::new(Play {
                planet,
                round: 0,
                turn: Turn::Begin,
                queued: None,
                deaths: Vec::new(),
                lines: Vec::new(),
            }));
            return;
        }
        let Stage::Play(play) = &mut self.stage else {
            unreachable!("answers come only while playing");
        };
        // The replies lead to the position after this round.
        let turn = play.round + 1;
        match std::mem::replace(&mut play.turn, Turn::Meetings) {
            Turn::Moving { mut moves, asked } => {
                for (index, (answer, instances)) in answers.iter().zip(asked).enumerate() {
                    let seat = play.planet.instances()[instances[0]].species;
                    let Answer::Reply(reply) = answer else {
                        continue;
                    };
                    let (words, unusable) =
                        protocol::parse_words(reply, instances.len(), protocol::parse_move);
                    let reason = "not one of the nine moves per instance";
                    reject(&mut self.rejections, [seat, index], turn, unusable, reason);
                    for (i, word) in instances.into_iter().zip(words) {
                        moves[i] = word.unwrap_or(Move::Stay);
                    }
                }
                play.planet.apply_moves(&moves);
            }
            Turn::Questions { wave, asked } => {
                // Prey never fight; an alien without a usable answer fights (games/alienwar.md,
                // "The prey" and "Protocol").
                let instances = play.planet.instances();
                let mut fights: Vec<[bool; 2]> = wave
                    .iter()
                    .map(|m| [m.newcomer, m.resident].map(|i| play.planet.is_bots(i)))
                    .collect();
                for (index, (answer, questions)) in answers.iter().zip(asked).enumerate() {
                    let Answer::Reply(reply) = answer else {
                        continue;
                    };
                    let (words, unusable) =
                        protocol::parse_words(reply, questions.len(), protocol::parse_fight);
                    let seat = {
                        let (m, newcomer) = questions[0];
                        let i = if newcomer {
                            wave[m].newcomer
                        } else {
                            wave[m].resident
                        };
                        instances[i].species
                    };
                    let reason = "not one Y or N per question";
                    reject(&mut self.rejections, [seat, index], turn, unusable, reason);
                    for ((m, newcomer), word) in questions.into_iter().zip(words) {
                        fights[m][usize::from(!newcomer)] = word.unwrap_or(true);
                    }
                }
                for (meeting, [newcomer, resident]) in wave.iter().zip(fights) {
                    play.planet.settle(meeting, newcomer, resident);
                }
            }
            Turn::Begin | Turn::Meetings => unreachable!("answers without requests"),
        }
        advance(self.seats, play);
    }

    fn take_rejections(&mut self) -> Vec<Rejection> {
        self.rejections.take()
    }

    fn session_farewell(&self) -> &'static [u8] {
        protocol::FAREWELL
    }

    /// The planet, one frame per round: each living instance drawn in its species' code (a
    /// bot's in its seat's colour, the prey in theirs; on a shared cell the later instance in
    /// the round's order shows, as in the bots' views). The scores are the species' scores
    /// as they stand; the events, who died in the round.
    fn snapshot(&self) -> Option<Snapshot> {
        let Stage::Play(play) = &self.stage else {
            return None;
        };
        let planet = &play.planet;
        let side = planet.side();
        let prey_glyphs = Prey::ALL.into_iter().zip(PREY_CODES).map(|(prey, code)| {
            let (name, colour) = (prey.name(), prey.colour());
            Glyph::thing(code, char::from(prey.symbol()), name, colour)
        });
        let empty = Glyph::thing('.', '.', "empty", "#20242c");
        let legend = Legend::new(
            std::iter::once(empty).chain(prey_glyphs),
            self.seats,
            |seat| format!("seat {seat}"),
        );
        let mut cells = vec!['.'; side * side];
        for instance in planet.instances().iter().filter(|i| !i.is_dead()) {
            cells[instance.y * side + instance.x] = match instance.species.checked_sub(self.seats) {
                Some(k) => PREY_CODES[k],
                None => legend.seat(instance.species),
            };
        }
        let events = if matches!(play.turn, Turn::Begin) {
            death_events(self.seats, &play.deaths)
        } else {
            Vec::new()
        };
        let mut scores = planet.scores();
        scores.truncate(self.seats);
        Some(Snapshot {
            turn: play.round,
            width: side,
            height: side,
            cells: cells.into_iter().collect(),
            legend: legend.into_glyphs(),
            scores,
            events,
        })
    }
}

/// The prey's cell codes in replays: no characters HTML escapes; [`Legend`] gives the seats
/// codes clear of these.
const PREY_CODES: [char; 5] = ['~', '%', '^', '+', '*'];

/// The round's deaths as events: `species 2: 3 died`, `prey.Cow: 5 died`.
fn death_events(seats: usize, deaths: &[usize]) -> Vec<String> {
    deaths
        .iter()
        .enumerate()
        .filter(|&(_, &count)| count > 0)
        .map(|(species, count)| match species.checked_sub(seats) {
            Some(k) => format!("{}: {count} died", Prey::ALL[k].name()),
            None => format!("species {}: {count} died", species + 1),
        })
        .collect()
}
