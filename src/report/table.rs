//! The leaderboard as an aligned text table, plus the pairwise results matrix.

use std::borrow::Cow;
use std::fmt::Write;

use unicode_width::UnicodeWidthStr;

use super::leaderboard::{Grid, Leaderboard, PairRecord};
use crate::text::escape_control;

/// Renders `board` for a terminal.
pub fn render_table(board: &Leaderboard) -> String {
    let grid = board.grid();
    let mut out = format!("{}: {}\n", escape_control(&grid.game), grid.played);
    if let Some(sprt) = &board.sprt {
        let _ = writeln!(out, "SPRT: {}", escape_control(&sprt.to_string()));
    }
    out.push('\n');
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
    // Looked up by pair: a field of 200 bots has 40,000 cells.
    let pairs: std::collections::HashMap<(&str, &str), &PairRecord> = board
        .pairwise
        .iter()
        .map(|p| ((p.bot.as_str(), p.opponent.as_str()), p))
        .collect();
    let _ = writeln!(out, "\n{title}:\n");
    let mut header = vec![String::new()];
    header.extend(names.iter().map(|n| n.to_string()));
    let rows: Vec<Vec<String>> = names
        .iter()
        .map(|&bot| {
            let mut row = vec![bot.to_owned()];
            row.extend(names.iter().map(|&opponent| {
                pairs
                    .get(&(bot, opponent))
                    .and_then(|&p| cell(p))
                    .unwrap_or_else(|| "-".to_owned())
            }));
            row
        })
        .collect();
    write_aligned(out, &header, &rows, &[0]);
}

/// Writes `header` and `rows` in columns two spaces apart; columns listed in `left` are
/// left-aligned, the others right-aligned. Cells are measured by their width on a terminal
/// (a CJK character takes two columns, a combining accent none), after escaping the control
/// characters a bot's name may bring from a journal. A row shorter than the header (a
/// mean-scored game before its first game has no range yet) ends in empty cells.
fn write_aligned(out: &mut String, header: &[String], rows: &[Vec<String>], left: &[usize]) {
    let lines: Vec<Vec<Cow<'_, str>>> = std::iter::once(header)
        .chain(rows.iter().map(Vec::as_slice))
        .map(|row| {
            (0..header.len())
                .map(|c| {
                    row.get(c)
                        .map_or(Cow::Borrowed(""), |cell| escape_control(cell))
                })
                .collect()
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|c| lines.iter().map(|line| line[c].width()).max().unwrap_or(0))
        .collect();
    for cells in &lines {
        let mut line = String::new();
        for (c, cell) in cells.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            let pad = widths[c] - cell.width();
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
    fn wide_names_align_by_display_width_and_control_characters_are_escaped() {
        let standings = ["東京スライム", "e\u{301}te\u{301}", "x\x1b[2J\n"]
            .into_iter()
            .enumerate()
            .map(|(i, name)| {
                let mut s = standing(i + 1, name, 1.0);
                (s.min, s.max) = (Some(1), Some(1));
                s
            })
            .collect();
        let text = render_table(&board(standings, Vec::new()));
        let expected = "\
test: 2 of 2 games played, seed 7

rank  bot           score  min  max  games  timeouts  crashes  invalid
   1  東京スライム  1.000    1    1      2         0        1        0
   2  e\u{301}te\u{301}           1.000    1    1      2         0        1        0
   3  x\\x1b[2J\\n    1.000    1    1      2         0        1        0
";
        assert_eq!(text, expected);
    }

    #[test]
    fn a_mean_scored_game_without_games_has_an_empty_range() {
        let text = render_table(&board(vec![standing(1, "a", 0.0)], Vec::new()));
        let expected = "\
rank  bot  score  min  max  games  timeouts  crashes  invalid
   1  a    0.000    -    -      2         0        1        0
";
        assert!(text.ends_with(expected), "{text}");
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
