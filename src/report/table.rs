//! The leaderboard as an aligned text table, plus the pairwise results matrix.

use std::fmt::Write;

use super::leaderboard::{Grid, Leaderboard, PairRecord};

/// Renders `board` for a terminal.
pub fn render_table(board: &Leaderboard) -> String {
    let grid = board.grid();
    let mut out = format!("{}: {}\n\n", grid.game, grid.played);
    let header: Vec<String> = grid.header.iter().map(|h| h.to_string()).collect();
    write_aligned(&mut out, &header, &grid.rows, &[Grid::NAME_COLUMN]);
    if !board.pairwise.is_empty() {
        write_matrix(
            &mut out,
            board,
            "head to head (row's wins-draws-losses against column)",
            |p| Some(format!("{}-{}-{}", p.wins, p.draws, p.losses)),
        );
    }
    if board.pairwise.iter().any(|p| p.superiority.is_some()) {
        write_matrix(
            &mut out,
            board,
            "likelihood of superiority (that row is stronger than column)",
            |p| p.superiority.map(|los| format!("{los:.3}")),
        );
    }
    out
}

/// Writes a matrix of the bots in leaderboard order under `title`: `cell` of the pair
/// record of row against column, `-` where there is none.
fn write_matrix(
    out: &mut String,
    board: &Leaderboard,
    title: &str,
    cell: impl Fn(&PairRecord) -> Option<String>,
) {
    let names: Vec<&str> = board.leaderboard.iter().map(|s| s.name.as_str()).collect();
    let _ = writeln!(out, "\n{title}:\n");
    let mut header = vec![String::new()];
    header.extend(names.iter().map(|n| n.to_string()));
    let rows: Vec<Vec<String>> = names
        .iter()
        .map(|&bot| {
            let mut row = vec![bot.to_owned()];
            row.extend(names.iter().map(|&opponent| {
                board
                    .pairwise
                    .iter()
                    .find(|p| p.bot == bot && p.opponent == opponent)
                    .and_then(&cell)
                    .unwrap_or_else(|| "-".to_owned())
            }));
            row
        })
        .collect();
    write_aligned(out, &header, &rows, &[0]);
}

/// Writes `header` and `rows` in columns two spaces apart; columns listed in `left` are
/// left-aligned, the others right-aligned.
fn write_aligned(out: &mut String, header: &[String], rows: &[Vec<String>], left: &[usize]) {
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            rows.iter()
                .map(|row| row[c].chars().count())
                .chain([header[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            let pad = widths[c] - cell.chars().count();
            if left.contains(&c) {
                line.push_str(cell);
                line.extend(std::iter::repeat_n(' ', pad));
            } else {
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::PairRecord;
    use crate::report::fixtures::{board, elo, standing};

    #[test]
    fn head_to_head_tables_show_results_and_the_matrix() {
        let mut a = standing(1, "alpha", 2.0);
        let mut b = standing(2, "b", 0.0);
        (a.wins, a.draws, a.losses) = (Some(2), Some(0), Some(0));
        (b.wins, b.draws, b.losses) = (Some(0), Some(0), Some(2));
        (a.rating, b.rating) = (elo(120.5, 200.0), elo(-120.5, 200.0));
        let pair = |bot: &str, opponent: &str, wins, losses, superiority| PairRecord {
            bot: bot.into(),
            opponent: opponent.into(),
            wins,
            draws: 0,
            losses,
            superiority: Some(superiority),
        };
        let text = render_table(&board(
            vec![a, b],
            vec![
                pair("alpha", "b", 2, 0, 0.876),
                pair("b", "alpha", 0, 2, 0.124),
            ],
        ));
        let expected = "\
test: 2 of 2 games played, seed 7

rank  bot    score  wins  draws  losses  games  timeouts  crashes  invalid   elo   elo 95%
   1  alpha      2     2      0       0      2         0        1        0   120  -80..320
   2  b          0     0      0       2      2         0        1        0  -120  -320..80

head to head (row's wins-draws-losses against column):

       alpha      b
alpha      -  2-0-0
b      0-0-2      -

likelihood of superiority (that row is stronger than column):

       alpha      b
alpha      -  0.876
b      0.124      -
";
        assert_eq!(text, expected);
    }

    #[test]
    fn mean_score_tables_show_three_decimals_and_the_range() {
        let mut a = standing(1, "a", 12.5);
        (a.min, a.max) = (Some(10), Some(15));
        let mut b = standing(2, "b", 47.0);
        (b.min, b.max) = (Some(47), Some(47));
        let text = render_table(&board(vec![a, b], Vec::new()));
        assert!(
            text.contains("rank  bot   score  min  max  games"),
            "{text}"
        );
        assert!(
            text.contains("   1  a    12.500   10   15      2"),
            "{text}"
        );
        assert!(
            text.contains("   2  b    47.000   47   47      2"),
            "{text}"
        );
    }
}
