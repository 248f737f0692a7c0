//! The end-of-run summary of bots that failed: a bot whose script cannot start crashes in
//! every game, and without this its author sees only a `crashes` column and exit status 0.
//! Pure: it reads the leaderboard's per-bot counts and the stderr the run kept, and returns
//! lines.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::config::Timeouts;
use crate::journal::OVERSIZED_REASON;
use crate::report::{Leaderboard, Standing};
use crate::text::{escape_control, plural};
use arena_games::GameKind;

/// How many of the last lines of a bot's stderr the summary shows.
pub const STDERR_LINES: usize = 5;

/// What a run kept of one bot's failures to show its author: the counts alone do not say
/// why a bot failed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Evidence {
    /// The end of its stderr in its last failed request that wrote any.
    pub stderr: Vec<u8>,
    /// Its first invalid reply, as one line with why it was rejected.
    pub first_invalid: Option<String>,
    /// How its first crash ended (an exit status, a signal and its limit, a failed start).
    pub first_crash: Option<String>,
    /// Whether a persistent process of it failed: the failure ended it, and the game's
    /// fallback answered the rest of its requests. (A Petri bot chooses its mode, and its
    /// setup request is a one-shot one.)
    pub persistent_failed: bool,
}

impl Evidence {
    /// Whether nothing was kept.
    pub fn is_empty(&self) -> bool {
        self.stderr.is_empty()
            && self.first_invalid.is_none()
            && self.first_crash.is_none()
            && !self.persistent_failed
    }

    /// Adds what a later game kept: its stderr is the later, its firsts are not.
    pub fn add_later(&mut self, later: Evidence) {
        if !later.stderr.is_empty() {
            self.stderr = later.stderr;
        }
        self.first_invalid = self.first_invalid.take().or(later.first_invalid);
        self.first_crash = self.first_crash.take().or(later.first_crash);
        self.persistent_failed |= later.persistent_failed;
    }
}

/// The limits a bot's failures broke, named where its paragraph explains them.
#[derive(Debug, Clone, Copy)]
pub struct FailureLimits {
    /// The time for a request, and for a setup request.
    pub timeouts: Timeouts,
    /// The longest reply accepted, in bytes (`max_reply_bytes`).
    pub max_reply_bytes: usize,
}

/// The failures of `bot`: timeouts, crashes and invalid replies. Not a number of requests:
/// a game that judges a reply per instance (AlienWar) counts each instance's invalid move.
fn failed(bot: &Standing) -> u64 {
    bot.timeouts + bot.crashes + bot.invalid_replies
}

/// Whether a request of the bot timed out, crashed or replied over the size cap in each of
/// the games it was asked in: a persistent process ends at its first, so a bot that answered
/// nothing after one timeout a game shows few failures among many requests (the fallback's
/// count too). Games an opponent forfeited before asking it anything do not clear it.
fn failed_every_game(bot: &Standing) -> bool {
    bot.games_asked > 0 && bot.games_with_an_ending_failure == bot.games_asked
}

/// More failures than a tenth of its requests, or a failure that ends a persistent process
/// in every game.
fn worth_a_warning(bot: &Standing) -> bool {
    failed(bot) * 10 > bot.requests || failed_every_game(bot)
}

/// One paragraph per bot of `board` with more failures than a tenth of its requests or a
/// timeout, crash or oversized reply in every game, in name order: its counts by kind
/// (invalid replies by reason), how its first crash of the run ended, its first invalid reply
/// (a `\r` or a stray word there is often the whole story) and the last [`STDERR_LINES`]
/// lines of its stderr in a failed request, from the run's `evidence` (none for games resumed
/// or reused). Empty if no bot failed that often.
pub fn failing_bots(
    board: &Leaderboard,
    evidence: &BTreeMap<String, Evidence>,
    limits: FailureLimits,
) -> Vec<String> {
    let mut bots: Vec<&Standing> = board
        .leaderboard
        .iter()
        .filter(|bot| !bot.built_in && worth_a_warning(bot))
        .collect();
    bots.sort_by(|a, b| a.name.cmp(&b.name));
    let persistent = GameKind::from_name(&board.game).is_some_and(GameKind::persistent_processes);
    bots.into_iter()
        .map(|bot| paragraph(bot, evidence.get(&bot.name), persistent, limits))
        .collect()
}

/// `persistent`: whether the game's bots may answer from one process kept for the game,
/// whose first request has the setup requests' time.
fn paragraph(
    bot: &Standing,
    evidence: Option<&Evidence>,
    persistent: bool,
    limits: FailureLimits,
) -> String {
    let Standing {
        name,
        games,
        requests,
        timeouts,
        crashes,
        invalid_replies,
        ..
    } = bot;
    let mut text = if crashes == requests && *requests == 1 {
        format!("bot {name} crashed in its one request")
    } else if crashes == requests {
        format!("bot {name} crashed in every one of its {requests} requests")
    } else {
        let games = plural(*games, "game", "games");
        // A game that judges each instance's answer (AlienWar) can count more than one
        // invalid reply per request.
        let per_instance = if failed(bot) > *requests {
            " (invalid replies counted per instance answered)"
        } else {
            ""
        };
        format!(
            "bot {name} had {}{per_instance} in its {requests} requests in {games}: {}, {}, {}",
            plural(failed(bot), "failure", "failures"),
            plural(*timeouts, "timeout", "timeouts"),
            plural(*crashes, "crash", "crashes"),
            plural(*invalid_replies, "invalid reply", "invalid replies"),
        )
    };
    if !bot.invalid_reasons.is_empty() {
        let reasons: Vec<String> = bot
            .invalid_reasons
            .iter()
            .map(|(reason, count)| format!("{reason}: {count}"))
            .collect();
        let _ = write!(text, " ({})", reasons.join("; "));
    }
    if *timeouts > 0 {
        let _ = write!(
            text,
            "; a timeout is no reply within {} ms (`timeout_ms`)",
            limits.timeouts.request.as_millis()
        );
        // Only the games with persistent processes (Petri, AlienWar) have setup requests.
        if persistent {
            let _ = write!(
                text,
                ", or {} ms for a setup request or a persistent process's first \
                 (`setup_timeout_ms`)",
                limits.timeouts.setup.as_millis()
            );
        }
    }
    if bot.invalid_reasons.contains_key(OVERSIZED_REASON) {
        let _ = write!(
            text,
            "; a reply over the size cap is one longer than {} bytes (`max_reply_bytes`)",
            limits.max_reply_bytes
        );
    }
    let nothing = Evidence::default();
    let evidence = evidence.unwrap_or(&nothing);
    if let Some(crash) = &evidence.first_crash {
        let _ = write!(text, "; the first crash: {crash}");
    }
    if let Some(reply) = &evidence.first_invalid {
        let _ = write!(text, "; the first invalid reply: {reply}");
    }
    if failed_every_game(bot) && crashes != requests {
        text.push_str("; a timeout, crash or reply over the size cap in every game");
        if evidence.persistent_failed {
            text.push_str(
                " (a persistent process is ended at its first, and the game's fallback \
                 answers the rest)",
            );
        }
    }
    let lines = last_lines(&evidence.stderr);
    if lines.is_empty() {
        text.push_str("; no stderr kept");
    } else {
        text.push_str("; last stderr:");
        for line in lines {
            let _ = write!(text, "\n    {line}");
        }
    }
    text
}

/// The last [`STDERR_LINES`] non-blank lines of `tail`, as text with control characters
/// escaped. When they begin inside a stack trace printed after its error (Node.js, Java:
/// `at ...` lines; Ruby: a tab, then `from ...`), the error's own line comes first, then
/// `…`: the frames alone would not say what failed.
fn last_lines(tail: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(tail);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|line| !line.is_empty())
        .collect();
    let start = lines.len().saturating_sub(STDERR_LINES);
    let is_frame =
        |line: &&str| line.trim_start().starts_with("at ") || line.starts_with("\tfrom ");
    let error = (lines.get(start).is_some_and(is_frame))
        .then(|| lines[..start].iter().rposition(|line| !is_frame(line)))
        .flatten();
    let cut = error.map(|at| [lines[at], "…"]);
    (cut.iter().flatten().chain(&lines[start..]))
        .map(|line| escape_control(line).into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::{GameRecord, Header, SeatRecord};
    use crate::report::LeaderboardBuilder;
    use arena_games::Scoring;
    use std::time::Duration;

    const LIMITS: FailureLimits = FailureLimits {
        timeouts: Timeouts {
            request: Duration::from_millis(300),
            setup: Duration::from_secs(30),
        },
        max_reply_bytes: 100,
    };

    fn seat(bot: &str, requests: u32, crashes: u32, invalid: u32) -> SeatRecord {
        SeatRecord {
            requests,
            crashes,
            invalid_replies: invalid,
            invalid_reasons: if invalid > 0 {
                BTreeMap::from([("bad move".to_owned(), invalid)])
            } else {
                BTreeMap::new()
            },
            ..SeatRecord::new(bot, 0)
        }
    }

    fn game(seats: Vec<SeatRecord>) -> GameRecord {
        GameRecord {
            index: 0,
            seed: 0,
            summary: String::new(),
            duration_ms: 0,
            seats,
        }
    }

    #[test]
    fn a_stack_trace_after_its_error_keeps_the_errors_line() {
        let node = b"bot.js:3\n  throw new Error('boom');\n  ^\n\nError: boom at turn 3\n    at a (bot.js:3:9)\n    at b (node:internal/1)\n    at c (node:internal/2)\n    at d (node:internal/3)\n    at e (node:internal/4)\n\nNode.js v20.20.2\n";
        assert_eq!(
            last_lines(node),
            [
                "Error: boom at turn 3",
                "…",
                "    at b (node:internal/1)",
                "    at c (node:internal/2)",
                "    at d (node:internal/3)",
                "    at e (node:internal/4)",
                "Node.js v20.20.2",
            ]
        );
        let ruby = b"bot.rb:3:in `step': undefined method 'x' for nil (NoMethodError)\n\
            \tfrom bot.rb:9:in `a'\n\tfrom bot.rb:8:in `b'\n\tfrom bot.rb:7:in `c'\n\
            \tfrom bot.rb:6:in `d'\n\tfrom bot.rb:5:in `<main>'\n";
        assert_eq!(
            last_lines(ruby)[..2],
            [
                "bot.rb:3:in `step': undefined method 'x' for nil (NoMethodError)",
                "…"
            ]
        );
        // A trace that ends with its error (Python) is cut as it is.
        let python = b"Traceback (most recent call last):\n  File \"bot.py\", line 9\n    at()\n  File \"bot.py\", line 3\n    at()\nNameError: at\n";
        assert_eq!(last_lines(python)[4], "NameError: at");
        assert_eq!(last_lines(python).len(), STDERR_LINES);
    }

    /// A persistent process killed at its first reply over the size cap, in every game: the
    /// game's fallback answered the rest, so its one invalid reply a game was under a tenth.
    #[test]
    fn a_reply_over_the_size_cap_in_every_game_is_warned_about() {
        let header = Header::new("petri", 1, 1, Vec::new(), 2, String::new());
        let mut board = LeaderboardBuilder::new(Scoring::Wins, &[], header);
        let oversized = || SeatRecord {
            invalid_reasons: BTreeMap::from([(OVERSIZED_REASON.to_owned(), 1)]),
            ..seat("megaloop", 50, 0, 1)
        };
        for _ in 0..2 {
            board.add(&game(vec![oversized(), seat("fine", 50, 0, 0)]));
        }
        let lines = failing_bots(&board.finish(), &BTreeMap::new(), LIMITS);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("bot megaloop had 2 failures in its 100 requests in 2 games")
                && lines[0].contains("; a timeout, crash or reply over the size cap in every game")
                && lines[0].contains(
                    "; a reply over the size cap is one longer than 100 bytes (`max_reply_bytes`)"
                ),
            "{lines:?}"
        );
    }

    /// A game its opponent forfeited before asking it anything does not hide a bot that
    /// timed out in every game it was asked in; Slime has no setup requests to mention.
    #[test]
    fn a_bot_failing_in_every_game_it_was_asked_in_is_warned_about() {
        let header = Header::new("slime", 1, 1, Vec::new(), 2, String::new());
        let mut board = LeaderboardBuilder::new(Scoring::Wins, &[], header);
        let hung = SeatRecord {
            timeouts: 1,
            ..seat("hanger", 10, 0, 0)
        };
        board.add(&game(vec![hung, seat("fine", 10, 0, 0)]));
        board.add(&game(vec![
            seat("hanger", 0, 0, 0),
            seat("forfeiter", 1, 1, 0),
        ]));
        let lines = failing_bots(&board.finish(), &BTreeMap::new(), LIMITS);
        assert_eq!(
            lines,
            [
                "bot forfeiter crashed in its one request; no stderr kept",
                "bot hanger had 1 failure in its 10 requests in 2 games: 1 timeout, 0 crashes, \
                 0 invalid replies; a timeout is no reply within 300 ms (`timeout_ms`); a \
                 timeout, crash or reply over the size cap in every game; no stderr kept",
            ]
        );
    }

    #[test]
    fn failures_beyond_the_requests_are_said_to_be_counted_per_instance() {
        let header = Header::new("alienwar", 1, 1, Vec::new(), 1, String::new());
        let mut board = LeaderboardBuilder::new(Scoring::Mean, &[], header);
        board.add(&game(vec![seat("lower", 3, 0, 40)]));
        let first = Evidence {
            first_invalid: Some("`X\\r\\n` (bad move)".to_owned()),
            ..Evidence::default()
        };
        let evidence = BTreeMap::from([("lower".to_owned(), first)]);
        let lines = failing_bots(&board.finish(), &evidence, LIMITS);
        assert_eq!(
            lines,
            [
                "bot lower had 40 failures (invalid replies counted per instance answered) in its \
              3 requests in 1 game: 0 timeouts, 0 crashes, 40 invalid replies (bad move: 40); \
              the first invalid reply: `X\\r\\n` (bad move); no stderr kept"
            ]
        );
    }

    #[test]
    fn bots_failing_often_or_crashing_in_every_game_are_named_with_their_stderr() {
        let games = [
            game(vec![
                seat("crasher", 4, 4, 0),
                seat("fine", 40, 0, 4),
                seat("flaky", 10, 1, 2),
                seat("tenth", 10, 0, 1),
                seat("unlucky", 10, 1, 0),
                SeatRecord {
                    timeouts: 1,
                    ..seat("hanger", 10, 0, 0)
                },
            ]),
            game(vec![
                seat("crasher", 3, 3, 0),
                seat("fine", 40, 0, 0),
                seat("flaky", 10, 0, 0),
                seat("tenth", 10, 0, 1),
                seat("unlucky", 10, 1, 0),
                SeatRecord {
                    timeouts: 1,
                    ..seat("hanger", 10, 0, 0)
                },
            ]),
        ];
        let crasher = Evidence {
            stderr: b"1\n2\n3\n4\nTraceback\n  File \"bot.py\"\nNameError: x\x1b\n\n".to_vec(),
            first_crash: Some("ended without replying (exit status 1)".to_owned()),
            first_invalid: None,
            persistent_failed: false,
        };
        // unlucky's failures were in one-shot requests (a Petri bot chooses its mode),
        // hanger's in its persistent process.
        let hanger = Evidence {
            persistent_failed: true,
            ..Evidence::default()
        };
        let evidence = BTreeMap::from([
            ("crasher".to_owned(), crasher),
            ("hanger".to_owned(), hanger.clone()),
        ]);
        let header = Header::new("petri", 1, 1, Vec::new(), 2, String::new());
        let mut board = LeaderboardBuilder::new(Scoring::Wins, &[], header);
        for game in &games {
            board.add(game);
        }
        let board = board.finish();
        let hanging = board.leaderboard.iter().find(|bot| bot.name == "hanger");
        assert_eq!(
            paragraph(hanging.unwrap(), Some(&hanger), false, LIMITS),
            "bot hanger had 2 failures in its 20 requests in 2 games: 2 timeouts, 0 crashes, \
             0 invalid replies; a timeout is no reply within 300 ms (`timeout_ms`); a timeout, \
             crash or reply over the size cap in every game (a persistent process is ended at \
             its first, and the game's fallback answers the rest); no stderr kept",
            "a game without persistent processes has no setup time to name"
        );
        let lines = failing_bots(&board, &evidence, LIMITS);
        assert_eq!(
            lines,
            [
                "bot crasher crashed in every one of its 7 requests; the first crash: ended \
                 without replying (exit status 1); last stderr:\n    3\n    \
                 4\n    Traceback\n      File \"bot.py\"\n    NameError: x\\x1b",
                "bot flaky had 3 failures in its 20 requests in 2 games: 0 timeouts, 1 crash, \
                 2 invalid replies (bad move: 2); no stderr kept",
                "bot hanger had 2 failures in its 20 requests in 2 games: 2 timeouts, 0 crashes, \
                 0 invalid replies; a timeout is no reply within 300 ms (`timeout_ms`), or 30000 \
                 ms for a setup request or a persistent process's first (`setup_timeout_ms`); a timeout, crash or reply over the size cap in every game (a persistent process is \
                 ended at its first, and the game's fallback answers the rest); no stderr kept",
                "bot unlucky had 2 failures in its 20 requests in 2 games: 0 timeouts, 2 crashes, \
                 0 invalid replies; a timeout, crash or reply over the size cap in every game; \
                 no stderr kept",
            ]
        );
    }
}
