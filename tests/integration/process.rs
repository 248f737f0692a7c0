//! The process layer against real processes: `/bin/sh` scripts that reply, hang, crash,
//! flood or leave children behind. After each, no process of the bot may be alive. These
//! run the bots directly (`sandbox = "none"`); `sandbox.rs` runs them in their boxes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use arena::bots::{
    BotProgram, CallEnv, CallStatus, Exit, Limits, OneShotInput, Place, ResourceLimits, Session,
    Waiting, call_once,
};

use arena::sandbox::BoxSpec;

use crate::support::surviving_groups;

const LIMITS: Limits = Limits {
    max_reply_bytes: 64 * 1024,
    max_stderr_bytes: 1024,
};

const ENV: CallEnv = CallEnv {
    game: "test",
    seed: 42,
    seat: 1,
};

/// A bot that runs `script` with `/bin/sh` in `dir`; it should record `$$` in `./pids`.
fn shell_bot(dir: &Path, script: &str) -> BotProgram {
    BotProgram {
        program: "/bin/sh".into(),
        args: vec![
            "-c".into(),
            format!("echo $$ >> pids; {script}"),
            "sh".into(),
        ],
        dir: dir.to_path_buf(),
        env: BTreeMap::from([("BOT_VAR".into(), "set".into())]),
        rlimits: ResourceLimits::default(),
        sandbox: None,
        private_dir: false,
    }
}

async fn once(script: &str, input: &[u8], limit: Duration) -> (arena::bots::CallResult, Vec<i32>) {
    let dir = tempfile::tempdir().unwrap();
    let bot = shell_bot(dir.path(), script);
    let result = call(&bot, OneShotInput::Stdin(input), limit).await;
    let survivors = surviving_groups(&dir.path().join("pids"));
    (result, survivors)
}

/// One one-shot request to `bot` with the tests' limits (see [`call_limited`]).
async fn call(
    bot: &BotProgram,
    input: OneShotInput<'_>,
    limit: Duration,
) -> arena::bots::CallResult {
    call_limited(bot, input, limit, &LIMITS).await
}

/// One one-shot request to `bot`, made twice, each in a place of its own: sent alone and
/// sent together with others, the two ways a request waits. Both must end alike; returns
/// the slower.
async fn call_limited(
    bot: &BotProgram,
    input: OneShotInput<'_>,
    limit: Duration,
    limits: &Limits,
) -> arena::bots::CallResult {
    let mut results = Vec::new();
    for waiting in BOTH_WAYS {
        let mut place = Place::default();
        results.push(call_once(&mut place, bot, &ENV, input, limit, limits, waiting).await);
    }
    let [alone, together] = <[_; 2]>::try_from(results).unwrap();
    let ending = |result: &arena::bots::CallResult| {
        (
            result.status.clone(),
            result.output.clone(),
            result.stderr.clone(),
        )
    };
    assert_eq!(ending(&alone), ending(&together), "alone, then together");
    if alone.elapsed > together.elapsed {
        alone
    } else {
        together
    }
}

const SHORT: Duration = Duration::from_millis(300);
/// Long enough for any honest reply; tests that must not wait for it check `elapsed < LONG / 2`.
const LONG: Duration = Duration::from_secs(10);
/// For bots that must use real CPU or memory before the kernel stops them: generous, so a
/// loaded machine cannot turn the kernel's verdict into a timeout.
const PATIENT: Duration = Duration::from_secs(120);

#[tokio::test]
async fn a_one_shot_reply_is_all_of_stdout_until_exit() {
    let (result, survivors) = once("cat; printf 'a\\nb'", b"xyz", LONG).await;
    assert_eq!(
        result.status,
        CallStatus::Replied {
            exit: Exit::Success
        }
    );
    assert_eq!(result.output, b"xyza\nb");
    assert!(survivors.is_empty());
}

#[tokio::test]
async fn a_bot_that_hangs_is_killed_at_the_deadline() {
    let (result, survivors) = once("exec sleep 600", b"", SHORT).await;
    assert_eq!(result.status, CallStatus::TimedOut);
    assert!(result.output.is_empty());
    // Far below the bot's 600 s, with room for a loaded machine.
    assert!(
        result.elapsed < Duration::from_secs(30),
        "took {:?}",
        result.elapsed
    );
    assert!(survivors.is_empty(), "left running: {survivors:?}");
}

#[tokio::test]
async fn a_bot_that_prints_then_crashes_keeps_its_reply() {
    let (result, _) = once("echo REST; exit 3", b"", LONG).await;
    assert_eq!(
        result.status,
        CallStatus::Replied {
            exit: Exit::Code(3)
        }
    );
    assert_eq!(result.output, b"REST\n");
}

#[tokio::test]
async fn a_crash_without_output_is_no_reply_and_keeps_stderr() {
    let (result, _) = once("echo 'it broke' >&2; exit 5", b"", LONG).await;
    assert_eq!(
        result.status,
        CallStatus::Died {
            exit: Exit::Code(5)
        }
    );
    assert_eq!(result.stderr, b"it broke\n");
}

#[tokio::test]
async fn a_silent_clean_exit_is_an_empty_reply() {
    let (result, _) = once("exit 0", b"BEGIN", LONG).await;
    assert_eq!(
        result.status,
        CallStatus::Replied {
            exit: Exit::Success
        }
    );
    assert!(result.output.is_empty());
}

#[tokio::test]
async fn a_bot_that_never_reads_stdin_still_replies() {
    let big = vec![b'.'; 1 << 20];
    let (result, _) = once("echo hi", &big, LONG).await;
    assert_eq!(
        result.status,
        CallStatus::Replied {
            exit: Exit::Success
        }
    );
    assert_eq!(result.output, b"hi\n");
}

#[tokio::test]
async fn a_flood_of_output_is_cut_at_the_cap_and_killed() {
    let (result, survivors) = once("exec yes DIVIDE", b"", LONG).await;
    assert_eq!(result.status, CallStatus::TooLong);
    assert!(result.elapsed < LONG / 2, "took {:?}", result.elapsed);
    assert!(survivors.is_empty(), "left running: {survivors:?}");
}

#[tokio::test]
async fn a_child_left_holding_stdout_is_killed_and_the_reply_kept() {
    let (result, survivors) = once("sleep 600 & echo REST", b"", LONG).await;
    assert_eq!(
        result.status,
        CallStatus::Replied {
            exit: Exit::Success
        }
    );
    assert_eq!(result.output, b"REST\n");
    assert!(result.elapsed < LONG / 2, "took {:?}", result.elapsed);
    assert!(survivors.is_empty(), "left running: {survivors:?}");
}

/// Stdout ends long before the process does: the request waits for the exit.
#[tokio::test]
async fn a_bot_that_closes_stdout_early_is_waited_for_until_it_exits() {
    let (result, survivors) = once("exec >&-; sleep 0.1; exit 4", b"", LONG).await;
    assert_eq!(
        result.status,
        CallStatus::Died {
            exit: Exit::Code(4)
        }
    );
    assert!(result.elapsed >= Duration::from_millis(100), "{result:?}");
    assert!(survivors.is_empty(), "left running: {survivors:?}");
}

/// A reply that starts within the wait outside the event loop and ends after it.
#[tokio::test]
async fn a_reply_split_across_the_two_ways_of_waiting_arrives_whole() {
    let (result, survivors) = once("printf par; sleep 0.1; printf t; exit 2", b"", LONG).await;
    assert_eq!(
        result.status,
        CallStatus::Replied {
            exit: Exit::Code(2)
        }
    );
    assert_eq!(result.output, b"part");
    assert!(survivors.is_empty(), "left running: {survivors:?}");
}

/// A bot in its box that runs `script` with `/bin/sh` in `dir`.
fn boxed_shell(dir: &Path, script: &str) -> BotProgram {
    BotProgram {
        program: "/bin/sh".into(),
        args: vec!["-c".into(), script.into()],
        dir: dir.to_path_buf(),
        env: BTreeMap::new(),
        rlimits: ResourceLimits::default(),
        sandbox: Some(Arc::new(BoxSpec {
            readable: vec![dir.to_path_buf()],
            max_processes: 64,
            ..BoxSpec::default()
        })),
        private_dir: false,
    }
}

/// A one-shot request does not wait for its box to say that the process started: the box's
/// answer that it could not comes with the request's end, and still makes it a spawn
/// failure that says why, sent alone or together. A session waits for the answer.
#[tokio::test]
async fn a_program_its_box_cannot_run_is_a_spawn_failure_that_says_why() {
    arena::sandbox::use_helper(PathBuf::from(env!("CARGO_BIN_EXE_arena")));
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let mut bot = boxed_shell(dir.path(), "");
    bot.program = dir.path().join("no-such-program");
    let result = call(&bot, OneShotInput::Stdin(b"a request"), LONG).await;
    match &result.status {
        CallStatus::SpawnFailed(why) => assert!(why.contains("cannot run"), "{why}"),
        status => panic!("not a spawn failure: {status:?}"),
    }
    let mut place = Place::default();
    let error = Session::start(&mut place, &bot, &ENV, &LIMITS)
        .await
        .expect_err("a session of a missing program");
    assert!(error.to_string().contains("cannot run"), "{error}");
    place.close().await;
}

/// One-shot requests to a bot in its box, whose end the box reports: each ends alike sent
/// alone and sent together, as without a box.
#[tokio::test]
async fn a_boxed_one_shot_bot_ends_alike_both_ways() {
    arena::sandbox::use_helper(PathBuf::from(env!("CARGO_BIN_EXE_arena")));
    // Not under /tmp, which a box replaces by a private one.
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let boxed = |script: &str| boxed_shell(dir.path(), script);
    let replied = |exit| CallStatus::Replied { exit };
    let cases = [
        (
            "cat; printf 'a\\nb'",
            LONG,
            replied(Exit::Success),
            &b"xyza\nb"[..],
            &b""[..],
        ),
        (
            "printf par; sleep 0.1; printf t; exit 2",
            LONG,
            replied(Exit::Code(2)),
            b"part",
            b"",
        ),
        (
            "echo 'it broke' >&2; exit 5",
            LONG,
            CallStatus::Died {
                exit: Exit::Code(5),
            },
            b"",
            b"it broke\n",
        ),
        ("exec sleep 600", SHORT, CallStatus::TimedOut, b"", b""),
    ];
    for (script, limit, status, output, stderr) in cases {
        let result = call(&boxed(script), OneShotInput::Stdin(b"xyz"), limit).await;
        assert_eq!(result.status, status, "{script}");
        assert_eq!(result.output, output, "{script}");
        assert_eq!(result.stderr, stderr, "{script}");
    }
}

#[tokio::test]
async fn a_flood_of_stderr_neither_blocks_nor_grows() {
    let (result, _) = once("head -c 3000000 /dev/zero >&2; echo done", b"", LONG).await;
    assert_eq!(result.output, b"done\n");
}

#[tokio::test]
async fn arguments_and_environment_reach_the_bot_and_nothing_else_does() {
    let dir = tempfile::tempdir().unwrap();
    let bot = shell_bot(
        dir.path(),
        r#"printf '%s|' "$@" "$ARENA_GAME" "$ARENA_SEED" "$ARENA_SEAT" "$BOT_VAR" "${CARGO_MANIFEST_DIR:-unset}""#,
    );
    let args = ["a b".to_owned(), "c".to_owned()];
    let result = call(&bot, OneShotInput::Args(&args), LONG).await;
    assert_eq!(
        String::from_utf8_lossy(&result.output),
        "a b|c|test|42|1|set|unset|"
    );
}

#[tokio::test]
async fn a_missing_program_is_a_spawn_failure() {
    let dir = tempfile::tempdir().unwrap();
    let mut bot = shell_bot(dir.path(), "");
    bot.program = dir.path().join("no-such-program");
    let result = call(&bot, OneShotInput::Stdin(b""), LONG).await;
    assert!(
        matches!(result.status, CallStatus::SpawnFailed(_)),
        "{:?}",
        result.status
    );
}

/// A session bot: answers `ok <line>` per line, hangs on `hang`, floods on `flood`, prints
/// without newline and exits on `bye`, and records `END` in ./farewell.
const SESSION_SCRIPT: &str = r#"
while read -r line; do
    case "$line" in
        END) echo got-end > farewell; exit 0 ;;
        hang) exec sleep 600 ;;
        flood) yes | tr -d "\n" ;;
        bye) printf 'last'; exit 0 ;;
        *) echo "ok $line" ;;
    esac
done"#;

/// A request is waited for outside the event loop while it is the only one, and in it
/// otherwise: every one-shot and session test runs both ways.
const BOTH_WAYS: [Waiting; 2] = [Waiting::Alone, Waiting::Together];

async fn session_in(dir: &Path) -> Session {
    session_running(dir, SESSION_SCRIPT).await
}

#[tokio::test]
async fn a_session_answers_line_by_line_and_gets_its_farewell() {
    for waiting in BOTH_WAYS {
        let dir = tempfile::tempdir().unwrap();
        let mut session = session_in(dir.path()).await;
        for word in ["one", "two"] {
            let result = session
                .request(format!("{word}\n").as_bytes(), LONG, &LIMITS, waiting)
                .await;
            assert_eq!(
                result.status,
                CallStatus::Replied {
                    exit: Exit::Running
                }
            );
            assert_eq!(result.output, format!("ok {word}").as_bytes());
        }
        session.close(b"END\n").await;
        assert_eq!(
            std::fs::read_to_string(dir.path().join("farewell")).unwrap(),
            "got-end\n"
        );
        assert!(surviving_groups(&dir.path().join("pids")).is_empty());
    }
}

#[tokio::test]
async fn a_session_that_times_out_is_killed_and_gone() {
    for waiting in BOTH_WAYS {
        let dir = tempfile::tempdir().unwrap();
        let mut session = session_in(dir.path()).await;
        let result = session.request(b"hang\n", SHORT, &LIMITS, waiting).await;
        assert_eq!(result.status, CallStatus::TimedOut, "{waiting:?}");
        assert!(result.elapsed >= SHORT && result.elapsed < LONG / 2);
        assert!(surviving_groups(&dir.path().join("pids")).is_empty());
        let later = session.request(b"one\n", LONG, &LIMITS, waiting).await;
        assert_eq!(later.status, CallStatus::SessionGone);
    }
}

/// A session of a bot that runs `script` in `dir`.
async fn session_running(dir: &Path, script: &str) -> Session {
    let bot = shell_bot(dir, script);
    Session::start(&mut Place::default(), &bot, &ENV, &LIMITS)
        .await
        .unwrap()
}

/// Asks `session` each word the way given, and checks that it answers `ok <word>` in time.
async fn answers_ok(session: &mut Session, asks: impl IntoIterator<Item = (&str, Waiting)>) {
    for (word, waiting) in asks {
        let request = format!("{word}\n");
        let result = session
            .request(request.as_bytes(), LONG, &LIMITS, waiting)
            .await;
        assert_eq!(result.output, format!("ok {word}").as_bytes(), "{result:?}");
        assert!(result.elapsed < LONG / 2);
    }
}

#[tokio::test]
async fn a_lone_request_gets_its_reply_after_the_wait_outside_the_event_loop_ends() {
    let scripts = [
        // Four times what the pipe holds: the bot blocks on stderr unless the runner
        // drains it while it waits for the reply (bytes on stderr end the wait).
        "while read -r line; do head -c 262144 /dev/zero >&2; echo \"ok $line\"; done",
        // Slower than the wait (its ticks end it).
        "while read -r line; do sleep 0.2; echo \"ok $line\"; done",
    ];
    for script in scripts {
        let dir = tempfile::tempdir().unwrap();
        let mut session = session_running(dir.path(), script).await;
        let asks = [("one", Waiting::Alone), ("two", Waiting::Alone)];
        answers_ok(&mut session, asks).await;
    }
}

#[tokio::test]
async fn a_session_that_closed_its_stderr_is_answered_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    let script = format!("exec 2>&-; {SESSION_SCRIPT}");
    let mut session = session_running(dir.path(), &script).await;
    let words = ["one", "two", "three", "four"];
    answers_ok(
        &mut session,
        words.into_iter().zip(BOTH_WAYS.into_iter().cycle()),
    )
    .await;
}

#[tokio::test]
async fn a_second_line_for_one_request_is_the_reply_to_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let script = "while read -r line; do echo \"ok $line\"; echo extra; done";
    let mut session = session_running(dir.path(), script).await;
    let mut replies = Vec::new();
    for waiting in [
        Waiting::Alone,
        Waiting::Alone,
        Waiting::Together,
        Waiting::Alone,
    ] {
        let result = session.request(b"x\n", LONG, &LIMITS, waiting).await;
        replies.push(String::from_utf8(result.output).unwrap());
    }
    assert_eq!(replies, ["ok x", "extra", "ok x", "extra"]);
}

#[tokio::test]
async fn an_exchange_reads_each_reply_in_order_while_a_batch_larger_than_the_pipe_is_written() {
    for waiting in BOTH_WAYS {
        let dir = tempfile::tempdir().unwrap();
        let mut session = session_in(dir.path()).await;
        // 2,000 requests of 100 bytes: the bot's replies fill its stdout pipe long before
        // the batch is written, so reading must go on during the write or both sides block.
        let lines: Vec<String> = (0..2000).map(|i| format!("{i:0>99}")).collect();
        let batch: String = lines.iter().map(|line| format!("{line}\n")).collect();
        let results = session
            .exchange(batch.as_bytes(), lines.len(), LONG, &LIMITS, waiting)
            .await;
        assert_eq!(results.len(), lines.len());
        for (line, result) in lines.iter().zip(&results) {
            assert_eq!(
                result.status,
                CallStatus::Replied {
                    exit: Exit::Running
                }
            );
            assert_eq!(result.output, format!("ok {line}").as_bytes());
        }
        let after = session
            .request(b"more\n", LONG, &LIMITS, Waiting::Alone)
            .await;
        assert_eq!(after.output, b"ok more", "the session goes on in step");
    }
}

#[tokio::test]
async fn a_short_exchange_sent_alone_is_read_whole_and_the_session_goes_on_in_step() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = session_in(dir.path()).await;
    for round in 0..3 {
        let batch: String = (0..5).map(|i| format!("{round}.{i}\n")).collect();
        let results = session
            .exchange(batch.as_bytes(), 5, LONG, &LIMITS, Waiting::Alone)
            .await;
        let outputs: Vec<String> = results
            .into_iter()
            .map(|result| String::from_utf8(result.output).unwrap())
            .collect();
        let expected: Vec<String> = (0..5).map(|i| format!("ok {round}.{i}")).collect();
        assert_eq!(outputs, expected);
    }
}

#[tokio::test]
async fn an_exchange_times_each_reply_and_ends_the_session_at_the_first_failure() {
    for waiting in BOTH_WAYS {
        let dir = tempfile::tempdir().unwrap();
        let mut session = session_in(dir.path()).await;
        let results = session
            .exchange(b"one\nhang\ntwo\n", 3, SHORT, &LIMITS, waiting)
            .await;
        let statuses: Vec<&CallStatus> = results.iter().map(|result| &result.status).collect();
        assert_eq!(
            statuses,
            [
                &CallStatus::Replied {
                    exit: Exit::Running
                },
                &CallStatus::TimedOut,
                &CallStatus::SessionGone
            ]
        );
        assert_eq!(results[0].output, b"ok one");
        assert!(results[1].elapsed >= SHORT && results[1].elapsed < LONG / 2);
        assert!(surviving_groups(&dir.path().join("pids")).is_empty());
        let later = session.exchange(b"one\n", 1, LONG, &LIMITS, waiting).await;
        assert_eq!(later[0].status, CallStatus::SessionGone);
    }
}

#[tokio::test]
async fn a_session_line_over_the_cap_ends_the_session() {
    for waiting in BOTH_WAYS {
        let dir = tempfile::tempdir().unwrap();
        let mut session = session_in(dir.path()).await;
        let result = session.request(b"flood\n", LONG, &LIMITS, waiting).await;
        assert_eq!(result.status, CallStatus::TooLong, "{waiting:?}");
        assert!(surviving_groups(&dir.path().join("pids")).is_empty());
    }
}

#[tokio::test]
async fn a_last_answer_without_newline_counts_and_ends_the_session() {
    for waiting in BOTH_WAYS {
        let dir = tempfile::tempdir().unwrap();
        let mut session = session_in(dir.path()).await;
        let result = session.request(b"bye\n", LONG, &LIMITS, waiting).await;
        assert_eq!(
            result.status,
            CallStatus::Replied {
                exit: Exit::Success
            },
            "{waiting:?}"
        );
        assert_eq!(result.output, b"last");
        let later = session.request(b"one\n", LONG, &LIMITS, waiting).await;
        assert_eq!(later.status, CallStatus::SessionGone);
    }
}

#[tokio::test]
async fn a_bot_over_its_memory_limit_fails_to_allocate() {
    let dir = tempfile::tempdir().unwrap();
    let mut bot = shell_bot(
        dir.path(),
        "exec /usr/bin/python3 -S -c 'b = bytearray(512 << 20); print(1)'",
    );
    bot.rlimits.memory_bytes = Some(256 << 20);
    let result = call(&bot, OneShotInput::Stdin(b""), PATIENT).await;
    assert!(
        matches!(result.status, CallStatus::Died { .. }),
        "{:?}",
        result.status
    );
    assert!(
        String::from_utf8_lossy(&result.stderr).contains("MemoryError"),
        "{result:?}"
    );
    bot.rlimits.memory_bytes = None;
    let result = call(&bot, OneShotInput::Stdin(b""), PATIENT).await;
    assert_eq!(
        result.output, b"1\n",
        "without the limit the allocation succeeds"
    );
}

#[tokio::test]
async fn a_bot_over_its_cpu_limit_is_killed_by_the_kernel() {
    let dir = tempfile::tempdir().unwrap();
    let mut bot = shell_bot(dir.path(), "while :; do :; done");
    bot.rlimits.cpu_seconds = Some(1);
    // SIGXCPU, not a timeout: the kernel stopped it after one second of CPU, however long
    // that took on a busy machine.
    let result = call(&bot, OneShotInput::Stdin(b""), PATIENT).await;
    assert_eq!(
        result.status,
        CallStatus::Died {
            exit: Exit::Signal(libc::SIGXCPU)
        }
    );
}

#[tokio::test]
async fn bots_inherit_no_file_descriptors_of_the_runner() {
    // The listing itself holds one descriptor open on the folder it reads: 3.
    let script = "exec /usr/bin/python3 -S -c 'import os; print(*sorted(map(int, os.listdir(\"/proc/self/fd\"))))'";
    let (result, _) = once(script, b"", LONG).await;
    assert_eq!(String::from_utf8_lossy(&result.output).trim(), "0 1 2 3");
}

/// The tests' reply cap, small enough to reach with `head -c`.
const CAP: usize = 100;

const CAPPED: Limits = Limits {
    max_reply_bytes: CAP,
    ..LIMITS
};

/// A script line that prints `bytes` x's and a newline.
fn reply_of(bytes: usize) -> String {
    format!("head -c {bytes} /dev/zero | tr '\\0' x; echo")
}

#[tokio::test]
async fn a_one_shot_reply_of_the_cap_and_its_newline_fits_and_one_byte_more_does_not() {
    let dir = tempfile::tempdir().unwrap();
    for (bytes, fits) in [(CAP, true), (CAP + 1, false)] {
        let bot = shell_bot(dir.path(), &reply_of(bytes));
        let result = call_limited(&bot, OneShotInput::Stdin(b""), LONG, &CAPPED).await;
        if fits {
            assert_eq!(result.output.len(), CAP + 1, "{result:?}");
        } else {
            assert_eq!(result.status, CallStatus::TooLong, "{bytes} bytes");
        }
    }
}

#[tokio::test]
async fn a_session_reply_of_the_cap_and_its_newline_fits_and_one_byte_more_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "while read -r n; do if [ \"$n\" = long ]; then {}; else {}; fi; done",
        reply_of(CAP + 1),
        reply_of(CAP)
    );
    let bot = shell_bot(dir.path(), &script);
    let mut session = Session::start(&mut Place::default(), &bot, &ENV, &CAPPED)
        .await
        .unwrap();
    for waiting in BOTH_WAYS {
        let fits = session.request(b"cap\n", LONG, &CAPPED, waiting).await;
        assert_eq!(fits.output.len(), CAP, "{fits:?}");
    }
    let over = session
        .request(b"long\n", LONG, &CAPPED, Waiting::Alone)
        .await;
    assert_eq!(over.status, CallStatus::TooLong);
}

/// The control of every "nothing left behind" check: a group with a running process is
/// alive, and once it is killed and reaped it is not.
#[test]
fn the_group_check_sees_a_running_group_and_not_a_dead_one() {
    use std::os::unix::process::CommandExt;
    let mut child = std::process::Command::new("/bin/sleep")
        .arg("30")
        .process_group(0)
        .spawn()
        .unwrap();
    let pgid = i32::try_from(child.id()).unwrap();
    assert!(crate::support::group_alive(pgid));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!crate::support::group_alive(pgid));
}
