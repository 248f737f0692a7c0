//! Before the first game: bots whose program the system cannot start at all. Such a bot
//! would fail every request of every game as a crash, and the cause (a missing interpreter,
//! a file saved with Windows line ends) is a fact about a file, found in microseconds: it is
//! reported once, as a usage error, instead of after a whole run; from a tournament file, as
//! a problem of the file at the bot's `command` (see `config::Tournament::unstartable_bots`).
//!
//! Only what the kernel's `execve` looks at is read: the program's type and permissions and
//! its first bytes (its `#!` line). What the program does once started is the check's and
//! the games' business.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{ErrorKind, Read};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::program::{BotProgram, ResourceLimits};
use crate::sandbox::NOBODY;
use crate::text::shell_word;

/// The kernel reads at most this much of a script's first line (`BINPRM_BUF_SIZE`).
const FIRST_LINE_BYTES: usize = 256;

/// What a UTF-8 byte order mark looks like before a `#!`.
const BOM_SHEBANG: &[u8] = b"\xef\xbb\xbf#!";

/// How a line is said to end in CR LF, here and by `arena check`: the same words for the
/// same mistake, whether in a `#!` line or in a reply.
pub const ENDS_IN_CR_LF: &str = "ends in CR LF (\\r\\n), a Windows line end";

/// File name endings of scripts named as an interpreter's argument (`python3 bot.py`).
const SCRIPT_ENDINGS: &[&str] = &[
    ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".sh", ".lua", ".php", ".jar",
];

/// Why the system cannot start `bot`'s program, if it cannot, in one line naming the file.
pub fn problem(bot: &BotProgram) -> Option<String> {
    program_problem(&bot.program, bot)
        .or_else(|| script_argument_problem(bot))
        .or_else(|| limit_problem(&bot.rlimits, runner_hard_limit))
        .or_else(|| {
            // SAFETY: geteuid cannot fail.
            let root = unsafe { libc::geteuid() } == 0;
            (root && bot.sandbox.is_some())
                .then(|| closed_to_nobody(bot))
                .flatten()
        })
}

/// The files of the bot's that its sandbox's user cannot use, all in one line. As root,
/// arena runs bots as `nobody`, for whom a file saved under `umask 077` (mode 600, or a
/// folder of mode 700) is closed: every request would fail with "Permission denied" as the
/// bot's crash. Each is named with its `chmod`, so that one run shows all that is needed.
fn closed_to_nobody(bot: &BotProgram) -> Option<String> {
    let closed = closed_paths(bot);
    let mut denied = String::new();
    let mut chmods = Vec::new();
    for (index, (what, path, missing)) in closed.iter().enumerate() {
        let (verb, letters) = match (*what, *missing) {
            ("folder", _) => ("entered", "x"),
            (_, READ) => ("read", "r"),
            (_, EXECUTE) => ("run", "x"),
            _ => ("read or run", "rx"),
        };
        let shown = path.display();
        denied += &if index == 0 {
            format!("{what} {shown} cannot be {verb}")
        } else {
            format!(", nor {what} {shown} {verb}")
        };
        chmods.push(format!(
            "`chmod o+{letters} {}`",
            shell_word(&shown.to_string())
        ));
    }
    let by = if closed.len() > 1 { ", by" } else { " by" };
    (!closed.is_empty()).then(|| {
        format!(
            "{denied}{by} nobody (uid {NOBODY}), as whom bots run when arena runs as root: {} \
             (or run without the sandbox)",
            chmods.join(", ")
        )
    })
}

/// What of the bot's `nobody` cannot use, outer folders first: what it is (`folder`,
/// `program`, `script`), its path, and the permissions nobody lacks there. The bot's `dir`
/// must be open (the bot starts in it, whatever its program), the program executable, a
/// script (the program's `#!` file, or a script named as its argument) readable, and the
/// folders from the bot's `dir` (or the file's own folder, for a file outside it) down to
/// them open.
fn closed_paths(bot: &BotProgram) -> Vec<(&'static str, PathBuf, u32)> {
    let scripts = script_arguments(bot).map(|arg| bot.dir.join(arg));
    let is_script = first_bytes(&bot.program).is_ok_and(|first| first.starts_with(b"#!"));
    let program_needs = if is_script { READ | EXECUTE } else { EXECUTE };
    let files = std::iter::once(("program", bot.program.clone(), program_needs))
        .chain(scripts.map(|script| ("script", script, READ)));
    let mut closed: Vec<(&str, PathBuf, u32)> = Vec::new();
    let dir_missing =
        std::fs::metadata(&bot.dir).map_or(0, |metadata| missing_for_nobody(&metadata, EXECUTE));
    if dir_missing != 0 {
        closed.push(("folder", bot.dir.clone(), dir_missing));
    }
    for (what, file, needs) in files {
        let base = Some(bot.dir.as_path()).filter(|dir| file.starts_with(dir));
        let Some(base) = base.or(file.parent()) else {
            continue;
        };
        let folders: Vec<PathBuf> = file
            .ancestors()
            .skip(1)
            .take_while(|folder| folder.starts_with(base))
            .map(Path::to_path_buf)
            .collect();
        let folders = folders
            .into_iter()
            .rev()
            .map(|folder| ("folder", folder, EXECUTE));
        for (what, path, needs) in folders.chain([(what, file, needs)]) {
            let missing =
                std::fs::metadata(&path).map_or(0, |metadata| missing_for_nobody(&metadata, needs));
            if missing != 0 && !closed.iter().any(|(_, known, _)| *known == path) {
                closed.push((what, path, missing));
            }
        }
    }
    closed
}

/// Permission bits: read and execute (search, for a folder).
const READ: u32 = 0o4;
const EXECUTE: u32 = 0o1;

/// Which of the permissions `needs` `nobody` (uid and gid 65534) lacks on a file of
/// `metadata`.
fn missing_for_nobody(metadata: &std::fs::Metadata, needs: u32) -> u32 {
    use std::os::unix::fs::MetadataExt;
    let mode = metadata.mode();
    let bits = if metadata.uid() == NOBODY {
        mode >> 6
    } else if metadata.gid() == NOBODY {
        mode >> 3
    } else {
        mode
    };
    needs & !bits
}

/// A limit of the bot's above the same hard limit of the runner's own (`ulimit -Hv`, `-Ht`):
/// a process cannot raise a hard limit it inherited, so no process of the bot's could be
/// given it, and every start would fail as the bot's crash. `hard_limit` reads the
/// runner's hard limit of a resource (`None`: unlimited).
fn limit_problem(
    limits: &ResourceLimits,
    hard_limit: impl Fn(libc::__rlimit_resource_t) -> Option<u64>,
) -> Option<String> {
    const MIB: u64 = 1 << 20;
    let too_high = |resource, wanted: u64| hard_limit(resource).filter(|&hard| wanted > hard);
    if let Some(bytes) = limits.memory_bytes
        && let Some(hard) = too_high(libc::RLIMIT_AS, bytes)
    {
        return Some(format!(
            "the memory limit of {} MiB is above the address space arena itself runs under \
             ({} MiB, `ulimit -Hv`), which no process arena starts can exceed: {}",
            bytes / MIB,
            hard / MIB,
            lower_or_raise("memory_mb")
        ));
    }
    if let Some(seconds) = limits.cpu_seconds
        && let Some(hard) = too_high(libc::RLIMIT_CPU, seconds + 1)
    {
        return Some(format!(
            "the CPU limit of {seconds} s (and a hard limit a second above) is above the CPU \
             time arena itself runs under ({hard} s, `ulimit -Ht`), which no process arena \
             starts can exceed: {}",
            lower_or_raise("cpu_seconds")
        ));
    }
    None
}

/// The two cures of a bot's limit `setting` above the runner's own hard limit, a tournament
/// file's key and the flag of the same name of `arena check` and `arena match`.
pub(crate) fn lower_or_raise(setting: &str) -> String {
    format!(
        "raise the limit arena runs under, or lower `{setting}` (the bot's in the tournament \
         file; `--{}` of `arena check` and `arena match`)",
        setting.replace('_', "-")
    )
}

/// The runner's own hard limit of `resource`, `None` if unlimited (or unreadable).
fn runner_hard_limit(resource: libc::__rlimit_resource_t) -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes only the struct we pass.
    let read = unsafe { libc::getrlimit(resource, &mut limit) } == 0;
    (read && limit.rlim_max != libc::RLIM_INFINITY).then_some(limit.rlim_max)
}

/// The program itself: a file the kernel can execute, and its interpreter if it is a script.
fn program_problem(path: &Path, bot: &BotProgram) -> Option<String> {
    let shown = path.display();
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == ErrorKind::NotFound => {
            return Some(format!("program {shown} does not exist"));
        }
        Err(error) => return Some(format!("program {shown} cannot be read: {error}")),
    };
    if metadata.is_dir() {
        return Some(format!("program {shown} is a folder, not a program"));
    }
    if !metadata.is_file() {
        return Some(format!("program {shown} is not a regular file"));
    }
    if metadata.permissions().mode() & 0o111 == 0 {
        return Some(not_executable(path, &shown.to_string()));
    }
    let first = match first_bytes(path) {
        Ok(first) => first,
        // Executable but not readable by the runner: the kernel may still run it.
        Err(error) if error.kind() == ErrorKind::PermissionDenied => return None,
        Err(error) => return Some(format!("program {shown} cannot be read: {error}")),
    };
    if first.starts_with(BOM_SHEBANG) {
        return Some(format!(
            "program {shown} starts with a UTF-8 byte order mark (BOM) before `#!`, so the \
             system cannot run it: save it without the mark"
        ));
    }
    if let Some(line) = first.strip_prefix(b"#!") {
        return shebang_problem(path, line, bot);
    }
    if !first.starts_with(b"\x7fELF") {
        return Some(format!(
            "program {shown} is neither a binary (ELF) nor a script whose first line is \
             `#!` and its interpreter, so the system cannot run it: add a `#!` line, or \
             name its interpreter in `command`"
        ));
    }
    None
}

/// Why the program `path`, named `word` in the command, cannot run when it is not
/// executable, with both ways out: the permission, or the interpreter its `#!` line names
/// (when it has one) written before it in the command.
pub fn not_executable(path: &Path, word: &str) -> String {
    let shown = path.display();
    let chmod = format!("chmod +x {}", shell_word(&shown.to_string()));
    let interpreter = first_bytes(path).ok().and_then(|first| {
        let line = String::from_utf8_lossy(first_line(first.strip_prefix(b"#!")?)).into_owned();
        let (interpreter, argument) = shebang_words(&line);
        let plain_argument = !argument.is_empty() && !argument.starts_with('-');
        let named = if through_env(interpreter) && plain_argument {
            argument
        } else {
            interpreter
        };
        (!named.is_empty()).then(|| named.to_owned())
    });
    match interpreter {
        // Both of its problems at once: made executable, it would fail on the second.
        Some(interpreter) if !installed(&interpreter) => format!(
            "program {shown} is not executable, and its `#!` line names {interpreter}, which \
             is not installed here: name an installed interpreter before it in the command \
             (`INTERPRETER {}`)",
            shell_word(word)
        ),
        Some(interpreter) => format!(
            "program {shown} is not executable: make it so (`{chmod}`) or name its \
             interpreter first (`{interpreter} {}`)",
            shell_word(word)
        ),
        None => format!("program {shown} is not executable: make it so (`{chmod}`)"),
    }
}

/// Whether the interpreter `named` by a `#!` line (a path, or a name `env` looks up in the
/// runner's PATH) can run here.
fn installed(named: &str) -> bool {
    if named.contains('/') {
        return not_runnable(Path::new(named)).is_none();
    }
    search_path(
        named,
        Path::new("/"),
        &std::env::var_os("PATH").unwrap_or_default(),
    )
    .is_some()
}

/// `bytes` up to the end of their first line, the newline excluded.
fn first_line(bytes: &[u8]) -> &[u8] {
    match bytes.iter().position(|&b| b == b'\n') {
        Some(end) => &bytes[..end],
        None => bytes,
    }
}

/// The interpreter of a `#!` line (`line` is what follows the `#!`) and its argument: the
/// kernel splits the line once, so the argument is everything after the interpreter, as one
/// word.
fn shebang_words(line: &str) -> (&str, &str) {
    let text = line.trim_matches([' ', '\t', '\r']);
    match text.split_once([' ', '\t']) {
        Some((interpreter, argument)) => (interpreter, argument.trim_matches([' ', '\t'])),
        None => (text, ""),
    }
}

/// Whether `interpreter` is `env`, which looks its argument up in `PATH`.
fn through_env(interpreter: &str) -> bool {
    Path::new(interpreter).file_name() == Some(OsStr::new("env"))
}

/// The interpreter of the script `path` whose first line, after `#!`, begins with `line`.
fn shebang_problem(path: &Path, line: &[u8], bot: &BotProgram) -> Option<String> {
    let shown = path.display();
    let line = first_line(line);
    if line.ends_with(b"\r") {
        return Some(format!(
            "program {shown}: its first line {ENDS_IN_CR_LF}, so the system reads it as \
             `#!{}`, carriage return included: save it with LF line ends",
            crate::text::escape_bytes(line)
        ));
    }
    let text = String::from_utf8_lossy(line);
    let text = text.trim_matches([' ', '\t']);
    let (interpreter, argument) = shebang_words(text);
    if interpreter.is_empty() {
        return Some(format!(
            "program {shown} has a `#!` line without an interpreter"
        ));
    }
    let interpreter_path = bot.dir.join(interpreter);
    if let Some(why) = not_runnable(&interpreter_path) {
        return Some(format!(
            "program {shown} starts with `#!{text}`, but its interpreter {interpreter} {why}"
        ));
    }
    if !through_env(interpreter) || argument.is_empty() || argument.starts_with('-') {
        // `env -S ...` and other options: env's own business, not worth second-guessing.
        return None;
    }
    let name = argument;
    if find_program(name, bot).is_some() {
        return None;
    }
    let hint = if name.contains([' ', '\t']) {
        format!(
            " (env gets `{name}` as one word; `#!{interpreter} -S {name}` splits it into \
             words)"
        )
    } else {
        String::new()
    };
    Some(format!(
        "program {shown} starts with `#!{text}`, but `{name}` is not found in PATH{hint}"
    ))
}

/// A script named as the interpreter's argument (`python3 bots/x.py`) that is not there:
/// a path relative to the wrong folder. Only words that end like a script file and hold no
/// space are taken for script paths, so code or options given as arguments never are.
fn script_argument_problem(bot: &BotProgram) -> Option<String> {
    script_arguments(bot)
        .find(|arg| !bot.dir.join(arg).exists())
        .map(|arg| {
            format!(
                "script {arg} does not exist (looked for as {}: a path in the command is \
                 relative to the bot's folder, a tournament file's `dir`, `arena check`'s \
                 `--dir`)",
                bot.dir.join(arg).display()
            )
        })
}

/// The bot's arguments that name scripts: words that end like a script file and hold no
/// space, so code or options given as arguments never are taken for one.
fn script_arguments(bot: &BotProgram) -> impl Iterator<Item = &String> {
    bot.args
        .iter()
        .filter(|arg| !arg.starts_with('-') && !arg.contains([' ', '\t', '\n', '=']))
        .filter(|arg| SCRIPT_ENDINGS.iter().any(|ending| arg.ends_with(ending)))
}

/// Why `path` cannot be executed, if it cannot.
fn not_runnable(path: &Path) -> Option<&'static str> {
    match std::fs::metadata(path) {
        Err(_) => Some("does not exist"),
        Ok(metadata) if metadata.is_dir() => Some("is a folder"),
        Ok(metadata) if metadata.permissions().mode() & 0o111 == 0 => Some("is not executable"),
        Ok(_) => None,
    }
}

/// Where `env` would find the program `name`: a path if it holds a `/`, else the first
/// executable of that name in the bot's `PATH` (its own, else the runner's).
fn find_program(name: &str, bot: &BotProgram) -> Option<PathBuf> {
    if name.contains('/') {
        let path = bot.dir.join(name);
        return not_runnable(&path).is_none().then_some(path);
    }
    let search = match bot.env.get("PATH") {
        Some(path) => path.into(),
        None => std::env::var_os("PATH").unwrap_or_default(),
    };
    search_path(name, &bot.dir, &search)
}

/// The first program `name` in the folders of `search` (a PATH; relative folders are taken
/// from `dir`) that can run.
fn search_path(name: &str, dir: &Path, search: &OsStr) -> Option<PathBuf> {
    std::env::split_paths(search)
        .map(|folder| dir.join(folder).join(name))
        .find(|candidate| candidate.is_file() && not_runnable(candidate).is_none())
}

/// The first bytes of the file at `path`, as many as the kernel reads.
fn first_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut first = Vec::with_capacity(FIRST_LINE_BYTES);
    File::open(path)?
        .take(FIRST_LINE_BYTES as u64)
        .read_to_end(&mut first)?;
    Ok(first)
}
