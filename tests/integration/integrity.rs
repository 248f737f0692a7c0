//! Results that cannot be forged or lost: a journal is checked against its own tournament's
//! schedule wherever it is read (`--resume`, `standings`, `merge`), and a results folder
//! serves one run at a time.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::{arena, repo, run_ok, write_toml};

const SMALL: &str = "tests/data/petri-small.toml";

/// The lines of the journal in `dir/out`.
fn journal_lines(dir: &Path, out: &str) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join(out).join("journal.jsonl")).unwrap();
    text.lines().map(str::to_owned).collect()
}

/// Writes `lines` as the journal of `dir/out`.
fn write_journal(dir: &Path, out: &str, lines: &[String]) {
    std::fs::write(dir.join(out).join("journal.jsonl"), lines.join("\n") + "\n").unwrap();
}

/// Game line `line` (0 is the header) with its first seat's bot renamed `to`.
fn renamed(lines: &[String], line: usize, to: &str) -> String {
    let mut record: serde_json::Value = serde_json::from_str(&lines[line]).unwrap();
    record["data"]["seats"][0]["bot"] = to.into();
    record.to_string()
}

#[test]
fn standings_leave_out_forged_and_broken_lines_name_them_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    run_ok(dir, &repo().join(SMALL), &["--out", "r"]);
    let mut lines = journal_lines(dir, "r");
    lines[2] = renamed(&lines, 2, "ghost");
    let mut beyond: serde_json::Value = serde_json::from_str(&lines[3]).unwrap();
    beyond["data"]["index"] = 6.into();
    lines.insert(4, "this is not a record".into());
    lines.push(beyond.to_string());
    write_journal(dir, "r", &lines);

    let output = arena(dir, &["standings", "r/journal.jsonl", "--format", "json"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    for (line, why) in [
        (3, "seats `ghost`"),
        (5, "not a journal record"),
        (9, "game 6 does not exist: the tournament has 6 games"),
    ] {
        assert!(
            stderr.contains(&format!("r/journal.jsonl:{line}: ")) && stderr.contains(why),
            "line {line}: {stderr}"
        );
    }
    let board: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(board["games_played"], 5, "{board}");
    assert!(!String::from_utf8_lossy(&output.stdout).contains("ghost"));

    // With -q the lines are not said, but why the exit status is 2 is.
    let quiet = arena(dir, &["-q", "standings", "r/journal.jsonl"]);
    let stderr = String::from_utf8_lossy(&quiet.stderr);
    assert_eq!(quiet.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "warning: 3 lines of r/journal.jsonl are not games of its tournament; the standings \
         leave them out (each is named above with why, unless -q)\n"
    );
}

/// The leaderboard given where the journal is meant is named as what it is.
#[test]
fn standings_of_a_leaderboard_say_it_is_not_a_journal() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    run_ok(dir, &repo().join(SMALL), &["--out", "r"]);
    let output = arena(dir, &["standings", "r/leaderboard.json"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "r/leaderboard.json:1: not a journal record: this is a run's leaderboard \
             (`leaderboard.json`), not its journal: give the results folder, or the \
             `journal.jsonl` in it"
        ),
        "{stderr}"
    );
}

/// A journal with a game recorded twice, as by `cat`: the same record again counts once and
/// says nothing; a record of the same game with the result turned round is named, its first
/// record counts, exit status 2, and a resume refuses the journal.
#[test]
fn a_game_recorded_again_with_another_result_is_named_and_the_first_counts() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let honest = run_ok(
        dir,
        &repo().join(SMALL),
        &["--out", "r", "--format", "json"],
    );
    let mut lines = journal_lines(dir, "r");
    let standings = |dir: &Path| arena(dir, &["standings", "r/journal.jsonl", "--format", "json"]);
    lines.extend(lines[1..].to_vec());
    write_journal(dir, "r", &lines);
    let again = standings(dir);
    assert_eq!(again.status.code(), Some(0), "{again:?}");
    assert_eq!(again.stdout, honest.stdout);

    let won = (1..lines.len())
        .find(|&line| {
            let record: serde_json::Value = serde_json::from_str(&lines[line]).unwrap();
            let seats = &record["data"]["seats"];
            seats[0]["result"] != seats[1]["result"]
        })
        .expect("a game that one side won");
    let mut turned: serde_json::Value = serde_json::from_str(&lines[won]).unwrap();
    let seats = turned["data"]["seats"].as_array_mut().unwrap();
    let (score, result) = (seats[0]["score"].clone(), seats[0]["result"].clone());
    seats[0]["score"] = seats[1]["score"].clone();
    seats[0]["result"] = seats[1]["result"].clone();
    seats[1]["score"] = score;
    seats[1]["result"] = result;
    lines.push(turned.to_string());
    write_journal(dir, "r", &lines);
    let forged = standings(dir);
    let stderr = String::from_utf8_lossy(&forged.stderr);
    assert_eq!(forged.status.code(), Some(2), "{stderr}");
    let named = format!(
        "r/journal.jsonl:{}: game {} is recorded again, with another result than at line {}",
        lines.len(),
        turned["data"]["index"],
        won + 1
    );
    assert!(stderr.contains(&named), "{stderr}");
    assert_eq!(stderr.matches("recorded again").count(), 1, "{stderr}");
    assert_eq!(forged.stdout, honest.stdout);

    let file = repo().join(SMALL);
    let resumed = arena(dir, &["run", file.to_str().unwrap(), "--resume", "r"]);
    assert_eq!(resumed.status.code(), Some(2), "{resumed:?}");
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("recorded again"));
}

#[test]
fn a_resume_of_a_forged_journal_is_refused_and_changes_no_byte() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    run_ok(dir, &repo().join(SMALL), &["--out", "r"]);
    let mut lines = journal_lines(dir, "r");
    lines.truncate(4);
    lines[3] = renamed(&lines, 3, "ghost");
    // And a torn last line, which an accepted resume would cut.
    let text = lines.join("\n") + "\n{\"type\":\"game\",\"da";
    let journal = dir.join("r/journal.jsonl");
    std::fs::write(&journal, &text).unwrap();
    let file = repo().join(SMALL);
    let output = arena(dir, &["run", file.to_str().unwrap(), "--resume", "r"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("r/journal.jsonl:4: game"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), text);
}

#[test]
fn a_merge_refuses_a_shard_with_a_ghost_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    for shard in ["1/2", "2/2"] {
        let out = format!("s{}", &shard[..1]);
        run_ok(dir, &repo().join(SMALL), &["--shard", shard, "--out", &out]);
    }
    let mut lines = journal_lines(dir, "s2");
    lines[1] = renamed(&lines, 1, "ghost");
    write_journal(dir, "s2", &lines);
    let output = arena(dir, &["merge", "s1", "s2", "--out", "merged"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("s2/journal.jsonl:2: game"), "{stderr}");
    assert!(!dir.join("merged").exists());
}

#[test]
fn a_results_folder_serves_one_run_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let script = repo().join("tests/bots/loop.sh").display().to_string();
    // A bot whose every reply is late: the first run is still going when the others try.
    let text = format!(
        "game = \"petri\"\ngames = 4\n[options]\nturns = 50\n\
         [[bots]]\nname = \"slow\"\ncommand = [\"/bin/sh\", {script:?}, \"late\"]\n\
         [[bots]]\nname = \"quick\"\ncommand = [\"/bin/sh\", {script:?}]\n"
    );
    write_toml(dir, "t.toml", &text);
    let mut first = crate::support::arena_command()
        .args(["run", "t.toml", "--out", "r"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal = dir.join("r/journal.jsonl");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !journal.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let resumed = arena(dir, &["run", "t.toml", "--resume", "r"]);
    let fresh = arena(dir, &["run", "t.toml", "--out", "r"]);
    // SAFETY: plain kill(2) of our own child.
    unsafe { libc::kill(first.id() as i32, libc::SIGINT) };
    assert_eq!(first.wait().unwrap().code(), Some(130));

    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error: r is in use by another arena run"),
        "{stderr}"
    );
    let stderr = String::from_utf8_lossy(&fresh.stderr);
    assert_eq!(fresh.status.code(), Some(2), "{stderr}");
    assert!(
        stderr
            .contains("r already holds the journal of a run: give --out another folder (or, to continue that run, `arena run` it with --resume r)"),
        "{stderr}"
    );
    // Once the first run is over, the folder is free: a resume gets as far as the journal
    // (and, with another seed, no game is played).
    let again = arena(dir, &["run", "t.toml", "--resume", "r", "--seed", "9"]);
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(stderr.contains("belongs to another tournament"), "{stderr}");
}

/// `arena` in `dir` with `args`, killed if it has not ended after `limit`: `None` then.
fn arena_within(dir: &Path, args: &[&str], limit: Duration) -> Option<std::process::Output> {
    let mut child = crate::support::arena_command()
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Some(child.wait_with_output().unwrap())
}

#[test]
fn standings_of_an_endless_file_end_at_once_with_its_first_line_named() {
    let dir = tempfile::tempdir().unwrap();
    let output = arena_within(
        dir.path(),
        &["standings", "/dev/zero"],
        Duration::from_secs(30),
    )
    .expect("standings of /dev/zero ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("/dev/zero:1: not a journal record: a line of more than 64 MiB"),
        "{stderr}"
    );
}

/// Game line `line` of `lines` with its first seat's `field` set to `value`.
fn edited(lines: &[String], line: usize, field: &str, value: serde_json::Value) -> String {
    let mut record: serde_json::Value = serde_json::from_str(&lines[line]).unwrap();
    record["data"]["seats"][0][field] = value;
    record.to_string()
}

/// The tester's edit: a Petri seat with 100 invalid replies in 8 requests. Every reader of
/// the journal refuses it, naming its line, and a resume changes no byte.
#[test]
fn more_invalid_replies_than_requests_are_refused_wherever_the_journal_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let file = repo().join(SMALL);
    run_ok(dir, &file, &["--out", "r"]);
    for shard in ["1/2", "2/2"] {
        let out = format!("s{}", &shard[..1]);
        run_ok(dir, &file, &["--shard", shard, "--out", &out]);
    }
    for out in ["r", "s1"] {
        let mut lines = journal_lines(dir, out);
        lines.truncate(3);
        lines[2] = edited(&lines, 2, "invalid_replies", 100.into());
        let mut record: serde_json::Value = serde_json::from_str(&lines[2]).unwrap();
        record["data"]["seats"][0]["requests"] = 8.into();
        lines[2] = record.to_string();
        write_journal(dir, out, &lines);
    }
    let why = "journal.jsonl:3: game ";
    let refused = |output: std::process::Output| {
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(why) && stderr.contains("100 invalid replies in 8 requests"),
            "{stderr}"
        );
    };
    refused(arena(dir, &["standings", "r"]));
    refused(arena(dir, &["report", "r"]));
    refused(arena(dir, &["merge", "s1", "s2", "--out", "merged"]));
    assert!(!dir.join("merged").exists());
    let before = std::fs::read(dir.join("r/journal.jsonl")).unwrap();
    refused(arena(
        dir,
        &["run", file.to_str().unwrap(), "--resume", "r"],
    ));
    assert_eq!(std::fs::read(dir.join("r/journal.jsonl")).unwrap(), before);
}

/// The tester's edits of a mean-scored game (Slime on a 6x6 board: at most 36 cells a seat):
/// scores of `i64::MAX` in two lines once made the mean -1; such scores, and any above the
/// board or below zero, are left out of standings and refused by a resume and a reuse.
#[test]
fn scores_no_game_of_the_tournament_gives_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let file = repo().join("tests/data/slime-small.toml");
    run_ok(dir, &file, &["--out", "r"]);
    let mut lines = journal_lines(dir, "r");
    assert!(
        lines[0].contains("\"bounds\":{\"min_score\":0,\"max_score\":36,"),
        "{}",
        lines[0]
    );
    for (line, score) in [(1, i64::MAX), (2, i64::MAX), (3, 37), (4, -1)] {
        lines[line] = edited(&lines, line, "score", score.into());
    }
    write_journal(dir, "r", &lines);
    let standings = arena(dir, &["standings", "r", "--format", "json"]);
    let stderr = String::from_utf8_lossy(&standings.stderr);
    assert_eq!(standings.status.code(), Some(2), "{stderr}");
    for (line, score) in [(2, i64::MAX), (3, i64::MAX), (4, 37), (5, -1)] {
        let game: serde_json::Value = serde_json::from_str(&lines[line - 1]).unwrap();
        let (index, bot) = (&game["data"]["index"], &game["data"]["seats"][0]["bot"]);
        let named = format!(
            "r/journal.jsonl:{line}: game {index} gives `{}` a score of {score}, but a seat of \
             this tournament's games scores from 0 to 36",
            bot.as_str().unwrap()
        );
        assert!(stderr.contains(&named), "{named}\n{stderr}");
    }
    let board: serde_json::Value = serde_json::from_slice(&standings.stdout).unwrap();
    assert_eq!(board["games_played"], 0, "{board}");

    let file = file.to_str().unwrap();
    let before = std::fs::read(dir.join("r/journal.jsonl")).unwrap();
    let resumed = arena(dir, &["run", file, "--resume", "r"]);
    assert_eq!(resumed.status.code(), Some(2), "{resumed:?}");
    assert_eq!(std::fs::read(dir.join("r/journal.jsonl")).unwrap(), before);
    let reused = arena(dir, &["run", file, "--reuse", "r", "--out", "fresh"]);
    let stderr = String::from_utf8_lossy(&reused.stderr);
    assert_eq!(reused.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("r/journal.jsonl:2: game"), "{stderr}");
    assert!(!dir.join("fresh/journal.jsonl").exists());
}
