//! Text from strangers made safe to show: bot names, bot stderr and replay files reach
//! terminals, and a control character there is a command, not a letter (clear the screen,
//! set the window title, move the cursor back over a line). The same test decides which bot
//! names a tournament file may use (see `config`), so a valid name never needs escaping.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` must not reach a terminal as it is: the control characters (C0 with tab and
/// newline, DEL, C1), which start escape sequences or move the cursor; the bidirectional
/// controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), which reorder the
/// text after them so a line reads other than it is ("Trojan Source"); the line and
/// paragraph separators U+2028 and U+2029, which some programs take for a newline; and the
/// characters that show as nothing and join nothing (the zero-width space, the soft hyphen,
/// word joiners and invisible operators, Hangul fillers, the byte order mark, tags), with
/// which two names that read alike (`ab`, `a\u{200b}b`) would be two bots. The zero-width
/// joiner and non-joiner stay: emoji and several scripts are written with them.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00ad}'
                | '\u{034f}'
                | '\u{061c}'
                | '\u{115f}'
                | '\u{1160}'
                | '\u{180e}'
                | '\u{200b}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206f}'
                | '\u{3164}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{e0000}'..='\u{e007f}'
        )
}

/// The form two names that read alike share: Unicode's composed form (NFC). `café` can be
/// written with the letter `é` or with `e` and a combining accent; both show the same, so
/// they must not be two bots.
pub fn reading_of(name: &str) -> String {
    unicode_normalization::UnicodeNormalization::nfc(name).collect()
}

/// `text` with every [unsafe](is_unsafe) character written as an escape: `\n`, `\r` and
/// `\t`, `\x1b` for the other ASCII ones, `\u{202e}` beyond ASCII. Everything else, a
/// backslash too, stays as it is: this is for people reading, not for parsing back.
pub fn escape_control(text: &str) -> Cow<'_, str> {
    if !text.contains(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if !is_unsafe(c) => out.push(c),
            c if c.is_ascii() => {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
        }
    }
    Cow::Owned(out)
}

/// `count` with `one` or `many` after it: "1 game", "0 games", "3 crashes".
pub fn plural(count: impl Into<u64>, one: &str, many: &str) -> String {
    let count = count.into();
    format!("{count} {}", if count == 1 { one } else { many })
}

/// Of `candidates`, the one fewest slips away from `given` (a misspelt key or bot name), if
/// it is the only one that close and at most two slips away (one for a word of two letters).
pub fn closest<'a>(given: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let most = 2.min(given.chars().count().saturating_sub(1));
    let mut near: Vec<(usize, &str)> = (candidates.into_iter())
        .map(|candidate| (slips(given, candidate), candidate))
        .filter(|&(slips, _)| slips <= most)
        .collect();
    near.sort_unstable();
    match near[..] {
        [(_, only)] => Some(only),
        [(fewest, closest), (next, _), ..] if fewest < next => Some(closest),
        _ => None,
    }
}

/// How many letters to insert, delete, change or swap with a neighbour to turn `a` into `b`
/// (the optimal string alignment distance).
fn slips(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut rows = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let change = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + change);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

/// `bytes` as text for one log line: lossy UTF-8, cut after `max_chars` characters (an
/// ellipsis says so), then [escaped](escape_control), so a reply of many lines stays one line.
pub fn one_line(bytes: &[u8], max_chars: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut cut: String = text.chars().take(max_chars).collect();
    if text.chars().nth(max_chars).is_some() {
        cut.push('…');
    }
    escape_control(&cut).into_owned()
}

/// `bytes` exactly, for people to read byte by byte (`arena check`): printable ASCII as it
/// is, quotes too, but the backslash as `\\`; `\n`, `\r` and `\t`; every other byte as
/// `\xNN`, so a carriage return, a byte order mark or a stray UTF-8 byte shows.
pub fn escape_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &byte in bytes {
        match byte {
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b' '..=b'~' => out.push(char::from(byte)),
            _ => {
                let _ = write!(out, "\\x{byte:02x}");
            }
        }
    }
    out
}

/// `word` as a POSIX shell reads it back: as it is when it can be, else quoted, so a path
/// with a space or a `$` in a command printed for the user to paste stays one word. A word
/// that cannot be quoted (it holds a NUL byte, which no argument can) is left as it is.
pub fn shell_word(word: &str) -> String {
    shlex::try_quote(word).map_or_else(|_| word.to_owned(), |quoted| quoted.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closest_word_is_the_only_one_a_slip_or_two_away() {
        let names = ["hunter", "bomber", "grower", "game", "games"];
        assert_eq!(closest("Hunter", names), Some("hunter"));
        assert_eq!(closest("bmober", names), Some("bomber"));
        assert_eq!(closest("farmer", names), None);
        // One slip from both `game` and `games`: no guess.
        assert_eq!(closest("gamey", names), None);
        assert_eq!(slips("ab", "ba"), 1);
        assert_eq!(slips("", "abc"), 3);
    }

    #[test]
    fn shell_words_are_quoted_only_when_they_need_it() {
        assert_eq!(shell_word("bots/petri/hunter.py"), "bots/petri/hunter.py");
        for word in ["my bots/x", "$HOME", "it's", "a\nb", ""] {
            let quoted = shell_word(word);
            assert_ne!(quoted, word);
            assert_eq!(shlex::split(&quoted).unwrap(), [word], "{quoted}");
        }
    }

    #[test]
    fn exact_bytes_show_every_byte_and_keep_quotes() {
        assert_eq!(
            escape_bytes(b"it's \"fine\" \\o/\r\n"),
            "it's \"fine\" \\\\o/\\r\\n"
        );
        assert_eq!(
            escape_bytes("\u{feff}é\x7f\t".as_bytes()),
            "\\xef\\xbb\\xbf\\xc3\\xa9\\x7f\\t"
        );
    }

    #[test]
    fn one_line_cuts_and_escapes() {
        assert_eq!(one_line(b"ATTACK N 9\n", 80), "ATTACK N 9\\n");
        assert_eq!(one_line("ééé\x1bx".as_bytes(), 4), "ééé\\x1b…");
        assert_eq!(one_line(b"\xffok", 80), "\u{fffd}ok");
    }

    #[test]
    fn terminal_commands_are_shown_not_obeyed() {
        assert_eq!(
            escape_control("\x1b]0;pwned\x07\x1b[2Jx\rERASED\n"),
            "\\x1b]0;pwned\\x07\\x1b[2Jx\\rERASED\\n"
        );
        assert_eq!(
            escape_control("tab\there\x7f\u{9b}"),
            "tab\\there\\x7f\\u{9b}"
        );
        assert_eq!(escape_control("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(escape_control("a\u{2028}b"), "a\\u{2028}b");
        assert_eq!(escape_control("a\u{200b}b\u{ad}"), "a\\u{200b}b\\u{ad}");
    }

    #[test]
    fn ordinary_text_is_borrowed_unchanged() {
        for text in ["", "hunter", "été 東京 🐌", "back\\slash", "\u{200d}"] {
            assert!(
                matches!(escape_control(text), Cow::Borrowed(t) if t == text),
                "{text}"
            );
        }
    }
}
