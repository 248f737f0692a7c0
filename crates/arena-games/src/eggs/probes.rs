//! `arena check`'s probes for the Egg Hunt: one turn's request in each of a few prepared
//! views, rendered and judged by `protocol.rs` exactly as in a run. Every move is legal in
//! this game (a move into a wall is cancelled by the rules), so a reply is valid when its
//! direction and action lines, where present, are usable. The memory line given back is the
//! one the bot wrote in its reply to the probe before, as in a run (empty in the first), so
//! a bot that decodes its memory is never sent one it could not have written.

use crate::engine::{Answer, Input};
use crate::probe::{Plan, Verdict};

use super::protocol;

/// The views (`#` wall, `o` egg, `*` a player, the centre being the bot, `X` outside the
/// board).
const VIEWS: &[(&str, [&[u8; 5]; 5])] = &[
    (
        "early: the first turn, eggs in view, no memory yet",
        [b"     ", b" o   ", b"  *  ", b"   o ", b"#####"],
    ),
    (
        "crowded: players on every side",
        [b"  o  ", b" *** ", b" *** ", b" **  ", b"     "],
    ),
    (
        "edge of board: in the top-left corner, outside the board beyond the wall",
        [b"XXXXX", b"X####", b"X#*  ", b"X# o ", b"X#   "],
    ),
    (
        "end-game: no egg in view",
        [b"     ", b" ### ", b"  *  ", b"     ", b"     "],
    ),
];

/// One probe per view in [`VIEWS`], each with the memory of the bot's answer to the one
/// before (a probe not yet reached gets an empty one; it is built again when it is).
pub(crate) fn probes(answers: &[Answer]) -> Plan {
    Plan::one_shot(VIEWS.iter().enumerate().map(|(index, &(name, rows))| {
        let memory = match index.checked_sub(1).and_then(|before| answers.get(before)) {
            Some(Answer::Reply(reply)) => protocol::parse_reply(reply).memory,
            // No reply loses the memory, as in a run.
            Some(Answer::NoReply) | None => String::new(),
        };
        let input = Input::Stdin(protocol::encode_request(&rows.map(|row| *row), &memory));
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
        let replies = [
            Answer::Reply(b"4\nN\nseen 2,3\n".to_vec()),
            Answer::Reply(b"6\nA\nseen 2,3;4,4\r\n".to_vec()),
        ];
        let plan = probes(&replies);
        assert_eq!(
            plan.probes[2].input,
            Input::Stdin(b"XXXXX\nX####\nX#*  \nX# o \nX#   \nseen 2,3;4,4\n".to_vec()),
            "the memory the bot wrote last"
        );
        let Input::Stdin(first) = &plan.probes[0].input else {
            panic!("stdin input");
        };
        assert!(first.ends_with(b"#####\n\n"), "no memory in the first turn");
        let judge = &plan.probes[0].judge;
        assert!(judge(b"4\nN\nmemory\n").is_valid());
        assert!(judge(b"").is_valid(), "missing lines take their defaults");
        assert!(matches!(judge(b"north\nN\n"), Verdict::Unparsed(_)));
        assert!(matches!(judge(b"4\nB\n"), Verdict::Unparsed(_)));
    }
}
