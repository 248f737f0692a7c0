//! Where the binary writes: stderr is advisory, so a log line, progress line or warning that
//! cannot be written is dropped, never a panic (exit status 101); the results files are
//! written whatever becomes of stderr and stdout.

use std::fs::File;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::Path;
use std::process::{Output, Stdio};

use crate::support::{arena_command, repo, run_ok};

/// Where a test sends one of the binary's outputs.
#[derive(Debug, Clone, Copy)]
enum Sink {
    /// A pipe whose reader is gone: every write fails with `EPIPE` (`2>&1 | head` once
    /// `head` has exited).
    ClosedPipe,
    /// `/dev/full`: every write fails with `ENOSPC`.
    Full,
}

impl Sink {
    fn stdio(self) -> Stdio {
        match self {
            Sink::ClosedPipe => {
                let mut fds = [0; 2];
                // SAFETY: pipe(2) fills the two descriptors, each then owned exactly once.
                let (read, write) = unsafe {
                    assert_eq!(libc::pipe(fds.as_mut_ptr()), 0, "a pipe");
                    (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]))
                };
                drop(read);
                Stdio::from(write)
            }
            Sink::Full => Stdio::from(File::options().write(true).open("/dev/full").unwrap()),
        }
    }
}

/// Runs `arena args` in `dir` with stderr (or, with `stdout`, stdout) sent to `sink`.
fn arena_into(dir: &Path, args: &[&str], sink: Sink, stdout: bool) -> Output {
    let mut command = arena_command();
    command
        .args(args)
        .current_dir(dir)
        .env_remove("ARENA_LOG")
        .stdin(Stdio::null());
    if stdout {
        command.stdout(sink.stdio()).stderr(Stdio::piped());
    } else {
        command.stdout(Stdio::piped()).stderr(sink.stdio());
    }
    command.output().expect("the arena binary runs")
}

/// The small Petri tournament every test here plays (6 short games).
fn tournament() -> String {
    repo()
        .join("tests/data/petri-small.toml")
        .display()
        .to_string()
}

/// `arena run` with its logs (text or JSON) going nowhere still writes its journal and
/// leaderboard, prints the leaderboard and succeeds; it used to panic at its last log line.
#[test]
fn a_run_whose_stderr_is_closed_or_full_writes_its_results_and_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    for sink in [Sink::ClosedPipe, Sink::Full] {
        for format in ["text", "json"] {
            let out = dir.path().join(format!("{sink:?}-{format}"));
            let output = arena_into(
                dir.path(),
                &[
                    "run",
                    &tournament(),
                    "--out",
                    out.to_str().unwrap(),
                    "--log-format",
                    format,
                    "--format",
                    "json",
                ],
                sink,
                false,
            );
            assert_eq!(output.status.code(), Some(0), "{sink:?} {format}");
            assert!(out.join("journal.jsonl").is_file(), "{sink:?} {format}");
            let file: serde_json::Value =
                serde_json::from_slice(&std::fs::read(out.join("leaderboard.json")).unwrap())
                    .unwrap();
            let printed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(file, printed, "{sink:?} {format}");
            assert_eq!(file["games_played"], 6);
        }
    }
}

/// A leaderboard that cannot be printed is an error (exit status 1, said on stderr), but
/// only once the results files are written; a reader that is gone is no error at all.
#[test]
fn a_run_whose_stdout_is_full_writes_its_results_then_fails() {
    let dir = tempfile::tempdir().unwrap();
    for (sink, status) in [(Sink::Full, 1), (Sink::ClosedPipe, 0)] {
        let out = dir.path().join(format!("{sink:?}"));
        let output = arena_into(
            dir.path(),
            &["run", &tournament(), "--out", out.to_str().unwrap()],
            sink,
            true,
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(status), "{sink:?}: {stderr}");
        assert!(out.join("leaderboard.json").is_file(), "{sink:?}");
        if status == 1 {
            assert!(
                stderr.contains("error: cannot write to stdout: No space left on device"),
                "{stderr}"
            );
        }
    }
}

/// The other commands' warnings, notices and errors to a stderr that is gone: the exit
/// status each would have had anyway, never 101.
#[test]
fn warnings_and_errors_of_the_other_commands_to_a_closed_stderr_keep_their_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results");
    let file = repo().join("tests/data/petri-small.toml");
    run_ok(
        dir.path(),
        &file,
        &["--out", out.to_str().unwrap(), "--replays"],
    );
    // A line that is no game: a warning, and exit status 2.
    let journal = out.join("journal.jsonl");
    let mut text = std::fs::read_to_string(&journal).unwrap();
    text.push_str("{\"type\":\"game\",\"data\":{}}\n");
    std::fs::write(&journal, text).unwrap();
    let page = dir.path().join("page.html");
    let replay = out.join("replays/game-0.jsonl");
    let html = dir.path().join("game-0.html");
    for (args, status) in [
        (vec!["standings", journal.to_str().unwrap()], 2),
        (
            vec![
                "report",
                out.to_str().unwrap(),
                "--html",
                page.to_str().unwrap(),
            ],
            2,
        ),
        (
            vec![
                "replay",
                replay.to_str().unwrap(),
                "--html",
                html.to_str().unwrap(),
            ],
            0,
        ),
        (vec!["replay", journal.to_str().unwrap()], 2),
    ] {
        for sink in [Sink::ClosedPipe, Sink::Full] {
            let output = arena_into(dir.path(), &args, sink, false);
            assert_eq!(output.status.code(), Some(status), "{args:?} {sink:?}");
        }
    }
    assert!(page.is_file() && html.is_file());
}
