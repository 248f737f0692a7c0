//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

/// Whether any process of the process group `pgid` is alive: running, not a zombie. A
/// killed bot's children are orphans whose zombies only the machine's init reaps, and an
/// init that reaps late (some VMs' own) would keep a dead group "alive" to `kill(-pgid, 0)`.
pub fn group_alive(pgid: i32) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|entry| {
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // After the command's closing parenthesis: state, parent pid, process group.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
        matches!(fields.as_slice(), [state, _, group, ..]
            if *state != "Z" && *state != "X" && group.parse() == Ok(pgid))
    })
}

/// Waits up to two seconds for every group whose leader's pid is listed in `pids_file` to
/// be gone, and returns the groups still alive (killing them, so a failing test leaves
/// nothing behind).
pub fn surviving_groups(pids_file: &Path) -> Vec<i32> {
    let text = std::fs::read_to_string(pids_file).unwrap_or_default();
    let pids: Vec<i32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline && pids.iter().any(|&p| group_alive(p)) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let alive: Vec<i32> = pids.into_iter().filter(|&p| group_alive(p)).collect();
    for &pid in &alive {
        // SAFETY: plain kill(2) of a test's own leftover process group.
        unsafe { libc::kill(-pid, libc::SIGKILL) };
    }
    alive
}

/// A mark for the processes of one test: bots started through [`Tag::command`] carry it in
/// their environment, and so does everything they start, in a sandbox or not. Processes
/// are found by it on the machine, whatever PID namespace they run in.
pub struct Tag(String);

impl Tag {
    /// A tag unique to `dir` (a test's temporary folder).
    pub fn new(dir: &Path) -> Tag {
        let name = dir.file_name().unwrap().to_string_lossy();
        Tag(format!("ARENA_TEST_TAG={name}"))
    }

    /// `words` started through `env`, which puts the tag in the bot's environment.
    pub fn command(&self, words: &[String]) -> Vec<String> {
        let mut command = vec!["/usr/bin/env".to_owned(), self.0.clone()];
        command.extend(words.iter().cloned());
        command
    }

    /// The PIDs of the live processes that carry the tag.
    pub fn processes(&self) -> Vec<i32> {
        let mut needle = self.0.clone().into_bytes();
        needle.push(0);
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
            .filter(|pid| {
                let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
                let state =
                    std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
                // A zombie is dead already; its parent reaps it.
                let zombie = state
                    .rsplit(')')
                    .next()
                    .is_some_and(|rest| rest.trim_start().starts_with('Z'));
                !zombie && environ.windows(needle.len()).any(|window| window == needle)
            })
            .collect()
    }

    /// Waits up to two seconds for every tagged process to be gone and returns those still
    /// alive (killing them, so a failing test leaves nothing behind).
    pub fn survivors(&self) -> Vec<i32> {
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline && !self.processes().is_empty() {
            std::thread::sleep(Duration::from_millis(20));
        }
        let alive = self.processes();
        for &pid in &alive {
            // SAFETY: plain kill(2) of a process this test started (it carries its tag).
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        alive
    }
}

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `arena` binary as every test starts it: its cache (Java builds, and the pruning of
/// old ones) in a temporary folder of the test run, never the user's `~/.cache`.
pub fn arena_command() -> std::process::Command {
    static CACHE: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(|| tempfile::tempdir().expect("a temporary folder"));
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_arena"));
    command.env("XDG_CACHE_HOME", cache.path());
    command
}

/// Runs the `arena` binary with `args` in `dir`, with a clean logging configuration.
pub fn arena(dir: &Path, args: &[&str]) -> Output {
    arena_command()
        .args(args)
        .current_dir(dir)
        .env_remove("ARENA_LOG")
        .output()
        .expect("the arena binary runs")
}

/// Runs `arena run <file> <extra...>` in `dir` and fails the test, showing arena's errors,
/// unless the run succeeds.
pub fn run_ok(dir: &Path, file: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["run", file.to_str().unwrap()];
    args.extend_from_slice(extra);
    let output = arena(dir, &args);
    assert!(
        output.status.success(),
        "arena failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The lines of `stderr` that state problems, each without the `error: ` before it, and
/// without the lines of the file quoted under a problem (a margin, `|`, then the line or
/// the caret under its place).
pub fn problem_lines(stderr: &str) -> Vec<&str> {
    let quoted = |line: &str| {
        let number = line
            .trim_start()
            .trim_start_matches(|c: char| c.is_ascii_digit());
        line.starts_with(' ') && number.trim_start().starts_with('|')
    };
    stderr
        .lines()
        .map(|line| line.strip_prefix("error: ").unwrap_or(line))
        .filter(|line| !quoted(line))
        .collect()
}

/// A tournament file in `dir` with the given text.
pub fn write_toml(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temp dir is writable");
    path
}

/// The folder of one game's original bots in the shared compatibility folder
/// (`$ARENA_COMPAT`, else `../shared/compat` beside the repository), for the `compat_` tests,
/// which are ignored by default because the folder is not part of the repository.
pub fn compat(game: &str) -> PathBuf {
    let root = std::env::var_os("ARENA_COMPAT")
        .map_or_else(|| repo().join("../shared/compat"), PathBuf::from);
    let folder = root.join(game);
    assert!(
        folder.is_dir(),
        "{} is missing: the compat_ tests need the original bots",
        folder.display()
    );
    folder
}

/// Where the browser tests find Chromium: `CHROMIUM` if set, else Debian's package, which
/// `.ci/run` installs.
fn chromium_path() -> PathBuf {
    std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
}

/// Runs headless Chromium on a `window` ("WIDTH,HEIGHT") with `args`, everything that could
/// reach the network switched off, one browser at a time in the whole test run: each is
/// several processes, and the tests share two cores.
pub fn chromium(profile: &Path, window: &str, args: &[String]) -> Output {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let browser = chromium_path();
    assert!(
        browser.exists(),
        "{} is missing: the browser tests need Chromium (set CHROMIUM, or install the \
         Debian package `chromium`, which .ci/run does)",
        browser.display()
    );
    let _turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let output = std::process::Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--window-size={window}"))
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .expect("chromium runs");
    assert!(output.status.success(), "chromium failed: {output:?}");
    output
}

/// A Petri tournament of the sample bots named in `bots` (name, script), each in a folder of
/// its own under `dir` (copied from `bots/petri/` with the module they import, so a change to
/// one touches no other).
pub fn petri_in_own_folders(dir: &Path, file: &str, bots: &[(&str, &str)]) -> std::path::PathBuf {
    let mut text = "game = \"petri\"\nseed = 2014\ngames = 2\n[options]\nturns = 30\n".to_owned();
    for (name, script) in bots {
        let folder = dir.join(name);
        if !folder.exists() {
            std::fs::create_dir(&folder).unwrap();
            for file in [script, "petrilib.py"] {
                std::fs::copy(repo().join("bots/petri").join(file), folder.join(file)).unwrap();
            }
        }
        text.push_str(&format!(
            "[[bots]]\nname = \"{name}\"\ncommand = \"/usr/bin/python3 -S -I {script}\"\n\
             dir = \"{name}\"\n"
        ));
    }
    write_toml(dir, file, &text)
}

/// Three sample Petri bots, by name and script.
pub const THREE: &[(&str, &str)] = &[
    ("grower", "grower.py"),
    ("hunter", "hunter.py"),
    ("bomber", "bomber.py"),
];
