//! Interrupted runs: a journal cut short (even by SIGKILL) is continued with `--resume` to
//! exactly the results of an uninterrupted run; a journal of another tournament is refused.
//! Also `--strict`, the CI mode.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::{arena, repo, run_ok, write_toml};

const SMALL: &str = "tests/data/petri-small.toml";

fn leaderboard(dir: &Path) -> Vec<u8> {
    std::fs::read(dir.join("leaderboard.json")).expect("the run wrote its leaderboard")
}

fn run_to(dir: &Path, out: &str, extra: &[&str]) -> std::process::Output {
    let file = repo().join(SMALL);
    let mut args = vec!["run", file.to_str().unwrap(), "--out", out];
    args.extend_from_slice(extra);
    arena(dir, &args)
}

/// Resumes the run in `dir/cut` and checks that it ends with the leaderboard of the
/// uninterrupted run in `dir/whole`, byte for byte.
fn resume_and_compare(dir: &Path) {
    run_ok(dir, &repo().join(SMALL), &["--resume", "cut"]);
    assert_eq!(
        leaderboard(&dir.join("cut")),
        leaderboard(&dir.join("whole"))
    );
}

/// Starts `arena run FILE --out cut --jobs JOBS` in `dir` and returns it, still running,
/// once its journal holds `games` games (or after two minutes, for the test to fail on).
fn run_until(dir: &Path, file: &Path, jobs: &str, games: usize) -> std::process::Child {
    let child = crate::support::arena_command()
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            "cut",
            "--jobs",
            jobs,
        ])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal = dir.join("cut/journal.jsonl");
    let deadline = Instant::now() + Duration::from_secs(120);
    while game_lines(&journal) < games && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
    child
}

fn game_lines(journal: &Path) -> usize {
    std::fs::read_to_string(journal).map_or(0, |text| text.lines().count().saturating_sub(1))
}

#[test]
fn a_run_killed_with_sigkill_resumes_to_the_uninterrupted_results() {
    // One lane, and two lanes killed while both have a game running.
    for jobs in ["1", "2"] {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            run_to(dir.path(), "whole", &["--jobs", jobs])
                .status
                .success()
        );

        let mut child = run_until(dir.path(), &repo().join(SMALL), jobs, 2);
        let journal = dir.path().join("cut/journal.jsonl");
        child.kill().unwrap();
        child.wait().unwrap();
        let played = game_lines(&journal);
        assert!(
            (2..6).contains(&played),
            "--jobs {jobs}: killed after {played} of 6 games"
        );

        resume_and_compare(dir.path());
        assert_eq!(game_lines(&journal), 6, "--jobs {jobs}: each game once");
    }
}

#[test]
fn parallel_games_are_journaled_once_each_with_their_replays() {
    let dir = tempfile::tempdir().unwrap();
    assert!(
        run_to(dir.path(), "lanes", &["--jobs", "3", "--replays"])
            .status
            .success()
    );
    let journal = std::fs::read_to_string(dir.path().join("lanes/journal.jsonl")).unwrap();
    let mut indexes: Vec<u64> = journal
        .lines()
        .skip(1)
        .map(|line| {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(record["type"], "game", "{line}");
            record["data"]["index"].as_u64().expect("a game's index")
        })
        .collect();
    indexes.sort_unstable();
    assert_eq!(indexes, (0..6).collect::<Vec<_>>(), "{journal}");
    for index in indexes {
        let replay = dir.path().join(format!("lanes/replays/game-{index}.jsonl"));
        assert!(replay.is_file(), "no replay for game {index}");
    }
}

#[test]
fn a_torn_last_line_is_dropped_and_that_game_played_again() {
    let dir = tempfile::tempdir().unwrap();
    assert!(run_to(dir.path(), "whole", &[]).status.success());
    let whole = std::fs::read_to_string(dir.path().join("whole/journal.jsonl")).unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    let torn = format!(
        "{}\n{}\n{}",
        lines[0],
        lines[1],
        &lines[2][..lines[2].len() / 2]
    );
    std::fs::create_dir(dir.path().join("cut")).unwrap();
    std::fs::write(dir.path().join("cut/journal.jsonl"), torn).unwrap();
    resume_and_compare(dir.path());
}

#[test]
fn a_journal_of_another_seed_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    assert!(
        run_to(dir.path(), "first", &["--games", "1"])
            .status
            .success()
    );
    let file = repo().join(SMALL);
    let output = arena(
        dir.path(),
        &[
            "run",
            file.to_str().unwrap(),
            "--resume",
            "first",
            "--games",
            "1",
            "--seed",
            "99",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr
            .contains("belongs to another tournament: the seed is 2014 in the journal but 99 now"),
        "{stderr}"
    );
}

#[test]
fn resuming_a_folder_without_a_journal_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = repo().join(SMALL);
    let output = arena(
        dir.path(),
        &["run", file.to_str().unwrap(), "--resume", "nothing"],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error: no journal to resume at nothing/journal.jsonl"),
        "{stderr}"
    );
    assert!(
        stderr.contains("(hint: --resume takes the results folder"),
        "{stderr}"
    );
}

#[test]
fn strict_runs_fail_on_bot_failures_only() {
    let dir = tempfile::tempdir().unwrap();
    let script = |name: &str| repo().join("tests/bots").join(name).display().to_string();
    let text = |second: &[&str]| {
        format!(
            "game = \"petri\"\ngames = 1\n[options]\nturns = 3\n\
             [[bots]]\nname = \"clean\"\ncommand = [\"/bin/sh\", \"{}\"]\n\
             [[bots]]\nname = \"other\"\ncommand = {second:?}\n",
            script("loop.sh")
        )
    };
    write_toml(
        dir.path(),
        "clean.toml",
        &text(&["/bin/sh", &script("loop.sh")]),
    );
    write_toml(
        dir.path(),
        "silent.toml",
        &text(&["/bin/sh", &script("hostile.sh"), "silent"]),
    );
    let clean = arena(dir.path(), &["run", "clean.toml", "--strict", "--out", "a"]);
    assert_eq!(
        clean.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&clean.stderr)
    );
    let silent = arena(
        dir.path(),
        &["run", "silent.toml", "--strict", "--out", "b"],
    );
    let stderr = String::from_utf8_lossy(&silent.stderr);
    assert_eq!(silent.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("strict: other: 0 timeouts, 0 crashes,"),
        "{stderr}"
    );
    assert!(
        !silent.stdout.is_empty(),
        "the leaderboard is still printed"
    );
}

/// Starts a run of two slow bots in `dir`, two games at a time (with `extra` arguments), its
/// standings in JSON to `stdout`, and returns it with its bots' tag once both games have
/// their bots running.
fn start_a_slow_run(
    dir: &Path,
    extra: &[&str],
    stdout: Stdio,
) -> (std::process::Child, crate::support::Tag) {
    let script = repo().join("tests/bots/loop.sh").display().to_string();
    let tag = crate::support::Tag::new(dir);
    let bot = |args: &[&str]| {
        let mut words = vec!["/bin/sh".to_owned(), script.clone()];
        words.extend(args.iter().map(|arg| arg.to_string()));
        format!("{:?}", tag.command(&words))
    };
    // Bots that answer slowly, so the run is surely in the middle of a game at the signal,
    // on each of the two lanes.
    let text = format!(
        "game = \"petri\"\ngames = 20\n[options]\nturns = 50\n\
         [[bots]]\nname = \"a\"\ncommand = {}\n\
         [[bots]]\nname = \"b\"\ncommand = {}\n",
        bot(&["late", "3"]),
        bot(&[])
    );
    write_toml(dir, "t.toml", &text);
    let child = crate::support::arena_command()
        .args([
            "run", "t.toml", "--out", "cut", "--format", "json", "--jobs", "2",
        ])
        .args(extra)
        .current_dir(dir)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Both lanes' games have their bots running.
    let deadline = Instant::now() + Duration::from_secs(30);
    while tag.processes().len() < 4 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    (child, tag)
}

/// Checks that a stopped run left no bot alive and a journal of whole lines in `dir/cut`.
fn assert_stopped_cleanly(dir: &Path, tag: &crate::support::Tag) {
    assert!(tag.survivors().is_empty(), "bots left running");
    let journal = std::fs::read_to_string(dir.join("cut/journal.jsonl")).unwrap();
    assert!(journal.ends_with('\n'), "a torn journal: {journal}");
    for line in journal.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("every journal line is whole");
    }
}

/// [`start_a_slow_run`], stopped by `signal`. Returns arena's output after checking that it
/// stopped within seconds and cleanly.
fn stop_a_slow_run(dir: &Path, extra: &[&str], signal: libc::c_int) -> std::process::Output {
    let (child, tag) = start_a_slow_run(dir, extra, Stdio::piped());
    let sent = Instant::now();
    // SAFETY: plain kill(2) of our own child.
    unsafe { libc::kill(child.id() as i32, signal) };
    let output = child.wait_with_output().unwrap();
    assert!(
        sent.elapsed() < Duration::from_secs(5),
        "stopped in {:?}",
        sent.elapsed()
    );
    assert_stopped_cleanly(dir, &tag);
    output
}

/// A pipe whose buffer is full, as its reading end and its writing end: a process that
/// prints to the writing end waits there until the test reads. Both ends close on exec, so
/// no other test's child holds them open.
fn full_pipe() -> (std::fs::File, std::os::fd::OwnedFd) {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two new descriptors into `fds`, which are then owned here.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    let (reader, writer) = unsafe {
        (
            std::fs::File::from_raw_fd(fds[0]),
            std::os::fd::OwnedFd::from_raw_fd(fds[1]),
        )
    };
    let set_nonblocking = |on: bool| {
        use std::os::fd::AsRawFd;
        let fd = writer.as_raw_fd();
        // SAFETY: fcntl on a descriptor owned here.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            let flags = if on {
                flags | libc::O_NONBLOCK
            } else {
                flags & !libc::O_NONBLOCK
            };
            assert_eq!(libc::fcntl(fd, libc::F_SETFL, flags), 0);
        }
    };
    set_nonblocking(true);
    // Spaces, which a JSON reader skips: pages at a time, then bytes, until none fits.
    for chunk in [[b' '; 4096].as_slice(), b" "] {
        let mut pipe = std::fs::File::from(writer.try_clone().unwrap());
        while std::io::Write::write(&mut pipe, chunk).is_ok() {}
    }
    // Arena's write must wait, not fail.
    set_nonblocking(false);
    (reader, writer)
}

/// Arena's stderr, line by line as it comes, and all of it once arena has closed it.
struct Stderr {
    lines: std::sync::mpsc::Receiver<String>,
    all: std::thread::JoinHandle<String>,
}

impl Stderr {
    fn of(child: &mut std::process::Child) -> Stderr {
        use std::io::BufRead;
        let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
        let (sender, lines) = std::sync::mpsc::channel();
        let all = std::thread::spawn(move || {
            let mut all = String::new();
            for line in stderr.lines().map_while(Result::ok) {
                all.push_str(&line);
                all.push('\n');
                let _ = sender.send(line);
            }
            all
        });
        Stderr { lines, all }
    }

    /// Waits for a line that holds `text`; fails the test if arena ends or a minute passes
    /// first.
    fn wait_for(&self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut seen = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            if line.contains(text) {
                return;
            }
            seen.push(line);
        }
        panic!("no line with `{text}` in: {}", seen.join("\n"));
    }
}

/// Sends `signal` to our own child.
fn signal(child: &std::process::Child, signal: libc::c_int) {
    // SAFETY: plain kill(2) of our own child, not reaped yet.
    unsafe { libc::kill(child.id() as i32, signal) };
}

#[test]
fn ctrl_c_sigterm_and_sighup_stop_kill_the_bots_and_print_the_resume_command() {
    // Bots in sandboxes, and bots in process groups only.
    for (signal, status, extra) in [
        (libc::SIGINT, 130, &[][..]),
        (libc::SIGTERM, 143, &[][..]),
        (libc::SIGTERM, 143, &["--no-sandbox"][..]),
        (libc::SIGHUP, 129, &["--no-sandbox"][..]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let output = stop_a_slow_run(dir.path(), extra, signal);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(status), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "to finish the run: arena run t.toml --resume cut{}",
                extra
                    .iter()
                    .map(|arg| format!(" {arg}"))
                    .collect::<String>()
            )),
            "{stderr}"
        );
        let board: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("partial standings");
        assert!(board["games_played"].as_u64().unwrap() < 20);
    }
}

#[test]
fn a_stop_that_reaches_the_bots_first_records_no_game_they_ended() {
    // As a cluster's job cancel or a service manager's stop may: SIGTERM to every process
    // of the run, the bots a moment before arena. A game whose bots died of it ended early,
    // with crashes that are the stop's, not the bots'.
    let script = repo().join("tests/bots/loop.sh").display().to_string();
    for extra in [&[][..], &["--no-sandbox"][..]] {
        let dir = tempfile::tempdir().unwrap();
        let tag = crate::support::Tag::new(dir.path());
        let bot = |mode: &str| {
            let words = ["/bin/sh", &script, mode].map(String::from);
            format!("{:?}", tag.command(&words))
        };
        let text = format!(
            "game = \"petri\"\ngames = 200\n[options]\nturns = 50\n\
             [[bots]]\nname = \"a\"\ncommand = {}\n\
             [[bots]]\nname = \"b\"\ncommand = {}\n",
            bot("nap"),
            bot("rest")
        );
        write_toml(dir.path(), "t.toml", &text);
        let child = crate::support::arena_command()
            .args(["run", "t.toml", "--out", "cut", "--jobs", "2"])
            .args(extra)
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let journal = dir.path().join("cut/journal.jsonl");
        let games = || {
            let text = std::fs::read_to_string(&journal).unwrap_or_default();
            text.lines()
                .filter(|line| line.contains("\"type\":\"game\""))
                .count()
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while (games() < 1 || tag.processes().len() < 4) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        for pid in tag.processes() {
            // SAFETY: plain kill(2) of a bot this test's run started.
            unsafe { libc::kill(pid, libc::SIGTERM) };
        }
        std::thread::sleep(Duration::from_millis(2));
        // SAFETY: plain kill(2) of our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(143), "{extra:?}: {stderr}");
        assert!(tag.survivors().is_empty(), "bots left running");
        let text = std::fs::read_to_string(&journal).unwrap();
        assert!(games() >= 1, "{text}");
        for line in text.lines().skip(1) {
            let game: serde_json::Value = serde_json::from_str(line).unwrap();
            let seats = game["data"]["seats"].as_array().unwrap();
            assert!(
                seats.iter().all(|seat| seat["crashes"] == 0),
                "{extra:?}: a game the stop cut short was recorded: {line}"
            );
        }
    }
}

/// The tester's case: `timeout` sends its signal to arena and then to arena's process group,
/// and the second one, moments after the first, once stopped the run at once: no standings,
/// no resume command. Arena is held at its printout (a full stdout), so that a second signal
/// taken as "again" would surely find it running.
#[test]
fn a_stop_signal_sent_twice_within_a_second_stops_the_run_gracefully() {
    let dir = tempfile::tempdir().unwrap();
    let (stdout, held) = full_pipe();
    let (mut child, tag) = start_a_slow_run(dir.path(), &["--no-sandbox", "-v"], Stdio::from(held));
    let stderr = Stderr::of(&mut child);
    signal(&child, libc::SIGTERM);
    stderr.wait_for("stopping the running games");
    signal(&child, libc::SIGTERM);
    stderr.wait_for("SIGTERM within 1 s of the first stop signal: the same stop");
    let mut printed = Vec::new();
    std::io::Read::read_to_end(&mut &stdout, &mut printed).unwrap();
    let status = child.wait().unwrap();
    let stderr = stderr.all.join().unwrap();
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert!(!stderr.contains("stopped at once"), "{stderr}");
    assert!(
        stderr.contains("to finish the run: arena run t.toml --resume cut"),
        "{stderr}"
    );
    let board: serde_json::Value =
        serde_json::from_slice(&printed).expect("the partial standings, after the spaces");
    assert!(board["games_played"].as_u64().unwrap() < 20);
    assert_stopped_cleanly(dir.path(), &tag);
}

#[test]
fn a_second_signal_a_second_after_the_first_stops_at_once_and_keeps_the_journal() {
    let dir = tempfile::tempdir().unwrap();
    // Held at its printout, arena is still running a second after the first signal.
    let (_stdout, held) = full_pipe();
    let (mut child, tag) = start_a_slow_run(dir.path(), &["--no-sandbox"], Stdio::from(held));
    let stderr = Stderr::of(&mut child);
    let first = Instant::now();
    signal(&child, libc::SIGINT);
    stderr.wait_for("stopping the running games");
    std::thread::sleep(Duration::from_millis(1500).saturating_sub(first.elapsed()));
    signal(&child, libc::SIGTERM);
    let status = child.wait().unwrap();
    let stderr = stderr.all.join().unwrap();
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert!(
        stderr.contains("SIGTERM: stopped at once; the journal keeps every finished game"),
        "{stderr}"
    );
    assert!(!stderr.contains("to finish the run"), "{stderr}");
    assert_stopped_cleanly(dir.path(), &tag);
}

#[test]
fn a_run_of_sleeping_bots_stopped_by_sigterm_or_sighup_resumes_to_the_uninterrupted_results() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let script = repo().join("tests/bots/loop.sh").display().to_string();
    let tag = crate::support::Tag::new(dir);
    let napper = format!(
        "{:?}",
        tag.command(&["/bin/sh".to_owned(), script, "nap".to_owned()])
    );
    // Bots that sleep before every reply: each game takes a second or so.
    let text = format!(
        "game = \"petri\"\ngames = 6\n[options]\nturns = 8\n\
         [[bots]]\nname = \"a\"\ncommand = {napper}\n\
         [[bots]]\nname = \"b\"\ncommand = {napper}\n"
    );
    write_toml(dir, "t.toml", &text);
    run_ok(dir, Path::new("t.toml"), &["--out", "whole"]);
    for signal in [libc::SIGTERM, libc::SIGHUP] {
        let cut = dir.join("cut");
        let _ = std::fs::remove_dir_all(&cut);
        let child = crate::support::arena_command()
            .args(["run", "t.toml", "--out", "cut"])
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let journal = cut.join("journal.jsonl");
        let deadline = Instant::now() + Duration::from_secs(60);
        while game_lines(&journal) < 1 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        // SAFETY: plain kill(2) of our own child.
        unsafe { libc::kill(child.id() as i32, signal) };
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(128 + signal));
        assert!(tag.survivors().is_empty(), "bots left running");
        let played = game_lines(&journal);
        assert!((1..6).contains(&played), "stopped after {played} games");
        run_ok(dir, Path::new("t.toml"), &["--resume", "cut"]);
        assert_eq!(game_lines(&journal), 6, "each game once");
        assert_eq!(leaderboard(&cut), leaderboard(&dir.join("whole")));
    }
}

/// The number of games of each of `bots` in the journal of `dir/cut`.
fn games_per_bot(dir: &Path, bots: &[&str]) -> std::collections::BTreeMap<String, usize> {
    let journal = std::fs::read_to_string(dir.join("cut/journal.jsonl")).unwrap();
    let mut games: std::collections::BTreeMap<String, usize> =
        bots.iter().map(|&bot| (bot.to_owned(), 0)).collect();
    for line in journal.lines().skip(1) {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        for seat in record["data"]["seats"].as_array().unwrap() {
            *games
                .entry(seat["bot"].as_str().unwrap().to_owned())
                .or_default() += 1;
        }
    }
    games
}

#[test]
fn a_run_stopped_at_a_random_point_has_given_every_bot_about_the_same_games() {
    // Four bots: every pair plays 10 rounds, so a round gives each bot 3 games (60 in all).
    let bots = ["grower", "hunter", "bomber", "grower2"];
    let mut text = String::from("game = \"petri\"\ngames = 10\n[options]\nturns = 30\n");
    for name in bots {
        let script = repo().join(format!("bots/petri/{}.py", name.trim_end_matches('2')));
        text += &format!(
            "[[bots]]\nname = \"{name}\"\ncommand = [\"/usr/bin/python3\", \"-S\", \"-I\", \
             {:?}]\n",
            script.display().to_string()
        );
    }
    let round_share = bots.len() - 1;
    // The stop points are random, and said when the test fails.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as usize;
    for (jobs, stop_after) in [("1", 1 + nanos % 55), ("2", 1 + (nanos / 55) % 55)] {
        let dir = tempfile::tempdir().unwrap();
        write_toml(dir.path(), "t.toml", &text);
        let file = dir.path().join("t.toml");
        let mut child = run_until(dir.path(), &file, jobs, stop_after);
        let journal = dir.path().join("cut/journal.jsonl");
        // SAFETY: plain kill(2) of our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        let status = child.wait().unwrap();
        let games = games_per_bot(dir.path(), &bots);
        let played = game_lines(&journal);
        let (fewest, most) = (
            games.values().min().copied().unwrap(),
            games.values().max().copied().unwrap(),
        );
        // With two lanes, the game one lane was playing at the stop is dropped while a later
        // one of the other lane may be journaled: a hole of one game in the order.
        let holes = jobs.parse::<usize>().unwrap() - 1;
        assert!(
            most - fewest <= round_share + holes,
            "--jobs {jobs}, stopped after {played} games (aimed at {stop_after}, {status}): \
             {games:?}"
        );
        assert!(
            played < 60 && games.len() == bots.len(),
            "--jobs {jobs}: not a stop in the middle ({played} games): {games:?}"
        );
        assert_eq!(status.code(), Some(130), "--jobs {jobs}");
    }
}

#[test]
fn the_shipped_petri_and_slime_tournaments_pass_strict() {
    // Their sample bots never rely on an invalid reply (Slime's pass included).
    let dir = tempfile::tempdir().unwrap();
    for (file, games) in [
        ("tournaments/slime.toml", "1"),
        ("tournaments/petri.toml", "2"),
    ] {
        let output = arena(
            dir.path(),
            &[
                "run",
                repo().join(file).to_str().unwrap(),
                "--strict",
                "--games",
                games,
                "--out",
                file.trim_start_matches("tournaments/"),
            ],
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{file}: {stderr}");
    }
}

/// The tester's repro: a run cut short, a bot's file edited, then the printed resume
/// command. The resume would finish with two versions of the bot in one leaderboard; it is
/// refused before any game, naming the bot and how to keep the other bots' games, and the
/// journal keeps every byte.
#[test]
fn a_resume_after_a_bot_changed_is_refused_and_changes_no_byte() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let file = crate::support::petri_in_own_folders(dir, "three.toml", crate::support::THREE);
    run_ok(dir, &file, &["--out", "r"]);
    // Cut after three games.
    let journal = dir.join("r/journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let cut: String = text
        .lines()
        .take(4)
        .map(|line| format!("{line}\n"))
        .collect();
    std::fs::write(&journal, &cut).unwrap();
    let script = dir.join("hunter/hunter.py");
    let edited = std::fs::read_to_string(&script).unwrap() + "\n# version 2\n";
    std::fs::write(&script, edited).unwrap();

    let output = arena(dir, &["run", "three.toml", "--resume", "r"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("holds games of other versions of bots than this run's")
            && stderr.contains("  - bot `hunter`: its games there record digest ")
            && !stderr.contains("bot `grower`")
            && stderr.contains("start a new run with --reuse r)"),
        "{stderr}"
    );
    assert!(!stderr.contains("results in r"), "a game started: {stderr}");
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), cut);
    // What the hint says: the kept games without hunter are reused (which games finished
    // first, and so were kept, depends on timing).
    let without_hunter = (cut.lines().skip(1))
        .filter(|line| !line.contains("\"bot\":\"hunter\""))
        .count();
    let reused = run_ok(dir, &file, &["--out", "again", "--reuse", "r"]);
    let log = String::from_utf8_lossy(&reused.stderr);
    let games = if without_hunter == 1 { "game" } else { "games" };
    let expected = format!(
        "reused {without_hunter} {games}, playing {}",
        6 - without_hunter
    );
    assert!(log.contains(&expected), "{log}");
}

/// Every box hides the runner's home as the box is made, and the journal's record of the
/// tournament does not name it: a resume under another `$HOME` (another shell, another node
/// of a cluster) continues the run instead of refusing it as another tournament's.
#[test]
fn a_resume_under_another_home_continues_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = repo().join(SMALL);
    let run_as = |home: &str, args: &[&str]| {
        let home = dir.path().join(home);
        std::fs::create_dir_all(&home).unwrap();
        crate::support::arena_command()
            .current_dir(dir.path())
            .env("HOME", &home)
            .args([&["run", file.to_str().unwrap()][..], args].concat())
            .output()
            .unwrap()
    };
    let first = run_as("home-a", &["--out", "cut"]);
    assert!(first.status.success(), "{first:?}");
    let board = leaderboard(&dir.path().join("cut"));
    let resumed = run_as("home-b", &["--resume", "cut"]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(leaderboard(&dir.path().join("cut")), board);
}
