//! Spreading parallel games over the machine's cores.
//!
//! A bot blocked on a pipe is woken by the runner's write, and the kernel's wake-up
//! heuristics then like to run it on the runner's own core. With games in parallel, every
//! game's bots pile onto that one core while the others idle (`ps -o psr` shows it; see
//! BENCHMARKS.md, figure d). So when several games run at once, each game is given a lane
//! whose bot processes are kept on one core, lanes spread round-robin over the cores the
//! runner may use. A single game at a time is left alone, free to use every core for its
//! concurrent bots.

/// The core for each of `lanes` parallel games, or `None` for all when there is nothing to
/// spread (one lane, or one usable core).
pub fn lane_cores(lanes: usize) -> Vec<Option<usize>> {
    let usable = usable_cores();
    if lanes < 2 || usable.len() < 2 {
        return vec![None; lanes];
    }
    (0..lanes)
        .map(|lane| Some(usable[lane % usable.len()]))
        .collect()
}

/// Keeps the freshly started process `pid` (and the children it starts later) on `core`.
/// Best effort: a process that is already gone, or a core taken away meanwhile, only means
/// the kernel places it as it likes.
pub(crate) fn keep_on_core(pid: Option<u32>, core: Option<usize>) {
    let (Some(pid), Some(core)) = (pid.and_then(|p| libc::pid_t::try_from(p).ok()), core) else {
        return;
    };
    if core >= libc::CPU_SETSIZE as usize {
        return;
    }
    // SAFETY: an all-zero cpu_set_t is the empty set; CPU_SET writes inside it (core is
    // below CPU_SETSIZE); sched_setaffinity only reads the set we pass.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(core, &mut set);
        libc::sched_setaffinity(pid, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

/// The cores this process may run on, in ascending order (empty if the kernel will not say).
fn usable_cores() -> Vec<usize> {
    // SAFETY: an all-zero cpu_set_t is valid; sched_getaffinity writes at most its size;
    // CPU_ISSET reads inside it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&core| libc::CPU_ISSET(core, &set))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_lane_is_never_pinned() {
        assert_eq!(lane_cores(1), vec![None]);
        assert!(lane_cores(0).is_empty());
    }

    #[test]
    fn lanes_go_round_robin_over_the_usable_cores() {
        let usable = usable_cores();
        let lanes = lane_cores(2 * usable.len().max(2));
        if usable.len() < 2 {
            assert!(lanes.iter().all(Option::is_none));
        } else {
            let cores: Vec<usize> = lanes.iter().map(|c| c.unwrap()).collect();
            assert_eq!(&cores[..usable.len()], &usable[..]);
            assert_eq!(&cores[usable.len()..2 * usable.len()], &usable[..]);
        }
    }

    #[test]
    fn a_pinned_process_runs_only_on_its_core() {
        let usable = usable_cores();
        let core = *usable.last().expect("this process runs somewhere");
        let mut child = std::process::Command::new("/bin/sh")
            .args(["-c", "read line"])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        keep_on_core(Some(child.id()), Some(core));
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
        let allowed = status
            .lines()
            .find_map(|line| line.strip_prefix("Cpus_allowed_list:"))
            .unwrap()
            .trim()
            .to_owned();
        drop(child.stdin.take());
        child.wait().unwrap();
        assert_eq!(allowed, core.to_string());
    }
}
