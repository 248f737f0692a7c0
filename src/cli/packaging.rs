//! What a package of `arena` ships beside the binary, generated from the command line's own
//! definitions so it never disagrees with `--help`: shell completion scripts and manual pages.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::CommandFactory;

use crate::args::Cli;
use arena::errors::Error;

/// The completion script of `arena` for `shell`.
pub fn completions(shell: clap_complete::Shell) -> String {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "arena", &mut script);
    String::from_utf8_lossy(&script).into_owned()
}

/// The manual page of `arena` itself (`arena.1`), listing its commands.
pub fn manual_page() -> Result<String, Error> {
    render(Cli::command())
}

/// Writes `arena.1` and one `arena-<command>.1` per command into `dir` (created if missing)
/// and returns the paths written.
pub fn write_manual_pages(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the folder {}", dir.display()))?;
    let mut arena = Cli::command();
    arena.build();
    let mut pages = vec![("arena.1".to_owned(), render(arena.clone())?)];
    for command in arena.get_subcommands().filter(|c| c.get_name() != "help") {
        // Named like git's pages, so `man arena-run` finds it.
        let name = format!("arena-{}", command.get_name());
        let page = render_titled(command.clone(), &name)?;
        pages.push((format!("{name}.1"), page));
    }
    pages
        .into_iter()
        .map(|(file, page)| {
            let path = dir.join(file);
            std::fs::write(&path, page)
                .with_context(|| format!("cannot write {}", path.display()))?;
            Ok(path)
        })
        .collect()
}

/// `command`'s page in roff.
fn render(command: clap::Command) -> Result<String, Error> {
    let title = command.get_name().to_owned();
    render_titled(command, &title)
}

/// `command`'s page in roff, under `title`.
fn render_titled(command: clap::Command, title: &str) -> Result<String, Error> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command)
        .title(title)
        .source(concat!("arena ", env!("CARGO_PKG_VERSION")))
        .render(&mut page)
        .context("cannot render the manual page")?;
    Ok(String::from_utf8_lossy(&page).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manual_page_names_every_command_and_option_of_run() {
        let page = manual_page().unwrap();
        assert!(
            page.starts_with(".ie \\n(.g .ds Aq"),
            "not roff: {page:.80}"
        );
        for command in ["run", "standings", "report", "completions", "man"] {
            assert!(page.contains(command), "{command} is missing");
        }
        let dir = tempfile::tempdir().unwrap();
        let written = write_manual_pages(dir.path()).unwrap();
        let run = std::fs::read_to_string(dir.path().join("arena-run.1")).unwrap();
        for option in ["\\-\\-format", "\\-\\-resume", "\\-\\-reuse", "\\-\\-shard"] {
            assert!(run.contains(option), "{option} is missing from arena-run.1");
        }
        assert!(run.contains(".TH arena-run 1"), "{run:.200}");
        assert!(written.len() > 5, "{written:?}");
    }

    #[test]
    fn completion_scripts_name_the_commands() {
        for shell in [clap_complete::Shell::Bash, clap_complete::Shell::Zsh] {
            let script = completions(shell);
            assert!(script.contains("standings"), "{shell}");
            assert!(script.contains("--format"), "{shell}");
        }
    }
}
