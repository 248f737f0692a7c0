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

/// The original aliens' published behaviour (`/work/shared/compat/alienwar/README.md`:
/// moves for six views, fight answers of the three stateless ones), asked through the
/// protocol of the Java host. Optional: runs only where the original aliens are present.
#[test]
fn the_original_aliens_answer_as_published_through_the_java_host() {
    let compat = Path::new("/work/shared/compat/alienwar");
    if !compat.is_dir() {
        eprintln!(
            "no original aliens at {}: nothing to compare",
            compat.display()
        );
        return;
    }
    // Views row by row (north first); the README's move table, one column per alien.
    let views = [
        ".../.A./...",
        ".A./.A./...",
        ".../.AW/...",
        ".../.AC/...",
        "AAA/AA./AAA",
        "W../.A./...",
    ];
    let expected: [(&str, [&str; 6]); 6] = [
        (
            "ChooseYourBattles",
            ["NORTH", "SOUTHEAST", "EAST", "EAST", "EAST", "NORTHWEST"],
        ),
        (
            "Bender",
            [
                "SOUTHWEST",
                "SOUTHWEST",
                "EAST",
                "SOUTHWEST",
                "SOUTHWEST",
                "NORTHWEST",
            ],
        ),
        ("Rock", ["STAY"; 6]),
        (
            "Hunter",
            ["NORTH", "NORTHEAST", "EAST", "EAST", "EAST", "NORTHWEST"],
        ),
        (
            "OkinawaLife",
            ["NORTH", "NORTHEAST", "EAST", "NORTH", "EAST", "NORTHWEST"],
        ),
        ("Manager", ["WEST"; 6]),
    ];
    let fights: [(&str, &str); 3] = [
        ("Rock", "Y Y Y N Y"),
        ("Manager", "Y Y N N Y"),
        ("OkinawaLife", "N N N N Y"),
    ];
    let cache = tempfile::tempdir().unwrap();
    let host = arena::games::GameKind::AlienWar.java_host().unwrap();
    for (name, moves) in expected {
        let source = compat.join(name).join(format!("{name}.java"));
        let build = host
            .build(&[source], cache.path())
            .expect("the original compiles");
        // A fresh instance per view, at the stand-in's base state (10 HP, levels 1, r 1).
        let mut request = "CREATE 6 39\nMOVE 6\n".to_owned();
        for (id, view) in views.iter().enumerate() {
            request.push_str(&format!("{id} 10 1 1 1 1 1 1 2 {view}\n"));
        }
        let enemies = ["1 1 1 1", "2 4 1 1", "2 5 1 1", "6 7 1 1", "1 0 1 1"];
        request.push_str("FIGHT 5\n");
        for enemy in enemies {
            request.push_str(&format!("0 10 1 1 1 1 1 1 2 {enemy}\n"));
        }
        request.push_str("END\n");
        let output = host_session(&build, &request);
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines.len(), 3, "{name}: one line per request: {output}");
        assert_eq!(lines[0].split(' ').count(), 6, "{name}: {}", lines[0]);
        assert_eq!(lines[1], moves.join(" "), "{name}'s moves");
        if let Some((_, answers)) = fights.iter().find(|(alien, _)| *alien == name) {
            assert_eq!(lines[2], *answers, "{name}'s fight answers");
        }
    }
}

/// Runs the host on `build` with `request` on stdin and returns its stdout.
fn host_session(build: &arena::bots::JavaBuild, request: &str) -> String {
    use std::io::Write;
    let mut child = Command::new("java")
        .arg("-cp")
        .arg(&build.classes)
        .args(["planet.AlienWarHost", &build.class_name])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("java runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(request.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    String::from_utf8(output.stdout).unwrap()
}
