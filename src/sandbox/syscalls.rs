//! The system calls a bot's processes may not make: a seccomp filter the box's init installs
//! in itself once the box is set up, which every process it starts inherits. A bot needs
//! none of these, and each widens what it can ask of the kernel beyond its box: namespaces
//! of its own (a user namespace makes it root there, and unlocks much of the kernel),
//! mounts, tracing or reading other processes, eBPF, performance events, kernel keys,
//! `userfaultfd`, `io_uring`, modules and the like.
//! A namespace-making `clone` is refused by its flags; `clone3`, whose flags the filter
//! cannot read, and `io_uring_setup` are refused as not implemented, so that the C library
//! and libuv fall back to `clone` and to threads. A call of another architecture's table
//! (32-bit calls of an x86-64 program) ends the process: its numbers mean other calls.

use std::io;

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
compile_error!("the sandbox's system call filter knows the calls of x86-64 and AArch64 only");

/// `seccomp_data`'s fields, by byte offset.
const NR: u32 = 0;
const ARCH: u32 = 4;
/// The low half of the first argument (little-endian).
const ARG0_LOW: u32 = 16;

/// Classic BPF opcodes of the filter.
const LOAD_WORD: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JUMP_EQUAL: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JUMP_AT_LEAST: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const JUMP_ANY_BIT: u16 = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const RETURN: u16 = 0x06; // BPF_RET | BPF_K

const ALLOW: u32 = 0x7fff_0000;
const KILL_PROCESS: u32 = 0x8000_0000;
const fn fail_with(errno: i32) -> u32 {
    0x0005_0000 | errno as u32
}

#[cfg(target_arch = "x86_64")]
const NATIVE_ARCH: u32 = 0xc000_003e;
#[cfg(target_arch = "aarch64")]
const NATIVE_ARCH: u32 = 0xc000_00b7;

/// x86-64's x32 calls carry this bit in their number.
const X32_BIT: u32 = 0x4000_0000;

/// The `clone` flags that make namespaces.
const NAMESPACE_FLAGS: u32 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWCGROUP
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET) as u32;

/// Refused as not implemented: their callers have a fallback.
const NOT_IMPLEMENTED: &[libc::c_long] = &[
    libc::SYS_clone3,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
];

/// Refused as not permitted.
const NOT_PERMITTED: &[libc::c_long] = &[
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_open_tree,
    libc::SYS_move_mount,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_open_by_handle_at,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_acct,
    libc::SYS_quotactl,
    libc::SYS_syslog,
];

/// Installs the filter in this process, and so in every process it starts from now on.
/// `no_new_privs` must be set first.
pub(super) fn install() -> io::Result<()> {
    let program = filter();
    let program = libc::sock_fprog {
        len: program.len() as u16,
        filter: program.as_ptr().cast_mut(),
    };
    // SAFETY: the kernel copies the program we point at, which lives until the call returns.
    let installed = unsafe {
        libc::prctl(
            libc::PR_SET_SECCOMP,
            libc::SECCOMP_MODE_FILTER,
            &raw const program,
        )
    };
    if installed == -1 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The filter's program: the architecture, then each refused call, then `clone`'s flags.
fn filter() -> Vec<libc::sock_filter> {
    let op = |code, jt, jf, k| libc::sock_filter { code, jt, jf, k };
    let mut program = vec![
        op(LOAD_WORD, 0, 0, ARCH),
        op(JUMP_EQUAL, 1, 0, NATIVE_ARCH),
        op(RETURN, 0, 0, KILL_PROCESS),
        op(LOAD_WORD, 0, 0, NR),
        op(JUMP_AT_LEAST, 0, 1, X32_BIT),
        op(RETURN, 0, 0, KILL_PROCESS),
    ];
    let refused = (NOT_IMPLEMENTED.iter().map(|&nr| (nr, libc::ENOSYS)))
        .chain(NOT_PERMITTED.iter().map(|&nr| (nr, libc::EPERM)));
    for (nr, errno) in refused {
        program.push(op(JUMP_EQUAL, 0, 1, nr as u32));
        program.push(op(RETURN, 0, 0, fail_with(errno)));
    }
    program.extend([
        op(JUMP_EQUAL, 1, 0, libc::SYS_clone as u32),
        op(RETURN, 0, 0, ALLOW),
        op(LOAD_WORD, 0, 0, ARG0_LOW),
        op(JUMP_ANY_BIT, 0, 1, NAMESPACE_FLAGS),
        op(RETURN, 0, 0, fail_with(libc::EPERM)),
        op(RETURN, 0, 0, ALLOW),
    ]);
    program
}
