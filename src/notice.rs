//! Lines on stderr that no log filter may hide (an error; how to finish a stopped run),
//! written in the log's format so that a JSON log stays one JSON object per line.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::SystemTime;

use crate::text::escape_control;

/// Whether the log is JSON (`--log-format json`); set once by the binary.
static JSON: AtomicBool = AtomicBool::new(false);

/// Makes every later notice a JSON object.
pub fn write_json() {
    JSON.store(true, Ordering::Relaxed);
}

/// How much a notice matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Something failed: `error: …` as text.
    Error,
    /// Something is wrong but the run went on: `warning: …` as text, one paragraph.
    Warning,
    /// Something to act on: the line as it is, as text.
    Info,
}

/// Writes `message` to stderr, each of its lines (text), or as one object (JSON); dropped
/// if stderr cannot take it (see [`crate::stderr`]).
pub fn always(level: Level, message: &str) {
    crate::stderr::write(render(level, message, JSON.load(Ordering::Relaxed)).as_bytes());
}

/// What [`always`] writes.
fn render(level: Level, message: &str, json: bool) -> String {
    if json {
        let object = serde_json::json!({
            "timestamp": humantime::format_rfc3339_micros(SystemTime::now()).to_string(),
            "level": match level {
                Level::Error => "ERROR",
                Level::Warning => "WARN",
                Level::Info => "INFO",
            },
            "message": message,
        });
        return format!("{object}\n");
    }
    // Each line of an error is a problem of its own; a warning is one paragraph.
    let (first, rest) = match level {
        Level::Error => ("error: ", "error: "),
        Level::Warning => ("warning: ", ""),
        Level::Info => ("", ""),
    };
    message
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let prefix = if i == 0 { first } else { rest };
            format!("{prefix}{}\n", escape_control(line))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_notices_prefix_and_escape_each_line() {
        assert_eq!(
            render(Level::Error, "bad\nworse \x1b[2J", false),
            "error: bad\nerror: worse \\x1b[2J\n"
        );
        assert_eq!(render(Level::Info, "resume", false), "resume\n");
        assert_eq!(
            render(Level::Warning, "bot a failed:\n    its stderr", false),
            "warning: bot a failed:\n    its stderr\n"
        );
    }

    #[test]
    fn json_notices_are_one_object_on_one_line() {
        let line = render(Level::Error, "bad\nworse", true);
        assert_eq!(line.lines().count(), 1);
        let object: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(object["level"], "ERROR");
        assert_eq!(object["message"], "bad\nworse");
        assert!(object["timestamp"].as_str().unwrap().ends_with('Z'));
    }
}
