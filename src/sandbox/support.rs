//! Whether this machine can make boxes, and what to do when it cannot.

use std::io;

use super::{BotBox, BoxSpec, DEFAULT_MAX_PROCESSES, Enforced};

/// Makes one empty box, with a CPU quota of `cpu_millis` if the bots ask for one, to find
/// out before any game whether the kernel allows the sandbox. The error is one line for the
/// user: what is missing and how to run anyway.
pub fn check_support(cpu_millis: Option<u32>) -> Result<Enforced, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| format!("cannot test the sandbox: {error}"))?;
    let spec = BoxSpec {
        max_processes: DEFAULT_MAX_PROCESSES,
        cpu_millis,
        ..BoxSpec::default()
    };
    runtime
        .block_on(BotBox::start(&spec))
        .map(|sandbox| sandbox.enforced().clone())
        .map_err(|error| {
            format!(
                "cannot make the sandbox that runs bots: {error}; to run the bots without \
                 one, give --no-sandbox or set sandbox = \"none\""
            )
        })
}

/// Adds to an error of `unshare` what usually causes it on this machine.
pub(crate) fn explain_unshare(error: io::Error) -> io::Error {
    let setting = |path: &str| {
        std::fs::read_to_string(path)
            .ok()
            .map(|text| text.trim().to_owned())
    };
    let why = match error.raw_os_error() {
        Some(libc::EPERM | libc::EACCES) => {
            if setting("/proc/sys/kernel/unprivileged_userns_clone").as_deref() == Some("0") {
                "unprivileged user namespaces are disabled (sysctl \
                 kernel.unprivileged_userns_clone = 0; set it to 1, or run arena as root)"
            } else if setting("/proc/sys/kernel/apparmor_restrict_unprivileged_userns").as_deref()
                == Some("1")
            {
                "AppArmor restricts unprivileged user namespaces (sysctl \
                 kernel.apparmor_restrict_unprivileged_userns = 1; set it to 0, give arena an \
                 AppArmor profile that allows userns, or run arena as root)"
            } else if setting("/proc/sys/user/max_user_namespaces").as_deref() == Some("0") {
                "user namespaces are disabled (sysctl user.max_user_namespaces = 0)"
            } else {
                "the kernel or a container's seccomp policy does not allow new namespaces here"
            }
        }
        Some(libc::ENOSPC) => "the limit on namespaces is reached (sysctl user.max_*_namespaces)",
        Some(libc::EINVAL) => "this kernel lacks user, PID, mount or network namespaces",
        _ => "",
    };
    let message = if why.is_empty() {
        format!("the kernel refused new namespaces: {error}")
    } else {
        format!("the kernel refused new namespaces ({error}): {why}")
    };
    io::Error::new(error.kind(), message)
}
