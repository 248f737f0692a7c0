//! Plays one game: connects a pure engine to bot processes. It turns each [`Query`] into a
//! process call under the right time limit, each [`CallResult`] into an [`Answer`], counts
//! every bot failure, and closes all sessions when the game ends.

use std::time::Instant;

use futures_util::future::join_all;
use tokio::sync::Semaphore;

mod shared_host;

use crate::bots::{
    BotProgram, CallEnv, CallResult, CallStatus, Exit, OneShotInput, Place, Session, call_once,
};
use crate::config::{Bot, Tournament};
use crate::engine::{Answer, Game, Input, Phase, Query, Step};
use crate::journal::{GameRecord, SeatRecord};
use crate::replay::{Recorder, Replay};
use crate::schedule::Fixture;
use shared_host::SharedHost;

/// One seat's bot, its persistent process if it has one, and its failure counts.
struct Seat<'a> {
    bot: &'a Bot,
    env: CallEnv,
    /// Where its processes run: its box, for the length of the game.
    place: Place,
    session: SessionState,
    tally: Tally,
}

/// A seat's persistent process: started on its first session request; `Gone` once it could
/// not be started or the game closed it. (A session that failed stays `Running` and answers
/// every later request with [`CallStatus::SessionGone`].) `InSharedHost`: the seat's
/// session requests go to the game's [`SharedHost`].
enum SessionState {
    NotStarted,
    Running(Box<Session>),
    Gone,
    InSharedHost,
}

/// What went wrong for one seat, counted per game.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    requests: u32,
    timeouts: u32,
    crashes: u32,
    oversized: u32,
}

/// Plays `fixture` with `tournament`'s bots. `permits` bounds how many bot processes work at
/// once across all games; each request holds one permit, so a timeout is never caused by
/// waiting for a core. With `replay`, also records the game's [`Replay`].
pub async fn play_game(
    tournament: &Tournament,
    fixture: &Fixture,
    permits: &Semaphore,
    replay: bool,
) -> (GameRecord, Option<Replay>) {
    let started = Instant::now();
    let kind = tournament.kind();
    let mut game = tournament
        .options
        .new_game(fixture.seed, fixture.seats.len());
    let mut seats: Vec<Seat<'_>> = fixture
        .seats
        .iter()
        .enumerate()
        .map(|(seat, &bot)| Seat {
            bot: &tournament.bots[bot],
            env: CallEnv {
                game: kind.name(),
                seed: fixture.seed,
                seat,
            },
            place: Place::default(),
            session: SessionState::NotStarted,
            tally: Tally::default(),
        })
        .collect();
    let mut host = SharedHost::for_game(tournament, &mut seats);
    let mut recorder = replay.then(|| {
        let bots = seats.iter().map(|seat| seat.bot.name.clone()).collect();
        Recorder::new(kind.name(), fixture.index, fixture.seed, bots)
    });
    if let Some(recorder) = &mut recorder {
        recorder.observe(game.snapshot());
    }
    let outcome = loop {
        match game.poll() {
            Step::Done(outcome) => break outcome,
            Step::Ask(queries) => {
                let answers = ask(tournament, &mut seats, host.as_mut(), &queries, permits).await;
                if let Some(recorder) = &mut recorder {
                    recorder.exchange(&queries, &answers);
                }
                game.handle_answers(answers);
                if let Some(recorder) = &mut recorder {
                    recorder.observe(game.snapshot());
                }
            }
        }
    };
    let replay = recorder.map(|recorder| recorder.finish(&outcome));
    let farewell = game.session_farewell();
    let host_session = host.as_mut().map(|host| &mut host.session);
    let closing = seats
        .iter_mut()
        .map(|seat| &mut seat.session)
        .chain(host_session)
        .filter_map(
            |session| match std::mem::replace(session, SessionState::Gone) {
                SessionState::Running(session) => Some(session.close(farewell)),
                SessionState::NotStarted | SessionState::Gone | SessionState::InSharedHost => None,
            },
        );
    join_all(closing).await;
    let places = seats
        .iter_mut()
        .map(|seat| std::mem::take(&mut seat.place))
        .chain(host.as_mut().map(|host| std::mem::take(&mut host.place)))
        .map(Place::close);
    join_all(places).await;
    let record = GameRecord {
        index: fixture.index,
        seed: fixture.seed,
        summary: outcome.summary,
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        seats: seats
            .iter()
            .zip(outcome.seats)
            .map(|(seat, result)| SeatRecord {
                bot: seat.bot.name.clone(),
                score: result.score,
                result: result.result,
                requests: seat.tally.requests,
                timeouts: seat.tally.timeouts,
                crashes: seat.tally.crashes,
                invalid_replies: result.invalid_replies + seat.tally.oversized,
                built_in: false,
                stats: result.stats,
            })
            .chain(outcome.house.into_iter().map(|house| SeatRecord {
                bot: house.name,
                score: house.score,
                result: None,
                requests: 0,
                timeouts: 0,
                crashes: 0,
                invalid_replies: 0,
                built_in: true,
                stats: std::collections::BTreeMap::new(),
            }))
            .collect(),
    };
    (record, replay)
}

/// Sends one batch of queries, concurrently when there are several (the session requests
/// to bots in `host` as one exchange), and returns the answers in query order.
async fn ask(
    tournament: &Tournament,
    seats: &mut [Seat<'_>],
    host: Option<&mut SharedHost>,
    queries: &[Query],
    permits: &Semaphore,
) -> Vec<Answer> {
    let hosted = |query: &Query, seats: &[Seat<'_>]| {
        matches!(query.input, Input::Session(_))
            && matches!(seats[query.seat].session, SessionState::InSharedHost)
    };
    if let [query] = queries {
        if !hosted(query, seats) {
            let seat = &mut seats[query.seat];
            return vec![call(tournament, seat, query, permits).await];
        }
    }
    let in_host: Vec<bool> = queries.iter().map(|query| hosted(query, seats)).collect();
    // Each query borrows its own seat; the engine never asks one seat twice in a batch.
    let mut by_seat: Vec<Option<&mut Seat<'_>>> = seats.iter_mut().map(Some).collect();
    let mut own = Vec::new();
    let mut batch = Vec::new();
    for (query, &in_host) in queries.iter().zip(&in_host) {
        let seat = by_seat[query.seat]
            .take()
            .expect("an engine asks each seat at most once per batch");
        match &query.input {
            Input::Session(bytes) if in_host => batch.push((seat, query.phase, bytes.as_slice())),
            _ => own.push(call(tournament, seat, query, permits)),
        }
    }
    let hosted_answers = async {
        match host {
            Some(host) => host.ask(tournament, batch, permits).await,
            None => Vec::new(),
        }
    };
    let (own, hosted) = tokio::join!(join_all(own), hosted_answers);
    let (mut own, mut hosted) = (own.into_iter(), hosted.into_iter());
    in_host
        .into_iter()
        .map(|in_host| {
            let answer = if in_host { hosted.next() } else { own.next() };
            answer.unwrap_or(Answer::NoReply)
        })
        .collect()
}

/// Runs one query for its seat and records what happened.
async fn call(
    tournament: &Tournament,
    seat: &mut Seat<'_>,
    query: &Query,
    permits: &Semaphore,
) -> Answer {
    let _permit = permits
        .acquire()
        .await
        .expect("the permit pool is never closed");
    let limit = match query.phase {
        Phase::Setup => tournament.setup_timeout,
        Phase::Play => tournament.timeout,
    };
    let limits = &tournament.limits;
    let program = &seat.bot.program;
    let result = match &query.input {
        Input::Stdin(bytes) => {
            call_once(
                &mut seat.place,
                program,
                &seat.env,
                OneShotInput::Stdin(bytes),
                limit,
                limits,
            )
            .await
        }
        Input::Args(args) => {
            call_once(
                &mut seat.place,
                program,
                &seat.env,
                OneShotInput::Args(args),
                limit,
                limits,
            )
            .await
        }
        Input::Session(bytes) => {
            let fresh = matches!(seat.session, SessionState::NotStarted);
            if fresh {
                seat.session = start_session(
                    &mut seat.place,
                    program,
                    &seat.env,
                    tournament,
                    &seat.bot.name,
                )
                .await;
            }
            match &mut seat.session {
                SessionState::Running(session) => {
                    // The first request also waits for the process to start.
                    let limit = if fresh {
                        limit.max(tournament.setup_timeout)
                    } else {
                        limit
                    };
                    session.request(bytes, limit, limits).await
                }
                SessionState::NotStarted | SessionState::Gone | SessionState::InSharedHost => {
                    seat.tally.requests += 1;
                    seat.tally.crashes += u32::from(fresh);
                    return Answer::NoReply;
                }
            }
        }
    };
    record(seat, result, matches!(query.input, Input::Session(_)))
}

/// Starts a persistent process; `who` names it in the warning when it cannot start.
async fn start_session(
    place: &mut Place,
    program: &BotProgram,
    env: &CallEnv,
    tournament: &Tournament,
    who: &str,
) -> SessionState {
    match Session::start(place, program, env, &tournament.limits).await {
        Ok(session) => SessionState::Running(Box::new(session)),
        Err(error) => {
            tracing::warn!(bot = %who, "cannot start the bot: {error}");
            SessionState::Gone
        }
    }
}

/// Counts the call's outcome and turns it into the engine's answer. A persistent process that
/// ends during the game crashed, whatever its exit status: it owed the game more replies.
fn record(seat: &mut Seat<'_>, result: CallResult, persistent: bool) -> Answer {
    let tally = &mut seat.tally;
    tally.requests += 1;
    let (answer, failure) = match result.status {
        CallStatus::Replied { exit } => {
            let ended = exit.is_abnormal() || (persistent && exit != Exit::Running);
            tally.crashes += u32::from(ended);
            let failure = ended.then(|| format!("replied, then ended with {exit}"));
            (Answer::Reply(result.output), failure)
        }
        CallStatus::TimedOut => {
            tally.timeouts += 1;
            (
                Answer::NoReply,
                Some(format!("no reply within {} ms", result.elapsed.as_millis())),
            )
        }
        CallStatus::TooLong => {
            tally.oversized += 1;
            (Answer::NoReply, Some("reply over the size cap".to_owned()))
        }
        CallStatus::SpawnFailed(error) => {
            tally.crashes += 1;
            (Answer::NoReply, Some(format!("cannot start: {error}")))
        }
        CallStatus::Died { exit } => {
            tally.crashes += 1;
            (
                Answer::NoReply,
                Some(format!("ended without replying ({exit})")),
            )
        }
        CallStatus::SessionGone => (Answer::NoReply, None),
    };
    if let Some(failure) = failure {
        tracing::debug!(
            bot = %seat.bot.name,
            seat = seat.env.seat,
            seed = seat.env.seed,
            stderr = %String::from_utf8_lossy(&result.stderr).trim_end(),
            "{failure}"
        );
    }
    answer
}
