//! Incremental runs: `--reuse` keeps every earlier game whose bots and settings are unchanged
//! and plays only the rest, to the leaderboard of a fresh full run, byte for byte; and runs
//! and standings of some of the bots (`--bots`, `--exclude`).

use std::path::Path;

use crate::support::{THREE, petri_in_own_folders, repo, run_ok};

/// The "reused N games, playing M" figures of a run's log.
fn reused_and_played(stderr: &[u8]) -> (u64, u64) {
    let log = String::from_utf8_lossy(stderr);
    let line = log
        .lines()
        .find_map(|line| line.split("reused ").nth(1))
        .unwrap_or_else(|| panic!("no reuse line in {log}"));
    let numbers: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|word| word.parse().ok())
        .collect();
    (numbers[0], numbers[1])
}

fn leaderboard(dir: &Path, out: &str) -> Vec<u8> {
    std::fs::read(dir.join(out).join("leaderboard.json")).unwrap()
}

#[test]
fn a_new_bot_plays_only_its_own_games_to_the_full_runs_leaderboard() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let three = petri_in_own_folders(dir, "three.toml", THREE);
    run_ok(dir, &three, &["--out", "r3"]);
    let four = petri_in_own_folders(
        dir,
        "four.toml",
        &[THREE, &[("grower2", "grower.py")]].concat(),
    );
    let reusing = run_ok(dir, &four, &["--out", "r4", "--reuse", "r3"]);
    // The newcomer's three pairs, two games each; the six games of the three are kept.
    assert_eq!(reused_and_played(&reusing.stderr), (6, 6));
    run_ok(dir, &four, &["--out", "fresh"]);
    assert_eq!(leaderboard(dir, "r4"), leaderboard(dir, "fresh"));
}

#[test]
fn a_changed_bot_replays_exactly_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let three = petri_in_own_folders(dir, "three.toml", THREE);
    run_ok(dir, &three, &["--out", "before"]);
    let script = dir.join("hunter/hunter.py");
    let mut text = std::fs::read_to_string(&script).unwrap();
    text.push_str("\n# version 2\n");
    std::fs::write(&script, text).unwrap();
    let again = run_ok(dir, &three, &["--out", "after", "--reuse", "before"]);
    // hunter's two pairs, two games each.
    assert_eq!(reused_and_played(&again.stderr), (2, 4));
    let journal = std::fs::read_to_string(dir.join("after/journal.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 1 + 6);
    // Said at the default log level, one line for the changed bot only.
    let log = String::from_utf8_lossy(&again.stderr);
    assert!(
        log.contains("--reuse: bot `hunter` changed since the earlier runs")
            && log.matches("changed since").count() == 1,
        "{log}"
    );
}

/// Bots that share a folder all change with a file in it: one line names them and the
/// folder, where a line per bot left the host guessing why every bot changed.
#[test]
fn bots_sharing_a_folder_that_changed_are_named_in_one_line_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let shared = dir.join("bots");
    std::fs::create_dir(&shared).unwrap();
    let mut text = "game = \"petri\"\nseed = 2014\ngames = 1\n[options]\nturns = 5\n".to_owned();
    for (name, script) in THREE {
        std::fs::copy(repo().join("bots/petri").join(script), shared.join(script)).unwrap();
        text.push_str(&format!(
            "[[bots]]\nname = \"{name}\"\ncommand = \"/usr/bin/python3 -S -I {script}\"\n\
             dir = \"bots\"\n"
        ));
    }
    std::fs::copy(
        repo().join("bots/petri/petrilib.py"),
        shared.join("petrilib.py"),
    )
    .unwrap();
    let file = crate::support::write_toml(dir, "t.toml", &text);
    run_ok(dir, &file, &["--out", "before"]);
    std::fs::write(shared.join("notes.txt"), "a new file beside the bots").unwrap();
    let again = run_ok(dir, &file, &["--out", "after", "--reuse", "before"]);
    let log = String::from_utf8_lossy(&again.stderr);
    assert_eq!(log.matches("changed since").count(), 1, "{log}");
    assert!(
        log.contains("--reuse: bots `bomber`, `grower`, `hunter` changed since the earlier runs")
            && log.contains(&format!("they share the folder {}", shared.display())),
        "{log}"
    );
}

#[test]
fn a_reuse_that_keeps_nothing_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let three = petri_in_own_folders(dir, "three.toml", THREE);
    run_ok(dir, &three, &["--out", "before"]);
    let log = |output: std::process::Output| String::from_utf8_lossy(&output.stderr).into_owned();
    let reseeded = log(run_ok(
        dir,
        &three,
        &["--out", "seed", "--reuse", "before", "--seed", "9"],
    ));
    assert!(
        reseeded.contains("--reuse before: its seed is 2014, this run's is 9: none of its games"),
        "{reseeded}"
    );
    let replays = log(run_ok(
        dir,
        &three,
        &["--out", "replays", "--reuse", "before", "--replays"],
    ));
    assert!(
        replays.contains(
            "--reuse: 6 games of unchanged bots played again for their replays (--replays; \
             the earlier runs kept none)"
        ),
        "{replays}"
    );
    // Another game's run is a mistake of the command line, not a run to reuse nothing of.
    let slime = repo().join("tests/data/slime-small.toml");
    run_ok(dir, &slime, &["--out", "slime"]);
    let output = crate::support::arena(
        dir,
        &[
            "run",
            three.to_str().unwrap(),
            "--out",
            "x",
            "--reuse",
            "slime",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--reuse slime: it is a run of slime, this one of petri"),
        "{stderr}"
    );
    assert!(!dir.join("x").exists());
}

#[test]
fn reuse_is_refused_where_games_depend_on_earlier_games() {
    let dir = tempfile::tempdir().unwrap();
    let output = crate::support::arena(
        dir.path(),
        &[
            "run",
            repo().join("tests/data/cave-small.toml").to_str().unwrap(),
            "--reuse",
            "earlier",
            "--out",
            "r",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("private folders"), "{stderr}");
    assert!(!dir.path().join("r").exists());
}

#[test]
fn a_run_of_some_bots_plays_the_games_the_whole_tournament_has_among_them() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let file = petri_in_own_folders(dir, "three.toml", THREE);
    run_ok(dir, &file, &["--out", "all"]);
    run_ok(dir, &file, &["--out", "two", "--exclude", "grower"]);
    let among = crate::support::arena(
        dir,
        &[
            "standings",
            "all",
            "--bots",
            "hunter,bomber",
            "--format",
            "json",
        ],
    );
    assert!(among.status.success());
    assert_eq!(among.stdout, leaderboard(dir, "two"));

    let typo = crate::support::arena(dir, &["run", "three.toml", "--bots", "huntr"]);
    let stderr = String::from_utf8_lossy(&typo.stderr);
    assert_eq!(typo.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("there is no bot `huntr` (the bots: grower, hunter, bomber)"),
        "{stderr}"
    );
    let alone = crate::support::arena(dir, &["run", "three.toml", "--bots", "hunter"]);
    assert_eq!(alone.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&alone.stderr).contains("needs at least 2"));
}

/// The tester's case: a Slime folder's standings of two bots once printed "0 of 0 games
/// played" with both ranked first, where the Egg Hunt's refused.
#[test]
fn standings_of_fewer_bots_than_a_game_seats_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    run_ok(
        dir,
        &repo().join("tests/data/slime-small.toml"),
        &["--out", "r"],
    );
    for (selection, kept) in [
        (["--bots", "lookahead,greedy"], "2 bots (lookahead, greedy)"),
        (
            ["--exclude", "merger"],
            "3 bots (lookahead, greedy, random_spread)",
        ),
    ] {
        let output = crate::support::arena(dir, &[&["standings", "r"][..], &selection].concat());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "--bots/--exclude keep {kept}; every slime game has 4 bots, so no game is \
                 among them only"
            )),
            "{stderr}"
        );
        assert!(output.stdout.is_empty(), "no standings");
    }
    let four = [
        "standings",
        "r",
        "--bots",
        "lookahead,greedy,merger,random_spread",
    ];
    let all = crate::support::arena(dir, &four);
    assert!(
        all.status.success(),
        "{}",
        String::from_utf8_lossy(&all.stderr)
    );
}

/// The tester's case: an unboxed run's Python wrote `__pycache__` into each bot's folder
/// (its bots import a module there), which once changed every digest: the next run reused
/// no game, without saying why. The cache is no part of a digest.
#[test]
fn pythons_compiled_cache_written_by_a_run_changes_no_bot() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let three = petri_in_own_folders(dir, "three.toml", THREE);
    run_ok(dir, &three, &["--out", "before", "--no-sandbox"]);
    assert!(
        dir.join("hunter/__pycache__").is_dir(),
        "the bots import petrilib"
    );
    let again = run_ok(
        dir,
        &three,
        &["--out", "after", "--reuse", "before", "--no-sandbox"],
    );
    assert_eq!(reused_and_played(&again.stderr), (6, 0));
    assert!(!String::from_utf8_lossy(&again.stderr).contains("changed since"));
}
