//! `arena check`'s probes for Slime: one turn's argument in each of a few prepared boards,
//! rendered and judged by `protocol.rs` and `rules.rs` exactly as in a game (with the
//! options' parsing, strict by default).

use crate::engine::{Answer, Input};
use crate::probe::{Plan, Verdict};

use super::options::{Parsing, SlimeOptions};
use super::protocol;
use super::rules::Board;

/// The boards (8 by 8, `.` empty, `1` to `4` the players' cells) and the 0-based seat to move.
const BOARDS: &[(&str, [&str; 8], usize)] = &[
    (
        "early: the starting position, player 1 to move",
        [
            "1......2", "........", "........", "........", "........", "........", "........",
            "3......4",
        ],
        0,
    ),
    (
        "crowded: every player's cells mixed in the middle, player 3 to move",
        [
            "11....22", "111.2222", "1133.422", ".3314442", "33.1144.", "333.4444", "3.3..4.4",
            "33....44",
        ],
        2,
    ),
    (
        "edge of board: player 2 holds only the right-hand column",
        [
            "1111...2", "1111...2", "111....2", "11.....2", "333..44.", "333..444", "3333.444",
            "3333.444",
        ],
        1,
    ),
    (
        "walled in: player 1's two cells have no empty cell within reach; only a merge is legal",
        [
            "11222222", "22222222", "33333333", "3333....", "44444444", "44444444", "........",
            "........",
        ],
        0,
    ),
    (
        "end-game: two empty cells left, player 4 to move",
        [
            "11111222", "11111222", "11.11222", "33311222", "33334444", "3333444.", "33334444",
            "33334444",
        ],
        3,
    ),
];

/// One probe per board in [`BOARDS`].
pub(crate) fn probes(options: &SlimeOptions, _answers: &[Answer]) -> Plan {
    let parsing = options.parsing;
    Plan::one_shot(BOARDS.iter().map(move |&(name, rows, seat)| {
        let board = Board::from_rows(&rows);
        let input = Input::Args(vec![protocol::encode_request(&board, seat)]);
        (name.into(), input, move |reply: &[u8]| {
            judge(&board, seat, parsing, reply)
        })
    }))
}

fn judge(board: &Board, seat: usize, parsing: Parsing, reply: &[u8]) -> Verdict {
    let raw = match protocol::parse_reply(reply, parsing) {
        Ok(raw) => raw,
        Err(why) => return Verdict::Unparsed(why.reason().into()),
    };
    let [fr, fc, tr, tc] = raw.0;
    let parsed = format!("from ({fr}, {fc}) to ({tr}, {tc})");
    match board.validate(seat, raw) {
        Ok(mv) => Verdict::Legal(format!("{parsed}: {:?}", mv.kind)),
        Err(why) => Verdict::Illegal(parsed, why.reason().into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_the_games_argument_and_replies_are_judged_like_the_game() {
        let plan = probes(&Default::default(), &[]);
        assert_eq!(plan.probes.len(), BOARDS.len());
        assert_eq!(
            plan.probes[0].input,
            Input::Args(vec![
                "1,1......2,........,........,........,........,........,........,3......4".into()
            ])
        );
        let early = &plan.probes[0].judge;
        assert!(early(b"0 0 1 1\n").is_valid());
        assert!(matches!(early(b"0 0 1 1"), Verdict::Unparsed(_)), "strict");
        let lenient = SlimeOptions {
            parsing: Parsing::Lenient,
            ..SlimeOptions::default()
        };
        let plan_lenient = probes(&lenient, &[]);
        assert!(
            (plan_lenient.probes[0].judge)(b"0 0 1 1").is_valid(),
            "lenient"
        );
        assert!(matches!(early(b"0 7 1 6\n"), Verdict::Illegal(..)));
        // Walled in, a bot that knows only spreads and jumps passes: a mistake, since the
        // merge is legal.
        let walled = &plan.probes[3].judge;
        assert!(walled(b"0 0 0 1\n").is_valid());
        assert!(matches!(walled(b""), Verdict::Unparsed(_)));
        assert!(
            matches!(walled(b"0 1 3 4\n"), Verdict::Illegal(..)),
            "too far"
        );
        // The end-game's empty cells are (2, 2) and (5, 7).
        let end = &plan.probes[4].judge;
        assert!(end(b"4 7 5 7\n").is_valid());
        assert!(end(b"4 4 2 2\n").is_valid());
        assert!(matches!(end(b"4 7 2 2\n"), Verdict::Illegal(..)), "too far");
    }
}
