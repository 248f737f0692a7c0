//! What the process benchmarks share: tiny C bots, compiled once per run with the system's
//! C compiler into Cargo's scratch folder for benchmarks, so that the bot costs as little as
//! a bot can and the runner's own overhead shows.

use std::path::PathBuf;
use std::process::Command;

/// A bot that reads stdin to its end, then prints one line and exits.
pub const ONE_SHOT_BOT: &str = r#"
#include <unistd.h>
int main(void) {
    char buffer[4096];
    while (read(0, buffer, sizeof buffer) > 0) {}
    write(1, "REST\n", 5);
    return 0;
}
"#;

/// A bot that echoes every line of stdin, flushing after each, until stdin ends.
pub const ECHO_BOT: &str = r#"
#include <stdio.h>
int main(void) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        fputs(line, stdout);
        fflush(stdout);
    }
    return 0;
}
"#;

/// Compiles `source` with `cc -O2` into `<CARGO_TARGET_TMPDIR>/bench-bots/<name>` and returns
/// the program's path. Panics with the compiler's message if it fails: a benchmark without its
/// bot measures nothing.
pub fn compile(name: &str, source: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-bots");
    std::fs::create_dir_all(&dir).expect("cannot create the bench bot folder");
    let c_file = dir.join(format!("{name}.c"));
    let program = dir.join(name);
    std::fs::write(&c_file, source).expect("cannot write the bench bot's source");
    let output = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&program)
        .arg(&c_file)
        .output()
        .expect("cannot run cc (a C compiler is needed for the process benchmarks)");
    assert!(
        output.status.success(),
        "cc failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    program
}
