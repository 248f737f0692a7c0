//! Bots given as Java sources: compiled with the game's Java host into a cache folder once
//! per set of sources, played through the host with the original API's exception defaults,
//! and a compile error reported with javac's message before any game starts.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::support::{repo, write_toml};

/// Runs `arena` in `dir` with its Java build cache under `dir/cache`.
fn arena_cached(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .current_dir(dir)
        .env_remove("ARENA_LOG")
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .output()
        .expect("the arena binary runs")
}

/// The JSON leaderboard of a successful run of `file`, results in a fresh folder.
fn leaderboard(dir: &Path, file: &str, out: &str) -> Value {
    let output = arena_cached(dir, &["run", file, "--format", "json", "--out", out]);
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
        .unwrap_or_else(|| panic!("{name} is on the leaderboard: {board}"))
}

/// The build folders in the cache (no temporary folder may be left).
fn builds(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("cache/arena/java-v1"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

const TOURNAMENT: &str = r#"game = "alienwar"
games = 1
[options]
rounds = 30
instances = 10
[[bots]]
name = "Nomad"
java = ["aliens/Nomad.java"]
[[bots]]
name = "Thrower"
java = ["aliens/Thrower.java"]
"#;

/// Throws wherever the original API lets an alien fail: every other allocation, every move
/// and every fight question.
const THROWER: &str = "package alien;
import planet.Move;
public class Thrower extends Alien {
    private static int made = 0;
    public void setAbilityPoints(float[] a) {
        if (made++ % 2 == 1) throw new IllegalStateException();
        a[2] = 10;
    }
    public Move move(char[][] fields) { throw new ArrayIndexOutOfBoundsException(); }
    public boolean wantToFight(int[] enemy) { throw new ArithmeticException(); }
}
";

#[test]
fn a_java_alien_is_compiled_once_and_plays_with_the_originals_exception_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let aliens = dir.path().join("aliens");
    std::fs::create_dir(&aliens).unwrap();
    std::fs::copy(
        repo().join("bots/alienwar/Nomad.java"),
        aliens.join("Nomad.java"),
    )
    .unwrap();
    std::fs::write(aliens.join("Thrower.java"), THROWER).unwrap();
    write_toml(dir.path(), "t.toml", TOURNAMENT);

    let board = leaderboard(dir.path(), "t.toml", "first");
    let nomad = standing(&board, "Nomad");
    assert_eq!(
        (nomad["games"].as_u64(), nomad["crashes"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(nomad["invalid_replies"], 0);
    assert!(
        nomad["requests"].as_u64().unwrap() > 30,
        "CREATE and a MOVE per round"
    );
    let thrower = standing(&board, "Thrower");
    assert_eq!(thrower["crashes"], 0, "exceptions are answers, not crashes");
    // 5 of 10 instances not created, then 5 failed moves a round at least in round one.
    assert!(
        thrower["invalid_replies"].as_u64().unwrap() >= 5 + 5,
        "{thrower}"
    );
    let cow = standing(&board, "prey.Cow");
    assert_eq!(
        (cow["built_in"].as_bool(), cow["requests"].as_u64()),
        (Some(true), Some(0))
    );
    let first = builds(dir.path());
    assert_eq!(first.len(), 2, "one build per alien: {first:?}");

    leaderboard(dir.path(), "t.toml", "second");
    assert_eq!(
        builds(dir.path()),
        first,
        "unchanged sources are not compiled again"
    );

    let changed = format!("{THROWER}// a comment\n");
    std::fs::write(aliens.join("Thrower.java"), changed).unwrap();
    leaderboard(dir.path(), "t.toml", "third");
    assert_eq!(
        builds(dir.path()).len(),
        3,
        "a changed source is compiled anew"
    );
}

#[test]
fn a_java_compile_error_is_reported_with_javacs_message_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("Broken.java"),
        "package alien;\npublic class Broken extends Alien { oops }\n",
    )
    .unwrap();
    let text = "game = \"alienwar\"\n[[bots]]\nname = \"Broken\"\njava = [\"Broken.java\"]\n";
    write_toml(dir.path(), "t.toml", text);
    let output = arena_cached(dir.path(), &["run", "t.toml"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("t.toml:4:8: bot `Broken`: javac failed:"),
        "{stderr}"
    );
    assert!(stderr.contains("Broken.java:2: error"), "{stderr}");
    assert!(output.stdout.is_empty());
    assert!(
        !dir.path().join("arena-results").exists(),
        "no game may start"
    );
    let left: Vec<_> = std::fs::read_dir(dir.path().join("cache/arena/java-v1"))
        .unwrap()
        .collect();
    assert!(
        left.is_empty(),
        "a failed build leaves nothing in the cache"
    );
}
