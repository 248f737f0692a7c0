//! The `arena` binary end to end: broken tournament files, hostile bots, determinism.

use std::path::Path;

use serde_json::Value;

use crate::support::{Tag, arena, repo, run_ok, write_toml};

/// A tournament of two test bots on a small board with few turns: each bot is a script in
/// `tests/bots` and its arguments, run by `/bin/sh` in `dir`, tagged with `dir`'s [`Tag`].
fn hostile_toml(dir: &Path, first: &[&str], second: &[&str]) -> String {
    let tag = Tag::new(dir);
    let command = |words: &[&str]| {
        let script = repo().join("tests/bots").join(words[0]);
        let mut all = vec!["/bin/sh".to_owned(), script.display().to_string()];
        all.extend(words[1..].iter().map(|w| w.to_string()));
        format!("{:?}", tag.command(&all))
    };
    format!(
        r#"game = "petri"
games = 2
timeout_ms = 1000
setup_timeout_ms = 5000
memory_mb = 256

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
pub(crate) fn run_json(dir: &Path, file: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["--format", "json"];
    if !extra.contains(&"--out") {
        args.extend(["--out", "results"]);
    }
    args.extend_from_slice(extra);
    let output = run_ok(dir, file, &args);
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON document")
}

pub(crate) fn standing<'a>(board: &'a Value, name: &str) -> &'a Value {
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
    let survivors = Tag::new(dir.path()).survivors();
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

/// Every kind of misbehaviour, in one-shot and in LOOP mode, against a well-behaved LOOP bot:
/// both games finish, the failure lands in the expected counter, and nothing is left running.
#[test]
fn every_hostile_bot_gets_the_fallback_and_leaves_nothing_behind() {
    let cases: &[(&[&str], &str)] = &[
        (&["hostile.sh", "late"], "timeouts"),
        (&["hostile.sh", "close-stdout"], "timeouts"),
        (&["hostile.sh", "crash-silently"], "crashes"),
        (&["hostile.sh", "memory"], "crashes"),
        (&["hostile.sh", "garbage"], "invalid_replies"),
        (&["hostile.sh", "children"], ""),
        (&["loop.sh", "hang", "1"], "timeouts"),
        (&["loop.sh", "late", "1"], "timeouts"),
        (&["loop.sh", "exit", "0"], "crashes"),
        (&["loop.sh", "no-newline", "1"], "crashes"),
        (&["loop.sh", "close-stdout", "1"], "crashes"),
        (&["loop.sh", "memory", "1"], "crashes"),
        (&["loop.sh", "flood", "1"], "invalid_replies"),
        (&["loop.sh", "garbage", "0"], "invalid_replies"),
        (&["loop.sh", "children", "0"], ""),
    ];
    for (bot, counter) in cases {
        let dir = tempfile::tempdir().unwrap();
        let text = hostile_toml(dir.path(), bot, &["loop.sh"]);
        let file = write_toml(dir.path(), "t.toml", &text);
        let started = std::time::Instant::now();
        let board = run_json(dir.path(), &file, &[]);
        assert_eq!(board["games_played"], 2, "{bot:?}");
        // Each game has a handful of requests of 1 s at most, plus start-up.
        assert!(
            started.elapsed().as_secs() < 20,
            "{bot:?} took {:?}",
            started.elapsed()
        );
        let first = standing(&board, "first");
        let counts = ["timeouts", "crashes", "invalid_replies"];
        for name in counts {
            let count = first[name].as_u64().unwrap();
            if name == *counter {
                assert!(count > 0, "{bot:?}: expected {name}: {first}");
            } else {
                assert_eq!(count, 0, "{bot:?}: unexpected {name}: {first}");
            }
        }
        assert_eq!(standing(&board, "second")["crashes"], 0, "{bot:?}");
        let survivors = Tag::new(dir.path()).survivors();
        assert!(survivors.is_empty(), "{bot:?}: left running: {survivors:?}");
    }
}

/// Bots flooding stdout (one-shot and LOOP) cost the runner no memory: replies are cut at
/// the cap. The runner reports its own peak memory in its last log line.
#[test]
fn floods_of_output_keep_the_runner_small() {
    for bot in [&["hostile.sh", "flood"][..], &["loop.sh", "flood", "0"]] {
        let dir = tempfile::tempdir().unwrap();
        let file = write_toml(
            dir.path(),
            "t.toml",
            &hostile_toml(dir.path(), bot, &["loop.sh"]),
        );
        let output = arena(
            dir.path(),
            &["run", file.to_str().unwrap(), "--out", "results"],
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        let peak: u64 = stderr
            .split("runner peak memory ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|mib| mib.parse().ok())
            .unwrap_or_else(|| panic!("no peak memory in:\n{stderr}"));
        assert!(peak < 64, "{bot:?}: runner peak memory {peak} MiB");
    }
}

/// Plays one Slime game on a 5x5 board: `hostile.sh <mode>` in seat 1 against three sample
/// bots. Returns the leaderboard after checking that the game finished and no process was
/// left behind.
fn slime_with_hostile_bot(mode: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let script = repo().join("tests/bots/hostile.sh");
    let samples = repo().join("bots/slime");
    let command = Tag::new(dir.path()).command(&[
        "/bin/sh".to_owned(),
        script.display().to_string(),
        mode.to_owned(),
    ]);
    let mut text = format!(
        "game = \"slime\"\ntimeout_ms = 300\n[options]\nsize = 5\nmax_turns = 40\n\
         [[bots]]\nname = \"hostile\"\ncommand = {command:?}\ndir = {dir:?}\n",
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
    let survivors = Tag::new(dir.path()).survivors();
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
    assert!(Tag::new(dir.path()).survivors().is_empty());
}

#[test]
fn a_loop_bot_that_exits_mid_game_is_a_crash_once_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let text = hostile_toml(dir.path(), &["loop.sh", "exit", "1"], &["loop.sh"]);
    let file = write_toml(dir.path(), "t.toml", &text);
    let board = run_json(dir.path(), &file, &[]);
    assert_eq!(standing(&board, "first")["crashes"], 2);
    assert!(Tag::new(dir.path()).survivors().is_empty());
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

/// Runs `tests/data/NAME.toml` and compares its JSON leaderboard with `tests/data/NAME.json`
/// and the other export formats of its journal with `NAME.txt` (table), `NAME.csv` and
/// `NAME.md`, or rewrites the golden files under `UPDATE_GOLDEN` (see tests/data/README.md).
fn assert_golden_leaderboard(name: &str) {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let hint = "to accept a deliberate change, see tests/data/README.md";
    let dir = tempfile::tempdir().unwrap();
    let file = repo().join(format!("tests/data/{name}.toml"));
    let board = run_json(dir.path(), &file, &[]);
    let golden_path = repo().join(format!("tests/data/{name}.json"));
    if update {
        let text = serde_json::to_string_pretty(&board).unwrap() + "\n";
        std::fs::write(&golden_path, text).unwrap();
    }
    let golden: Value =
        serde_json::from_str(&std::fs::read_to_string(golden_path).unwrap()).unwrap();
    assert_eq!(board, golden, "{hint}");
    for (format, extension) in [("table", "txt"), ("csv", "csv"), ("markdown", "md")] {
        let output = arena(
            dir.path(),
            &["standings", "results/journal.jsonl", "--format", format],
        );
        assert!(
            output.status.success(),
            "standings --format {format} failed"
        );
        let text = String::from_utf8(output.stdout).unwrap();
        let golden_path = repo().join(format!("tests/data/{name}.{extension}"));
        if update {
            std::fs::write(&golden_path, &text).unwrap();
        }
        let golden = std::fs::read_to_string(golden_path).unwrap();
        assert_eq!(text, golden, "--format {format}: {hint}");
    }
}

#[test]
fn the_sample_bots_reproduce_the_golden_leaderboard() {
    assert_golden_leaderboard("petri-small");
}

#[test]
fn the_slime_sample_bots_reproduce_the_golden_leaderboard() {
    assert_golden_leaderboard("slime-small");
}

#[test]
fn the_egg_hunt_sample_bots_reproduce_the_golden_leaderboard() {
    assert_golden_leaderboard("eggs-small");
}

/// Includes the Java sample alien, so it also pins the Java host's protocol.
#[test]
fn the_alienwar_sample_aliens_reproduce_the_golden_leaderboard() {
    assert_golden_leaderboard("alienwar-small");
}

#[test]
fn the_cave_sample_bots_reproduce_the_golden_leaderboard() {
    assert_golden_leaderboard("cave-small");
}

/// A fixed map is read relative to the tournament file, so two entries can play on it.
#[test]
fn an_egg_hunt_on_a_map_file_plays_with_two_bots() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("maps")).unwrap();
    std::fs::write(
        dir.path().join("maps/tiny.txt"),
        "#######\n#o   o#\n#  #  #\n# o o #\n#######\n",
    )
    .unwrap();
    let text = r#"game = "eggs"
games = 2
[options]
map = "maps/tiny.txt"
[[bots]]
name = "east"
command = ["/bin/sh", "-c", "echo 4"]
[[bots]]
name = "still"
command = ["/bin/sh", "-c", "true"]
"#;
    let file = write_toml(dir.path(), "t.toml", text);
    let board = run_json(dir.path(), &file, &[]);
    assert_eq!(board["games_played"], 2);
    assert_eq!(standing(&board, "still")["score"], 0.0);
    assert_eq!(standing(&board, "east")["invalid_replies"], 0);
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
    for (cwd, file) in [(dir.path(), "sub/t.toml"), (sub.as_path(), "t.toml")] {
        let output = arena(cwd, &["run", file, "--format", "json", "--out", "results"]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let board: Value = serde_json::from_slice(&output.stdout).unwrap();
        for name in ["a", "b"] {
            assert_eq!(standing(&board, name)["crashes"], 0, "{file}: {board}");
            assert_eq!(standing(&board, name)["draws"], 1, "{file}: {board}");
        }
    }
}

#[test]
fn a_bots_escape_sequences_on_stderr_reach_the_terminal_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let text = "game = \"petri\"\ngames = 1\n[options]\nturns = 2\n\
        [[bots]]\nname = \"rude\"\n\
        command = [\"/bin/sh\", \"-c\", \"printf '\\\\033]0;pwned\\\\007\\\\033[2J' >&2; exit 1\"]\n\
        [[bots]]\nname = \"other\"\n\
        command = [\"/bin/sh\", \"-c\", \"printf '\\\\033[2J' >&2; exit 1\"]\n";
    crate::support::write_toml(dir.path(), "t.toml", text);
    let output = crate::support::arena(dir.path(), &["-v", "run", "t.toml", "--out", "r"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains(r"\x1b]0;pwned\x07\x1b[2J"), "{stderr}");
    assert!(
        !output.stderr.contains(&0x1b),
        "a raw escape reached stderr: {stderr}"
    );
}

#[test]
fn a_log_shows_progress_and_failures_while_a_long_game_runs() {
    let dir = tempfile::tempdir().unwrap();
    let script = repo().join("tests/bots/loop.sh").display().to_string();
    // One game of bots that nap before every reply, one of them to send junk: it lasts well
    // over the 5 s between lines.
    let text = format!(
        "game = \"petri\"\ngames = 1\n[options]\nturns = 100\n\
         [[bots]]\nname = \"a\"\ncommand = [\"/bin/sh\", {script:?}, \"nap\"]\n\
         [[bots]]\nname = \"b\"\ncommand = [\"/bin/sh\", {script:?}, \"nap-garbage\"]\n"
    );
    crate::support::write_toml(dir.path(), "t.toml", &text);
    let started = std::time::Instant::now();
    let output = crate::support::arena(dir.path(), &["run", "t.toml", "--out", "r"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        started.elapsed() > arena::progress::LINE_EVERY,
        "the game was too short to show it"
    );
    // The game's requests are counted while it runs; its length is not known yet.
    let line = stderr
        .lines()
        .find(|line| line.contains("0/1 game (0.0 per second), "))
        .unwrap_or_else(|| panic!("no progress line during the game: {stderr}"));
    // The number after `marker` in the line.
    let count_after = |marker: &str| -> u64 {
        line.split(marker)
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|count| count.parse().ok())
            .unwrap_or_else(|| panic!("no number after {marker:?} in {line:?}"))
    };
    assert!(count_after("), ") > 0, "{line}");
    assert!(line.contains("time left known once a game ends"), "{line}");
    // So are its invalid replies, before the game's record has them.
    let invalid = count_after(" crashes, ");
    assert!(invalid > 0, "{line}");
}

#[test]
fn a_results_folder_under_dev_shm_hides_from_the_bots_without_failing_them() {
    let shm = tempfile::tempdir_in("/dev/shm").expect("this test needs a writable /dev/shm");
    let output = run_ok(
        shm.path(),
        &repo().join("tests/data/petri-small.toml"),
        &["--games", "1", "--out", "r", "--format", "json"],
    );
    let board: Value = serde_json::from_slice(&output.stdout).unwrap();
    for bot in board["leaderboard"].as_array().unwrap() {
        assert_eq!(bot["crashes"], 0, "{bot}");
    }
}

/// `cargo run` execs arena from a process that waited for the compilers: what that process
/// and its children used before is not the bots' or the runner's.
#[test]
fn the_cpu_and_memory_summary_counts_only_this_runs_work() {
    let dir = tempfile::tempdir().unwrap();
    crate::failures::invalid_every_turn(dir.path());
    let wrapper = "import os, subprocess, sys\n\
        subprocess.run(['/usr/bin/python3', '-c', 'import time\\nt = time.process_time()\\n\
        while time.process_time() - t < 1.5: pass'])\n\
        big = bytearray(300 << 20)\n\
        for i in range(0, len(big), 4096): big[i] = 1\n\
        os.execv(sys.argv[1], sys.argv[1:])\n";
    std::fs::write(dir.path().join("wrap.py"), wrapper).unwrap();
    let output = std::process::Command::new("/usr/bin/python3")
        .args([
            "wrap.py",
            env!("CARGO_BIN_EXE_arena"),
            "run",
            "t.toml",
            "--out",
            "r",
        ])
        .current_dir(dir.path())
        .env_remove("ARENA_LOG")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let line = stderr
        .lines()
        .find(|l| l.contains("CPU time"))
        .expect("a CPU line");
    let number = |after: &str| -> f64 {
        let rest = &line[line.find(after).unwrap() + after.len()..];
        rest.split_whitespace().next().unwrap().parse().unwrap()
    };
    assert!(number("bots ") < 1.0, "the wrapper's child counted: {line}");
    assert!(number("runner ") < 1.0, "{line}");
    assert!(
        number("peak memory ") < 200.0,
        "the wrapper's memory counted: {line}"
    );
}

/// Scripts and hosts read the exit status: every command that can fail in more than one way
/// says what each status means in its own help.
#[test]
fn every_command_that_can_fail_names_its_exit_statuses() {
    let dir = tempfile::tempdir().unwrap();
    for command in [
        "run",
        "standings",
        "replay",
        "merge",
        "check",
        "report",
        "match",
    ] {
        let output = arena(dir.path(), &[command, "--help"]);
        let help = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{command}: {help}");
        assert!(help.contains("\nExit status: "), "{command}: {help}");
    }
}
