//! Mutated tournament files: the ready ones (`tournaments/*.toml`, `tests/data/*-small.toml`)
//! broken in 500 ways chosen by a fixed-seed generator, each given to the real binary. Every
//! one must end with exit status 0 (a valid file) or 2 (a clear error, and no results
//! folder), never a panic, a signal or a hang.
//!
//! Valid mutants are run as shard N/N of N = 2^32 - 1 shards, which holds none of their
//! games: the file is loaded and checked in full, the results folder, journal and
//! leaderboard are written, but no bot is started. That keeps 500 runs within seconds and
//! a mutated `turns = 4000000000` from playing for hours.

use std::fs::File;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use arena_games::seeded::Draws;

use crate::support::repo;

/// How many mutated files are run.
const MUTANTS: usize = 500;
/// The generator's seed: the same 500 files on every run.
const SEED: u64 = 0x1616_1616;
/// How long one run may take before it counts as a hang: loading a file takes milliseconds
/// (the first Java compilation a few seconds), so this only ever fires on a real hang.
const HANG: Duration = Duration::from_secs(60);
/// The shard that holds none of a small tournament's games.
const NO_GAMES: &str = "4294967295/4294967295";

/// Numbers that sit on or past the bounds of the types and checks they meet.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "1025",
    "65536",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "2305843009213693952",
    "1e309",
    "3.5",
    "nan",
];

/// Strings that are empty, huge, hostile on a terminal or in a path, or not closed.
fn strings() -> Vec<String> {
    vec![
        String::new(),
        " ".into(),
        "x".repeat(5000),
        "東".repeat(65),
        "\\u001b[2J\\u001b]0;pwned\\u0007".into(),
        "a\\nb".into(),
        "abc\\u202efed".into(),
        "../..".into(),
        "/".into(),
        ".".into(),
        "/dev/zero".into(),
        "=HYPERLINK(\\\"x\\\")".into(),
        "'unclosed".into(),
        "\\\"".into(),
    ]
}

/// Values of other types, for a key that expects a number or a string.
const OTHER_TYPES: &[&str] = &[
    "\"7\"",
    "7",
    "true",
    "[1, 2]",
    "[]",
    "{ a = 1 }",
    "2026-12-01T00:00:00Z",
];

/// Lines a file may gain: keys that exist, with edge values, and keys that do not.
const EXTRA_LINES: &[&str] = &[
    "jobs = 2305843009213693952",
    "jobs = 1024",
    "jobs = 0",
    "games = 4294967295",
    "timeout_ms = 18446744073709551615",
    "max_reply_bytes = 9223372036854775807",
    "max_stderr_bytes = 0",
    "memory_mb = 9223372036854775807",
    "max_processes = 0",
    "cpus = 0.5",
    "cpus = -1",
    "sandbox = \"none\"",
    "seed = -1",
    "[options]",
    "[[bots]]",
    "name = \"x\"",
    "[bots]",
    "unknown = 1",
];

/// One mutation of `text`, described for a failure message.
fn mutate(text: &str, rng: &mut Draws) -> (String, String) {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let assignments: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains(" = ") && !lines[i].starts_with('#'))
        .collect();
    let mut kind = rng.below(9);
    if lines.is_empty() || (assignments.is_empty() && (3..=5).contains(&kind)) {
        kind = 6;
    }
    let line = rng.below(lines.len().max(1));
    let assignment = assignments.get(rng.below(assignments.len().max(1)));
    let (key, value) = assignment
        .and_then(|&i| lines[i].split_once(" = "))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .unwrap_or_default();
    let mut assign = |value: String| lines[*assignment.expect("kinds 3 to 5 have one")] = value;
    let what = match kind {
        3 => {
            let number = rng.pick(NUMBERS);
            assign(format!("{key} = {number}"));
            format!("`{key}` = {number} (was {value})")
        }
        4 => {
            let strings = strings();
            let string = strings[rng.below(strings.len())].clone();
            assign(format!("{key} = \"{string}\""));
            let shown: String = string.chars().take(40).collect();
            format!("`{key}` = \"{shown}\" (was {value})")
        }
        5 => {
            let other = rng.pick(OTHER_TYPES);
            assign(format!("{key} = {other}"));
            format!("`{key}` = {other} (was {value})")
        }
        6 => {
            let extra = rng.pick(EXTRA_LINES);
            lines.insert(line, (*extra).to_owned());
            format!("inserted `{extra}` at line {}", line + 1)
        }
        0 => {
            let removed = lines.remove(line);
            format!("deleted line {}: {removed}", line + 1)
        }
        1 => {
            lines.insert(line, lines[line].clone());
            format!("duplicated line {}: {}", line + 1, lines[line])
        }
        2 => {
            let other = rng.below(lines.len());
            lines.swap(line, other);
            format!("swapped lines {} and {}", line + 1, other + 1)
        }
        7 => {
            let joined = lines.join("\n");
            let cut = char_boundary(&joined, rng.below(joined.len() + 1));
            return (joined[..cut].to_owned(), format!("cut after byte {cut}"));
        }
        _ => {
            let joined = lines.join("\n");
            let at = char_boundary(&joined, rng.below(joined.len() + 1));
            let noise: String = (0..1 + rng.below(8)).map(|_| rng.pick(NOISE)).collect();
            let mutated = format!("{}{noise}{}", &joined[..at], &joined[at..]);
            return (mutated, format!("inserted {noise:?} at byte {at}"));
        }
    };
    (lines.join("\n") + "\n", what)
}

/// Characters that break a TOML file in many ways when inserted anywhere.
const NOISE: &[char] = &[
    '\0', '\x1b', '\n', '"', '\'', '[', ']', '=', '\\', 'é', '\u{202e}',
];

/// The largest character boundary of `text` at or before byte `at`.
fn char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The ready tournament files, each with the folder (relative to the repository) it lives
/// in, so that its relative paths (`dir = "../bots/petri"`) mean the same in a copy.
fn ready_files() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    for folder in ["tournaments", "tests/data"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(repo().join(folder))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "toml"))
            .collect();
        paths.sort();
        for path in paths {
            files.push((
                PathBuf::from(folder),
                std::fs::read_to_string(path).unwrap(),
            ));
        }
    }
    files
}

/// Waits for `child`, killing it (by its PID, through `Child::kill`) if it outlives
/// [`HANG`]; `None` means it hung.
fn wait_bounded(child: &mut std::process::Child) -> Option<ExitStatus> {
    let deadline = Instant::now() + HANG;
    loop {
        if let Some(status) = child.try_wait().expect("waiting works") {
            return Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// What was wrong with one run, if anything.
fn judge(status: Option<ExitStatus>, out: &Path, stderr: &str) -> Option<String> {
    let Some(status) = status else {
        return Some(format!("no exit within {HANG:?}"));
    };
    match (status.code(), status.signal()) {
        (Some(0), _) => None,
        (Some(2), _) if out.exists() => Some("exit 2, but the results folder exists".into()),
        (Some(2), _) if !stderr.starts_with("error: ") => {
            Some(format!("exit 2 without an error line: {stderr}"))
        }
        (Some(2), _) => None,
        (Some(code), _) => Some(format!("exit {code}: {stderr}")),
        (None, signal) => Some(format!("killed by signal {signal:?}: {stderr}")),
    }
}

#[test]
fn five_hundred_mutated_tournament_files_exit_0_or_2_and_leave_nothing_when_rejected() {
    let sandbox = tempfile::tempdir().unwrap();
    let root = sandbox.path();
    // The copies' relative paths reach the sample bots through this link.
    std::os::unix::fs::symlink(repo().join("bots"), root.join("bots")).unwrap();
    let cache = root.join("cache");
    let ready = ready_files();
    assert!(ready.len() >= 5, "{} ready files", ready.len());
    let mut rng = Draws::new(SEED);
    let (mut accepted, mut rejected, mut failures) = (0, 0, Vec::new());
    for n in 0..MUTANTS {
        let (folder, text) = &ready[rng.below(ready.len())];
        let (mut mutated, mut what) = mutate(text, &mut rng);
        if rng.below(3) == 0 {
            let (again, second) = mutate(&mutated, &mut rng);
            (mutated, what) = (again, format!("{what}; {second}"));
        }
        let folder = root.join(folder);
        std::fs::create_dir_all(&folder).unwrap();
        let file = folder.join(format!("mutant-{n}.toml"));
        std::fs::write(&file, &mutated).unwrap();
        let out = root.join(format!("out-{n}"));
        let stderr_path = root.join(format!("stderr-{n}"));
        let mut child = crate::support::arena_command()
            .arg("run")
            .arg(&file)
            .arg("--out")
            .arg(&out)
            .args(["--games", "1", "--no-sandbox", "--shard", NO_GAMES])
            .current_dir(root)
            .env_remove("ARENA_LOG")
            .env("RUST_BACKTRACE", "0")
            .env("XDG_CACHE_HOME", &cache)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(File::create(&stderr_path).unwrap())
            .spawn()
            .expect("the arena binary runs");
        let status = wait_bounded(&mut child);
        let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
        match judge(status, &out, &stderr) {
            Some(problem) => failures.push(format!("mutant {n} ({what}): {problem}")),
            None if status.and_then(|s| s.code()) == Some(0) => accepted += 1,
            None => rejected += 1,
        }
        if status.is_none() {
            // One hang fails the test; waiting out more of them would only make it slower.
            break;
        }
    }
    eprintln!("{MUTANTS} mutants: {accepted} accepted, {rejected} rejected");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Both outcomes occur often: the mutations are neither all harmless nor all fatal.
    assert!(
        accepted >= 25 && rejected >= 25,
        "{accepted} accepted, {rejected} rejected"
    );
}
