//! Runs a whole tournament: games in parallel, every result journaled as it arrives.
//!
//! This task is the only writer of the journal and of progress output; game tasks only
//! return their records. Ctrl-C stops the run: running games are dropped (which kills their
//! bots' process groups) and the finished games stay in the journal.

use std::collections::BTreeSet;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::config::Tournament;
use crate::driver::play_game;
use crate::errors::Error;
use crate::folders::{CAP_BYTES, folder_bytes, with_private_folders};
use crate::journal::{FORMAT_VERSION, Header, JournalWriter, Record};
use crate::progress::{Display, Progress, Style};
use crate::replay::Replay;
use crate::schedule::{fixture_count, fixtures};
use crate::shard::Shard;

/// The journal's file name inside a results folder.
pub const JOURNAL_FILE: &str = "journal.jsonl";

/// The folder of the replay files inside a results folder.
pub const REPLAYS_DIR: &str = "replays";

/// The replay file of game `index` inside a results folder.
pub fn replay_path(out: &Path, index: u64) -> PathBuf {
    out.join(REPLAYS_DIR).join(format!("game-{index}.jsonl"))
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunReport {
    /// The journal holding every finished game.
    pub journal: PathBuf,
    /// Whether Ctrl-C cut the run short.
    pub interrupted: bool,
}

/// The number of parallel jobs: `jobs`, or the number of cores for 0.
pub fn effective_jobs(jobs: usize) -> usize {
    match jobs {
        0 => std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
        n => n,
    }
}

/// Whether a run starts a new journal or continues one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// Create the journal; the folder must not hold one.
    Fresh,
    /// Continue the journal in the folder, skipping its finished games.
    Resume,
}

/// What a run plays and keeps besides the journal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunOptions {
    /// Play only this shard's games.
    pub shard: Option<Shard>,
    /// Write each game's replay to [`replay_path`].
    pub replays: bool,
    /// How progress shows on stderr.
    pub progress: Style,
}

/// Plays every game of `tournament` (of its shard, if `options` name one; for
/// [`Start::Resume`], every such game not yet in the journal), writing the journal into
/// `out` and showing progress on stderr.
pub async fn run_tournament(
    tournament: Arc<Tournament>,
    out: &Path,
    start: Start,
    options: RunOptions,
) -> Result<RunReport, Error> {
    if start == Start::Fresh {
        std::fs::create_dir_all(out)
            .with_context(|| format!("cannot create the results folder {}", out.display()))?;
    }
    let journal_path = out.join(JOURNAL_FILE);
    let kind = tournament.kind();
    let format = tournament.options.format();
    let all_games = fixture_count(format, tournament.bots.len(), tournament.games);
    let shard = options.shard;
    let total = shard.map_or(all_games, |shard| shard.games(all_games));
    let header = Header {
        format_version: FORMAT_VERSION,
        arena_version: env!("CARGO_PKG_VERSION").to_owned(),
        game: kind.name().to_owned(),
        seed: tournament.seed,
        games: tournament.games,
        bots: tournament.bots.iter().map(|bot| bot.name.clone()).collect(),
        total_games: all_games,
        config_digest: tournament.digest(),
        shard,
    };
    let (mut journal, finished) = match start {
        Start::Fresh => (
            JournalWriter::create(&journal_path, header)?,
            BTreeSet::new(),
        ),
        Start::Resume => JournalWriter::resume(&journal_path, &header)?,
    };
    // Only now: a refused resume creates nothing.
    if options.replays {
        let dir = out.join(REPLAYS_DIR);
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create the replays folder {}", dir.display()))?;
    }
    if !finished.is_empty() {
        tracing::info!(
            "resuming: {} of {total} games already played",
            finished.len()
        );
    }
    // A bot's private folder carries state from one game to the next, so such games are
    // played one at a time in index order: results then do not depend on `jobs`.
    let (tournament, folders) = if kind.private_folders() {
        let (relocated, folders) = with_private_folders(&tournament, out)?;
        (Arc::new(relocated), folders)
    } else {
        (tournament, Vec::new())
    };
    let jobs = effective_jobs(tournament.jobs);
    let games_at_once = if kind.private_folders() { 1 } else { jobs };
    let part = shard.map_or_else(String::new, |shard| format!(" (shard {shard})"));
    tracing::info!(
        "{kind}: {total} games{part}, {games_at_once} at a time; results in {}",
        out.display()
    );
    let permits = Arc::new(Semaphore::new(jobs));
    let mut pending = fixtures(
        format,
        tournament.bots.len(),
        tournament.games,
        tournament.seed,
    )
    .filter(|fixture| shard.is_none_or(|shard| shard.contains(fixture.index)))
    .filter(|fixture| !finished.contains(&fixture.index));
    let mut running = JoinSet::new();
    let mut done = finished.len() as u64;
    let mut progress = Display::start(Progress::new(kind.scoring(), total, done), options.progress);
    let started = Instant::now();
    let interrupt = tokio::signal::ctrl_c();
    tokio::pin!(interrupt);
    loop {
        while running.len() < games_at_once {
            let Some(fixture) = pending.next() else { break };
            let tournament = Arc::clone(&tournament);
            let permits = Arc::clone(&permits);
            let replays = options.replays;
            running.spawn(async move { play_game(&tournament, &fixture, &permits, replays).await });
        }
        let finished = tokio::select! {
            finished = running.join_next() => finished,
            _ = &mut interrupt => {
                progress.finish();
                tracing::warn!("interrupted: stopping the running games");
                running.shutdown().await;
                return Ok(RunReport { journal: journal_path, interrupted: true });
            }
        };
        let Some(finished) = finished else { break };
        let (record, replay) = finished.context("a game task failed")?;
        // Before the journal line, so a journaled game always has its replay.
        if let Some(replay) = replay {
            write_replay(&replay_path(out, record.index), &replay)?;
        }
        tracing::debug!(game = record.index, "{}", record.summary);
        progress.record(&record);
        warn_full_folders(&tournament, &folders, record.index);
        journal.append(&Record::Game(record))?;
        done += 1;
    }
    progress.finish();
    let (runner, bots) = (
        cpu_seconds(libc::RUSAGE_SELF),
        cpu_seconds(libc::RUSAGE_CHILDREN),
    );
    tracing::info!(
        "{done} games in {:.1} s; CPU time: runner {runner:.2} s, bots {bots:.2} s; \
         runner peak memory {} MiB",
        started.elapsed().as_secs_f64(),
        peak_memory_kib() / 1024
    );
    Ok(RunReport {
        journal: journal_path,
        interrupted: false,
    })
}

/// Names every bot whose private folder holds more than the cap after game `index` (R24: the
/// cap is reported, not enforced).
fn warn_full_folders(tournament: &Tournament, folders: &[PathBuf], index: u64) {
    for (bot, folder) in tournament.bots.iter().zip(folders) {
        let bytes = folder_bytes(folder);
        if bytes > CAP_BYTES {
            tracing::warn!(
                "bot `{}` keeps {bytes} bytes in {} after game {index}, over the \
                 {CAP_BYTES}-byte cap",
                bot.name,
                folder.display()
            );
        }
    }
}

/// Writes a replay file whole (through a temporary file and a rename, so a crash never
/// leaves half a replay under the final name).
fn write_replay(path: &Path, replay: &Replay) -> Result<(), Error> {
    let partial = path.with_extension("jsonl.partial");
    std::fs::write(&partial, replay.to_jsonl())
        .and_then(|()| std::fs::rename(&partial, path))
        .with_context(|| format!("cannot write the replay {}", path.display()))?;
    Ok(())
}

/// The runner's peak resident memory in KiB.
fn peak_memory_kib() -> i64 {
    usage(libc::RUSAGE_SELF).ru_maxrss
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
