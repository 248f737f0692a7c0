//! The leaderboard as a Markdown table (GitHub flavour), for posting results the way the
//! original challenges did.

use std::fmt::Write;

use super::leaderboard::{Grid, Leaderboard};

/// Renders `board` as a Markdown line (the title in bold) and table.
pub fn render_markdown(board: &Leaderboard) -> String {
    let grid = board.grid();
    let mut out = format!("**{}**: {}\n\n", grid.game, grid.played);
    let _ = writeln!(out, "| {} |", grid.header.join(" | "));
    let align: Vec<&str> = (0..grid.header.len())
        .map(|c| {
            if c == Grid::NAME_COLUMN {
                "---"
            } else {
                "---:"
            }
        })
        .collect();
    let _ = writeln!(out, "|{}|", align.join("|"));
    for row in &grid.rows {
        let cells: Vec<String> = row.iter().map(|cell| cell.replace('|', "\\|")).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::{head_to_head, mean_scored};

    #[test]
    fn head_to_head_tables_have_results() {
        let expected = "\
**test**: 2 of 2 games played, seed 7

| rank | bot | score | wins | draws | losses | games | timeouts | crashes | invalid | elo | elo 95% |
|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| 1 | alpha | 2 | 2 | 0 | 0 | 2 | 0 | 1 | 0 | 120 | -80..320 |
| 2 | b, the second | 0 | 0 | 0 | 2 | 2 | 0 | 1 | 0 | -120 | -320..80 |
";
        assert_eq!(render_markdown(&head_to_head()), expected);
    }

    #[test]
    fn mean_scored_tables_have_three_decimals_and_the_range() {
        let text = render_markdown(&mean_scored());
        assert!(
            text.contains(
                "| 1 | a | 12.500 | 10 | 15 | 2 | 0 | 1 | 0 | 10.000..15.000 | 27.1±6.5 |"
            ),
            "{text}"
        );
    }
}
