//! The `arena` binary end to end: broken tournament files, hostile bots, determinism.

use std::path::Path;

use serde_json::Value;

use crate::support::{arena, repo, surviving_groups, write_toml};

/// A tournament of two test bots on a small board with few turns: each bot is a script in
/// `tests/bots` and its arguments, run by `/bin/sh` in `dir`.
fn hostile_toml(dir: &Path, first: &[&str], second: &[&str]) -> String {
    let command = |words: &[&str]| {
        let script = repo().join("tests/bots").join(words[0]);
        let mut all = vec!["/bin/sh".to_owned(), script.display().to_string()];
        all.extend(words[1..].iter().map(|w| w.to_string()));
        format!("{all:?}")
    };
    format!(
        r#"game = "petri"
games = 2
timeout_ms = 300
setup_timeout_ms = 5000

[options]
width = 5
height = 3
turns = 4

[[bots]]
name = "first"
command = {first}
dir = "{dir}"

[[bots]]
name = "second"
command = {second}
dir = "{dir}"
"#,
        first = command(first),
        second = command(second),
        dir = dir.display(),
    )
}

/// Runs a tournament file with results in `dir/results` (unless `extra` names an `--out`)
/// and returns the parsed JSON leaderboard.
fn run_json(dir: &Path, file: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["run", file.to_str().unwrap(), "--format", "json"];
    if !extra.contains(&"--out") {
        args.extend(["--out", "results"]);
    }
    args.extend_from_slice(extra);
    let output = arena(dir, &args);
    assert!(
        output.status.success(),
        "arena failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON document")
}

fn standing<'a>(board: &'a Value, name: &str) -> &'a Value {
    board["leaderboard"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("{name} is on the leaderboard"))
}

/// Plays `mode` of `hostile.sh` against a resting LOOP bot and returns the hostile bot's
/// standing after checking that the games finished and no process was left behind.
fn hostile_standing(mode: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let text = hostile_toml(dir.path(), &["hostile.sh", mode], &["loop.sh"]);
    let file = write_toml(dir.path(), "t.toml", &text);
    let board = run_json(dir.path(), &file, &[]);
    assert_eq!(board["games_played"], 2);
    let survivors = surviving_groups(&dir.path().join("pids"));
    assert!(survivors.is_empty(), "{mode}: left running: {survivors:?}");
    standing(&board, "first").clone()
}

#[test]
fn a_bot_that_hangs_times_out_and_rests() {
    let first = hostile_standing("hang");
    assert!(first["timeouts"].as_u64().unwrap() > 0, "{first}");
}

#[test]
fn a_bot_that_crashes_after_printing_is_counted_but_its_reply_kept() {
    let first = hostile_standing("crash-after-print");
    assert!(first["crashes"].as_u64().unwrap() > 0, "{first}");
    assert_eq!(
        first["invalid_replies"], 0,
        "REST was a valid reply: {first}"
    );
}

#[test]
fn a_bot_that_prints_nothing_gets_invalid_replies() {
    let first = hostile_standing("silent");
    assert!(first["invalid_replies"].as_u64().unwrap() > 0, "{first}");
    assert_eq!(first["crashes"], 0);
}

#[test]
fn a_bot_that_never_reads_stdin_is_not_an_error() {
    let first = hostile_standing("ignore-stdin");
    assert_eq!(first["crashes"], 0, "{first}");
    assert!(
        first["invalid_replies"].as_u64().unwrap() > 0,
        "`5 6 1` is no action: {first}"
    );
}

#[test]
fn a_bot_that_prints_megabytes_is_cut_off() {
    let first = hostile_standing("flood");
    assert!(first["invalid_replies"].as_u64().unwrap() > 0, "{first}");
}

#[test]
fn a_bot_that_leaves_a_child_holding_stdout_loses_the_child() {
    let first = hostile_standing("grandchild");
    assert_eq!(first["timeouts"], 0, "{first}");
    assert_eq!(first["invalid_replies"], 0, "{first}");
}

/// Plays one Slime game on a 5x5 board: `hostile.sh <mode>` in seat 1 against three sample
/// bots. Returns the leaderboard after checking that the game finished and no process was
/// left behind.
fn slime_with_hostile_bot(mode: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let script = repo().join("tests/bots/hostile.sh");
    let samples = repo().join("bots/slime");
    let mut text = format!(
        "game = \"slime\"\ntimeout_ms = 300\n[options]\nsize = 5\nmax_turns = 40\n\
         [[bots]]\nname = \"hostile\"\ncommand = [\"/bin/sh\", {script:?}, {mode:?}]\ndir = {dir:?}\n",
        script = script.display().to_string(),
        dir = dir.path().display().to_string(),
    );
    for name in ["greedy", "merger", "random_spread"] {
        text += &format!(
            "[[bots]]\nname = \"{name}\"\ncommand = \"/usr/bin/python3 -S -I {name}.py\"\ndir = {:?}\n",
            samples.display().to_string()
        );
    }
    let file = write_toml(dir.path(), "t.toml", &text);
    let board = run_json(dir.path(), &file, &[]);
    assert_eq!(board["games_played"], 1, "{board}");
    let survivors = surviving_groups(&dir.path().join("pids"));
    assert!(survivors.is_empty(), "{mode}: left running: {survivors:?}");
    board
}

#[test]
fn a_slime_bot_that_hangs_crashes_or_prints_garbage_passes_and_the_game_goes_on() {
    for (mode, counter) in [
        ("hang", "timeouts"),
        ("crash-silently", "crashes"),
        ("garbage", "invalid_replies"),
    ] {
        let board = slime_with_hostile_bot(mode);
        let hostile = standing(&board, "hostile");
        assert!(hostile[counter].as_u64().unwrap() > 0, "{mode}: {hostile}");
        let others: f64 = ["greedy", "merger", "random_spread"]
            .iter()
            .map(|name| standing(&board, name)["score"].as_f64().unwrap())
            .sum();
        assert!(others > 3.0, "{mode}: the other bots kept moving: {board}");
    }
}

#[test]
fn a_loop_bot_that_hangs_mid_game_times_out_once_and_rests_afterwards() {
    let dir = tempfile::tempdir().unwrap();
    let text = hostile_toml(dir.path(), &["loop.sh", "hang", "2"], &["loop.sh"]);
    let file = write_toml(dir.path(), "t.toml", &text);
    let board = run_json(dir.path(), &file, &[]);
    let first = standing(&board, "first");
    assert_eq!(first["timeouts"], 2, "one per game: {first}");
    assert!(surviving_groups(&dir.path().join("pids")).is_empty());
}

#[test]
fn a_loop_bot_that_exits_mid_game_is_a_crash_once_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let text = hostile_toml(dir.path(), &["loop.sh", "exit", "1"], &["loop.sh"]);
    let file = write_toml(dir.path(), "t.toml", &text);
    let board = run_json(dir.path(), &file, &[]);
    assert_eq!(standing(&board, "first")["crashes"], 2);
    assert!(surviving_groups(&dir.path().join("pids")).is_empty());
}

#[test]
fn results_do_not_depend_on_the_number_of_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let file = repo().join("tests/data/petri-small.toml");
    let one = run_json(dir.path(), &file, &["--jobs", "1", "--out", "one"]);
    let two = run_json(dir.path(), &file, &["--jobs", "2", "--out", "two"]);
    assert_eq!(one, two);
    let bytes = |sub: &str| std::fs::read(dir.path().join(sub).join("leaderboard.json")).unwrap();
    assert_eq!(bytes("one"), bytes("two"));
}

/// Runs `tests/data/<name>.toml` and compares its JSON leaderboard with `<name>.json`
/// (rewritten instead when `UPDATE_GOLDEN` is set; see tests/data/README.md).
fn assert_golden_leaderboard(name: &str) {
    let dir = tempfile::tempdir().unwrap();
    let data = repo().join("tests/data");
    let board = run_json(dir.path(), &data.join(format!("{name}.toml")), &[]);
    let golden_path = data.join(format!("{name}.json"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let text = serde_json::to_string_pretty(&board).unwrap() + "\n";
        std::fs::write(&golden_path, text).unwrap();
    }
    let golden: Value =
        serde_json::from_str(&std::fs::read_to_string(golden_path).unwrap()).unwrap();
    assert_eq!(
        board, golden,
        "to accept a deliberate change, see tests/data/README.md"
    );
}

#[test]
fn the_sample_bots_reproduce_the_golden_leaderboard() {
    assert_golden_leaderboard("petri-small");
}

#[test]
fn the_slime_sample_bots_reproduce_the_golden_leaderboard() {
    assert_golden_leaderboard("slime-small");
}

/// Broken tournament files: each gives exit status 2, one line naming the file and the
/// place, nothing on stdout, and no results folder.
#[test]
fn broken_tournament_files_are_rejected_before_any_game() {
    let valid_bots = r#"
[[bots]]
name = "a"
command = "/bin/sh -c true"
[[bots]]
name = "b"
command = "/bin/sh -c true"
"#;
    let cases: &[(&str, String, &str)] = &[
        ("syntax error", "game = \"petri\nseed = 1\n".into(), "t.toml:1:"),
        ("unknown game", format!("game = \"slime-war\"\n{valid_bots}"), "t.toml:1:8: unknown game `slime-war` (expected one of: petri, slime)"),
        ("unknown key", format!("game = \"petri\"\ngmaes = 3\n{valid_bots}"), "t.toml:2:1: unknown field `gmaes`"),
        ("unknown option", format!("game = \"petri\"\n[options]\nwidht = 5\n{valid_bots}"), "t.toml:3:1: unknown field `widht`"),
        ("bad option type", format!("game = \"petri\"\n[options]\nwidth = \"big\"\n{valid_bots}"), "t.toml:3:9:"),
        ("bad option value", format!("game = \"petri\"\n[options]\nwidth = 2\n{valid_bots}"), "t.toml:2:1: options:"),
        ("missing program", "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"no-such-program-arena\"\n[[bots]]\nname = \"b\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:4:11: bot `a`: program `no-such-program-arena` not found in PATH"),
        ("duplicate names", "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:6:8: duplicate bot name `a`"),
        ("too few bots", "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:1:8: petri needs at least 2 bots"),
        ("too few slime bots", format!("game = \"slime\"\n{valid_bots}"), "t.toml:1:8: slime needs at least 4 bots, the file has 2 (add [[bots]] tables)"),
        ("zero games", format!("game = \"petri\"\ngames = 0\n{valid_bots}"), "t.toml:2:9: `games` must be at least 1"),
        ("negative timeout", format!("game = \"petri\"\ntimeout_ms = -5\n{valid_bots}"), "t.toml:2:14:"),
        ("missing folder", "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\ndir = \"nowhere\"\n[[bots]]\nname = \"b\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:5:7: bot `a`: `dir`"),
        ("unclosed quote", format!("game = \"petri\"\n[[bots]]\nname = \"q\"\ncommand = \"sh 'oops\"\n{valid_bots}"), "t.toml:4:11: bot `q`: `command` has an unclosed quote"),
    ];
    for (what, text, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        write_toml(dir.path(), "t.toml", text);
        let output = arena(dir.path(), &["run", "t.toml"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{what}: {stderr}");
        assert!(
            stderr.contains(expected),
            "{what}: expected `{expected}` in:\n{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{what}: one line:\n{stderr}");
        assert!(output.stdout.is_empty(), "{what}");
        assert!(
            !dir.path().join("arena-results").exists(),
            "{what}: no game may start"
        );
    }
}

#[test]
fn a_missing_tournament_file_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let output = arena(dir.path(), &["run", "absent.toml"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("error: absent.toml: cannot read the file:"),
        "{stderr}"
    );
}

#[test]
fn standings_reprints_the_leaderboard_of_a_journal() {
    let dir = tempfile::tempdir().unwrap();
    let text = hostile_toml(dir.path(), &["loop.sh"], &["loop.sh"]);
    let file = write_toml(dir.path(), "t.toml", &text);
    let board = run_json(dir.path(), &file, &[]);
    let journal = dir.path().join("results/journal.jsonl");
    let output = arena(
        dir.path(),
        &["standings", journal.to_str().unwrap(), "--format", "json"],
    );
    assert!(output.status.success());
    let again: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(board, again);
}

#[test]
fn relative_paths_resolve_against_the_tournament_file_from_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir_all(sub.join("bots")).unwrap();
    let loop_bot = std::fs::read(repo().join("tests/bots/loop.sh")).unwrap();
    let script = sub.join("bots/loop.sh");
    std::fs::write(&script, loop_bot).unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let text = "game = \"petri\"\ngames = 1\n[options]\nturns = 2\n\
        [[bots]]\nname = \"a\"\ncommand = \"./loop.sh\"\ndir = \"bots\"\n\
        [[bots]]\nname = \"b\"\ncommand = [\"/bin/sh\", \"loop.sh\"]\ndir = \"bots\"\n";
    write_toml(&sub, "t.toml", text);
    let output = arena(
        dir.path(),
        &["run", "sub/t.toml", "--format", "json", "--out", "results"],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let board: Value = serde_json::from_slice(&output.stdout).unwrap();
    for name in ["a", "b"] {
        assert_eq!(standing(&board, name)["crashes"], 0, "{board}");
        assert_eq!(standing(&board, name)["draws"], 1, "{board}");
    }
}
