//! Broken tournament files: each is rejected before any game starts, with one line per
//! problem naming the file, line and column, and exit status 2.

use crate::support::{arena, problem_lines, run_ok, write_toml};

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
        ("unknown game", format!("game = \"slime-war\"\n{valid_bots}"), "t.toml:1:8: unknown game `slime-war` (expected one of: alienwar, cave, eggs, petri, slime)"),
        ("too few egg hunters", format!("game = \"eggs\"\n{valid_bots}"), "t.toml:1:8: eggs needs at least 7 bots, the file has 2 (add [[bots]] tables, or set `size_as_seven = true` in [options] to play fewer)"),
        ("missing map", format!("game = \"eggs\"\n[options]\nmap = \"no-map.txt\"\n{valid_bots}"), "t.toml:2:1: options: cannot read "),
        ("unknown cave option value", format!("game = \"cave\"\n[options]\nconfusion = \"dizzy\"\n{valid_bots}"), "t.toml:3:13: unknown variant `dizzy`"),
        ("crowded cave", format!("game = \"cave\"\n[options.density]\nboulder = 9000\n{valid_bots}"), "t.toml:2:2: options: the densities add up to 9440 basis points"),
        ("too few slime bots", format!("game = \"slime\"\n{valid_bots}"), "t.toml:1:8: slime needs at least 4 bots, the file has 2 (add [[bots]] tables)"),
        ("unknown key", format!("game = \"petri\"\ngmaes = 3\n{valid_bots}"), "t.toml:2:1: unknown field `gmaes`"),
        ("unknown option", format!("game = \"petri\"\n[options]\nwidht = 5\n{valid_bots}"), "t.toml:3:1: unknown field `widht`"),
        ("bad option type", format!("game = \"petri\"\n[options]\nwidth = \"big\"\n{valid_bots}"), "t.toml:3:9:"),
        ("bad option value", format!("game = \"petri\"\n[options]\nwidth = 2\n{valid_bots}"), "t.toml:3:9: options: `width` must be between 3 and 1000 (got 2)"),
        ("missing program", "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"no-such-program-arena\"\n[[bots]]\nname = \"b\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:4:11: bot `a`: program `no-such-program-arena` not found in PATH"),
        ("duplicate names", "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:6:8: duplicate bot name `a`"),
        ("names that read alike", "game = \"petri\"\n[[bots]]\nname = \"caf\\u00e9\"\ncommand = \"/bin/sh\"\n[[bots]]\nname = \"cafe\\u0301\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:6:8: bot name `cafe\u{301}` reads as the earlier bot's `caf\u{e9}` but is written with other Unicode characters"),
        ("too few bots", "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:1:8: petri needs at least 2 bots"),
        ("zero games", format!("game = \"petri\"\ngames = 0\n{valid_bots}"), "t.toml:2:9: `games` must be at least 1"),
        ("games beyond counting", format!("game = \"slime\"\ngames = 4294967295\n[options]\nrotate_seats = true\n{}", many_bots(1000)), "t.toml:2:9: 1000 bots and 4294967295 games make more games than arena can count (2^64): lower `games`"),
        ("java bot under 512 MiB", "game = \"alienwar\"\nmemory_mb = 300\n[[bots]]\nname = \"a\"\njava = [\"A.java\"]\n".into(), "t.toml:5:8: bot `a`: its `memory_mb` is 300, and a JVM needs at least 512 (0 for no limit)"),
        ("negative timeout", format!("game = \"petri\"\ntimeout_ms = -5\n{valid_bots}"), "t.toml:2:14:"),
        ("missing folder", "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\ndir = \"nowhere\"\n[[bots]]\nname = \"b\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:5:7: bot `a`: `dir`"),
        ("wrong type", format!("game = \"petri\"\ngames = \"ten\"\n{valid_bots}"), "t.toml:2:9:"),
        ("negative seed", format!("game = \"petri\"\nseed = -1\n{valid_bots}"), "t.toml:2:8:"),
        ("negative jobs", format!("game = \"petri\"\njobs = -2\n{valid_bots}"), "t.toml:2:8:"),
        ("zero setup timeout", format!("game = \"petri\"\nsetup_timeout_ms = 0\n{valid_bots}"), "t.toml:2:20: `setup_timeout_ms` must be at least 1"),
        ("zero reply cap", format!("game = \"petri\"\nmax_reply_bytes = 0\n{valid_bots}"), "t.toml:2:19: `max_reply_bytes` must be at least 1"),
        ("bots not a list", "game = \"petri\"\nbots = 3\n".into(), "t.toml:2:8:"),
        ("options not a table", format!("game = \"petri\"\noptions = 3\n{valid_bots}"), "t.toml:2:11:"),
        ("missing game", valid_bots.into(), "t.toml:1:1: missing field `game` (expected one of: alienwar, cave, eggs, petri, slime)"),
        ("unknown bot key", format!("game = \"petri\"\n[[bots]]\nname = \"x\"\ncommand = \"/bin/sh\"\ncomand = \"/bin/sh\"\n{valid_bots}"), "t.toml:5:1: unknown field `comand`"),
        ("bot without command", "game = \"petri\"\n[[bots]]\nname = \"a\"\n[[bots]]\nname = \"b\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:3:8: bot `a`: needs `command` (the program to run) or `java` (its Java sources)"),
        ("command and java", "game = \"alienwar\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\njava = [\"A.java\"]\n".into(), "t.toml:5:8: bot `a`: give either `command` or `java`, not both"),
        ("java in a game without host", "game = \"petri\"\n[[bots]]\nname = \"a\"\njava = [\"A.java\"]\n[[bots]]\nname = \"b\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:4:8: bot `a`: `java` bots need a game with a Java host, and petri has none"),
        ("missing java source", "game = \"alienwar\"\n[[bots]]\nname = \"a\"\njava = [\"Absent.java\"]\n".into(), "t.toml:4:8: bot `a`: cannot read "),
        ("java source not a class", "game = \"alienwar\"\n[[bots]]\nname = \"a\"\njava = [\"t.toml\"]\n".into(), "t.toml:4:8: bot `a`: "),
        ("unknown java host", "game = \"alienwar\"\njava_host = \"pooled\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:2:13: unknown variant `pooled`, expected `shared` or `separate`"),
        ("prey name taken", "game = \"alienwar\"\n[[bots]]\nname = \"prey.Cow\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:3:8: bot name `prey.Cow` is taken by a player built into the game"),
        ("zero alienwar rounds", "game = \"alienwar\"\n[options]\nrounds = 0\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:3:10: options: `rounds` must be at least 1"),
        ("unknown alienwar option", "game = \"alienwar\"\n[options]\nround = 5\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:3:1: unknown field `round`"),
        ("empty command", "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"\"\n[[bots]]\nname = \"b\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:4:11: bot `a`: `command` is empty"),
        ("non-string env", "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\nenv = { A = 1 }\n[[bots]]\nname = \"b\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:5:"),
        ("program not executable", "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"./t.toml\"\n[[bots]]\nname = \"b\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:4:11: bot `a`: program"),
        ("program is a folder", "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"./\"\n[[bots]]\nname = \"b\"\ncommand = \"/bin/sh\"\n".into(), "is a folder, not a program"),
        ("folder is a file", "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\ndir = \"t.toml\"\n[[bots]]\nname = \"b\"\ncommand = \"/bin/sh\"\n".into(), "t.toml:5:7: bot `a`: `dir`"),
        ("unclosed quote", format!("game = \"petri\"\n[[bots]]\nname = \"q\"\ncommand = \"sh 'oops\"\n{valid_bots}"), "t.toml:4:11: bot `q`: `command` has an unclosed quote"),
        ("name clears the screen", named("evil\\u001b[2J"), "t.toml:3:8: bot name `evil\\x1b[2J` contains the control or invisible character U+001B"),
        ("name sets the window title", named("\\u001b]0;pwned\\u0007"), "t.toml:3:8: bot name `\\x1b]0;pwned\\x07` contains the control or invisible character U+001B"),
        ("name with a newline", named("a\\nb"), "t.toml:3:8: bot name `a\\nb` contains the control or invisible character U+000A"),
        ("name ending in a newline", named("a\\n"), "t.toml:3:8: bot name `a\\n` contains the control or invisible character U+000A"),
        ("name with a tab", named("a\\tb"), "contains the control or invisible character U+0009"),
        ("name with DEL", named("a\\u007f"), "contains the control or invisible character U+007F"),
        ("name with a C1 control", named("a\\u009b2J"), "contains the control or invisible character U+009B"),
        ("name reversed by bidi", named("abc\\u202efed"), "t.toml:3:8: bot name `abc\\u{202e}fed` contains the control or invisible character U+202E"),
        ("name isolated by bidi", named("x\\u2066y"), "contains the control or invisible character U+2066"),
        ("name with a line separator", named("x\\u2028y"), "contains the control or invisible character U+2028"),
        ("name with a zero-width space", named("a\\u200bb"), "contains the control or invisible character U+200B"),
        ("blank name", named("   "), "t.toml:3:8: a bot's `name` must not be empty"),
        ("name too long", named(&"n".repeat(65)), "t.toml:3:8: bot name `nnnnnnnnnn"),
        ("wide name too long", named(&"東".repeat(65)), "has 65 characters, more than the 64 allowed"),
        ("too many jobs", format!("game = \"petri\"\njobs = 1025\n{valid_bots}"), "t.toml:2:8: `jobs` must be at most 1024 (0 = one per core)"),
        ("far too many jobs", format!("game = \"petri\"\njobs = 9223372036854775807\n{valid_bots}"), "t.toml:2:8: `jobs` must be at most 1024"),
        ("NUL in an env value", bot_a("command = \"/bin/sh\"\nenv = { V = \"a\\u0000b\" }"), "t.toml:5:13: bot `a`: `env` value of `V` holds a NUL byte"),
        ("NUL in an env name", bot_a("command = \"/bin/sh\"\nenv = { \"V\\u0000\" = \"a\" }"), "t.toml:5:9: bot `a`: `env` name `V\\x00` holds a NUL byte"),
        ("NUL in a command line", bot_a("command = \"/bin/sh -c \\u0000\""), "t.toml:4:11: bot `a`: `command` holds a NUL byte"),
        ("NUL in a command word", bot_a("command = [\"/bin/sh\", \"-c\", \"\\u0000\"]"), "t.toml:4:29: bot `a`: `command` holds a NUL byte"),
        ("NUL in a program", bot_a("command = [\"/bin/s\\u0000h\"]"), "t.toml:4:12: bot `a`: `command` holds a NUL byte"),
        ("NUL in a folder", bot_a("command = \"/bin/sh\"\ndir = \".\\u0000\""), "t.toml:5:7: bot `a`: `dir` holds a NUL byte"),
        ("empty env name", bot_a("command = \"/bin/sh\"\nenv = { \"\" = \"a\" }"), "t.toml:5:9: bot `a`: an `env` name must not be empty"),
        ("env name with =", bot_a("command = \"/bin/sh\"\nenv = { \"A=B\" = \"x\" }"), "t.toml:5:9: bot `a`: `env` name `A=B` holds `=`"),
        ("CPU seconds past the kernel's", format!("game = \"petri\"\ncpu_seconds = 9223372036854775808\n{valid_bots}"), "t.toml:2:15: `cpu_seconds` must be from 0 to 18446744072 (0 = none)"),
        ("a bot's CPU seconds one past", bot_a("command = \"/bin/sh\"\ncpu_seconds = 18446744073"), "t.toml:5:15: bot `a`: `cpu_seconds` must be from 0 to 18446744072 (0 = none)"),
        ("megabytes past 64 bits of bytes", format!("game = \"petri\"\nmemory_mb = 17592186044416\n{valid_bots}"), "t.toml:2:13: `memory_mb` must be from 0 to 17592186044415 (0 = none)"),
        ("a bot's megabytes at the top", bot_a("command = \"/bin/sh\"\nmemory_mb = 18446744073709551615"), "t.toml:5:13: bot `a`: `memory_mb` must be from 0 to 17592186044415"),
        ("processes past the kernel's", format!("game = \"petri\"\nmax_processes = 4194305\n{valid_bots}"), "t.toml:2:17: `max_processes` must be from 1 to 4194304"),
        ("a bot's zero processes", bot_a("command = \"/bin/sh\"\nmax_processes = 0"), "t.toml:5:17: bot `a`: `max_processes` must be from 1 to 4194304"),
        ("cores past any machine's", format!("game = \"petri\"\ncpus = 1025\n{valid_bots}"), "t.toml:2:8: `cpus` must be from 0.01 to 1024 (0 = none)"),
        ("a bot's cores below a cgroup's least", bot_a("command = \"/bin/sh\"\ncpus = 0.001"), "t.toml:5:8: bot `a`: `cpus` must be from 0.01 to 1024 (0 = none)"),
        ("a bot's negative cores", bot_a("command = \"/bin/sh\"\ncpus = -1"), "t.toml:5:8: bot `a`: `cpus` must be from 0.01 to 1024"),
        ("cores that are not a number", format!("game = \"petri\"\ncpus = nan\n{valid_bots}"), "t.toml:2:8: `cpus` must be from 0.01 to 1024"),
    ];
    // A file of two bots whose first holds `keys`.
    fn first_bot(keys: &str) -> String {
        format!(
            "game = \"petri\"\n[[bots]]\n{keys}\n\
             [[bots]]\nname = \"b\"\ncommand = \"/bin/sh -c true\"\n"
        )
    }
    // Each of these is the first bot's name, as TOML escapes.
    fn named(name: &str) -> String {
        first_bot(&format!("name = \"{name}\"\ncommand = \"/bin/sh -c true\""))
    }
    // The first bot, `a`, with these keys after its name.
    fn bot_a(keys: &str) -> String {
        first_bot(&format!("name = \"a\"\n{keys}"))
    }
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
        // A file whose `bots` is no list also has no bots: that is a second problem.
        let problems = if *what == "bots not a list" { 2 } else { 1 };
        assert_eq!(
            problem_lines(&stderr).len(),
            problems,
            "{what}: one line each, and the file's line under it:\n{stderr}"
        );
        assert!(
            !stderr
                .lines()
                .any(|line| line.contains(arena::text::is_unsafe)),
            "{what}: escaped:\n{stderr:?}"
        );
        assert!(output.stdout.is_empty(), "{what}");
        assert!(
            !dir.path().join("arena-results").exists(),
            "{what}: no game may start"
        );
    }
}

/// A misspelt game hides the options and the bots' checks, which depend on the game, but
/// not the settings that hold for any game: one run says them all.
#[test]
fn an_unknown_game_still_names_the_other_settings_problems() {
    let dir = tempfile::tempdir().unwrap();
    write_toml(
        dir.path(),
        "t.toml",
        "game = \"petrii\"\njobs = 5000\ngames = 0\nmemory_mb = 18446744073709551615\n\
         [[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\n",
    );
    let output = arena(dir.path(), &["run", "t.toml"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines = problem_lines(&stderr);
    assert_eq!(lines.len(), 4, "{stderr}");
    for (line, start) in lines.iter().zip([
        "t.toml:1:8: unknown game `petrii`",
        "t.toml:2:8: `jobs` must be at most 1024",
        "t.toml:3:9: `games` must be at least 1",
        "t.toml:4:13: `memory_mb` must be from 0 to",
    ]) {
        assert!(line.starts_with(start), "{start}: {stderr}");
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
fn an_unreadable_tournament_file_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("folder.toml")).unwrap();
    let output = arena(dir.path(), &["run", "folder.toml"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("error: folder.toml: cannot read the file:"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// Names at the bounds are accepted: 64 characters (192 bytes of CJK), accents, emoji.
#[test]
fn names_up_to_64_characters_of_any_script_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let long = "東".repeat(64);
    let text = format!(
        "game = \"petri\"\ngames = 1\n[[bots]]\nname = \"{long}\"\ncommand = \"/bin/true\"\n\
         [[bots]]\nname = \"été 🐌\"\ncommand = \"/bin/true\"\n"
    );
    write_toml(dir.path(), "t.toml", &text);
    let output = arena(
        dir.path(),
        &["run", "t.toml", "--out", "out", "--no-sandbox"],
    );
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains(&long) && stdout.contains("été 🐌"),
        "{stdout}"
    );
}

/// A tournament file over 1 MiB is refused by its size, before it is read.
#[test]
fn a_tournament_file_over_the_size_bound_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bound = usize::try_from(arena::config::MAX_FILE_BYTES).unwrap();
    let padding = format!("# {}\n", "x".repeat(1000)).repeat(bound / 1000);
    write_toml(
        dir.path(),
        "t.toml",
        &format!("game = \"petri\"\n{padding}"),
    );
    let output = arena(dir.path(), &["run", "t.toml"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr,
        "error: t.toml: cannot read the file: it is over 1048576 bytes, the most a \
         tournament's files may have\n"
    );
    assert!(!dir.path().join("arena-results").exists());
}

/// `--jobs` past the bound is a usage error (it used to panic with exit 101 after creating
/// the results folder), and so is a bot name too long for a table or a folder name, before
/// anything is created.
#[test]
fn out_of_bound_jobs_and_names_create_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let text = "game = \"cave\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/true\"\n";
    write_toml(dir.path(), "ok.toml", text);
    let long = text.replace("\"a\"", &format!("\"{}\"", "a".repeat(300)));
    write_toml(dir.path(), "long.toml", &long);
    let runs: [(&[&str], &str); 3] = [
        (
            &[
                "run",
                "ok.toml",
                "--out",
                "out",
                "--jobs",
                "2305843009213693952",
            ],
            "invalid value '2305843009213693952' for '--jobs <N>': expected a number from 0 \
             to 1024",
        ),
        (
            &["run", "ok.toml", "--out", "out", "--jobs", "1025"],
            "expected a number from 0 to 1024",
        ),
        (
            &["run", "long.toml", "--out", "out"],
            "long.toml:3:8: bot name `aaaa",
        ),
    ];
    for (args, expected) in runs {
        let output = arena(dir.path(), args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(
            !dir.path().join("out").exists(),
            "{args:?}: nothing created"
        );
    }
}

#[test]
fn a_tournament_file_with_four_mistakes_reports_all_four_in_one_run() {
    // A misspelt key, a value of the wrong type, a misspelt option and a duplicate name.
    let text = "game = \"petri\"\ngmaes = 3\ntimeout_ms = \"fast\"\n[options]\nwidht = 5\n\
        [[bots]]\nname = \"a\"\ncommand = \"/bin/sh -c true\"\n\
        [[bots]]\nname = \"a\"\ncommand = \"/bin/sh -c true\"\n";
    assert_problems(
        text,
        &[
            "t.toml:2:1: unknown field `gmaes`",
            "t.toml:3:14: invalid type: string \"fast\", expected a whole number",
            "t.toml:5:1: unknown field `widht`",
            "t.toml:10:8: duplicate bot name `a`",
        ],
    );
}

/// Each problem shows its line of the file, a caret under the place it means: a compiler's
/// message, found at a glance in a file of many bots.
#[test]
fn a_problem_shows_its_line_with_a_caret_under_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let text = "game = \"petri\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\n\
        [[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\n";
    write_toml(dir.path(), "t.toml", text);
    let output = arena(dir.path(), &["run", "t.toml"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "error: t.toml:6:8: duplicate bot name `a`\n\
         error:  6 | name = \"a\"\n\
         error:    |        ^^^\n"
    );
}

/// The largest limits a file accepts are ones a run applies, sandboxed: a bot under them
/// replies. One CPU second more and the kernel's count of nanoseconds would wrap around, so
/// that SIGXCPU stops the bot at 0.3 s of CPU; one process more and the box's cgroup could
/// not be made.
#[test]
fn a_bot_under_the_largest_limits_accepted_replies() {
    let dir = tempfile::tempdir().unwrap();
    // About half a second of CPU, then a reply (no species: an invalid one).
    let busy = "i=0\nwhile [ $i -lt 400000 ]; do i=$((i + 1)); done\necho x\n";
    std::fs::write(dir.path().join("busy.sh"), busy).unwrap();
    let text = "game = \"petri\"\ngames = 1\nmemory_mb = 17592186044415\n\
        cpu_seconds = 18446744072\nmax_processes = 4194304\n\
        [[bots]]\nname = \"a\"\ncommand = \"/bin/sh busy.sh\"\n\
        [[bots]]\nname = \"b\"\ncommand = \"/bin/sh busy.sh\"\n";
    let file = write_toml(dir.path(), "t.toml", text);
    let output = run_ok(dir.path(), &file, &["--out", "r", "--format", "json"]);
    let board: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let bots = board["leaderboard"].as_array().unwrap();
    assert_eq!(bots.len(), 2, "{board}");
    for bot in bots {
        assert_eq!(bot["crashes"], 0, "{board}");
        assert_eq!(bot["invalid_replies"], 1, "{board}");
    }
}

/// A bot's `name` of the wrong type is reported as such, and stops nothing: the top-level
/// keys and the other bots are still checked (it used to end the reading with "missing
/// field `name`", and nothing else in the file was reported).
#[test]
fn a_name_of_the_wrong_type_hides_none_of_the_files_other_mistakes() {
    let text = "game = \"petri\"\nseed = \"one\"\ngames = 2.5\n\
        [[bots]]\nname = 5\ncommand = \"/bin/sh -c true\"\n\
        [[bots]]\nname = \"hunter\"\ncommand = \"/bin/sh -c true\"\nextra = \"x\"\n";
    assert_problems(
        text,
        &[
            "t.toml:2:8: invalid type: string \"one\", expected a whole number",
            "t.toml:3:9: invalid type: floating point `2.5`, expected a whole number",
            "t.toml:5:8: invalid type: integer `5`, expected a string",
            "t.toml:10:1: unknown field `extra`",
        ],
    );
}

/// A bot without a name is reported at its table, is checked like any other (called by
/// its place among the bots), and hides no other bot's mistakes.
#[test]
fn a_bot_without_a_name_is_still_checked_and_so_are_the_others() {
    let text = "game = \"petri\"\n\
        [[bots]]\ncommand = \"no-such-program-arena\"\n\
        [[bots]]\nname = \"b\"\ncommand = \"/bin/sh -c true\"\ncpu_seconds = -1\n";
    assert_problems(
        text,
        &[
            "t.toml:2:1: missing field `name`",
            "t.toml:3:11: bot 1: program `no-such-program-arena` not found in PATH",
            "t.toml:7:15: invalid value: integer `-1`, expected a whole number that is not negative",
        ],
    );
}

/// A `game` of the wrong type is reported as such, not as missing as well.
#[test]
fn a_game_of_the_wrong_type_is_not_also_missing() {
    let text = "game = 5\nseed = \"one\"\n[[bots]]\nname = \"a\"\ncommand = \"/bin/sh\"\n";
    assert_problems(
        text,
        &[
            "t.toml:1:8: invalid type: integer `5`, expected a string",
            "t.toml:2:8: invalid type: string \"one\", expected a whole number",
        ],
    );
}

/// Checks the file `text` in a temporary folder: exit status 2, exactly one line per
/// expected problem, in order, each starting with its expected text, and no game started.
/// `count` `[[bots]]` tables of a program that does nothing.
fn many_bots(count: usize) -> String {
    (0..count)
        .map(|i| format!("[[bots]]\nname = \"b{i}\"\ncommand = \"/bin/sh -c true\"\n"))
        .collect()
}

fn assert_problems(text: &str, expected: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    write_toml(dir.path(), "t.toml", text);
    let output = arena(dir.path(), &["run", "t.toml"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let lines = problem_lines(&stderr);
    assert_eq!(lines.len(), expected.len(), "{stderr}");
    for (problem, expected) in lines.iter().zip(expected) {
        assert!(
            problem.starts_with(expected),
            "{problem:?} is not {expected:?}"
        );
    }
    assert!(
        !dir.path().join("arena-results").exists(),
        "no game may start"
    );
}
