//! `arena match`: a tournament from the command line, played and kept like a file's.

use crate::support::{arena, repo, write_toml};

#[test]
fn a_match_plays_as_the_same_tournament_file_would_and_keeps_that_file() {
    let dir = tempfile::tempdir().unwrap();
    let bots = repo().join("bots/petri");
    let command = |bot: &str| format!("/usr/bin/python3 -S -I {}/{bot}.py", bots.display());
    let output = arena(
        dir.path(),
        &[
            "match",
            "petri",
            "--bot",
            &format!("hunter={}", command("hunter")),
            "--bot",
            &format!("grower={}", command("grower")),
            "--games",
            "2",
            "--option",
            "turns=20",
            "--option",
            "width = 12",
            "--out",
            "m",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("hunter"));

    let text = format!(
        "game = \"petri\"\ngames = 2\n[options]\nturns = 20\nwidth = 12\n\
         [[bots]]\nname = \"hunter\"\ncommand = {:?}\n\
         [[bots]]\nname = \"grower\"\ncommand = {:?}\n",
        command("hunter"),
        command("grower")
    );
    let file = write_toml(dir.path(), "t.toml", &text);
    let output = arena(dir.path(), &["run", file.to_str().unwrap(), "--out", "f"]);
    assert!(output.status.success());
    let board = |folder: &str| std::fs::read(dir.path().join(folder).join("leaderboard.json"));
    assert_eq!(board("m").unwrap(), board("f").unwrap());

    // The kept file plays the match again.
    let kept = dir.path().join("m/match.toml");
    let output = arena(
        dir.path(),
        &["run", kept.to_str().unwrap(), "--out", "again"],
    );
    assert!(output.status.success());
    assert_eq!(board("again").unwrap(), board("m").unwrap());
}

#[test]
fn every_problem_of_a_match_is_said_at_once_and_nothing_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let output = arena(
        dir.path(),
        &[
            "match",
            "petri",
            "--bot",
            "a=no-such-program",
            "--option",
            "colour=red",
            "--out",
            "m",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "arena match: petri needs at least 2 bots, 1 given (one --bot NAME=COMMAND each)"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("arena match: bot `a`: program `no-such-program` not found"),
        "{stderr}"
    );
    assert!(
        stderr.contains("arena match: unknown field `colour`, expected one of `width`"),
        "{stderr}"
    );
    assert!(!dir.path().join("m").exists());
    let output = arena(dir.path(), &["match", "petri", "--bot", "nameless"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("expected NAME=COMMAND"));
}

#[test]
fn the_kept_file_alone_resumes_a_match_with_its_seed_in_a_folder_named_through_dot_dot() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let bots = repo().join("bots/petri");
    let bot = |name: &str| format!("{name}=/usr/bin/python3 -S -I {}/{name}.py", bots.display());
    let (hunter, grower) = (bot("hunter"), bot("grower"));
    let args = ["match", "petri", "--bot", &hunter, "--bot", &grower];
    let played = arena(
        dir.path(),
        &[
            &args[..],
            &["--games", "2", "--seed", "7", "--out", "sub/../m"],
        ]
        .concat(),
    );
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );

    // Before the folder existed, the match named it through `..`; now it is canonical.
    let resumed = arena(dir.path(), &["run", "m/match.toml", "--resume", "m"]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(resumed.stdout, played.stdout);
}

/// A match takes a competition's limits as flags and keeps them in its file.
#[test]
fn a_matchs_limits_are_applied_and_kept_in_its_file() {
    let dir = tempfile::tempdir().unwrap();
    // Its species line is 5 bytes and a newline: over a 4-byte cap, the reply is refused.
    let bot = "/bin/sh -c 'echo 5 6 1'";
    let output = arena(
        dir.path(),
        &[
            "match",
            "petri",
            "--bot",
            &format!("a={bot}"),
            "--bot",
            &format!("b={bot}"),
            "--games",
            "1",
            "--max-reply-bytes",
            "4",
            "--cpu-seconds",
            "30",
            "--out",
            "m",
            "--format",
            "json",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let board: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let reasons = &board["leaderboard"][0]["invalid_reasons"];
    assert_eq!(reasons["reply over the size cap"], 1, "{board}");
    let kept = std::fs::read_to_string(dir.path().join("m/match.toml")).unwrap();
    assert!(
        kept.contains("cpu_seconds = 30\nmax_reply_bytes = 4\n") && !kept.contains("memory_mb"),
        "{kept}"
    );
}
