//! The few Linux system calls the sandbox needs, each wrapped once so that the rest of the
//! module speaks `io::Result` and owned descriptors instead of return codes and raw integers.

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

// From <linux/mount.h>; the libc crate has the syscall numbers but not these flags.
const OPEN_TREE_CLONE: libc::c_uint = 1;
const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 0x4;
pub(crate) const MOUNT_ATTR_RDONLY: u64 = 0x1;
pub(crate) const MOUNT_ATTR_NOSUID: u64 = 0x2;
pub(crate) const MOUNT_ATTR_NODEV: u64 = 0x4;
// From <linux/openat2.h>.
const RESOLVE_NO_SYMLINKS: u64 = 0x04;

/// `struct mount_attr` of `mount_setattr(2)`.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

/// `struct open_how` of `openat2(2)`.
#[repr(C)]
struct OpenHow {
    flags: u64,
    mode: u64,
    resolve: u64,
}

/// Turns a C return value into a result, reading `errno` on -1.
pub(crate) fn check(ret: libc::c_long) -> io::Result<libc::c_long> {
    if ret == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

/// A path as a C string (a path with a NUL byte cannot exist).
pub(crate) fn c_path(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a path holds a NUL byte"))
}

/// The descriptor a successful call returned.
pub(crate) fn owned(ret: libc::c_long) -> io::Result<OwnedFd> {
    let fd = RawFd::try_from(check(ret)?).map_err(|_| io::Error::other("descriptor overflow"))?;
    // SAFETY: the kernel just returned this descriptor to us and nothing else owns it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// `unshare(2)`: moves this process into new namespaces.
pub(crate) fn unshare(flags: libc::c_int) -> io::Result<()> {
    // SAFETY: unshare takes no pointers.
    check(unsafe { libc::unshare(flags) }.into()).map(drop)
}

/// `mount(2)` with optional source, file system type and data.
pub(crate) fn mount(
    source: Option<&CStr>,
    target: &Path,
    fstype: Option<&CStr>,
    flags: libc::c_ulong,
    data: Option<&CStr>,
) -> io::Result<()> {
    let target = c_path(target)?;
    let ptr = |s: Option<&CStr>| s.map_or(std::ptr::null(), CStr::as_ptr);
    // SAFETY: every pointer is null or a NUL-terminated string that outlives the call.
    let ret = unsafe {
        libc::mount(
            ptr(source),
            target.as_ptr(),
            ptr(fstype),
            flags,
            ptr(data).cast(),
        )
    };
    check(ret.into()).map(drop)
}

/// `mount_setattr(2)` on the mount at `path` (and, with `recursive`, every mount below it).
pub(crate) fn set_mount_attributes(path: &Path, set: u64, recursive: bool) -> io::Result<()> {
    let path = c_path(path)?;
    let flags = if recursive { libc::AT_RECURSIVE } else { 0 };
    set_attributes(libc::AT_FDCWD, &path, flags, set)
}

fn set_attributes(dirfd: RawFd, path: &CStr, flags: libc::c_int, set: u64) -> io::Result<()> {
    let attr = MountAttr {
        attr_set: set,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: `path` is NUL-terminated and `attr` is a live struct of the size we pass.
    let ret = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            dirfd,
            path.as_ptr(),
            flags,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    check(ret).map(drop)
}

/// A detached copy of the mount at the folder `dir` refers to (`open_tree(2)` with
/// `OPEN_TREE_CLONE`), with attributes `set`: attached later with [`attach`], after the
/// folder's path may have been covered.
pub(crate) fn clone_tree(dir: BorrowedFd<'_>, set: u64) -> io::Result<OwnedFd> {
    let flags =
        OPEN_TREE_CLONE | libc::O_CLOEXEC as libc::c_uint | libc::AT_EMPTY_PATH as libc::c_uint;
    // SAFETY: an empty NUL-terminated path and a descriptor we borrow for the call.
    let tree =
        owned(unsafe { libc::syscall(libc::SYS_open_tree, dir.as_raw_fd(), c"".as_ptr(), flags) })?;
    set_attributes(tree.as_raw_fd(), c"", libc::AT_EMPTY_PATH, set)?;
    Ok(tree)
}

/// Attaches a detached tree from [`clone_tree`] at `target` (`move_mount(2)`).
pub(crate) fn attach(tree: &OwnedFd, target: &Path) -> io::Result<()> {
    let target = c_path(target)?;
    // SAFETY: NUL-terminated paths and a descriptor we own.
    let ret = unsafe {
        libc::syscall(
            libc::SYS_move_mount,
            tree.as_raw_fd(),
            c"".as_ptr(),
            libc::AT_FDCWD,
            target.as_ptr(),
            MOVE_MOUNT_F_EMPTY_PATH,
        )
    };
    check(ret).map(drop)
}

/// Opens `path` as an `O_PATH` descriptor. With `no_symlinks`, no component of the path may
/// be a symbolic link (`openat2(2)` with `RESOLVE_NO_SYMLINKS`): a folder a bot could have
/// replaced by a link is refused instead of followed.
pub(crate) fn open_path(path: &Path, no_symlinks: bool) -> io::Result<OwnedFd> {
    let path = c_path(path)?;
    let how = OpenHow {
        flags: (libc::O_PATH | libc::O_CLOEXEC) as u64,
        mode: 0,
        resolve: if no_symlinks { RESOLVE_NO_SYMLINKS } else { 0 },
    };
    // SAFETY: a NUL-terminated path and a live struct of the size we pass.
    owned(unsafe {
        libc::syscall(
            libc::SYS_openat2,
            libc::AT_FDCWD,
            path.as_ptr(),
            &how as *const OpenHow,
            std::mem::size_of::<OpenHow>(),
        )
    })
}

/// Sets a resource limit of this process (soft and hard).
pub(crate) fn set_rlimit(
    resource: libc::__rlimit_resource_t,
    soft: u64,
    hard: u64,
) -> io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: soft as libc::rlim_t,
        rlim_max: hard as libc::rlim_t,
    };
    // SAFETY: setrlimit reads the struct we pass.
    check(unsafe { libc::setrlimit(resource, &limit) }.into()).map(drop)
}

/// `prctl(2)` with one argument.
pub(crate) fn prctl(option: libc::c_int, arg: libc::c_ulong) -> io::Result<()> {
    // SAFETY: the options used here take integers, not pointers.
    check(unsafe { libc::prctl(option, arg, 0, 0, 0) }.into()).map(drop)
}

/// A pipe whose both ends are closed on exec.
pub(crate) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into the array we pass.
    check(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }.into())?;
    // SAFETY: both descriptors were just created and are owned by nothing else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Makes `fd`, a descriptor the runner made with no other status flag, non-blocking: one
/// `fcntl`, no `F_GETFL` first (`F_SETFL` ignores the access mode).
pub(crate) fn set_nonblocking(fd: BorrowedFd<'_>) -> io::Result<()> {
    // SAFETY: F_SETFL on a descriptor we hold only changes its status flags.
    check(unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) }.into()).map(drop)
}
