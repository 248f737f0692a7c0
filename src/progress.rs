//! Progress of a running tournament, for the log: games done, rate, time left, bot failures
//! so far and the current leaders. It keeps one tally per bot, never per game, so a long run
//! does not grow it.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::games::Scoring;
use crate::journal::GameRecord;
use crate::report::{Standing, Tally};

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
        for seat in &game.seats {
            self.tallies.entry(seat.bot.clone()).or_default().add(seat);
        }
    }

    /// One log line after `elapsed` of this run, e.g. `120/300 games, 3.2 per second, about
    /// 56 s left; failures: 0 timeouts, 0 crashes, 5 invalid replies; leading: hunter 80,
    /// bomber 30, grower 2` (leaders of the games of this run).
    pub fn line(&self, elapsed: Duration) -> String {
        let finished = self.earlier + self.done;
        let rate = self.done as f64 / elapsed.as_secs_f64().max(1e-9);
        let left = (self.total - finished.min(self.total)) as f64 / rate.max(1e-9);
        let mut standings: Vec<Standing> = self
            .tallies
            .iter()
            .map(|(name, tally)| tally.standing(name, self.scoring))
            .collect();
        let failures = |count: fn(&Standing) -> u64| standings.iter().map(count).sum::<u64>();
        let (timeouts, crashes, invalid) = (
            failures(|s| s.timeouts),
            failures(|s| s.crashes),
            failures(|s| s.invalid_replies),
        );
        standings.sort_by(Standing::by_rank);
        let leading: Vec<String> = standings
            .iter()
            .take(3)
            .map(|s| match self.scoring {
                Scoring::Wins => format!("{} {:.0}", s.name, s.score),
                Scoring::Mean => format!("{} {:.3}", s.name, s.score),
            })
            .collect();
        format!(
            "{finished}/{} games, {rate:.1} per second, about {left:.0} s left; failures: {} \
             timeouts, {} crashes, {} invalid replies; leading: {}",
            self.total,
            timeouts,
            crashes,
            invalid,
            leading.join(", ")
        )
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
                    stats: std::collections::BTreeMap::new(),
                })
                .collect(),
        }
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
    fn mean_scores_show_three_decimals() {
        let mut progress = Progress::new(Scoring::Mean, 4, 0);
        progress.record(&game(&[("a", 3), ("b", 4)]));
        progress.record(&game(&[("a", 4), ("b", 0)]));
        let line = progress.line(Duration::from_secs(1));
        assert!(line.ends_with("leading: a 3.500, b 2.000"), "{line}");
    }
}
