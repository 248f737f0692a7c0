//! How long a run has left. A request costs one bot microseconds (a persistent process) and
//! another half a second (a one-shot bot that starts a JVM), and the games that end first
//! are the quick bots': a run's mean request, or its mean finished game, says little of the
//! work left. So the work left is counted per bot, from its games not finished (the slow
//! bots' are most of the last ones), its requests per game and what its requests have taken
//! so far (the running games' included); the time all exchanges took against the run's time
//! says how much of it runs at once.

use std::collections::HashMap;
use std::time::Duration;

use crate::journal::GameRecord;

/// What a bot's requests have taken in this run so far, the running games' included.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Work {
    /// Requests answered.
    pub requests: u64,
    /// The time of the exchanges they were in, each exchange's shared among its requests.
    pub seconds: f64,
}

/// One bot's part of a run, as far as its finished games tell.
#[derive(Debug, Clone, Default)]
struct BotPart {
    /// The run's games that seat it.
    of_run: f64,
    /// Its seats in finished games, this run's and earlier ones.
    games: u64,
    /// Its requests in those games.
    requests: u64,
    /// Its requests in the games this run finished: what [`Work`] counts beyond them is the
    /// running games'.
    requests_this_run: u64,
}

/// The work a run has left, bot by bot.
#[derive(Debug, Clone)]
pub struct WorkLeft {
    bots: Vec<BotPart>,
    index: HashMap<String, usize>,
}

impl WorkLeft {
    /// For a run of `games` games of the bots `names`, each seated in `shares[b]` of them
    /// (1 where every game seats every bot; 2 / n for pairs of n bots).
    pub fn new(names: &[String], shares: &[f64], games: u64) -> WorkLeft {
        WorkLeft {
            bots: (shares.iter())
                .map(|&share| BotPart {
                    of_run: share * games as f64,
                    ..BotPart::default()
                })
                .collect(),
            index: names
                .iter()
                .enumerate()
                .map(|(bot, name)| (name.clone(), bot))
                .collect(),
        }
    }

    /// Counts the seats of a finished game, one this run played if `this_run`.
    pub fn record(&mut self, game: &GameRecord, this_run: bool) {
        for seat in game.seats.iter().filter(|seat| !seat.built_in) {
            let Some(part) = (self.index.get(&seat.bot)).and_then(|&bot| self.bots.get_mut(bot))
            else {
                continue;
            };
            part.games += 1;
            part.requests += u64::from(seat.requests);
            if this_run {
                part.requests_this_run += u64::from(seat.requests);
            }
        }
    }

    /// The requests of every finished game's bots, this run's and earlier ones.
    pub fn finished_requests(&self) -> u64 {
        self.bots.iter().map(|part| part.requests).sum()
    }

    /// Seconds left for `games_left` games (the running ones included) after `elapsed` of
    /// this run, in which each bot's requests took `work` (by bot, as `names` were given).
    /// `None` until the finished games say how many requests a game has and the running
    /// ones what a request takes.
    pub fn seconds(&self, games_left: u64, elapsed: Duration, work: &[Work]) -> Option<f64> {
        let (games, requests) = (self.bots.iter()).fold((0, 0), |(games, requests), part| {
            (games + part.games, requests + part.requests)
        });
        let (answered, busy) = (work.iter()).fold((0, 0.0), |(requests, seconds), work| {
            (requests + work.requests, seconds + work.seconds)
        });
        if games == 0 || answered == 0 || busy <= 0.0 {
            return None;
        }
        let mean_requests = requests as f64 / games as f64;
        let mean_cost = busy / answered as f64;
        let busy_left: f64 = (self.bots.iter().zip(work))
            .map(|(part, work)| {
                let per_game = match part.games {
                    0 => mean_requests,
                    games => part.requests as f64 / games as f64,
                };
                let cost = match work.requests {
                    0 => mean_cost,
                    requests => work.seconds / requests as f64,
                };
                let running = work.requests.saturating_sub(part.requests_this_run) as f64;
                let unfinished = (part.of_run - part.games as f64).max(0.0);
                cost * (unfinished * per_game - running).max(0.0)
            })
            .sum();
        // As many games at once as so far, but no more than are left.
        let at_once = (busy / elapsed.as_secs_f64().max(1e-9)).min(games_left as f64);
        Some(if at_once > 0.0 {
            busy_left / at_once
        } else {
            0.0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::SeatRecord;

    fn names(names: &[&str]) -> Vec<String> {
        names.iter().map(|&name| name.to_owned()).collect()
    }

    /// A finished game of `seats`: each a bot and its requests.
    fn game(seats: &[(&str, u32)]) -> GameRecord {
        GameRecord {
            index: 0,
            seed: 0,
            summary: String::new(),
            duration_ms: 0,
            seats: (seats.iter())
                .map(|&(bot, requests)| SeatRecord {
                    requests,
                    built_in: bot == "built-in",
                    ..SeatRecord::new(bot, 0)
                })
                .collect(),
        }
    }

    fn work(requests: u64, seconds: f64) -> Work {
        Work { requests, seconds }
    }

    #[test]
    fn a_slow_bots_games_left_count_at_its_own_cost() {
        // Three bots in pairs, one game each (2 of the 3 games seat each bot): `fast`
        // answers in 1 ms, `slow` in 100 ms; every bot has 10 requests a game.
        let bots = names(&["fast", "also", "slow"]);
        let mut left = WorkLeft::new(&bots, &[2.0 / 3.0; 3], 3);
        left.record(&game(&[("fast", 10), ("also", 10)]), true);
        // Running: a game of `fast` and `slow`, 5 requests each answered; one game at a time.
        let work = [work(15, 0.015), work(10, 0.010), work(5, 0.5)];
        let elapsed = Duration::from_secs_f64(0.525);
        let seconds = left.seconds(2, elapsed, &work).unwrap();
        // Two games left, both `slow`'s, one of each other bot's, 10 requests a game, less
        // what the running game answered (5 of fast's, 5 of slow's).
        let expected = 5.0 * 0.001 + 10.0 * 0.001 + 15.0 * 0.1;
        assert!(
            (seconds - expected).abs() < 1e-9,
            "{seconds} against {expected}"
        );
        // The mean request of the run (21 ms) would have said 0.3 s: a fifth of it.
        assert!(seconds > 1.5, "{seconds}");
    }

    #[test]
    fn games_at_once_divide_the_work_but_never_more_than_the_games_left() {
        let bots = names(&["a", "b"]);
        let mut left = WorkLeft::new(&bots, &[1.0, 1.0], 11);
        left.record(&game(&[("a", 10), ("b", 10)]), true);
        // Two games at a time so far: 4 s of exchanges in 2 s, at 0.1 s a request.
        let work = [work(20, 2.0), work(20, 2.0)];
        let elapsed = Duration::from_secs(2);
        // 10 games left, 10 requests each of each bot, less the 10 each answered in the
        // running game: 18 s of exchanges, two at a time.
        assert_eq!(left.seconds(10, elapsed, &work), Some(9.0));
        // The last game, not started: its two bots' 1 s each, one after the other, however
        // many games ran at once before.
        for _ in 0..9 {
            left.record(&game(&[("a", 10), ("b", 10)]), true);
        }
        let last = [Work {
            requests: 100,
            seconds: 10.0,
        }; 2];
        assert_eq!(left.seconds(1, Duration::from_secs(10), &last), Some(2.0));
    }

    #[test]
    fn nothing_is_said_before_a_game_ends_and_bots_not_yet_seen_cost_the_mean() {
        let bots = names(&["a", "b", "new"]);
        let mut left = WorkLeft::new(&bots, &[2.0 / 3.0; 3], 4);
        let work = [work(4, 0.4), work(4, 0.4), work(0, 0.0)];
        assert_eq!(left.seconds(3, Duration::from_secs(1), &work), None);
        left.record(&game(&[("a", 3), ("b", 3)]), false);
        left.record(&game(&[("built-in", 100)]), false);
        // An earlier run's game tells requests per game (3); this run's requests are all the
        // running games'. Of the 4 games each bot is in 8/3, a and b in 5/3 not finished:
        // 5 requests, less the 4 they answered; `new` in 8/3 at the mean 0.1 s a request:
        // 1 s of exchanges, at 0.8 at once.
        let seconds = left.seconds(3, Duration::from_secs(1), &work).unwrap();
        assert!((seconds - 1.25).abs() < 1e-9, "{seconds}");
    }
}
