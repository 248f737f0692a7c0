//! The `arena` binary: parse the command line, set up logging, run, map errors to exit codes.
//! The command line lives here, beside the runner library (`arena`) it drives: `args` defines
//! it, `app` carries out each command, and the rest are commands of their own.

mod app;
mod args;
mod check;
mod packaging;
mod quick_match;
mod templates;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::EnvFilter;

use crate::args::{Cli, LogFormat};
use arena::notice::{self, Level};

fn main() -> ExitCode {
    // The binary is also the sandbox's helper (see arena::sandbox).
    if std::env::args_os()
        .nth(1)
        .is_some_and(|arg| arg == arena::sandbox::BOX_ARG)
    {
        return ExitCode::from(u8::try_from(arena::sandbox::serve()).unwrap_or(1));
    }
    raise_descriptor_limit();
    let cli = Cli::parse();
    let level = match (cli.quiet, cli.verbose) {
        (true, _) => "error",
        (false, 0) => "info",
        (false, 1) => "debug",
        (false, _) => "trace",
    };
    let filter = EnvFilter::try_from_env("ARENA_LOG")
        .unwrap_or_else(|_| EnvFilter::new(format!("arena={level}")));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        // Log lines go above the live progress bar, not through it.
        .with_writer(|| arena::progress::LogWriter)
        .with_target(false);
    match cli.log_format {
        // A collector wants each event's time and its fields as keys of one object.
        LogFormat::Json => {
            logs.json().flatten_event(true).init();
            arena::notice::write_json();
        }
        LogFormat::Text => logs.with_ansi(colours()).without_time().init(),
    }
    let code = match app::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            notice::always(Level::Error, &error.to_string());
            ExitCode::from(error.exit_code())
        }
    };
    // The boxes of games that a stop or a failure dropped end within milliseconds of it:
    // no process of this run outlives it.
    let left = arena::sandbox::wait_for_abandoned(HELPERS_END_WITHIN);
    if left > 0 {
        notice::always(
            Level::Warning,
            &format!(
                "{left} sandbox helper(s) still ran {} s after the last game; they end on their \
                 own",
                HELPERS_END_WITHIN.as_secs()
            ),
        );
    }
    code
}

/// How long `arena` waits for the boxes of dropped games to end before it exits anyway.
const HELPERS_END_WITHIN: std::time::Duration = std::time::Duration::from_secs(5);

/// Whether text logs are coloured: on a terminal, unless `NO_COLOR` is set to anything but
/// the empty string (<https://no-color.org>).
fn colours() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Raises this process's soft limit on open descriptors to its hard limit. Each bot process
/// costs the runner a few descriptors while it runs, and the soft limit is often a low
/// default (1024) far under the hard one; a runner that still runs out stops with an error
/// instead of blaming the bots (see `arena::bots::RunnerFault`). Best effort: failing to
/// read or raise the limit leaves it as it was.
fn raise_descriptor_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write only the struct we pass.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}
