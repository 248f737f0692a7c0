//! A tournament file read so that every mistake shows at once. serde stops at the first value
//! it rejects; here each rejected key is dropped from the parsed document and the rest
//! deserialized again, until it deserializes or a problem cannot be cut out (a missing
//! required key). The serde types stay the single description of the file.

use std::ops::Range;

use serde::de::DeserializeOwned;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::error::Problem;

/// The most values one file may have rejected before the rest is not looked at.
const MAX_PROBLEMS: usize = 100;

/// How many syntax errors are shown: a file that is no TOML at all (a bot's script given
/// by mistake) has one on nearly every line, and the first few say what is wrong.
const SHOWN_SYNTAX_ERRORS: usize = 5;

/// A parsed tournament file, with the keys serde rejected so far dropped.
pub(crate) struct Document<'a> {
    source: &'a str,
    table: Spanned<DeTable<'a>>,
}

impl<'a> Document<'a> {
    /// Parses `source`; its syntax errors as problems if there are any, the first
    /// [`SHOWN_SYNTAX_ERRORS`] of them and how many there are.
    pub(crate) fn parse(source: &'a str) -> Result<Document<'a>, Vec<Problem>> {
        let (table, errors) = DeTable::parse_recoverable(source);
        if errors.is_empty() {
            return Ok(Document { source, table });
        }
        let mut problems: Vec<Problem> = errors.iter().map(|e| problem(source, e)).collect();
        // The parser's order is not always the file's.
        problems.sort_by_key(|problem| (problem.line, problem.column));
        problems.truncate(SHOWN_SYNTAX_ERRORS);
        if errors.len() > SHOWN_SYNTAX_ERRORS {
            // About the whole file, so it comes first.
            problems.push(Problem::at(
                source,
                None,
                format!(
                    "{} syntax errors: is this a tournament file (TOML)? The first \
                     {SHOWN_SYNTAX_ERRORS} follow",
                    errors.len()
                ),
            ));
        }
        Err(problems)
    }

    /// Deserializes the document as `T`, adding a problem for each value rejected on the way
    /// (and dropping it); `None` if a problem could not be dropped.
    pub(crate) fn deserialize<T: DeserializeOwned>(
        &mut self,
        problems: &mut Vec<Problem>,
    ) -> Option<T> {
        for _ in 0..MAX_PROBLEMS {
            let error = match T::deserialize(toml::de::Deserializer::from(self.table.clone())) {
                Ok(value) => return Some(value),
                Err(error) => error,
            };
            problems.push(problem(self.source, &error));
            let dropped = error
                .span()
                .is_some_and(|span| drop_key_at(self.table.get_mut(), &span));
            if !dropped {
                return None;
            }
        }
        None
    }
}

impl Document<'_> {
    /// Where the value of the key `path` (its parts: `["options", "density", "gold"]`)
    /// stands, if the document has it.
    pub(crate) fn value_span(&self, path: &[&str]) -> Option<Range<usize>> {
        let (last, tables) = path.split_last()?;
        let mut table = self.table.get_ref();
        for name in tables {
            table = match value_of(table, name)?.get_ref() {
                DeValue::Table(inner) => inner,
                _ => return None,
            };
        }
        value_of(table, last).map(Spanned::span)
    }
}

/// The value of the key `name` in `table`.
fn value_of<'t, 'a>(table: &'t DeTable<'a>, name: &str) -> Option<&'t Spanned<DeValue<'a>>> {
    table
        .iter()
        .find(|(key, _)| key.get_ref() == name)
        .map(|(_, value)| value)
}

fn problem(source: &str, error: &toml::de::Error) -> Problem {
    let message = super::wording::plain(error.message().trim_end());
    Problem::at(source, error.span(), message)
}

/// Drops the key of `table` that `span` points into (its name or its value), looking into
/// nested tables and arrays of tables (whose own spans may cover only their headers); false
/// if no key holds it: an empty span is about a whole table, such as a missing key.
fn drop_key_at(table: &mut DeTable<'_>, span: &Range<usize>) -> bool {
    if span.is_empty() {
        return false;
    }
    let holds = |outer: Range<usize>| outer.start <= span.start && span.end <= outer.end;
    let mut rejected = None;
    for (key, value) in table.iter_mut() {
        if holds(key.span()) {
            rejected = Some(key.clone());
            break;
        }
        let value_span = value.span();
        let dropped = match value.get_mut() {
            DeValue::Table(inner) => drop_key_at(inner, span),
            DeValue::Array(items) if items.iter().all(|item| item.get_ref().is_table()) => {
                items.iter_mut().any(|item| match item.get_mut() {
                    DeValue::Table(inner) => drop_key_at(inner, span),
                    _ => false,
                })
            }
            _ if holds(value_span) => {
                rejected = Some(key.clone());
                break;
            }
            _ => false,
        };
        if dropped {
            return true;
        }
    }
    rejected.is_some_and(|key| table.remove(&key).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[expect(dead_code, reason = "only deserialized")]
    struct Raw {
        game: String,
        seed: Option<u64>,
        #[serde(default)]
        bots: Vec<RawBot>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[expect(dead_code, reason = "only deserialized")]
    struct RawBot {
        name: String,
        command: Option<String>,
    }

    fn problems(source: &str) -> (bool, Vec<(usize, String)>) {
        let mut problems = Vec::new();
        let parsed = match Document::parse(source) {
            Ok(mut document) => document.deserialize::<Raw>(&mut problems).is_some(),
            Err(syntax) => {
                problems = syntax;
                false
            }
        };
        let lines = problems.into_iter().map(|p| (p.line, p.message)).collect();
        (parsed, lines)
    }

    #[test]
    fn every_rejected_value_is_reported_and_the_rest_still_parses() {
        let source = "game = \"petri\"\nseed = \"one\"\ncolour = 1\n\
                      [[bots]]\nname = \"a\"\ncommand = 5\n\
                      [[bots]]\nname = \"b\"\nnmae = \"c\"\n";
        let (parsed, lines) = problems(source);
        assert!(parsed);
        let at: Vec<usize> = lines.iter().map(|(line, _)| *line).collect();
        assert_eq!(at.len(), 4, "{lines:?}");
        for line in [2, 3, 6, 9] {
            assert!(at.contains(&line), "line {line}: {lines:?}");
        }
    }

    #[test]
    fn a_missing_required_key_ends_the_search() {
        let (parsed, lines) = problems("seed = 1\n");
        assert!(!parsed);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].1.contains("game"), "{lines:?}");
    }

    #[test]
    fn syntax_errors_are_reported_the_first_few_and_how_many_more() {
        let (parsed, lines) = problems("game = \nseed = = 1\n");
        assert!(!parsed);
        assert!(!lines.is_empty(), "{lines:?}");
        // A Python script named in place of the tournament file.
        let script = "import os\nimport sys\n".repeat(20);
        let (parsed, lines) = problems(&script);
        assert!(!parsed);
        assert_eq!(lines.len(), SHOWN_SYNTAX_ERRORS + 1, "{lines:?}");
        assert_eq!(
            lines[..SHOWN_SYNTAX_ERRORS]
                .iter()
                .map(|l| l.0)
                .collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
        assert_eq!(
            lines[SHOWN_SYNTAX_ERRORS],
            (
                0,
                "40 syntax errors: is this a tournament file (TOML)? The first 5 follow".to_owned()
            )
        );
    }
}
