//! What ships beside the binary and what a cluster reads: the completion scripts, JSON log
//! lines, and `NO_COLOR`.

use std::process::Command;

use crate::support::{arena, repo};

#[test]
fn the_bash_completion_loads_and_completes_run_options() {
    let dir = tempfile::tempdir().unwrap();
    let output = arena(dir.path(), &["completions", "bash"]);
    assert!(output.status.success());
    let script = dir.path().join("arena.bash");
    std::fs::write(&script, &output.stdout).unwrap();
    // What bash does on TAB after `arena run --fo`: call the function `complete` names.
    let session = format!(
        "source {:?} || exit 9\n\
         function=$(complete -p arena | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')\n\
         [ -n \"$function\" ] || exit 8\n\
         COMP_WORDS=(arena run --fo); COMP_CWORD=2\n\
         COMP_LINE='arena run --fo'; COMP_POINT=${{#COMP_LINE}}\n\
         \"$function\" arena --fo run\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display().to_string()
    );
    let completed = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &session])
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&completed.stdout);
    assert!(
        completed.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&completed.stderr)
    );
    assert_eq!(stdout.trim(), "--format");
}

#[test]
fn json_logs_are_one_object_per_line_with_time_level_and_message() {
    let dir = tempfile::tempdir().unwrap();
    let file = repo().join("tests/data/petri-small.toml");
    let output = arena(
        dir.path(),
        &[
            "--log-format",
            "json",
            "run",
            file.to_str().unwrap(),
            "--games",
            "1",
            "--out",
            "r",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let lines: Vec<serde_json::Value> = stderr
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}")))
        .collect();
    assert!(lines.len() >= 2, "{stderr}");
    for line in &lines {
        for key in ["timestamp", "level", "message"] {
            assert!(line[key].is_string(), "no {key} in {line}");
        }
    }
    assert!(
        lines
            .iter()
            .any(|line| line["message"].as_str().unwrap().starts_with("3 games in ")),
        "{stderr}"
    );
}

/// `arena run` of one game on a pseudo-terminal (util-linux `script`), with `env` set; what
/// the terminal showed.
fn on_a_terminal(env: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = repo().join("tests/data/petri-small.toml");
    // Its own cache folder, as every test's arena has (see `support::arena_command`).
    let command = format!(
        "env -u ARENA_LOG XDG_CACHE_HOME={:?} {env} {:?} run {:?} --games 1 --out {:?}",
        dir.path().join("cache").display().to_string(),
        env!("CARGO_BIN_EXE_arena"),
        file.display().to_string(),
        dir.path().join("r").display().to_string()
    );
    let output = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("util-linux script runs");
    let shown = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{shown}");
    shown
}

#[test]
fn no_color_turns_the_colours_of_a_terminal_off() {
    // INFO in green, unless NO_COLOR is set (to anything but the empty string).
    const GREEN: &str = "\x1b[32m";
    assert!(on_a_terminal("").contains(GREEN), "no colour to turn off");
    assert!(on_a_terminal("NO_COLOR=").contains(GREEN));
    let plain = on_a_terminal("NO_COLOR=1");
    assert!(plain.contains("INFO"), "{plain}");
    assert!(!plain.contains(GREEN), "{plain:?}");
}

#[test]
fn errors_are_json_objects_too_in_a_json_log() {
    let dir = tempfile::tempdir().unwrap();
    let output = arena(dir.path(), &["--log-format", "json", "run", "missing.toml"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line: serde_json::Value = serde_json::from_str(stderr.trim()).expect("one JSON object");
    assert_eq!(line["level"], "ERROR");
    assert!(
        line["message"]
            .as_str()
            .unwrap()
            .starts_with("missing.toml: "),
        "{line}"
    );
}
