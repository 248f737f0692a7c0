//! The leaderboard as an aligned text table, plus the pairwise results matrix.

use std::fmt::Write;

use super::leaderboard::Leaderboard;

/// Renders `board` for a terminal.
pub fn render_table(board: &Leaderboard) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} of {} games played, seed {}\n",
        board.game, board.games_played, board.total_games, board.seed
    );
    let header = [
        "rank", "bot", "score", "wins", "draws", "losses", "games", "timeouts", "crashes",
        "invalid",
    ];
    let rows: Vec<Vec<String>> = board
        .leaderboard
        .iter()
        .map(|s| {
            vec![
                s.rank.to_string(),
                s.name.clone(),
                format_score(s.score),
                s.wins.to_string(),
                s.draws.to_string(),
                s.losses.to_string(),
                s.games.to_string(),
                s.timeouts.to_string(),
                s.crashes.to_string(),
                s.invalid_replies.to_string(),
            ]
        })
        .collect();
    write_aligned(&mut out, &header.map(String::from), &rows, &[1]);
    if !board.pairwise.is_empty() {
        let names: Vec<&str> = board.leaderboard.iter().map(|s| s.name.as_str()).collect();
        let _ = writeln!(
            out,
            "\nhead to head (row's wins-draws-losses against column):\n"
        );
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
                        .map_or_else(
                            || "-".to_owned(),
                            |p| format!("{}-{}-{}", p.wins, p.draws, p.losses),
                        )
                }));
                row
            })
            .collect();
        write_aligned(&mut out, &header, &rows, &[0]);
    }
    out
}

/// Integral scores print as integers, others with three decimals (as the original tables).
fn format_score(score: f64) -> String {
    if score.fract() == 0.0 {
        format!("{score:.0}")
    } else {
        format!("{score:.3}")
    }
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
