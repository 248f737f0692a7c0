//! What the runner and a box say to each other over their `SOCK_SEQPACKET` socket: one JSON
//! message per packet, with the stdio descriptors of a new process passed along (SCM_RIGHTS).

use std::io;
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::sys::check;

/// The largest message either side sends (a spawn request with a large environment).
pub(crate) const MAX_MESSAGE: usize = 256 * 1024;

/// What a process in the box needs to start: its program, full argument vector, environment,
/// working folder and per-process limits. Its stdin, stdout and stderr travel with it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Spawn {
    /// Counts the box's processes, so that a late report of an earlier one is never taken
    /// for the current one's.
    pub(crate) serial: u64,
    pub(crate) program: PathBuf,
    /// `argv`, `argv[0]` included.
    pub(crate) argv: Vec<String>,
    /// `KEY=VALUE` entries.
    pub(crate) env: Vec<String>,
    pub(crate) dir: PathBuf,
    pub(crate) memory_bytes: Option<u64>,
    pub(crate) cpu_seconds: Option<u64>,
    /// Whether the box reports that the process started ([`FromBox::Started`]); it always
    /// reports a failure to start.
    pub(crate) confirm: bool,
}

/// Why the box could not start a process.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct StartFailure {
    /// Why, for the user.
    pub(crate) why: String,
    /// Whether it failed before the bot's folder and program were looked at: giving the
    /// process its limits or its user, which the machine arena runs on refused. Nothing a
    /// bot does reaches that step, so such a failure is the runner's, not the bot's crash.
    pub(crate) setup: bool,
}

/// The runner's requests.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum ToBox {
    /// Start a process (three descriptors attached: stdin, stdout, stderr).
    Spawn(Spawn),
    /// Kill every process in the box (the box's own init excepted).
    KillAll,
}

/// The box's reports.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) enum FromBox {
    /// The box is set up; what it enforces, for `arena check` and the logs.
    Ready(super::Enforced),
    /// The box could not be set up: why, for the user.
    Failed(String),
    /// The process of that serial started (if the runner asked to be told).
    Started(u64),
    /// The process of that serial could not start.
    NotStarted(u64, StartFailure),
    /// The process of that serial ended with this wait status.
    Exited {
        /// The process's serial.
        serial: u64,
        /// Its wait status.
        status: i32,
        /// Whether the kernel killed it because the box's memory ran out.
        out_of_memory: bool,
    },
    /// The box has ended, and a private folder was emptied rather than copied back
    /// (`sandbox::private`).
    FolderEmptied(EmptiedFolder),
}

/// A private folder that its box emptied instead of copying back what the bot left in it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct EmptiedFolder {
    /// The folder's path.
    pub folder: PathBuf,
    /// What it held: more than the runner keeps between games, or what the box could not
    /// copy.
    pub why: String,
}

/// Room for the ancillary data of one message: the three stdio descriptors of a spawn, at
/// most (`CMSG_SPACE(12)` is 32 bytes on 64-bit Linux), aligned for `cmsghdr`. On the stack:
/// every one-shot request sends and receives messages.
#[repr(C, align(8))]
struct Control([u8; 64]);

/// The most descriptors a message carries.
const MAX_FDS: usize = 3;

/// Sends one message with `fds` attached (at most three).
pub(crate) fn send(socket: RawFd, message: &impl Serialize, fds: &[RawFd]) -> io::Result<()> {
    let bytes = serde_json::to_vec(message).map_err(io::Error::other)?;
    let mut iov = libc::iovec {
        iov_base: bytes.as_ptr() as *mut libc::c_void,
        iov_len: bytes.len(),
    };
    assert!(
        fds.len() <= MAX_FDS,
        "a message carries at most three descriptors"
    );
    let fd_bytes = std::mem::size_of_val(fds) as u32;
    // SAFETY: CMSG_SPACE only computes a size.
    let space = unsafe { libc::CMSG_SPACE(fd_bytes) } as usize;
    let mut control = Control([0; 64]);
    // SAFETY: an all-zero msghdr is valid; every pointer set below outlives the call.
    let mut header: libc::msghdr = unsafe { std::mem::zeroed() };
    header.msg_iov = &mut iov;
    header.msg_iovlen = 1;
    if !fds.is_empty() {
        header.msg_control = control.0.as_mut_ptr().cast();
        header.msg_controllen = space as _;
        // SAFETY: the control buffer has room for one header and `fds` (CMSG_SPACE).
        unsafe {
            let cmsg = libc::CMSG_FIRSTHDR(&header);
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN(fd_bytes) as _;
            std::ptr::copy_nonoverlapping(fds.as_ptr(), libc::CMSG_DATA(cmsg).cast(), fds.len());
        }
    }
    // SAFETY: `header` describes live buffers.
    let sent = check(unsafe { libc::sendmsg(socket, &header, libc::MSG_NOSIGNAL) } as _)?;
    if sent as usize != bytes.len() {
        return Err(io::Error::other("a control message was cut short"));
    }
    Ok(())
}

/// Receives one message and the descriptors attached to it. `Ok(None)`: the other side
/// closed the socket.
pub(crate) fn receive<T: for<'de> Deserialize<'de>>(
    socket: RawFd,
    buffer: &mut [u8],
) -> io::Result<Option<(T, Vec<OwnedFd>)>> {
    let mut iov = libc::iovec {
        iov_base: buffer.as_mut_ptr().cast(),
        iov_len: buffer.len(),
    };
    // SAFETY: CMSG_SPACE only computes a size.
    let space =
        unsafe { libc::CMSG_SPACE((MAX_FDS * std::mem::size_of::<RawFd>()) as u32) } as usize;
    let mut control = Control([0; 64]);
    // SAFETY: an all-zero msghdr is valid; every pointer set below outlives the call.
    let mut header: libc::msghdr = unsafe { std::mem::zeroed() };
    header.msg_iov = &mut iov;
    header.msg_iovlen = 1;
    header.msg_control = control.0.as_mut_ptr().cast();
    header.msg_controllen = space as _;
    // SAFETY: `header` describes live buffers.
    let received =
        check(unsafe { libc::recvmsg(socket, &mut header, libc::MSG_CMSG_CLOEXEC) } as _)?;
    let mut fds = Vec::new();
    // SAFETY: the kernel filled `control` and set `msg_controllen`; CMSG_* walk within it.
    unsafe {
        let mut cmsg = libc::CMSG_FIRSTHDR(&header);
        while !cmsg.is_null() {
            if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(cmsg).cast::<RawFd>();
                let count = ((*cmsg).cmsg_len as usize - libc::CMSG_LEN(0) as usize)
                    / std::mem::size_of::<RawFd>();
                for i in 0..count {
                    fds.push(OwnedFd::from_raw_fd(data.add(i).read_unaligned()));
                }
            }
            cmsg = libc::CMSG_NXTHDR(&header, cmsg);
        }
    }
    if received == 0 {
        return Ok(None);
    }
    if header.msg_flags & (libc::MSG_TRUNC | libc::MSG_CTRUNC) != 0 {
        return Err(io::Error::other("a control message was too long"));
    }
    let message = serde_json::from_slice(&buffer[..received as usize])
        .map_err(|error| io::Error::other(format!("a bad control message: {error}")))?;
    Ok(Some((message, fds)))
}

/// A connected pair of sequenced-packet sockets, closed on exec.
pub(crate) fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: socketpair writes two descriptors into the array we pass.
    check(unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    } as _)?;
    // SAFETY: both descriptors were just created and are owned by nothing else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}
