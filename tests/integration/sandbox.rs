//! The sandbox against bots that attack the runner, their opponent, the results and the
//! machine (`tests/bots/attack.sh`). Every attack is a Cave Rangers bot playing a plain
//! victim bot, with the sandbox on (the default), and each test checks that the runner
//! survived, the results are right and nothing outside the sandbox changed. Where the
//! attack is harmless to the machine, a control run without the sandbox shows that it works
//! there, so the sandboxed run's clean result means something.
//!
//! The attacks aim only at what the test makes: a canary folder, a victim bot's folder, a
//! port on 127.0.0.1 the test listens on. The core cases run again with `arena` as an
//! unprivileged user (when the tests run as root).

use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::cli::standing;
use crate::support::{Tag, repo, write_toml};

/// The uid of `nobody`, as whom the unprivileged runs start `arena`.
const NOBODY: u32 = 65534;

/// Where the fields go: Cargo's temporary folder for tests rather than `/tmp`, which a box
/// replaces by a private one, so that the canary is visible to the bot (read-only) and the
/// victim's folder is hidden by the sandbox's own rule; but `/tmp` when `nobody` could not
/// reach Cargo's folder (a checkout under `/root`, say).
fn field_base() -> PathBuf {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let open_to_all = target.ancestors().all(|folder| {
        std::fs::metadata(folder).is_ok_and(|meta| meta.permissions().mode() & 0o001 != 0)
    });
    if open_to_all {
        target
    } else {
        std::env::temp_dir()
    }
}

/// Who starts `arena`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum As {
    /// The test's own user (root here, as in CI).
    Tester,
    /// An unprivileged user: `nobody` through `setpriv` when the tests run as root, else
    /// the test's own (already unprivileged) user.
    Unprivileged,
    /// The test's own user, under a hard `RLIMIT_NPROC` of 1024 (`prlimit`).
    Capped,
    /// The unprivileged user under a hard `RLIMIT_NPROC` of [`LOW_NPROC`], below the
    /// sandbox's default `max_processes` (64), which it makes no cgroup to count.
    UnprivilegedCapped,
}

/// The hard process limit of [`As::UnprivilegedCapped`].
const LOW_NPROC: u32 = 32;

/// Everything one attack needs, each in a folder of its own beside the others: the
/// tournament folder (the file and the results) with `attacker/` in it, the victim's folder
/// (with `secret.txt`), a canary (files the attacks must not change) and the runner's home
/// (with a key in `.ssh/id_canary` that all may read, and a Python package in `.local/lib`).
struct Field {
    dir: tempfile::TempDir,
    victim: tempfile::TempDir,
    canary: tempfile::TempDir,
    home: tempfile::TempDir,
    tag: Tag,
}

impl Field {
    /// A field where every user may reach it (see [`field_base`]); its folders open to all,
    /// so that an unprivileged runner and its bots can use them.
    fn new() -> Field {
        let base = field_base();
        let folder = || {
            let dir = tempfile::tempdir_in(&base).unwrap();
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
            dir
        };
        let (dir, victim, canary, home) = (folder(), folder(), folder(), folder());
        let tag = Tag::new(dir.path());
        std::fs::create_dir(dir.path().join("attacker")).unwrap();
        std::fs::write(victim.path().join("secret.txt"), "the victim's source").unwrap();
        std::fs::create_dir(canary.path().join("inner")).unwrap();
        std::fs::write(canary.path().join("a.txt"), "a").unwrap();
        std::fs::write(canary.path().join("inner/b.txt"), "b").unwrap();
        std::fs::create_dir(home.path().join(".ssh")).unwrap();
        std::fs::write(home.path().join(".ssh/id_canary"), "the runner's key").unwrap();
        let packages = home.path().join(".local/lib/python3/site-packages");
        std::fs::create_dir_all(&packages).unwrap();
        std::fs::write(packages.join("module.py"), "").unwrap();
        Field {
            dir,
            victim,
            canary,
            home,
            tag,
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The attack script, copied into the field: a runner that is not root runs its bots as
    /// its own user, who may not reach the checkout (under `/root`, say).
    fn script(&self) -> String {
        // In a folder of its own: the bot may read it, not the tournament's folder.
        let copy = self.path().join("bin/attack.sh");
        if !copy.exists() {
            std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
            std::fs::copy(repo().join("tests/bots/attack.sh"), &copy).unwrap();
        }
        copy.display().to_string()
    }

    /// The tournament of the attacker in `mode` against the victim. `extra` goes on top.
    fn toml(&self, mode: &str, port: u16, extra: &str) -> PathBuf {
        let root = self.path();
        let script = self.script();
        let attacker = self
            .tag
            .command(&["/bin/sh".to_owned(), script.clone(), mode.to_owned()]);
        let victim = self
            .tag
            .command(&["/bin/sh".to_owned(), script, "none".to_owned()]);
        let text = format!(
            "game = \"cave\"\ngames = 2\n{extra}\n[options]\nmax_turns = 3\n\
             [[bots]]\nname = \"attacker\"\ncommand = {attacker:?}\ndir = \"attacker\"\n\
             env = {{ ROLE = \"attacker\", CANARY = {canary:?}, VICTIM_DIR = {victim_dir:?}, \
             PORT = \"{port}\", MAX_PROCESSES = \"16\" }}\n\
             [[bots]]\nname = \"victim\"\ncommand = {victim:?}\ndir = {victim_dir:?}\n\
             env = {{ ROLE = \"victim\" }}\n",
            canary = self.canary.path().display().to_string(),
            victim_dir = self.victim.path().display().to_string(),
        );
        write_toml(root, "t.toml", &text)
    }

    /// Runs the tournament `file` into `out` as `who`, with `args`, and a secret in the
    /// runner's environment.
    fn run(&self, who: As, file: &Path, out: &str, args: &[&str]) -> Output {
        let mut arena = env!("CARGO_BIN_EXE_arena").to_owned();
        // SAFETY: geteuid cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        // The programs that start `arena`, outermost first, then `arena`.
        let mut chain: Vec<String> = Vec::new();
        if matches!(who, As::Unprivileged | As::UnprivilegedCapped) && root {
            self.give_to(NOBODY);
            // A copy nobody can run, wherever the checkout is (under /root, say). Made once:
            // writing it again fails while a process of the run before is still exiting.
            let copy = self.path().join("arena");
            if !copy.exists() {
                std::fs::copy(&arena, &copy).unwrap();
            }
            arena = copy.to_str().unwrap().to_owned();
            chain.extend(
                ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534"]
                    .into_iter()
                    .chain(["--clear-groups", "--"])
                    .map(str::to_owned),
            );
        }
        let nproc = match who {
            As::Capped => Some(1024),
            As::UnprivilegedCapped => Some(LOW_NPROC),
            As::Tester | As::Unprivileged => None,
        };
        if let Some(count) = nproc {
            chain.extend([
                "/usr/bin/prlimit".to_owned(),
                format!("--nproc={count}:{count}"),
                "--".to_owned(),
            ]);
        }
        chain.push(arena);
        let mut command = Command::new(&chain[0]);
        command.args(&chain[1..]);
        command
            .args([
                "run",
                file.to_str().unwrap(),
                "--format",
                "json",
                "--out",
                out,
            ])
            .args(args)
            .current_dir(self.path())
            .env("HOME", self.home.path())
            .env("ARENA_TEST_SECRET", "hunter2")
            .env_remove("ARENA_LOG");
        command.output().expect("arena runs")
    }

    /// Makes the whole field `uid`'s, so an unprivileged runner can write its results and
    /// only the sandbox, not the file permissions, protects the canary.
    fn give_to(&self, uid: u32) {
        let mut folders: Vec<PathBuf> = [&self.dir, &self.victim, &self.canary, &self.home]
            .iter()
            .map(|dir| dir.path().to_path_buf())
            .collect();
        while let Some(folder) = folders.pop() {
            std::os::unix::fs::lchown(&folder, Some(uid), Some(uid)).unwrap();
            for entry in std::fs::read_dir(&folder).unwrap().flatten() {
                let path = entry.path();
                if entry.file_type().unwrap().is_dir() {
                    folders.push(path);
                } else {
                    std::os::unix::fs::lchown(&path, Some(uid), Some(uid)).unwrap();
                }
            }
        }
    }

    /// The canary's files and their contents.
    fn canary(&self) -> Vec<(String, String)> {
        let mut files = Vec::new();
        for name in ["a.txt", "inner/b.txt"] {
            let text = std::fs::read_to_string(self.canary.path().join(name)).unwrap_or_default();
            files.push((name.to_owned(), text));
        }
        files
    }
}

/// The leaderboard a successful run printed.
fn board(output: &Output) -> Value {
    assert!(
        output.status.success(),
        "arena failed ({:?}): {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("one JSON document")
}

/// Plays the attack `mode` as `who` with the sandbox on; checks that the run finished and
/// left no process behind, and returns the leaderboard.
fn attack(field: &Field, who: As, mode: &str, port: u16) -> Value {
    let file = field.toml(mode, port, "");
    let board = board(&field.run(who, &file, "results", &[]));
    assert_eq!(board["games_played"], 2, "{mode}: {board}");
    // A bot that could not run attacked nothing: its clean result would prove nothing.
    assert_eq!(
        standing(&board, "attacker")["crashes"],
        0,
        "{mode}: {board}"
    );
    let survivors = field.tag.survivors();
    assert!(survivors.is_empty(), "{mode}: left running: {survivors:?}");
    board
}

/// Whether the attacker saw its attack work (it then answers an invalid move).
fn succeeded(board: &Value) -> bool {
    standing(board, "attacker")["invalid_replies"]
        .as_u64()
        .unwrap()
        > 0
}

fn kill_stop_and_hang_up_the_parent(who: As) {
    let field = Field::new();
    let board = attack(&field, who, "kill-parent", 0);
    assert_eq!(standing(&board, "attacker")["crashes"], 0, "{board}");
    assert_eq!(standing(&board, "victim")["crashes"], 0, "{board}");
}

#[test]
fn a_bot_cannot_kill_stop_or_hang_up_the_runner() {
    kill_stop_and_hang_up_the_parent(As::Tester);
}

#[test]
fn a_bot_cannot_kill_stop_or_hang_up_an_unprivileged_runner() {
    kill_stop_and_hang_up_the_parent(As::Unprivileged);
}

/// An unprivileged runner under a hard process limit below `max_processes` cannot give its
/// bots that limit: the run stops with the runner's error before any game is recorded,
/// never with games of crashed bots (it did: a leaderboard of draws, exit status 0).
#[test]
fn a_process_limit_arena_cannot_give_stops_the_run_instead_of_crashing_the_bots() {
    let field = Field::new();
    let file = field.toml("none", 0, "");
    let output = field.run(As::UnprivilegedCapped, &file, "results", &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("cannot limit the bot's process to 64 processes")
            && stderr.contains("`ulimit -Hu`")
            && stderr.contains("`max_processes`"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty(), "no leaderboard: {stderr}");
    // The boxes of the stopped games ended before `arena` did: no helper outlives it.
    assert_eq!(running(&field.path().join("arena")), Vec::<i32>::new());
    let journal = std::fs::read_to_string(field.path().join("results/journal.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 1, "the header only: {journal}");
    assert!(field.tag.survivors().is_empty());

    // The control: a limit under the cap is given, and the same bots play.
    let file = field.toml("none", 0, &format!("max_processes = {}", LOW_NPROC / 2));
    let board = board(&field.run(As::UnprivilegedCapped, &file, "capped", &[]));
    assert_eq!(board["games_played"], 2, "{board}");
    assert_eq!(standing(&board, "attacker")["crashes"], 0, "{board}");
}

#[test]
fn a_bot_cannot_kill_its_opponent() {
    let clean = Field::new();
    let baseline = attack(&clean, As::Tester, "none", 0);
    let field = Field::new();
    let attacked = attack(&field, As::Tester, "kill-opponent", 0);
    assert_eq!(standing(&attacked, "victim")["crashes"], 0, "{attacked}");
    assert_eq!(attacked["leaderboard"], baseline["leaderboard"]);
}

/// A journal without what differs between a clean run and an attacked one of the same
/// games: the games' durations, and the digest of the bots' commands (the attacker's names
/// its attack).
fn journal_without_durations(dir: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("results/journal.jsonl")).unwrap();
    text.lines()
        .map(|line| {
            let mut record: Value = serde_json::from_str(line).unwrap();
            if let Some(data) = record["data"].as_object_mut() {
                data.remove("duration_ms");
                data.remove("config_digest");
                // The two runs' attackers are started with other arguments.
                for seat in data
                    .get_mut("seats")
                    .and_then(Value::as_array_mut)
                    .into_iter()
                    .flatten()
                {
                    seat.as_object_mut().map(|seat| seat.remove("digest"));
                }
            }
            record
        })
        .collect()
}

#[test]
fn a_bot_cannot_write_to_the_journal_through_the_runners_descriptors_or_a_relative_path() {
    let clean = Field::new();
    attack(&clean, As::Tester, "none", 0);
    let field = Field::new();
    attack(&field, As::Tester, "forge", 0);
    let forged = journal_without_durations(field.path());
    assert_eq!(forged.len(), 3, "a header and two games: {forged:?}");
    assert_eq!(forged, journal_without_durations(clean.path()));
}

/// The processes that run the program `path`, right now.
fn running(path: &Path) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| std::fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|exe| exe == path))
        .collect()
}

/// Plays the attack `mode` as `who` in a box and checks that the bot never saw it work.
fn foiled(who: As, mode: &str, port: u16) {
    let board = attack(&Field::new(), who, mode, port);
    assert!(!succeeded(&board), "{mode} worked in the sandbox: {board}");
}

/// Plays the attack `mode` without the sandbox and checks that the bot saw it work there:
/// the control that gives the sandboxed run's clean result its meaning.
fn works_unboxed(mode: &str, port: u16) {
    let field = Field::new();
    let file = field.toml(mode, port, "");
    let unboxed = board(&field.run(As::Tester, &file, "results", &["--no-sandbox"]));
    assert!(
        succeeded(&unboxed),
        "{mode} failed even without the sandbox: {unboxed}"
    );
}

#[test]
fn a_bot_cannot_read_the_runners_environment() {
    foiled(As::Tester, "read-secret", 0);
    // Without the sandbox the runner's /proc entry is there to read.
    works_unboxed("read-secret", 0);
}

#[test]
fn a_bot_cannot_read_an_unprivileged_runners_environment() {
    foiled(As::Unprivileged, "read-secret", 0);
}

#[test]
fn a_bot_cannot_see_another_bots_folder() {
    foiled(As::Tester, "read-other", 0);
    works_unboxed("read-other", 0);
}

/// A bot the command line leaves out (`--exclude`) is not checked beyond its name, but its
/// folder stays hidden from the bots that play.
#[test]
fn an_excluded_bots_folder_stays_hidden() {
    let field = Field::new();
    let file = field.toml("read-other", 0, "");
    let excluded = ["--exclude", "victim"];
    let boxed = board(&field.run(As::Tester, &file, "results", &excluded));
    assert_eq!(boxed["leaderboard"].as_array().unwrap().len(), 1, "{boxed}");
    assert_eq!(standing(&boxed, "attacker")["crashes"], 0, "{boxed}");
    assert!(
        !succeeded(&boxed),
        "read-other worked in the sandbox: {boxed}"
    );
    // The control: unboxed, the attacker reads the excluded bot's folder.
    let unboxed = [excluded[0], excluded[1], "--no-sandbox"];
    let unboxed = board(&field.run(As::Tester, &file, "unboxed", &unboxed));
    assert!(succeeded(&unboxed), "{unboxed}");
}

/// The runner's home holds its keys, and an unprivileged runner's bots have its uid. The
/// packages a user installed for its Python stay in view (the attack crashes without them).
#[test]
fn a_bot_cannot_read_the_runners_home() {
    foiled(As::Tester, "read-home", 0);
    foiled(As::Unprivileged, "read-home", 0);
    works_unboxed("read-home", 0);
}

#[test]
fn a_bot_of_an_unprivileged_runner_cannot_see_another_bots_folder() {
    foiled(As::Unprivileged, "read-other", 0);
}

#[test]
fn daemons_die_with_their_game_whatever_session_or_group_they_made() {
    let field = Field::new();
    // `attack` asserts that no tagged process is left once arena is done.
    attack(&field, As::Tester, "daemon", 0);
    // Without the sandbox, the new session and the new group escape the group kill.
    let file = field.toml("daemon", 0, "");
    board(&field.run(As::Tester, &file, "unboxed", &["--no-sandbox"]));
    assert!(!field.tag.survivors().is_empty(), "the daemons escaped");
}

#[test]
fn daemons_of_an_unprivileged_runners_bot_die_with_their_game() {
    attack(&Field::new(), As::Unprivileged, "daemon", 0);
}

/// The attack `network` against a port the test listens on, in a box: refused, and
/// nothing reached the listener.
fn connect_to_the_test(who: As) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    foiled(who, "network", listener.local_addr().unwrap().port());
    assert!(listener.accept().is_err(), "nothing connected");
}

#[test]
fn a_bot_cannot_connect_to_a_port_on_the_machine() {
    connect_to_the_test(As::Tester);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    works_unboxed("network", listener.local_addr().unwrap().port());
}

#[test]
fn a_bot_of_an_unprivileged_runner_cannot_connect_to_a_port_on_the_machine() {
    connect_to_the_test(As::Unprivileged);
}

/// The system call filter refuses namespaces, here and for an unprivileged runner, whose
/// box is a user namespace already.
#[test]
fn a_bot_cannot_make_namespaces_of_its_own() {
    foiled(As::Tester, "namespace", 0);
    foiled(As::Unprivileged, "namespace", 0);
    works_unboxed("namespace", 0);
}

/// A Unix socket listening in a temporary folder under `/run` (or the user's runtime
/// folder there, for a tester who is not root), open to all.
fn listen_under_run() -> (tempfile::TempDir, UnixListener) {
    let runtime = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from);
    let folder = (tempfile::Builder::new()
        .prefix("arena-test")
        .tempdir_in("/run"))
    .or_else(|error| {
        runtime.map_or(Err(error), |dir| {
            tempfile::Builder::new()
                .prefix("arena-test")
                .tempdir_in(dir)
        })
    })
    .expect("a temporary folder under /run: the test runs as root or has XDG_RUNTIME_DIR");
    std::fs::set_permissions(folder.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = folder.path().join("listen.sock");
    let listener = UnixListener::bind(&path).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777)).unwrap();
    listener.set_nonblocking(true).unwrap();
    (folder, listener)
}

/// A read-only mount refuses no `connect`: the machine's runtime folders are hidden.
#[test]
fn a_bot_cannot_connect_to_a_unix_socket_under_run() {
    let (_folder, listener) = listen_under_run();
    foiled(As::Tester, "unix-socket", 0);
    assert!(listener.accept().is_err(), "nothing connected");
    works_unboxed("unix-socket", 0);
    assert!(listener.accept().is_ok(), "the unboxed bot connected");
}

#[test]
fn replacing_the_private_folder_by_a_link_never_leads_the_runner_outside() {
    for sandbox in [&[][..], &["--no-sandbox"]] {
        let field = Field::new();
        let before = field.canary();
        let file = field.toml("symlink", 0, "");
        let output = field.run(As::Tester, &file, "results", sandbox);
        let board = board(&output);
        assert_eq!(board["games_played"], 2, "{sandbox:?}: {board}");
        assert_eq!(field.canary(), before, "{sandbox:?}: the canary changed");
        let folder = field.path().join("results/work/attacker");
        assert!(folder.symlink_metadata().unwrap().is_dir(), "{sandbox:?}");
        assert!(field.tag.survivors().is_empty());
    }
}

/// A folder beyond what the runner keeps between games is emptied after each game: it is
/// never copied (a sparse file would take its whole length in the copy) and no depth stops
/// the run.
#[test]
fn a_private_folder_beyond_the_bounds_is_emptied_and_the_run_goes_on() {
    for sandbox in [&[][..], &["--no-sandbox"]] {
        let field = Field::new();
        let file = field.toml("hoard", 0, "");
        let output = field.run(As::Tester, &file, "results", sandbox);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let board = board(&output);
        assert_eq!(board["games_played"], 2, "{sandbox:?}: {board} {stderr}");
        let emptied = "more than the runner keeps between games; emptied";
        assert_eq!(stderr.matches(emptied).count(), 2, "{sandbox:?}: {stderr}");
        for folder in [
            "results/work/attacker",
            "results/work-journaled/work/attacker",
        ] {
            let path = field.path().join(folder);
            let left: Vec<_> = std::fs::read_dir(&path).unwrap().collect();
            assert!(left.is_empty(), "{sandbox:?}: {folder} holds {left:?}");
        }
    }
}

/// In a box, a bot writes its private folder in memory of a bounded size, not on the disk,
/// and the folder is emptied after the game; without the box, the disk takes it all.
#[test]
fn a_bot_cannot_fill_the_disk_through_its_private_folder() {
    for who in [As::Tester, As::Unprivileged] {
        let field = Field::new();
        let file = field.toml("fill", 0, "");
        let output = field.run(who, &file, "results", &[]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let board = board(&output);
        assert_eq!(board["games_played"], 2, "{who:?}: {board} {stderr}");
        assert!(
            !succeeded(&board),
            "{who:?}: the folder took it all: {board}"
        );
        let emptied = "more than the runner keeps between games; emptied";
        assert_eq!(stderr.matches(emptied).count(), 2, "{who:?}: {stderr}");
        let folder = field.path().join("results/work/attacker");
        assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0, "{who:?}");
    }
    works_unboxed("fill", 0);
}

/// A results folder under `/tmp` lies in the box's own `/tmp`, where the bot of an
/// unprivileged runner owns the folders above its private folder's tmpfs: it may move them
/// and leave a tree of its own at the folder's path, which the box never copies back.
#[test]
fn a_tree_left_in_place_of_the_private_folder_is_never_copied_back() {
    let field = Field::new();
    let under_tmp = tempfile::tempdir_in("/tmp").unwrap();
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        std::os::unix::fs::chown(under_tmp.path(), Some(NOBODY), Some(NOBODY)).unwrap();
    }
    let out = under_tmp.path().join("results");
    let file = field.toml("move-up", 0, "");
    let output = field.run(As::Unprivileged, &file, out.to_str().unwrap(), &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let board = board(&output);
    assert_eq!(board["games_played"], 2, "{board} {stderr}");
    let moved = "a tree in place of the box's tmpfs (a folder above it was moved)";
    assert_eq!(stderr.matches(moved).count(), 2, "{stderr}");
    let folder = out.join("work/attacker");
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0);
}

/// A bot of an unprivileged runner runs as the runner's user, and may take the owner's
/// rights away from a file of its folder: the folders are still copied after every game, and
/// the file keeps its permissions.
#[test]
fn a_file_its_owner_may_not_read_stops_no_unprivileged_run() {
    for sandbox in [&[][..], &["--no-sandbox"]] {
        let field = Field::new();
        let file = field.toml("lock", 0, "");
        let output = field.run(As::Unprivileged, &file, "results", sandbox);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{sandbox:?}: {stderr}");
        assert_eq!(board(&output)["games_played"], 2, "{sandbox:?}: {stderr}");
        for folder in ["results/work", "results/work-journaled/work"] {
            let memory = field.path().join(folder).join("attacker/memory.txt");
            let mode = memory.symlink_metadata().unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0, "{sandbox:?}: {folder}");
        }
    }
}

fn remove_the_canary(who: As) {
    let field = Field::new();
    // The bot's user could delete the canary: only the read-only view protects it.
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        field.give_to(NOBODY);
    }
    let before = field.canary();
    attack(&field, who, "rm-rf", 0);
    assert_eq!(field.canary(), before);
}

#[test]
fn rm_rf_of_a_path_outside_the_sandbox_changes_nothing() {
    remove_the_canary(As::Tester);
}

#[test]
fn rm_rf_by_an_unprivileged_runners_bot_changes_nothing() {
    remove_the_canary(As::Unprivileged);
}

#[test]
fn a_fork_bomb_stops_at_max_processes() {
    let field = Field::new();
    let file = field.toml("fork-bomb", 0, "max_processes = 16\ntimeout_ms = 20000");
    // Under a hard process limit of its own, which the bots inherit, so that a sandbox that
    // failed could not hurt the machine (the bomb stops at 200 processes anyway).
    let board = board(&field.run(As::Capped, &file, "results", &[]));
    assert_eq!(board["games_played"], 2, "{board}");
    assert!(
        !succeeded(&board),
        "the bomb got 16 processes or more: {board}"
    );
    assert_eq!(standing(&board, "attacker")["timeouts"], 0, "{board}");
    assert!(field.tag.survivors().is_empty());
}

/// A C bot whose constructor forks before `main` (so before anything after the exec could
/// limit the children), each child trying to allocate 300 MB and to burn 3 s of CPU; the
/// bot answers BROKEN if any child managed either.
const FORK_FIRST: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int escaped;

static double cpu(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6;
}

__attribute__((constructor)) static void fork_first(void) {
    for (int i = 0; i < 4; i++) {
        if (fork() == 0) {
            char *block = malloc(300 << 20);
            if (block != NULL) {
                memset(block, 1, 300 << 20);
                _exit(10);
            }
            while (cpu() < 3.0) {
            }
            _exit(11);
        }
    }
    int status;
    while (wait(&status) > 0) {
        if (WIFEXITED(status) && WEXITSTATUS(status) >= 10) {
            escaped = 1;
        }
    }
}

int main(void) {
    char buffer[4096];
    while (fread(buffer, 1, sizeof buffer, stdin) > 0) {
    }
    puts(escaped ? "BROKEN" : "HNNHNN");
    return 0;
}
"#;

/// `source` compiled as `dir/name`, a program every user may run.
fn compile_c(dir: &Path, name: &str, source: &str) -> PathBuf {
    let file = dir.join(format!("{name}.c"));
    std::fs::write(&file, source).unwrap();
    let program = dir.join(name);
    let compiled = Command::new("cc")
        .arg("-O1")
        .arg("-o")
        .arg(&program)
        .arg(&file)
        .output()
        .expect("cc runs");
    assert!(compiled.status.success(), "{compiled:?}");
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    program
}

#[test]
fn children_forked_before_main_are_under_the_memory_and_cpu_limits() {
    let field = Field::new();
    let program = compile_c(&field.path().join("attacker"), "fork_first", FORK_FIRST);
    let script = field.script();
    let victim = field
        .tag
        .command(&["/bin/sh".to_owned(), script, "none".to_owned()]);
    let text = format!(
        "game = \"cave\"\ngames = 1\ntimeout_ms = 60000\nmemory_mb = 100\ncpu_seconds = 1\n\
         [options]\nmax_turns = 1\n\
         [[bots]]\nname = \"attacker\"\ncommand = {:?}\ndir = \"attacker\"\n\
         [[bots]]\nname = \"victim\"\ncommand = {victim:?}\ndir = {:?}\n",
        field.tag.command(&[program.display().to_string()]),
        field.victim.path().display().to_string()
    );
    let file = write_toml(field.path(), "t.toml", &text);
    let board = board(&field.run(As::Tester, &file, "results", &[]));
    let attacker = standing(&board, "attacker");
    assert_eq!(attacker["invalid_replies"], 0, "a child escaped: {board}");
    assert_eq!(attacker["crashes"], 0, "{board}");
    assert!(attacker["requests"].as_u64().unwrap() >= 1, "{board}");
}

/// A 32-bit system call (`int 0x80`, getpid) from an x86-64 program: its numbers mean
/// other calls than the filter's, so the filter ends the process.
#[cfg(target_arch = "x86_64")]
const OLD_CALL: &str = r#"
#include <stdio.h>
int main(void) {
    long pid;
    __asm__ volatile ("int $0x80" : "=a"(pid) : "a"(20L) : "memory");
    puts(pid > 0 ? "HNNHNN" : "NNNNNN");
    return 0;
}
"#;

#[cfg(target_arch = "x86_64")]
#[test]
fn a_call_of_another_architecture_ends_the_process_with_sigsys() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let program = compile_c(dir.path(), "old_call", OLD_CALL);
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["check", "cave", "--"])
        .arg(&program)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("killed by signal 31 (SIGSYS: a system call the sandbox refuses"),
        "{text}"
    );
}

/// The cgroup paths a bot's process is in, from its `/proc/self/cgroup`: the `pids` and
/// `memory` hierarchies' lines (cgroup v1) or the one line of v2.
const PRINT_CGROUPS: &str = "grep -E ':pids:|:memory:|^0::' /proc/self/cgroup | tr '\\n' ' '\n\
                             echo 4 4 4\n";

/// The box name in a bot's reply for a hierarchy's `marker` (`:pids:`), if it is one.
fn box_of(reply: &str, marker: &str) -> Option<String> {
    let path = reply.split(marker).nth(1)?.split_whitespace().next()?;
    path.strip_prefix("/arena/")
        .filter(|name| name.starts_with("box-"))
        .map(str::to_owned)
}

#[test]
fn as_root_each_bots_processes_are_in_its_own_boxs_cgroups() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("cgroups.sh"), PRINT_CGROUPS).unwrap();
    let file = write_toml(
        dir.path(),
        "t.toml",
        "game = \"petri\"\ngames = 1\n[options]\nturns = 1\n\
         [[bots]]\nname = \"a\"\ncommand = \"/bin/sh cgroups.sh\"\n\
         [[bots]]\nname = \"b\"\ncommand = \"/bin/sh cgroups.sh\"\n",
    );
    crate::support::run_ok(dir.path(), &file, &["--out", "r", "--log-io", "io"]);
    // Each seat's first reply: its setup request's.
    let first_reply = |seat: &str| {
        let log = std::fs::read_to_string(dir.path().join("io/game-0").join(seat)).unwrap();
        log.lines()
            .skip_while(|line| !line.starts_with("=== reply"))
            .nth(1)
            .unwrap()
            .to_owned()
    };
    let replies = [first_reply("seat-0-a.log"), first_reply("seat-1-b.log")];
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        let boxes: Vec<String> = replies
            .iter()
            .map(|reply| {
                let pids = box_of(reply, ":pids:").or_else(|| box_of(reply, "0::"));
                let memory = box_of(reply, ":memory:").or_else(|| box_of(reply, "0::"));
                assert!(pids.is_some() && pids == memory, "{reply}");
                pids.unwrap()
            })
            .collect();
        assert_ne!(boxes[0], boxes[1], "{replies:?}");
    } else {
        // An unprivileged runner makes no cgroups: its bots' processes are limited one by one.
        for reply in &replies {
            assert!(!reply.contains("/arena/box-"), "{reply}");
        }
    }
}

/// A bot whose processes together pass `memory_mb` (here its private `/tmp`, which is
/// memory, and its heap, each under the limit alone) is killed by the kernel with a bare
/// `SIGKILL`: as root, where the box's cgroup counts its memory, the kill is named as the
/// memory limit's. An unprivileged runner makes no cgroup: each process is limited alone,
/// so the same bot runs and replies.
#[test]
fn a_box_out_of_memory_is_named_as_the_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("oom.py"),
        "with open('/tmp/fill', 'wb') as f:\n    f.write(b'x' * (200 << 20))\n\
         heap = bytearray(200 << 20)\nfor i in range(0, len(heap), 4096):\n    heap[i] = 1\n\
         print('5 6 1', flush=True)\n",
    )
    .unwrap();
    let output = crate::support::arena(
        dir.path(),
        &[
            "check",
            "petri",
            "--memory-mb",
            "300",
            "--",
            "/usr/bin/python3",
            "-S",
            "-I",
            "oom.py",
        ],
    );
    let text = String::from_utf8_lossy(&output.stdout);
    let setup = text.split("\n2. ").next().unwrap();
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        assert!(
            setup.contains(
                "no reply: the process ended without replying (killed by signal 9 (SIGKILL) \
                 from the kernel: its processes together reached their memory limit, \
                 `memory_mb`)"
            ),
            "{text}"
        );
    } else {
        assert!(setup.contains("=> valid"), "{text}");
    }
}

/// A bot that keeps two processes busy for half a second, then replies with the CPU time they
/// took and its box's CPU quota as the cgroup holds it (v1's `cpu.cfs_quota_us`, v2's
/// `cpu.max`).
const SPIN_TWO: &str = r#"import os, time
kids = []
for _ in range(2):
    pid = os.fork()
    if pid == 0:
        end = time.monotonic() + 0.5
        while time.monotonic() < end:
            pass
        os._exit(0)
    kids.append(pid)
for pid in kids:
    os.waitpid(pid, 0)
times = os.times()
quota = 'none'
for line in open('/proc/self/cgroup'):
    _, controllers, path = line.strip().split(':', 2)
    if 'cpu' in controllers.split(','):
        quota = open('/sys/fs/cgroup/cpu' + path + '/cpu.cfs_quota_us').read().strip()
    elif controllers == '' and os.path.exists('/sys/fs/cgroup' + path + '/cpu.max'):
        quota = open('/sys/fs/cgroup' + path + '/cpu.max').read().strip()
print('cpu %.2f quota %s' % (times.children_user + times.children_system, quota))
"#;

/// `cpus` bounds the CPU time of the whole box, its children together: two processes busy
/// for half a second under half a core take about a quarter of a second of CPU, where
/// without the quota they take up to one. As root the box's cgroup holds the quota; an unprivileged runner
/// makes no cgroup, and says so instead of running the bot without it.
#[test]
fn cpus_bounds_the_cpu_time_of_the_whole_box() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("spin.py"), SPIN_TWO).unwrap();
    let check = |cpus: &str| {
        let args = [
            "check",
            "petri",
            "--cpus",
            cpus,
            "--",
            "/usr/bin/python3",
            "-S",
            "-I",
        ];
        crate::support::arena(dir.path(), &[&args[..], &["spin.py"]].concat())
    };
    let output = check("0.5");
    let text = String::from_utf8_lossy(&output.stdout);
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(
            error.contains("cannot bound the bot's CPU to its `cpus`") && !output.status.success(),
            "{error}"
        );
        return;
    }
    assert!(
        text.contains(
            "cpu share:  the time of at most 0.5 cores at once, all its processes together"
        ),
        "{text}"
    );
    let setup = text.split("\n2. ").next().unwrap();
    let reply = setup.split("| cpu ").nth(1).expect("the bot replied");
    let (cpu, quota) = reply.split_once(" quota ").unwrap();
    let quota = quota.split('\\').next().unwrap();
    assert!(quota == "50000" || quota == "50000 100000", "{setup}");
    let cpu: f64 = cpu.parse().unwrap();
    assert!(
        cpu <= 0.4,
        "two busy processes took {cpu} s of CPU in half a second: {setup}"
    );
    // The control: without a quota, the same bot has none in its cgroup.
    let free = String::from_utf8_lossy(&check("0").stdout).into_owned();
    assert!(free.contains("cpu share:  no quota"), "{free}");
    assert!(
        free.contains(" quota -1\\n") || free.contains(" quota max 100000\\n"),
        "{free}"
    );
}
