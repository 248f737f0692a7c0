//! The end-of-run summary of bots that failed: a bot whose script cannot start crashes in
//! every game, and without this its author sees only a `crashes` column and exit status 0.
//! Pure: it reads the leaderboard's per-bot counts and the stderr the run kept, and returns
//! lines.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::report::{Leaderboard, Standing};
use crate::text::{escape_control, plural};

/// How many of the last lines of a bot's stderr the summary shows.
pub const STDERR_LINES: usize = 5;

/// The failures of `bot`: timeouts, crashes and invalid replies. Not a number of requests:
/// a game that judges a reply per instance (AlienWar) counts each instance's invalid move.
fn failed(bot: &Standing) -> u64 {
    bot.timeouts + bot.crashes + bot.invalid_replies
}

/// Whether a request of the bot timed out or crashed in each of its games: a persistent
/// process ends at its first, so a bot that answered nothing after one timeout a game shows
/// few failures among many requests.
fn failed_every_game(bot: &Standing) -> bool {
    bot.games > 0 && bot.games_with_a_timeout_or_crash == bot.games
}

/// More failures than a tenth of its requests, or a timeout or crash in every game.
fn worth_a_warning(bot: &Standing) -> bool {
    failed(bot) * 10 > bot.requests || failed_every_game(bot)
}

/// One paragraph per bot of `board` with more failures than a tenth of its requests or a
/// timeout or crash in every game, in name order: its counts by kind (invalid replies by reason) and
/// the last [`STDERR_LINES`] lines of `stderr`, the end of its stderr in a failed request of
/// the run (none for games resumed or reused). Empty if no bot failed that often.
pub fn failing_bots(board: &Leaderboard, stderr: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let mut bots: Vec<&Standing> = board
        .leaderboard
        .iter()
        .filter(|bot| !bot.built_in && worth_a_warning(bot))
        .collect();
    bots.sort_by(|a, b| a.name.cmp(&b.name));
    bots.into_iter()
        .map(|bot| paragraph(bot, stderr.get(&bot.name)))
        .collect()
}

fn paragraph(bot: &Standing, stderr: Option<&Vec<u8>>) -> String {
    let Standing {
        name,
        games,
        requests,
        timeouts,
        crashes,
        invalid_replies,
        ..
    } = bot;
    let mut text = if crashes == requests {
        format!("bot {name} crashed in every one of its {requests} requests")
    } else {
        let games = plural(*games, "game", "games");
        format!(
            "bot {name} had {} in its {requests} requests in {games}: {}, {}, {}",
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
    if failed_every_game(bot) && crashes != requests {
        text.push_str(
            "; a timeout or crash in every game (a persistent process is ended at its \
             first, and the game's fallback answers the rest)",
        );
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
    use crate::journal::{GameRecord, Header, SeatRecord};
    use crate::report::LeaderboardBuilder;
    use arena_games::Scoring;

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
        let stderr = BTreeMap::from([(
            "crasher".to_owned(),
            b"1\n2\n3\n4\nTraceback\n  File \"bot.py\"\nNameError: x\x1b\n\n".to_vec(),
        )]);
        let header = Header::new("petri", 1, 1, Vec::new(), 2, String::new());
        let mut board = LeaderboardBuilder::new(Scoring::Wins, &[], header);
        for game in &games {
            board.add(game);
        }
        let lines = failing_bots(&board.finish(), &stderr);
        assert_eq!(
            lines,
            [
                "bot crasher crashed in every one of its 7 requests; last stderr:\n    3\n    \
                 4\n    Traceback\n      File \"bot.py\"\n    NameError: x\\x1b",
                "bot flaky had 3 failures in its 20 requests in 2 games: 0 timeouts, 1 crash, \
                 2 invalid replies (bad move: 2); no stderr kept",
                "bot hanger had 2 failures in its 20 requests in 2 games: 2 timeouts, 0 crashes, \
                 0 invalid replies; a timeout or crash in every game (a persistent process is \
                 ended at its first, and the game's fallback answers the rest); no stderr kept",
                "bot unlucky had 2 failures in its 20 requests in 2 games: 0 timeouts, 2 crashes, \
                 0 invalid replies; a timeout or crash in every game (a persistent process is \
                 ended at its first, and the game's fallback answers the rest); no stderr kept",
            ]
        );
    }
}
