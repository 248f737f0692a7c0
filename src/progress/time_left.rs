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
    /// Games begun that seat it, the running ones included.
    pub games: u64,
    /// Requests answered, the starts among them included.
    pub requests: u64,
    /// The time of the exchanges of its requests that were not starts, each exchange's
    /// shared among its requests.
    pub seconds: f64,
    /// Starts: requests that started a process, every one-shot request and the first of a
    /// persistent process. A persistent bot pays a start once a game and a one-shot bot at
    /// every request: counted as one kind with the rest, a start of a second made each of a
    /// persistent bot's quick requests after it look slow.
    pub starts: u64,
    /// The time of the starts' exchanges.
    pub start_seconds: f64,
    /// The starts that were a persistent process's: requests that are not starts follow.
    pub sessions: u64,
}

impl Work {
    /// The requests that were not starts.
    fn steady(&self) -> u64 {
        self.requests.saturating_sub(self.starts)
    }
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
    /// Its seats in the games this run finished.
    games_this_run: u64,
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
                part.games_this_run += 1;
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
        let sum = |of: fn(&Work) -> f64| work.iter().map(of).sum::<f64>();
        let answered = sum(|work| work.requests as f64);
        let busy = sum(|work| work.seconds + work.start_seconds);
        if games == 0 || answered == 0.0 || busy <= 0.0 {
            return None;
        }
        let mean_requests = requests as f64 / games as f64;
        let mean_cost = busy / answered;
        // What a request that starts no process costs, for a persistent bot that has had
        // only its start so far.
        let mean_steady = match sum(|work| work.steady() as f64) {
            0.0 => mean_cost,
            steady => sum(|work| work.seconds) / steady,
        };
        let busy_left: f64 = (self.bots.iter().zip(work))
            .map(|(part, work)| {
                let per_game = match part.games {
                    0 => mean_requests,
                    games => part.requests as f64 / games as f64,
                };
                let running = work.requests.saturating_sub(part.requests_this_run) as f64;
                let unfinished = (part.of_run - part.games as f64).max(0.0);
                let left = (unfinished * per_game - running).max(0.0);
                if work.requests == 0 {
                    return mean_cost * left;
                }
                // The games not begun start as many processes each as the begun ones have.
                let not_begun =
                    part.of_run - (part.games - part.games_this_run + work.games) as f64;
                let starts_per_game = work.starts as f64 / work.games.max(1) as f64;
                let starts_left = (not_begun.max(0.0) * starts_per_game).min(left);
                let start = match work.starts {
                    0 => 0.0,
                    starts => work.start_seconds / starts as f64,
                };
                let steady = match work.steady() {
                    // More processes than games and none persistent: one per request.
                    0 if work.sessions == 0 && work.starts > work.games => start,
                    // Only its starts so far (a persistent process's, or a one-shot setup
                    // request before it): the requests after them are the run's usual.
                    0 => mean_steady,
                    requests => work.seconds / requests as f64,
                };
                start * starts_left + steady * (left - starts_left)
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

    /// What `games` begun games have taken so far of a bot whose persistent process was
    /// running before them (no start counted): `requests` in `seconds`.
    fn steady(games: u64, requests: u64, seconds: f64) -> Work {
        Work {
            games,
            requests,
            seconds,
            ..Work::default()
        }
    }

    /// Asserts that `seconds` is `expected`, to rounding.
    fn assert_near(seconds: f64, expected: f64) {
        assert!(
            (seconds - expected).abs() < 1e-9,
            "{seconds} against {expected}"
        );
    }

    #[test]
    fn a_slow_bots_games_left_count_at_its_own_cost() {
        // Three bots in pairs, one game each (2 of the 3 games seat each bot): `fast`
        // answers in 1 ms, `slow` in 100 ms; every bot has 10 requests a game.
        let bots = names(&["fast", "also", "slow"]);
        let mut left = WorkLeft::new(&bots, &[2.0 / 3.0; 3], 3);
        left.record(&game(&[("fast", 10), ("also", 10)]), true);
        // Running: a game of `fast` and `slow`, 5 requests each answered; one game at a time.
        let work = [
            steady(2, 15, 0.015),
            steady(1, 10, 0.010),
            steady(1, 5, 0.5),
        ];
        let elapsed = Duration::from_secs_f64(0.525);
        let seconds = left.seconds(2, elapsed, &work).unwrap();
        // Two games left, both `slow`'s, one of each other bot's, 10 requests a game, less
        // what the running game answered (5 of fast's, 5 of slow's).
        assert_near(seconds, 5.0 * 0.001 + 10.0 * 0.001 + 15.0 * 0.1);
        // The mean request of the run (21 ms) would have said 0.3 s: a fifth of it.
        assert!(seconds > 1.5, "{seconds}");
    }

    #[test]
    fn a_persistent_bots_start_counts_once_a_game_not_once_a_request() {
        // Two persistent bots, 4 games of both, 100 requests a game each; the first game
        // ended. `jvm` takes 1 s to start and 1 ms a request after; `quick` 1 ms for both.
        let bots = names(&["quick", "jvm"]);
        let mut left = WorkLeft::new(&bots, &[1.0, 1.0], 4);
        left.record(&game(&[("quick", 100), ("jvm", 100)]), true);
        // The second game has answered two requests of each: its start and one more.
        let started = |seconds: f64, start_seconds: f64| Work {
            games: 2,
            requests: 102,
            seconds,
            starts: 2,
            start_seconds,
            sessions: 2,
        };
        let work = [started(0.101, 0.002), started(0.100, 2.0)];
        let elapsed = Duration::from_secs_f64(2.203);
        let seconds = left.seconds(3, elapsed, &work).unwrap();
        // Two games not begun (a start each) and the running one's last 98 requests: 2
        // starts and 296 other requests of each bot, one game at a time.
        assert_near(
            seconds,
            (0.00101 * 296.0 + 0.001 * 2.0) + (0.001 * 296.0 + 1.0 * 2.0),
        );
        // Counted as requests, jvm's starts would have made each of its requests 21 ms.
        assert!(seconds < 3.0, "{seconds}");
    }

    #[test]
    fn a_bot_that_starts_a_process_per_request_pays_a_start_at_each() {
        // `oneshot` (50 ms a process) and `quick` (1 ms, persistent) in 3 games of 10
        // requests each; the first ended, the second has 2 of oneshot's answered.
        let bots = names(&["oneshot", "quick"]);
        let mut left = WorkLeft::new(&bots, &[1.0, 1.0], 3);
        left.record(&game(&[("oneshot", 10), ("quick", 10)]), true);
        let oneshot = Work {
            games: 2,
            requests: 12,
            starts: 12,
            start_seconds: 0.6,
            ..Work::default()
        };
        let work = [oneshot, steady(2, 12, 0.012)];
        let seconds = left
            .seconds(2, Duration::from_secs_f64(0.612), &work)
            .unwrap();
        // 18 requests left of each, all of oneshot's a process of their own.
        assert_near(seconds, 18.0 * 0.05 + 18.0 * 0.001);
    }

    #[test]
    fn a_setup_process_before_a_persistent_one_does_not_price_the_requests_after_it() {
        // Petri's way: each game, a one-shot setup request (20 ms, 250 ms for `node`), then
        // a persistent process (the same to start, then 1 ms a request), 100 requests a game.
        // Three bots in pairs, one game each; `py` and `py2`'s has ended, and in `py` and
        // `node`'s, `node` has just answered its setup request.
        let bots = names(&["py", "py2", "node"]);
        let mut left = WorkLeft::new(&bots, &[2.0 / 3.0; 3], 3);
        left.record(&game(&[("py", 100), ("py2", 100)]), true);
        let py = |games, requests, starts| Work {
            games,
            requests,
            seconds: 0.098,
            starts,
            start_seconds: 0.02 * starts as f64,
            sessions: starts / 2,
        };
        let node = Work {
            games: 1,
            requests: 1,
            starts: 1,
            start_seconds: 0.25,
            ..Work::default()
        };
        let work = [py(2, 102, 4), py(1, 100, 2), node];
        let seconds = left.seconds(2, Duration::from_secs_f64(0.566), &work);
        // py: the running game's other 98 requests; py2: a game not begun, 2 starts and 98
        // requests; node: a game not begun at one start so far (its later starts are not
        // known yet), and its other 198 requests at the run's usual 1 ms. About one game at
        // a time so far.
        let expected = 98.0 * 0.001 + (2.0 * 0.02 + 98.0 * 0.001) + (0.25 + 198.0 * 0.001);
        assert_near(seconds.unwrap(), expected);
    }

    #[test]
    fn games_at_once_divide_the_work_but_never_more_than_the_games_left() {
        let bots = names(&["a", "b"]);
        let mut left = WorkLeft::new(&bots, &[1.0, 1.0], 11);
        left.record(&game(&[("a", 10), ("b", 10)]), true);
        // Two games at a time so far: 4 s of exchanges in 2 s, at 0.1 s a request.
        let so_far = [steady(2, 20, 2.0), steady(2, 20, 2.0)];
        let elapsed = Duration::from_secs(2);
        // 10 games left, 10 requests each of each bot, less the 10 each answered in the
        // running game: 18 s of exchanges, two at a time.
        assert_eq!(left.seconds(10, elapsed, &so_far), Some(9.0));
        // The last game, not started: its two bots' 1 s each, one after the other, however
        // many games ran at once before.
        for _ in 0..9 {
            left.record(&game(&[("a", 10), ("b", 10)]), true);
        }
        let last = [steady(10, 100, 10.0); 2];
        assert_eq!(left.seconds(1, Duration::from_secs(10), &last), Some(2.0));
    }

    #[test]
    fn nothing_is_said_before_a_game_ends_and_bots_not_yet_seen_cost_the_mean() {
        let bots = names(&["a", "b", "new"]);
        let mut left = WorkLeft::new(&bots, &[2.0 / 3.0; 3], 4);
        let work = [steady(1, 4, 0.4), steady(1, 4, 0.4), steady(0, 0, 0.0)];
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
