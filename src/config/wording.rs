//! serde's words for a rejected value, made the file author's: a number type named by the
//! numbers it takes (`u32` says nothing to someone writing a tournament file), and a misspelt
//! key answered with the key it most likely meant.

use crate::text::closest;

/// Rust's number types as a tournament file's author reads them: the kind of number, and
/// the largest, for a type that bounds it.
const NUMBER_TYPES: [(&str, &str, Option<&str>); 7] = [
    ("u8", "a whole number", Some("255")),
    ("u16", "a whole number", Some("65535")),
    ("u32", "a whole number", Some("4294967295")),
    ("u64", "a whole number", Some("18446744073709551615")),
    ("usize", "a whole number", Some("18446744073709551615")),
    ("i64", "a whole number", None),
    ("f64", "a number", None),
];

/// `message` in the file author's words. The number a type takes is named only as far as
/// the value given broke it (negative, or too large): the type's range is not the key's, whose
/// own bounds are checked after, so `from 0 to 4294967295` for a `games` of `"10"` would
/// promise a 0 that is then refused.
pub(crate) fn plain(message: &str) -> String {
    // toml reads an integer too large for any type as an i128, and says so.
    let mut text = message.replace(" as i128,", ",");
    let given_negative = (text.split_once("integer `")).map(|(_, rest)| rest.starts_with('-'));
    for (name, kind, largest) in NUMBER_TYPES {
        let expected = format!("expected {name}");
        if let Some(at) = text.find(&expected) {
            let end = at + expected.len();
            let whole_word = !text[end..].starts_with(|c: char| c.is_ascii_alphanumeric());
            if whole_word {
                let words = match (given_negative, largest) {
                    (Some(true), Some(_)) => format!("{kind} that is not negative"),
                    (Some(false), Some(largest)) => format!("{kind} up to {largest}"),
                    _ => kind.to_owned(),
                };
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
/// key the given one most likely meant ([`closest`]).
fn meant_key(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("unknown field `")?;
    let (given, rest) = rest.split_once('`')?;
    let expected = rest.split_once("expected one of ")?.1;
    closest(given, expected.split('`').skip(1).step_by(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_types_are_named_by_their_numbers_as_far_as_the_value_broke_them() {
        assert_eq!(
            plain("invalid type: integer `99999999999999999999999` as i128, expected u32"),
            "invalid type: integer `99999999999999999999999`, expected a whole number up to \
             4294967295"
        );
        assert_eq!(
            plain("invalid value: integer `-1`, expected usize"),
            "invalid value: integer `-1`, expected a whole number that is not negative"
        );
        assert_eq!(
            plain("invalid type: string \"10\", expected u32"),
            "invalid type: string \"10\", expected a whole number"
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
    }
}
