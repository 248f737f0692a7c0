//! Progress of a running tournament on stderr: games done, rate, time left, bot failures so
//! far and the current leaders, as a live bar on a terminal or a log line every few seconds
//! otherwise. It keeps one tally per bot, never per game, so a long run does not grow it.
//!
//! Time left is measured in requests, bot by bot, not in games: a game of one-shot bots can
//! run for minutes, and a rate of finished games says nothing until several have ended (see
//! [`mod@time_left`]).

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::journal::GameRecord;
use crate::report::{BotTotals, Standing};
use crate::text::escape_control;
use arena_games::Scoring;

mod time_left;

pub use time_left::{Work, WorkLeft};

/// How far a run is.
#[derive(Debug)]
pub struct Progress {
    scoring: Scoring,
    total: u64,
    /// Games finished before this run started (a resumed run).
    earlier: u64,
    /// Games finished by this run.
    done: u64,
    /// Failures of the games finished by this run: what [`Answered`] counts beyond them is
    /// the running games'.
    failures_done: Failures,
    /// The work left, bot by bot.
    work_left: WorkLeft,
    /// Per bot, the same tally the leaderboard keeps.
    tallies: BTreeMap<String, BotTotals>,
    /// More to show at the end of the line (an SPRT's ratio).
    note: Option<String>,
}

/// What a run's games have answered so far, finished or not: the requests, the failures
/// among them, and per bot what its requests took. Every lane counts its own games' as they
/// go, so the progress shows a long game's timeouts while it runs, not only once it ends.
#[derive(Debug)]
pub struct Answered {
    failures: [AtomicU64; 3],
    /// By the tournament's bot index, as [`Work`] counts them: games, requests, nanoseconds
    /// of their exchanges, starts, nanoseconds of theirs, and sessions.
    bots: Box<[[AtomicU64; 6]]>,
}

/// Whether a request started a process, which the time left counts apart ([`Work::starts`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Start {
    /// It went to a persistent process that was running.
    #[default]
    No,
    /// A one-shot request: a process of its own.
    OneShot,
    /// The first request of a persistent process.
    Session,
}

/// Timeouts, crashes and invalid replies, in that order.
pub type Failures = [u64; 3];

/// One reading of [`Answered`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Count {
    /// The failures among the requests.
    pub failures: Failures,
    /// What each bot's requests took, by tournament index.
    pub work: Vec<Work>,
}

impl Count {
    /// Requests answered (replies, timeouts and crashes alike): every bot's.
    pub fn requests(&self) -> u64 {
        self.work.iter().map(|work| work.requests).sum()
    }
}

impl Answered {
    /// Nothing answered yet, by a tournament of `bots` bots.
    pub fn new(bots: usize) -> Answered {
        Answered {
            failures: Default::default(),
            bots: (0..bots).map(|_| Default::default()).collect(),
        }
    }

    /// Counts a game that seats the bot `bot` (by tournament index), as it begins.
    pub fn began(&self, bot: usize) {
        if let Some([games, ..]) = self.bots.get(bot) {
            games.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Counts a request to the bot `bot` (by tournament index) and `took`, the time its
    /// requests took since the last count (zero for more requests of one exchange), and
    /// whether it started a process.
    pub fn took(&self, bot: usize, took: Duration, start: Start) {
        if let Some([_, requests, nanos, starts, start_nanos, sessions]) = self.bots.get(bot) {
            requests.fetch_add(1, Ordering::Relaxed);
            let took = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
            if start == Start::No {
                nanos.fetch_add(took, Ordering::Relaxed);
            } else {
                starts.fetch_add(1, Ordering::Relaxed);
                start_nanos.fetch_add(took, Ordering::Relaxed);
            }
            if start == Start::Session {
                sessions.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// What each bot's requests took so far, by tournament index.
    fn work(&self) -> Vec<Work> {
        let seconds = |nanos: &AtomicU64| nanos.load(Ordering::Relaxed) as f64 / 1e9;
        (self.bots.iter())
            .map(
                |[games, requests, nanos, starts, start_nanos, sessions]| Work {
                    games: games.load(Ordering::Relaxed),
                    requests: requests.load(Ordering::Relaxed),
                    seconds: seconds(nanos),
                    starts: starts.load(Ordering::Relaxed),
                    start_seconds: seconds(start_nanos),
                    sessions: sessions.load(Ordering::Relaxed),
                },
            )
            .collect()
    }

    /// Counts `failures` among the requests answered (counted by [`Answered::took`]).
    pub fn failed(&self, failures: Failures) {
        for (total, more) in self.failures.iter().zip(failures) {
            if more > 0 {
                total.fetch_add(more, Ordering::Relaxed);
            }
        }
    }

    /// What has been counted.
    pub fn count(&self) -> Count {
        Count {
            failures: self
                .failures
                .each_ref()
                .map(|total| total.load(Ordering::Relaxed)),
            work: self.work(),
        }
    }
}

impl Progress {
    /// A run of `total` games, whose work left is counted in `work_left`.
    pub fn new(scoring: Scoring, total: u64, work_left: WorkLeft) -> Progress {
        Progress {
            scoring,
            total,
            earlier: 0,
            done: 0,
            failures_done: [0; 3],
            work_left,
            tallies: BTreeMap::new(),
            note: None,
        }
    }

    /// Counts one finished game.
    pub fn record(&mut self, game: &GameRecord) {
        self.done += 1;
        self.work_left.record(game, true);
        for seat in &game.seats {
            let failures = [seat.timeouts, seat.crashes, seat.invalid_replies];
            for (done, more) in self.failures_done.iter_mut().zip(failures) {
                *done += u64::from(more);
            }
        }
        self.tally(game);
    }

    /// Counts one of the games played before this run (resumed or reused): among the games
    /// finished and in the standings, not in the rate, so a resumed run's leaders are those
    /// of its whole journal.
    pub fn record_earlier(&mut self, game: &GameRecord) {
        self.earlier += 1;
        self.work_left.record(game, false);
        self.tally(game);
    }

    /// Shows `note` at the end of the line from now on.
    pub fn note(&mut self, note: String) {
        self.note = Some(note);
    }

    /// `; note` for the line, ` | note` for the bar, or nothing.
    fn noted(&self, separator: &str) -> String {
        self.note
            .as_ref()
            .map_or_else(String::new, |note| format!("{separator}{note}"))
    }

    /// Adds `game`'s seats to the standings.
    fn tally(&mut self, game: &GameRecord) {
        for seat in &game.seats {
            self.tallies.entry(seat.bot.clone()).or_default().add(seat);
        }
    }

    /// One log line after `elapsed` of this run, in which `answered` were counted, e.g.
    /// `120/300 games (3.2 per second), 9600 requests (768 per second), about 56 s left;
    /// failures: 0 timeouts, 0 crashes, 5 invalid replies; leading: hunter 80, bomber 30,
    /// grower 2` (leaders of every game of the journal; failures of every finished game
    /// and of the running ones so far).
    pub fn line(&self, elapsed: Duration, answered: &Count) -> String {
        let now = self.snapshot(elapsed, answered);
        let [timeouts, crashes, invalid] = now.failures;
        format!(
            "{}/{} {} ({}), {} requests ({:.0} per second), {}; \
             failures: {timeouts} timeouts, {crashes} crashes, {invalid} invalid replies; \
             leading: {}{}",
            now.finished,
            self.total,
            if self.total == 1 { "game" } else { "games" },
            game_rate(now.game_rate, " per second", " per minute"),
            answered.requests(),
            now.request_rate,
            time_left(now.left),
            now.leaders.join(", "),
            self.noted("; ")
        )
    }

    /// The same figures, shorter, for the live bar beside it (which shows games done and
    /// the total itself): `3.2/s, 768 requests/s, about 56 s left | 0 timeouts, 0 crashes,
    /// 5 invalid | hunter 80, bomber 30, grower 2`.
    pub fn status(&self, elapsed: Duration, answered: &Count) -> String {
        let now = self.snapshot(elapsed, answered);
        let [timeouts, crashes, invalid] = now.failures;
        format!(
            "{}, {:.0} requests/s, {} | {timeouts} timeouts, {crashes} crashes, \
             {invalid} invalid | {}{}",
            game_rate(now.game_rate, "/s", "/min"),
            now.request_rate,
            time_left(now.left),
            now.leaders.join(", "),
            self.noted(" | ")
        )
    }

    /// Games finished, of the whole run.
    pub fn finished(&self) -> u64 {
        self.earlier + self.done
    }

    /// Seconds left after `elapsed`, in which `answered` were answered; none before any
    /// game has ended (nothing yet says how long a game is) or any request was answered.
    fn seconds_left(&self, elapsed: Duration, answered: &Count) -> Option<f64> {
        let finished = self.finished();
        let games_left = self.total.saturating_sub(finished);
        if games_left == 0 {
            return Some(0.0);
        }
        if finished > 0 && self.work_left.finished_requests() == 0 {
            // Games without requests: only finished games measure the pace.
            let game_rate = self.done as f64 / elapsed.as_secs_f64().max(1e-9);
            return (self.done > 0).then(|| games_left as f64 / game_rate);
        }
        self.work_left.seconds(games_left, elapsed, &answered.work)
    }

    /// The figures both displays show.
    fn snapshot(&self, elapsed: Duration, answered: &Count) -> Snapshot {
        let requests = answered.requests();
        let finished = self.finished();
        let seconds = elapsed.as_secs_f64().max(1e-9);
        let mut standings: Vec<Standing> = self
            .tallies
            .iter()
            .map(|(name, tally)| tally.standing(name, self.scoring))
            .collect();
        let total = |count: fn(&Standing) -> u64| standings.iter().map(count).sum::<u64>();
        // The finished games' from their records, then what the running ones counted so far.
        let mut failures = [
            total(|s| s.timeouts),
            total(|s| s.crashes),
            total(|s| s.invalid_replies),
        ];
        for ((shown, counted), done) in failures
            .iter_mut()
            .zip(answered.failures)
            .zip(self.failures_done)
        {
            *shown += counted.saturating_sub(done);
        }
        standings.sort_by(Standing::by_rank);
        let mut leaders: Vec<String> = standings
            .iter()
            .take(3)
            .map(|s| {
                // Names from a resumed journal were never checked like a tournament file's.
                let name = escape_control(&s.name);
                match self.scoring {
                    Scoring::Wins => format!("{name} {:.0}", s.score),
                    Scoring::Mean => format!("{name} {:.3}", s.score),
                }
            })
            .collect();
        if leaders.is_empty() {
            leaders.push("none yet".to_owned());
        }
        Snapshot {
            finished,
            game_rate: self.done as f64 / seconds,
            request_rate: requests as f64 / seconds,
            left: self.seconds_left(elapsed, answered),
            failures,
            leaders,
        }
    }
}

/// How far a run is, at one moment.
struct Snapshot {
    finished: u64,
    /// Games finished per second in this run.
    game_rate: f64,
    /// Requests answered per second in this run.
    request_rate: f64,
    /// Seconds left, once it can be told.
    left: Option<f64>,
    /// Timeouts, crashes and invalid replies.
    failures: [u64; 3],
    /// The three leaders with their scores.
    leaders: Vec<String>,
}

/// Games per second with one decimal and `per_second_unit`, or per minute when a game takes
/// longer than ten seconds, which per second would show as nothing.
fn game_rate(per_second: f64, per_second_unit: &str, per_minute_unit: &str) -> String {
    if per_second > 0.0 && per_second < 0.1 {
        format!("{:.1}{per_minute_unit}", per_second * 60.0)
    } else {
        format!("{per_second:.1}{per_second_unit}")
    }
}

/// `about 56 s left`, `about 12 min left`, `about 3 h 05 min left`, or that it is not known
/// yet.
fn time_left(seconds: Option<f64>) -> String {
    let Some(seconds) = seconds else {
        return "time left known once a game ends".to_owned();
    };
    let seconds = seconds.round() as u64;
    match seconds {
        0..120 => format!("about {seconds} s left"),
        120..7200 => format!("about {} min left", (seconds + 30) / 60),
        _ => {
            let minutes = (seconds + 30) / 60;
            format!("about {} h {:02} min left", minutes / 60, minutes % 60)
        }
    }
}

/// How a run shows its progress on stderr; never on stdout, which carries the results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// A live bar redrawn in place, for a terminal.
    Live,
    /// A log line every [`LINE_EVERY`], for a file or a pipe.
    Lines,
    /// Nothing (`--quiet`).
    Off,
}

impl Style {
    /// The style for a run: nothing when quiet, the live bar when stderr is a terminal and
    /// the log is not verbose (a line per game would scroll the bar away).
    pub fn choose(quiet: bool, verbose: bool, stderr_is_terminal: bool) -> Style {
        match (quiet, verbose, stderr_is_terminal) {
            (true, _, _) => Style::Off,
            (false, false, true) => Style::Live,
            (false, _, _) => Style::Lines,
        }
    }
}

/// The live bar while one is showing, so that log lines are written above it rather than
/// through it (see [`LogWriter`]).
static LIVE_BAR: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Stderr for log lines: while the live bar shows, it is hidden for the write and redrawn
/// below the line. It never fails: a line stderr cannot take is dropped (see
/// [`crate::stderr`]), where an error would have the log library report it with `eprintln!`,
/// which panics on the same closed stderr.
#[derive(Debug, Clone, Copy, Default)]
pub struct LogWriter;

impl Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let bar = LIVE_BAR.lock().map_or(None, |bar| bar.clone());
        match bar {
            Some(bar) => bar.suspend(|| crate::stderr::write(buf)),
            None => crate::stderr::write(buf),
        }
        Ok(buf.len())
    }

    /// Nothing to flush: stderr is not buffered.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// How often a progress line is logged in [`Style::Lines`].
pub const LINE_EVERY: Duration = Duration::from_secs(5);

/// How often the run refreshes its progress while no game ends.
pub const TICK_EVERY: Duration = Duration::from_secs(1);

/// A run's progress as it is shown: the figures, and the bar or the time of the last line.
#[derive(Debug)]
pub struct Reporter {
    progress: Progress,
    /// What the run's games have answered, finished or not.
    answered: Arc<Answered>,
    style: Style,
    bar: Option<ProgressBar>,
    started: Instant,
    last_line: Instant,
}

impl Reporter {
    /// Starts showing `progress` in `style`, with what the run's games have `answered`.
    pub fn start(progress: Progress, style: Style, answered: Arc<Answered>) -> Reporter {
        let bar = (style == Style::Live).then(|| {
            let bar = ProgressBar::new(progress.total).with_style(
                ProgressStyle::with_template(&format!(
                    "{{bar:24}} {{pos}}/{{len}} {}, {{msg}}",
                    if progress.total == 1 { "game" } else { "games" }
                ))
                .expect("the template is valid"),
            );
            bar.set_position(progress.finished());
            bar.set_message("starting");
            bar.enable_steady_tick(Duration::from_millis(250));
            if let Ok(mut live) = LIVE_BAR.lock() {
                *live = Some(bar.clone());
            }
            bar
        });
        let now = Instant::now();
        Reporter {
            progress,
            answered,
            style,
            bar,
            started: now,
            last_line: now,
        }
    }

    /// Counts one finished game and shows it.
    pub fn record(&mut self, game: &GameRecord) {
        self.progress.record(game);
        if let Some(bar) = &self.bar {
            bar.set_position(self.progress.finished());
        }
        self.tick();
    }

    /// Shows `note` at the end of the progress line from now on.
    pub fn note(&mut self, note: String) {
        self.progress.note(note);
    }

    /// Refreshes the bar's figures, and logs the progress line if [`LINE_EVERY`] has passed
    /// since the last one in [`Style::Lines`]: called as games end and every [`TICK_EVERY`]
    /// besides, so both show progress while long games run.
    pub fn tick(&mut self) {
        let (elapsed, answered) = (self.started.elapsed(), self.answered.count());
        if let Some(bar) = &self.bar {
            bar.set_message(self.progress.status(elapsed, &answered));
        }
        if self.style == Style::Lines && self.last_line.elapsed() >= LINE_EVERY {
            self.last_line = Instant::now();
            tracing::info!("{}", self.progress.line(elapsed, &answered));
        }
    }

    /// Removes the bar, so what follows is printed on a clean line.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            if let Ok(mut live) = LIVE_BAR.lock() {
                *live = None;
            }
            bar.finish_and_clear();
        }
    }
}

/// A run that ends early (an error) leaves no bar behind either.
impl Drop for Reporter {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::SeatRecord;
    use arena_games::engine::GameResult;

    /// A run of `total` games of pairs of the bots `names`.
    fn run_of(names: &[&str], total: u64) -> Progress {
        let names: Vec<String> = names.iter().map(|&name| name.to_owned()).collect();
        let share = 2.0 / names.len() as f64;
        Progress::new(
            Scoring::Wins,
            total,
            WorkLeft::new(&names, &vec![share; names.len()], total),
        )
    }

    /// Each bot's requests answered (by the order of [`run_of`]'s names), each taking
    /// `seconds`; none of them failed.
    fn answered(requests: &[u64], seconds: f64) -> Count {
        Count {
            failures: [0; 3],
            work: (requests.iter())
                .map(|&requests| Work {
                    requests,
                    seconds: requests as f64 * seconds,
                    ..Work::default()
                })
                .collect(),
        }
    }

    fn game(scores: &[(&str, i64)]) -> GameRecord {
        GameRecord {
            index: 0,
            seed: 0,
            summary: String::new(),
            duration_ms: 0,
            seats: scores
                .iter()
                .map(|&(bot, score)| SeatRecord {
                    result: Some(if score > 0 {
                        GameResult::Win
                    } else {
                        GameResult::Loss
                    }),
                    requests: 5,
                    timeouts: 1,
                    invalid_replies: 2,
                    ..SeatRecord::new(bot, score)
                })
                .collect(),
        }
    }

    #[test]
    fn a_resumed_run_leads_with_the_whole_journal_but_rates_its_own_games() {
        let mut progress = run_of(&["a", "b"], 10);
        progress.record_earlier(&game(&[("a", 1), ("b", 0)]));
        progress.record_earlier(&game(&[("a", 1), ("b", 0)]));
        progress.record(&game(&[("b", 1), ("a", 0)]));
        let line = progress.line(Duration::from_secs(1), &answered(&[5, 5], 0.1));
        // 7 games of 10 requests left, at 10 requests per second.
        assert!(
            line.starts_with(
                "3/10 games (1.0 per second), 10 requests (10 per second), about 7 s left;"
            ),
            "{line}"
        );
        assert!(line.ends_with("leading: a 2, b 1"), "{line}");
    }

    #[test]
    fn the_line_shows_rates_time_left_failures_and_leaders() {
        let mut progress = run_of(&["a", "b", "c", "d", "e"], 10);
        progress.record(&game(&[("a", 1), ("b", 0)]));
        progress.record(&game(&[("c", 1), ("a", 0)]));
        progress.record(&game(&[("a", 1), ("d", 0)]));
        progress.record(&game(&[("e", 0), ("c", 1)]));
        // 6 games left, 2/5 of them each bot's, 5 requests a game of 50 ms each.
        assert_eq!(
            progress.line(Duration::from_secs(2), &answered(&[15, 5, 10, 5, 5], 0.05)),
            "4/10 games (2.0 per second), 40 requests (20 per second), about 3 s left; \
             failures: 8 timeouts, 0 crashes, 16 invalid replies; leading: a 2, c 2, b 0"
        );
    }

    #[test]
    fn failures_of_running_games_are_shown_before_they_end() {
        let mut progress = run_of(&["a", "b"], 10);
        progress.record_earlier(&game(&[("a", 1), ("b", 0)]));
        progress.record(&game(&[("a", 1), ("b", 0)]));
        // This run's finished game counted 2 timeouts and 4 invalid replies as it ran; the
        // running games 3 timeouts, 1 crash and 1 invalid reply more.
        let answered = Count {
            failures: [2 + 3, 1, 4 + 1],
            ..answered(&[15, 15], 0.01)
        };
        let line = progress.line(Duration::from_secs(1), &answered);
        // The earlier game's 2 timeouts and 4 invalid replies come from its record.
        assert!(
            line.contains("failures: 7 timeouts, 1 crashes, 9 invalid replies;"),
            "{line}"
        );
        let status = progress.status(Duration::from_secs(1), &answered);
        assert!(
            status.contains("| 7 timeouts, 1 crashes, 9 invalid |"),
            "{status}"
        );
    }

    #[test]
    fn time_left_counts_the_requests_of_the_running_games() {
        let mut progress = run_of(&["a", "b"], 10);
        progress.record(&game(&[("a", 1), ("b", 0)]));
        progress.record(&game(&[("a", 1), ("b", 0)]));
        // 10 requests per game; 8 games left, 10 requests of them already answered: 70 at
        // 15 per second.
        let line = progress.line(Duration::from_secs(2), &answered(&[15, 15], 1.0 / 15.0));
        assert!(line.contains("about 5 s left"), "{line}");
        // Running games that have answered more than a game's mean are about to end.
        let line = progress.line(Duration::from_secs(2), &answered(&[100, 100], 0.01));
        assert!(line.contains("about 0 s left"), "{line}");
    }

    #[test]
    fn a_start_is_counted_apart_from_the_requests_after_it() {
        let answered = Answered::new(1);
        answered.began(0);
        answered.took(0, Duration::from_millis(30), Start::OneShot);
        answered.took(0, Duration::from_millis(500), Start::Session);
        answered.took(0, Duration::from_millis(2), Start::No);
        answered.took(0, Duration::ZERO, Start::No);
        let work = Work {
            games: 1,
            requests: 4,
            seconds: 0.002,
            starts: 2,
            start_seconds: 0.53,
            sessions: 1,
        };
        assert_eq!(answered.count().work, vec![work]);
    }

    #[test]
    fn the_slow_bots_games_left_are_counted_at_their_own_pace() {
        // `slow` starts a process per request (0.5 s); the others answer in 1 ms. The first
        // round's quick game ended; the slow ones run.
        let mut progress = run_of(&["quick", "also", "slow"], 12);
        progress.record(&game(&[("quick", 1), ("also", 0)]));
        let work = answered(&[5 + 2, 5 + 2, 4], 0.001);
        let slow = Work {
            games: 2,
            requests: 4,
            starts: 4,
            start_seconds: 2.0,
            ..Work::default()
        };
        let count = Count {
            work: vec![work.work[0], work.work[1], slow],
            ..work
        };
        // `slow` is in 8 of the 12 games, none finished: at 5 requests a game (the finished
        // game's), 40 less the 4 it answered, at 0.5 s each: 18 s of its own; about two
        // games at a time so far (2 s of exchanges in 1 s).
        let line = progress.line(Duration::from_secs(1), &count);
        assert!(line.contains("about 9 s left"), "{line}");
    }

    #[test]
    fn a_long_first_game_shows_its_requests_before_any_time_left() {
        let progress = run_of(&["a", "b"], 300);
        let line = progress.line(Duration::from_secs(60), &answered(&[600, 600], 0.05));
        assert!(
            line.starts_with(
                "0/300 games (0.0 per second), 1200 requests (20 per second), time left \
                 known once a game ends;"
            ),
            "{line}"
        );
        assert!(line.ends_with("; leading: none yet"), "{line}");
    }

    #[test]
    fn slow_games_are_counted_per_minute() {
        assert_eq!(
            game_rate(0.0, " per second", " per minute"),
            "0.0 per second"
        );
        assert_eq!(
            game_rate(0.005, " per second", " per minute"),
            "0.3 per minute"
        );
        assert_eq!(game_rate(0.1, "/s", "/min"), "0.1/s");
        assert_eq!(game_rate(2.25, "/s", "/min"), "2.2/s");
    }

    #[test]
    fn time_left_reads_in_seconds_minutes_or_hours() {
        assert_eq!(time_left(Some(59.4)), "about 59 s left");
        assert_eq!(time_left(Some(600.0)), "about 10 min left");
        assert_eq!(time_left(Some(5340.0)), "about 89 min left");
        assert_eq!(time_left(Some(11_000.0)), "about 3 h 03 min left");
        assert_eq!(time_left(None), "time left known once a game ends");
    }

    #[test]
    fn the_status_beside_the_bar_is_short() {
        let mut progress = run_of(&["a", "b", "c"], 10);
        progress.record(&game(&[("a", 1), ("b", 0)]));
        progress.record(&game(&[("c", 1), ("a", 0)]));
        assert_eq!(progress.finished(), 2);
        assert_eq!(
            progress.status(Duration::from_secs(1), &answered(&[10, 5, 5], 0.05)),
            "2.0/s, 20 requests/s, about 4 s left | 4 timeouts, 0 crashes, 8 invalid | a 1, \
             c 1, b 0"
        );
    }

    #[test]
    fn leaders_names_are_shown_escaped() {
        let mut progress = run_of(&["a", "b"], 1);
        progress.record(&game(&[("\x1b]0;title\x07", 1)]));
        let status = progress.status(Duration::from_secs(1), &answered(&[], 0.0));
        assert!(status.ends_with("| \\x1b]0;title\\x07 1"), "{status}");
    }

    #[test]
    fn quiet_runs_show_nothing_and_terminals_get_the_live_bar_unless_verbose() {
        assert_eq!(Style::choose(true, false, true), Style::Off);
        assert_eq!(Style::choose(false, false, true), Style::Live);
        assert_eq!(Style::choose(false, true, true), Style::Lines);
        assert_eq!(Style::choose(false, false, false), Style::Lines);
    }

    #[test]
    fn mean_scores_show_three_decimals() {
        let mut progress = Progress {
            scoring: Scoring::Mean,
            ..run_of(&["a", "b"], 4)
        };
        progress.record(&game(&[("a", 3), ("b", 4)]));
        progress.record(&game(&[("a", 4), ("b", 0)]));
        let line = progress.line(Duration::from_secs(1), &answered(&[10, 10], 0.01));
        assert!(line.ends_with("leading: a 3.500, b 2.000"), "{line}");
    }
}
