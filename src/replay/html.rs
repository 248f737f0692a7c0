//! The HTML viewer: one self-contained page (no network) that draws a replay on a canvas.
//! The page, its style and its script live next to this file and are embedded at build
//! time; the replay goes in as JSON.

use super::file::Replay;

const PAGE: &str = include_str!("viewer.html");
const STYLE: &str = include_str!("viewer.css");
const SCRIPT: &str = include_str!("viewer.js");

/// The viewer page for `replay`.
pub fn render_html(replay: &Replay) -> String {
    let title = format!(
        "{} game {} (seed {})",
        replay.header.game, replay.header.index, replay.header.seed
    );
    crate::html::fill_page(PAGE, &title, STYLE, SCRIPT, replay)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_games::snapshot::Legend;

    use crate::replay::{Frame, Message, ReplayHeader};

    #[test]
    fn the_page_embeds_everything_and_no_reply_can_close_the_data_block() {
        let replay = Replay {
            header: ReplayHeader {
                format_version: 1,
                game: "slime".into(),
                index: 0,
                seed: 1,
                bots: vec!["<b>".into()],
                width: 1,
                height: 1,
                legend: Legend::new([], 1, |seat| format!("seat {seat}")).into_glyphs(),
                message_cap: 512,
            },
            frames: vec![Frame {
                turn: 0,
                cells: Some("A".into()),
                scores: vec![1],
                events: Vec::new(),
                messages: vec![Message {
                    seat: 0,
                    request: "x".into(),
                    reply: Some("</script><script>alert(1)</script>".into()),
                    invalid: None,
                    failure: None,
                }],
            }],
            end: None,
        };
        let page = render_html(&replay);
        assert_eq!(
            page.matches("</script>").count(),
            2,
            "data and viewer blocks"
        );
        assert!(!page.contains("{{"), "a placeholder is left");
        assert!(!page.contains("http://") && !page.contains("https://"));
        assert!(page.contains("\\u003c/script>"));
    }
}
