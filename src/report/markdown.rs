//! The leaderboard as a Markdown table (GitHub flavour), for posting results the way the
//! original challenges did.

use std::fmt::Write;

use super::leaderboard::Leaderboard;

/// Renders `board` as a Markdown heading line and table.
pub fn render_markdown(board: &Leaderboard) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "**{}**: {} of {} games played, seed {}\n",
        board.game, board.games_played, board.total_games, board.seed
    );
    let head_to_head = board.leaderboard.iter().any(|s| s.wins.is_some());
    let (middle, align) = if head_to_head {
        ("wins | draws | losses", "---:|---:|---:")
    } else {
        ("min | max", "---:|---:")
    };
    let _ = writeln!(
        out,
        "| rank | bot | score | {middle} | games | timeouts | crashes | invalid |"
    );
    let _ = writeln!(out, "|---:|---|---:|{align}|---:|---:|---:|---:|");
    for s in &board.leaderboard {
        let middle: Vec<String> = if head_to_head {
            [s.wins, s.draws, s.losses]
                .iter()
                .map(|n| n.unwrap_or(0).to_string())
                .collect()
        } else {
            [s.min, s.max]
                .iter()
                .map(|n| n.map(|n| n.to_string()).unwrap_or_default())
                .collect()
        };
        let name = s.name.replace('|', "\\|");
        let score = if head_to_head {
            format!("{}", s.score)
        } else {
            format!("{:.3}", s.score)
        };
        let _ = writeln!(
            out,
            "| {} | {name} | {score} | {} | {} | {} | {} | {} |",
            s.rank,
            middle.join(" | "),
            s.games,
            s.timeouts,
            s.crashes,
            s.invalid_replies
        );
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

| rank | bot | score | wins | draws | losses | games | timeouts | crashes | invalid |
|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|
| 1 | alpha | 2 | 2 | 0 | 0 | 2 | 0 | 1 | 0 |
| 2 | b, the second | 0 | 0 | 0 | 2 | 2 | 0 | 1 | 0 |
";
        assert_eq!(render_markdown(&head_to_head()), expected);
    }

    #[test]
    fn mean_scored_tables_have_three_decimals_and_the_range() {
        let text = render_markdown(&mean_scored());
        assert!(
            text.contains("| 1 | a | 12.500 | 10 | 15 | 2 | 0 | 1 | 0 |"),
            "{text}"
        );
    }
}
