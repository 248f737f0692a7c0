//! Numbers written into requests. Requests are mostly numbers, and `write!` costs several
//! times as much per number as this (a quarter of the runner's time in a large AlienWar game);
//! the runner writes the shared Java host's `SEAT` lines with it too ([`push_word_line`]).

/// The most bytes of a number written by [`push_int`]: the sign and 19 digits of `i64::MIN`.
const INT_BYTES: usize = 20;

/// Appends the decimal digits of `value` without allocating a string.
#[inline]
pub fn push_int(out: &mut Vec<u8>, value: i64) {
    // Most numbers in requests (levels, ids, hit points) are one or two digits: appended
    // as bytes of a known count, in the caller, they are stored in place instead of through
    // a call to copy. Longer ones take a call.
    match u8::try_from(value) {
        Ok(digit @ 0..=9) => out.push(b'0' + digit),
        Ok(two @ 10..=99) => out.extend_from_slice(&[b'0' + two / 10, b'0' + two % 10]),
        _ => push_long_int(out, value),
    }
}

/// [`push_int`] for a number of three digits or more, or a negative one.
#[inline(never)]
fn push_long_int(out: &mut Vec<u8>, value: i64) {
    let (digits, start) = digits_of(value);
    out.extend_from_slice(&digits[start..]);
}

/// Appends the line `<word> <count>`: a request's header (`MOVE 12`), the shared Java host's
/// `SEAT 3`. Inline, as [`push_int`] is: a header goes before every request.
#[inline]
pub fn push_word_line(out: &mut Vec<u8>, word: &str, count: usize) {
    out.extend_from_slice(word.as_bytes());
    out.push(b' ');
    push_int(out, i64::try_from(count).unwrap_or(i64::MAX));
    out.push(b'\n');
}

/// Appends `numbers` separated by spaces.
pub(crate) fn push_numbers(out: &mut Vec<u8>, numbers: &[i64]) {
    // Reserved once, so that appending each number does not grow the request again.
    out.reserve(numbers.len() * (INT_BYTES + 1));
    for (k, &number) in numbers.iter().enumerate() {
        if k > 0 {
            out.push(b' ');
        }
        push_int(out, number);
    }
}

/// The most bytes a [`Kept`] text holds.
const KEPT_BYTES: usize = 31;

/// Numbers rendered once and kept, for numbers that are written far more often than they
/// change (an AlienWar instance's levels go into every request about it, and change only
/// when it wins a fight). Short, so that it can live beside the numbers it shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Kept {
    bytes: [u8; KEPT_BYTES],
    length: u8,
}

impl Kept {
    /// `numbers` separated by spaces, or `None` if the text is longer than [`KEPT_BYTES`].
    pub(crate) fn of(numbers: &[i64]) -> Option<Kept> {
        let mut text = Vec::with_capacity(numbers.len() * (INT_BYTES + 1));
        push_numbers(&mut text, numbers);
        let mut bytes = [0; KEPT_BYTES];
        bytes.get_mut(..text.len())?.copy_from_slice(&text);
        let length = u8::try_from(text.len()).ok()?;
        Some(Kept { bytes, length })
    }

    /// The text.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.length)]
    }
}

/// The decimal digits of `value` with its sign: the end of the array, from the index given.
fn digits_of(value: i64) -> ([u8; INT_BYTES], usize) {
    let mut digits = [0u8; INT_BYTES];
    let mut start = digits.len();
    let mut magnitude = value.unsigned_abs();
    loop {
        start -= 1;
        // `magnitude % 10` is below 10, so the cast cannot truncate.
        digits[start] = b'0' + (magnitude % 10) as u8;
        magnitude /= 10;
        if magnitude == 0 {
            break;
        }
    }
    if value < 0 {
        start -= 1;
        digits[start] = b'-';
    }
    (digits, start)
}

#[cfg(test)]
mod tests {
    use super::{KEPT_BYTES, Kept, push_int, push_numbers, push_word_line};

    #[test]
    fn numbers_render_in_full_with_their_sign_after_what_was_there() {
        for value in [0, 7, 10, 99, 100, 999, 1000, -1, -42, i64::MIN, i64::MAX] {
            let mut out = b"x".to_vec();
            push_int(&mut out, value);
            assert_eq!(out, format!("x{value}").into_bytes());
        }
    }

    #[test]
    fn numbers_are_separated_by_single_spaces_across_batches() {
        let numbers: Vec<i64> = (-20..20).map(|n| n * n * n).collect();
        let mut out = b"x ".to_vec();
        push_numbers(&mut out, &numbers);
        let expected: Vec<String> = numbers.iter().map(i64::to_string).collect();
        assert_eq!(out, format!("x {}", expected.join(" ")).into_bytes());
        let mut none = Vec::new();
        push_numbers(&mut none, &[]);
        assert!(none.is_empty());
    }

    #[test]
    fn a_word_line_is_the_word_a_space_the_count_and_a_newline() {
        let mut out = b"x\n".to_vec();
        push_word_line(&mut out, "SEAT", 3);
        push_word_line(&mut out, "MOVE", 4321);
        assert_eq!(out, b"x\nSEAT 3\nMOVE 4321\n");
    }

    #[test]
    fn kept_text_is_the_pushed_text_while_it_fits() {
        for numbers in [&[][..], &[0], &[7, 10, 99, -1, 100, 12345], &[i64::MIN]] {
            let mut pushed = Vec::new();
            push_numbers(&mut pushed, numbers);
            let kept = Kept::of(numbers);
            assert_eq!(kept.map(|k| k.as_bytes().to_vec()), Some(pushed));
        }
        // 8 numbers of 3 digits and 7 spaces are 31 bytes; one digit more does not fit.
        assert!(Kept::of(&[100; 8]).is_some());
        assert_eq!(Kept::of(&[100; 8]).unwrap().as_bytes().len(), KEPT_BYTES);
        assert!(Kept::of(&[100, 100, 100, 100, 100, 100, 100, 1000]).is_none());
        assert!(Kept::of(&[i64::MIN, i64::MAX]).is_none());
    }
}
