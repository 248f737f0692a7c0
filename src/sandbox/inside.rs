//! The box helper: the `arena` binary started with [`super::BOX_ARG`], its control socket on
//! descriptor 3. It reads the [`BoxSpec`], makes the namespaces and the file system, then
//! forks the box's init (PID 1 of the new PID namespace), which joins the box's cgroup, and
//! waits for it; the init reports to the runner and starts the bot's processes.
//!
//! When the runner ends the box (at the end of a game it shuts the socket for writing; at a
//! stop, or by dying, it closes it), the init exits, and the kernel kills every process left
//! in its PID namespace: nothing a bot started outlives its box, whatever `setsid`,
//! `setpgid` or double forks it used. The helper then copies the private folders back
//! ([`super::private`]) if the game ended, and exits, which closes the socket on its side
//! too.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::cgroup::{BoxCgroup, OomKills};
use super::mounts;
use super::sys::{self, check};
use super::wire::{self, EmptiedFolder, FromBox, MAX_MESSAGE, Spawn, StartFailure, ToBox};
use super::{BoxSpec, Enforced, NOBODY};

/// The control socket's descriptor in the helper.
const CONTROL: RawFd = 3;

/// The machine's runtime state, hidden from a box without network: its Unix sockets (a
/// system bus, a container engine's) take a `connect` through a read-only mount. A box with
/// the network keeps them, whose name lookups may go through `/run` (systemd-resolved).
const RUNTIME_FOLDERS: [&str; 2] = ["/run", "/var/run"];

/// Runs the box helper; returns its exit status. Only `main` calls this, first thing.
pub fn serve() -> i32 {
    ignore_stop_signals();
    let mut buffer = vec![0u8; MAX_MESSAGE];
    let spec: BoxSpec = match wire::receive(CONTROL, &mut buffer) {
        Ok(Some((spec, _))) => spec,
        _ => return 2,
    };
    match set_up(spec) {
        Ok(code) => code,
        Err(error) => {
            let _ = wire::send(CONTROL, &FromBox::Failed(error.to_string()), &[]);
            1
        }
    }
}

/// Ignores the signals that stop a run ([`crate::signals::STOP_SIGNALS`]), here and so in
/// every bot the box starts (an ignored signal stays ignored across `exec`): a box or bot
/// that died of one before the runner heard its own would end its game early, with crashes
/// that a finished game would then record. The runner ends boxes and bots itself, with
/// `SIGKILL`.
fn ignore_stop_signals() {
    for signal in crate::signals::STOP_SIGNALS {
        // SAFETY: setting a signal's disposition to ignore; no handler runs.
        unsafe { libc::signal(signal, libc::SIG_IGN) };
    }
}

/// Makes the box and runs it until its init exits.
fn set_up(mut spec: BoxSpec) -> io::Result<i32> {
    // SAFETY: these calls take no arguments and cannot fail.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    let root = uid == 0;
    if !spec.network {
        spec.hidden.extend(RUNTIME_FOLDERS.map(PathBuf::from));
    }
    for path in spec.readable.iter_mut().chain(&mut spec.hidden) {
        if let Ok(canonical) = path.canonicalize() {
            *path = canonical;
        }
    }
    if root {
        // The bot runs as nobody, who may not pass through a private folder such as /root:
        // cover those on the way to the bot's folders, and show the folders inside.
        let blocked = blocked_ancestors(spec.readable.iter().chain(&spec.writable));
        spec.hidden.extend(blocked);
    }
    let mut flags =
        libc::CLONE_NEWNS | libc::CLONE_NEWPID | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS;
    if !spec.network {
        flags |= libc::CLONE_NEWNET;
    }
    if !root {
        flags |= libc::CLONE_NEWUSER;
    }
    // Made while /sys is still writable: the box's own view of it is read-only.
    // Memory and processes have per-process limits to fall back on; a CPU quota has none.
    let cgroup = match root.then(|| {
        let name = format!("box-{}", std::process::id());
        BoxCgroup::create(
            &name,
            spec.memory_bytes,
            spec.max_processes,
            spec.cpu_millis,
        )
    }) {
        Some(Ok(cgroup)) => Some(cgroup),
        Some(Err(error)) if spec.cpu_millis.is_some() => {
            return Err(no_cpu_quota(&format!(
                "the kernel refused its cgroup: {error}"
            )));
        }
        None if spec.cpu_millis.is_some() => {
            return Err(no_cpu_quota(
                "arena makes cgroups only when it runs as root",
            ));
        }
        Some(Err(_)) | None => None,
    };
    sys::unshare(flags).map_err(super::support::explain_unshare)?;
    if !root {
        // Keep our own uid and gid inside; the namespace grants the rights to set up mounts.
        std::fs::write("/proc/self/setgroups", "deny")?;
        std::fs::write("/proc/self/uid_map", format!("{uid} {uid} 1"))?;
        std::fs::write("/proc/self/gid_map", format!("{gid} {gid} 1"))?;
    }
    let private = mounts::apply(&mounts::plan(&spec))?;
    for folder in &private {
        folder.fill()?;
    }
    if !spec.network {
        loopback_up()?;
    }
    let _ = set_hostname("arena-box");
    // SAFETY: this process is single-threaded, so the child may do anything after fork.
    let pid = check(unsafe { libc::fork() }.into())? as libc::pid_t;
    if pid == 0 {
        // The private folders are the helper's to copy back; the init needs no way to them.
        drop(private);
        // The init joins the box's cgroup itself, before it starts anything (see
        // `BoxCgroup::join`); where it cannot, its processes are limited one by one.
        let joined = cgroup.as_ref().filter(|cgroup| cgroup.join().is_ok());
        if joined.is_none() && spec.cpu_millis.is_some() {
            // SAFETY: _exit is always safe; the box ends before it is ready, as it must
            // without the quota it was asked for.
            unsafe { libc::_exit(1) };
        }
        let enforced = Enforced {
            uid: if root { NOBODY } else { uid },
            cgroup: joined.map(|cgroup| cgroup.kind.to_owned()),
            own_network: !spec.network,
        };
        let oom_kills = joined.and_then(BoxCgroup::oom_kills);
        let code = Init::new(root, spec.max_processes, enforced, oom_kills).map_or(1, Init::serve);
        // SAFETY: _exit is always safe; the init's exit ends the box (and runs no
        // destructor: the cgroup is the helper's to remove).
        unsafe { libc::_exit(code) };
    }
    let mut status = 0;
    // SAFETY: waiting for our own child, with a live status pointer.
    while unsafe { libc::waitpid(pid, &mut status, 0) } == -1
        && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
    {}
    if runner_left() {
        return Ok(0);
    }
    // The init has ended, and with it every process of the box (the kernel ends them all
    // before the init can be waited for): nothing writes the tmpfs any more. The runner
    // waits for the socket to close before it looks at the folders. A folder the helper
    // could neither copy back nor empty is left to the runner's own bounds after the game,
    // which has the same rights over it.
    for folder in &private {
        if let Ok(Some(why)) = folder.give_back() {
            let folder = folder.path().to_owned();
            let report = FromBox::FolderEmptied(EmptiedFolder { folder, why });
            let _ = wire::send(CONTROL, &report, &[]);
        }
    }
    drop(cgroup);
    Ok(0)
}

/// Whether the runner closed the socket rather than shut it for writing ([`BotBox::close`]
/// does that, then reads the box's reports): it stopped the game, or died. A game it
/// dropped is not journaled, and a resume puts the private folders back as they were before
/// it, so nothing is copied back: a copy made now could meet that resume, or the runner's
/// own look at the folders after a later game.
///
/// [`BotBox::close`]: super::BotBox::close
fn runner_left() -> bool {
    let mut control = libc::pollfd {
        fd: CONTROL,
        events: 0,
        revents: 0,
    };
    // SAFETY: polling one live pollfd entry, without waiting.
    let polled = unsafe { libc::poll(&mut control, 1, 0) };
    polled == 1 && control.revents & libc::POLLHUP != 0
}

/// The folders above `paths` that others may not search (no `x` bit for others), which the
/// unprivileged bot could not pass through.
fn blocked_ancestors<'a>(paths: impl Iterator<Item = &'a PathBuf>) -> Vec<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let mut blocked = Vec::new();
    for path in paths {
        for ancestor in path.ancestors().skip(1) {
            let searchable = std::fs::metadata(ancestor)
                .is_ok_and(|meta| meta.permissions().mode() & 0o001 != 0);
            if !searchable && !blocked.iter().any(|b: &PathBuf| b == ancestor) {
                blocked.push(ancestor.to_path_buf());
            }
        }
    }
    blocked
}

/// Brings up the loopback interface of the box's own network namespace.
fn loopback_up() -> io::Result<()> {
    // SAFETY: a plain socket, owned at once.
    let socket = unsafe {
        OwnedFd::from_raw_fd(check(
            libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0).into(),
        )? as RawFd)
    };
    // SAFETY: an all-zero ifreq is valid.
    let mut request: libc::ifreq = unsafe { std::mem::zeroed() };
    for (slot, byte) in request.ifr_name.iter_mut().zip(b"lo\0") {
        *slot = *byte as libc::c_char;
    }
    request.ifr_ifru.ifru_flags =
        (libc::IFF_UP | libc::IFF_LOOPBACK | libc::IFF_RUNNING) as libc::c_short;
    // SAFETY: SIOCSIFFLAGS reads the ifreq we pass.
    check(unsafe { libc::ioctl(socket.as_raw_fd(), libc::SIOCSIFFLAGS, &request) }.into())
        .map(drop)
        .map_err(|error| {
            io::Error::new(
                error.kind(),
                format!("cannot bring up the loopback interface: {error}"),
            )
        })
}

fn set_hostname(name: &str) -> io::Result<()> {
    // SAFETY: a live buffer of the length we pass.
    check(unsafe { libc::sethostname(name.as_ptr().cast(), name.len()) }.into()).map(drop)
}

/// The running process the runner asked for last.
struct Current {
    pid: libc::pid_t,
    serial: u64,
    /// The box's out-of-memory kills before it started.
    oom_kills_before: Option<u64>,
}

/// Why a box with a CPU quota (`cpus`) cannot be made: `why`.
fn no_cpu_quota(why: &str) -> io::Error {
    io::Error::other(format!(
        "cannot bound the bot's CPU to its `cpus`, which takes a cgroup with the cpu \
         controller: {why}; run arena as root, or leave `cpus` out"
    ))
}

/// PID 1 of the box.
struct Init {
    /// The stack on which each spawn's child runs until it execs.
    stack: Vec<u8>,
    root: bool,
    max_processes: u32,
    /// Whether a cgroup counts the box's processes (else `RLIMIT_NPROC` does).
    cgroup: bool,
    signals: OwnedFd,
    current: Option<Current>,
    /// The box cgroup's count of out-of-memory kills, where memory is limited there.
    oom_kills: Option<OomKills>,
}

impl Init {
    /// Mounts the box's own `/proc`, watches for children ending and says it is ready.
    fn new(
        root: bool,
        max_processes: u32,
        enforced: Enforced,
        oom_kills: Option<OomKills>,
    ) -> io::Result<Init> {
        // If the helper dies, so does the box.
        sys::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong)?;
        // Bots running as our uid (arena not root) must not read or trace the init.
        sys::prctl(libc::PR_SET_DUMPABLE, 0)?;
        sys::mount(
            Some(c"proc"),
            Path::new("/proc"),
            Some(c"proc"),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            None,
        )
        .map_err(|error| {
            io::Error::new(
                error.kind(),
                format!("cannot mount the box's /proc: {error}"),
            )
        })?;
        // SAFETY: building and installing a signal mask with SIGCHLD, then a signalfd for it.
        let signals = unsafe {
            let mut mask: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut mask);
            libc::sigaddset(&mut mask, libc::SIGCHLD);
            libc::sigprocmask(libc::SIG_BLOCK, &mask, std::ptr::null_mut());
            let fd = check(libc::signalfd(-1, &mask, libc::SFD_CLOEXEC).into())? as RawFd;
            OwnedFd::from_raw_fd(fd)
        };
        // Inherited by every process the box starts, so set once here rather than at each
        // spawn: no process gains privileges at `exec`, and none makes the calls the filter
        // refuses (the init needs none of them from here on).
        sys::prctl(libc::PR_SET_NO_NEW_PRIVS, 1)?;
        super::syscalls::install().map_err(|error| {
            io::Error::new(
                error.kind(),
                format!("cannot install the system call filter: {error}"),
            )
        })?;
        let cgroup = enforced.cgroup.is_some();
        wire::send(CONTROL, &FromBox::Ready(enforced), &[])?;
        Ok(Init {
            stack: vec![0; CHILD_STACK_BYTES],
            root,
            max_processes,
            cgroup,
            signals,
            current: None,
            oom_kills,
        })
    }

    /// Serves the runner until it closes the socket.
    fn serve(mut self) -> i32 {
        let mut buffer = vec![0u8; MAX_MESSAGE];
        loop {
            let mut fds = [
                libc::pollfd {
                    fd: CONTROL,
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: self.signals.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            // SAFETY: polling two live pollfd entries.
            if unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) } == -1 {
                if io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                return 1;
            }
            if fds[1].revents != 0 {
                self.reap();
            }
            if fds[0].revents != 0 {
                match wire::receive::<ToBox>(CONTROL, &mut buffer) {
                    Ok(Some((ToBox::Spawn(spawn), stdio))) => self.spawn(spawn, stdio),
                    Ok(Some((ToBox::KillAll, _))) => kill_all(),
                    // The runner is gone: ending the init ends the box.
                    Ok(None) | Err(_) => return 0,
                }
            }
        }
    }

    /// Reaps every ended child (orphans of the bot included) and reports the current one.
    fn reap(&mut self) {
        let mut info = [0u8; std::mem::size_of::<libc::signalfd_siginfo>()];
        // SAFETY: reading into a live buffer of its size; the content is not needed.
        unsafe {
            libc::read(
                self.signals.as_raw_fd(),
                info.as_mut_ptr().cast(),
                info.len(),
            )
        };
        loop {
            let mut status = 0;
            // SAFETY: a live status pointer.
            let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
            if pid <= 0 {
                return;
            }
            if self
                .current
                .as_ref()
                .is_some_and(|current| current.pid == pid)
            {
                let current = self.current.take().expect("checked above");
                let killed = libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGKILL;
                let kills_now = || self.oom_kills.as_ref().and_then(OomKills::now);
                let out_of_memory = killed
                    && current
                        .oom_kills_before
                        .is_some_and(|before| kills_now().is_some_and(|now| now > before));
                let report = FromBox::Exited {
                    serial: current.serial,
                    status,
                    out_of_memory,
                };
                let _ = wire::send(CONTROL, &report, &[]);
            }
        }
    }

    /// Starts the process `spawn` describes with the three descriptors sent with it.
    fn spawn(&mut self, spawn: Spawn, stdio: Vec<OwnedFd>) {
        let serial = spawn.serial;
        let oom_kills_before = self.oom_kills.as_ref().and_then(OomKills::now);
        let report = match self.start(&spawn, &stdio) {
            Ok(pid) => {
                self.current = Some(Current {
                    pid,
                    serial,
                    oom_kills_before,
                });
                spawn.confirm.then_some(FromBox::Started(serial))
            }
            Err(error) => Some(FromBox::NotStarted(serial, error)),
        };
        drop(stdio);
        if let Some(report) = report {
            let _ = wire::send(CONTROL, &report, &[]);
        }
    }

    fn start(&mut self, spawn: &Spawn, stdio: &[OwnedFd]) -> Result<libc::pid_t, StartFailure> {
        let bots = |why: &str| StartFailure {
            why: why.to_owned(),
            setup: false,
        };
        let [stdin, stdout, stderr] = stdio else {
            return Err(bots("the runner sent no stdio"));
        };
        let c = |s: &[u8]| CString::new(s).map_err(|_| bots("an argument holds a NUL byte"));
        let program = c(spawn.program.as_os_str().as_bytes())?;
        let dir = c(spawn.dir.as_os_str().as_bytes())?;
        let argv = spawn
            .argv
            .iter()
            .map(|a| c(a.as_bytes()))
            .collect::<Result<Vec<_>, _>>()?;
        let env = spawn
            .env
            .iter()
            .map(|e| c(e.as_bytes()))
            .collect::<Result<Vec<_>, _>>()?;
        let pointers = |strings: &[CString]| {
            let mut list: Vec<*const libc::c_char> = strings.iter().map(|s| s.as_ptr()).collect();
            list.push(std::ptr::null());
            list
        };
        let (argv, env) = (pointers(&argv), pointers(&env));
        let plan = ChildPlan {
            stdio: [stdin.as_raw_fd(), stdout.as_raw_fd(), stderr.as_raw_fd()],
            limits: ChildLimits {
                memory_bytes: spawn.memory_bytes,
                cpu_seconds: spawn.cpu_seconds,
                max_processes: (!self.cgroup).then_some(self.max_processes),
                root: self.root,
            },
            dir: &dir,
            program: &program,
            argv: &argv,
            env: &env,
            failure: std::cell::Cell::new(None),
        };
        let stack = self.stack.as_mut_ptr_range().end;
        // Aligned down to 16 bytes, as every ABI wants its stack.
        let top = ((stack as usize) & !15) as *mut libc::c_void;
        // SAFETY: a vfork-like clone: the child runs `start_bot` on its own stack in our
        // memory while we are suspended, until it execs or exits; it only makes system calls
        // and writes `plan.failure`. Sharing memory spares the page-table copy of a fork,
        // which was most of the sandbox's cost per request (BENCHMARKS.md).
        let pid = unsafe {
            libc::clone(
                start_bot,
                top,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                (&raw const plan).cast_mut().cast(),
            )
        };
        if pid == -1 {
            let error = io::Error::last_os_error();
            // The box's processes and threads are counted, the init's and the finished ones
            // not yet reaped included: the limit, not the machine, refused this one.
            if error.raw_os_error() == Some(libc::EAGAIN) {
                return Err(bots(&format!(
                    "{error}: the box already holds as many processes and threads as its \
                     `max_processes` ({}) allows, its own init included",
                    self.max_processes
                )));
            }
            return Err(bots(&error.to_string()));
        }
        match plan.failure.get() {
            None => Ok(pid),
            Some((stage, errno)) => {
                Err(stage.failure(io::Error::from_raw_os_error(errno), spawn, &plan.limits))
            }
        }
    }
}

/// The child's stack until exec: it only makes system calls.
const CHILD_STACK_BYTES: usize = 64 * 1024;

/// The step of a process's start that failed, in the order they are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Its stdin, stdout and stderr.
    Stdio,
    /// `RLIMIT_AS`, its `memory_mb`.
    Memory,
    /// `RLIMIT_CPU`, its `cpu_seconds`.
    Cpu,
    /// `RLIMIT_NPROC`, the box's `max_processes` where no cgroup counts them.
    Processes,
    /// `RLIMIT_CORE`, no core files.
    CoreFiles,
    /// Dropping from root to nobody.
    User,
    /// Entering the bot's folder.
    Dir,
    /// `execve` of the bot's program.
    Exec,
}

impl Stage {
    /// Why the start failed at this stage with `error`, for the user. Every stage before the
    /// bot's folder is the machine's refusal of what arena asked (the bot has not run yet):
    /// the runner's failure, not the bot's crash.
    fn failure(self, error: io::Error, spawn: &Spawn, limits: &ChildLimits) -> StartFailure {
        const MIB: u64 = 1 << 20;
        let limit = |what: String, ulimit: &str, setting: &str| {
            format!(
                "cannot limit the bot's process to {what} in the sandbox: {error}; arena runs \
                 under a lower hard limit (`ulimit -H{ulimit}`), which it cannot raise: {}",
                crate::bots::preflight::lower_or_raise(setting)
            )
        };
        let why = match self {
            Stage::Dir => {
                return StartFailure {
                    why: format!(
                        "cannot enter {} in the sandbox: {error}",
                        spawn.dir.display()
                    ),
                    setup: false,
                };
            }
            Stage::Exec => {
                return StartFailure {
                    why: format!(
                        "cannot run {} in the sandbox: {error}",
                        spawn.program.display()
                    ),
                    setup: false,
                };
            }
            Stage::Memory => limit(
                format!("{} MiB of memory", limits.memory_bytes.unwrap_or(0) / MIB),
                "v",
                "memory_mb",
            ),
            Stage::Cpu => limit(
                format!("{} s of CPU time", limits.cpu_seconds.unwrap_or(0)),
                "t",
                "cpu_seconds",
            ),
            Stage::Processes => limit(
                format!(
                    "{} processes (no cgroup counts the box's processes here)",
                    limits.max_processes.unwrap_or(0)
                ),
                "u",
                "max_processes",
            ),
            Stage::User => {
                format!("cannot run the bot's process as nobody in the sandbox: {error}")
            }
            Stage::Stdio | Stage::CoreFiles => {
                format!("cannot set up the bot's process in the sandbox: {error}")
            }
        };
        StartFailure { why, setup: true }
    }
}

/// Everything the child of a spawn needs, prepared before the clone.
struct ChildPlan<'a> {
    stdio: [RawFd; 3],
    limits: ChildLimits,
    dir: &'a CString,
    program: &'a CString,
    argv: &'a [*const libc::c_char],
    env: &'a [*const libc::c_char],
    /// Set by the child if it could not exec: the stage and `errno`.
    failure: std::cell::Cell<Option<(Stage, i32)>>,
}

/// The child's entry point: becomes the bot, or records why not and exits.
extern "C" fn start_bot(plan: *mut libc::c_void) -> libc::c_int {
    // SAFETY: the parent passed a live ChildPlan and waits (CLONE_VFORK) until we exec or
    // exit, so the reference is valid for all of our life in its memory.
    let plan = unsafe { &*(plan as *const ChildPlan<'_>) };
    let failure = become_bot(plan);
    plan.failure.set(Some(failure));
    // SAFETY: leaving without running anything of the parent's.
    unsafe { libc::_exit(127) }
}

/// What a bot process is limited to, set before its program runs.
struct ChildLimits {
    memory_bytes: Option<u64>,
    cpu_seconds: Option<u64>,
    /// `RLIMIT_NPROC`, where no cgroup counts the box's processes.
    max_processes: Option<u32>,
    /// Drop from root to nobody.
    root: bool,
}

/// In the forked child: becomes the bot's process and execs it. Returns only on failure,
/// with the stage and `errno`.
fn become_bot(plan: &ChildPlan<'_>) -> (Stage, i32) {
    let ChildPlan {
        stdio,
        limits,
        dir,
        program,
        argv,
        env,
        ..
    } = plan;
    let fail = |stage| {
        (
            stage,
            io::Error::last_os_error().raw_os_error().unwrap_or(0),
        )
    };
    let set = |resource, soft: u64, hard: u64| sys::set_rlimit(resource, soft, hard).is_ok();
    // SAFETY: plain system calls on descriptors and strings that are alive; the strings and
    // pointer arrays are NUL-terminated and null-terminated.
    unsafe {
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
        // Rust ignores SIGPIPE in its own processes; a bot gets the default.
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        for (target, &fd) in stdio.iter().enumerate() {
            if libc::dup2(fd, target as RawFd) == -1 {
                return fail(Stage::Stdio);
            }
        }
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        );
        if let Some(bytes) = limits.memory_bytes
            && !set(libc::RLIMIT_AS, bytes, bytes)
        {
            return fail(Stage::Memory);
        }
        if let Some(seconds) = limits.cpu_seconds
            && !set(libc::RLIMIT_CPU, seconds, seconds + 1)
        {
            return fail(Stage::Cpu);
        }
        if let Some(count) = limits.max_processes
            && !set(libc::RLIMIT_NPROC, count.into(), count.into())
        {
            return fail(Stage::Processes);
        }
        if !set(libc::RLIMIT_CORE, 0, 0) {
            return fail(Stage::CoreFiles);
        }
        if limits.root
            && (libc::setgroups(0, std::ptr::null()) == -1
                || libc::setresgid(NOBODY, NOBODY, NOBODY) == -1
                || libc::setresuid(NOBODY, NOBODY, NOBODY) == -1)
        {
            return fail(Stage::User);
        }
        if libc::chdir(dir.as_ptr()) == -1 {
            return fail(Stage::Dir);
        }
        libc::execve(program.as_ptr(), argv.as_ptr(), env.as_ptr());
        fail(Stage::Exec)
    }
}

/// Kills every process in the box but its init. `kill(-1)` from PID 1 of a PID namespace
/// reaches exactly the processes of that namespace, which here are the bot's; the check
/// makes sure this process is that init.
fn kill_all() {
    if std::process::id() == 1 {
        // SAFETY: see above; kill takes no pointers.
        unsafe { libc::kill(-1, libc::SIGKILL) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folders_above_a_path_that_others_cannot_search_are_blocked() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let private = dir.path().join("private");
        let bot = private.join("open/bot");
        std::fs::create_dir_all(&bot).unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).unwrap();
        let blocked = blocked_ancestors([bot].iter());
        assert!(blocked.contains(&private), "{blocked:?}");
        assert!(!blocked.contains(&private.join("open")), "{blocked:?}");
        assert!(!blocked.contains(&dir.path().to_path_buf()), "{blocked:?}");
    }
}
