//! Failures a contestant can see: every invalid reply with its reason in `-v`, the journal
//! and the replay.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{arena, write_toml};

/// The Petri reason for `ATTACK N 9`.
pub(crate) const STRENGTH: &str = "the attack strength is not 1, 2 or 3";

/// A Petri tournament of `bad`, which attacks with strength 9 in every turn, against
/// `rests`, which rests, in 3 turns each on a small dish: `bad` sends 3 invalid replies.
pub(crate) fn invalid_every_turn(dir: &Path) -> PathBuf {
    let bot = |action: &str| {
        format!(
            "[\"/bin/sh\", \"-c\", 'read -r l; if [ \"$l\" = BEGIN ]; then echo 4 4 4; \
             else echo {action}; fi']"
        )
    };
    small_petri(dir, [("bad", bot("ATTACK N 9")), ("rests", bot("REST"))])
}

/// `dir/t.toml`: one Petri game of two bots, (name, TOML command) each, 3 turns each on a
/// small dish.
fn small_petri(dir: &Path, [(a, a_command), (b, b_command)]: [(&str, String); 2]) -> PathBuf {
    let text = format!(
        "game = \"petri\"\ngames = 1\n[options]\nwidth = 5\nheight = 3\nturns = 3\n\
         [[bots]]\nname = \"{a}\"\ncommand = {a_command}\n\
         [[bots]]\nname = \"{b}\"\ncommand = {b_command}\n",
    );
    write_toml(dir, "t.toml", &text)
}

/// The first game's seats in `dir/journal.jsonl`.
fn journal_seats(dir: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("journal.jsonl")).unwrap();
    let game: Value = serde_json::from_str(text.lines().nth(1).expect("a game line")).unwrap();
    game["data"]["seats"].as_array().unwrap().clone()
}

#[test]
fn a_bot_invalid_in_every_turn_gets_one_log_line_per_invalid_reply_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    invalid_every_turn(dir.path());
    let output = arena(dir.path(), &["-v", "run", "t.toml", "--out", "r"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("invalid reply from"))
        .collect();
    let expected: Vec<String> = [1, 3, 5]
        .map(|turn| {
            format!("invalid reply from bad in game 0, turn {turn}: `ATTACK N 9\\n`: {STRENGTH}")
        })
        .to_vec();
    assert_eq!(lines.len(), expected.len(), "{stderr}");
    for (line, want) in lines.iter().zip(&expected) {
        assert!(line.ends_with(want.as_str()), "{line:?} is not {want:?}");
    }

    let seats = journal_seats(&dir.path().join("r"));
    assert_eq!(seats[0]["invalid_replies"], 3, "{seats:?}");
    assert_eq!(
        seats[0]["invalid_reasons"],
        serde_json::json!({ STRENGTH: 3 }),
        "{seats:?}"
    );
    assert!(seats[1].get("invalid_reasons").is_none(), "{seats:?}");
}

#[test]
fn a_long_invalid_reply_is_logged_cut_to_80_characters_and_escaped() {
    let dir = tempfile::tempdir().unwrap();
    // An escape sequence, then 100 `!`: not a Slime move.
    let bang = "!".repeat(100);
    let text = format!(
        "game = \"slime\"\ngames = 1\n[options]\nmax_turns = 4\n\
         [[bots]]\nname = \"a\"\n\
         command = [\"/bin/sh\", \"-c\", \"printf '\\\\033[2J%s\\\\n' {bang}\"]\n\
         [[bots]]\nname = \"b\"\ncommand = [\"/bin/sh\", \"-c\", \"echo x\"]\n\
         [[bots]]\nname = \"c\"\ncommand = [\"/bin/sh\", \"-c\", \"echo x\"]\n\
         [[bots]]\nname = \"d\"\ncommand = [\"/bin/sh\", \"-c\", \"echo x\"]\n"
    );
    write_toml(dir.path(), "t.toml", &text);
    let output = arena(dir.path(), &["-v", "run", "t.toml", "--out", "r"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let line = stderr
        .lines()
        .find(|line| line.contains("invalid reply from a "))
        .unwrap_or_else(|| panic!("no line for a: {stderr}"));
    let shown = format!("`\\x1b[2J{}…`", "!".repeat(76));
    assert!(line.contains(&shown), "{line}");
    assert!(
        line.ends_with("the first line is not four integers"),
        "{line}"
    );
    assert!(
        !output.stderr.contains(&0x1b),
        "a raw escape reached stderr"
    );
}

#[test]
fn a_bot_crashing_in_every_request_is_named_with_its_last_stderr_line_even_with_q() {
    let dir = tempfile::tempdir().unwrap();
    let text = "game = \"petri\"\ngames = 2\n[options]\nwidth = 5\nheight = 3\nturns = 3\n\
        [[bots]]\nname = \"crasher\"\n\
        command = [\"/bin/sh\", \"-c\", 'echo starting >&2; echo \"NameError: x\" >&2; exit 1']\n\
        [[bots]]\nname = \"rests\"\n\
        command = [\"/bin/sh\", \"-c\", 'read -r l; if [ \"$l\" = BEGIN ]; then echo 4 4 4; \
        else echo REST; fi']\n";
    write_toml(dir.path(), "t.toml", text);
    for (quiet, out) in [(false, "r1"), (true, "r2")] {
        let mut args = vec!["run", "t.toml", "--out", out];
        if quiet {
            args.insert(0, "-q");
        }
        let output = arena(dir.path(), &args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        let warning = "warning: bot crasher crashed in every one of its 2 requests; the first \
                       crash: ended without replying (exit status 1); last stderr:\n    \
                       starting\n    NameError: x\n";
        assert!(stderr.contains(warning), "quiet {quiet}: {stderr}");
        assert!(!stderr.contains("bot rests"), "{stderr}");
    }
}

#[test]
fn a_persistent_bot_with_invalid_replies_is_named_with_the_end_of_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    // A LOOP bot that says on stderr why it attacks with strength 9, a one-shot one that
    // says it too: the one-shot bot's stderr went with its process.
    let bot = |mode: &str| {
        format!(
            "[\"/bin/sh\", \"-c\", 'read -r l; echo 4 4 4 {mode}; while read -r l; do \
             if [ -z \"$l\" ]; then echo \"strength 9, since $0\" >&2; echo ATTACK N 9; fi; done', \
             \"{mode}\"]"
        )
    };
    small_petri(dir.path(), [("looping", bot("LOOP")), ("once", bot(""))]);
    let output = arena(dir.path(), &["run", "t.toml", "--out", "r"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let warning = format!(
        "warning: bot looping had 3 failures in its 5 requests in 1 game: 0 timeouts, 0 crashes, \
         3 invalid replies ({STRENGTH}: 3); the first invalid reply: `ATTACK N 9` \
         ({STRENGTH}); last stderr:\n{}",
        "    strength 9, since LOOP\n".repeat(3)
    );
    assert!(stderr.contains(&warning), "{stderr}");
    let once = stderr
        .split("warning: ")
        .find(|w| w.starts_with("bot once had"));
    assert!(
        once.is_some_and(|warning| warning.trim_end().ends_with("; no stderr kept")),
        "the one-shot bot: {stderr}"
    );
}

/// A Petri bot chooses its mode: only the one whose persistent process failed is told that
/// the failure ended it and the fallback answered the rest. looping and once time out in
/// every request after the setup (looping's setup process ends at the end of its input; its
/// persistent one waits); berserk's setup process crashes after its reply, as the original
/// Berserker's does, and its persistent process answers every request.
#[test]
fn only_a_bot_whose_persistent_process_failed_is_told_the_fallback_answered_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let text = "game = \"petri\"\ngames = 1\ntimeout_ms = 200\n\
        [options]\nwidth = 5\nheight = 3\nturns = 3\n\
        [[bots]]\nname = \"looping\"\n\
        command = [\"/bin/sh\", \"-c\", 'read -r l; echo 4 4 4 LOOP; read -r l && exec sleep 30']\n\
        [[bots]]\nname = \"once\"\n\
        command = [\"/bin/sh\", \"-c\", 'read -r l; if [ \"$l\" = BEGIN ]; then echo 4 4 4; \
        else exec sleep 30; fi']\n\
        [[bots]]\nname = \"berserk\"\n\
        command = [\"/bin/sh\", \"-c\", 'read -r l; echo 4 4 4 LOOP; read -r l || exit 1; \
        while read -r l; do if [ -z \"$l\" ]; then echo REST; fi; done']\n";
    write_toml(dir.path(), "t.toml", text);
    let output = arena(dir.path(), &["run", "t.toml", "--out", "r"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let warning = |bot: &str| {
        stderr
            .split("warning: ")
            .find(|w| w.starts_with(&format!("bot {bot} had")))
            .unwrap_or_else(|| panic!("no warning for {bot}: {stderr}"))
    };
    let every_game = "a timeout, crash or reply over the size cap in every game";
    let fallback = "(a persistent process is ended at its first, and the game's fallback \
                    answers the rest)";
    assert!(
        warning("looping").contains(&format!("{every_game} {fallback}")),
        "{stderr}"
    );
    assert!(warning("once").contains(every_game), "{stderr}");
    assert!(!warning("once").contains(fallback), "{stderr}");
    assert!(
        warning("berserk").contains("; the first crash: replied, then ended (exit status 1)"),
        "{stderr}"
    );
    assert!(!warning("berserk").contains(fallback), "{stderr}");
}

#[test]
fn log_io_writes_each_bots_requests_and_replies_per_game() {
    let dir = tempfile::tempdir().unwrap();
    invalid_every_turn(dir.path());
    let output = arena(
        dir.path(),
        &["run", "t.toml", "--out", "r", "--log-io", "io"],
    );
    assert!(output.status.success(), "{output:?}");
    let log = std::fs::read_to_string(dir.path().join("io/game-0/seat-0-bad.log")).unwrap();
    assert!(
        log.starts_with("=== request 1 (on stdin, then end of input, 5 bytes)\nBEGIN\n"),
        "{log}"
    );
    assert_eq!(log.matches("=== request ").count(), 4, "{log}");
    assert_eq!(log.matches("\nATTACK N 9\n").count(), 3, "{log}");
    let other = std::fs::read_to_string(dir.path().join("io/game-0/seat-1-rests.log")).unwrap();
    assert_eq!(other.matches("\nREST\n").count(), 3, "{other}");

    // A folder that cannot be made stops the run before it starts.
    let refused = arena(
        dir.path(),
        &["run", "t.toml", "--out", "r2", "--log-io", "t.toml/io"],
    );
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--log-io t.toml/io: "), "{stderr}");
    assert!(!dir.path().join("r2").exists());
}

/// Each bot failure of `-v` names its game: the games of a run go on at once, and their
/// lines mix.
#[test]
fn a_failure_logged_with_v_names_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let text = "game = \"slime\"\ngames = 2\n[options]\nmax_turns = 2\n\
         [[bots]]\nname = \"a\"\ncommand = [\"/bin/sh\", \"-c\", \"exit 3\"]\n\
         [[bots]]\nname = \"b\"\ncommand = [\"/bin/sh\", \"-c\", \"echo x\"]\n\
         [[bots]]\nname = \"c\"\ncommand = [\"/bin/sh\", \"-c\", \"echo x\"]\n\
         [[bots]]\nname = \"d\"\ncommand = [\"/bin/sh\", \"-c\", \"echo x\"]\n";
    write_toml(dir.path(), "t.toml", text);
    let output = arena(dir.path(), &["-v", "run", "t.toml", "--out", "r"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let games: std::collections::BTreeSet<&str> = (stderr.lines())
        .filter(|line| line.contains("ended without replying (exit status 3)"))
        .filter_map(|line| line.split(" game=").nth(1)?.split(' ').next())
        .collect();
    assert_eq!(games, ["0", "1"].into(), "{stderr}");
}
