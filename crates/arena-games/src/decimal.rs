//! Numbers written into requests. Requests are mostly numbers, and `write!` costs several
//! times as much per number as this (a quarter of the runner's time in a large AlienWar game).

/// The most bytes [`write_int`] writes: the sign and 19 digits of `i64::MIN`.
const INT_BYTES: usize = 20;

/// Appends the decimal digits of `value` without allocating a string.
pub(crate) fn push_int(out: &mut Vec<u8>, value: i64) {
    let mut digits = [0u8; INT_BYTES];
    let length = write_int(&mut digits, value);
    out.extend_from_slice(&digits[..length]);
}

/// How many numbers [`push_numbers`] renders on the stack before appending them.
const NUMBERS_AT_ONCE: usize = 16;

/// Appends `numbers` separated by spaces. They are rendered on the stack and appended a
/// batch at a time: a request line is mostly small numbers, and pushing digit by digit into
/// the request re-checks its capacity and stores its length at every byte (a 1000-round
/// AlienWar game of 43 species writes tens of millions of numbers).
pub(crate) fn push_numbers(out: &mut Vec<u8>, numbers: &[i64]) {
    let mut text = [0u8; NUMBERS_AT_ONCE * (INT_BYTES + 1)];
    for (batch, chunk) in numbers.chunks(NUMBERS_AT_ONCE).enumerate() {
        let mut length = 0;
        for (k, &number) in chunk.iter().enumerate() {
            if batch + k > 0 {
                text[length] = b' ';
                length += 1;
            }
            length += write_int(&mut text[length..], number);
        }
        out.extend_from_slice(&text[..length]);
    }
}

/// Writes the decimal digits of `value` at the start of `out`, which has room for
/// [`INT_BYTES`], and returns how many bytes it wrote.
fn write_int(out: &mut [u8], value: i64) -> usize {
    // Most numbers in requests (levels, ids, hit points) are one or two digits.
    if let Ok(small @ 0..=99) = u8::try_from(value) {
        if small < 10 {
            out[0] = b'0' + small;
            return 1;
        }
        out[..2].copy_from_slice(&[b'0' + small / 10, b'0' + small % 10]);
        return 2;
    }
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
    let length = INT_BYTES - start;
    out[..length].copy_from_slice(&digits[start..]);
    length
}

#[cfg(test)]
mod tests {
    use super::{push_int, push_numbers};

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
}
