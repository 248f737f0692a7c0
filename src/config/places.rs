//! Where a checked tournament's bots are written in its file. Some problems of a bot are
//! found only after loading, once the command line has had its say (which bots play,
//! whether in the sandbox): a program the system cannot start. Kept with the tournament,
//! the places let such a problem point at its bot as the file's own problems do.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use super::error::Problem;

/// The file's text, and where each bot's program (its `command` or `java`) is written, by
/// the bot's name.
#[derive(Debug, Clone)]
pub(crate) struct BotPlaces {
    source: Arc<str>,
    programs: BTreeMap<String, Range<usize>>,
}

impl BotPlaces {
    /// The places of `programs` in `source`.
    pub(crate) fn new(source: &str, programs: BTreeMap<String, Range<usize>>) -> BotPlaces {
        BotPlaces {
            source: source.into(),
            programs,
        }
    }

    /// `why` the bot `name`'s program cannot start, as a problem at its program.
    pub(crate) fn unstartable(&self, name: &str, why: &str) -> Problem {
        let span = self.programs.get(name).cloned();
        unstartable(&self.source, span, &format!("bot `{name}`"), why)
    }
}

/// `why` the bot `label` names cannot start, as a problem at `span` of `source`: the one
/// wording of such a problem, found while the file is checked or after.
pub(crate) fn unstartable(
    source: &str,
    span: Option<Range<usize>>,
    label: &str,
    why: &str,
) -> Problem {
    Problem::at(source, span, format!("{label}: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_found_after_loading_points_at_its_bots_program() {
        let source = "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"./a.sh\"\n";
        let start = source.find("\"./a.sh\"").unwrap();
        let programs = BTreeMap::from([("a".to_owned(), start..start + 8)]);
        let places = BotPlaces::new(source, programs);
        let problem = places.unstartable("a", "program ./a.sh does not exist");
        assert_eq!((problem.line, problem.column), (4, 11));
        assert_eq!(problem.message, "bot `a`: program ./a.sh does not exist");
        // A bot the places do not know is a problem of the whole file, worded alike.
        let problem = places.unstartable("b", "gone");
        assert_eq!(
            (problem.line, problem.message.as_str()),
            (0, "bot `b`: gone")
        );
    }
}
