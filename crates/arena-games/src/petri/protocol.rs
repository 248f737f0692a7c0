//! The bytes of the Petri protocol: rendering cell requests and parsing replies.
//!
//! This module owns the wire format of `games/petri.md` ("Protocol") and nothing else.
//! Parsing is syntax only: [`parse_action`] and [`parse_species`] look at the reply bytes
//! and never at the game state, so a reply that parses may still be illegal (`rules.rs`
//! decides that). Both parsers reproduce the original `petri.js` driver, because bots were
//! written and tested against it: one trailing `\n` is removed, the rest is split on single
//! spaces, words are upper-cased the way JavaScript does it, and numbers are read with
//! JavaScript's `parseInt(token, 10)`. Replies are arbitrary bytes; nothing here panics on
//! them or allocates in proportion to their size beyond one lossy UTF-8 view of a token.

use std::borrow::Cow;

use super::rules::{CellId, Contents, Dish, Framing, RawAction, RawSpecies};
use crate::compass::Compass;
use crate::decimal::push_int;

/// The setup request: exactly these five bytes, without a newline, because several posted
/// bots compare their whole input to `BEGIN` (games/petri.md, "Setup").
pub(crate) const SETUP_REQUEST: &[u8] = b"BEGIN";

/// The first line a persistent (LOOP) process receives, before any cell request; its reply
/// line is read and ignored (games/petri.md, "LOOP mode").
pub(crate) const SESSION_START: &[u8] = b"BEGIN\n";

/// The line that tells a persistent (LOOP) process the game is over (games/petri.md, "LOOP mode").
pub(crate) const SESSION_END: &[u8] = b"END\n";

/// A source word longer than this cannot upper-case to any command or direction: the
/// longest keyword, `EXPLODE`, has 7 characters, every source character yields at least one
/// upper-case character, and a character has at most 4 bytes in UTF-8. Longer tokens are
/// rejected without decoding them, so a huge reply costs nothing.
const MAX_WORD_BYTES: usize = 7 * 4;

/// The direction an upper-cased reply token names, if any.
fn direction_from_word(word: &str) -> Option<Compass> {
    Some(match word {
        "N" => Compass::N,
        "NE" => Compass::NE,
        "E" => Compass::E,
        "SE" => Compass::SE,
        "S" => Compass::S,
        "SW" => Compass::SW,
        "W" => Compass::W,
        "NW" => Compass::NW,
        _ => return None,
    })
}

/// Why a reply is not an action at all. Every case is played as REST (games/petri.md,
/// "Actions").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParseError {
    /// The first token is none of the six commands (this includes an empty reply).
    UnknownCommand,
    /// A command that needs a direction has no second token.
    MissingDirection,
    /// The second token is not one of the eight directions.
    BadDirection,
    /// `ATTACK` without a third token that starts with an integer.
    BadStrength,
}

impl ParseError {
    /// Why, in words: a rejection's reason and `arena check`'s verdict.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            ParseError::UnknownCommand => {
                "the first word is none of MOVE, ATTACK, DIVIDE, EAT, REST, EXPLODE"
            }
            ParseError::MissingDirection => "the command needs a direction",
            ParseError::BadDirection => "the direction is none of N, NE, E, SE, S, SW, W, NW",
            ParseError::BadStrength => "ATTACK needs a strength after the direction",
        }
    }
}

/// A setup reply whose first three tokens are not all integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NotThreeIntegers;

/// Renders the request for the cell `actor` (games/petri.md, "Cell requests"): `W H`, the
/// rows as its owner sees them (`o` own, `x` enemy, `c` corpse, `.` empty), a blank line and
/// `X Y HP ENERGY`. The stats line ends with a newline only for [`Framing::Loop`].
pub(crate) fn encode_request(dish: &Dish, actor: CellId, framing: Framing) -> Vec<u8> {
    let (width, height) = dish.size();
    let cell = dish.cell(actor);
    let viewer = cell.side();
    // Header and stats lines are at most 64 bytes together; the board is exact.
    let mut out = Vec::with_capacity((usize::from(width) + 1) * usize::from(height) + 64);
    push_int(&mut out, i64::from(width));
    out.push(b' ');
    push_int(&mut out, i64::from(height));
    out.push(b'\n');
    // A row at a time: a row's exact length lets `extend` skip a capacity check per square,
    // in code that runs for every request.
    for row in dish.rows() {
        out.extend(row.map(|contents| match contents {
            Contents::Empty => b'.',
            Contents::Corpse => b'c',
            Contents::Living(side) if side == viewer => b'o',
            Contents::Living(_) => b'x',
        }));
        out.push(b'\n');
    }
    out.push(b'\n');
    for (value, separator) in [
        (i64::from(cell.x()), b' '),
        (i64::from(cell.y()), b' '),
        (i64::from(cell.hp()), b' '),
        (i64::from(cell.energy()), b'\n'),
    ] {
        push_int(&mut out, value);
        out.push(separator);
    }
    if framing == Framing::OneShot {
        // The stats line has no newline in one-shot mode (games/petri.md, "Cell requests").
        out.pop();
    }
    out
}

/// Parses a cell's reply like the original driver (games/petri.md, "Replies"): the command
/// and direction are upper-cased, the strength is `parseInt`ed, and tokens after those a
/// command needs are ignored (`EXPLODE NOW` explodes, `REST 5` rests).
pub(crate) fn parse_action(reply: &[u8]) -> Result<RawAction, ParseError> {
    let mut tokens = tokens(reply);
    let command = tokens.next().and_then(upper_word);
    let mut direction = || -> Result<Compass, ParseError> {
        let word = tokens.next().ok_or(ParseError::MissingDirection)?;
        upper_word(word)
            .and_then(|word| direction_from_word(&word))
            .ok_or(ParseError::BadDirection)
    };
    let action = match command.as_deref() {
        Some("MOVE") => RawAction::Move(direction()?),
        Some("DIVIDE") => RawAction::Divide(direction()?),
        Some("EAT") => RawAction::Eat(direction()?),
        Some("ATTACK") => {
            let direction = direction()?;
            let strength = tokens
                .next()
                .and_then(parse_int)
                .ok_or(ParseError::BadStrength)?;
            RawAction::Attack(direction, strength)
        }
        Some("REST") => RawAction::Rest,
        Some("EXPLODE") => RawAction::Explode,
        _ => return Err(ParseError::UnknownCommand),
    };
    Ok(action)
}

/// Parses a setup reply like the original driver (games/petri.md, "Setup"): the first three
/// tokens are `parseInt`ed; a fourth token `LOOP` (any case, surrounding ASCII whitespace
/// allowed, so `LOOP\r` from a CRLF bot counts) asks for the persistent mode. Later tokens
/// are ignored.
pub(crate) fn parse_species(reply: &[u8]) -> Result<RawSpecies, NotThreeIntegers> {
    let mut tokens = tokens(reply);
    let mut number = || tokens.next().and_then(parse_int).ok_or(NotThreeIntegers);
    let (hp, energy, acidity) = (number()?, number()?, number()?);
    let framing = match tokens.next() {
        Some(word) if word.trim_ascii().eq_ignore_ascii_case(b"LOOP") => Framing::Loop,
        _ => Framing::OneShot,
    };
    Ok(RawSpecies {
        hp,
        energy,
        acidity,
        framing,
    })
}

/// JavaScript's `parseInt(token, 10)`: skip leading JavaScript white space, take an optional
/// sign and then as many ASCII digits as there are; `None` (NaN) if there are none. So `2abc`
/// is 2, `+3` is 3 and `-0` is 0. Values beyond `i64` saturate; the caller only accepts
/// small numbers, so saturation and JavaScript's float rounding reject the same replies.
pub(crate) fn parse_int(token: &[u8]) -> Option<i64> {
    // Node decoded bot output as UTF-8 with replacement characters, which `from_utf8_lossy`
    // mirrors; a replacement character is not white space, so it ends the number.
    let text = String::from_utf8_lossy(token);
    let text = text.trim_start_matches(is_js_whitespace).as_bytes();
    let (negative, rest) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, text),
    };
    let digits = rest.iter().take_while(|byte| byte.is_ascii_digit());
    let mut seen = false;
    let mut magnitude: i64 = 0;
    for digit in digits {
        seen = true;
        magnitude = magnitude
            .saturating_mul(10)
            .saturating_add(i64::from(digit - b'0'));
    }
    seen.then_some(if negative { -magnitude } else { magnitude })
}

/// The driver's tokenisation: remove one trailing `\n`, then split on every single space
/// (so a double space yields an empty token). Always yields at least one token.
fn tokens(reply: &[u8]) -> impl Iterator<Item = &[u8]> {
    reply
        .strip_suffix(b"\n")
        .unwrap_or(reply)
        .split(|&byte| byte == b' ')
}

/// The token upper-cased with JavaScript's `toUpperCase` (full Unicode case mapping, which
/// Rust's `to_uppercase` shares: `reſt` is `REST`), or `None` if it is too long to be a
/// keyword. A word already in ASCII capitals, what bots nearly always send, is borrowed.
fn upper_word(token: &[u8]) -> Option<Cow<'_, str>> {
    if token.len() > MAX_WORD_BYTES {
        return None;
    }
    Some(match std::str::from_utf8(token) {
        Ok(word)
            if word
                .bytes()
                .all(|byte| byte.is_ascii() && !byte.is_ascii_lowercase()) =>
        {
            Cow::Borrowed(word)
        }
        _ => Cow::Owned(String::from_utf8_lossy(token).to_uppercase()),
    })
}

/// White space and line terminators as JavaScript's `parseInt` skips them (ECMAScript
/// `StrWhiteSpaceChar`). This differs from Rust's `char::is_whitespace` in U+0085 and U+FEFF.
fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{B}' | '\u{C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// A short printable excerpt of a reply for messages: at most 40 bytes, escaped.
pub(crate) fn excerpt(reply: &[u8]) -> String {
    const LIMIT: usize = 40;
    match reply.get(..LIMIT) {
        Some(head) if reply.len() > LIMIT => format!("{}...", head.escape_ascii()),
        _ => reply.escape_ascii().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::petri::options::RuleSet;
    use crate::petri::rules::Species;
    use Compass::{E, N, NE, NW, S, SE, SW, W};

    #[test]
    fn every_command_parses() {
        for (reply, expected) in [
            (&b"MOVE N"[..], RawAction::Move(N)),
            (b"DIVIDE SE", RawAction::Divide(SE)),
            (b"EAT W", RawAction::Eat(W)),
            (b"ATTACK NE 2", RawAction::Attack(NE, 2)),
            (b"REST", RawAction::Rest),
            (b"EXPLODE", RawAction::Explode),
        ] {
            assert_eq!(parse_action(reply), Ok(expected), "{reply:?}");
        }
        for (word, direction) in [
            ("N", N),
            ("NE", NE),
            ("E", E),
            ("SE", SE),
            ("S", S),
            ("SW", SW),
            ("W", W),
            ("NW", NW),
        ] {
            let reply = format!("MOVE {word}");
            assert_eq!(
                parse_action(reply.as_bytes()),
                Ok(RawAction::Move(direction))
            );
        }
    }

    #[test]
    fn commands_and_directions_are_case_insensitive() {
        assert_eq!(parse_action(b"move n"), Ok(RawAction::Move(N)));
        assert_eq!(parse_action(b"Attack sW 3"), Ok(RawAction::Attack(SW, 3)));
        assert_eq!(parse_action(b"eXplode"), Ok(RawAction::Explode));
        assert_eq!(parse_action(b"rest"), Ok(RawAction::Rest));
        // JavaScript's toUpperCase maps the long s to S, so petri.js accepted these too.
        assert_eq!(parse_action("re\u{17F}t".as_bytes()), Ok(RawAction::Rest));
        assert_eq!(
            parse_action("move \u{17F}".as_bytes()),
            Ok(RawAction::Move(S))
        );
    }

    #[test]
    fn exactly_one_trailing_newline_is_removed() {
        assert_eq!(parse_action(b"REST\n"), Ok(RawAction::Rest));
        assert_eq!(parse_action(b"MOVE N\n"), Ok(RawAction::Move(N)));
        assert_eq!(parse_action(b"ATTACK N 2\n"), Ok(RawAction::Attack(N, 2)));
        assert_eq!(parse_action(b"REST\n\n"), Err(ParseError::UnknownCommand));
        assert_eq!(parse_action(b"REST\r\n"), Err(ParseError::UnknownCommand));
        assert_eq!(parse_action(b"MOVE N\r\n"), Err(ParseError::BadDirection));
        assert_eq!(parse_action(b"MOVE N\n\n"), Err(ParseError::BadDirection));
    }

    #[test]
    fn tokens_after_the_needed_ones_are_ignored() {
        assert_eq!(parse_action(b"EXPLODE NOW"), Ok(RawAction::Explode));
        assert_eq!(parse_action(b"REST 5"), Ok(RawAction::Rest));
        assert_eq!(parse_action(b"MOVE N please"), Ok(RawAction::Move(N)));
        assert_eq!(parse_action(b"ATTACK E 3 4"), Ok(RawAction::Attack(E, 3)));
        assert_eq!(parse_action(b"EAT S \xff"), Ok(RawAction::Eat(S)));
    }

    #[test]
    fn attack_strength_is_read_with_parse_int_and_range_checked_later() {
        for (reply, strength) in [
            (&b"ATTACK E 2abc"[..], 2),
            (b"ATTACK E 0", 0),
            (b"ATTACK E 4", 4),
            (b"ATTACK E +3", 3),
            (b"ATTACK E -1", -1),
            (b"ATTACK E 2.9", 2),
            (b"ATTACK E 0x2", 0),
            (b"ATTACK E \t1", 1),
            (b"ATTACK E 99999999999999999999999", i64::MAX),
        ] {
            assert_eq!(
                parse_action(reply),
                Ok(RawAction::Attack(E, strength)),
                "{reply:?}"
            );
        }
        for reply in [
            &b"ATTACK E"[..],
            b"ATTACK E ",
            b"ATTACK E NaN",
            b"ATTACK E  2",
            b"ATTACK E three",
            b"ATTACK E -",
        ] {
            assert_eq!(
                parse_action(reply),
                Err(ParseError::BadStrength),
                "{reply:?}"
            );
        }
    }

    #[test]
    fn a_missing_or_bad_direction_is_an_error() {
        for reply in [&b"MOVE"[..], b"DIVIDE", b"EAT\n", b"ATTACK"] {
            assert_eq!(
                parse_action(reply),
                Err(ParseError::MissingDirection),
                "{reply:?}"
            );
        }
        for reply in [
            &b"MOVE X"[..],
            b"MOVE  N",
            b"MOVE NNE",
            b"EAT north",
            b"ATTACK 2 N",
            b"DIVIDE \xffN",
            b"MOVE N\t",
        ] {
            assert_eq!(
                parse_action(reply),
                Err(ParseError::BadDirection),
                "{reply:?}"
            );
        }
    }

    #[test]
    fn anything_else_is_an_unknown_command() {
        let huge = vec![b'A'; 1 << 20];
        for reply in [
            &b""[..],
            b"\n",
            b" REST",
            b"SLEEP",
            b"RESTS",
            b"MOVE\tN",
            b"\xff\xfe",
            b"\0",
            &huge,
        ] {
            assert_eq!(
                parse_action(reply),
                Err(ParseError::UnknownCommand),
                "{reply:?}"
            );
        }
    }

    #[test]
    fn parse_int_follows_javascript() {
        for (token, value) in [
            (&b"12"[..], Some(12)),
            (b"-0", Some(0)),
            (b"+7x", Some(7)),
            (b"\t\r\n\x0b\x0c 5", Some(5)),
            ("\u{A0}\u{FEFF}\u{3000}3".as_bytes(), Some(3)),
            (b"007", Some(7)),
            (b"1e3", Some(1)),
            (b"", None),
            (b"-", None),
            (b"+-1", None),
            (b"x1", None),
            ("\u{85}1".as_bytes(), None),
            (b"\xff1", None),
        ] {
            assert_eq!(parse_int(token), value, "{token:?}");
        }
    }

    #[test]
    fn species_replies_parse_three_integers_and_an_optional_loop() {
        let species =
            |reply: &[u8]| parse_species(reply).map(|s| (s.hp, s.energy, s.acidity, s.framing));
        assert_eq!(species(b"5 6 1"), Ok((5, 6, 1, Framing::OneShot)));
        assert_eq!(species(b"5 6 1\n"), Ok((5, 6, 1, Framing::OneShot)));
        assert_eq!(species(b"4 6 2 LOOP\n"), Ok((4, 6, 2, Framing::Loop)));
        assert_eq!(species(b"4 6 2 loop\r\n"), Ok((4, 6, 2, Framing::Loop)));
        assert_eq!(species(b"4 6 2 LOOP more"), Ok((4, 6, 2, Framing::Loop)));
        assert_eq!(
            species(b"4 6 2 LOOP \n\n"),
            Ok((4, 6, 2, Framing::Loop)),
            "whitespace is trimmed"
        );
        assert_eq!(
            species(b"4 4 5"),
            Ok((4, 4, 5, Framing::OneShot)),
            "sums are a rule"
        );
        assert_eq!(species(b"-1 6 7"), Ok((-1, 6, 7, Framing::OneShot)));
        for reply in [
            &b""[..],
            b"BEGIN",
            b"5 6",
            b"5  6 1",
            b"5,6,1",
            b"a b c",
            b"\xff",
        ] {
            assert_eq!(parse_species(reply), Err(NotThreeIntegers), "{reply:?}");
        }
    }

    #[test]
    fn requests_show_the_asking_side_as_o() {
        let species = [Species::new(5, 6, 1), Species::new(4, 8, 0)];
        let mut dish = Dish::from_picture(&["ox.", "c.x"], 150, RuleSet::Text, species);
        let actor = dish.at(2, 1);
        dish.set(actor, 3, 7);
        assert_eq!(
            encode_request(&dish, actor, Framing::OneShot),
            b"3 2\nxo.\nc.o\n\n2 1 3 7"
        );
        assert_eq!(
            encode_request(&dish, dish.at(0, 0), Framing::Loop),
            b"3 2\nox.\nc.x\n\n0 0 5 6\n"
        );
    }

    #[test]
    fn excerpts_are_escaped_and_short() {
        assert_eq!(excerpt(b"4 4 5\n"), "4 4 5\\n");
        assert_eq!(excerpt(&[b'9'; 41]), format!("{}...", "9".repeat(40)));
        assert_eq!(excerpt(&[b'9'; 40]), "9".repeat(40));
    }
}
