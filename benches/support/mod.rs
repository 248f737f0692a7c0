//! What the process benchmarks share: tiny C bots (`bench/bots/`), compiled once per run with
//! the system's C compiler into Cargo's scratch folder for benchmarks, so that the bot costs
//! as little as a bot can and the runner's own overhead shows; the runner's CPU time per
//! request; and paired timings.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use divan::Bencher;

/// Compiles `bench/bots/<name>.c` with `cc -O2` into `<CARGO_TARGET_TMPDIR>/bench-bots/<name>`
/// and returns the program's path. Panics with the compiler's message if it fails: a
/// benchmark without its bot measures nothing.
pub fn compile(name: &str) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("bench/bots/{name}.c"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-bots");
    std::fs::create_dir_all(&dir).expect("cannot create the bench bot folder");
    let program = dir.join(name);
    let output = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&program)
        .arg(&source)
        .output()
        .expect("cannot run cc (a C compiler is needed for the process benchmarks)");
    assert!(
        output.status.success(),
        "cc failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    program
}

/// Benchmarks `request` (one request per call) with divan, then prints this thread's CPU
/// time (user + system) per request: the runner's own cost, which the wall time (the bot's
/// time included) does not show.
pub fn bench_with_cpu(label: &str, bencher: Bencher, mut request: impl FnMut()) {
    // Counted from the first request on, so that divan's one-time timer calibration is not.
    let mut started = None;
    let mut count = 0u64;
    bencher.bench_local(|| {
        started.get_or_insert_with(thread_cpu_seconds);
        request();
        count += 1;
    });
    let spent = thread_cpu_seconds() - started.unwrap_or_default();
    eprintln!(
        "{label}: {:.2} µs of runner CPU per request ({count} requests)",
        spent * 1e6 / count.max(1) as f64
    );
}

/// The calling thread's CPU time (user + system) so far, to the nanosecond: fine enough to
/// time a few hundred round trips.
pub fn thread_cpu_time() -> Duration {
    // SAFETY: clock_gettime only writes into the zeroed struct we own.
    let time = unsafe {
        let mut time: libc::timespec = std::mem::zeroed();
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time);
        time
    };
    Duration::new(time.tv_sec as u64, time.tv_nsec as u32)
}

/// User plus system CPU seconds of the calling thread.
fn thread_cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes into the zeroed struct we own.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_THREAD, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Times of two ways of doing the same request, taken in pairs, alternating which goes
/// first, so that a drift in the machine's speed hits both alike: wall times, or with
/// [`Pairs::cpu`] the runner thread's CPU time.
pub struct Pairs {
    times: Vec<(Duration, Duration)>,
    clock: fn() -> Duration,
}

impl Default for Pairs {
    fn default() -> Pairs {
        Pairs {
            times: Vec::new(),
            clock: wall_time,
        }
    }
}

/// Wall time since the first call.
fn wall_time() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

impl Pairs {
    /// Pairs of the calling thread's CPU times, for what the runner itself spends.
    pub fn cpu() -> Pairs {
        Pairs {
            times: Vec::new(),
            clock: thread_cpu_time,
        }
    }

    /// Times one call of `a` and one of `b`.
    pub fn time(&mut self, mut a: impl FnMut(), mut b: impl FnMut()) {
        let clock = self.clock;
        let timed = |f: &mut dyn FnMut()| {
            let start = clock();
            f();
            clock() - start
        };
        let pair = if self.times.len() % 2 == 0 {
            let a = timed(&mut a);
            (a, timed(&mut b))
        } else {
            let b = timed(&mut b);
            (timed(&mut a), b)
        };
        self.times.push(pair);
    }

    /// Prints the medians of `a`, of `b` and of the pair-by-pair ratio `a / b`.
    pub fn report(&self, label: &str) {
        self.report_per(label, 1);
    }

    /// As [`Pairs::report`], for calls of `requests` requests each: the medians are per
    /// request.
    pub fn report_per(&self, label: &str, requests: u32) {
        let median = |mut values: Vec<f64>| {
            values.sort_by(f64::total_cmp);
            values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
        };
        let micros = |pick: fn(&(Duration, Duration)) -> Duration| {
            median(
                self.times
                    .iter()
                    .map(|p| pick(p).as_secs_f64() * 1e6 / f64::from(requests))
                    .collect(),
            )
        };
        let ratio = median(
            self.times
                .iter()
                .map(|(a, b)| a.as_secs_f64() / b.as_secs_f64())
                .collect(),
        );
        eprintln!(
            "{label}: median ratio {ratio:.3} over {} pairs (medians {:.1} µs and {:.1} µs)",
            self.times.len(),
            micros(|p| p.0),
            micros(|p| p.1),
        );
    }
}
