//! Sharded runs: the shards of a tournament, merged, give byte for byte the leaderboard of a
//! run on one machine; a duplicate, missing or foreign shard is refused.

use std::path::Path;

use crate::support::{arena, repo, run_ok};

const SMALL: &str = "tests/data/petri-small.toml";

fn run(dir: &Path, extra: &[&str]) {
    run_ok(dir, &repo().join(SMALL), extra);
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn merged_shards_give_the_single_machine_leaderboard_and_bad_sets_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    run(dir, &["--out", "whole"]);
    for shard in ["1/3", "2/3", "3/3"] {
        let out = format!("shard-{}", &shard[..1]);
        run(dir, &["--shard", shard, "--out", &out]);
        let journal = String::from_utf8(read(&dir.join(&out).join("journal.jsonl"))).unwrap();
        let header = journal.lines().next().unwrap();
        let index = &shard[..1];
        assert!(
            header.contains(&format!("\"shard\":{{\"index\":{index},\"count\":3}}")),
            "{header}"
        );
        assert_eq!(journal.lines().count(), 1 + 2, "two of the six games");
    }

    let output = arena(
        dir,
        &[
            "merge", "shard-3", "shard-1", "shard-2", "--out", "merged", "--format", "json",
        ],
    );
    assert!(output.status.success(), "{output:?}");
    let whole = read(&dir.join("whole/leaderboard.json"));
    assert_eq!(read(&dir.join("merged/leaderboard.json")), whole);
    let again = arena(
        dir,
        &["merge", "shard-1", "shard-2", "shard-3", "--out", "merged"],
    );
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert_eq!(again.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "merged already holds a journal: give --out a new folder for the merged results"
        ) && !stderr.contains("--resume"),
        "{stderr}"
    );
    assert_eq!(output.stdout, whole, "the printed JSON is the file's");
    let standings = arena(
        dir,
        &["standings", "merged/journal.jsonl", "--format", "json"],
    );
    assert_eq!(
        standings.stdout, whole,
        "the merged journal is a whole run's"
    );

    let refused = |dirs: &[&str], problem: &str| {
        let mut args = vec!["merge"];
        args.extend_from_slice(dirs);
        let output = arena(dir, &args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{dirs:?}: {stderr}");
        assert!(stderr.contains(problem), "{dirs:?}: {stderr}");
        assert!(output.stdout.is_empty(), "no leaderboard from a bad merge");
    };
    refused(&["shard-1", "shard-2"], "shard 3/3 is missing");
    refused(
        &["shard-1", "shard-2", "shard-3", "shard-2/journal.jsonl"],
        "shard 2/3 is given 2 times",
    );
    refused(
        &["shard-1", "shard-2", "shard-3", "whole"],
        "whole/journal.jsonl is a whole run, not a shard",
    );
    run(
        dir,
        &["--shard", "3/3", "--seed", "5", "--out", "other-seed"],
    );
    refused(
        &["shard-1", "shard-2", "other-seed"],
        "the seed is 5 here but 2014 in shard-1/journal.jsonl",
    );
    // A shard resumes only as itself; a refused resume creates nothing, replays folder included.
    let file = repo().join(SMALL);
    let file = file.to_str().unwrap();
    let wrong = arena(dir, &["run", file, "--shard", "1/3", "--resume", "shard-2"]);
    let stderr = String::from_utf8_lossy(&wrong.stderr);
    assert_eq!(wrong.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the shard is 2/3 in the journal but 1/3 now"),
        "{stderr}"
    );
    let nothing = arena(dir, &["run", file, "--replays", "--resume", "nothing"]);
    assert_eq!(nothing.status.code(), Some(2));
    assert!(!dir.join("nothing").exists());
    // A shard cut short (its last game lost) is unfinished, not silently merged.
    let journal = dir.join("shard-2/journal.jsonl");
    let text = String::from_utf8(read(&journal)).unwrap();
    let kept: Vec<&str> = text.lines().take(2).collect();
    std::fs::write(&journal, kept.join("\n") + "\n").unwrap();
    refused(&["shard-1", "shard-2", "shard-3"], "has 1 of its 2 games");
}

#[test]
fn the_slurm_script_resubmits_one_task_as_its_shard_of_the_whole_array() {
    let dir = tempfile::tempdir().unwrap();
    // An `arena` that only says how it was called.
    let fake = crate::support::write_toml(dir.path(), "arena", "#!/bin/sh\necho \"$@\"\n");
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let script = repo().join("deploy/slurm-array.sh");
    let submit = |task: &str, extra: &[(&str, &str)]| {
        std::process::Command::new("bash")
            .arg(&script)
            .current_dir(dir.path())
            .env("ARENA", &fake)
            .env("SLURM_ARRAY_TASK_ID", task)
            // `sbatch --array=3` makes an array of one task.
            .env("SLURM_ARRAY_TASK_COUNT", "1")
            .envs(extra.iter().copied())
            .output()
            .unwrap()
    };
    let resubmitted = submit("3", &[]);
    let args = String::from_utf8_lossy(&resubmitted.stdout);
    assert!(
        args.contains("--shard 3/8 --out results/petri/shard-3"),
        "{args}"
    );
    let wider = submit("12", &[("SHARDS", "16")]);
    assert!(String::from_utf8_lossy(&wider.stdout).contains("--shard 12/16"));
    let outside = submit("9", &[]);
    assert_eq!(outside.status.code(), Some(2));
}

/// The tester's repro: shard 1/2, a bot's file edited, shard 2/2. Their merge would rank two
/// versions of the bot as one; it is refused, naming the bot, and writes nothing.
#[test]
fn shards_of_two_versions_of_a_bot_are_not_merged() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let file = crate::support::petri_in_own_folders(dir, "three.toml", crate::support::THREE);
    run_ok(dir, &file, &["--shard", "1/2", "--out", "s1"]);
    let script = dir.join("hunter/hunter.py");
    let edited = std::fs::read_to_string(&script).unwrap() + "\n# version 2\n";
    std::fs::write(&script, edited).unwrap();
    run_ok(dir, &file, &["--shard", "2/2", "--out", "s2"]);
    let output = arena(dir, &["merge", "s1", "s2", "--out", "merged"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("bot `hunter` is not the same in every shard: digest ")
            && stderr.contains("(s1/journal.jsonl)")
            && stderr.contains("(s2/journal.jsonl)")
            && !stderr.contains("bot `grower`"),
        "{stderr}"
    );
    assert!(!dir.join("merged").exists());
}

/// A shard is finished when its own games are played, and says so: `arena run` and
/// `arena standings` count its games, `leaderboard.json` adds the shard and keeps the
/// tournament's total.
#[test]
fn a_shard_counts_its_own_games() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    // The six games of the small tournament, split in 4: shard 1 has games 0 and 4.
    let ran = run_ok(dir, &repo().join(SMALL), &["--shard", "1/4", "--out", "s1"]);
    let first = "petri: 2 of 2 games of shard 1/4 played, seed 2014\n";
    assert!(String::from_utf8_lossy(&ran.stdout).starts_with(first));
    let standings = arena(dir, &["standings", "s1"]);
    assert!(String::from_utf8_lossy(&standings.stdout).starts_with(first));
    let board: serde_json::Value =
        serde_json::from_slice(&read(&dir.join("s1/leaderboard.json"))).unwrap();
    assert_eq!(
        (
            board["games_played"].as_u64(),
            board["total_games"].as_u64()
        ),
        (Some(2), Some(6))
    );
    assert_eq!(
        board["shard"],
        serde_json::json!({"index": 1, "count": 4, "games": 2})
    );
}

/// A shard beyond the games (more shards than games, as in a Slurm array larger than the
/// tournament) plays nothing with a warning saying why, and succeeds: a merge waiting on the
/// array still runs, and takes its empty journal.
#[test]
fn a_shard_without_games_says_why_and_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let output = arena(
        dir,
        &[
            "run",
            repo().join(SMALL).to_str().unwrap(),
            "--shard",
            "7/8",
            "--out",
            "s7",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "WARN shard 7/8 has no games: the tournament has 6 games, so at most 6 shards have any"
        ),
        "{stderr}"
    );
    assert!(
        String::from_utf8_lossy(&output.stdout)
            .starts_with("petri: 0 of 0 games of shard 7/8 played, seed 2014\n")
    );
    let mut shards: Vec<String> = (1..=8).map(|i| format!("m{i}")).collect();
    for (i, out) in shards.iter().enumerate() {
        let shard = format!("{}/8", i + 1);
        run(dir, &["--shard", &shard, "--out", out]);
    }
    shards.insert(0, "merge".into());
    let args: Vec<&str> = shards.iter().map(String::as_str).collect();
    let merged = arena(dir, &args);
    assert!(merged.status.success(), "{merged:?}");
    assert!(String::from_utf8_lossy(&merged.stdout).starts_with("petri: 6 of 6 games played"));
}
