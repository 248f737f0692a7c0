//! The bytes of Easter Egg Hunt (games/eggs.md, "A turn"): the request a bot reads on stdin
//! and the parsing of its reply. Syntax only; what a move does is `rules.rs`'s business.

use super::rules::{Action, Direction, Move};

/// The longest memory a bot keeps, in characters (games/eggs.md, "A turn").
pub const MEMORY_CHARS: usize = 1024;

/// The request: the five view lines and the memory line, each ending in `\n` (games/eggs.md,
/// "A turn"): the final newline matters even for an empty memory, or line-reading bots crash
/// ("Differences from the original controller").
pub fn encode_request(view: &[[u8; 5]; 5], memory: &str) -> Vec<u8> {
    let mut request = Vec::with_capacity(6 * 6 + memory.len());
    for line in view {
        request.extend_from_slice(line);
        request.push(b'\n');
    }
    request.extend_from_slice(memory.as_bytes());
    request.push(b'\n');
    request
}

/// A parsed reply: the move, the new memory, and why a line that was present had to be
/// replaced by its default (counted as an invalid reply), if one was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The move to play.
    pub mv: Move,
    /// The memory for the next turn.
    pub memory: String,
    /// Why the direction or the action line was present but unusable (the direction's
    /// reason when both were).
    pub invalid: Option<&'static str>,
}

/// Parses a reply (games/eggs.md, "A turn"): lines split on `\n` with one trailing `\r` dropped;
/// line 1 trimmed, its leading decimal integer is the direction (else 9); line 2 trimmed must be
/// `A`, `C` or `N` (empty is `N`, anything else is `N` and invalid); line 3 is the memory, cut to
/// 1024 characters. Missing lines take their defaults, and lines after the third are ignored.
/// Invalid UTF-8 is replaced, so no byte sequence fails.
pub fn parse_reply(bytes: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line));
    let mut invalid = None;
    // `split` yields one empty piece for an empty reply; that is "no line 1", not a bad one.
    let direction = match lines.next().filter(|_| !bytes.is_empty()) {
        None => Direction::STAY,
        Some(line) => leading_integer(line.trim())
            .and_then(Direction::from_digit)
            .unwrap_or_else(|| {
                invalid = Some("the direction line does not start with a number 1 to 9");
                Direction::STAY
            }),
    };
    let action = match lines.next().map(str::trim) {
        None | Some("") | Some("N") => Action::Nothing,
        Some("A") => Action::Attack,
        Some("C") => Action::Counter,
        Some(_) => {
            invalid = invalid.or(Some("the action line is none of A, C, N"));
            Action::Nothing
        }
    };
    let memory = lines
        .next()
        .map(|line| line.chars().take(MEMORY_CHARS).collect())
        .unwrap_or_default();
    Reply {
        mv: Move { direction, action },
        memory,
        invalid,
    }
}

/// The leading decimal digits of `text` as a number (saturating), or `None` if it does not
/// start with a digit.
fn leading_integer(text: &str) -> Option<u64> {
    let digits = text.bytes().take_while(u8::is_ascii_digit);
    let mut value: Option<u64> = None;
    for digit in digits {
        let v = value.unwrap_or(0);
        value = Some(v.saturating_mul(10).saturating_add(u64::from(digit - b'0')));
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(text: &str) -> (u8, Action, String, bool) {
        let reply = parse_reply(text.as_bytes());
        let (d_row, d_col) = reply.mv.direction.delta();
        // Back from the delta to the digit, for readable expectations.
        let digit = (1..=9)
            .find(|&d| Direction::from_digit(d).unwrap().delta() == (d_row, d_col))
            .unwrap();
        (
            digit as u8,
            reply.mv.action,
            reply.memory,
            reply.invalid.is_some(),
        )
    }

    #[test]
    fn missing_lines_take_defaults_without_being_invalid() {
        assert_eq!(reply(""), (9, Action::Nothing, String::new(), false));
        assert_eq!(reply("4"), (4, Action::Nothing, String::new(), false));
        assert_eq!(reply("4\n"), (4, Action::Nothing, String::new(), false));
        assert_eq!(reply("4\nA"), (4, Action::Attack, String::new(), false));
        assert_eq!(reply("4\nA\n"), (4, Action::Attack, String::new(), false));
        assert_eq!(reply("4\n\nmem"), (4, Action::Nothing, "mem".into(), false));
    }

    #[test]
    fn whitespace_and_carriage_returns_are_tolerated() {
        assert_eq!(
            reply(" 3 \r\n C\r\n x y \r\nignored\n"),
            (3, Action::Counter, " x y ".into(), false)
        );
    }

    #[test]
    fn bad_directions_and_actions_fall_back_and_count_as_invalid() {
        assert_eq!(reply("0\nA"), (9, Action::Attack, String::new(), true));
        assert_eq!(reply("10\nC"), (9, Action::Counter, String::new(), true));
        assert_eq!(
            reply("99999999999999999999999\n"),
            (9, Action::Nothing, String::new(), true)
        );
        assert_eq!(reply("up\nN"), (9, Action::Nothing, String::new(), true));
        assert_eq!(reply("-4\nN"), (9, Action::Nothing, String::new(), true));
        assert_eq!(reply("4\na\nm"), (4, Action::Nothing, "m".into(), true));
        assert_eq!(reply("4\nAC"), (4, Action::Nothing, String::new(), true));
        // A leading integer followed by text is read as the integer (Ruby `to_i`).
        assert_eq!(reply("5abc\nN"), (5, Action::Nothing, String::new(), false));
    }

    #[test]
    fn memory_is_cut_to_1024_characters_not_bytes() {
        let long = "é".repeat(2000);
        let (_, _, memory, invalid) = reply(&format!("9\nN\n{long}"));
        assert_eq!(memory.chars().count(), MEMORY_CHARS);
        assert!(!invalid);
    }

    #[test]
    fn invalid_utf8_does_not_fail_the_parse() {
        let reply = parse_reply(b"\xff\xfe\n\xc3\nmem\xff");
        assert_eq!(
            reply.invalid,
            Some("the direction line does not start with a number 1 to 9")
        );
        assert_eq!(reply.mv, Move::REST);
        assert_eq!(reply.memory, "mem\u{fffd}");
    }

    #[test]
    fn an_empty_memory_still_ends_in_a_newline() {
        let view = [*b"XXXXX", *b"#####", *b"# * o", *b"#    ", *b"# *  "];
        assert_eq!(
            encode_request(&view, ""),
            b"XXXXX\n#####\n# * o\n#    \n# *  \n\n".to_vec()
        );
        assert_eq!(
            encode_request(&view, "abc"),
            b"XXXXX\n#####\n# * o\n#    \n# *  \nabc\n".to_vec()
        );
    }
}
