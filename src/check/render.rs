//! The check report as text: per probe the exact bytes sent and received (escaped, one line
//! per line of the original so line ends stay visible), the verdict and the latency.

use std::fmt::Write;

use crate::bots::preflight::ENDS_IN_CR_LF;
use crate::bots::{BotProgram, CallStatus};
use crate::folders::{CAP_BYTES, Held};
use crate::sandbox::{Enforced, FOLDER_BYTES, FOLDER_ENTRIES, NOBODY, TMP_BYTES, runner_home};
use crate::text::escape_control;
use arena_games::engine::Input;

use super::runner::ProbeReport;
use arena_games::probe::Verdict;

/// At most this many bytes of a request or reply are shown; the rest is counted.
const SHOWN_BYTES: usize = 2048;

/// Renders the reports of a check of `command` for `game`, run as `program` in the sandbox
/// `sandbox` (or without one) with replies capped at `max_reply_bytes`; `java` if the bot is
/// a Java alien that arena's Java host runs, whose silences have other causes than a
/// program's.
pub fn render_check(
    (game, options): (&str, Option<&str>),
    command: &str,
    java: bool,
    program: &BotProgram,
    (sandbox, max_reply_bytes): (Option<&Enforced>, usize),
    reports: &[ProbeReport],
    left: Option<&Held>,
) -> String {
    let mut out = format!("checking `{command}` against the {game} protocol\n");
    if let Some(options) = options {
        let _ = writeln!(out, "options: {options}, which the replies are judged by");
    }
    let dir = program.dir.display();
    // Where the bot runs, which a relative path it opens depends on.
    let _ = writeln!(
        out,
        "folder: {dir}, where it runs{}",
        if program.private_dir {
            ", its private folder (made for this check, removed after it)"
        } else {
            " (--dir DIR or a file's `dir` runs it in another)"
        }
    );
    out.push_str(&describe_sandbox(sandbox, program));
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
                if report.crashed_after_replying() {
                    let _ = writeln!(
                        out,
                        "   then the process ended with {exit}: a tournament plays the reply \
                         and counts a crash"
                    );
                }
            }
            CallStatus::TimedOut => {
                let _ = writeln!(out, "   no reply: timed out after {elapsed}");
                let written = &report.result.output;
                if !written.is_empty() && !matches!(report.input, Input::Session(_)) {
                    let _ = writeln!(
                        out,
                        "   it had written ({} bytes), but had not ended:",
                        written.len()
                    );
                    write_bytes(&mut out, written);
                    out.push_str(
                        "   a process started for one request has replied once it exits (or \
                         closes its stdout): one that prints its reply and then keeps running \
                         looks like this\n",
                    );
                }
                if matches!(report.input, Input::Session(_)) && report.result.output.is_empty() {
                    out.push_str(if java {
                        "   nothing arrived: the alien's code did not return in time (a loop \
                         that never ends in move or wantToFight looks like this)\n"
                    } else {
                        "   nothing arrived: a persistent process that printed its reply but did \
                         not flush it (Python: print(..., flush=True); C: fflush(stdout)), or \
                         that reads its input to the end before answering (Python: \
                         sys.stdin.read()), looks like this\n"
                    });
                }
            }
            CallStatus::TooLong => {
                let _ = writeln!(
                    out,
                    "   no reply: the reply was longer than the size cap, {max_reply_bytes} bytes \
                     (`--max-reply-bytes`, a tournament's `max_reply_bytes`)"
                );
            }
            CallStatus::SpawnFailed(error) => {
                let _ = writeln!(out, "   no reply: cannot start the bot: {error}");
            }
            CallStatus::RunnerFault(fault) => {
                let _ = writeln!(out, "   no reply: {fault}");
            }
            CallStatus::Died { exit } => {
                let _ = writeln!(
                    out,
                    "   no reply: the process ended without replying ({exit})"
                );
            }
            CallStatus::SessionGone => {
                let _ = writeln!(
                    out,
                    "   not sent: the persistent process is gone (it failed a request above)"
                );
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
        if report.ends_in_cr_lf() && !report.is_valid() {
            let _ = writeln!(out, "   the reply {ENDS_IN_CR_LF}: print \"\\n\" only");
        }
        write_stray_stdout(&mut out, report);
        write_stderr(&mut out, &report.result.stderr);
        if java && report.result.output == b"!" && report.result.stderr.is_empty() {
            out.push_str(
                "   the alien's code failed; the Java host says why only the first three times \
                 for each of creation, move and wantToFight (see the probes above)\n",
            );
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
    let crashed = reports.iter().filter(|r| r.died_without_replying()).count();
    if crashed > 0 {
        // A file opened by a relative path (`weights.txt`) is a crash of the folder it ran in;
        // a bot that replied found what it needed.
        let (folder, cure) = if program.private_dir {
            (
                ", its private folder as in a tournament",
                "open its own files by their path from the program's folder",
            )
        } else {
            ("", "--dir DIR or a file's `dir` runs it in another folder")
        };
        let _ = writeln!(
            out,
            "\nthe bot crashed without replying on {crashed} of {} requests. It ran in {dir}{folder}, where a file \
             it opens by a relative path is looked for: {cure}",
            reports.len()
        );
    }
    if let Some(left) = left {
        write_private_folder(&mut out, left);
    }
    let valid = reports.iter().filter(|r| r.is_valid()).count();
    let _ = writeln!(out, "\n{valid} of {} replies valid", reports.len());
    out
}

/// Writes what the bot left in its private folder, and what a tournament makes of it
/// (games/cave.md, "The private folder").
fn write_private_folder(out: &mut String, left: &Held) {
    let _ = match left {
        Held::Bytes(bytes) if *bytes <= CAP_BYTES => writeln!(
            out,
            "\nits private folder holds {bytes} bytes after the check, within the game's \
             {CAP_BYTES}-byte cap"
        ),
        Held::Bytes(bytes) => writeln!(
            out,
            "\nits private folder holds {bytes} bytes after the check, over the game's \
             {CAP_BYTES}-byte cap: a tournament names the bot in a warning after every such \
             game, and it plays on"
        ),
        Held::Emptied(why) => writeln!(
            out,
            "\nits private folder held {why} after the check, more than the runner keeps \
             between games: a tournament empties it after every such game, with a warning"
        ),
    };
}

/// Writes what the bot printed to stdout besides its reply, if it did, and the cure, which
/// is the same for both kinds of process: after a persistent process's reply line, before
/// the next request; or around the line of a one-shot reply that alone would parse.
fn write_stray_stdout(out: &mut String, report: &ProbeReport) {
    let why = if !report.unasked.is_empty() {
        let _ = writeln!(
            out,
            "   then, before the next request, it wrote {} more bytes to stdout:",
            report.unasked.len()
        );
        write_bytes(out, &report.unasked);
        "out of step: a tournament reads one line per request, so the next request takes \
         these as its reply; print exactly one line per request"
            .to_owned()
    } else if let Some(line) = report.parsed_alone {
        format!(
            "line {line} of the reply would parse alone: a tournament reads all the bot writes \
             to stdout as its reply; print only the reply there"
        )
    } else {
        return;
    };
    let _ = writeln!(out, "   {why}, and anything else to stderr");
}

/// Writes `bytes` indented, one original line per line, escaped (`\n`, `\t`, `\xff`) so the
/// exact bytes are visible; at most [`SHOWN_BYTES`] of them.
fn write_bytes(out: &mut String, bytes: &[u8]) {
    let shown = &bytes[..bytes.len().min(SHOWN_BYTES)];
    for line in shown.split_inclusive(|&b| b == b'\n') {
        let _ = writeln!(out, "     | {}", crate::text::escape_bytes(line));
    }
    if bytes.len() > shown.len() {
        let _ = writeln!(out, "     ... {} more bytes", bytes.len() - shown.len());
    }
}

/// Writes the end of `stderr` as text, indented: the last [`SHOWN_BYTES`] from the start of
/// a line (where Python and Java put the error), lossy UTF-8 with control characters
/// escaped, so a message in any language reads as written.
fn write_stderr(out: &mut String, stderr: &[u8]) {
    let text = String::from_utf8_lossy(stderr);
    let text = text.trim_end();
    if text.trim().is_empty() {
        return;
    }
    let mut start = text.len().saturating_sub(SHOWN_BYTES);
    if start > 0 {
        // From the next line on, unless the last line alone is longer than the window.
        let mut window_start = start;
        while !text.is_char_boundary(window_start) {
            window_start += 1;
        }
        start = text[window_start..]
            .find('\n')
            .map_or(window_start, |newline| window_start + newline + 1);
    }
    let _ = writeln!(out, "   stderr (end):");
    if start > 0 {
        let _ = writeln!(out, "     ... {start} earlier bytes");
    }
    for line in text[start..].lines() {
        let _ = writeln!(out, "     | {}", escape_control(line));
    }
}

/// `bytes` in whole MiB, as the limits are set.
fn mib(bytes: u64) -> u64 {
    bytes >> 20
}

/// The bot's memory limit: per process, and for the whole box where a cgroup (`by`) counts.
fn memory_limit(program: &BotProgram, by: Option<&str>) -> String {
    match (program.rlimits.memory_bytes, by) {
        (Some(bytes), Some(cgroup)) => format!(
            "{} MiB for all its processes together ({cgroup}), {} MiB of address space per \
             process (RLIMIT_AS)",
            mib(bytes),
            mib(bytes)
        ),
        (Some(bytes), None) => format!(
            "{} MiB of address space per process (RLIMIT_AS)",
            mib(bytes)
        ),
        (None, _) => "no limit".to_owned(),
    }
}

/// The CPU time each of the bot's processes may use.
fn cpu_limit(program: &BotProgram) -> String {
    (program.rlimits.cpu_seconds).map_or("no limit".to_owned(), |s| {
        format!("{s} s per process (RLIMIT_CPU)")
    })
}

/// The cores' worth of CPU the whole box may use at once (`cpus`), enforced by the cgroup `by`.
fn cpu_share(program: &BotProgram, by: Option<&str>) -> String {
    match (program.cpu_quota(), by) {
        (Some(millis), Some(cgroup)) => {
            let cores = f64::from(millis) / 1000.0;
            let noun = if millis == 1000 { "core" } else { "cores" };
            format!(
                "the time of at most {cores} {noun} at once, all its processes together ({cgroup})"
            )
        }
        _ => "no quota (`cpus`): its processes may keep every core busy".to_owned(),
    }
}

/// What the bot gets from its sandbox, as in a tournament: who it runs as, what it sees and
/// what bounds it. Without one, its processes' own limits still bound it.
fn describe_sandbox(sandbox: Option<&Enforced>, program: &BotProgram) -> String {
    let Some(enforced) = sandbox else {
        return format!(
            "sandbox: none (--no-sandbox, or a file's `sandbox = \"none\"`): the bot runs as your \
             user and sees what you see\n\
             \x20 memory:     {}\n\
             \x20 cpu time:   {}\n",
            memory_limit(program, None),
            cpu_limit(program)
        );
    };
    let user = if enforced.uid == NOBODY {
        format!("uid {NOBODY} (nobody)")
    } else {
        format!(
            "uid {} (yours, in a user namespace of its own)",
            enforced.uid
        )
    };
    let max_processes = program
        .sandbox
        .as_ref()
        .map_or(0, |spec| spec.max_processes);
    let by = enforced.cgroup.as_deref();
    let (memory, cpu) = (memory_limit(program, by), cpu_limit(program));
    let processes = match by {
        Some(cgroup) => format!("at most {} processes and threads ({cgroup})", max_processes),
        None => format!(
            "at most {} processes of its user (RLIMIT_NPROC)",
            max_processes
        ),
    };
    let network = if enforced.own_network {
        "none: a network namespace of its own with only a loopback interface"
    } else {
        "the machine's (network = true)"
    };
    let mut text = String::from("sandbox: the bot runs as it will in a tournament\n");
    let _ = writeln!(
        text,
        "  user:       {user}; no capabilities, no new privileges"
    );
    let _ = writeln!(
        text,
        "  processes:  a PID namespace of its own; {processes}"
    );
    let _ = writeln!(text, "  memory:     {memory}");
    let _ = writeln!(text, "  cpu time:   {cpu}");
    let _ = writeln!(text, "  cpu share:  {}", cpu_share(program, by));
    let _ = writeln!(text, "  network:    {network}");
    let _ = writeln!(
        text,
        "  syscalls:   no namespaces, mounts, tracing, eBPF, kernel keys or io_uring (seccomp)"
    );
    let _ = writeln!(
        text,
        "  writable:   /tmp and /dev/shm, private, {} MiB each, kept for one game",
        mib(TMP_BYTES)
    );
    if program.private_dir {
        let _ = writeln!(
            text,
            "              its private folder {}, the current folder, through a tmpfs of \
             {} MiB and {FOLDER_ENTRIES} entries",
            program.dir.display(),
            mib(FOLDER_BYTES)
        );
        let _ = writeln!(text, "  read-only:  the rest of the file system");
    } else {
        let _ = writeln!(
            text,
            "  read-only:  the rest of the file system, {} included",
            program.dir.display()
        );
    }
    // A bot that reads a neighbour folder under /tmp finds it missing, not read-only.
    let home = runner_home().map_or(String::new(), |home| {
        format!(", and your home folder {}", home.display())
    });
    let _ = writeln!(
        text,
        "  hidden:     the machine's /tmp and /dev/shm, under the private ones{home} (the bot's \
         own folders in them stay in view)"
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{CallResult, Exit};
    use std::time::Duration;

    /// The report of a check run unsandboxed in `/bots/mine`.
    fn render(game: &str, command: &str, java: bool, reports: &[ProbeReport]) -> String {
        let program = BotProgram {
            program: "/bots/mine/bot".into(),
            args: Vec::new(),
            dir: "/bots/mine".into(),
            env: Default::default(),
            rlimits: Default::default(),
            sandbox: None,
            private_dir: false,
        };
        render_check(
            (game, None),
            command,
            java,
            &program,
            (None, 64),
            reports,
            None,
        )
    }

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
            unasked: Vec::new(),
            parsed_alone: None,
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
        let text = render("petri", "bot", false, &[good, late]);
        let expected = "\
checking `bot` against the petri protocol
folder: /bots/mine, where it runs (--dir DIR or a file's `dir` runs it in another)
sandbox: none (--no-sandbox, or a file's `sandbox = \"none\"`): the bot runs as your user and sees what you see
  memory:     no limit
  cpu time:   no limit

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

    #[test]
    fn a_reply_then_a_crash_is_valid_and_the_end_of_stderr_shows_as_text() {
        let mut crashed = report(
            Input::Stdin(b"BEGIN".to_vec()),
            CallStatus::Replied {
                exit: Exit::Code(1),
            },
            b"4 4 4\n",
            Some(Verdict::Legal("HP 4".into())),
        );
        let mut stderr = "noise line\n".repeat(300).into_bytes();
        stderr.extend_from_slice("Traceback\n  NameError: café \x1b[2J\n".as_bytes());
        crashed.result.stderr = stderr;
        let text = render("petri", "bot", false, &[crashed]);
        assert!(
            text.contains("ended with exit status 1: a tournament plays the reply and counts"),
            "{text}"
        );
        assert!(text.contains("   => valid\n"), "{text}");
        assert!(
            text.contains("     | Traceback\n     |   NameError: café \\x1b[2J\n"),
            "{text}"
        );
        assert!(
            text.contains("earlier bytes\n     | noise line\n"),
            "{text}"
        );
        let shown: usize = text
            .lines()
            .filter(|line| line.starts_with("     | noise"))
            .count();
        assert!(shown > 150 && shown < 190, "the last 2 KiB: {shown} lines");
    }

    #[test]
    fn output_after_a_persistent_reply_is_shown_and_makes_the_probe_invalid() {
        // A persistent process's `reply` to `BEGIN`, then `unasked`.
        let replied = |reply: &[u8], verdict, unasked: &[u8]| ProbeReport {
            unasked: unasked.to_vec(),
            ..report(
                Input::Session(b"BEGIN\n".to_vec()),
                CallStatus::Replied {
                    exit: Exit::Running,
                },
                reply,
                Some(verdict),
            )
        };
        let ahead = replied(
            b"debug: thinking",
            Verdict::Unparsed("not three numbers".into()),
            b"4 4 4\n",
        );
        let text = render("petri", "bot", false, &[ahead]);
        assert!(
            text.contains(
                "   then, before the next request, it wrote 6 more bytes to stdout:\n     | 4 4 \
                 4\\n\n   out of step: a tournament reads one line per request"
            ),
            "{text}"
        );
        assert!(text.contains("   => INVALID\n"), "{text}");
        // A legal reply followed by more is invalid too: the next reply is the extra line.
        let legal = |unasked| replied(b"4 4 4", Verdict::Legal("HP 4".into()), unasked);
        assert!(legal(b"").is_valid());
        assert!(!legal(b"done\n").is_valid());
    }

    /// A one-shot reply spoilt by debugging output gets the cure the persistent case gets;
    /// it was told only that its first line did not parse.
    #[test]
    fn a_one_shot_reply_with_a_line_that_parses_alone_is_told_to_print_only_the_reply() {
        let debugged = ProbeReport {
            parsed_alone: Some(2),
            ..report(
                Input::Args(vec!["1,1......2".into()]),
                CallStatus::Replied {
                    exit: Exit::Success,
                },
                b"DEBUG: got 1,1......2\n0 0 0 1\n",
                Some(Verdict::Unparsed(
                    "the first line is not four integers".into(),
                )),
            )
        };
        let text = render("slime", "bot", false, &[debugged]);
        assert!(
            text.contains(
                "   parsed: no, the first line is not four integers\n   line 2 of the reply would \
                 parse alone: a tournament reads all the bot writes to stdout as its reply; \
                 print only the reply there, and anything else to stderr\n"
            ),
            "{text}"
        );
    }

    /// A reply whose line ends in `\r\n` is told so, one-shot or persistent (whose reply is
    /// shown without its newline); it was told only that its last word was unknown.
    #[test]
    fn a_reply_in_windows_line_ends_is_told_so() {
        let said = "   the reply ends in CR LF (\\r\\n), a Windows line end: print \"\\n\" \
                    only\n";
        let unknown = || Some(Verdict::Unparsed("the direction is none of N, NE".into()));
        let replied = |exit| CallStatus::Replied { exit };
        let stdin = || Input::Stdin(b"10 4".to_vec());
        let one_shot = report(stdin(), replied(Exit::Success), b"DIVIDE N\r\n", unknown());
        let session = Input::Session(b"10 4\n".to_vec());
        let persistent = report(session, replied(Exit::Running), b"DIVIDE N\r", unknown());
        for crlf in [one_shot, persistent] {
            let text = render("petri", "bot", false, &[crlf]);
            assert!(text.contains(said), "{text}");
        }
        // A valid reply is not told, nor a reply of other line ends.
        let legal = Some(Verdict::Legal("Divide(N)".into()));
        let valid = report(stdin(), replied(Exit::Success), b"DIVIDE N\r\n", legal);
        let unix = report(stdin(), replied(Exit::Success), b"DIVIDE Q\n", unknown());
        let text = render("petri", "bot", false, &[valid, unix]);
        assert!(!text.contains("CR LF"), "{text}");
    }

    /// The folder the bot ran in is said first, and again, with `--dir`, once a request
    /// crashed: a bot that opens `weights.txt` fails in the wrong folder.
    #[test]
    fn a_reply_over_the_cap_names_the_cap_and_its_setting() {
        let long = report(
            Input::Stdin(b"BEGIN".to_vec()),
            CallStatus::TooLong,
            b"",
            None,
        );
        let text = render("petri", "bot", false, &[long]);
        assert!(
            text.contains(
                "   no reply: the reply was longer than the size cap, 64 bytes \
                 (`--max-reply-bytes`, a tournament's `max_reply_bytes`)\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_crash_is_told_the_folder_the_bot_ran_in() {
        let died = || {
            report(
                Input::Args(vec!["1,1......2".into()]),
                CallStatus::Died {
                    exit: Exit::Code(1),
                },
                b"",
                None,
            )
        };
        let text = render("slime", "bot", false, &[died(), died()]);
        assert!(
            text.starts_with(
                "checking `bot` against the slime protocol\nfolder: /bots/mine, where it runs"
            ),
            "{text}"
        );
        assert!(
            text.ends_with(
                "\nthe bot crashed without replying on 2 of 2 requests. It ran in /bots/mine, where a file it \
                 opens by a relative path is looked for: --dir DIR or a file's `dir` runs it in another folder\n\
                 \n0 of 2 replies valid\n"
            ),
            "{text}"
        );
        let timed_out = report(Input::Args(vec![]), CallStatus::TimedOut, b"", None);
        let text = render("slime", "bot", false, &[timed_out]);
        assert!(!text.contains("crashed"), "{text}");
        // A bot that replied, then crashed, found what it needed where it ran.
        let replied = report(
            Input::Stdin(b"BEGIN".to_vec()),
            CallStatus::Replied {
                exit: Exit::Code(1),
            },
            b"4 6 2 LOOP\n",
            None,
        );
        let text = render("petri", "bot", false, &[replied]);
        assert!(!text.contains("It ran in"), "{text}");
    }

    #[test]
    fn a_silent_timeout_is_explained_by_what_the_bot_is() {
        let silent = || {
            report(
                Input::Session(b"MOVE\n".to_vec()),
                CallStatus::TimedOut,
                b"",
                None,
            )
        };
        let program = render("alienwar", "bot", false, &[silent()]);
        assert!(program.contains("did not flush it"), "{program}");
        assert!(program.contains("reads its input to the end"), "{program}");
        let alien = render("alienwar", "--java A.java", true, &[silent()]);
        assert!(
            alien.contains("the alien's code did not return in time") && !alien.contains("flush"),
            "{alien}"
        );
    }

    #[test]
    fn an_aliens_failure_the_host_no_longer_reports_is_said_so() {
        let failed = || {
            report(
                Input::Session(b"MOVE\n".to_vec()),
                CallStatus::Replied {
                    exit: Exit::Running,
                },
                b"!",
                Some(Verdict::Unparsed("the alien's code failed".into())),
            )
        };
        let alien = render("alienwar", "--java A.java", true, &[failed()]);
        assert!(
            alien.contains("says why only the first three times"),
            "{alien}"
        );
        let program = render("alienwar", "bot", false, &[failed()]);
        assert!(!program.contains("first three times"), "{program}");
    }
}
