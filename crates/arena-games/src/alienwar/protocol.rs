//! The bytes of AlienWar's protocol (designed by this project, `games/alienwar.md`): one
//! persistent process per species hosts all its instances. Each request is a header line
//! `CREATE`, `MOVE` or `FIGHT` followed by one line per instance; the reply is one line of
//! one word per instance, in request order. Syntax only: what an answer does is the
//! engine's business.

use super::planet::Instance;
use super::rules::Move;
use crate::decimal::{push_int, push_numbers, push_word_line};

/// Written to every species' process when the game ends.
pub const FAREWELL: &[u8] = b"END\n";

/// The creation request: `CREATE <count> <side>`; the reply gives each instance's points.
pub fn encode_create(count: usize, side: usize) -> Vec<u8> {
    format!("CREATE {count} {side}\n").into_bytes()
}

/// The header of a request about `count` instances: `MOVE <count>` or `FIGHT <count>`.
pub fn write_header(out: &mut Vec<u8>, word: &str, count: usize) {
    push_word_line(out, word, count);
}

/// What an instance's getters report: `<id> <hp> <life> <strength> <defense> <vision>
/// <cleverness> <radius> <blur>` (levels rounded, then radius and blur: see
/// [`Levels::shown`](super::rules::Levels::shown)).
fn push_self(out: &mut Vec<u8>, instance: &Instance) {
    push_int(out, i64::from(instance.id));
    out.push(b' ');
    push_int(out, i64::from(instance.hp));
    out.push(b' ');
    match instance.levels.shown_text() {
        Some(text) => out.extend_from_slice(text),
        None => push_numbers(out, &instance.levels.shown()),
    }
}

/// One line of a `MOVE` request: the instance, then its view as `2r+1` rows (north first)
/// of `2r+1` cells (west first), rows joined by `/`, a blank cell written `.` (the view's
/// [`BLANK`](super::rules::BLANK)).
pub fn write_move_line<'a>(
    out: &mut Vec<u8>,
    instance: &Instance,
    rows: impl IntoIterator<Item = &'a [u8]>,
) {
    push_self(out, instance);
    let mut separator = b' ';
    for row in rows {
        out.push(separator);
        out.extend_from_slice(row);
        separator = b'/';
    }
    out.push(b'\n');
}

/// One line of a `FIGHT` request: the instance (as it is now, possibly dead), then the
/// other party's blurred life, strength, defense and vision levels.
pub fn write_fight_line(out: &mut Vec<u8>, instance: &Instance, sees: [i32; 4]) {
    push_self(out, instance);
    out.push(b' ');
    push_numbers(out, &sees.map(i64::from));
    out.push(b'\n');
}

/// The word with which a bot asks for the default answer: the Java host's answer for an
/// alien whose code failed (an exception, or a `null` move).
pub const FAILED: &[u8] = b"!";

/// What a [`FAILED`] answer means, as the journal and `arena check` say it.
pub const FAILED_MEANS: &str = "`!`, the alien's code failed";

/// How many answers of a reply were unusable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unusable {
    /// Answered [`FAILED`]: the bot's own code failed, and it said so.
    pub failed: u32,
    /// Every other bad or missing word, and surplus words once in all.
    pub other: u32,
}

impl Unusable {
    /// Every unusable answer, as the reply's invalid count.
    pub fn total(self) -> u32 {
        self.failed + self.other
    }
}

/// The words of a reply, one per instance of the request: each read by `parse`, `None`
/// where a word is missing or unreadable. Also returns how many answers were unusable: each
/// bad or missing word counts once, and surplus words once in all.
pub fn parse_words<T>(
    reply: &[u8],
    count: usize,
    parse: impl Fn(&[u8]) -> Option<T>,
) -> (Vec<Option<T>>, Unusable) {
    let words = || {
        reply
            .split(u8::is_ascii_whitespace)
            .filter(|word| !word.is_empty())
    };
    let mut given = words();
    let answers: Vec<Option<T>> = (0..count).map(|_| given.next().and_then(&parse)).collect();
    let surplus = u32::from(given.next().is_some());
    let unusable = answers.iter().filter(|a| a.is_none()).count() as u32;
    // No answer parses from `!`; a reply of good words, the usual, is not read again.
    let failed = match unusable {
        0 => 0,
        _ => words().take(count).filter(|&word| word == FAILED).count() as u32,
    };
    let other = unusable - failed + surplus;
    (answers, Unusable { failed, other })
}

/// Five ability points `life,strength,defense,vision,cleverness` as decimals (`f32`, e.g.
/// `3.5,6.5,0,0,0`). Whether they are allowed is the rules' question.
pub fn parse_points(word: &[u8]) -> Option<[f32; 5]> {
    let text = std::str::from_utf8(word).ok()?;
    let mut values = text.split(',').map(|v| v.parse::<f32>().ok());
    let points = [(); 5].map(|_| values.next().flatten());
    if values.next().is_some() {
        return None;
    }
    let [a, b, c, d, e] = points;
    Some([a?, b?, c?, d?, e?])
}

/// A move: one of the nine names of the Java enum, upper case.
pub fn parse_move(word: &[u8]) -> Option<Move> {
    Move::from_name(word)
}

/// A fight answer: `Y` (fight) or `N` (peace).
pub fn parse_fight(word: &[u8]) -> Option<bool> {
    match word {
        b"Y" => Some(true),
        b"N" => Some(false),
        _ => None,
    }
}
