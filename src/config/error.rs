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
        let (line, column) = match span {
            Some(span) => line_and_column(source, span.start),
            None => (0, 0),
        };
        Problem {
            line,
            column,
            message: escape_control(&message.into()).into_owned(),
            details: Vec::new(),
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
        for detail in &self.details {
            write!(f, "\n    {detail}")?;
        }
        Ok(())
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
            write!(f, ": {problem}")?;
        }
        Ok(())
    }
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
}
