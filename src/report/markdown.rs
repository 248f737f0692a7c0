//! The leaderboard as a Markdown table (GitHub flavour), for posting results the way the
//! original challenges did.

use std::fmt::Write;

use super::leaderboard::{Grid, Leaderboard};
use crate::text::escape_control;

/// Renders `board` as a Markdown line (the title in bold) and table.
pub fn render_markdown(board: &Leaderboard) -> String {
    let grid = board.grid();
    let mut out = format!("**{}**: {}\n\n", cell(&grid.game), grid.played);
    if let Some(sprt) = &board.sprt {
        let _ = writeln!(out, "SPRT: {}\n", cell(&sprt.to_string()));
    }
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
        let cells: Vec<String> = row.iter().map(|text| cell(text)).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out
}

/// `text` as literal Markdown in a table cell: control characters escaped as on a terminal
/// (a newline would end the row), then a backslash before `\\`, `|` (which would end the
/// cell), `<`, `>` and `&` (HTML tags and entities) and `[`, `]` (links). Emphasis marks
/// (`*`, `_`) are left alone: they only change the look, and `snake_case` names are common.
fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in escape_control(text).chars() {
        if matches!(c, '\\' | '|' | '<' | '>' | '&' | '[' | ']') {
            out.push('\\');
        }
        out.push(c);
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
    fn names_cannot_break_the_table_or_bring_markup() {
        let mut board = head_to_head();
        board.leaderboard[0].name = "a|b\nc\\|<img src=x>&amp;[x](y)".into();
        let text = render_markdown(&board);
        let row = text.lines().find(|line| line.starts_with("| 1 |")).unwrap();
        assert_eq!(
            row,
            "| 1 | a\\|b\\\\nc\\\\\\|\\<img src=x\\>\\&amp;\\[x\\](y) | 2 | 2 | 0 | 0 | 2 | 0 | 1 | 0 \
             | 120 | -80..320 |"
        );
        assert_eq!(text.lines().count(), 6, "{text}");
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
