//! The leaderboard as one JSON document (stable field order, the struct's).

use super::leaderboard::Leaderboard;

/// Renders `board` as pretty-printed JSON with a final newline.
pub fn render_json(board: &Leaderboard) -> String {
    let mut text = serde_json::to_string_pretty(board).expect("leaderboards always serialize");
    text.push('\n');
    text
}
