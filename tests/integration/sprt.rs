//! `--sprt`: a match of two bots that stops once the test is decided.

use std::path::Path;

use serde_json::Value;

use crate::support::{arena, repo, write_toml};

/// A Petri tournament file in `dir` of bots named `names`, playing the sample bots `bots`.
fn tournament(dir: &Path, names: [&str; 2], bots: [&str; 2]) -> std::path::PathBuf {
    let mut text = String::from("game = \"petri\"\ngames = 200\n[options]\nturns = 30\n");
    for (name, bot) in names.iter().zip(bots) {
        let script = repo().join(format!("bots/petri/{bot}.py"));
        text += &format!(
            "[[bots]]\nname = \"{name}\"\ncommand = [\"/usr/bin/python3\", \"-S\", \"-I\", \
             {:?}]\n",
            script.display().to_string()
        );
    }
    write_toml(dir, "t.toml", &text)
}

/// Runs `--sprt BOUNDS` on `file` with `extra` arguments; its exit status and leaderboard.
fn sprt_run(dir: &Path, file: &Path, bounds: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args = vec![
        "run",
        file.to_str().unwrap(),
        "--out",
        "r",
        "--format",
        "json",
        "--sprt",
        bounds,
    ];
    args.extend_from_slice(extra);
    let output = arena(dir, &args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let board = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("no leaderboard: {stderr}"));
    (output.status.code(), board)
}

#[test]
fn a_much_stronger_candidate_passes_early() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament(dir.path(), ["grower", "hunter"], ["grower", "hunter"]);
    let bounds = "elo0=0,elo1=50,alpha=0.05,beta=0.05";
    let (status, board) = sprt_run(dir.path(), &file, bounds, &["--gauntlet", "hunter"]);
    let sprt = &board["sprt"];
    assert_eq!(status, Some(0), "{sprt}");
    assert_eq!(sprt["verdict"], "H1");
    assert_eq!(sprt["candidate"], "hunter");
    let pairs: u64 = sprt["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|count| count.as_u64().unwrap())
        .sum();
    let played = board["games_played"].as_u64().unwrap();
    // Stopped long before the 200 games; the games in flight at the verdict finish too,
    // without changing it. Pairs count in order, so while one lane plays the game that
    // completes the deciding pair, the other may have finished later games and started one
    // more: a few games past the counted pairs, never fewer.
    assert!(played < 100, "{played} games");
    assert!(
        2 * pairs <= played && played <= 2 * pairs + 4,
        "{pairs} pairs, {played} games"
    );
    assert!(sprt["llr"].as_f64().unwrap() >= sprt["upper_bound"].as_f64().unwrap());
    // The standings of the journal give the same verdict.
    let output = arena(dir.path(), &["standings", "r", "--format", "json"]);
    let again: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(again["sprt"], board["sprt"]);
}

#[test]
fn a_bot_against_a_copy_of_itself_never_passes() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament(dir.path(), ["hunter", "copy"], ["hunter", "hunter"]);
    let (status, board) = sprt_run(dir.path(), &file, "elo0=0,elo1=10", &[]);
    let sprt = &board["sprt"];
    assert_eq!(sprt["candidate"], "hunter");
    match status {
        Some(4) => assert_eq!(sprt["verdict"], "H0", "{sprt}"),
        Some(5) => {
            assert!(sprt["verdict"].is_null(), "{sprt}");
            assert_eq!(board["games_played"], 200);
        }
        other => panic!("exit {other:?}: {sprt}"),
    }
}

#[test]
fn a_test_needs_two_bots_of_a_two_player_game_and_pairs_of_games() {
    let dir = tempfile::tempdir().unwrap();
    let petri = tournament(dir.path(), ["a", "b"], ["grower", "hunter"]);
    let three = repo().join("tests/data/petri-small.toml");
    let eggs = repo().join("tournaments/eggs.toml");
    for (file, extra, why) in [
        (&petri, &["--games", "7"][..], "`games` must be even"),
        (&three, &[][..], "the tournament has 3"),
        (&eggs, &[][..], "no game of two bots"),
    ] {
        let mut args = vec!["run", file.to_str().unwrap(), "--sprt", "elo0=0,elo1=5"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", "r"]);
        let output = arena(dir.path(), &args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(why), "{stderr}");
        assert!(!dir.path().join("r").exists());
    }
    let output = arena(
        dir.path(),
        &["run", petri.to_str().unwrap(), "--sprt", "elo0=5,elo1=0"],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("must be below elo1"));
}

/// `--bots b,a` keeps the file's order, so the start says which bot the test is of.
#[test]
fn the_start_names_the_candidate_and_how_it_was_chosen() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament(dir.path(), ["first", "second"], ["grower", "grower"]);
    let file = file.to_str().unwrap();
    let sprt = [
        "--sprt",
        "elo0=0,elo1=50",
        "--games",
        "2",
        "--format",
        "json",
    ];
    for (extra, said) in [
        (
            &["--bots", "second,first"][..],
            "--sprt: the candidate is first, tested against second (the first of the two in \
             the file's order; --gauntlet NAME chooses)",
        ),
        (
            &["--gauntlet", "second"][..],
            "--sprt: the candidate is second, tested against first (the --gauntlet bot)",
        ),
    ] {
        let out = dir.path().join(extra[0].trim_start_matches('-'));
        let mut args = vec!["run", file, "--out", out.to_str().unwrap()];
        args.extend_from_slice(&sprt);
        args.extend_from_slice(extra);
        let output = arena(dir.path(), &args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(said), "{stderr}");
    }
}
