//! What the journal's tests build their journals from: the header of a small tournament,
//! its games and journals of chosen lines. The tests of the records' checks, the writer and
//! the reader all use them, so they are written once, here.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use arena_games::Pairing;
use arena_games::engine::GameResult;

use super::{GameRecord, Header, JournalWriter, Record, SeatRecord};

/// The header of a whole petri tournament of bots `a` and `b`: seed 1, two games.
pub(super) fn header() -> Header {
    let bots = vec!["a".into(), "b".into()];
    Header::new("petri", 1, 2, bots, 2, "abc".into())
}

/// Game `index` of [`header`]'s tournament as its schedule seats it: the first seat wins,
/// each seat with 3 requests, one invalid reply and its score as `gold`.
pub(super) fn game(index: u64) -> GameRecord {
    let seat = |bot: &str, score| SeatRecord {
        result: Some(if score == 1 {
            GameResult::Win
        } else {
            GameResult::Loss
        }),
        requests: 3,
        invalid_replies: 1,
        invalid_reasons: BTreeMap::from([("the first word is none of ...".to_owned(), 1)]),
        stats: BTreeMap::from([("gold".to_owned(), score)]),
        ..SeatRecord::new(bot, score)
    };
    let names = ["a".to_owned(), "b".to_owned()];
    let schedule = crate::schedule::Schedule::new(Pairing::HeadToHead, &names, 2, 1);
    let fixture = schedule.fixture(index).unwrap();
    let [first, second] = [0, 1].map(|seat| ["a", "b"][fixture.seats[seat]]);
    GameRecord {
        index,
        seed: fixture.seed,
        summary: "done".into(),
        duration_ms: 1,
        seats: vec![seat(first, 1), seat(second, 0)],
    }
}

/// A journal of `header()` with `lines` after the header line.
pub(super) fn journal_with(dir: &Path, lines: &[String]) -> PathBuf {
    let path = dir.join("journal.jsonl");
    JournalWriter::create(&path, header()).unwrap();
    let mut file = OpenOptions::new().append(true).open(&path).unwrap();
    for line in lines {
        writeln!(file, "{line}").unwrap();
    }
    path
}

/// `game` as a journal line, without its newline.
pub(super) fn line(game: &GameRecord) -> String {
    serde_json::to_string(&Record::Game(game.clone())).unwrap()
}
