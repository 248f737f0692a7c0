//! What an engine shows of its position for a replay: a grid of one-character cell codes,
//! a legend saying what each code is, the scores as they stand and a few words on what just
//! happened. Game-agnostic, so the recorder, the terminal printer and the HTML viewer draw
//! every game the same way; an engine only maps its state onto it ([`Game::snapshot`]).
//!
//! [`Game::snapshot`]: crate::engine::Game::snapshot

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

/// An engine's position at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// Turns completed so far. The recorder keeps the first snapshot of each value as that
    /// turn's frame, so the engine decides what a turn is (Petri: one side's player turn).
    pub turn: u32,
    /// Columns of the grid.
    pub width: usize,
    /// Rows of the grid.
    pub height: usize,
    /// `width * height` cell codes, row-major, top row first; never an ASCII digit (the
    /// replay file run-length encodes them with decimal counts).
    pub cells: String,
    /// What each code means. The same for every snapshot of a game.
    pub legend: Vec<Glyph>,
    /// Each seat's score as it stands, in the game's own measure.
    pub scores: Vec<i64>,
    /// What the last answers did, a few words each; may be empty.
    pub events: Vec<String>,
}

/// One legend entry: how a cell code is printed and drawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Glyph {
    /// The code used in [`Snapshot::cells`].
    pub code: char,
    /// The character the terminal printer shows.
    pub glyph: char,
    /// What the cell is, for the legend.
    pub name: String,
    /// The seat owning the cell; the viewer then draws it in that seat's colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<usize>,
    /// A CSS colour for cells owned by nobody.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
}

impl Glyph {
    /// A cell that belongs to no seat, drawn in `colour`.
    pub fn thing(code: char, glyph: char, name: &str, colour: &str) -> Glyph {
        Glyph {
            code,
            glyph,
            name: name.to_owned(),
            seat: None,
            colour: Some(colour.to_owned()),
        }
    }
}

/// The letters seat codes are taken from, in order: ASCII, then the Latin-1 and Latin
/// Extended letters, Greek and Cyrillic. All are one column wide in a terminal, so the text
/// replay's grid stays aligned; none is a digit (the run-length counts) or a control.
const SEAT_LETTERS: [RangeInclusive<char>; 8] = [
    'A'..='Z',
    'a'..='z',
    'À'..='Ö',
    'Ø'..='ö',
    'ø'..='ɏ',
    'Α'..='Ρ',
    'Σ'..='ω',
    'А'..='я',
];

/// How many letters [`SEAT_LETTERS`] holds. A game gives each of this many seats, less the
/// letters its own symbols use, a code of its own (Cave Rangers: 553); beyond that the last
/// code is shared by the rest, as one legend entry ([`Legend::new`]).
pub const SEAT_ALPHABET: usize = 570;

/// The colour of the legend entry shared by the seats beyond the alphabet.
const CROWD_COLOUR: &str = "#f0f0f0";

/// A game's legend: its own symbols as it gives them, then one entry per seat whose code
/// and glyph none of those symbols use, so every cell code (and every character of the text
/// replay) means one thing whatever the number of bots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Legend {
    glyphs: Vec<Glyph>,
    /// Where the seats' entries start in `glyphs`.
    first_seat: usize,
}

impl Legend {
    /// The legend of `things` (the game's own symbols, each code used once) and `seats`
    /// seats, seat `s` named `name(s)`: in the words of the game's summaries, which name
    /// seats from 0 (`seat 0`), or of its protocol (Slime's `player 1` is seat 0). Seat codes
    /// are the [`SEAT_LETTERS`] that are neither the code nor the glyph of a thing, in order;
    /// a seat's glyph is its 1-based number while that is one digit no thing shows, else its
    /// code. Should the letters run out, the last free one goes to all the seats left, as one
    /// entry (`seat 552 to seat 599`) drawn in no seat's colour: still one meaning per code.
    pub fn new(
        things: impl IntoIterator<Item = Glyph>,
        seats: usize,
        name: impl Fn(usize) -> String,
    ) -> Legend {
        let mut glyphs: Vec<Glyph> = things.into_iter().collect();
        let first_seat = glyphs.len();
        let taken = |c: char| glyphs.iter().any(|g| g.code == c || g.glyph == c);
        let codes: Vec<char> = SEAT_LETTERS
            .into_iter()
            .flatten()
            .filter(|&c| !taken(c))
            .take(seats)
            .collect();
        let digits: Vec<char> = ('1'..='9').filter(|&c| !taken(c)).collect();
        let own = if codes.len() < seats {
            codes.len().saturating_sub(1)
        } else {
            seats
        };
        glyphs.extend(
            codes
                .iter()
                .take(own)
                .enumerate()
                .map(|(seat, &code)| Glyph {
                    code,
                    glyph: seat_glyph(seat, code, &digits),
                    name: name(seat),
                    seat: Some(seat),
                    colour: None,
                }),
        );
        if let Some(&code) = codes.get(own) {
            let name = format!("{} to {}", name(own), name(seats - 1));
            glyphs.push(Glyph::thing(code, code, &name, CROWD_COLOUR));
        }
        Legend { glyphs, first_seat }
    }

    /// The cell code of `seat` (one of the `seats` the legend was made for): its own, or the
    /// shared one of the seats beyond the letters.
    pub fn seat(&self, seat: usize) -> char {
        let last = self.glyphs.len() - 1;
        self.glyphs[(self.first_seat + seat).min(last)].code
    }

    /// The entries, things first, for [`Snapshot::legend`].
    pub fn into_glyphs(self) -> Vec<Glyph> {
        self.glyphs
    }
}

/// What the terminal shows for `seat`: its 1-based number when that is one digit and the
/// game's symbols leave that digit free (`digits`), so a few bots read as 1, 2, 3; else its
/// `code`, which is unique too.
fn seat_glyph(seat: usize, code: char, digits: &[char]) -> char {
    let number = char::from_digit(seat as u32 + 1, 10).filter(|d| digits.contains(d));
    number.unwrap_or(code)
}

impl Snapshot {
    /// Problems with the snapshot's shape (each a sentence); empty if it is well formed.
    /// Engine tests call it; the recorder trusts engines.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let cells = self.cells.chars().count();
        if cells != self.width * self.height {
            problems.push(format!(
                "{cells} cells for a {}x{} grid",
                self.width, self.height
            ));
        }
        for glyph in &self.legend {
            if glyph.code.is_ascii_digit() {
                problems.push(format!("the code {:?} is a digit", glyph.code));
            }
        }
        problems.extend(clashes(&self.legend));
        for code in self.cells.chars() {
            if !self.legend.iter().any(|glyph| glyph.code == code) {
                problems.push(format!("the code {code:?} is not in the legend"));
                break;
            }
        }
        problems
    }
}

/// Each code `legend` gives to two entries, as a sentence: what a game's snapshot must never
/// have, and what replays recorded before [`Legend`] (whose seats could take a game's letters)
/// do have.
pub fn clashes(legend: &[Glyph]) -> Vec<String> {
    let entries = legend.iter().enumerate();
    entries
        .filter_map(|(n, glyph)| {
            let other = legend[..n].iter().find(|g| g.code == glyph.code)?;
            Some(format!(
                "the code {:?} means both {} and {}",
                glyph.code, other.name, glyph.name
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// Every code and every glyph of `legend` is used once, no code is a digit, and seat
    /// `k`'s entry is the `k`-th seat's.
    fn assert_unambiguous(legend: &Legend, things: usize, seats: usize) {
        let glyphs = &legend.glyphs;
        let codes: BTreeSet<char> = glyphs.iter().map(|g| g.code).collect();
        let shown: BTreeSet<char> = glyphs.iter().map(|g| g.glyph).collect();
        let context = format!("{things} things, {seats} seats: {glyphs:?}");
        assert_eq!(codes.len(), things + seats, "{context}");
        assert_eq!(shown.len(), things + seats, "{context}");
        assert!(!codes.iter().any(char::is_ascii_digit), "{context}");
        for seat in 0..seats {
            let entry = glyphs.iter().find(|g| g.code == legend.seat(seat));
            assert_eq!(entry.and_then(|g| g.seat), Some(seat), "{context}");
        }
    }

    /// Things that take the seats' favourite characters: the first `n` seat letters as
    /// codes, shown as digits, then as more letters further on.
    /// The name of seat `seat` in these tests.
    fn bot(seat: usize) -> String {
        format!("bot {seat}")
    }

    fn greedy_things(n: usize) -> Vec<Glyph> {
        let letters: Vec<char> = SEAT_LETTERS.into_iter().flatten().collect();
        (0..n)
            .map(|i| {
                let glyph = match i {
                    0..9 => char::from_digit(i as u32 + 1, 10).unwrap(),
                    _ => letters[letters.len() - i],
                };
                Glyph::thing(letters[i], glyph, &format!("thing {i}"), "#123456")
            })
            .collect()
    }

    #[test]
    fn every_code_and_glyph_means_one_thing_whatever_the_symbols_and_seats() {
        let punctuation = || {
            "._-#}+~%^*"
                .chars()
                .map(|c| Glyph::thing(c, c, "mark", "#000"))
        };
        for things in [0, 1, 5, 12, 30] {
            let room = SEAT_ALPHABET - things - things.saturating_sub(9);
            for seats in (1..=100).chain([room]) {
                let legend = Legend::new(greedy_things(things), seats, bot);
                assert_unambiguous(&legend, things, seats);
                let more = greedy_things(things).into_iter().chain(punctuation());
                assert_unambiguous(&Legend::new(more, seats, bot), things + 10, seats);
            }
        }
    }

    #[test]
    fn seats_beyond_the_alphabet_share_its_last_letter_as_one_entry() {
        let room = SEAT_ALPHABET - 12 - 3;
        let legend = Legend::new(greedy_things(12), room + 5, bot);
        let glyphs = &legend.glyphs;
        let codes: BTreeSet<char> = glyphs.iter().map(|g| g.code).collect();
        assert_eq!((glyphs.len(), codes.len()), (12 + room, 12 + room));
        let crowd = glyphs.last().unwrap();
        assert_eq!(crowd.name, format!("bot {} to bot {}", room - 1, room + 4));
        assert_eq!(
            (crowd.seat, crowd.colour.as_deref()),
            (None, Some(CROWD_COLOUR))
        );
        assert_eq!(legend.seat(room - 2), glyphs[12 + room - 2].code);
        assert!((room - 1..room + 5).all(|seat| legend.seat(seat) == crowd.code));
    }

    #[test]
    fn the_alphabet_holds_its_documented_size_of_distinct_one_column_letters() {
        let letters: BTreeSet<char> = SEAT_LETTERS.into_iter().flatten().collect();
        assert_eq!(letters.len(), SEAT_ALPHABET);
        assert!(letters.iter().all(|c| c.is_alphabetic()));
    }

    #[test]
    fn a_few_seats_show_as_numbers_and_skip_the_games_letters() {
        let things = [
            Glyph::thing('B', 'B', "bats", "#000"),
            Glyph::thing('_', '2', "two", "#000"),
        ];
        let legend = Legend::new(things, 11, bot);
        let seats = &legend.glyphs[2..];
        let codes: String = seats.iter().map(|g| g.code).collect();
        let glyphs: String = seats.iter().map(|g| g.glyph).collect();
        assert_eq!(codes, "ACDEFGHIJKL");
        assert_eq!(glyphs, "1C3456789KL", "2 is a thing's glyph");
        assert_eq!(
            (seats[10].name.as_str(), seats[10].seat),
            ("bot 10", Some(10))
        );
    }

    #[test]
    fn problems_name_a_bad_shape_a_digit_code_a_code_used_twice_and_an_unknown_code() {
        let good = Snapshot {
            turn: 0,
            width: 2,
            height: 1,
            cells: ".A".into(),
            legend: Legend::new([Glyph::thing('.', '.', "empty", "#000")], 1, bot).into_glyphs(),
            scores: vec![1],
            events: Vec::new(),
        };
        assert!(good.problems().is_empty());
        let bad = Snapshot {
            cells: ".B7".into(),
            legend: vec![
                Glyph::thing('7', '7', "seven", "#fff"),
                Glyph::thing('B', 'B', "bats", "#fff"),
                Glyph::thing('B', '2', "bot 2", "#fff"),
            ],
            ..good
        };
        assert_eq!(bad.problems().len(), 4, "{:?}", bad.problems());
        assert_eq!(bad.problems()[2], "the code 'B' means both bats and bot 2");
    }
}
