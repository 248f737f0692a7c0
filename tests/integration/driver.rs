//! What a game counts: every request to a bot, also after its persistent process failed;
//! and the runner's own failures are not the bots': a run that cannot start bot processes
//! for want of descriptors stops with an error instead of counting crashes.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Output;

use crate::cli::{run_json, standing};
use crate::support::{Tag, repo, write_toml};

#[test]
fn requests_after_a_persistent_bots_first_failure_are_still_counted() {
    let dir = tempfile::tempdir().unwrap();
    let tag = Tag::new(dir.path());
    let bot = |words: &[&str]| {
        let script = repo().join("tests/bots/loop.sh").display().to_string();
        let mut command = vec!["/bin/sh".to_owned(), script];
        command.extend(words.iter().map(|word| word.to_string()));
        format!("{:?}", tag.command(&command))
    };
    // Both bots rest with every cell (the one that hangs gets the fallback, a rest, from its
    // first cell request on): the game is symmetric, so each is asked as often.
    let text = format!(
        "game = \"petri\"\ngames = 1\ntimeout_ms = 300\nsandbox = \"none\"\n\
         [options]\nwidth = 5\nheight = 3\nturns = 4\n\
         [[bots]]\nname = \"fails\"\ncommand = {}\n\
         [[bots]]\nname = \"rests\"\ncommand = {}\n",
        bot(&["hang", "0"]),
        bot(&[]),
    );
    let file = write_toml(dir.path(), "t.toml", &text);
    let board = run_json(dir.path(), &file, &[]);
    let (fails, rests) = (standing(&board, "fails"), standing(&board, "rests"));
    assert_eq!(fails["timeouts"], 1, "{fails}");
    assert!(rests["requests"].as_u64().unwrap() > 2, "{rests}");
    assert_eq!(fails["requests"], rests["requests"], "{board}");
    assert!(tag.survivors().is_empty());
}

/// Twelve species of one AlienWar game, whose persistent processes all start at once.
fn crowded_game() -> String {
    let mut text = "game = \"alienwar\"\ngames = 2\njobs = 1\nsandbox = \"none\"\n\
                    [options]\nrounds = 5\ninstances = 3\n"
        .to_owned();
    for bot in 0..12 {
        text += &format!(
            "[[bots]]\nname = \"b{bot}\"\n\
             command = [\"/bin/sh\", \"-c\", \"while read -r l; do echo 0; done\"]\n"
        );
    }
    text
}

/// Runs `arena run <file> <extra...>` in `dir` with its descriptor limits set to `soft`
/// and `hard`.
fn run_with_descriptors(dir: &Path, file: &Path, extra: &[&str], soft: u64, hard: u64) -> Output {
    let mut command = crate::support::arena_command();
    command
        .args(["run", file.to_str().unwrap(), "--out", "out"])
        .args(extra)
        .current_dir(dir)
        .env_remove("ARENA_LOG");
    // SAFETY: setrlimit is async-signal-safe and touches only the child.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    command.output().expect("the arena binary runs")
}

#[test]
fn a_runner_out_of_descriptors_stops_with_an_error_and_blames_no_bot() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_toml(dir.path(), "t.toml", &crowded_game());
    // Enough descriptors to start, far too few for twelve bots at once; the hard limit too,
    // or the runner would raise the soft one to it.
    let output = run_with_descriptors(dir.path(), &file, &["--strict"], 32, 32);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the runner cannot start a bot process: Too many open files"),
        "{stderr}"
    );
    assert!(!stderr.contains("strict:"), "{stderr}");
}

#[test]
fn a_low_soft_descriptor_limit_is_raised_to_the_hard_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_toml(dir.path(), "t.toml", &crowded_game());
    let output = run_with_descriptors(dir.path(), &file, &["--format", "json"], 32, 4096);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let board: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(board["games_played"], 2, "{board}");
    for bot in board["leaderboard"].as_array().unwrap() {
        assert_eq!(bot["crashes"], 0, "{board}");
    }
}
