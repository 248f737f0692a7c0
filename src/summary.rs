//! The end-of-run summary of bots that failed: a bot whose script cannot start crashes in
//! every game, and without this its author sees only a `crashes` column and exit status 0.
//! Pure: it reads the journal's records and the stderr the run kept, and returns lines.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::journal::GameRecord;
use crate::text::{escape_control, plural};

/// How many of the last lines of a bot's stderr the summary shows.
pub const STDERR_LINES: usize = 5;

/// A bot's failures over the games of a journal.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Failures {
    games: u32,
    games_with_a_crash: u32,
    requests: u32,
    timeouts: u32,
    crashes: u32,
    invalid: u32,
    invalid_reasons: BTreeMap<String, u32>,
}

impl Failures {
    fn failed(&self) -> u32 {
        self.timeouts + self.crashes + self.invalid
    }

    /// More than a tenth of its requests failed, or it crashed in every game.
    fn worth_a_warning(&self) -> bool {
        let crashed_every_game = self.games > 0 && self.games_with_a_crash == self.games;
        u64::from(self.failed()) * 10 > u64::from(self.requests) || crashed_every_game
    }
}

/// One paragraph per bot that failed in more than a tenth of its requests or crashed in
/// every game, in name order: its counts by kind (invalid replies by reason) and the last
/// [`STDERR_LINES`] lines of `stderr`, the end of its stderr in a failed request of the run
/// (none for games resumed or reused). Empty if no bot failed that often.
pub fn failing_bots(games: &[GameRecord], stderr: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let mut bots: BTreeMap<&str, Failures> = BTreeMap::new();
    for seat in games.iter().flat_map(|game| &game.seats) {
        if seat.built_in {
            continue;
        }
        let bot = bots.entry(&seat.bot).or_default();
        bot.games += 1;
        bot.games_with_a_crash += u32::from(seat.crashes > 0);
        bot.requests += seat.requests;
        bot.timeouts += seat.timeouts;
        bot.crashes += seat.crashes;
        bot.invalid += seat.invalid_replies;
        for (reason, count) in &seat.invalid_reasons {
            *bot.invalid_reasons.entry(reason.clone()).or_default() += count;
        }
    }
    bots.into_iter()
        .filter(|(_, failures)| failures.worth_a_warning())
        .map(|(name, failures)| paragraph(name, &failures, stderr.get(name)))
        .collect()
}

fn paragraph(name: &str, failures: &Failures, stderr: Option<&Vec<u8>>) -> String {
    let Failures {
        games,
        requests,
        timeouts,
        crashes,
        invalid,
        ..
    } = failures;
    let mut text = if crashes == requests {
        format!("bot {name} crashed in every one of its {requests} requests")
    } else {
        let games = plural(*games, "game", "games");
        format!(
            "bot {name} failed in {} of its {requests} requests in {games}: {}, {}, {}",
            failures.failed(),
            plural(*timeouts, "timeout", "timeouts"),
            plural(*crashes, "crash", "crashes"),
            plural(*invalid, "invalid reply", "invalid replies"),
        )
    };
    if !failures.invalid_reasons.is_empty() {
        let reasons: Vec<String> = failures
            .invalid_reasons
            .iter()
            .map(|(reason, count)| format!("{reason}: {count}"))
            .collect();
        let _ = write!(text, " ({})", reasons.join("; "));
    }
    let lines = stderr.map(|tail| last_lines(tail)).unwrap_or_default();
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
/// escaped.
fn last_lines(tail: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(tail);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|line| !line.is_empty())
        .collect();
    lines[lines.len().saturating_sub(STDERR_LINES)..]
        .iter()
        .map(|line| escape_control(line).into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::SeatRecord;

    fn seat(bot: &str, requests: u32, crashes: u32, invalid: u32) -> SeatRecord {
        SeatRecord {
            bot: bot.into(),
            score: 0,
            result: None,
            requests,
            timeouts: 0,
            crashes,
            invalid_replies: invalid,
            invalid_reasons: if invalid > 0 {
                BTreeMap::from([("bad move".to_owned(), invalid)])
            } else {
                BTreeMap::new()
            },
            built_in: false,
            stats: BTreeMap::new(),
            digest: None,
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
    fn bots_failing_often_or_crashing_in_every_game_are_named_with_their_stderr() {
        let games = [
            game(vec![
                seat("crasher", 4, 4, 0),
                seat("fine", 40, 0, 4),
                seat("flaky", 10, 1, 2),
                seat("tenth", 10, 0, 1),
                seat("unlucky", 10, 1, 0),
            ]),
            game(vec![
                seat("crasher", 3, 3, 0),
                seat("fine", 40, 0, 0),
                seat("flaky", 10, 0, 0),
                seat("tenth", 10, 0, 1),
                seat("unlucky", 10, 1, 0),
            ]),
        ];
        let stderr = BTreeMap::from([(
            "crasher".to_owned(),
            b"1\n2\n3\n4\nTraceback\n  File \"bot.py\"\nNameError: x\x1b\n\n".to_vec(),
        )]);
        let lines = failing_bots(&games, &stderr);
        assert_eq!(
            lines,
            [
                "bot crasher crashed in every one of its 7 requests; last stderr:\n    3\n    \
                 4\n    Traceback\n      File \"bot.py\"\n    NameError: x\\x1b",
                "bot flaky failed in 3 of its 20 requests in 2 games: 0 timeouts, 1 crash, \
                 2 invalid replies (bad move: 2); no stderr kept",
                "bot unlucky failed in 2 of its 20 requests in 2 games: 0 timeouts, 2 crashes, \
                 0 invalid replies; no stderr kept",
            ]
        );
    }
}
