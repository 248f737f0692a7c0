//! Bots the system cannot start are found before the first game, one line each: a missing
//! interpreter, Windows line ends, a byte order mark, a file that is neither script nor
//! binary, a folder, a script argument relative to the wrong folder. Bots that can start
//! are let through, the sample tournaments' included.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use arena::bots::preflight::problem;
use arena::bots::{BotProgram, ResourceLimits};
use arena::config::Tournament;

use crate::support::{arena, problem_lines, repo, write_toml};

/// Writes `bytes` to `dir/name` with permissions `mode`.
fn file(dir: &Path, name: &str, bytes: &[u8], mode: u32) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    path
}

/// `program` with `args`, run in `dir`.
fn bot(program: &Path, args: &[&str], dir: &Path) -> BotProgram {
    BotProgram {
        program: program.to_path_buf(),
        args: args.iter().map(|arg| arg.to_string()).collect(),
        dir: dir.to_path_buf(),
        env: BTreeMap::new(),
        rlimits: ResourceLimits::default(),
        sandbox: None,
        private_dir: false,
    }
}

/// What preflight says of a script `bytes` that is the program.
fn script_problem(bytes: &[u8]) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let script = file(dir.path(), "bot", bytes, 0o755);
    problem(&bot(&script, &[], dir.path()))
}

#[test]
fn scripts_and_binaries_the_system_can_run_pass() {
    for script in [
        &b"#!/bin/sh\necho REST\n"[..],
        b"#! /bin/sh -e\necho REST\n",
        b"#!/usr/bin/env sh\necho REST\n",
        b"#!/usr/bin/env -S sh -e\necho REST\n",
    ] {
        assert_eq!(script_problem(script), None, "{}", script.escape_ascii());
    }
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(problem(&bot(Path::new("/bin/sh"), &[], dir.path())), None);
}

#[test]
fn a_missing_interpreter_is_named() {
    let why = script_problem(b"#!/no/such/python9\nprint(1)\n").unwrap();
    assert!(
        why.contains("its interpreter /no/such/python9 does not exist"),
        "{why}"
    );
    let why = script_problem(b"#!/usr/bin/env no-such-python9\nprint(1)\n").unwrap();
    assert!(
        why.contains("`no-such-python9` is not found in PATH"),
        "{why}"
    );
    // env takes `sh -e` for one name, which no program has.
    let why = script_problem(b"#!/usr/bin/env sh -e\necho REST\n").unwrap();
    assert!(why.contains("-S sh -e"), "{why}");
}

#[test]
fn windows_line_ends_and_a_byte_order_mark_are_named() {
    let why = script_problem(b"#!/bin/sh\r\necho REST\r\n").unwrap();
    assert!(why.contains(": its first line ends in CR LF"), "{why}");
    assert!(why.contains("`#!/bin/sh\\r`"), "{why}");
    let why = script_problem(b"\xef\xbb\xbf#!/bin/sh\necho REST\n").unwrap();
    assert!(why.contains("starts with a UTF-8 byte order mark"), "{why}");
}

#[test]
fn a_file_that_is_neither_script_nor_binary_is_named() {
    let why = script_problem(b"echo REST\n").unwrap();
    assert!(
        why.contains("is neither a binary (ELF) nor a script"),
        "{why}"
    );
}

#[test]
fn a_folder_a_missing_file_and_a_file_without_execute_permission_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let why = problem(&bot(dir.path(), &[], dir.path())).unwrap();
    assert!(why.ends_with("is a folder, not a program"), "{why}");
    let why = problem(&bot(&dir.path().join("gone"), &[], dir.path())).unwrap();
    assert!(why.ends_with("gone does not exist"), "{why}");
    let script = file(dir.path(), "bot.sh", b"#!/bin/sh\n", 0o644);
    let why = problem(&bot(&script, &[], dir.path())).unwrap();
    let shown = script.display();
    assert!(
        why.ends_with(&format!(
            "bot.sh is not executable: make it so (`chmod +x {shown}`) or name its interpreter \
             first (`/bin/sh {shown}`)"
        )),
        "{why}"
    );
    // An interpreter that is not there is named at once, and not offered as the cure.
    for line in ["#!/no/such/python\n", "#!/usr/bin/env no-such-python\n"] {
        let script = file(dir.path(), "old.py", line.as_bytes(), 0o644);
        let why = problem(&bot(&script, &[], dir.path())).unwrap();
        let named = line[2..].trim_end().rsplit(' ').next().unwrap();
        assert!(
            why.ends_with(&format!(
                "old.py is not executable, and its `#!` line names {named}, which is not \
                 installed here: name an installed interpreter before it in the command \
                 (`INTERPRETER {}`)",
                script.display()
            )),
            "{why}"
        );
    }
}

#[test]
fn a_script_argument_is_looked_for_in_the_bots_folder() {
    let dir = tempfile::tempdir().unwrap();
    file(dir.path(), "bot.py", b"print(1)\n", 0o644);
    let sh = Path::new("/bin/sh");
    let why = problem(&bot(sh, &["bots/bot.py"], dir.path())).unwrap();
    assert!(why.contains("script bots/bot.py does not exist"), "{why}");
    assert!(why.contains(&dir.path().join("bots/bot.py").display().to_string()));
    // There, and words that are not script paths: code, options, names.
    for args in [
        &["bot.py"][..],
        &["-u", "bot.py"],
        &["-c", "import bot.py"],
        &["--log=missing.py", "bot.py"],
        &["-cp", "classes", "Main"],
    ] {
        assert_eq!(problem(&bot(sh, args, dir.path())), None, "{args:?}");
    }
}

/// As root, bots run as nobody: a script saved under `umask 077` in a folder of mode 700
/// failed every request with "Permission denied" as the bot's crash. The folder and the
/// file are named together (the file was named only once the folder was opened).
/// Unprivileged, bots keep the runner's own user, and such files are theirs to read.
#[test]
fn files_nobody_may_read_are_named_when_bots_run_as_nobody() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let folder = dir.path().join("mine");
    std::fs::create_dir(&folder).unwrap();
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700)).unwrap();
    let script = file(&folder, "bot.py", b"print(1)\n", 0o600);
    let sandboxed = BotProgram {
        sandbox: Some(std::sync::Arc::new(arena::sandbox::BoxSpec::default())),
        ..bot(Path::new("/usr/bin/python3"), &["mine/bot.py"], dir.path())
    };
    // SAFETY: geteuid cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    let said = |expected: &str| {
        let said = problem(&sandboxed);
        if root {
            assert!(
                said.as_deref().is_some_and(|said| said.contains(expected)),
                "{said:?}"
            );
        } else {
            assert_eq!(said, None);
        }
    };
    // Both, in one run: the folder, then the file in it.
    said(&format!(
        "folder {0} cannot be entered, nor script {1} read, by nobody (uid 65534), as whom \
         bots run when arena runs as root: `chmod o+x {0}`, `chmod o+r {1}`",
        folder.display(),
        script.display()
    ));
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o711)).unwrap();
    said(&format!(
        "script {0} cannot be read by nobody (uid 65534), as whom bots run when arena runs as \
         root: `chmod o+r {0}`",
        script.display()
    ));
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(problem(&sandboxed), None);
    // The bot's own folder, where it starts, whatever its program (`/bin/sh -c ...`).
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let shell = BotProgram {
        sandbox: sandboxed.sandbox.clone(),
        ..bot(Path::new("/bin/sh"), &["-c", "echo 5 6 1"], dir.path())
    };
    let said = problem(&shell);
    if root {
        let expected = format!(
            "folder {0} cannot be entered by nobody (uid 65534), as whom bots run when arena \
             runs as root: `chmod o+x {0}`",
            dir.path().display()
        );
        assert!(
            said.as_deref().is_some_and(|said| said.contains(&expected)),
            "{said:?}"
        );
    } else {
        assert_eq!(said, None);
    }
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    // Without the sandbox the files are the runner's own.
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700)).unwrap();
    assert_eq!(
        problem(&bot(
            Path::new("/usr/bin/python3"),
            &["mine/bot.py"],
            dir.path()
        )),
        None
    );
}

#[test]
fn a_tournament_lists_each_bot_that_cannot_start_at_its_command() {
    let dir = tempfile::tempdir().unwrap();
    file(dir.path(), "crlf.sh", b"#!/bin/sh\r\necho 5 6 1\r\n", 0o755);
    file(dir.path(), "good.sh", b"#!/bin/sh\necho 5 6 1\n", 0o755);
    let text = "game = \"petri\"\n\
                [[bots]]\nname = \"windows\"\ncommand = \"./crlf.sh\"\n\
                [[bots]]\nname = \"fine\"\ncommand = \"./good.sh\"\n\
                [[bots]]\nname = \"lost\"\ncommand = [\"/bin/sh\", \"bots/good.sh\"]\n";
    let tournament = Tournament::load(&write_toml(dir.path(), "t.toml", text)).unwrap();
    let problems = tournament.unstartable_bots().unwrap_err().problems;
    let places: Vec<(usize, usize)> = problems.iter().map(|p| (p.line, p.column)).collect();
    assert_eq!(places, [(4, 11), (10, 11)], "{problems:#?}");
    assert!(
        problems[0].message.starts_with("bot `windows`: program "),
        "{problems:#?}"
    );
    assert!(
        (problems[1].message).starts_with("bot `lost`: script bots/good.sh"),
        "{problems:#?}"
    );
}

#[test]
fn the_sample_and_test_tournaments_bots_can_all_start() {
    let mut bots = 0;
    for folder in ["tournaments", "tests/data"] {
        let files = std::fs::read_dir(repo().join(folder)).unwrap();
        let files = files.map(|entry| entry.unwrap().path());
        for path in files.filter(|path| path.extension().is_some_and(|ext| ext == "toml")) {
            let tournament = Tournament::load(&path).unwrap();
            let startable = tournament.unstartable_bots();
            assert!(startable.is_ok(), "{}: {startable:?}", path.display());
            bots += tournament.bots.len();
        }
    }
    assert!(bots > 20, "only {bots} bots checked");
}

#[test]
fn a_run_or_a_check_of_a_bot_that_cannot_start_stops_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    file(dir.path(), "crlf.sh", b"#!/bin/sh\r\necho 5 6 1\r\n", 0o755);
    file(dir.path(), "plain", b"echo 5 6 1\n", 0o755);
    let text = "game = \"petri\"\nsandbox = \"none\"\n\
                [[bots]]\nname = \"windows\"\ncommand = \"./crlf.sh\"\n\
                [[bots]]\nname = \"plain\"\ncommand = \"./plain\"\n";
    write_toml(dir.path(), "t.toml", text);
    let run = arena(dir.path(), &["run", "t.toml", "--out", "out"]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 6, "{stderr}");
    assert!(
        lines[0].starts_with("error: t.toml:5:11: bot `windows`: program "),
        "{stderr}"
    );
    assert_eq!(
        lines[1..3],
        [
            "error:  5 | command = \"./crlf.sh\"",
            "error:    |           ^^^^^^^^^^^"
        ]
    );
    assert!(
        lines[3].starts_with("error: t.toml:8:11: bot `plain`: program "),
        "{stderr}"
    );
    assert_eq!(
        lines[4..],
        [
            "error:  8 | command = \"./plain\"",
            "error:    |           ^^^^^^^^^"
        ]
    );
    assert!(!dir.path().join("out").exists(), "nothing was created");
    let check = arena(dir.path(), &["check", "petri", "--", "./crlf.sh"]);
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert_eq!(check.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("its first line ends in CR LF"), "{stderr}");
}

/// Runs `arena ARGS` in `dir` under the shell's limits `ulimits` (e.g. `["-v 2000000"]`),
/// which `ulimit` sets soft and hard.
fn arena_under_ulimit(dir: &Path, ulimits: &[&str], args: &str) -> std::process::Output {
    let limits: String = ulimits.iter().map(|l| format!("ulimit {l} && ")).collect();
    let script = format!("{limits}exec \"$1\" {args}");
    std::process::Command::new("/bin/sh")
        .args(["-c", &script, "sh", env!("CARGO_BIN_EXE_arena")])
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env_remove("ARENA_LOG")
        .current_dir(dir)
        .output()
        .expect("sh runs")
}

#[test]
fn a_bot_limit_above_the_runners_own_is_refused_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    file(dir.path(), "rest", b"#!/bin/sh\necho 5 6 1\n", 0o755);
    for (sandbox, field, ulimit, says) in [
        (
            "on",
            "memory_mb = 3000",
            "-v 2000000",
            "memory limit of 3000 MiB",
        ),
        (
            "none",
            "memory_mb = 3000",
            "-v 2000000",
            "(1953 MiB, `ulimit -Hv`)",
        ),
        ("on", "cpu_seconds = 30", "-t 30", "(30 s, `ulimit -Ht`)"),
    ] {
        let text = format!(
            "game = \"petri\"\nsandbox = \"{sandbox}\"\n{field}\n\
             [[bots]]\nname = \"a\"\ncommand = \"./rest\"\n\
             [[bots]]\nname = \"b\"\ncommand = \"./rest\"\n"
        );
        write_toml(dir.path(), "t.toml", &text);
        let run = arena_under_ulimit(dir.path(), &[ulimit], "run t.toml --out out");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{sandbox} {field}: {stderr}");
        assert!(
            stderr.contains("error: t.toml:6:11: bot `a`: the "),
            "{stderr}"
        );
        assert!(stderr.contains(says), "{stderr}");
        assert!(!dir.path().join("out").exists(), "nothing was created");
    }
    // Within the runner's limits the same file runs.
    write_toml(
        dir.path(),
        "t.toml",
        "game = \"petri\"\nmemory_mb = 1000\ncpu_seconds = 20\n\
         [options]\nturns = 3\n\
         [[bots]]\nname = \"a\"\ncommand = \"./rest\"\n\
         [[bots]]\nname = \"b\"\ncommand = \"./rest\"\n",
    );
    let run = arena_under_ulimit(dir.path(), &["-v 2000000", "-t 30"], "run t.toml --out out");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    let check = arena_under_ulimit(dir.path(), &["-v 2000000"], "check petri -- ./rest");
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert_eq!(check.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("memory limit of 4096 MiB"), "{stderr}");
    // The cure is named where the user can apply it: the file's key, check's flag.
    assert!(
        stderr.contains(
            "raise the limit arena runs under, or lower `memory_mb` (the bot's in the \
             tournament file; `--memory-mb` of `arena check` and `arena match`)"
        ),
        "{stderr}"
    );
    // Under the flag's lower limit the check runs: its species line is valid, its other
    // replies are no actions (exit status 3, not 2).
    let check = arena_under_ulimit(
        dir.path(),
        &["-v 2000000"],
        "check petri --memory-mb 1000 -- ./rest",
    );
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(3), "{stdout}");
    assert!(stdout.contains("=> valid"), "{stdout}");
}

/// Every bot of a run that cannot start is said in one run, in file order, each at its
/// `command`; a bot the command line leaves out is not started, so not checked.
#[test]
fn a_run_says_every_bot_that_cannot_start_in_file_order_at_its_command() {
    let dir = tempfile::tempdir().unwrap();
    file(dir.path(), "crlf.sh", b"#!/bin/sh\r\necho 5 6 1\r\n", 0o755);
    file(
        dir.path(),
        "bom.sh",
        b"\xef\xbb\xbf#!/bin/sh\necho 5 6 1\n",
        0o755,
    );
    file(dir.path(), "good.sh", b"#!/bin/sh\necho 5 6 1\n", 0o755);
    let text = "game = \"petri\"\nsandbox = \"none\"\n\
                [[bots]]\nname = \"lost\"\ncommand = \"/bin/sh gone.sh\"\n\
                [[bots]]\nname = \"fine\"\ncommand = \"./good.sh\"\n\
                [[bots]]\nname = \"windows\"\ncommand = \"./crlf.sh\"\n\
                [[bots]]\nname = \"marked\"\ncommand = \"./bom.sh\"\n";
    write_toml(dir.path(), "t.toml", text);
    let said = |extra: &[&str]| {
        let mut args = vec!["run", "t.toml", "--out", "out"];
        args.extend_from_slice(extra);
        let run = arena(dir.path(), &args);
        let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(!dir.path().join("out").exists(), "nothing was created");
        problem_lines(&stderr)
            .iter()
            .map(|line| line.split(": ").take(2).collect::<Vec<_>>().join(": "))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        said(&[]),
        [
            "t.toml:5:11: bot `lost`",
            "t.toml:11:11: bot `windows`",
            "t.toml:14:11: bot `marked`"
        ]
    );
    assert_eq!(
        said(&["--exclude", "windows"]),
        ["t.toml:5:11: bot `lost`", "t.toml:14:11: bot `marked`"]
    );
}

/// A bot whose program is gone stops the run, unless `--exclude` leaves it out: its entry is
/// then checked no further than its name. A name the selection gives that no bot has is
/// refused.
#[test]
fn a_bot_whose_program_is_gone_can_be_left_out() {
    let dir = tempfile::tempdir().unwrap();
    file(dir.path(), "good.sh", b"#!/bin/sh\necho 5 6 1\n", 0o755);
    let text = "game = \"petri\"\n\
                [[bots]]\nname = \"a\"\ncommand = \"./good.sh\"\n\
                [[bots]]\nname = \"b\"\ncommand = \"./good.sh\"\n\
                [[bots]]\nname = \"gone\"\ncommand = \"./gone.sh\"\n";
    write_toml(dir.path(), "t.toml", text);
    let run = arena(dir.path(), &["run", "t.toml", "--out", "all"]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("bot `gone`: program "), "{stderr}");
    let args = [
        "run",
        "t.toml",
        "--out",
        "some",
        "--exclude",
        "gone",
        "--games",
        "1",
    ];
    let run = arena(dir.path(), &args);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    let check = arena(
        dir.path(),
        &["check", "--tournament", "t.toml", "--bots", "a"],
    );
    assert_eq!(
        check.status.code(),
        Some(3),
        "its replies after the species are no actions"
    );
    let typo = arena(dir.path(), &["run", "t.toml", "--exclude", "gnoe"]);
    let stderr = String::from_utf8_lossy(&typo.stderr);
    assert_eq!(typo.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("t.toml: --bots/--exclude: there is no bot `gnoe`"),
        "{stderr}"
    );
}

/// A match's bots come from its command line, not a file the user wrote: what stops one
/// from starting is said by the bot's name alone, with the command line's other mistakes,
/// in one run (a script not there used to be said only once those were fixed).
#[test]
fn a_match_says_a_bot_that_cannot_start_with_its_other_mistakes() {
    let dir = tempfile::tempdir().unwrap();
    file(dir.path(), "crlf.sh", b"#!/bin/sh\r\necho 5 6 1\r\n", 0o755);
    let output = arena(
        dir.path(),
        &[
            "match",
            "petri",
            "--bot",
            "lost=/bin/sh gone.sh",
            "--bot",
            "windows=./crlf.sh",
            "--option",
            "colour=red",
            "--no-sandbox",
            "--out",
            "m",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(
        lines[0].starts_with("error: arena match: unknown field `colour`"),
        "{stderr}"
    );
    assert!(
        lines[1].starts_with("error: arena match: bot `lost`: script gone.sh does not exist"),
        "{stderr}"
    );
    assert!(
        lines[2].starts_with("error: arena match: bot `windows`: program ")
            && lines[2].contains("ends in CR LF"),
        "{stderr}"
    );
    assert!(!dir.path().join("m").exists(), "nothing was created");
}

/// A match's programs are checked as they will start: with `--no-sandbox`, as the runner's
/// own user, to whom a script saved under `umask 077` is open (as root, the sandbox's
/// `nobody` would be refused it).
#[test]
fn a_match_without_the_sandbox_checks_its_bots_as_the_runners_own() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("mine");
    std::fs::create_dir(&folder).unwrap();
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700)).unwrap();
    file(&folder, "rest.sh", b"echo 5 6 1\n", 0o600);
    let output = arena(
        dir.path(),
        &[
            "match",
            "petri",
            "--bot",
            "a=/bin/sh mine/rest.sh",
            "--bot",
            "b=/bin/sh mine/rest.sh",
            "--option",
            "turns=2",
            "--games",
            "1",
            "--no-sandbox",
            "--out",
            "m",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}
