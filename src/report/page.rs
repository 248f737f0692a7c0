//! The results page: one self-contained HTML file (no network) that shows a results folder
//! (finished or still running): the leaderboard in the original scoring, the ratings and
//! their intervals as a chart, the head-to-head matrix as a heat map or each bot's score
//! range, the bots' failures, the settings and links to the replays' viewer pages. The
//! page, its style and its script live next to this file and are embedded at build time;
//! the figures go in as JSON and the script draws them (SVG), so the same data drives the
//! table and the charts.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Serialize;

use super::leaderboard::Leaderboard;
use crate::errors::Error;
use crate::journal::Header;
use crate::replay::Replay;
use crate::replay::html::render_html;
use crate::results::write_atomically;

const PAGE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// A recorded game the page links to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
struct ReplayLink {
    /// The game's index in the journal.
    pub index: u64,
    /// Where the viewer page is, relative to the results page.
    pub href: String,
    /// The seats' bots, in seat order.
    pub bots: Vec<String>,
    /// The game's one-line ending, if the replay has one.
    pub summary: Option<String>,
}

/// Everything the page shows, as its script reads it.
#[derive(Serialize)]
struct PageData<'a> {
    board: &'a Leaderboard,
    /// The leaderboard's columns and cells exactly as `arena standings` prints them; the
    /// charts show these cells as their figures, so they are rounded once, the same way.
    columns: Vec<&'static str>,
    rows: Vec<Vec<String>>,
    /// How far the run is, as the tables say it, and whether its games are all played.
    progress: String,
    finished: bool,
    /// The settings the journal records.
    arena_version: &'a str,
    games_per_pairing: u32,
    shard: Option<String>,
    config_digest: &'a str,
    /// Journal lines that were not games of the tournament and are left out.
    left_out: u64,
    replays: &'a [ReplayLink],
}

/// Writes the results page `out` of the tournament in `header` with standings `board`,
/// which left out `left_out` journal lines, and the viewer pages of the replays in `replays`
/// beside it ([`write_replay_pages`]). A report is written whole or not at all: into a folder
/// that is not there it is refused before anything is written, with or without replays
/// (the user's folders are never created), and the page comes last, so a failure leaves no
/// page; the folder of viewer pages is removed then if this report made it.
pub fn write_page(
    out: &Path,
    replays: &Path,
    board: &Leaderboard,
    header: &Header,
    left_out: u64,
) -> Result<(), Error> {
    let cannot_write = || format!("cannot write {}", out.display());
    // `FOLDER/.` is the folder itself, so the system says why it is unusable as it would for
    // the page: no such file or directory, not a directory.
    std::fs::metadata(out.with_file_name(".")).with_context(cannot_write)?;
    let folder = replay_pages_folder(out);
    let made_here = folder.symlink_metadata().is_err();
    let written = write_replay_pages(replays, &folder).and_then(|links| {
        let page = render_page(board, header, left_out, &links);
        Ok(write_atomically(out, page.as_bytes()).with_context(cannot_write)?)
    });
    if written.is_err() && made_here {
        let _ = std::fs::remove_dir_all(&folder);
    }
    written
}

/// The results page of the tournament in `header` with standings `board`, which left out
/// `left_out` journal lines, linking to `replays`.
fn render_page(
    board: &Leaderboard,
    header: &Header,
    left_out: u64,
    replays: &[ReplayLink],
) -> String {
    let grid = board.grid();
    let data = PageData {
        board,
        columns: grid.header,
        rows: grid.rows,
        progress: board.progress(),
        finished: board.games_played >= board.planned_games(),
        arena_version: &header.arena_version,
        games_per_pairing: header.games,
        shard: header.shard.map(|shard| shard.to_string()),
        config_digest: &header.config_digest,
        left_out,
        replays,
    };
    let title = format!("{}, seed {}", board.game, board.seed);
    crate::html::fill_page(PAGE, &title, STYLE, SCRIPT, &data)
}

/// The folder beside the page `out` for its replays' viewer pages: `OUT-replays` for
/// `OUT.html`, so several reports can sit in one folder.
fn replay_pages_folder(out: &Path) -> PathBuf {
    let stem = out
        .file_stem()
        .map_or_else(|| "report".into(), |stem| stem.to_string_lossy());
    out.with_file_name(format!("{stem}-replays"))
}

/// Renders the viewer page of every replay file `replays/game-N.jsonl` into `folder` and
/// returns the links to them, in game order. A replay that cannot be read (a game still
/// being recorded in a running folder) is left out with a warning rather than failing the
/// report. `folder` is made at the first page, never its parents; one already there (an
/// earlier report's) is written into, and its pages of games this report has not are
/// removed ([`remove_stale_pages`]).
fn write_replay_pages(replays: &Path, folder: &Path) -> Result<Vec<ReplayLink>, Error> {
    let mut links = Vec::new();
    for (index, file) in replay_files(replays)? {
        let Some(replay) = read_replay(index, &file) else {
            continue;
        };
        if links.is_empty() {
            make_folder(folder)?;
        }
        let page = folder.join(format!("game-{index}.html"));
        write_atomically(&page, render_html(&replay).as_bytes())
            .with_context(|| format!("cannot write {}", page.display()))?;
        let folder_name = folder.file_name().map(|name| name.to_string_lossy());
        links.push(ReplayLink {
            index,
            href: format!(
                "./{}/game-{index}.html",
                url_segment(folder_name.as_deref().unwrap_or_default())
            ),
            bots: replay.header.bots,
            summary: replay.end.map(|end| end.summary),
        });
    }
    remove_stale_pages(folder, &links)?;
    Ok(links)
}

/// Removes the viewer pages `game-N.html` in `folder` (an earlier report's) of games that
/// are not among `links`: a host publishes the folder, and a page of another run's game in
/// it would be taken for one of this run's. Nothing else in the folder is touched.
fn remove_stale_pages(folder: &Path, links: &[ReplayLink]) -> Result<(), Error> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Ok(());
    };
    let kept: std::collections::HashSet<u64> = links.iter().map(|link| link.index).collect();
    let stale: Vec<PathBuf> = entries
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
        .filter(|entry| {
            let name = entry.file_name();
            let index = name.to_str().and_then(|name| game_index(name, ".html"));
            index.is_some_and(|index| !kept.contains(&index))
        })
        .map(|entry| entry.path())
        .collect();
    for page in &stale {
        std::fs::remove_file(page)
            .with_context(|| format!("cannot remove the earlier page {}", page.display()))?;
    }
    if !stale.is_empty() {
        tracing::info!(
            "removed {} of an earlier report from {}",
            crate::text::plural(stale.len() as u64, "viewer page", "viewer pages"),
            folder.display()
        );
    }
    Ok(())
}

/// Makes the folder `folder` of the viewer pages, or uses the folder already there; anything
/// else of that name is in the way.
fn make_folder(folder: &Path) -> Result<(), Error> {
    match std::fs::create_dir(folder) {
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists && !folder.is_dir() => {
            Err(Error::Other(anyhow::anyhow!(
                "cannot write the replays' viewer pages into {}: it is not a folder",
                folder.display()
            )))
        }
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        made => Ok(made.with_context(|| format!("cannot create {}", folder.display()))?),
    }
}

/// The files `game-N.jsonl` in `replays` with their N, in game order; none if the folder
/// does not exist. Only plain files: anything else there is left out with a warning, as a
/// link could lead anywhere (another run's replay, `/dev/zero`) and a FIFO would block the
/// report. The entry's own type is used, never its target's.
fn replay_files(replays: &Path) -> Result<Vec<(u64, PathBuf)>, Error> {
    let entries = match std::fs::read_dir(replays) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => {
            return Err(anyhow::Error::new(error)
                .context(format!("cannot read {}", replays.display()))
                .into());
        }
    };
    let mut files: Vec<(u64, PathBuf)> = entries
        .flatten()
        .filter_map(|entry| {
            let index = game_index(&entry.file_name().into_string().ok()?, ".jsonl")?;
            let path = entry.path();
            if !entry.file_type().ok()?.is_file() {
                tracing::warn!(
                    "left out of the report: {}: not a plain file (a link or a device) where \
                     a replay should be",
                    path.display()
                );
                return None;
            }
            Some((index, path))
        })
        .collect();
    files.sort();
    Ok(files)
}

/// The replay of game `index` in `file`, or `None` with a warning saying why not: it cannot
/// be read, or its header says it is another game (a page named after one game must show
/// that game).
fn read_replay(index: u64, file: &Path) -> Option<Replay> {
    match Replay::read(file) {
        Ok(replay) if replay.header.index == index => Some(replay),
        Ok(replay) => {
            tracing::warn!(
                "left out of the report: {}: its header is of game {}, not game {index} as its \
                 name says",
                file.display(),
                replay.header.index
            );
            None
        }
        Err(error) => {
            tracing::warn!("left out of the report: {error}");
            None
        }
    }
}

/// N of a file named `game-N` and `extension`: a replay (`.jsonl`) or its page (`.html`).
fn game_index(file_name: &str, extension: &str) -> Option<u64> {
    file_name
        .strip_prefix("game-")?
        .strip_suffix(extension)?
        .parse()
        .ok()
}

/// `text` as one segment of a relative URL: everything but letters, digits and `-._~`
/// percent-encoded, so a page named `a#b?.html` still links to its own folder.
fn url_segment(text: &str) -> String {
    text.bytes()
        .map(|byte| {
            if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
                char::from(byte).to_string()
            } else {
                format!("%{byte:02X}")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::head_to_head;

    fn header() -> Header {
        let bots = vec!["alpha".into(), "b, the second".into()];
        Header::new("test", 7, 1, bots, 2, "abc".into())
    }

    #[test]
    fn the_page_embeds_everything_and_no_name_can_close_the_data_block() {
        let mut board = head_to_head();
        board.leaderboard[0].name = "</script><script>alert(1)</script>".into();
        let links = [ReplayLink {
            index: 3,
            href: "./r/game-3.html".into(),
            bots: vec!["</script>".into()],
            summary: None,
        }];
        let page = render_page(&board, &header(), 0, &links);
        assert_eq!(
            page.matches("</script>").count(),
            2,
            "data and script blocks"
        );
        assert!(!page.contains("{{"), "a placeholder is left");
        assert!(!page.contains("http://") && !page.contains("https://"));
        assert!(page.contains("\\u003c/script>\\u003cscript>alert(1)"));
        assert!(page.contains("\"href\":\"./r/game-3.html\""));
    }

    #[test]
    fn replay_pages_sit_beside_the_report_and_links_survive_odd_file_names() {
        assert_eq!(
            replay_pages_folder(Path::new("out/petri.html")),
            Path::new("out/petri-replays")
        );
        assert_eq!(url_segment("a b#?%é-._~"), "a%20b%23%3F%25%C3%A9-._~");
        assert_eq!(game_index("game-12.jsonl", ".jsonl"), Some(12));
        assert_eq!(game_index("game-12.html", ".html"), Some(12));
        for name in [
            "game-x.jsonl",
            "game-1.json",
            "other-1.jsonl",
            ".game-1.jsonl",
        ] {
            assert_eq!(game_index(name, ".jsonl"), None, "{name}");
        }
    }
}
