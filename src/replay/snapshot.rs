//! What an engine shows of its position for a replay: a grid of one-character cell codes,
//! a legend saying what each code is, the scores as they stand and a few words on what just
//! happened. Game-agnostic, so the recorder, the terminal printer and the HTML viewer draw
//! every game the same way; an engine only maps its state onto it ([`Game::snapshot`]).
//!
//! [`Game::snapshot`]: crate::engine::Game::snapshot

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

    /// The cell of `seat` (its cell, cell body, player...), coded with [`seat_code`] and
    /// shown as the seat's number.
    pub fn seat(seat: usize, name: &str) -> Glyph {
        Glyph {
            code: seat_code(seat),
            glyph: seat_glyph(seat),
            name: format!("{name} {}", seat + 1),
            seat: Some(seat),
            colour: None,
        }
    }

    /// One [`Glyph::seat`] per seat.
    pub fn seats(seats: usize, name: &str) -> impl Iterator<Item = Glyph> + '_ {
        (0..seats).map(move |seat| Glyph::seat(seat, name))
    }
}

/// The cell code of `seat`: `A` to `Z`, then `a` to `z`, then letters from U+0100 on, so any
/// number of seats has codes that are never digits nor the games' own symbols.
pub fn seat_code(seat: usize) -> char {
    let code = match seat {
        0..26 => u32::from(b'A') + seat as u32,
        26..52 => u32::from(b'a') + (seat - 26) as u32,
        _ => 0x100 + (seat - 52) as u32,
    };
    char::from_u32(code).unwrap_or('?')
}

/// What the terminal shows for `seat`: its 1-based number while that is one digit.
fn seat_glyph(seat: usize) -> char {
    match seat {
        0..9 => char::from(b'1' + seat as u8),
        _ => seat_code(seat),
    }
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
        for code in self.cells.chars() {
            if !self.legend.iter().any(|glyph| glyph.code == code) {
                problems.push(format!("the code {code:?} is not in the legend"));
                break;
            }
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_codes_are_distinct_letters_for_many_seats() {
        let codes: std::collections::BTreeSet<char> = (0..200).map(seat_code).collect();
        assert_eq!(codes.len(), 200);
        assert!(codes.iter().all(|c| c.is_alphabetic()));
        assert_eq!(
            (seat_code(0), seat_code(25), seat_code(26)),
            ('A', 'Z', 'a')
        );
        assert_eq!(
            (seat_glyph(0), seat_glyph(8), seat_glyph(9)),
            ('1', '9', 'J')
        );
    }

    #[test]
    fn problems_name_a_bad_shape_a_digit_code_and_an_unknown_code() {
        let good = Snapshot {
            turn: 0,
            width: 2,
            height: 1,
            cells: ".A".into(),
            legend: vec![
                Glyph::thing('.', '.', "empty", "#000"),
                Glyph::seat(0, "cell"),
            ],
            scores: vec![1],
            events: Vec::new(),
        };
        assert!(good.problems().is_empty());
        let bad = Snapshot {
            cells: ".B7".into(),
            legend: vec![Glyph::thing('7', '7', "seven", "#fff")],
            ..good
        };
        assert_eq!(bad.problems().len(), 3, "{:?}", bad.problems());
    }
}
