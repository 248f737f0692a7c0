//! The bytes of the Slime protocol: the command-line argument a bot receives and the
//! reading of its reply (games/slime.md, "Protocol").
//!
//! Parsing is syntax only: [`parse_reply`] never looks at the board, so a reply that parses
//! may still be illegal (`rules.rs` decides that). It reproduces the original controller's
//! `Player::getMove`, because bots were written and tested against it: one `fgets` of at
//! most 127 bytes (the first line, newline included), then four C++ `istream >> int`
//! extractions, each rejected when it fails or when it reached the end of the input. The
//! last rule is why a reply without a trailing newline is a pass under
//! [`Parsing::Strict`]. Replies are arbitrary bytes; nothing here panics on them.

use super::options::Parsing;
use super::rules::{Board, RawMove};

/// The most bytes the original's `fgets` into a 128-byte buffer reads: the rest of a longer
/// line is never seen.
const LINE_CAP: usize = 127;

/// The single command-line argument for `seat` (0-based): `<seat>,<row0>,...,<rowN-1>`,
/// with the seat counted from 1 (games/slime.md, "Protocol").
pub(crate) fn encode_request(board: &Board, seat: usize) -> String {
    let mut text = (seat + 1).to_string();
    for row in board.rows() {
        text.push(',');
        text.push_str(&String::from_utf8_lossy(row));
    }
    text
}

/// Why a reply is not a move (each a pass).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParseError {
    /// Nothing was printed.
    NoOutput,
    /// Fewer than four integers could be read from the first line.
    NotFourIntegers,
    /// The fourth integer ends the line with nothing after it: the original's stream then
    /// reports end of input and rejects the read (strict parsing only).
    Unterminated,
}

impl ParseError {
    /// Why, in words: a rejection's reason and `arena check`'s verdict.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            ParseError::NoOutput => "no output",
            ParseError::NotFourIntegers => "the first line is not four integers",
            ParseError::Unterminated => "nothing follows the fourth integer (no newline)",
        }
    }
}

/// Reads the move in `reply` the way the original controller does (games/slime.md,
/// "Protocol").
pub(crate) fn parse_reply(reply: &[u8], parsing: Parsing) -> Result<RawMove, ParseError> {
    if reply.is_empty() {
        return Err(ParseError::NoOutput);
    }
    let line = first_line(reply);
    let mut rest = line;
    let mut numbers = [0; 4];
    for (index, number) in numbers.iter_mut().enumerate() {
        let (value, after) = extract_int(rest).ok_or(ParseError::NotFourIntegers)?;
        *number = value;
        rest = after;
        // A stream that hit the end while reading an integer sets eofbit, and the original
        // rejects the move then; only the fourth read can hit it and still have a value.
        if rest.is_empty() && !(index == 3 && parsing == Parsing::Lenient) {
            return Err(if index == 3 {
                ParseError::Unterminated
            } else {
                ParseError::NotFourIntegers
            });
        }
    }
    Ok(RawMove(numbers))
}

/// What the original's `fgets` and string conversion keep: up to and including the first
/// newline, at most [`LINE_CAP`] bytes, and nothing from a NUL byte on (the buffer is a C
/// string).
fn first_line(reply: &[u8]) -> &[u8] {
    let capped = &reply[..reply.len().min(LINE_CAP)];
    let line = match capped.iter().position(|&b| b == b'\n') {
        Some(newline) => &capped[..=newline],
        None => capped,
    };
    match line.iter().position(|&b| b == 0) {
        Some(nul) => &line[..nul],
        None => line,
    }
}

/// One `istream >> int` in the C locale: skip whitespace, an optional sign, then decimal
/// digits. Returns the value and the unread rest, or `None` where the stream would set
/// failbit (no digits, or a value outside `int`).
fn extract_int(input: &[u8]) -> Option<(i32, &[u8])> {
    let start = input
        .iter()
        .position(|b| !b" \t\n\x0b\x0c\r".contains(b))
        .unwrap_or(input.len());
    let (negative, unsigned) = match input[start..].split_first() {
        Some((b'-', tail)) => (true, tail),
        Some((b'+', tail)) => (false, tail),
        _ => (false, &input[start..]),
    };
    let digits = unsigned.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let mut magnitude: i64 = 0;
    for &digit in &unsigned[..digits] {
        // Saturate just past the `int` range, so any longer number fails below too.
        magnitude = (magnitude * 10 + i64::from(digit - b'0')).min(i64::from(i32::MAX) + 2);
    }
    let value = if negative { -magnitude } else { magnitude };
    Some((i32::try_from(value).ok()?, &unsigned[digits..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict(reply: &str) -> Result<[i32; 4], ParseError> {
        parse_reply(reply.as_bytes(), Parsing::Strict).map(|raw| raw.0)
    }

    fn lenient(reply: &str) -> Result<[i32; 4], ParseError> {
        parse_reply(reply.as_bytes(), Parsing::Lenient).map(|raw| raw.0)
    }

    #[test]
    fn the_request_is_the_seat_and_the_rows_joined_by_commas() {
        assert_eq!(encode_request(&Board::new(3), 1), "2,1.2,...,3.4");
        assert_eq!(encode_request(&Board::new(8), 3).len(), 73);
    }

    #[test]
    fn a_fourth_integer_at_the_end_of_input_passes_only_under_strict_parsing() {
        assert_eq!(strict("4 0 2 2"), Err(ParseError::Unterminated));
        assert_eq!(lenient("4 0 2 2"), Ok([4, 0, 2, 2]));
        assert_eq!(strict("4 0 2 2\n"), Ok([4, 0, 2, 2]));
        assert_eq!(strict("4 0 2 2 "), Ok([4, 0, 2, 2]));
        assert_eq!(strict("4 0 2 2x"), Ok([4, 0, 2, 2]));
    }

    #[test]
    fn only_the_first_line_counts() {
        assert_eq!(strict("1 2\n3 4\n"), Err(ParseError::NotFourIntegers));
        assert_eq!(lenient("\n1 2 3 4\n"), Err(ParseError::NotFourIntegers));
        assert_eq!(strict("1 2 2 3 1 2 2 1\n"), Ok([1, 2, 2, 3]));
        assert_eq!(strict("0 0 0 1\ngarbage"), Ok([0, 0, 0, 1]));
    }

    #[test]
    fn the_line_is_cut_at_127_bytes_and_at_a_nul() {
        let padded = |pad: usize| format!("{}1 2 3 4\n", " ".repeat(pad));
        // 120 spaces + "1 2 3 4" is exactly 127 bytes: the newline is cut off.
        assert_eq!(strict(&padded(119)), Ok([1, 2, 3, 4]));
        assert_eq!(strict(&padded(120)), Err(ParseError::Unterminated));
        assert_eq!(lenient(&padded(120)), Ok([1, 2, 3, 4]));
        assert_eq!(strict(&padded(121)), Err(ParseError::NotFourIntegers));
        assert_eq!(strict("1 2 3 4\0\n"), Err(ParseError::Unterminated));
        assert_eq!(strict("1 2\0 3 4\n"), Err(ParseError::NotFourIntegers));
    }

    #[test]
    fn integers_read_like_a_cpp_stream() {
        assert_eq!(strict("\t+1 -2\r\x0b3\x0c 04\r\n"), Ok([1, -2, 3, 4]));
        assert_eq!(strict("3x 1 2 3\n"), Err(ParseError::NotFourIntegers));
        assert_eq!(strict("4.0 1 2 3\n"), Err(ParseError::NotFourIntegers));
        assert_eq!(strict("NA\n"), Err(ParseError::NotFourIntegers));
        assert_eq!(strict("- 1 2 3 4\n"), Err(ParseError::NotFourIntegers));
        assert_eq!(
            strict("2147483647 -2147483648 0 0\n"),
            Ok([i32::MAX, i32::MIN, 0, 0])
        );
        assert_eq!(
            strict("2147483648 0 0 0\n"),
            Err(ParseError::NotFourIntegers)
        );
        assert_eq!(
            strict("-2147483649 0 0 0\n"),
            Err(ParseError::NotFourIntegers)
        );
        assert_eq!(
            strict("99999999999999999999999 0 0 0\n"),
            Err(ParseError::NotFourIntegers)
        );
        assert_eq!(strict(""), Err(ParseError::NoOutput));
        assert_eq!(strict("\n"), Err(ParseError::NotFourIntegers));
    }
}
