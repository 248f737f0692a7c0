//! `arena check` against good, illegal and slow bots, and `arena new`'s templates checked in
//! every language.

use std::path::Path;
use std::process::Output;

use arena_games::GameKind;

use crate::support::{Tag, arena, repo};

/// Runs `arena check GAME [options] -- COMMAND...` in `dir`.
fn check(dir: &Path, game: &str, options: &[&str], command: &[&str]) -> (Output, String) {
    let mut args = vec!["check", game];
    args.extend_from_slice(options);
    args.push("--");
    args.extend_from_slice(command);
    let output = arena(dir, &args);
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    (output, text)
}

/// Writes `script` as `NAME.py` in `dir` and checks it against `game`'s protocol there.
fn check_python(
    dir: &Path,
    game: &str,
    options: &[&str],
    name: &str,
    script: &str,
) -> (Output, String) {
    let file = format!("{name}.py");
    std::fs::write(dir.join(&file), script).unwrap();
    check(dir, game, options, &["/usr/bin/python3", "-S", "-I", &file])
}

fn hostile() -> String {
    repo().join("tests/bots/hostile.sh").display().to_string()
}

#[test]
fn the_sample_bots_pass_every_probe() {
    let dir = tempfile::tempdir().unwrap();
    let samples = [
        ("petri", "bots/petri/hunter.py", 6),
        ("petri", "bots/petri/classic.py", 5),
        ("slime", "bots/slime/greedy.py", 5),
        ("eggs", "bots/eggs/greedy.py", 4),
        ("alienwar", "bots/alienwar/hermit.py", 6),
        ("cave", "bots/cave/prospector.py", 4),
        // Keeps its memory in its private folder, which a check gives it too.
        ("cave", "bots/cave/scout.py", 4),
    ];
    for kind in GameKind::ALL {
        assert!(
            samples.iter().any(|(game, ..)| *game == kind.name()),
            "no sample bot of {kind} is checked"
        );
    }
    for (game, bot, probes) in samples {
        let bot = repo().join(bot).display().to_string();
        let (output, text) = check(
            dir.path(),
            game,
            &[],
            &["/usr/bin/python3", "-S", "-I", &bot],
        );
        assert_eq!(output.status.code(), Some(0), "{bot}:\n{text}");
        assert!(
            text.ends_with(&format!("\n{probes} of {probes} replies valid\n")),
            "{text}"
        );
    }
}

#[test]
fn a_loop_bot_is_checked_on_its_persistent_process() {
    let dir = tempfile::tempdir().unwrap();
    let bot = repo().join("bots/petri/hunter.py").display().to_string();
    let (_, text) = check(
        dir.path(),
        "petri",
        &[],
        &["/usr/bin/python3", "-S", "-I", &bot],
    );
    assert!(
        text.contains("parsed: yes, HP 4, energy 8, acidity 0, persistent (LOOP)"),
        "{text}"
    );
    assert!(
        text.contains("   sent to the persistent process (6 bytes):\n     | BEGIN\\n\n"),
        "{text}"
    );
    // The exact bytes of the first cell request: in LOOP mode the stats line ends in a
    // newline too.
    let request = "     | 10 4\\n\n     | ..........\\n\n     | .o........\\n\n     | \
                   ..........\\n\n     | ........x.\\n\n     | \\n\n     | 1 1 4 8\\n\n";
    assert!(text.contains(request), "{text}");
}

#[test]
fn a_loop_bot_that_never_flushes_is_told_what_a_silent_timeout_looks_like() {
    let dir = tempfile::tempdir().unwrap();
    // Answers the one-shot setup (`BEGIN` without a newline), then, as a persistent
    // process, prints its replies without flushing them.
    let bot = "import sys\nif not sys.stdin.readline().endswith('\\n'):\n\
               \x20   print('4 6 2 LOOP')\n    sys.exit()\n\
               print('REST')\nfor line in sys.stdin:\n    print('REST')\n";
    let (output, text) = check_python(
        dir.path(),
        "petri",
        &["--timeout-ms", "300", "--setup-timeout-ms", "500"],
        "unflushed",
        bot,
    );
    assert_eq!(output.status.code(), Some(3), "{text}");
    assert!(text.contains("   no reply: timed out after "), "{text}");
    assert!(
        text.contains(
            "nothing arrived: a persistent process that printed its reply but did not flush it"
        ),
        "{text}"
    );
}

#[test]
fn a_one_shot_bot_that_replies_and_keeps_running_is_shown_what_it_wrote() {
    let dir = tempfile::tempdir().unwrap();
    // Answers the one-shot setup, flushes, then waits instead of exiting.
    let bot = "import sys, time\nprint('4 6 2 LOOP', flush=True)\ntime.sleep(30)\n";
    let options = ["--timeout-ms", "300", "--setup-timeout-ms", "500"];
    let (output, text) = check_python(dir.path(), "petri", &options, "lingering", bot);
    assert_eq!(output.status.code(), Some(3), "{text}");
    assert!(
        text.contains(
            "   it had written (11 bytes), but had not ended:\n     | 4 6 2 LOOP\\n\n   a \
             process started for one request has replied once it exits"
        ),
        "{text}"
    );
}

#[test]
fn a_loop_bot_that_prints_more_than_its_reply_is_told_its_lines_run_out_of_step() {
    let dir = tempfile::tempdir().unwrap();
    // Answers the one-shot setup, then, as a persistent process, prints a debugging line
    // and then its reply for each request.
    let bot = "import sys\nif not sys.stdin.readline().endswith('\\n'):\n\
               \x20   print('4 6 2 LOOP')\n    sys.exit()\n\
               def reply():\n    print('thinking...')\n    print('REST', flush=True)\n\
               reply()\nfor line in sys.stdin:\n    reply()\n";
    let (output, text) = check_python(dir.path(), "petri", &[], "chatty", bot);
    assert_eq!(output.status.code(), Some(3), "{text}");
    assert!(
        text.contains(
            "   then, before the next request, it wrote 5 more bytes to stdout:\n     | REST\\n\n\
             \x20  out of step: a tournament reads one line per request"
        ),
        "{text}"
    );
}

/// A one-shot bot that prints debugging output before its move is told to print only its
/// reply, as a persistent one is; it was told only that its first line did not parse.
#[test]
fn a_one_shot_bot_that_prints_more_than_its_reply_is_told_to_print_only_the_reply() {
    let dir = tempfile::tempdir().unwrap();
    let bot = "import sys\nprint('DEBUG: got', sys.argv[1])\nprint('0 0 0 1')\n";
    let (output, text) = check_python(dir.path(), "slime", &[], "debug", bot);
    assert_eq!(output.status.code(), Some(3), "{text}");
    assert!(
        text.contains(
            "   parsed: no, the first line is not four integers\n   line 2 of the reply would \
             parse alone: a tournament reads all the bot writes to stdout as its reply; print \
             only the reply there, and anything else to stderr\n"
        ),
        "{text}"
    );
}

/// A reply in Windows line ends is told so, one-shot and persistent; it was told only that
/// its direction (`N\r`) was none of the eight.
#[test]
fn a_bot_that_ends_its_lines_in_cr_lf_is_told_so() {
    let dir = tempfile::tempdir().unwrap();
    let said = "   the reply ends in CR LF (\\r\\n), a Windows line end: print \"\\n\" only\n";
    // Answers the setup (`BEGIN` without a newline), then every request, and as a persistent
    // process (`BEGIN\n`) every stats line, in CR LF.
    let script = r#"import sys
first = sys.stdin.readline()
if first == 'BEGIN':
    print('SPECIES')
    sys.exit()
def reply():
    sys.stdout.write('DIVIDE N\r\n')
    sys.stdout.flush()
reply()
if first == 'BEGIN\n':
    for line in sys.stdin:
        if len(line.split()) == 4:
            reply()
"#;
    for (name, species) in [("oneshot", "4 6 2"), ("persistent", "4 6 2 LOOP")] {
        let bot = script.replace("SPECIES", species);
        let (output, text) = check_python(dir.path(), "petri", &[], name, &bot);
        assert_eq!(output.status.code(), Some(3), "{text}");
        assert_eq!(text.matches(said).count(), 4, "{name}: {text}");
    }
}

/// A bot that opens a file by a path relative to the folder it runs in is shown that
/// folder, and `--dir`; it was shown only its `FileNotFoundError`.
#[test]
fn a_bot_that_crashes_is_told_the_folder_it_ran_in() {
    let dir = tempfile::tempdir().unwrap();
    let here = dir.path().canonicalize().unwrap();
    let mine = here.join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("weights.txt"), "0 0 0 1\n").unwrap();
    let bot = mine.join("bot.py").display().to_string();
    std::fs::write(&bot, "print(open('weights.txt').read())\n").unwrap();
    let command = ["/usr/bin/python3", "-S", "-I", &bot];
    let (output, text) = check(&here, "slime", &[], &command);
    assert_eq!(output.status.code(), Some(3), "{text}");
    let folder = here.display();
    assert!(
        text.contains(&format!(
            "\nfolder: {folder}, where it runs (--dir DIR or a file's `dir` runs it"
        )),
        "{text}"
    );
    assert!(text.contains("FileNotFoundError"), "{text}");
    assert!(
        text.ends_with(&format!(
            "\nthe bot crashed without replying on 5 of 5 requests. It ran in {folder}, where a file it opens by \
             a relative path is looked for: --dir DIR or a file's `dir` runs it in another folder\n\n0 of 5 \
             replies valid\n"
        )),
        "{text}"
    );
    // Run where its file is, it replies.
    let mine = mine.display().to_string();
    let (_, text) = check(&here, "slime", &["--dir", &mine], &command);
    assert!(!text.contains("crashed"), "{text}");
    assert!(text.contains("parsed: yes"), "{text}");
}

#[test]
fn an_illegal_reply_is_shown_parsed_but_illegal_and_fails_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = hostile();
    let (output, text) = check(dir.path(), "petri", &[], &["/bin/sh", &hostile, "illegal"]);
    assert_eq!(output.status.code(), Some(3), "{text}");
    assert!(text.contains("1. setup\n"), "{text}");
    assert!(text.contains("     | 5 6 1\\n\n"), "{text}");
    assert!(
        text.contains(
            "     | ATTACK N 9\\n\n   parsed: yes, Attack(N, 9)\n   legal: no, the attack \
             strength is not 1, 2 or 3\n   => INVALID\n"
        ),
        "{text}"
    );
    assert!(text.ends_with("\n1 of 5 replies valid\n"), "{text}");

    let (output, text) = check(dir.path(), "slime", &[], &["/bin/sh", &hostile, "garbage"]);
    assert_eq!(output.status.code(), Some(3), "{text}");
    assert!(
        text.contains("parsed: no, the first line is not four integers"),
        "{text}"
    );
    assert!(text.ends_with("\n0 of 5 replies valid\n"), "{text}");
}

#[test]
fn an_alien_is_checked_on_one_persistent_process_and_garbage_fails() {
    let dir = tempfile::tempdir().unwrap();
    let bot = repo()
        .join("bots/alienwar/stalker.py")
        .display()
        .to_string();
    let (output, text) = check(
        dir.path(),
        "alienwar",
        &[],
        &["/usr/bin/python3", "-S", "-I", &bot],
    );
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert_eq!(
        text.matches("sent to the persistent process").count(),
        6,
        "{text}"
    );
    assert!(text.contains("     | CREATE 100 39\\n\n"), "{text}");
    assert!(text.contains("parsed: yes, 100 allocations\n"), "{text}");

    // A species that answers every request with one garbage line.
    let garbage = "while read -r line; do echo 'MOVE banana'; done";
    let (output, text) = check(dir.path(), "alienwar", &[], &["/bin/sh", "-c", garbage]);
    assert_eq!(output.status.code(), Some(3), "{text}");
    assert!(
        text.contains("parsed: no, word 1 is not five decimals"),
        "{text}"
    );
    assert!(text.ends_with("\n0 of 6 replies valid\n"), "{text}");
}

#[test]
fn a_persistent_bots_stderr_shows_beside_each_invalid_reply_and_only_its_own() {
    let dir = tempfile::tempdir().unwrap();
    // A species that says on stderr what it answers: CREATE well, everything else badly.
    let species = "import sys\n\
                   for header in sys.stdin:\n\
                   \x20   word, count = header.split()[:2]\n\
                   \x20   for _ in range(0 if word == 'CREATE' else int(count)):\n\
                   \x20       sys.stdin.readline()\n\
                   \x20   print('answering', word, file=sys.stderr, flush=True)\n\
                   \x20   good = word == 'CREATE'\n\
                   \x20   print(' '.join(['1,1,1,1,1' if good else '?'] * int(count)), flush=True)\n";
    let (output, text) = check(
        dir.path(),
        "alienwar",
        &[],
        &["/usr/bin/python3", "-S", "-I", "-c", species],
    );
    assert_eq!(output.status.code(), Some(3), "{text}");
    let blocks: Vec<&str> = text.split("\n\n").collect();
    let creation = blocks.iter().find(|b| b.starts_with("1. ")).unwrap();
    assert!(creation.ends_with("=> valid"), "{creation}");
    assert!(
        !creation.contains("stderr"),
        "a valid reply's stderr is not shown: {creation}"
    );
    let moves = blocks.iter().find(|b| b.starts_with("2. ")).unwrap();
    assert!(
        moves.contains("   stderr (end):\n     | answering MOVE\n   => INVALID"),
        "only what it wrote while answering: {moves}"
    );
}

#[test]
fn a_java_alien_is_checked_through_its_host_compiled_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let host = repo().join("hosts/alienwar-java");
    let classes = dir.path().join("classes");
    let javac = std::process::Command::new("javac")
        .arg("-d")
        .arg(&classes)
        .args([
            host.join("planet/Move.java"),
            host.join("planet/Specie.java"),
            host.join("planet/AlienWarHost.java"),
            host.join("alien/Alien.java"),
            repo().join("bots/alienwar/Nomad.java"),
        ])
        .output()
        .expect("javac runs");
    assert!(javac.status.success(), "{javac:?}");
    let classes = classes.display().to_string();
    let (output, text) = check(
        dir.path(),
        "alienwar",
        &[],
        &[
            "java",
            "-cp",
            &classes,
            "planet.AlienWarHost",
            "alien.Nomad",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(text.ends_with("\n6 of 6 replies valid\n"), "{text}");
}

#[test]
fn a_bot_that_times_out_fails_the_check_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let tag = Tag::new(dir.path());
    let command = tag.command(&["/bin/sh".to_owned(), hostile(), "hang".to_owned()]);
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    let (output, text) = check(dir.path(), "petri", &["--timeout-ms", "200"], &command);
    assert_eq!(output.status.code(), Some(3), "{text}");
    assert_eq!(
        text.matches("   no reply: timed out after").count(),
        4,
        "{text}"
    );
    assert!(text.ends_with("\n1 of 5 replies valid\n"), "{text}");
    assert_eq!(tag.survivors(), Vec::<i32>::new());
}

#[test]
fn a_cave_check_gives_each_request_the_games_own_two_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let tag = Tag::new(dir.path());
    let command = tag.command(&["/bin/sh".to_owned(), hostile(), "hang".to_owned()]);
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    let (output, text) = check(dir.path(), "cave", &[], &command);
    assert_eq!(output.status.code(), Some(3), "{text}");
    let waited: Vec<f64> = text
        .split("   no reply: timed out after ")
        .skip(1)
        .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
        .collect();
    // Cave Rangers' 2 s, not the 5 s of other games; every probe is a turn.
    assert_eq!(waited.len(), 4, "{text}");
    assert!(
        waited.iter().all(|&ms| (2000.0..5000.0).contains(&ms)),
        "{text}"
    );
    assert_eq!(tag.survivors(), Vec::<i32>::new());
}

/// A Cave bot's check says what it left in its private folder and what a tournament makes
/// of it, with its box and without one.
#[test]
fn a_cave_check_says_what_the_bot_left_in_its_private_folder() {
    let dir = tempfile::tempdir().unwrap();
    let bots = [
        (
            "modest",
            "printf x > memory.txt\n",
            "holds 1 bytes after the check, within",
        ),
        (
            "hoarder",
            "head -c 2000 /dev/zero > memory.txt\n",
            "holds 2000 bytes after the check, over the game's 1024-byte cap",
        ),
        (
            "sparse",
            "truncate -s 2M memory.txt\n",
            "held more than 1048576 bytes of files after the check, more than the runner keeps",
        ),
    ];
    for (name, write, says) in bots {
        let script = format!("cat > /dev/null\n{write}echo HNNHNN\n");
        std::fs::write(dir.path().join(format!("{name}.sh")), script).unwrap();
        for sandbox in [&[][..], &["--no-sandbox"]] {
            let file = format!("{name}.sh");
            let (output, text) = check(dir.path(), "cave", sandbox, &["/bin/sh", &file]);
            assert_eq!(output.status.code(), Some(0), "{name} {sandbox:?}: {text}");
            assert!(text.contains(says), "{name} {sandbox:?}: {text}");
        }
    }
}

#[test]
fn a_missing_program_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let (output, _) = check(dir.path(), "petri", &[], &["./no-such-bot"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no-such-bot does not exist"), "{stderr}");
    // A script argument: check names its own flag for the folder, not a file's key only.
    let (output, _) = check(dir.path(), "petri", &[], &["/bin/sh", "gone.sh"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("script gone.sh does not exist")
            && stderr.contains("`arena check`'s `--dir`"),
        "{stderr}"
    );
    // A bot in the folder named bare, as a shell would not find it; a command quoted whole.
    std::fs::write(dir.path().join("bot.sh"), "#!/bin/sh\necho 1\n").unwrap();
    let (output, _) = check(dir.path(), "petri", &[], &["bot.sh"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("not found in PATH (for bot.sh in the bot's folder, write `./bot.sh`)"),
        "{stderr}"
    );
    let (output, _) = check(dir.path(), "petri", &[], &["/usr/bin/python3 bot.py"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("a command is its words one by one: its program, then its arguments"),
        "{stderr}"
    );

    // As in a tournament file: no folder to run in and no time to answer are usage errors.
    let true_bot = ["/bin/true"];
    let (output, _) = check(dir.path(), "petri", &["--dir", "nowhere"], &true_bot);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--dir nowhere: not a folder"), "{stderr}");
    for zero in ["--timeout-ms", "--setup-timeout-ms"] {
        let (output, _) = check(dir.path(), "petri", &[zero, "0"], &true_bot);
        assert_eq!(output.status.code(), Some(2), "{zero}");
    }
}

/// A script without execute permission is named by a clean path (it was
/// `DIR/./bot.py` for `./bot.py`), with both cures: the permission, or its `#!` line's
/// interpreter named first.
#[test]
fn a_script_that_is_not_executable_is_told_how_to_run() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().canonicalize().unwrap();
    std::fs::create_dir(folder.join("mine")).unwrap();
    std::fs::write(folder.join("mine/bot.py"), "#!/usr/bin/env python3\n").unwrap();
    let (output, _) = check(&folder, "slime", &[], &["./mine/bot.py"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let path = folder.join("mine/bot.py").display().to_string();
    assert_eq!(
        stderr.trim_end(),
        format!(
            "error: program {path} is not executable: make it so (`chmod +x {path}`) or name \
             its interpreter first (`python3 ./mine/bot.py`)"
        )
    );
}

/// As root, a check runs the bot as nobody: its closed folder and unreadable script are
/// named in one message that says what is closed (it began "its folder", and named the
/// script only in a second run).
#[test]
fn a_bot_closed_to_nobody_is_told_every_chmod_at_once() {
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().canonicalize().unwrap().join("priv");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("bot.py"), "print(1)\n").unwrap();
    std::fs::set_permissions(folder.join("bot.py"), PermissionsExt::from_mode(0o600)).unwrap();
    std::fs::set_permissions(&folder, PermissionsExt::from_mode(0o700)).unwrap();
    let (output, _) = check(
        dir.path(),
        "slime",
        &[],
        &["/usr/bin/python3", "priv/bot.py"],
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let (folder, script) = (folder.display(), folder.join("bot.py"));
    let script = script.display();
    assert!(
        stderr.starts_with(&format!(
            "error: folder {folder} cannot be entered, nor script {script} read, by nobody"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("`chmod o+x {folder}`, `chmod o+r {script}`")),
        "{stderr}"
    );
}

/// Writes the template of `game` in `lang` with `arena new`, builds it if needed, and
/// checks it with `arena check`.
fn assert_template_passes(game: &str, lang: &str) {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot");
    let output = arena(dir.path(), &["new", game, "--lang", lang, "bot"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!("check it:  arena check {game} -- ")),
        "{stdout}"
    );
    let command: Vec<String> = match lang {
        "python" => vec![
            "/usr/bin/python3".into(),
            "-S".into(),
            "-I".into(),
            "bot/bot.py".into(),
        ],
        "javascript" => vec!["node".into(), "bot/bot.js".into()],
        "rust" => {
            let compiled = std::process::Command::new("rustc")
                .args(["--edition", "2021", "src/main.rs", "-o", "bot"])
                .current_dir(&bot)
                .output()
                .expect("rustc runs");
            assert!(
                compiled.status.success(),
                "{}",
                String::from_utf8_lossy(&compiled.stderr)
            );
            vec!["bot/bot".into()]
        }
        _ => unreachable!(),
    };
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    let (output, text) = check(dir.path(), game, &[], &command);
    assert_eq!(output.status.code(), Some(0), "{game} in {lang}:\n{text}");
    // Writing again would overwrite: refused, nothing changed.
    let again = arena(dir.path(), &["new", game, "--lang", lang, "bot"]);
    assert_eq!(again.status.code(), Some(2));
}

/// A script template runs by its `#!` line, named alone as the command: it was written
/// without execute permission, and the check refused it as "not executable".
#[test]
fn a_script_template_runs_as_its_own_command() {
    let dir = tempfile::tempdir().unwrap();
    for (game, lang, folder, script) in [
        ("slime", "python", "py", "./py/bot.py"),
        ("petri", "javascript", "js", "./js/bot.js"),
    ] {
        let output = arena(dir.path(), &["new", game, "--lang", lang, folder]);
        assert!(output.status.success(), "{output:?}");
        let (output, text) = check(dir.path(), game, &[], &[script]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{script}: {stderr}{text}");
    }
}

/// The README's sample of `arena new` is what the command prints: it had kept an older
/// wording of the Python start-up note.
#[test]
fn the_readme_shows_what_new_prints() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let command = "```text\n$ arena new slime --lang python my-bot\n";
    let sample = readme
        .split(command)
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README shows `arena new`");
    let dir = tempfile::tempdir().unwrap();
    let output = arena(dir.path(), &["new", "slime", "--lang", "python", "my-bot"]);
    assert_eq!(String::from_utf8_lossy(&output.stdout), sample);
}

/// A Rust bot made inside another Cargo workspace (an arena checkout, say) is a package of
/// its own there: Cargo refused to build it ("believes it's in a workspace when it's not").
#[test]
fn the_rust_template_builds_inside_another_workspace() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Cargo.toml"), "[workspace]\nmembers = []\n").unwrap();
    let output = arena(dir.path(), &["new", "petri", "--lang", "rust", "bot"]);
    assert!(output.status.success());
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let metadata = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--offline",
            "--no-deps",
            "--format-version",
            "1",
        ])
        .args(["--manifest-path", "bot/Cargo.toml"])
        .current_dir(dir.path())
        .output()
        .expect("cargo runs");
    assert!(
        metadata.status.success(),
        "{}",
        String::from_utf8_lossy(&metadata.stderr)
    );
}

#[test]
fn the_python_templates_pass_the_check() {
    for game in GameKind::ALL {
        assert_template_passes(game.name(), "python");
    }
}

#[test]
fn the_javascript_templates_pass_the_check() {
    for game in GameKind::ALL {
        assert_template_passes(game.name(), "javascript");
    }
}

#[test]
fn the_rust_templates_pass_the_check() {
    for game in GameKind::ALL {
        assert_template_passes(game.name(), "rust");
    }
}

#[test]
fn new_refuses_a_file_for_its_folder_and_prints_a_hostile_folder_name_escaped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("afile"), "").unwrap();
    let output = arena(dir.path(), &["new", "slime", "--lang", "python", "afile"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("afile is a file, not a folder"), "{stderr}");

    let output = arena(
        dir.path(),
        &["new", "slime", "--lang", "python", "a\nb\x1b[2J"],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("wrote a\\nb\\x1b[2J/bot.py\n"), "{stdout}");
    assert!(!stdout.contains('\x1b'), "{stdout}");
    assert!(dir.path().join("a\nb\x1b[2J/bot.py").exists());
}

/// A `DIR` that cannot be a folder (under a file, or a link to nothing) is the command
/// line's mistake, exit status 2 (it was 1, with `Not a directory` or `File exists`), and
/// nothing is written; a file in the way is never written through, even a link to nothing
/// (which `new` used to follow, creating its target outside the folder), nor a folder on
/// the way that is a link out of it.
#[test]
fn new_refuses_a_folder_it_cannot_make_and_never_writes_through_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let here = dir.path();
    std::fs::write(here.join("afile"), "").unwrap();
    std::os::unix::fs::symlink("nowhere", here.join("link")).unwrap();
    std::fs::create_dir_all(here.join("d3")).unwrap();
    std::os::unix::fs::symlink("../outside/bot.py", here.join("d3/bot.py")).unwrap();
    std::fs::create_dir_all(here.join("d4")).unwrap();
    std::fs::create_dir_all(here.join("outside")).unwrap();
    std::os::unix::fs::symlink("../outside", here.join("d4/src")).unwrap();
    for (lang, folder, message) in [
        (
            "python",
            "afile/sub",
            "afile is a file, not a folder; choose another folder",
        ),
        (
            "python",
            "link",
            "link is a symbolic link to nothing; choose another folder",
        ),
        ("python", "link/sub", "link is a symbolic link to nothing"),
        (
            "python",
            "d3",
            "not overwriting d3/bot.py; choose another folder",
        ),
        (
            "rust",
            "d4",
            "not overwriting d4/src; choose another folder",
        ),
    ] {
        let output = arena(here, &["new", "petri", "--lang", lang, folder]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{folder}: {stderr}");
        assert!(stderr.contains(message), "{folder}: {stderr}");
    }
    assert!(!here.join("nowhere").exists());
    assert!(!here.join("d4/Cargo.toml").exists());
    let outside: Vec<_> = std::fs::read_dir(here.join("outside")).unwrap().collect();
    assert!(outside.is_empty(), "written outside: {outside:?}");
}

/// A persistent bot that closes its stdout and lives on is stopped by arena, and `check` says
/// so rather than blaming the bot for arena's own signal.
#[test]
fn a_loop_bot_that_closes_its_stdout_is_said_to_be_stopped_by_arena() {
    let dir = tempfile::tempdir().unwrap();
    // The setup comes without a newline, one-shot; the persistent process's requests end in
    // one.
    let script = "import os, sys, time\n\
                  first = sys.stdin.readline()\n\
                  print('4 6 2 LOOP', flush=True)\n\
                  if first.endswith('\\n'):\n    os.close(1)\n    time.sleep(60)\n";
    let (output, text) = check_python(dir.path(), "petri", &[], "closer", script);
    assert_eq!(output.status.code(), Some(3), "{text}");
    assert!(
        text.contains(
            "no reply: the process ended without replying (still running, so stopped by arena)"
        ),
        "{text}"
    );
    assert!(
        text.contains("not sent: the persistent process is gone (it failed a request above)"),
        "{text}"
    );
}

/// A contestant checks a bot under a competition's limits: the flags are the file's keys,
/// applied and said.
#[test]
fn the_limits_a_tournament_file_sets_are_flags_of_check() {
    let dir = tempfile::tempdir().unwrap();
    let limits = [
        "--max-reply-bytes",
        "3",
        "--max-processes",
        "10",
        "--cpu-seconds",
        "5",
        "--memory-mb",
        "500",
    ];
    let (output, text) = check(dir.path(), "petri", &limits, &["/bin/echo", "5 6 1"]);
    assert_eq!(output.status.code(), Some(3), "{text}");
    for said in [
        "at most 10 processes and threads",
        "5 s per process (RLIMIT_CPU)",
        "500 MiB of address space per process (RLIMIT_AS)",
        "no reply: the reply was longer than the size cap, 3 bytes (`--max-reply-bytes`",
        "\n  syscalls:   no namespaces, mounts, tracing, eBPF, kernel keys or io_uring (seccomp)\n",
    ] {
        assert!(text.contains(said), "{said}: {text}");
    }
    let (output, _) = check(
        dir.path(),
        "petri",
        &["--max-reply-bytes", "0"],
        &["/bin/true"],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("expected a whole number from 1"),
        "{stderr}"
    );
    // A JVM under 512 MiB may not start and cannot say why: refused, as in a file.
    let java = [
        "check",
        "alienwar",
        "--memory-mb",
        "300",
        "--java",
        "A.java",
    ];
    let output = arena(dir.path(), &java);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--memory-mb 300: a JVM needs at least 512 (0 for no limit)"),
        "{stderr}"
    );
}

/// A host checks every entry of a tournament file as the file runs it, before the
/// tournament: a report per bot, then a line per bot, exit status 3 if any reply was
/// invalid; `--bots` checks some.
#[test]
fn every_bot_of_a_tournament_file_is_checked_as_the_file_runs_it() {
    let dir = tempfile::tempdir().unwrap();
    let hunter = repo().join("bots/petri/hunter.py");
    let text = format!(
        "game = \"petri\"\ntimeout_ms = 3000\n\
         [[bots]]\nname = \"good\"\ncommand = [\"/usr/bin/python3\", \"-S\", \"-I\", {:?}]\n\
         [[bots]]\nname = \"bad\"\ncommand = [\"/bin/sh\", \"-c\", \"echo 5 6 1\"]\n",
        hunter.display().to_string()
    );
    std::fs::write(dir.path().join("t.toml"), text).unwrap();
    let output = arena(dir.path(), &["check", "--tournament", "t.toml"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(3), "{stdout}");
    assert!(
        stdout.starts_with("bot good\nchecking `/usr/bin/python3 -S -I "),
        "{stdout}"
    );
    let bad = stdout
        .split("\nbot bad\nchecking `")
        .nth(1)
        .unwrap_or_default();
    assert!(bad.contains("sh -c 'echo 5 6 1'` against"), "{stdout}");
    assert!(
        stdout.ends_with("good: every reply valid\nbad: INVALID replies (see its report above)\n"),
        "{stdout}"
    );
    let output = arena(
        dir.path(),
        &["check", "--tournament", "t.toml", "--bots", "good"],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("bot bad"), "{stdout}");
    let output = arena(
        dir.path(),
        &["check", "--tournament", "t.toml", "--exclude", "good,bad"],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--bots/--exclude keep no bot of t.toml: nothing to check"));
    // One bot or a file, not both; --bots only with a file.
    let output = arena(dir.path(), &["check", "petri", "--tournament", "t.toml"]);
    assert_eq!(output.status.code(), Some(2));
    let output = arena(
        dir.path(),
        &["check", "petri", "--bots", "a", "--", "/bin/true"],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--bots/--exclude choose among the bots of --tournament FILE"));
}

/// A contestant's file with only their bot is checked as it would run: check plays no game,
/// so the game's least number of bots (Slime's 4) is for `run` alone.
#[test]
fn a_file_with_fewer_bots_than_a_game_needs_is_checked_and_refused_by_run() {
    let dir = tempfile::tempdir().unwrap();
    let greedy = repo().join("bots/slime/greedy.py");
    let text = format!(
        "game = \"slime\"\n[[bots]]\nname = \"mine\"\n\
         command = [\"/usr/bin/python3\", \"-S\", \"-I\", {:?}]\n",
        greedy.display().to_string()
    );
    std::fs::write(dir.path().join("t.toml"), text).unwrap();
    let output = arena(dir.path(), &["check", "--tournament", "t.toml"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.ends_with("\nmine: every reply valid\n"), "{stdout}");
    let output = arena(dir.path(), &["run", "t.toml"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("slime needs at least 4 bots, the file has 1"),
        "{stderr}"
    );
}

/// Replies are judged by the game's options: Slime's lenient parsing takes a move without a
/// newline, which the original controller's strict one refuses; from `--option` or from the
/// tournament file, named in the report.
#[test]
fn replies_are_judged_by_the_options_given_or_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ["/bin/sh", "-c", "printf '0 0 1 1'"];
    let first = |text: &str| text.split("\n2. ").next().unwrap().to_owned();
    let (output, text) = check(dir.path(), "slime", &[], &bot);
    assert_eq!(output.status.code(), Some(3), "{text}");
    assert!(
        first(&text).contains("nothing follows the fourth integer"),
        "{text}"
    );
    assert!(!text.contains("options: "), "{text}");
    let lenient = ["--option", "parsing=lenient"];
    let (_, text) = check(dir.path(), "slime", &lenient, &bot);
    assert!(
        text.contains("\noptions: parsing = \"lenient\", which the replies are judged by\n"),
        "{text}"
    );
    assert!(first(&text).ends_with("=> valid\n"), "{text}");
    let (output, _) = check(dir.path(), "slime", &["--option", "parsing=loose"], &bot);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--option: unknown variant `loose`"),
        "{stderr}"
    );

    let bots: String = (1..=4)
        .map(|n| {
            format!("[[bots]]\nname = \"nonl{n}\"\ncommand = [\"/bin/sh\", \"-c\", \"printf '0 0 1 1'\"]\n")
        })
        .collect();
    let text = format!("game = \"slime\"\n[options]\nparsing = \"lenient\"\n{bots}");
    std::fs::write(dir.path().join("t.toml"), text).unwrap();
    let output = arena(
        dir.path(),
        &["check", "--tournament", "t.toml", "--bots", "nonl1"],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("\noptions: those of t.toml, which the replies are judged by\n"),
        "{stdout}"
    );
    assert!(first(&stdout).ends_with("=> valid\n"), "{stdout}");
}

/// A process the box's `max_processes` refuses is said to be the limit's, not the
/// machine's "Resource temporarily unavailable" alone. As root a cgroup counts the box's
/// processes, its init included; unprivileged, `RLIMIT_NPROC` counts only what the bot
/// starts, so the bot itself starts.
#[test]
fn a_process_the_boxs_limit_refuses_names_max_processes() {
    let dir = tempfile::tempdir().unwrap();
    let limit = ["--max-processes", "1"];
    let (output, text) = check(dir.path(), "petri", &limit, &["/bin/echo", "5 6 1"]);
    assert_eq!(output.status.code(), Some(3), "{text}");
    let setup = text.split("\n2. ").next().unwrap();
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        assert!(
            setup.contains(
                "the box already holds as many processes and threads as its `max_processes` \
                 (1) allows, its own init included"
            ),
            "{text}"
        );
    } else {
        assert!(setup.contains("=> valid"), "{text}");
    }
}
