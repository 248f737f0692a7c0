//! `arena check`'s probes for the Egg Hunt: one turn's request in each of a few prepared
//! views, rendered and judged by `protocol.rs` exactly as in a run. Every move is legal in
//! this game (a move into a wall is cancelled by the rules), so a reply is valid when its
//! direction and action lines, where present, are usable.

use crate::check::{Plan, Verdict};
use crate::engine::{Answer, Input};

use super::protocol;

/// The views (`#` wall, `o` egg, `*` a player, the centre being the bot, `X` outside the
/// board) and the memory line given back.
const VIEWS: &[(&str, [&[u8; 5]; 5], &str)] = &[
    (
        "early: the first turn, eggs in view, no memory yet",
        [b"     ", b" o   ", b"  *  ", b"   o ", b"#####"],
        "",
    ),
    (
        "crowded: players on every side",
        [b"  o  ", b" *** ", b" *** ", b" **  ", b"     "],
        "crowded",
    ),
    (
        "edge of board: in the top-left corner, outside the board beyond the wall",
        [b"XXXXX", b"X####", b"X#*  ", b"X# o ", b"X#   "],
        "corner",
    ),
    (
        "end-game: no egg in view, a long memory from the last turn",
        [b"     ", b" ### ", b"  *  ", b"     ", b"     "],
        "visited 3,4 5,6 7,8 9,10 11,12 13,14 15,16 17,18 19,20 21,22 23,24 25,26 27,28",
    ),
];

/// One probe per view in [`VIEWS`].
pub(crate) fn probes(_answers: &[Answer]) -> Plan {
    Plan::one_shot(VIEWS.iter().map(|&(name, rows, memory)| {
        let input = Input::Stdin(protocol::encode_request(&rows.map(|row| *row), memory));
        (name.into(), input, judge)
    }))
}

fn judge(reply: &[u8]) -> Verdict {
    let parsed = protocol::parse_reply(reply);
    if let Some(why) = parsed.invalid {
        return Verdict::Unparsed(why.into());
    }
    Verdict::Legal(format!(
        "{:?}, {:?}, memory of {} characters",
        parsed.mv.direction,
        parsed.mv.action,
        parsed.memory.chars().count()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_the_games_bytes_and_replies_are_judged_like_the_game() {
        let plan = probes(&[]);
        assert_eq!(plan.probes.len(), VIEWS.len());
        assert_eq!(
            plan.probes[2].input,
            Input::Stdin(b"XXXXX\nX####\nX#*  \nX# o \nX#   \ncorner\n".to_vec())
        );
        let judge = &plan.probes[0].judge;
        assert!(judge(b"4\nN\nmemory\n").is_valid());
        assert!(judge(b"").is_valid(), "missing lines take their defaults");
        assert!(matches!(judge(b"north\nN\n"), Verdict::Unparsed(_)));
        assert!(matches!(judge(b"4\nB\n"), Verdict::Unparsed(_)));
    }
}
