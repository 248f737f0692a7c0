//! `--gauntlet NAME`: only the games of one bot, each as the whole tournament plays it.

use std::path::Path;

use serde_json::Value;

use crate::support::{arena, repo, run_ok};

const SMALL: &str = "tests/data/petri-small.toml";

/// The game records of the journal in `dir`, by index.
fn games(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("journal.jsonl"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| {
            let mut record: Value = serde_json::from_str(line).unwrap();
            // How long a game took is no part of what it was.
            record["data"]["duration_ms"] = Value::Null;
            record["data"].take()
        })
        .collect()
}

fn leaderboard(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("leaderboard.json")).unwrap()).unwrap()
}

/// The leaderboard row of `bot`, without its ratings (they depend on every game).
fn row(board: &Value, bot: &str) -> Value {
    let mut row = board["leaderboard"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["name"] == bot)
        .unwrap_or_else(|| panic!("no row for {bot}"))
        .clone();
    for rating in ["rank", "elo", "elo_low", "elo_high"] {
        row.as_object_mut().unwrap().remove(rating);
    }
    row
}

#[test]
fn a_gauntlet_plays_exactly_the_bots_games_of_the_whole_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let file = repo().join(SMALL);
    run_ok(dir.path(), &file, &["--out", "whole"]);
    run_ok(
        dir.path(),
        &file,
        &["--out", "gauntlet", "--gauntlet", "hunter"],
    );

    let with_hunter: Vec<Value> = games(&dir.path().join("whole"))
        .into_iter()
        .filter(|game| {
            game["seats"]
                .as_array()
                .unwrap()
                .iter()
                .any(|seat| seat["bot"] == "hunter")
        })
        .collect();
    let mut gauntlet = games(&dir.path().join("gauntlet"));
    gauntlet.sort_by_key(|game| game["index"].as_u64());
    let mut with_hunter = with_hunter;
    with_hunter.sort_by_key(|game| game["index"].as_u64());
    // Two opponents, both sides, two games per pair.
    assert_eq!(gauntlet.len(), 4);
    assert_eq!(gauntlet, with_hunter, "the same games, seeds and results");

    let (whole, board) = (
        leaderboard(&dir.path().join("whole")),
        leaderboard(&dir.path().join("gauntlet")),
    );
    assert_eq!(row(&board, "hunter"), row(&whole, "hunter"));
    assert_eq!(board["total_games"], 4);
    let pairs_of = |board: &Value| -> Vec<Value> {
        board["pairwise"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|pair| pair["bot"] == "hunter")
            .map(|pair| {
                let mut pair = pair.clone();
                pair.as_object_mut().unwrap().remove("superiority");
                pair
            })
            .collect()
    };
    assert_eq!(pairs_of(&board), pairs_of(&whole));
    assert_eq!(pairs_of(&board).len(), 2);
}

#[test]
fn a_gauntlet_resumes_only_as_the_same_gauntlet() {
    let dir = tempfile::tempdir().unwrap();
    let file = repo().join(SMALL);
    run_ok(dir.path(), &file, &["--out", "g", "--gauntlet", "hunter"]);
    let file = file.to_str().unwrap();
    let output = arena(
        dir.path(),
        &["run", file, "--resume", "g", "--gauntlet", "bomber"],
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the gauntlet is `hunter` in the journal but `bomber` now"),
        "{stderr}"
    );
    let output = arena(dir.path(), &["run", file, "--resume", "g"]);
    assert_eq!(output.status.code(), Some(2));
    // The standings of a gauntlet's journal count its own games.
    let output = arena(dir.path(), &["standings", "g", "--format", "json"]);
    assert!(output.status.success());
    let board: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(board["games_played"], 4);
    assert_eq!(board["total_games"], 4);
}

#[test]
fn a_gauntlet_of_a_game_of_all_bots_or_of_no_such_bot_is_refused_before_anything_starts() {
    let dir = tempfile::tempdir().unwrap();
    let eggs = repo().join("tournaments/eggs.toml");
    let petri = repo().join(SMALL);
    for (file, bot, why) in [
        (
            &eggs,
            "mapper",
            "every game of this tournament already has every bot",
        ),
        (&petri, "nobody", "no bot is named `nobody`"),
    ] {
        let output = arena(
            dir.path(),
            &[
                "run",
                file.to_str().unwrap(),
                "--gauntlet",
                bot,
                "--out",
                "r",
            ],
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(why), "{stderr}");
        assert!(!dir.path().join("r").exists(), "a results folder was made");
    }
}
