//! Numbers written into requests. Requests are mostly numbers, and `write!` costs several
//! times as much per number as this (a quarter of the runner's time in a large AlienWar game).

/// Appends the decimal digits of `value` without allocating a string.
pub(crate) fn push_int(out: &mut Vec<u8>, value: i64) {
    // Most numbers in requests (levels, ids, hit points) are one or two digits.
    if let Ok(small @ 0..=99) = u8::try_from(value) {
        if small >= 10 {
            out.push(b'0' + small / 10);
        }
        out.push(b'0' + small % 10);
        return;
    }
    if value < 0 {
        out.push(b'-');
    }
    let mut magnitude = value.unsigned_abs();
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        // `magnitude % 10` is below 10, so the cast cannot truncate.
        digits[start] = b'0' + (magnitude % 10) as u8;
        magnitude /= 10;
        if magnitude == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[start..]);
}

#[cfg(test)]
mod tests {
    use super::push_int;

    #[test]
    fn numbers_render_in_full_with_their_sign_after_what_was_there() {
        for value in [0, 7, 10, 99, 100, 999, 1000, -1, -42, i64::MIN, i64::MAX] {
            let mut out = b"x".to_vec();
            push_int(&mut out, value);
            assert_eq!(out, format!("x{value}").into_bytes());
        }
    }
}
