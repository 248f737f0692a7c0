//! Bots given as Java sources (`java = [...]` in the tournament file): the original
//! challenge's classes, compiled together with the game's Java host into a cache folder and
//! run as `java -cp <classes> <host main class> <bot class>`, or together with the game's
//! other Java bots in one JVM through the host's shared main class.
//!
//! The cache folder is named by a hash of every source compiled (host and bot), so a
//! changed source is compiled again and an unchanged one never is. A build goes to a
//! temporary folder first and is renamed into place, so two runs building the same bot at
//! once never see half a build. A build not used for 30 days is removed when a Java bot is
//! next loaded. Builds are compiled by one JVM running javac for all of a run's builds (a
//! compile server started by the first build that needs it), not a JVM start per bot.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use crate::results::write_atomically;

pub use arena_games::JavaHost;

/// A compiled Java bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JavaBuild {
    /// The folder of the compiled classes (host and bot).
    pub classes: PathBuf,
    /// The bot's fully qualified class name, from its first source file's name.
    pub class_name: String,
}

/// JVM options for a Java bot: the serial collector, because a bot is one thread and the
/// machine runs many JVMs at once; and the JVM's own warnings and log lines on stderr, since
/// HotSpot prints them on stdout, where one would be read as the bot's reply. Its report of
/// a fatal error (a crash in native code, native memory exhausted) goes to stdout whatever
/// the options say, and a shared host's report was read as the next seats' replies: it is
/// suppressed, so the JVM ends at once and the alien it was answering gets the crash.
const JVM_OPTIONS: &[&str] = &[
    "-XX:+UseSerialGC",
    "-Xshare:auto",
    "-XX:+DisplayVMOutputToStderr",
    "-XX:+SuppressFatalErrorMessage",
    "-Xlog:disable",
    "-Xlog:all=warning:stderr",
];

/// A build not used for this long is removed: every change to a source leaves one behind.
const KEEP_UNUSED: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// The file in a build folder whose modification time is the build's last use.
const USED_MARK: &str = "used";

/// Bumped when the way a build is laid out changes, so old cache folders are not reused.
const CACHE_LAYOUT: &str = "java-v1";

/// What the runner does with a game's [`JavaHost`] (a description of its sources, from the
/// game's registry entry): compile bots with it and start them.
pub trait JavaHostRuntime {
    /// Compiles `sources` (the first names the bot's class) with this host under
    /// `cache_root`, or reuses an earlier identical build. The error is a message for the
    /// user, including javac's own.
    fn build(&self, sources: &[PathBuf], cache_root: &Path) -> Result<JavaBuild, String>;

    /// The arguments to `java` that run `build` alone, under an address-space limit of
    /// `memory_bytes`.
    fn solo_args(&self, build: &JavaBuild, memory_bytes: Option<u64>) -> Vec<String>;

    /// The arguments to `java` that run the bots `members` (seat, build) in one JVM, under
    /// an address-space limit of `memory_bytes`. The first member's folder provides the
    /// shared main class; every bot's classes, the host's included, are loaded from its own
    /// folder.
    fn shared_args(
        &self,
        members: &[(usize, &JavaBuild)],
        memory_bytes: Option<u64>,
    ) -> Vec<String>;
}

impl JavaHostRuntime for JavaHost {
    /// Compiles `sources` (the first names the bot's class) with this host under
    /// `cache_root`, or reuses an earlier identical build. The error is a message for the
    /// user, including javac's own.
    fn build(&self, sources: &[PathBuf], cache_root: &Path) -> Result<JavaBuild, String> {
        let Some(first) = sources.first() else {
            return Err("`java` lists no source file".to_owned());
        };
        let stem = first
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let is_identifier = stem
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && stem
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
        if !is_identifier || first.extension().is_none_or(|e| e != "java") {
            return Err(format!(
                "{} does not name a Java class (expected Name.java)",
                first.display()
            ));
        }
        let mut files: Vec<(String, String)> = self
            .sources
            .iter()
            .map(|&(path, text)| (path.to_owned(), text.to_owned()))
            .collect();
        for source in sources {
            let text = std::fs::read_to_string(source)
                .map_err(|e| format!("cannot read {}: {e}", source.display()))?;
            let name = source
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            let package = declared_package(&text).unwrap_or(self.package);
            let as_compiled = format!("{}/{name}", package.replace('.', "/"));
            if self.sources.iter().any(|&(path, _)| path == as_compiled) {
                return Err(format!(
                    "{} is the game's own {as_compiled}, which arena's Java host supplies: \
                     leave it out of `java`, which lists the bot's own sources only",
                    source.display()
                ));
            }
            files.push((format!("{}/{name}", self.package), with_package(self, text)));
        }
        let key = fnv1a(
            files
                .iter()
                .flat_map(|(path, text)| [path.as_bytes(), b"\0", text.as_bytes(), b"\0"]),
        );
        let folder = cache_root.join(CACHE_LAYOUT).join(format!("{key:016x}"));
        let build = JavaBuild {
            classes: folder.join("classes"),
            class_name: format!("{}.{stem}", self.package),
        };
        if !build.classes.is_dir() {
            let scratch = cache_root
                .join(CACHE_LAYOUT)
                .join(format!("{key:016x}.tmp-{}", std::process::id()));
            compile_into(&files, &folder, &scratch, cache_root).map_err(|why| {
                at_sources(&why, &scratch.join("src").join(self.package), sources)
            })?;
        }
        mark_used(&folder);
        prune(&cache_root.join(CACHE_LAYOUT), &folder, SystemTime::now());
        Ok(build)
    }

    /// The arguments to `java` that run `build` alone, under an address-space limit of
    /// `memory_bytes`.
    fn solo_args(&self, build: &JavaBuild, memory_bytes: Option<u64>) -> Vec<String> {
        let mut args = jvm_options(memory_bytes);
        args.extend([
            "-cp".to_owned(),
            build.classes.display().to_string(),
            self.main_class.to_owned(),
            build.class_name.clone(),
        ]);
        args
    }

    /// The arguments to `java` that run the bots `members` (seat, build) in one JVM, under
    /// an address-space limit of `memory_bytes`. The first member's folder provides the
    /// shared main class; every bot's classes, the host's included, are loaded from its own
    /// folder.
    fn shared_args(
        &self,
        members: &[(usize, &JavaBuild)],
        memory_bytes: Option<u64>,
    ) -> Vec<String> {
        let mut args = jvm_options(memory_bytes);
        if let Some((_, first)) = members.first() {
            args.extend([
                "-cp".to_owned(),
                first.classes.display().to_string(),
                self.shared_main_class.to_owned(),
            ]);
        }
        for (seat, build) in members {
            args.extend([
                seat.to_string(),
                build.classes.display().to_string(),
                build.class_name.clone(),
            ]);
        }
        args
    }
}

/// The source as compiled: unchanged if it declares a package, else put into the host's
/// package on its first line (the original challenge printed some answers without it).
fn with_package(host: &JavaHost, text: String) -> String {
    if declared_package(&text).is_some() {
        text
    } else {
        format!("package {}; {} {text}", host.package, host.imports)
    }
}

/// The package a source declares on a `package` line, if it does.
fn declared_package(text: &str) -> Option<&str> {
    (text.lines())
        .find_map(|line| line.trim_start().strip_prefix("package "))
        .map(|rest| rest.split(';').next().unwrap_or(rest).trim())
}

/// What a JVM maps besides its heap, class space and code cache, in MiB: the JDK's modules
/// image and libraries, thread stacks, metaspace and the C library's heaps (with
/// [`MALLOC_ARENAS`]). Measured: 370 – 400 MiB for the shared host of 43 aliens.
const JVM_NATIVE_MIB: u64 = 512;

/// The least address space, in MiB, a Java bot is given: [`JVM_NATIVE_MIB`]. Under it a JVM
/// may not start, and cannot say why (measured with JDK 17: under 200 MiB it dies of
/// SIGSEGV before printing anything, at 300 – 350 MiB it reports on stdout, where the
/// report would be read as replies and so is suppressed; 400 MiB started one small alien).
pub const MIN_JVM_MEMORY_MB: u64 = JVM_NATIVE_MIB;

/// The C library's malloc arenas a JVM may have under an address-space limit. glibc allows
/// eight per core, each reserving 64 MiB of address space: a JVM of 15 threads held 15 of
/// them (943 MiB), and under 2 GiB ran out of address space mid-game. Two cost nothing
/// measurable (BENCHMARKS.md, "The Java host: profile").
const MALLOC_ARENAS: &str = "2";

/// [`JVM_OPTIONS`], and under an address-space limit the JVM's reservations sized to fit in
/// it: a sixteenth each for the class space and the code cache (at most their defaults),
/// [`JVM_NATIVE_MIB`] for the rest, and half of the limit, at most what is left, for the
/// heap. A JVM sizes its heap by the limit when it sees one at start-up, but unsandboxed
/// the limit is set from outside just after the spawn; and it never shrinks the other two
/// (1 GiB and 240 MiB), so that with their defaults it could not start under 3.2 GiB, and
/// under 4 GiB the C library had no room for its heaps: every allocation of the compiler
/// threads became a `mmap` and a `munmap`.
fn jvm_options(memory_bytes: Option<u64>) -> Vec<String> {
    let mut options: Vec<String> = JVM_OPTIONS
        .iter()
        .map(|&option| option.to_owned())
        .collect();
    if let Some(bytes) = memory_bytes {
        let limit = bytes / (1024 * 1024);
        let class_space = (limit / 16).clamp(16, 1024);
        let code_cache = (limit / 16).clamp(16, 240);
        let rest = limit.saturating_sub(class_space + code_cache + JVM_NATIVE_MIB);
        options.extend([
            format!("-Xmx{}m", (limit / 2).min(rest).max(16)),
            format!("-XX:CompressedClassSpaceSize={class_space}m"),
            format!("-XX:ReservedCodeCacheSize={code_cache}m"),
        ]);
    }
    options
}

/// `env` with what a JVM under an address-space limit of `memory_bytes` needs in its
/// environment ([`MALLOC_ARENAS`]), unless `env` sets it already.
pub fn jvm_environment(
    mut env: BTreeMap<String, String>,
    memory_bytes: Option<u64>,
) -> BTreeMap<String, String> {
    if memory_bytes.is_some() {
        env.entry("MALLOC_ARENA_MAX".to_owned())
            .or_insert_with(|| MALLOC_ARENAS.to_owned());
    }
    env
}

/// Compiles `files` into `folder`, through `scratch`, renamed into place.
fn compile_into(
    files: &[(String, String)],
    folder: &Path,
    scratch: &Path,
    cache_root: &Path,
) -> Result<(), String> {
    let result = compile(files, scratch, cache_root).and_then(|()| {
        match std::fs::rename(scratch, folder) {
            Ok(()) => Ok(()),
            // Another run finished the same build first.
            Err(_) if folder.join("classes").is_dir() => Ok(()),
            Err(e) => Err(format!(
                "cannot store the build in {}: {e}",
                folder.display()
            )),
        }
    });
    let _ = std::fs::remove_dir_all(scratch);
    result
}

/// javac's messages `why` about the copies of `sources` it compiled in `copies`, with each
/// copy's path replaced by its source's: the copy is a scratch file, gone by the time the
/// message is read. A copy's lines are its source's (a missing `package` is put on the
/// first line, see [`with_package`]).
fn at_sources(why: &str, copies: &Path, sources: &[PathBuf]) -> String {
    sources.iter().fold(why.to_owned(), |why, source| {
        let copy = copies.join(source.file_name().unwrap_or_default());
        why.replace(&copy.display().to_string(), &source.display().to_string())
    })
}

/// Records that the build in `folder` was used now. Best effort: a build whose mark cannot
/// be written is only pruned sooner.
fn mark_used(folder: &Path) {
    let _ = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(folder.join(USED_MARK))
        .and_then(|mark| mark.set_modified(SystemTime::now()));
}

/// Removes every folder in `layout` but `keep` last used (or, without a mark, last
/// changed) more than [`KEEP_UNUSED`] before `now`: old builds and the scratch folders of
/// builds that were killed. Best effort: what cannot be read or removed stays.
fn prune(layout: &Path, keep: &Path, now: SystemTime) {
    let Ok(entries) = std::fs::read_dir(layout) else {
        return;
    };
    for path in entries.filter_map(|entry| entry.ok().map(|entry| entry.path())) {
        let last_use = std::fs::metadata(path.join(USED_MARK))
            .or_else(|_| std::fs::metadata(&path))
            .and_then(|metadata| metadata.modified());
        let unused = last_use
            .ok()
            .and_then(|time| now.duration_since(time).ok())
            .is_some_and(|age| age > KEEP_UNUSED);
        if path != keep && path.is_dir() && unused {
            let _ = std::fs::remove_dir_all(&path);
        }
    }
}

/// Writes `files` under `folder/src` and compiles them into `folder/classes`, through the
/// compile server kept in `cache_root`.
fn compile(files: &[(String, String)], folder: &Path, cache_root: &Path) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(folder);
    let src = folder.join("src");
    let classes = folder.join("classes");
    let mut args: Vec<String> = ["-encoding", "UTF-8", "-nowarn", "-d"]
        .map(str::to_owned)
        .into();
    args.push(utf8(&classes)?);
    for (path, text) in files {
        let file = src.join(path);
        let written = file
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&file, text));
        written.map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        args.push(utf8(&file)?);
    }
    std::fs::create_dir_all(&classes)
        .map_err(|e| format!("cannot create {}: {e}", classes.display()))?;
    let (compiled, messages) = javac(&args, cache_root)?;
    if compiled {
        Ok(())
    } else {
        Err(format!("javac failed:\n{}", messages.trim_end()))
    }
}

/// `path` as a compile server argument: UTF-8 without line breaks, as its protocol needs.
fn utf8(path: &Path) -> Result<String, String> {
    path.to_str()
        .filter(|text| !text.contains('\n'))
        .map(str::to_owned)
        .ok_or_else(|| {
            format!(
                "cannot compile in {}: not UTF-8, or a line break",
                path.display()
            )
        })
}

/// javac in one JVM for every build of this process (`hosts/alienwar-java/CompileServer.java`,
/// for any game's host): a JVM start and a cold compiler cost more than compiling a bot.
const COMPILE_SERVER: &str = include_str!("../../hosts/alienwar-java/CompileServer.java");

/// The compile server of this process, started by the first build that needs javac. It ends
/// itself when idle; the next build then starts another.
static SERVER: Mutex<Option<CompileServer>> = Mutex::new(None);

/// Runs javac with `args` in the compile server: whether it compiled, and its messages.
fn javac(args: &[String], cache_root: &Path) -> Result<(bool, String), String> {
    let mut server = SERVER.lock().unwrap_or_else(PoisonError::into_inner);
    let mut gone = String::new();
    // A server that ended while idle is replaced once.
    for _ in 0..2 {
        let running = match server.take() {
            Some(running) => running,
            None => CompileServer::start(cache_root)?,
        };
        match running.ask(args) {
            Ok((running, answer)) => {
                *server = Some(running);
                return Ok(answer);
            }
            Err(why) => gone = why,
        }
    }
    Err(format!(
        "the Java compile server ended without an answer: {gone}"
    ))
}

/// A running compile server: its pipes, and its stderr, read once it has ended.
struct CompileServer {
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    stderr: ChildStderr,
}

impl CompileServer {
    /// Starts `java` on the server's source, written into `cache_root` once per version.
    fn start(cache_root: &Path) -> Result<Self, String> {
        let source = cache_root.join("java-compiler").join(format!(
            "{:016x}.java",
            crate::fnv::fnv1a(COMPILE_SERVER.as_bytes())
        ));
        if !source.is_file() {
            let written = source
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| write_atomically(&source, COMPILE_SERVER.as_bytes()));
            written.map_err(|e| format!("cannot write {}: {e}", source.display()))?;
        }
        let mut child = Command::new("java")
            .args(jvm_options(None))
            .args(COMPILER_OPTIONS)
            .arg(&source)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => "`java` not found in PATH: install a JDK \
                                                 (Debian: default-jdk-headless)"
                    .to_owned(),
                _ => format!("cannot run java: {e}"),
            })?;
        let pipes = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        // Reaped as soon as it ends, by a thread of its own, so that it never lingers.
        std::thread::spawn(move || child.wait());
        let (Some(stdin), Some(stdout), Some(stderr)) = pipes else {
            unreachable!("all three pipes were asked for");
        };
        Ok(CompileServer {
            stdin,
            stdout: BufReader::new(stdout),
            stderr,
        })
    }

    /// One compilation; the server back, or why it is gone (what it printed on stderr).
    fn ask(mut self, args: &[String]) -> Result<(Self, (bool, String)), String> {
        match self.exchange(args) {
            Ok(answer) => Ok((self, answer)),
            Err(e) => {
                drop(self.stdin);
                let mut printed = String::new();
                let _ = self.stderr.read_to_string(&mut printed);
                Err(format!("{e}; {}", printed.trim_end()))
            }
        }
    }

    /// Writes the request line and reads the reply: `<status> <length>\n` and the messages.
    fn exchange(&mut self, args: &[String]) -> std::io::Result<(bool, String)> {
        let mut request = args.join("\0");
        request.push('\n');
        self.stdin.write_all(request.as_bytes())?;
        self.stdin.flush()?;
        let mut status = String::new();
        self.stdout.read_line(&mut status)?;
        let bad = || std::io::Error::new(std::io::ErrorKind::InvalidData, "no reply");
        let (code, length) = status.trim_end().split_once(' ').ok_or_else(bad)?;
        let length: usize = length.parse().map_err(|_| bad())?;
        let mut messages = vec![0; length];
        self.stdout.read_exact(&mut messages)?;
        Ok((code == "0", String::from_utf8_lossy(&messages).into_owned()))
    }
}

/// The compile server's own JVM options: C1 only, since it compiles a few hundred small
/// classes and ends, too soon for the optimizing compiler to pay for itself.
const COMPILER_OPTIONS: &[&str] = &["-XX:TieredStopAtLevel=1"];

/// The folder Java builds are cached in: `$XDG_CACHE_HOME/arena`, else `~/.cache/arena`,
/// else the temporary folder's `arena-cache`.
pub fn cache_root() -> PathBuf {
    let non_empty = |key| {
        std::env::var_os(key)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    non_empty("XDG_CACHE_HOME")
        .or_else(|| non_empty("HOME").map(|home| home.join(".cache")))
        .map_or_else(
            || std::env::temp_dir().join("arena-cache"),
            |c| c.join("arena"),
        )
}

/// FNV-1a over `parts`: a cache key, not a security measure.
fn fnv1a<'a>(parts: impl Iterator<Item = &'a [u8]>) -> u64 {
    let mut hash = crate::fnv::Fnv::default();
    parts.for_each(|part| hash.feed(part));
    hash.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOST: JavaHost = JavaHost {
        sources: &[(
            "api/Base.java",
            "package api; public abstract class Base {}",
        )],
        main_class: "api.Main",
        shared_main_class: "api.Shared",
        package: "bots",
        imports: "import api.Base;",
        template: ("Bot.java", "package bots; class Bot extends api.Base {}"),
    };

    #[test]
    fn a_source_without_package_is_put_into_the_hosts_package_on_its_first_line() {
        let text = with_package(&HOST, "class A extends Base {}\n".to_owned());
        assert_eq!(
            text,
            "package bots; import api.Base; class A extends Base {}\n"
        );
        let declared = "package other;\nclass A {}\n".to_owned();
        assert_eq!(with_package(&HOST, declared.clone()), declared);
    }

    #[test]
    fn a_jvm_under_a_memory_limit_sizes_its_reservations_to_fit_whatever_it_sees_at_start() {
        let build = JavaBuild {
            classes: "/cache/x/classes".into(),
            class_name: "bots.A".to_owned(),
        };
        let sizing = |mebibytes: u64| -> Vec<String> {
            HOST.solo_args(&build, Some(mebibytes * 1024 * 1024))
                .into_iter()
                .filter(|arg| arg.starts_with("-Xmx") || arg.contains("Size="))
                .collect()
        };
        let options = |heap: u64, class_space: u64, code: u64| {
            vec![
                format!("-Xmx{heap}m"),
                format!("-XX:CompressedClassSpaceSize={class_space}m"),
                format!("-XX:ReservedCodeCacheSize={code}m"),
            ]
        };
        assert_eq!(sizing(4096), options(2048, 256, 240));
        // Half of 1 GiB would leave too little beside the class space, the code cache and
        // the JVM's native memory: the heap gets what is left.
        assert_eq!(sizing(1024), options(384, 64, 64));
        assert_eq!(sizing(256), options(16, 16, 16));
        let limited = HOST.solo_args(&build, Some(4096 * 1024 * 1024));
        assert!(limited.ends_with(&[
            "-cp".to_owned(),
            "/cache/x/classes".to_owned(),
            "api.Main".to_owned(),
            "bots.A".to_owned()
        ]));
        let unlimited = HOST.solo_args(&build, None);
        assert!(
            !unlimited
                .iter()
                .any(|a| a.starts_with("-Xmx") || a.contains("Size="))
        );
        let shared = HOST.shared_args(&[(0, &build), (2, &build)], None);
        let tail = ["-cp", "/cache/x/classes", "api.Shared"]
            .into_iter()
            .chain(["0", "/cache/x/classes", "bots.A"])
            .chain(["2", "/cache/x/classes", "bots.A"])
            .map(str::to_owned)
            .collect::<Vec<_>>();
        assert!(shared.ends_with(&tail), "{shared:?}");
    }

    #[test]
    fn a_jvm_under_a_memory_limit_gets_two_malloc_arenas_unless_its_bot_says_otherwise() {
        let limit = Some(4096 * 1024 * 1024);
        let env = jvm_environment(BTreeMap::new(), limit);
        assert_eq!(env.get("MALLOC_ARENA_MAX").map(String::as_str), Some("2"));
        let own = BTreeMap::from([("MALLOC_ARENA_MAX".to_owned(), "8".to_owned())]);
        assert_eq!(jvm_environment(own.clone(), limit), own);
        assert_eq!(jvm_environment(BTreeMap::new(), None), BTreeMap::new());
    }

    #[test]
    fn builds_unused_for_a_month_are_pruned_and_the_others_kept() {
        let layout = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let day = Duration::from_secs(24 * 60 * 60);
        let build = |name: &str, last_used: Option<Duration>| {
            let folder = layout.path().join(name);
            std::fs::create_dir_all(folder.join("classes")).unwrap();
            if let Some(ago) = last_used {
                mark_used(&folder);
                let mark = std::fs::File::options()
                    .write(true)
                    .open(folder.join(USED_MARK))
                    .unwrap();
                mark.set_modified(now - ago).unwrap();
            }
            folder
        };
        let old = build("old", Some(40 * day));
        let recent = build("recent", Some(day));
        let unmarked = build("unmarked", None);
        let kept_old = build("in-use", Some(40 * day));
        prune(layout.path(), &kept_old, now);
        assert!(!old.exists(), "unused for 40 days");
        assert!(recent.exists() && kept_old.exists());
        assert!(unmarked.exists(), "changed just now");
        prune(layout.path(), &kept_old, now + 31 * day);
        assert!(!recent.exists() && !unmarked.exists());
        assert!(kept_old.exists(), "the build being used is never pruned");
    }

    #[test]
    fn a_bot_needs_a_java_file_named_after_its_class() {
        let dir = tempfile::tempdir().unwrap();
        let none = HOST.build(&[], dir.path()).unwrap_err();
        assert!(none.contains("no source"), "{none}");
        let bad = HOST.build(&["my-bot.java".into()], dir.path()).unwrap_err();
        assert!(bad.contains("does not name a Java class"), "{bad}");
        let missing = HOST
            .build(&[dir.path().join("A.java")], dir.path())
            .unwrap_err();
        assert!(missing.starts_with("cannot read"), "{missing}");
    }

    /// The original API's stand-ins beside an alien (as its `javac` line lists them) would
    /// be duplicate classes of the host's own.
    #[test]
    fn a_source_of_the_hosts_api_is_named_before_javac_runs() {
        let dir = tempfile::tempdir().unwrap();
        let alien = dir.path().join("Rock.java");
        std::fs::write(&alien, "public class Rock extends Base {}\n").unwrap();
        let api = dir.path().join("Base.java");
        std::fs::write(&api, "package api;\npublic class Base {}\n").unwrap();
        let why = HOST.build(&[alien, api.clone()], dir.path()).unwrap_err();
        assert_eq!(
            why,
            format!(
                "{} is the game's own api/Base.java, which arena's Java host supplies: \
                 leave it out of `java`, which lists the bot's own sources only",
                api.display()
            )
        );
    }
}
