//! The leaderboard as CSV (RFC 4180): one row per bot, a fixed column order, empty cells for
//! figures the game does not have (wins in a mean-scored game, min/max in a head-to-head one).
//! A game with extra columns (Cave Rangers: gold, turns, deaths) adds them after the fixed
//! ones, under their names. Bot names are the only text: they are neutralised against
//! formula injection and quoted ([`text_field`]).

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
            text_field(&s.name),
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

/// A text field, safe for a spreadsheet. One starting with `=`, `+`, `-`, `@`, tab or CR,
/// which a spreadsheet would evaluate as a formula (a bot named `=HYPERLINK(...)`), gets a
/// leading `'`, as OWASP recommends against CSV injection; then a field holding a comma, a
/// semicolon (the separator of spreadsheets in many locales, where it would start a new
/// cell), a quote or a line break is quoted, its quotes doubled (RFC 4180). Only text
/// fields go through this: number fields (a negative Elo) must stay numbers.
fn text_field(field: &str) -> String {
    let field = if field.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{field}")
    } else {
        field.to_owned()
    };
    if field.contains([',', ';', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field
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
    fn names_are_never_formulas_and_numbers_stay_numbers() {
        let cases = [
            (
                "=HYPERLINK(\"http://x\")",
                "\"'=HYPERLINK(\"\"http://x\"\")\"",
            ),
            ("+1", "'+1"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("\rx", "\"'\rx\""),
            ("a;=1+1", "\"a;=1+1\""),
            ("two\nlines", "\"two\nlines\""),
            ("a-b=c", "a-b=c"),
        ];
        for (name, field) in cases {
            let mut board = head_to_head();
            board.leaderboard[0].name = name.into();
            let text = render_csv(&board);
            let row = text.split_once("\n1,").expect("the first row").1;
            assert!(row.starts_with(&format!("{field},2,")), "{name:?}: {row}");
            assert!(text.contains(",-120.5,-320.5,79.5,"), "{text}");
        }
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
