//! The cost of one bot request through `arena`'s process layer, against the least a program
//! can do for the same request, in the same run (see BENCHMARKS.md, figures a and b):
//!
//! - `one_shot`: start the bot, write the request to its stdin, read its stdout to the end,
//!   reap it. `arena` is [`arena::bots::call_once`] (process group, clean environment, rlimits,
//!   stderr drained, deadline) on the one-thread runtime the runner uses; `minimal` is a
//!   blocking `std::process` loop with none of that.
//! - `session`: one line to a running line-echo bot and one line back. `arena` is
//!   [`arena::bots::Session::request`] (deadline, size cap); `minimal` is a blocking write and
//!   `read_line` on the same kind of pipes.
//!
//! Run with `cargo bench --bench process`; the bots are compiled with `cc` first.

mod support;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::LazyLock;
use std::time::Duration;

use arena::bots::{BotProgram, CallEnv, Limits, OneShotInput, ResourceLimits, Session, call_once};
use divan::Bencher;
use tokio::runtime::Runtime;

fn main() {
    divan::main();
}

/// A Petri-sized request: a 10x4 board and the acting cell.
const REQUEST: &[u8] = b"10 4\n..........\n.o........\n........x.\n..........\n\n1 1 4 4\n";

/// The echo bot's request: one line, as a persistent bot gets it.
const LINE: &[u8] = b"1 1 4 4 .o......x.\n";

/// The per-request deadline (the tournament default); never reached here.
const LIMIT: Duration = Duration::from_secs(5);

/// The tournament defaults for what the runner keeps from a bot.
const LIMITS: Limits = Limits {
    max_reply_bytes: 65536,
    max_stderr_bytes: 4096,
};

static ONE_SHOT_BOT: LazyLock<PathBuf> =
    LazyLock::new(|| support::compile("oneshot", support::ONE_SHOT_BOT));
static ECHO_BOT: LazyLock<PathBuf> = LazyLock::new(|| support::compile("echo", support::ECHO_BOT));

/// The bot as a tournament would launch it, with the default kernel limits.
fn program(path: &Path) -> BotProgram {
    BotProgram {
        program: path.to_owned(),
        args: Vec::new(),
        dir: std::env::temp_dir(),
        env: BTreeMap::new(),
        rlimits: ResourceLimits {
            memory_bytes: Some(4096 << 20),
            cpu_seconds: Some(600),
        },
    }
}

const ENV: CallEnv = CallEnv {
    game: "bench",
    seed: 1,
    seat: 0,
};

/// The runner's runtime: one thread (see `app.rs`).
fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

mod one_shot {
    use super::*;

    #[divan::bench(sample_count = 40, sample_size = 20)]
    fn arena(bencher: Bencher) {
        let bot = program(&ONE_SHOT_BOT);
        let runtime = runtime();
        support::bench_with_cpu("one_shot::arena", bencher, || {
            let result = runtime.block_on(call_once(
                &bot,
                &ENV,
                OneShotInput::Stdin(REQUEST),
                LIMIT,
                &LIMITS,
            ));
            assert_eq!(result.output, b"REST\n");
        });
    }

    #[divan::bench(sample_count = 40, sample_size = 20)]
    fn minimal(bencher: Bencher) {
        let bot = ONE_SHOT_BOT.clone();
        support::bench_with_cpu("one_shot::minimal", bencher, || {
            // The environment arena gives a bot (a clean one), so that exec costs the same.
            let mut child = Command::new(&bot)
                .env_clear()
                .envs(std::env::var_os("PATH").map(|path| ("PATH", path)))
                .envs([
                    ("ARENA_GAME", "bench"),
                    ("ARENA_SEED", "1"),
                    ("ARENA_SEAT", "0"),
                ])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("spawn");
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(REQUEST)
                .expect("write");
            let mut output = Vec::new();
            child
                .stdout
                .take()
                .expect("stdout")
                .read_to_end(&mut output)
                .expect("read");
            child.wait().expect("wait");
            assert_eq!(output, b"REST\n");
        });
    }
}

mod session {
    use super::*;

    #[divan::bench(sample_count = 100, sample_size = 200)]
    fn arena(bencher: Bencher) {
        let runtime = runtime();
        let mut session = runtime.block_on(async {
            Session::start(&program(&ECHO_BOT), &ENV, &LIMITS).expect("start the echo bot")
        });
        support::bench_with_cpu("session::arena", bencher, || {
            let result = runtime.block_on(session.request(LINE, LIMIT, &LIMITS));
            assert_eq!(result.output, &LINE[..LINE.len() - 1]);
        });
        runtime.block_on(session.close(b""));
    }

    #[divan::bench(sample_count = 100, sample_size = 200)]
    fn minimal(bencher: Bencher) {
        let mut child = Command::new(&*ECHO_BOT)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn");
        let mut stdin = child.stdin.take().expect("stdin");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = Vec::new();
        support::bench_with_cpu("session::minimal", bencher, || {
            stdin.write_all(LINE).expect("write");
            line.clear();
            stdout.read_until(b'\n', &mut line).expect("read");
            assert_eq!(line, LINE);
        });
        drop(stdin);
        child.wait().expect("wait");
    }
}
