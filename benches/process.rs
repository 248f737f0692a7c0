//! The cost of one bot request through `arena`'s process layer, against the least a program
//! can do for the same request, in the same run (see BENCHMARKS.md, figures a and b):
//!
//! - `one_shot`: start the bot, write the request to its stdin, read its stdout to the end,
//!   reap it. `arena` is [`arena::bots::call_once`] (process group, clean environment, rlimits,
//!   stderr drained, deadline) on the one-thread runtime the runner uses; `minimal` is a
//!   blocking `std::process` loop with none of that.
//! - `session`: one line to a running line-echo bot and one line back. `arena` is
//!   [`arena::bots::Session::request`] (deadline, size cap); `minimal` is a blocking write and
//!   `read_until` on the same kind of pipes.
//! - `floor`: the runner's CPU per persistent request (figure e) against the floor of
//!   `bench/bots/loop_floor.c`, the same blocking write-a-request, read-a-line loop, driving
//!   the same bot in alternating batches: the C echo bot and the Python Petri grower, each
//!   also with `arena`'s side in a box.
//! - `sandbox`: the same one-shot request and session round trip with the bot in its box
//!   against the same without one, paired; and the time to make a box (once per bot per game).
//!
//! Run with `cargo bench --bench process`; the bots are compiled with `cc` first.

mod support;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::LazyLock;
use std::time::Duration;

use arena::bots::{
    BotProgram, CallEnv, Limits, OneShotInput, Place, ResourceLimits, Session, Waiting, call_once,
};
use arena::sandbox::{BotBox, BoxSpec};
use divan::Bencher;
use tokio::runtime::Runtime;

fn main() {
    // The benchmark binary is not `arena`: the boxes need the real helper.
    arena::sandbox::use_helper(PathBuf::from(env!("CARGO_BIN_EXE_arena")));
    divan::main();
}

/// A Petri-sized request: a 10x4 board and the acting cell.
const REQUEST: &[u8] = b"10 4\n..........\n.o........\n........x.\n..........\n\n1 1 4 4\n";

/// The echo bot's request: one line, as a persistent bot gets it.
const LINE: &[u8] = b"1 1 4 4 .o......x.\n";

/// A mid-game Petri request, the one `bench/bots/loop_floor.c` sends.
const PETRI_REQUEST: &[u8] = b"10 4\n..........\n.ooo......\n......xxx.\n..........\n\n2 1 4 5\n";

/// Requests per side and pair in `floor`: enough CPU time per batch for the clock.
const FLOOR_BATCH: u32 = 50;

/// The per-request deadline (the tournament default); never reached here.
const LIMIT: Duration = Duration::from_secs(5);

/// The tournament defaults for what the runner keeps from a bot.
const LIMITS: Limits = Limits {
    max_reply_bytes: 65536,
    max_stderr_bytes: 4096,
};

static ONE_SHOT_BOT: LazyLock<PathBuf> = LazyLock::new(|| support::compile("oneshot"));
static ECHO_BOT: LazyLock<PathBuf> = LazyLock::new(|| support::compile("echo"));

/// The bot as a tournament would launch it, with the default kernel limits, unsandboxed.
fn program(path: &Path) -> BotProgram {
    let dir = path.parent().expect("a bot in a folder").to_owned();
    BotProgram {
        program: path.to_owned(),
        args: Vec::new(),
        dir,
        env: BTreeMap::new(),
        rlimits: ResourceLimits {
            memory_bytes: Some(4096 << 20),
            cpu_seconds: Some(600),
        },
        sandbox: None,
        private_dir: false,
    }
}

/// The Python Petri grower as `tournaments/petri.toml` runs it, unsandboxed.
fn grower() -> BotProgram {
    BotProgram {
        args: ["-S", "-I", "grower.py"].map(String::from).to_vec(),
        dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/petri"),
        ..program(Path::new("/usr/bin/python3"))
    }
}

/// The bot in its box, as a tournament runs it by default.
fn boxed(path: &Path) -> BotProgram {
    in_box(program(path))
}

/// `bot` in its box.
fn in_box(mut bot: BotProgram) -> BotProgram {
    bot.sandbox = Some(std::sync::Arc::new(box_spec(&bot)));
    bot
}

fn box_spec(bot: &BotProgram) -> BoxSpec {
    BoxSpec {
        readable: vec![bot.dir.clone()],
        memory_bytes: bot.rlimits.memory_bytes,
        max_processes: 64,
        ..BoxSpec::default()
    }
}

const ENV: CallEnv = CallEnv {
    game: "bench",
    seed: 1,
    seat: 0,
};

/// The runtime of one of the runner's lanes: one thread (see `run.rs`).
fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

/// One one-shot request through arena's process layer, in `place` (a box lives there from
/// the first request on, as for a game), sent as the game sends it: alone (one seat asked),
/// or together with others (simultaneous moves), when it waits in the event loop.
fn one_shot_arena(runtime: &Runtime, place: &mut Place, bot: &BotProgram, waiting: Waiting) {
    let result = runtime.block_on(call_once(
        place,
        bot,
        &ENV,
        OneShotInput::Stdin(REQUEST),
        LIMIT,
        &LIMITS,
        waiting,
    ));
    assert_eq!(result.output, b"REST\n");
}

/// One one-shot request the least a program can do it: spawn, write, read to the end, wait.
fn one_shot_minimal(bot: &Path) {
    // The environment arena gives a bot (a clean one), so that exec costs the same.
    let mut child = Command::new(bot)
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
}

/// A running echo bot driven by arena's [`Session`].
struct ArenaSession {
    runtime: Runtime,
    /// Holds the box of a sandboxed session.
    _place: Place,
    session: Option<Session>,
}

impl ArenaSession {
    fn start(bot: &BotProgram) -> ArenaSession {
        let runtime = runtime();
        let mut place = Place::default();
        let session = runtime.block_on(async {
            Session::start(&mut place, bot, &ENV, &LIMITS)
                .await
                .expect("start the echo bot")
        });
        ArenaSession {
            runtime,
            _place: place,
            session: Some(session),
        }
    }

    fn request(&mut self) {
        assert_eq!(self.send(LINE), &LINE[..LINE.len() - 1]);
    }

    /// Sends `request` and returns the reply line.
    fn send(&mut self, request: &[u8]) -> Vec<u8> {
        let session = self.session.as_mut().expect("a running session");
        let result =
            self.runtime
                .block_on(session.request(request, LIMIT, &LIMITS, Waiting::Alone));
        assert!(!result.output.is_empty(), "no reply: {result:?}");
        result.output
    }

    /// Sends `request` `times` times in a row from one task, as a game does (a game is one
    /// long task on its lane's runtime, not a `block_on` per request).
    fn send_times(&mut self, request: &[u8], times: u32) {
        let session = self.session.as_mut().expect("a running session");
        self.runtime.block_on(async {
            for _ in 0..times {
                let result = session
                    .request(request, LIMIT, &LIMITS, Waiting::Alone)
                    .await;
                assert!(!result.output.is_empty(), "no reply: {result:?}");
            }
        });
    }
}

impl Drop for ArenaSession {
    fn drop(&mut self) {
        if let Some(session) = self.session.take() {
            self.runtime.block_on(session.close(b""));
        }
    }
}

/// A running echo bot driven by blocking pipes: write a line, read a line.
struct MinimalSession {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    line: Vec<u8>,
}

impl MinimalSession {
    fn start() -> MinimalSession {
        MinimalSession::of(&program(&ECHO_BOT))
    }

    /// `bot`'s program, arguments and folder, without the rest of arena's launch.
    fn of(bot: &BotProgram) -> MinimalSession {
        let mut child = Command::new(&bot.program)
            .args(&bot.args)
            .current_dir(&bot.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        MinimalSession {
            child,
            stdin,
            stdout,
            line: Vec::new(),
        }
    }

    fn request(&mut self) {
        self.send(LINE);
        assert_eq!(self.line, LINE);
    }

    /// One blocking write of `request` and a blocking read of the reply line.
    fn send(&mut self, request: &[u8]) {
        let stdin = self.stdin.as_mut().expect("a running session");
        stdin.write_all(request).expect("write");
        self.line.clear();
        self.stdout.read_until(b'\n', &mut self.line).expect("read");
        assert!(self.line.ends_with(b"\n"), "no reply line");
    }
}

impl Drop for MinimalSession {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

mod one_shot {
    use super::*;

    #[divan::bench(sample_count = 40, sample_size = 20)]
    fn arena(bencher: Bencher) {
        let (runtime, bot) = (runtime(), program(&ONE_SHOT_BOT));
        let mut place = Place::default();
        support::bench_with_cpu("one_shot::arena", bencher, || {
            one_shot_arena(&runtime, &mut place, &bot, Waiting::Alone);
        });
    }

    /// As `arena`, sent as one of several requests, so that it waits in the event loop.
    #[divan::bench(sample_count = 40, sample_size = 20)]
    fn arena_together(bencher: Bencher) {
        let (runtime, bot) = (runtime(), program(&ONE_SHOT_BOT));
        let mut place = Place::default();
        support::bench_with_cpu("one_shot::arena_together", bencher, || {
            one_shot_arena(&runtime, &mut place, &bot, Waiting::Together);
        });
    }

    /// As `arena`, with the bot in its box (kept from one request to the next, as in a
    /// game): the box's helper starts the process, so its CPU is not the runner's.
    #[divan::bench(sample_count = 40, sample_size = 20)]
    fn arena_boxed(bencher: Bencher) {
        let (runtime, bot) = (runtime(), boxed(&ONE_SHOT_BOT));
        let mut place = Place::default();
        support::bench_with_cpu("one_shot::arena_boxed", bencher, || {
            one_shot_arena(&runtime, &mut place, &bot, Waiting::Alone);
        });
    }

    #[divan::bench(sample_count = 40, sample_size = 20)]
    fn minimal(bencher: Bencher) {
        support::bench_with_cpu("one_shot::minimal", bencher, || {
            one_shot_minimal(&ONE_SHOT_BOT);
        });
    }

    /// Both in turn, one pair per iteration: the ratio pair by pair holds when the machine's
    /// speed drifts (the time divan prints is a pair's).
    #[divan::bench(sample_count = 40, sample_size = 10)]
    fn paired(bencher: Bencher) {
        let bot = program(&ONE_SHOT_BOT);
        against_minimal(bencher, &bot, Waiting::Alone, "one_shot arena / minimal");
    }

    /// As `paired`, with arena's request sent together with others (in the event loop).
    #[divan::bench(sample_count = 40, sample_size = 10)]
    fn paired_together(bencher: Bencher) {
        let bot = program(&ONE_SHOT_BOT);
        let label = "one_shot together arena / minimal";
        against_minimal(bencher, &bot, Waiting::Together, label);
    }

    /// As `paired`, with arena's bot in its box (kept from one request to the next, as in
    /// a game) and the minimal loop's not: what a sandboxed one-shot request costs over the
    /// bare spawn loop.
    #[divan::bench(sample_count = 40, sample_size = 10)]
    fn paired_boxed(bencher: Bencher) {
        let bot = boxed(&ONE_SHOT_BOT);
        against_minimal(
            bencher,
            &bot,
            Waiting::Alone,
            "one_shot boxed arena / minimal",
        );
    }

    /// Times `bot` through arena (sent `waiting`) and the minimal loop in turn, one pair per
    /// iteration, and reports the pairs' ratios under `label`.
    fn against_minimal(bencher: Bencher, bot: &BotProgram, waiting: Waiting, label: &str) {
        let runtime = runtime();
        let mut place = Place::default();
        let mut pairs = support::Pairs::default();
        bencher.bench_local(|| {
            pairs.time(
                || one_shot_arena(&runtime, &mut place, bot, waiting),
                || one_shot_minimal(&ONE_SHOT_BOT),
            );
        });
        pairs.report(label);
    }
}

mod session {
    use super::*;

    #[divan::bench(sample_count = 100, sample_size = 200)]
    fn arena(bencher: Bencher) {
        let mut session = ArenaSession::start(&program(&ECHO_BOT));
        support::bench_with_cpu("session::arena", bencher, || session.request());
    }

    #[divan::bench(sample_count = 100, sample_size = 200)]
    fn minimal(bencher: Bencher) {
        let mut session = MinimalSession::start();
        support::bench_with_cpu("session::minimal", bencher, || session.request());
    }

    /// Both in turn, one pair per iteration (see `one_shot::paired`).
    #[divan::bench(sample_count = 100, sample_size = 100)]
    fn paired(bencher: Bencher) {
        let arena = ArenaSession::start(&program(&ECHO_BOT));
        let (mut arena, mut minimal) = (arena, MinimalSession::start());
        let mut pairs = support::Pairs::default();
        bencher.bench_local(|| pairs.time(|| arena.request(), || minimal.request()));
        pairs.report("session arena / minimal");
    }
}

mod floor {
    use super::*;

    /// The runner thread's CPU time for `FLOOR_BATCH` requests of `bot` through arena
    /// against as many through the floor loop, one pair of batches per iteration, after
    /// the `begin` line each bot gets first (empty: none).
    fn paired(bencher: Bencher, label: &str, bot: &BotProgram, begin: &[u8], request: &[u8]) {
        let mut arena = ArenaSession::start(bot);
        let mut minimal = MinimalSession::of(&BotProgram {
            sandbox: None,
            ..bot.clone()
        });
        if !begin.is_empty() {
            arena.send(begin);
            minimal.send(begin);
        }
        let mut pairs = support::Pairs::cpu();
        bencher.bench_local(|| {
            pairs.time(
                || arena.send_times(request, FLOOR_BATCH),
                || (0..FLOOR_BATCH).for_each(|_| minimal.send(request)),
            );
        });
        pairs.report_per(label, FLOOR_BATCH);
    }

    #[divan::bench(sample_count = 100, sample_size = 4)]
    fn echo(bencher: Bencher) {
        let bot = program(&ECHO_BOT);
        paired(
            bencher,
            "floor echo: runner CPU arena / floor",
            &bot,
            b"",
            LINE,
        );
    }

    #[divan::bench(sample_count = 100, sample_size = 4)]
    fn echo_boxed(bencher: Bencher) {
        let bot = boxed(&ECHO_BOT);
        let label = "floor echo, boxed: runner CPU arena / floor";
        paired(bencher, label, &bot, b"", LINE);
    }

    #[divan::bench(sample_count = 40, sample_size = 4)]
    fn grower(bencher: Bencher) {
        let (bot, label) = (super::grower(), "floor grower: runner CPU arena / floor");
        paired(bencher, label, &bot, b"BEGIN\n", PETRI_REQUEST);
    }

    #[divan::bench(sample_count = 40, sample_size = 4)]
    fn grower_boxed(bencher: Bencher) {
        let (bot, label) = (
            in_box(super::grower()),
            "floor grower, boxed: runner CPU arena / floor",
        );
        paired(bencher, label, &bot, b"BEGIN\n", PETRI_REQUEST);
    }
}

mod sandbox {
    use super::*;

    /// A one-shot request with the bot in its box against the same request without one,
    /// one pair per iteration; each keeps its place (and so its box) from one request to
    /// the next, as in a game.
    #[divan::bench(sample_count = 40, sample_size = 10)]
    fn one_shot_paired(bencher: Bencher) {
        let runtime = runtime();
        let (sandboxed, plain) = (boxed(&ONE_SHOT_BOT), program(&ONE_SHOT_BOT));
        let (mut boxed_place, mut plain_place) = (Place::default(), Place::default());
        let mut pairs = support::Pairs::default();
        bencher.bench_local(|| {
            pairs.time(
                || one_shot_arena(&runtime, &mut boxed_place, &sandboxed, Waiting::Alone),
                || one_shot_arena(&runtime, &mut plain_place, &plain, Waiting::Alone),
            );
        });
        pairs.report("one_shot sandboxed / unsandboxed");
    }

    /// A session round trip with the bot in its box against one without.
    #[divan::bench(sample_count = 100, sample_size = 100)]
    fn session_paired(bencher: Bencher) {
        let mut sandboxed = ArenaSession::start(&boxed(&ECHO_BOT));
        let mut plain = ArenaSession::start(&program(&ECHO_BOT));
        let mut pairs = support::Pairs::default();
        bencher.bench_local(|| pairs.time(|| sandboxed.request(), || plain.request()));
        pairs.report("session sandboxed / unsandboxed");
    }

    /// Making a box and ending it: what each sandboxed bot costs once per game.
    #[divan::bench(sample_count = 40, sample_size = 5)]
    fn box_setup(bencher: Bencher) {
        let runtime = runtime();
        let spec = box_spec(&program(&ONE_SHOT_BOT));
        bencher.bench_local(|| {
            let sandbox = runtime.block_on(BotBox::start(&spec)).expect("a box");
            drop(sandbox);
        });
    }

    /// Making a box a while after the last one, as a game does (`box_setup` makes them back
    /// to back). Until a box's init joined its cgroup itself, the join waited here for an
    /// RCU grace period, which a join soon after another skips (BENCHMARKS.md, figure g).
    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn box_setup_alone(bencher: Bencher) {
        let runtime = runtime();
        let spec = box_spec(&program(&ONE_SHOT_BOT));
        bencher
            .with_inputs(|| std::thread::sleep(Duration::from_millis(100)))
            .bench_local_values(|()| {
                let sandbox = runtime.block_on(BotBox::start(&spec)).expect("a box");
                drop(sandbox);
            });
    }
}
