//! Plays one game: connects a pure engine to bot processes. It turns each [`Query`] into a
//! process call under the right time limit, each [`CallResult`] into an [`Answer`], counts
//! every bot failure, and closes all sessions when the game ends. A failure of the runner's
//! own ([`RunnerFault`]) is no bot's: it ends the game as an error.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use tokio::sync::Semaphore;

mod connection;
mod io_log;
mod shared_host;

pub(crate) use connection::{Connection, Limit};
use io_log::IoLog;

use crate::bots::{CallEnv, CallResult, CallStatus, RunnerFault, Waiting};
use crate::config::{Bot, Tournament};
use crate::journal::{GameRecord, OVERSIZED_REASON, SeatRecord};
use crate::progress::{Answered, Start};
use crate::replay::{Recorder, Replay};
use crate::sandbox::EmptiedFolder;
use crate::schedule::Fixture;
use crate::summary::Evidence;
use arena_games::engine::{Answer, Game, Input, Query, Rejection, Step};
use shared_host::SharedHost;

/// One seat's bot, its connection and its failure counts.
struct Seat<'a> {
    bot: &'a Bot,
    /// The game's index, for log lines.
    game: u64,
    env: CallEnv,
    connection: Connection,
    /// Whether its session requests go to the game's [`SharedHost`] instead.
    in_host: bool,
    tally: SeatFailures,
    /// Its invalid replies by reason, for the journal.
    invalid_reasons: BTreeMap<String, u32>,
    /// What its failures left, for the run's summary.
    evidence: Evidence,
    /// Its requests and replies written out (`--log-io`).
    io_log: Option<IoLog>,
}

/// A game played: its journal record, its replay if recorded, and what each bot's failures
/// left, for the run's summary.
#[derive(Debug)]
pub struct Played {
    /// The game's journal record.
    pub record: GameRecord,
    /// The game's replay, when recorded.
    pub replay: Option<Replay>,
    /// Bot name and what its failures in the game left, for bots that left anything.
    pub evidence: Vec<(String, Evidence)>,
    /// The private folders the game's boxes emptied instead of copying them back.
    pub emptied: Vec<EmptiedFolder>,
}

/// What went wrong for one seat, counted per game.
#[derive(Debug, Default, Clone, Copy)]
struct SeatFailures {
    requests: u32,
    timeouts: u32,
    crashes: u32,
    oversized: u32,
    /// The time its requests took, and how much of it the run's progress has been told.
    busy: Duration,
    busy_told: Duration,
    /// Whether its persistent process has had its first request.
    session_started: bool,
    /// Whether its last request started a process: the run's progress counts those apart.
    last_start: Start,
    /// A process of it ended of a signal that stops runs
    /// ([`crate::bots::Exit::by_stop_signal`]).
    stop_signalled: bool,
}

/// A request's answer for the engine, and for the replay why the bot failed it.
struct Called {
    answer: Answer,
    /// Why no reply came (a timeout, a crash, a reply over the cap, a process that could not
    /// start or had ended earlier in the game), or why the process ended after its reply.
    failure: Option<String>,
}

/// Why a request to a persistent process that had already failed got no reply: the process
/// that failed was the reason then, and each later request meets its absence.
const SESSION_GONE_REASON: &str = "the process had ended earlier in the game";

/// How long a game whose bot ended of a stop signal waits before it counts as played: long
/// enough for the runner's own signal to stop the run first, when that is what happened.
const STOP_GRACE: Duration = Duration::from_millis(500);

/// What a game keeps besides its result.
#[derive(Debug, Clone, Copy, Default)]
pub struct Recording<'a> {
    /// Record the game's [`Replay`].
    pub replay: bool,
    /// Write each bot's requests, replies and stderr under this folder (`--log-io`).
    pub io_log: Option<&'a std::path::Path>,
}

/// Plays `fixture` with `tournament`'s bots. `permits` bounds how many bot processes work at
/// once across all games; each request holds one permit, so a timeout is never caused by
/// waiting for a core. Every answered request, and every failure, is added to `answered` as
/// it comes.
/// `recording` says what to keep besides the result. A [`RunnerFault`]
/// ends the game unplayed: it is no bot's failure, and every later game would meet it too.
pub async fn play(
    tournament: &Tournament,
    fixture: &Fixture,
    permits: &Semaphore,
    answered: &Answered,
    recording: Recording<'_>,
) -> Result<Played, RunnerFault> {
    let started = Instant::now();
    let kind = tournament.kind();
    let mut game = tournament
        .options
        .new_game(fixture.seed, fixture.seats.len())
        .map_err(|error| RunnerFault::Setup(error.to_string()))?;
    let mut seats: Vec<Seat<'_>> = fixture
        .seats
        .iter()
        .enumerate()
        .map(|(seat, &bot)| Seat {
            bot: &tournament.bots[bot],
            game: fixture.index,
            env: CallEnv {
                game: kind.name(),
                seed: fixture.seed,
                seat,
            },
            connection: Connection::default(),
            in_host: false,
            tally: SeatFailures::default(),
            invalid_reasons: BTreeMap::new(),
            evidence: Evidence::default(),
            io_log: recording.io_log.and_then(|dir| {
                let name = &tournament.bots[bot].name;
                IoLog::create(dir, fixture.index, seat, name)
                    .inspect_err(|error| {
                        tracing::warn!("cannot write the --log-io file of {name}: {error}");
                    })
                    .ok()
            }),
        })
        .collect();
    for &bot in &fixture.seats {
        answered.began(bot);
    }
    let mut host = SharedHost::for_game(tournament, fixture.index, &mut seats);
    // Every box of the game is made at once, instead of one after another as the game first
    // asks each seat: making one takes a few milliseconds.
    let own_boxes = (seats.iter_mut())
        .filter(|seat| !seat.in_host)
        .map(|seat| seat.connection.prepare(&seat.bot.program));
    let host_box = async {
        if let Some(host) = host.as_mut() {
            host.prepare().await;
        }
    };
    tokio::join!(join_all(own_boxes), host_box);
    let mut recorder = recording.replay.then(|| {
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
                let before = failures_of(&seats);
                let mut called =
                    ask(tournament, &mut seats, host.as_mut(), &queries, permits).await?;
                // The failures stay where they are, for the replay if one is kept: no second
                // list per batch on the request path.
                let answers: Vec<Answer> = (called.iter_mut())
                    .map(|called| std::mem::replace(&mut called.answer, Answer::NoReply))
                    .collect();
                for query in &queries {
                    let tally = &mut seats[query.seat].tally;
                    let busy = tally.busy - tally.busy_told;
                    tally.busy_told = tally.busy;
                    if let Some(&bot) = fixture.seats.get(query.seat) {
                        answered.took(bot, busy, tally.last_start);
                    }
                }
                game.handle_answers(&answers);
                let rejections = game.take_rejections();
                let [timeouts, crashes, oversized] = failures_of(&seats);
                let rejected: u32 = rejections.iter().map(|rejection| rejection.count).sum();
                answered.failed([
                    timeouts - before[0],
                    crashes - before[1],
                    oversized - before[2] + u64::from(rejected),
                ]);
                for rejection in &rejections {
                    note_rejection(fixture.index, &mut seats, &queries, &answers, rejection);
                }
                if let Some(recorder) = &mut recorder {
                    let failures = called.iter().map(|called| called.failure.as_deref());
                    recorder.exchange(&queries, &answers, failures, &rejections);
                    recorder.observe(game.snapshot());
                }
            }
        }
    };
    // Whatever stops a run may signal all its processes at once, and a bot that died of it
    // first ended this game early: while the game waits here, the run's stop drops it (the
    // lane races every game against the stop) instead of its record keeping the crash.
    if seats.iter().any(|seat| seat.tally.stop_signalled) {
        tokio::time::sleep(STOP_GRACE).await;
    }
    for (seat, result) in seats.iter_mut().zip(&outcome.seats) {
        // A bot's invalid replies were replies, so no request of it kept its stderr; what
        // its process wrote says why as often as a crash's stderr does.
        if result.invalid_replies > 0 && seat.evidence.stderr.is_empty() && !seat.in_host {
            seat.evidence.stderr = seat.connection.session_stderr();
        }
    }
    if let Some(host) = host.as_mut() {
        host.hand_out_reports(&mut seats);
    }
    let replay = recorder.map(|recorder| recorder.finish(&outcome));
    let farewell = game.session_farewell();
    let closing = seats
        .iter_mut()
        .map(|seat| std::mem::take(&mut seat.connection))
        .chain(host.map(|host| host.connection))
        .map(|connection| connection.close(farewell));
    let emptied = join_all(closing).await.into_iter().flatten().collect();
    let record = GameRecord {
        index: fixture.index,
        seed: fixture.seed,
        summary: outcome.summary,
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        seats: seats
            .iter()
            .zip(outcome.seats)
            .map(|(seat, result)| SeatRecord {
                invalid_reasons: seat.invalid_reasons_with_oversized(),
                bot: seat.bot.name.clone(),
                score: result.score,
                result: result.result,
                requests: seat.tally.requests,
                timeouts: seat.tally.timeouts,
                crashes: seat.tally.crashes,
                invalid_replies: result.invalid_replies + seat.tally.oversized,
                built_in: false,
                stats: result.stats,
                // The run that keeps the record knows its bots' digests.
                digest: None,
            })
            .chain(outcome.built_in.into_iter().map(|player| SeatRecord {
                built_in: true,
                ..SeatRecord::new(player.name, player.score)
            }))
            .collect(),
    };
    let evidence = seats
        .into_iter()
        .filter(|seat| !seat.evidence.is_empty())
        .map(|seat| (seat.bot.name.clone(), seat.evidence))
        .collect();
    Ok(Played {
        record,
        replay,
        evidence,
        emptied,
    })
}

/// The timeouts, crashes and oversized replies of every seat so far.
fn failures_of(seats: &[Seat<'_>]) -> [u64; 3] {
    seats
        .iter()
        .fold([0; 3], |[timeouts, crashes, oversized], seat| {
            let tally = &seat.tally;
            [
                timeouts + u64::from(tally.timeouts),
                crashes + u64::from(tally.crashes),
                oversized + u64::from(tally.oversized),
            ]
        })
}

/// Counts `rejection` for its seat and logs it (`-v`): the bot, the game, the turn, the
/// start of the reply and the game's reason.
fn note_rejection(
    game: u64,
    seats: &mut [Seat<'_>],
    queries: &[Query],
    answers: &[Answer],
    rejection: &Rejection,
) {
    let seat = &mut seats[queries[rejection.answer].seat];
    *seat
        .invalid_reasons
        .entry(rejection.reason.to_owned())
        .or_default() += rejection.count;
    let reply = match &answers[rejection.answer] {
        Answer::Reply(bytes) => crate::text::one_line(bytes, REPLY_IN_LOG_CHARS),
        Answer::NoReply => String::new(),
    };
    tracing::debug!(
        "invalid reply from {} in game {game}, turn {}: `{reply}`: {}",
        seat.bot.name,
        rejection.turn,
        rejection.reason
    );
    if seat.evidence.first_invalid.is_none() && !reply.is_empty() {
        seat.evidence.first_invalid = Some(format!("`{reply}` ({})", rejection.reason));
    }
}

/// How much of an invalid reply its log line shows.
const REPLY_IN_LOG_CHARS: usize = 80;

impl Seat<'_> {
    /// The reasons for the journal, replies over the size cap included (the driver, not the
    /// engine, rejects those).
    fn invalid_reasons_with_oversized(&self) -> BTreeMap<String, u32> {
        let mut reasons = self.invalid_reasons.clone();
        if self.tally.oversized > 0 {
            *reasons.entry(OVERSIZED_REASON.to_owned()).or_default() += self.tally.oversized;
        }
        reasons
    }
}

/// Sends one batch of queries, concurrently when there are several (the session requests
/// to bots in `host` as one exchange), and returns the answers in query order.
async fn ask(
    tournament: &Tournament,
    seats: &mut [Seat<'_>],
    host: Option<&mut SharedHost>,
    queries: &[Query],
    permits: &Semaphore,
) -> Result<Vec<Called>, RunnerFault> {
    let hosted = |query: &Query, seats: &[Seat<'_>]| {
        matches!(query.input, Input::Session(_)) && seats[query.seat].in_host
    };
    if let [query] = queries {
        if !hosted(query, seats) {
            let seat = &mut seats[query.seat];
            let answer = call(tournament, seat, query, permits, Waiting::Alone).await?;
            return Ok(vec![answer]);
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
            _ => own.push(call(tournament, seat, query, permits, Waiting::Together)),
        }
    }
    // The host's exchange is alone when every query of the batch went to it.
    let host_waiting = if own.is_empty() {
        Waiting::Alone
    } else {
        Waiting::Together
    };
    let hosted_answers = async {
        match host {
            Some(host) => host.ask(tournament, batch, permits, host_waiting).await,
            None => Ok(Vec::new()),
        }
    };
    let (own, hosted) = tokio::join!(join_all(own), hosted_answers);
    let own: Vec<Called> = own.into_iter().collect::<Result<_, _>>()?;
    let (mut own, mut hosted) = (own.into_iter(), hosted?.into_iter());
    Ok(in_host
        .into_iter()
        .map(|in_host| {
            let called = if in_host { hosted.next() } else { own.next() };
            // The host answers every query it is given; no answer is no reply all the same.
            called.unwrap_or(Called {
                answer: Answer::NoReply,
                failure: None,
            })
        })
        .collect())
}

/// Runs one query for its seat and records what happened; `waiting` says whether other
/// queries of the batch run meanwhile.
async fn call(
    tournament: &Tournament,
    seat: &mut Seat<'_>,
    query: &Query,
    permits: &Semaphore,
    waiting: Waiting,
) -> Result<Called, RunnerFault> {
    let _permit = permits
        .acquire()
        .await
        .expect("the permit pool is never closed");
    let limit = Limit::of(query.phase, tournament.timeouts);
    let result = seat
        .connection
        .send(
            &seat.bot.program,
            &seat.env,
            &query.input,
            limit,
            &tournament.limits,
            waiting,
        )
        .await;
    if let Some(log) = &mut seat.io_log {
        log.record(&query.input, &result);
    }
    record(seat, result, matches!(query.input, Input::Session(_)))
}

/// Counts the call's outcome and turns it into the engine's answer, with the failure's reason
/// for the replay. A persistent process that ends during the game crashed, whatever its exit
/// status: it owed the game more replies. Every request counts, those to a persistent
/// process that failed earlier in the game too (they get the game's fallback). A runner
/// fault is no answer: it ends the game.
fn record(
    seat: &mut Seat<'_>,
    result: CallResult,
    persistent: bool,
) -> Result<Called, RunnerFault> {
    let tally = &mut seat.tally;
    tally.requests += 1;
    tally.busy += result.elapsed;
    tally.last_start = match (persistent, tally.session_started) {
        (false, _) => Start::OneShot,
        (true, false) => Start::Session,
        (true, true) => Start::No,
    };
    tally.session_started |= persistent;
    if let CallStatus::Replied { exit } | CallStatus::Died { exit } = result.status {
        tally.stop_signalled |= exit.by_stop_signal();
    }
    let crashes_before = tally.crashes;
    let (answer, failure) = match result.status {
        CallStatus::Replied { exit } => {
            let ended = exit.crashed_after_reply(persistent);
            tally.crashes += u32::from(ended);
            let failure = ended.then(|| format!("replied, then ended ({exit})"));
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
            (Answer::NoReply, Some(OVERSIZED_REASON.to_owned()))
        }
        CallStatus::SpawnFailed(error) => {
            tally.crashes += 1;
            if persistent {
                // Its whole game is lost: worth more than a debug line.
                tracing::warn!(bot = %seat.bot.name, game = seat.game, "cannot start the bot: {error}");
            }
            (Answer::NoReply, Some(format!("cannot start: {error}")))
        }
        // The game ends unplayed: what this request was counted as does not matter.
        CallStatus::RunnerFault(fault) => return Err(fault),
        CallStatus::Died { exit } => {
            tally.crashes += 1;
            (
                Answer::NoReply,
                Some(format!("ended without replying ({exit})")),
            )
        }
        // Nothing new to log: the failure that ended the process was logged when it came.
        CallStatus::SessionGone => {
            return Ok(Called {
                answer: Answer::NoReply,
                failure: Some(SESSION_GONE_REASON.to_owned()),
            });
        }
    };
    let crashed = seat.tally.crashes > crashes_before;
    if let Some(failure) = &failure {
        seat.evidence.persistent_failed |= persistent;
        tracing::debug!(
            bot = %seat.bot.name,
            game = seat.game,
            seat = seat.env.seat,
            seed = seat.env.seed,
            stderr = %crate::text::escape_control(String::from_utf8_lossy(&result.stderr).trim_end()),
            "{failure}"
        );
        if crashed && seat.evidence.first_crash.is_none() {
            seat.evidence.first_crash = Some(failure.clone());
        }
        if !result.stderr.is_empty() {
            seat.evidence.stderr = result.stderr;
        }
    }
    Ok(Called { answer, failure })
}
