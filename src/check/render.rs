//! The check report as text: per probe the exact bytes sent and received (escaped, one line
//! per line of the original so line ends stay visible), the verdict and the latency.

use std::fmt::Write;

use crate::bots::CallStatus;
use crate::engine::Input;

use super::probe::Verdict;
use super::runner::ProbeReport;

/// At most this many bytes of a request or reply are shown; the rest is counted.
const SHOWN_BYTES: usize = 2048;

/// Renders the reports of a check of `command` for `game`.
pub fn render_check(game: &str, command: &str, reports: &[ProbeReport]) -> String {
    let mut out = format!("checking `{command}` against the {game} protocol\n");
    for (number, report) in (1..).zip(reports) {
        let _ = writeln!(out, "\n{number}. {}", report.name);
        let (how, bytes): (&str, Vec<u8>) = match &report.input {
            Input::Stdin(bytes) => ("on stdin, then end of input", bytes.clone()),
            Input::Args(args) => ("as a command-line argument", args.join(" ").into_bytes()),
            Input::Session(bytes) => ("to the persistent process", bytes.clone()),
        };
        let _ = writeln!(out, "   sent {how} ({} bytes):", bytes.len());
        write_bytes(&mut out, &bytes);
        let elapsed = format!("{:.1} ms", report.result.elapsed.as_secs_f64() * 1000.0);
        match &report.result.status {
            CallStatus::Replied { exit } => {
                let output = &report.result.output;
                let what = match report.input {
                    Input::Session(_) => "reply line (its newline not shown)",
                    Input::Stdin(_) | Input::Args(_) => "reply",
                };
                let _ = writeln!(out, "   {what} in {elapsed} ({} bytes):", output.len());
                write_bytes(&mut out, output);
                if exit.is_abnormal() {
                    let _ = writeln!(out, "   then the process ended with {exit} (a crash)");
                }
            }
            CallStatus::TimedOut => {
                let _ = writeln!(out, "   no reply: timed out after {elapsed}");
            }
            CallStatus::TooLong => {
                let _ = writeln!(out, "   no reply: the reply exceeded the size cap");
            }
            CallStatus::SpawnFailed(error) => {
                let _ = writeln!(out, "   no reply: cannot start the bot: {error}");
            }
            CallStatus::Died { exit } => {
                let _ = writeln!(
                    out,
                    "   no reply: the process ended without replying ({exit})"
                );
            }
            CallStatus::SessionGone => {
                let _ = writeln!(out, "   not sent: the persistent process had already ended");
            }
        }
        match &report.verdict {
            Some(Verdict::Legal(meaning)) => {
                let _ = writeln!(out, "   parsed: yes, {meaning}\n   legal: yes");
            }
            Some(Verdict::Illegal(meaning, why)) => {
                let _ = writeln!(out, "   parsed: yes, {meaning}\n   legal: no, {why}");
            }
            Some(Verdict::Unparsed(why)) => {
                let _ = writeln!(out, "   parsed: no, {why}");
            }
            None => {}
        }
        let stderr = String::from_utf8_lossy(&report.result.stderr);
        if !stderr.trim().is_empty() {
            let _ = writeln!(out, "   stderr (end):");
            write_bytes(&mut out, stderr.trim_end().as_bytes());
        }
        let _ = writeln!(
            out,
            "   => {}",
            if report.is_valid() {
                "valid"
            } else {
                "INVALID"
            }
        );
    }
    let valid = reports.iter().filter(|r| r.is_valid()).count();
    let _ = writeln!(out, "\n{valid} of {} replies valid", reports.len());
    out
}

/// Writes `bytes` indented, one original line per line, escaped (`\n`, `\t`, `\xff`) so the
/// exact bytes are visible; at most [`SHOWN_BYTES`] of them.
fn write_bytes(out: &mut String, bytes: &[u8]) {
    let shown = &bytes[..bytes.len().min(SHOWN_BYTES)];
    for line in shown.split_inclusive(|&b| b == b'\n') {
        let _ = writeln!(out, "     | {}", line.escape_ascii());
    }
    if bytes.len() > shown.len() {
        let _ = writeln!(out, "     ... {} more bytes", bytes.len() - shown.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{CallResult, Exit};
    use std::time::Duration;

    fn report(
        input: Input,
        status: CallStatus,
        output: &[u8],
        verdict: Option<Verdict>,
    ) -> ProbeReport {
        ProbeReport {
            name: "early".into(),
            input,
            result: CallResult {
                output: output.to_vec(),
                status,
                elapsed: Duration::from_millis(12),
                stderr: Vec::new(),
            },
            verdict,
        }
    }

    #[test]
    fn the_report_shows_exact_bytes_verdicts_and_a_count() {
        let good = report(
            Input::Stdin(b"10 4\n..\n\n1 1 4 4".to_vec()),
            CallStatus::Replied {
                exit: Exit::Success,
            },
            b"REST\n",
            Some(Verdict::Legal("Rest".into())),
        );
        let late = report(
            Input::Args(vec!["1,1..2".into()]),
            CallStatus::TimedOut,
            b"",
            None,
        );
        let text = render_check("petri", "bot", &[good, late]);
        let expected = "\
checking `bot` against the petri protocol

1. early
   sent on stdin, then end of input (16 bytes):
     | 10 4\\n
     | ..\\n
     | \\n
     | 1 1 4 4
   reply in 12.0 ms (5 bytes):
     | REST\\n
   parsed: yes, Rest
   legal: yes
   => valid

2. early
   sent as a command-line argument (6 bytes):
     | 1,1..2
   no reply: timed out after 12.0 ms
   => INVALID

1 of 2 replies valid
";
        assert_eq!(text, expected);
    }
}
