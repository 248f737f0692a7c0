//! Configuration errors that point at the offending place in the file.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::text::escape_control;

/// Everything wrong with a tournament file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file, as the user named it.
    pub path: PathBuf,
    /// The problems, in file order.
    pub problems: Vec<Problem>,
}

/// One problem at one place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line, or 0 when the problem is about the whole file.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong, as a lowercase sentence fragment.
    pub message: String,
    /// Lines shown under the message, each escaped like it: a compiler's messages.
    pub details: Vec<String>,
    /// The file's line the problem is on, and where on it, to show under the message.
    pub(crate) quote: Option<Quote>,
}

/// A line of the file, quoted under a problem with a caret under the place it means, as a
/// compiler does: in a file of a dozen bots, the line is found at a glance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Quote {
    /// The line, control characters escaped.
    pub(crate) text: String,
    /// Characters of `text` before the place.
    pub(crate) start: usize,
    /// Characters of `text` the place takes up on this line (at least 1).
    pub(crate) width: usize,
}

impl Problem {
    /// A problem at the byte range `span` of `source`. Control characters in `message` are
    /// escaped: it may quote the file (a bot's name, an unknown key), and it is printed on a
    /// terminal as one line.
    pub(crate) fn at(
        source: &str,
        span: Option<Range<usize>>,
        message: impl Into<String>,
    ) -> Problem {
        let (line, column) = match &span {
            Some(span) => line_and_column(source, span.start),
            None => (0, 0),
        };
        Problem {
            line,
            column,
            message: escape_control(&message.into()).into_owned(),
            details: Vec::new(),
            quote: span.map(|span| Quote::of(source, span)),
        }
    }

    /// The problem with `text`'s lines shown under its message (javac's messages, which
    /// read as lines of their own, file and line first).
    pub(crate) fn with_details(mut self, text: &str) -> Problem {
        self.details = (text.lines())
            .map(|line| escape_control(line).into_owned())
            .collect();
        self
    }
}

/// The message, then each detail on a line of its own, indented.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        write_details(f, &self.details)
    }
}

/// Each of `details` on a line of its own, indented.
fn write_details(f: &mut fmt::Formatter<'_>, details: &[String]) -> fmt::Result {
    details
        .iter()
        .try_for_each(|detail| write!(f, "\n    {detail}"))
}

impl Quote {
    /// The line of `source` that `span` starts on, the caret under the part of `span` on it
    /// (a table's span goes on to later lines).
    fn of(source: &str, span: Range<usize>) -> Quote {
        let start = span.start.min(source.len());
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        let line = source[line_start..line_end].trim_end_matches('\r');
        let end = span.end.min(line_start + line.len()).max(start);
        let shown = |text: &str| escape_control(text).chars().count();
        Quote {
            text: escape_control(line).into_owned(),
            start: shown(&source[line_start..start]),
            width: shown(&source[start..end]).max(1),
        }
    }
}

/// 1-based line and column (in characters) of byte `offset`.
fn line_and_column(source: &str, offset: usize) -> (usize, usize) {
    let before = &source[..offset.min(source.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    (line, before[line_start..].chars().count() + 1)
}

impl ConfigError {
    pub(crate) fn new(path: &Path, mut problems: Vec<Problem>) -> ConfigError {
        problems.sort_by_key(|p| (p.line, p.column));
        ConfigError {
            path: path.to_path_buf(),
            problems,
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}", self.path.display())?;
            if problem.line > 0 {
                write!(f, ":{}:{}", problem.line, problem.column)?;
            }
            write!(f, ": {}", problem.message)?;
            if let Some(quote) = &problem.quote {
                write_quote(f, problem.line, quote)?;
            }
            write_details(f, &problem.details)?;
        }
        Ok(())
    }
}

/// `quote`, line `line` of the file, under a message: the line's number in a margin, then
/// the line, then a caret under the place.
fn write_quote(f: &mut fmt::Formatter<'_>, line: usize, quote: &Quote) -> fmt::Result {
    let number = line.to_string();
    let margin = " ".repeat(number.len());
    write!(
        f,
        "\n {number} | {}\n {margin} | {}{}",
        quote.text,
        " ".repeat(quote.start),
        "^".repeat(quote.width)
    )
}

impl std::error::Error for ConfigError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_lines_and_character_columns() {
        let source = "a = 1\nbé = 2\n";
        assert_eq!(line_and_column(source, 0), (1, 1));
        assert_eq!(line_and_column(source, 6), (2, 1));
        assert_eq!(line_and_column(source, source.find("= 2").unwrap()), (2, 4));
    }

    /// `source`'s problem at the span of `part` (its first occurrence), as the error shows it.
    fn shown(source: &str, part: &str) -> String {
        let start = source.find(part).unwrap();
        let problem = Problem::at(source, Some(start..start + part.len()), "wrong");
        ConfigError::new(Path::new("t.toml"), vec![problem]).to_string()
    }

    #[test]
    fn the_line_of_a_problem_is_shown_with_a_caret_under_its_place() {
        let source = "game = \"petri\"\n[[bots]]\nname = \"é\"\ncommand = \"./bot.sh\"\n";
        assert_eq!(
            shown(source, "\"./bot.sh\""),
            "t.toml:4:11: wrong\n 4 | command = \"./bot.sh\"\n   |           ^^^^^^^^^^"
        );
        // A table's span goes on past its header: only its first line is marked.
        assert_eq!(
            shown(source, "[[bots]]\nname"),
            "t.toml:2:1: wrong\n 2 | [[bots]]\n   | ^^^^^^^^"
        );
        // Characters are counted, not bytes; a tab is shown escaped, and the caret follows.
        assert_eq!(
            shown("name =\t\"é\" \"x\"\n", "\"x\""),
            "t.toml:1:12: wrong\n 1 | name =\\t\"é\" \"x\"\n   |             ^^^"
        );
        // An empty span (a missing key) still gets a caret; a line of two digits a margin.
        let long = format!("{}x = 1\n", "\n".repeat(9));
        let problem = Problem::at(&long, Some(9..9), "missing");
        let error = ConfigError::new(Path::new("t.toml"), vec![problem]);
        assert_eq!(
            error.to_string(),
            "t.toml:10:1: missing\n 10 | x = 1\n    | ^"
        );
    }

    #[test]
    fn a_problem_about_the_whole_file_quotes_no_line() {
        let problem = Problem::at("", None, "cannot read the file");
        let error = ConfigError::new(Path::new("t.toml"), vec![problem]);
        assert_eq!(error.to_string(), "t.toml: cannot read the file");
    }
}
