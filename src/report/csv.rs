//! The leaderboard as CSV (RFC 4180): one row per bot, a fixed column order, empty cells for
//! figures the game does not have (wins in a mean-scored game, min/max in a head-to-head one).
//! A game with extra columns (Cave Rangers: gold, turns, deaths) adds them after the fixed
//! ones, under their names.

use super::leaderboard::Leaderboard;
use crate::ratings::Rating;

/// The fixed columns, in order; they never change meaning.
const COLUMNS: &str = "rank,name,score,games,wins,draws,losses,min,max,requests,timeouts,crashes,\
invalid_replies,elo,elo_low,elo_high,score_low,score_high,trueskill_mu,trueskill_sigma";

/// Renders `board` as CSV with a header row and CRLF-free `\n` line ends.
pub fn render_csv(board: &Leaderboard) -> String {
    let mut out = String::from(COLUMNS);
    for column in &board.stat_columns {
        out.push(',');
        out.push_str(column.name);
    }
    out.push('\n');
    let optional = |value: Option<i64>| value.map(|v| v.to_string()).unwrap_or_default();
    let figures = |values: &[f64]| values.iter().map(f64::to_string).collect::<Vec<_>>();
    for s in &board.leaderboard {
        let cells = [
            s.rank.to_string(),
            quoted(&s.name),
            s.score.to_string(),
            s.games.to_string(),
            optional(s.wins.map(i64::from)),
            optional(s.draws.map(i64::from)),
            optional(s.losses.map(i64::from)),
            optional(s.min),
            optional(s.max),
            s.requests.to_string(),
            s.timeouts.to_string(),
            s.crashes.to_string(),
            s.invalid_replies.to_string(),
        ];
        let (elo, skill) = match &s.rating {
            Some(Rating::Elo(r)) => (figures(&[r.elo, r.elo_low, r.elo_high]), Vec::new()),
            Some(Rating::Skill(r)) => (
                Vec::new(),
                figures(&[r.score_low, r.score_high, r.trueskill_mu, r.trueskill_sigma]),
            ),
            None => (Vec::new(), Vec::new()),
        };
        let padded = |mut cells: Vec<String>, width: usize| {
            cells.resize(width, String::new());
            cells
        };
        let cells: Vec<String> = cells
            .into_iter()
            .chain(padded(elo, 3))
            .chain(padded(skill, 4))
            .collect();
        let extra = board
            .stat_columns
            .iter()
            .map(|column| s.stats.get(column.name).copied().unwrap_or(0.0).to_string());
        let cells: Vec<String> = cells.into_iter().chain(extra).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

/// Quotes a field when it holds a comma, a quote or a line break.
fn quoted(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::{head_to_head, mean_scored};

    #[test]
    fn head_to_head_rows_have_results_and_quote_names() {
        let expected = "\
rank,name,score,games,wins,draws,losses,min,max,requests,timeouts,crashes,invalid_replies,elo,elo_low,elo_high,score_low,score_high,trueskill_mu,trueskill_sigma
1,alpha,2,2,2,0,0,,,9,0,1,0,120.5,-79.5,320.5,,,,
2,\"b, the second\",0,2,0,0,2,,,9,0,1,0,-120.5,-320.5,79.5,,,,
";
        assert_eq!(render_csv(&head_to_head()), expected);
    }

    #[test]
    fn mean_scored_rows_have_the_range() {
        let text = render_csv(&mean_scored());
        assert_eq!(
            text.lines().nth(1),
            Some("1,a,12.5,2,,,,10,15,9,0,1,0,,,,10,15,27.125,6.5")
        );
    }
}
