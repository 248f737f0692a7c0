//! serde's words for a rejected value, made the file author's: a number type named by the
//! numbers it takes (`u32` says nothing to someone writing a tournament file), and a misspelt
//! key answered with the key it most likely meant.

/// Rust's number types as a tournament file's author reads them.
const NUMBER_TYPES: [(&str, &str); 7] = [
    ("u8", "a whole number from 0 to 255"),
    ("u16", "a whole number from 0 to 65535"),
    ("u32", "a whole number from 0 to 4294967295"),
    ("u64", "a whole number from 0 to 18446744073709551615"),
    ("usize", "a whole number from 0 to 18446744073709551615"),
    ("i64", "a whole number"),
    ("f64", "a number"),
];

/// `message` in the file author's words.
pub(crate) fn plain(message: &str) -> String {
    // toml reads an integer too large for any type as an i128, and says so.
    let mut text = message.replace(" as i128,", ",");
    for (name, words) in NUMBER_TYPES {
        let expected = format!("expected {name}");
        if let Some(at) = text.find(&expected) {
            let end = at + expected.len();
            let whole_word = !text[end..].starts_with(|c: char| c.is_ascii_alphanumeric());
            if whole_word {
                text.replace_range(at..end, &format!("expected {words}"));
            }
        }
    }
    if let Some(meant) = meant_key(&text) {
        text.push_str(&format!("; did you mean `{meant}`?"));
    }
    text
}

/// For serde's ``unknown field `gmes`, expected one of `game`, `games`, …``, the expected
/// key fewest slips away from the one given (`games`), if it is the only one that close and
/// at most two slips away (one for a key of two letters).
fn meant_key(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("unknown field `")?;
    let (given, rest) = rest.split_once('`')?;
    let expected = rest.split_once("expected one of ")?.1;
    let most = 2.min(given.chars().count().saturating_sub(1));
    let mut keys: Vec<(usize, &str)> = (expected.split('`').skip(1).step_by(2))
        .map(|key| (slips(given, key), key))
        .filter(|&(slips, _)| slips <= most)
        .collect();
    keys.sort_unstable();
    match keys[..] {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_types_are_named_by_their_numbers() {
        assert_eq!(
            plain("invalid type: integer `99999999999999999999999` as i128, expected u32"),
            "invalid type: integer `99999999999999999999999`, expected a whole number from 0 \
             to 4294967295"
        );
        assert_eq!(
            plain("invalid value: integer `-1`, expected usize"),
            "invalid value: integer `-1`, expected a whole number from 0 to \
             18446744073709551615"
        );
        assert_eq!(plain("expected u64s"), "expected u64s", "only whole words");
    }

    #[test]
    fn a_key_a_slip_away_is_suggested_and_a_far_or_doubtful_one_is_not() {
        let unknown = |given: &str| {
            plain(&format!(
                "unknown field `{given}`, expected one of `game`, `seed`, `games`, `jobs`, \
                 `width`, `height`"
            ))
        };
        assert!(unknown("gmes").ends_with("; did you mean `games`?"));
        assert!(unknown("widht").ends_with("; did you mean `width`?"));
        assert!(unknown("hieght").ends_with("; did you mean `height`?"));
        assert!(!unknown("colour").contains("did you mean"));
        // One slip from both `game` and `games`: no guess.
        assert!(!unknown("gamey").contains("did you mean"));
        assert_eq!(slips("ab", "ba"), 1);
        assert_eq!(slips("", "abc"), 3);
    }
}
