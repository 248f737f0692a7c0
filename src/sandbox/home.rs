//! The runner's home folder, which every box hides: a user's keys, tokens and agents' sockets
//! live there (`~/.ssh`, `~/.gnupg`, `~/.aws`), and the bots of an unprivileged run have its
//! uid. Added as the box is made, not in the tournament's settings, so that a run and its
//! resume agree on their tournament wherever `$HOME` points.

use std::path::PathBuf;

use super::BoxSpec;

/// The runner's home folder (`$HOME`, as a canonical path). None when `$HOME` names no
/// folder, or `/`.
pub fn runner_home() -> Option<PathBuf> {
    let home = PathBuf::from(std::env::var_os("HOME")?);
    let home = home.is_absolute().then(|| home.canonicalize().ok())??;
    (home.is_dir() && home.parent().is_some()).then_some(home)
}

/// `spec` with the runner's home hidden, save what the bot reads in it and the Python
/// packages installed there (`pip install --user` puts them in `~/.local/lib`, where a bot's
/// Python looks for them).
pub(super) fn away_from_home(spec: &BoxSpec) -> BoxSpec {
    let mut spec = spec.clone();
    if let Some(home) = runner_home() {
        let packages = home.join(".local/lib");
        if packages.is_dir() {
            spec.readable.push(packages);
        }
        spec.hidden.push(home);
    }
    spec
}
