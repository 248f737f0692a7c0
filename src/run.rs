//! Runs a whole tournament: games in parallel on lanes (threads), every result journaled as
//! it arrives.
//!
//! The calling thread is the only writer of the journal and of progress output; lanes only
//! return their records. A [`Cancel`] stops the run: running games are dropped (which kills
//! their bots) and the finished games stay in the journal.

use std::collections::{BTreeMap, BTreeSet};
use std::num::NonZeroUsize;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use tokio::runtime::Runtime;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};
use tokio::sync::{Semaphore, watch};

use crate::cancel::{Cancel, Stop};
use crate::config::Tournament;
use crate::driver::{Played, Recording, play};
use crate::errors::Error;
use crate::folder_snapshot;
use crate::folders::{
    CAP_BYTES, Held, emptied_warning, give_to_sandbox_user, held_after_game, restore,
    with_private_folders,
};
use crate::journal::{GameRecord, Header, JournalWriter, Record, Sandboxing};
use crate::progress::{Answered, Progress, Reporter, Style, WorkLeft};
use crate::replay::Replay;
use crate::results::{ResultsFolder, Start, replay_path, write_atomically};
use crate::reuse::{ReusePool, bot_digests, rules_digest};
use crate::sandbox::EmptiedFolder;
use crate::schedule::{Fixture, Schedule, fixture_count, games_of_one};
use crate::shard::Shard;
use crate::sprt::{Sprt, SprtTracker};
use crate::summary::Evidence;
use crate::text::plural;
use arena_games::Pairing;

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunReport {
    /// The journal holding every finished game.
    pub journal: PathBuf,
    /// What cut the run short, if anything did.
    pub interrupted: Option<Stop>,
    /// What the failures of each bot that failed in a game this run played left.
    pub evidence: BTreeMap<String, Evidence>,
}

/// The tournament whose sandboxed bots cannot see the results folder `out`. Their private
/// folders in it (`folders`, in bot order, if the game has them) their boxes let them write;
/// when `arena` runs as root the bots run as nobody, who is given those folders.
fn boxed_away_from_results(
    mut tournament: Tournament,
    out: &Path,
    folders: &[PathBuf],
) -> Result<Tournament, Error> {
    let out = out
        .canonicalize()
        .with_context(|| format!("cannot locate {}", out.display()))?;
    for (index, bot) in tournament.bots.iter_mut().enumerate() {
        let Some(spec) = bot.program.sandbox.as_mut().map(std::sync::Arc::make_mut) else {
            continue;
        };
        spec.hidden.push(out.clone());
        if let Some(folder) = folders.get(index) {
            give_to_sandbox_user(folder)?;
        }
    }
    Ok(tournament)
}

/// The index of the gauntlet's bot `name` among `names`, or why a gauntlet of it cannot be
/// played in `pairing`.
pub fn gauntlet_bot(names: &[String], name: &str, pairing: Pairing) -> Result<usize, Error> {
    if pairing == Pairing::FreeForAll {
        return Err(Error::Usage(format!(
            "--gauntlet: every game of this tournament already has every bot, `{}` too; \
             a gauntlet is for games of two or of a few bots",
            name.escape_debug()
        )));
    }
    names.iter().position(|bot| bot == name).ok_or_else(|| {
        Error::Usage(format!(
            "--gauntlet: no bot is named `{}` (the bots: {})",
            name.escape_debug(),
            names.join(", ")
        ))
    })
}

/// The part of a run's games that seat each of `bots` bots in `pairing`, for the time left:
/// every bot alike, or in a gauntlet every game its bot's.
fn seat_shares(pairing: Pairing, bots: usize, gauntlet: Option<usize>) -> Vec<f64> {
    let seats = pairing.seats(bots) as f64;
    let others = bots.saturating_sub(1).max(1) as f64;
    (0..bots)
        .map(|bot| match gauntlet {
            Some(candidate) if bot == candidate => 1.0,
            Some(_) => (seats - 1.0) / others,
            None => seats / bots as f64,
        })
        .collect()
}

/// The number of parallel jobs: `jobs`, or the number of cores for 0.
pub fn effective_jobs(jobs: usize) -> usize {
    match jobs {
        0 => std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
        n => n,
    }
}

/// What a run plays and keeps besides the journal.
#[derive(Debug)]
pub struct RunOptions {
    /// Play only this shard's games.
    pub shard: Option<Shard>,
    /// Play only the games of this bot (by name), against every other (`--gauntlet`).
    pub gauntlet: Option<String>,
    /// Play the games in pairs with one seed and stop once this test is decided (`--sprt`).
    pub sprt: Option<Sprt>,
    /// Write each game's replay to [`replay_path`].
    pub replays: bool,
    /// Write each bot's requests, replies and stderr per game under this folder.
    pub io_log: Option<PathBuf>,
    /// How progress shows on stderr.
    pub progress: Style,
    /// Earlier games that stand for this run's games they match (`--reuse`).
    pub reuse: ReusePool,
}

/// Plays every game of `tournament` (of its shard, if `options` name one; for
/// [`Start::Resume`], every such game not yet in the journal), writing the journal into
/// `out` and showing progress on stderr, until every game is played or `cancel` fires.
///
/// Games run on lanes: one thread per game played at once, each with its own one-thread
/// runtime, playing the games it is handed one after the other. The calling thread hands out
/// the games in index order and journals each result as it arrives. One thread per lane
/// rather than one for all games: every bot request wakes the bot and then the thread that
/// waits for its reply, and with one thread for all games every wake-up went through that
/// thread's core (BENCHMARKS.md, figure d). One-thread runtimes rather than a multi-threaded
/// one: measured on 150,000 LOOP requests, 40% less runner CPU.
pub fn run_tournament(
    tournament: &Tournament,
    folder: &ResultsFolder,
    mut options: RunOptions,
    cancel: &Cancel,
) -> Result<RunReport, Error> {
    // What this process and its children used before the run: under `cargo run`, cargo
    // execs arena, and its own time and the compilers it waited for would count otherwise.
    let cpu_before = (
        cpu_seconds(libc::RUSAGE_SELF),
        cpu_seconds(libc::RUSAGE_CHILDREN),
    );
    let out = folder.path();
    let journal_path = folder.journal();
    let kind = tournament.kind();
    let pairing = tournament.options.pairing();
    let all_games = fixture_count(pairing, tournament.bots.len(), tournament.games);
    let shard = options.shard;
    let names: Vec<String> = tournament.bots.iter().map(|bot| bot.name.clone()).collect();
    let gauntlet = match &options.gauntlet {
        None => None,
        Some(bot) => Some(gauntlet_bot(&names, bot, pairing)?),
    };
    let total = match (shard, gauntlet) {
        (_, Some(_)) => games_of_one(pairing, names.len(), tournament.games),
        (Some(shard), None) => shard.games(all_games),
        (None, None) => all_games,
    };
    if let Some(why) = shard.and_then(|shard| shard.without_games(all_games)) {
        tracing::warn!("{why}");
    }
    let in_shard = |fixture: &Fixture| {
        shard.is_none_or(|shard| shard.contains(fixture.index))
            && gauntlet.is_none_or(|bot| fixture.seats.contains(&bot))
    };
    let header = Header {
        shard,
        gauntlet: options.gauntlet.clone(),
        sprt: options.sprt.clone(),
        sandbox: Some(Sandboxing::of(
            tournament
                .bots
                .iter()
                .filter(|bot| bot.program.sandbox.is_some())
                .count(),
            tournament.bots.len(),
        )),
        rules: Some(rules_digest(tournament)),
        bounds: Some(tournament.options.bounds(pairing.seats(names.len()))),
        ..Header::new(
            kind.name(),
            tournament.seed,
            tournament.games,
            names.clone(),
            all_games,
            tournament.digest(),
        )
    };
    let mut progress = Progress::new(
        kind.scoring(),
        total,
        WorkLeft::new(&names, &seat_shares(pairing, names.len(), gauntlet), total),
    );
    let mut sprt = options.sprt.clone().map(SprtTracker::new);
    // Computed once the results folder holds its journal, in a fresh run as in a resume:
    // a bot's `dir` that holds the results folder leaves it out of its digest only then.
    let digests_now = || -> BTreeMap<String, String> {
        (tournament.bots.iter())
            .map(|bot| bot.name.clone())
            .zip(bot_digests(&tournament.bots))
            .collect()
    };
    let (mut journal, mut finished, digests) = match folder.start() {
        Start::Fresh => {
            let journal = JournalWriter::create(&journal_path, header)?;
            (journal, BTreeSet::new(), digests_now())
        }
        Start::Resume => {
            let digests = digests_now();
            let (journal, finished) =
                JournalWriter::resume(&journal_path, &header, &digests, |game| {
                    progress.record_earlier(game);
                    if let Some(sprt) = &mut sprt {
                        sprt.record(game.index, game.result_of(sprt.candidate()));
                    }
                })?;
            (journal, finished, digests)
        }
    };
    // Only now: a refused resume creates nothing.
    if options.replays {
        let dir = out.join(crate::results::REPLAYS_DIR);
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create the replays folder {}", dir.display()))?;
    }
    let schedule = Schedule::new(pairing, &names, tournament.games, tournament.seed)
        .paired(options.sprt.is_some());
    let resumed = finished.len();
    let reusing = !options.reuse.is_empty();
    let reused = if !reusing {
        0
    } else {
        let dirs = (tournament.bots.iter())
            .map(|bot| (bot.name.as_str(), bot.program.dir.as_path()))
            .collect();
        options.reuse.explain(&digests, &dirs, tournament.seed);
        let mut earlier = Earlier {
            pool: &mut options.reuse,
            names: &names,
            digests: &digests,
            out,
            replays: options.replays,
            progress: &mut progress,
            without_replay: 0,
        };
        let reused = earlier.reuse(
            schedule.fixtures().filter(in_shard),
            &mut journal,
            &mut finished,
        )?;
        if earlier.without_replay > 0 {
            tracing::info!(
                "--reuse: {} of unchanged bots played again for {} (--replays; the earlier \
                 runs kept none)",
                plural(earlier.without_replay, "game", "games"),
                if earlier.without_replay == 1 {
                    "its replay"
                } else {
                    "their replays"
                }
            );
        }
        reused
    };
    let playing = total.saturating_sub(finished.len() as u64);
    if resumed > 0 {
        let all = plural(total, "game", "games");
        tracing::info!("resuming: {resumed} of {all} already played");
    }
    if reusing {
        tracing::info!(
            "reused {}, playing {playing}",
            plural(reused as u64, "game", "games")
        );
    }
    // A bot's private folder carries state from one game to the next, so such games are
    // played one at a time in index order: results then do not depend on `jobs`.
    let (relocated, folders) = if kind.private_folders() {
        with_private_folders(tournament, out, &finished)?
    } else {
        (tournament.clone(), Vec::new())
    };
    let tournament = &boxed_away_from_results(relocated, out, &folders)?;
    let jobs = effective_jobs(tournament.jobs);
    let games_at_once = if kind.private_folders() { 1 } else { jobs };
    let part = shard.map_or_else(String::new, |shard| format!(" (shard {shard})"));
    tracing::info!(
        "{kind}: {}{part}, {games_at_once} at a time; results in {}",
        plural(total, "game", "games"),
        out.display()
    );
    let pending = schedule
        .fixtures()
        .filter(in_shard)
        .filter(|fixture| !finished.contains(&fixture.index));
    let done = finished.len() as u64;
    let answered = Arc::new(Answered::new(names.len()));
    let mut books = Books {
        out,
        tournament,
        folders: &folders,
        digests: &digests,
        journal,
        progress: Reporter::start(progress, options.progress, answered.clone()),
        played: 0,
        sprt,
        evidence: BTreeMap::new(),
    };
    let started = Instant::now();
    let permits = Semaphore::new(jobs);
    // No idle threads for a run with fewer games left than jobs.
    let left = usize::try_from(total.saturating_sub(done)).unwrap_or(usize::MAX);
    let shared = Shared {
        tournament,
        permits: &permits,
        answered: &answered,
        recording: Recording {
            replay: options.replays,
            io_log: options.io_log.as_deref(),
        },
    };
    let interrupted = play_on_lanes(
        shared,
        games_at_once.min(left).max(1),
        pending,
        &mut books,
        cancel.clone(),
    )?;
    books.journal.sync()?;
    if interrupted.is_some() {
        return Ok(RunReport {
            journal: journal_path,
            interrupted,
            evidence: books.evidence,
        });
    }
    books.progress.finish();
    let (runner, bots) = (
        cpu_seconds(libc::RUSAGE_SELF) - cpu_before.0,
        cpu_seconds(libc::RUSAGE_CHILDREN) - cpu_before.1,
    );
    tracing::info!(
        "{} in {:.1} s; CPU time: runner {runner:.2} s, bots {bots:.2} s; \
         runner peak memory {} MiB",
        plural(books.played, "game", "games"),
        started.elapsed().as_secs_f64(),
        peak_memory_kib() / 1024
    );
    Ok(RunReport {
        journal: journal_path,
        interrupted: None,
        evidence: books.evidence,
    })
}

/// A finished game as a lane hands it back, or an error if the game's code panicked.
type LaneResult = Result<Played, Error>;

/// What every lane plays with.
#[derive(Clone, Copy)]
struct Shared<'a> {
    tournament: &'a Tournament,
    /// At most `jobs` bot requests at once, whatever the lanes.
    permits: &'a Semaphore,
    /// What the games have answered so far, for the progress.
    answered: &'a Answered,
    /// What games keep besides their results.
    recording: Recording<'a>,
}

/// Starts `lanes` lanes, hands them the `pending` games and keeps the `books` of each result,
/// until every game is played (`Ok(None)`) or `cancel` fires (`Ok(Some(why))`). Returns only
/// once every lane has stopped, so the bots of interrupted games are dead by then.
fn play_on_lanes(
    shared: Shared<'_>,
    lanes: usize,
    pending: impl Iterator<Item = Fixture>,
    books: &mut Books<'_>,
    cancel: Cancel,
) -> Result<Option<Stop>, Error> {
    let new_runtime = || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("cannot start the async runtime")
    };
    let runtime = new_runtime()?;
    let lane_runtimes = (0..lanes)
        .map(|_| new_runtime())
        .collect::<Result<Vec<_>, _>>()?;
    std::thread::scope(|scope| {
        let (results, mut played) = tokio::sync::mpsc::unbounded_channel();
        let (stop, stopped) = watch::channel(false);
        let mut handed = Vec::with_capacity(lanes);
        for (id, lane_runtime) in lane_runtimes.into_iter().enumerate() {
            let (games, lane_games) = std::sync::mpsc::channel();
            let lane = Lane {
                id,
                runtime: lane_runtime,
                games: lane_games,
                results: results.clone(),
                stop: stopped.clone(),
            };
            std::thread::Builder::new()
                .name(format!("lane-{id}"))
                .spawn_scoped(scope, move || lane.run(shared))
                .context("cannot start a game lane")?;
            handed.push(games);
        }
        drop(results);
        let outcome = runtime.block_on(dispatch(&handed, &mut played, pending, books, cancel));
        // Whatever ended the dispatch: running games stop (dropping a game kills its bots),
        // idle lanes see their queue close; the scope then waits for every lane.
        stop.send_replace(true);
        drop(handed);
        outcome
    })
}

/// Hands the games to idle lanes in index order and keeps the books of each result as it
/// arrives, until no game is left or running (`Ok(None)`) or `cancel` fires.
async fn dispatch(
    lanes: &[std::sync::mpsc::Sender<Fixture>],
    played: &mut UnboundedReceiver<(usize, LaneResult)>,
    mut pending: impl Iterator<Item = Fixture>,
    books: &mut Books<'_>,
    mut cancel: Cancel,
) -> Result<Option<Stop>, Error> {
    let mut idle: Vec<usize> = (0..lanes.len()).rev().collect();
    let mut ticks = tokio::time::interval(crate::progress::TICK_EVERY);
    loop {
        while let Some(&lane) = idle.last() {
            if cancel.reason().is_some() || books.decided() {
                break;
            }
            let Some(fixture) = pending.next() else { break };
            books.before_game(fixture.index)?;
            lanes[lane].send(fixture).context("a game lane stopped")?;
            idle.pop();
        }
        if idle.len() == lanes.len() {
            // Cancelled before any game was handed out, or every game played.
            return Ok(cancel.reason());
        }
        let (lane, game) = tokio::select! {
            biased;
            stop = cancel.cancelled() => {
                books.progress.finish();
                tracing::warn!(
                    "{}: stopping the running games (again, a second or more later, to stop at \
                     once)",
                    stop.name()
                );
                return Ok(Some(stop));
            }
            result = played.recv() => result.context("every game lane stopped")?,
            _ = ticks.tick() => {
                books.progress.tick();
                continue;
            }
        };
        books.keep(game?)?;
        // After the books: a game's private-folder check sees no later game's files.
        idle.push(lane);
    }
}

/// One thread playing the games it is handed, one after the other, on its own runtime.
struct Lane {
    id: usize,
    runtime: Runtime,
    games: std::sync::mpsc::Receiver<Fixture>,
    results: UnboundedSender<(usize, LaneResult)>,
    stop: watch::Receiver<bool>,
}

impl Lane {
    /// Plays games until its queue closes or `stop` turns true (then the running game is
    /// dropped, which kills its bots' process groups).
    fn run(mut self, shared: Shared<'_>) {
        let Shared {
            tournament,
            permits,
            answered,
            recording,
        } = shared;
        while let Ok(fixture) = self.games.recv() {
            let stop = &mut self.stop;
            let game = std::panic::catch_unwind(AssertUnwindSafe(|| {
                self.runtime.block_on(async {
                    tokio::select! {
                        played = play(tournament, &fixture, permits, answered, recording) => {
                            Some(played)
                        }
                        _ = stop.wait_for(|stopped| *stopped) => None,
                    }
                })
            }));
            let played = match game {
                Ok(Some(played)) => played.map_err(|fault| {
                    anyhow::anyhow!("game {} failed: {fault}", fixture.index).into()
                }),
                Ok(None) => return,
                Err(_) => {
                    Err(anyhow::anyhow!("game {} failed: its task panicked", fixture.index).into())
                }
            };
            let failed = played.is_err();
            if self.results.send((self.id, played)).is_err() || failed {
                return;
            }
        }
    }
}

/// Everything the run keeps of a finished game, written on the calling thread only: the
/// journal, the replays, progress and the private-folder check.
struct Books<'a> {
    out: &'a Path,
    tournament: &'a Tournament,
    folders: &'a [PathBuf],
    /// Each bot's digest by name, recorded with its seats.
    digests: &'a BTreeMap<String, String>,
    journal: JournalWriter,
    progress: Reporter,
    /// Games played by this run (not those it resumed or reused).
    played: u64,
    /// The early-stopping test, with every game journaled so far.
    sprt: Option<SprtTracker>,
    /// What each bot's failures left so far.
    evidence: BTreeMap<String, Evidence>,
}

impl Books<'_> {
    /// Whether the run's test is decided, so that no more games are started.
    fn decided(&self) -> bool {
        self.sprt
            .as_ref()
            .is_some_and(|sprt| sprt.status().verdict.is_some())
    }

    /// Before game `index` is handed to a lane: with private folders, marks it as under way, so
    /// that a resume after a stop that drops it puts the folders back as they were.
    fn before_game(&self, index: u64) -> Result<(), Error> {
        if !self.folders.is_empty() {
            folder_snapshot::begin(self.out, index)?;
        }
        Ok(())
    }

    fn keep(&mut self, played: Played) -> Result<(), Error> {
        let Played {
            mut record,
            replay,
            evidence,
            emptied,
        } = played;
        for (bot, later) in evidence {
            self.evidence.entry(bot).or_default().add_later(later);
        }
        for seat in record.seats.iter_mut().filter(|seat| !seat.built_in) {
            seat.digest = self.digests.get(&seat.bot).cloned();
        }
        // Before the journal line, so a journaled game always has its replay.
        if let Some(replay) = replay {
            write_replay(&replay_path(self.out, record.index), &replay)?;
        }
        let bots: Vec<&str> = record
            .seats
            .iter()
            .filter(|seat| !seat.built_in)
            .map(|seat| seat.bot.as_str())
            .collect();
        tracing::debug!(
            "game {} ({}): {}",
            record.index,
            bots.join(", "),
            record.summary
        );
        if let Some(sprt) = &mut self.sprt {
            let undecided = sprt.status().verdict.is_none();
            sprt.record(record.index, record.result_of(sprt.candidate()));
            let line = format!("SPRT: {}", sprt.status().line());
            if undecided && sprt.status().verdict.is_some() {
                tracing::info!("{line}; no more games are started");
            }
            self.progress.note(line);
        }
        self.progress.record(&record);
        check_folders(self.tournament, self.folders, record.index, &emptied)?;
        let private_folders = !self.folders.is_empty();
        if private_folders {
            folder_snapshot::sync_file_system(self.out)?;
        }
        self.journal.append(&Record::Game(record))?;
        if private_folders {
            // The record on disk first: without it, a resume goes back to the copy.
            self.journal.sync()?;
            folder_snapshot::settle(self.out, self.folders)?;
        }
        self.played += 1;
        Ok(())
    }
}

/// Journals the games of earlier runs that stand for games of this run (`--reuse`).
struct Earlier<'a> {
    pool: &'a mut ReusePool,
    /// The bots' names, in bot order.
    names: &'a [String],
    digests: &'a BTreeMap<String, String>,
    out: &'a Path,
    replays: bool,
    progress: &'a mut Progress,
    /// Earlier games not taken because replays are kept and they have none.
    without_replay: u64,
}

impl Earlier<'_> {
    /// Journals, for every game of `fixtures` not in `finished`, the earlier game with its
    /// seed and its bots unchanged in its seats (with its replay, when replays are kept and it
    /// has one), adds it to `finished`, and returns how many it journaled.
    fn reuse(
        &mut self,
        fixtures: impl Iterator<Item = Fixture>,
        journal: &mut JournalWriter,
        finished: &mut BTreeSet<u64>,
    ) -> Result<usize, Error> {
        let mut reused = 0;
        for fixture in fixtures {
            if finished.contains(&fixture.index) {
                continue;
            }
            let Some(record) = self.take(&fixture)? else {
                continue;
            };
            self.progress.record_earlier(&record);
            journal.append(&Record::Game(record))?;
            finished.insert(fixture.index);
            reused += 1;
        }
        Ok(reused)
    }

    /// The earlier game that stands for `fixture`, renumbered, with its replay copied; none
    /// if replays are kept and it has none (it is played again to have one).
    fn take(&mut self, fixture: &Fixture) -> Result<Option<GameRecord>, Error> {
        let seats = fixture
            .seats
            .iter()
            .map(|&bot| {
                let name = &self.names[bot];
                (name.clone(), self.digests[name].clone())
            })
            .collect();
        let Some(earlier) = self.pool.take(fixture.seed, seats) else {
            return Ok(None);
        };
        if self.replays {
            let Some(source) = &earlier.replay else {
                self.without_replay += 1;
                return Ok(None);
            };
            let mut replay = Replay::read(source)?;
            replay.header.index = fixture.index;
            write_replay(&replay_path(self.out, fixture.index), &replay)?;
        }
        let mut record = earlier.record;
        record.index = fixture.index;
        Ok(Some(record))
    }
}

/// After game `index`: makes again every private folder its bot replaced, empties every
/// folder beyond what the runner keeps ([`bound`](crate::folders::bound)), names the bots
/// whose folders it or their boxes (`emptied`) emptied, and every bot whose folder holds
/// more than the cap (reported, not enforced: games/cave.md, "The private folder").
fn check_folders(
    tournament: &Tournament,
    folders: &[PathBuf],
    index: u64,
    emptied: &[EmptiedFolder],
) -> Result<(), Error> {
    for (bot, folder) in tournament.bots.iter().zip(folders) {
        if let Some(why) = restore(folder)? {
            tracing::warn!("bot `{}` in game {index}: {why}", bot.name);
            if bot.program.sandbox.is_some() {
                give_to_sandbox_user(folder)?;
            }
        }
        match held_after_game(folder, emptied)? {
            Held::Emptied(why) => tracing::warn!(
                "bot `{}` after game {index}: {}",
                bot.name,
                emptied_warning(folder, &why)
            ),
            Held::Bytes(bytes) if bytes > CAP_BYTES => tracing::warn!(
                "bot `{}` keeps {bytes} bytes in {} after game {index}, over the \
                 {CAP_BYTES}-byte cap",
                bot.name,
                folder.display()
            ),
            Held::Bytes(_) => {}
        }
    }
    Ok(())
}

/// Writes a replay file whole, so a crash never leaves half a replay under its name.
fn write_replay(path: &Path, replay: &Replay) -> Result<(), Error> {
    write_atomically(path, replay.to_jsonl().as_bytes())
        .with_context(|| format!("cannot write the replay {}", path.display()))?;
    Ok(())
}

/// The runner's peak resident memory in KiB: `VmHWM` of its own address space, which starts
/// afresh at `exec` (`ru_maxrss` keeps the peak of whatever ran in the process before, cargo
/// under `cargo run`); `ru_maxrss` only where `/proc` cannot tell.
fn peak_memory_kib() -> i64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or_else(|| usage(libc::RUSAGE_SELF).ru_maxrss)
}

/// User plus system CPU seconds of this process (`RUSAGE_SELF`) or of its finished children
/// (`RUSAGE_CHILDREN`): where a tournament's time goes, runner or bots.
fn cpu_seconds(who: libc::c_int) -> f64 {
    let usage = usage(who);
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

fn usage(who: libc::c_int) -> libc::rusage {
    // SAFETY: getrusage only writes into the zeroed struct we own.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(who, &mut usage);
        usage
    }
}
