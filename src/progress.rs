//! Progress of a running tournament on stderr: games done, rate, time left, bot failures so
//! far and the current leaders, as a live bar on a terminal or a log line every few seconds
//! otherwise. It keeps one tally per bot, never per game, so a long run does not grow it.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::games::Scoring;
use crate::journal::GameRecord;
use crate::report::{Standing, Tally};
use crate::text::escape_control;

/// How far a run is.
#[derive(Debug)]
pub struct Progress {
    scoring: Scoring,
    total: u64,
    /// Games finished before this run started (a resumed run).
    earlier: u64,
    /// Games finished by this run.
    done: u64,
    /// Per bot, the same tally the leaderboard keeps.
    tallies: BTreeMap<String, Tally>,
}

impl Progress {
    /// A run of `total` games of which `earlier` were already played.
    pub fn new(scoring: Scoring, total: u64, earlier: u64) -> Progress {
        Progress {
            scoring,
            total,
            earlier,
            done: 0,
            tallies: BTreeMap::new(),
        }
    }

    /// Counts one finished game.
    pub fn record(&mut self, game: &GameRecord) {
        self.done += 1;
        self.tally(game);
    }

    /// Counts one of the games played before this run (resumed or reused): among the games
    /// finished and in the standings, not in the rate, so a resumed run's leaders are those
    /// of its whole journal.
    pub fn record_earlier(&mut self, game: &GameRecord) {
        self.earlier += 1;
        self.tally(game);
    }

    /// Adds `game`'s seats to the standings.
    fn tally(&mut self, game: &GameRecord) {
        for seat in &game.seats {
            self.tallies.entry(seat.bot.clone()).or_default().add(seat);
        }
    }

    /// One log line after `elapsed` of this run, e.g. `120/300 games, 3.2 per second, about
    /// 56 s left; failures: 0 timeouts, 0 crashes, 5 invalid replies; leading: hunter 80,
    /// bomber 30, grower 2` (leaders of every game of the journal).
    pub fn line(&self, elapsed: Duration) -> String {
        let now = self.snapshot(elapsed);
        let [timeouts, crashes, invalid] = now.failures;
        format!(
            "{}/{} {}, {:.1} per second, about {:.0} s left; failures: {timeouts} \
             timeouts, {crashes} crashes, {invalid} invalid replies; leading: {}",
            now.finished,
            self.total,
            if self.total == 1 { "game" } else { "games" },
            now.rate,
            now.left,
            now.leaders.join(", ")
        )
    }

    /// The same figures, shorter, for the live bar beside it (which shows games done and
    /// the total itself): `3.2/s, 56 s left | 0 timeouts, 0 crashes, 5 invalid | hunter 80,
    /// bomber 30, grower 2`.
    pub fn status(&self, elapsed: Duration) -> String {
        let now = self.snapshot(elapsed);
        let [timeouts, crashes, invalid] = now.failures;
        format!(
            "{:.1}/s, {:.0} s left | {timeouts} timeouts, {crashes} crashes, {invalid} invalid \
             | {}",
            now.rate,
            now.left,
            now.leaders.join(", ")
        )
    }

    /// Games finished, of the whole run.
    pub fn finished(&self) -> u64 {
        self.earlier + self.done
    }

    /// The figures both displays show.
    fn snapshot(&self, elapsed: Duration) -> Snapshot {
        let finished = self.finished();
        let rate = self.done as f64 / elapsed.as_secs_f64().max(1e-9);
        let left = (self.total - finished.min(self.total)) as f64 / rate.max(1e-9);
        let mut standings: Vec<Standing> = self
            .tallies
            .iter()
            .map(|(name, tally)| tally.standing(name, self.scoring))
            .collect();
        let failures = |count: fn(&Standing) -> u64| standings.iter().map(count).sum::<u64>();
        let failures = [
            failures(|s| s.timeouts),
            failures(|s| s.crashes),
            failures(|s| s.invalid_replies),
        ];
        standings.sort_by(Standing::by_rank);
        let leaders = standings
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
        Snapshot {
            finished,
            rate,
            left,
            failures,
            leaders,
        }
    }
}

/// How far a run is, at one moment.
struct Snapshot {
    finished: u64,
    /// Games per second in this run.
    rate: f64,
    /// Seconds left at that rate.
    left: f64,
    /// Timeouts, crashes and invalid replies.
    failures: [u64; 3],
    /// The three leaders with their scores.
    leaders: Vec<String>,
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
/// below the line.
#[derive(Debug, Clone, Copy, Default)]
pub struct LogWriter;

impl Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let bar = LIVE_BAR.lock().map_or(None, |bar| bar.clone());
        match bar {
            Some(bar) => bar.suspend(|| io::stderr().write(buf)),
            None => io::stderr().write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stderr().flush()
    }
}

/// How often a progress line is logged in [`Style::Lines`].
pub const LINE_EVERY: Duration = Duration::from_secs(5);

/// A run's progress as it is shown: the figures, and the bar or the time of the last line.
#[derive(Debug)]
pub struct Display {
    progress: Progress,
    style: Style,
    bar: Option<ProgressBar>,
    started: Instant,
    last_line: Instant,
}

impl Display {
    /// Starts showing `progress` in `style`.
    pub fn start(progress: Progress, style: Style) -> Display {
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
        Display {
            progress,
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
            bar.set_message(self.progress.status(self.started.elapsed()));
        }
        self.tick();
    }

    /// Logs the progress line if [`LINE_EVERY`] has passed since the last one, in
    /// [`Style::Lines`]: called as games end and every [`LINE_EVERY`] besides, so a log
    /// shows progress while long games run.
    pub fn tick(&mut self) {
        if self.style == Style::Lines && self.last_line.elapsed() >= LINE_EVERY {
            self.last_line = Instant::now();
            tracing::info!("{}", self.progress.line(self.started.elapsed()));
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
impl Drop for Display {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GameResult;
    use crate::journal::SeatRecord;

    fn game(scores: &[(&str, i64)]) -> GameRecord {
        GameRecord {
            index: 0,
            seed: 0,
            summary: String::new(),
            duration_ms: 0,
            seats: scores
                .iter()
                .map(|&(bot, score)| SeatRecord {
                    bot: bot.into(),
                    score,
                    result: Some(if score > 0 {
                        GameResult::Win
                    } else {
                        GameResult::Loss
                    }),
                    requests: 5,
                    timeouts: 1,
                    crashes: 0,
                    invalid_replies: 2,
                    invalid_reasons: std::collections::BTreeMap::new(),
                    built_in: false,
                    stats: std::collections::BTreeMap::new(),
                    digest: None,
                })
                .collect(),
        }
    }

    #[test]
    fn a_resumed_run_leads_with_the_whole_journal_but_rates_its_own_games() {
        let mut progress = Progress::new(Scoring::Wins, 10, 0);
        progress.record_earlier(&game(&[("a", 1), ("b", 0)]));
        progress.record_earlier(&game(&[("a", 1), ("b", 0)]));
        progress.record(&game(&[("b", 1), ("a", 0)]));
        let line = progress.line(Duration::from_secs(1));
        assert!(
            line.starts_with("3/10 games, 1.0 per second, about 7 s left;"),
            "{line}"
        );
        assert!(line.ends_with("leading: a 2, b 1"), "{line}");
    }

    #[test]
    fn the_line_shows_rate_time_left_failures_and_leaders() {
        let mut progress = Progress::new(Scoring::Wins, 10, 2);
        progress.record(&game(&[("a", 1), ("b", 0)]));
        progress.record(&game(&[("c", 1), ("a", 0)]));
        progress.record(&game(&[("a", 1), ("d", 0)]));
        progress.record(&game(&[("e", 0), ("c", 1)]));
        assert_eq!(
            progress.line(Duration::from_secs(2)),
            "6/10 games, 2.0 per second, about 2 s left; failures: 8 timeouts, 0 crashes, \
             16 invalid replies; leading: a 2, c 2, b 0"
        );
    }

    #[test]
    fn the_status_beside_the_bar_is_short() {
        let mut progress = Progress::new(Scoring::Wins, 10, 2);
        progress.record(&game(&[("a", 1), ("b", 0)]));
        progress.record(&game(&[("c", 1), ("a", 0)]));
        assert_eq!(progress.finished(), 4);
        assert_eq!(
            progress.status(Duration::from_secs(1)),
            "2.0/s, 3 s left | 4 timeouts, 0 crashes, 8 invalid | a 1, c 1, b 0"
        );
    }

    #[test]
    fn leaders_names_are_shown_escaped() {
        let mut progress = Progress::new(Scoring::Wins, 1, 0);
        progress.record(&game(&[("\x1b]0;title\x07", 1)]));
        let status = progress.status(Duration::from_secs(1));
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
        let mut progress = Progress::new(Scoring::Mean, 4, 0);
        progress.record(&game(&[("a", 3), ("b", 4)]));
        progress.record(&game(&[("a", 4), ("b", 0)]));
        let line = progress.line(Duration::from_secs(1));
        assert!(line.ends_with("leading: a 3.500, b 2.000"), "{line}");
    }
}
