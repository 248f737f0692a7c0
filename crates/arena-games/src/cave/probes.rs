//! `arena check`'s probes for Cave Rangers: one turn's input in each of a few prepared caves,
//! rendered by `view.rs` and `protocol.rs` and judged by `protocol.rs` exactly as in a game.
//! Every well-formed reply is legal in this game (a blocked move simply fails), so a reply is
//! valid when it parses as two actions.

use crate::engine::{Answer, Input};
use crate::probe::{Plan, Verdict};
use crate::seeded;

use super::protocol::{direction_code, encode_input, parse_reply};
use super::rules::Action;
use super::view::window;
use super::world::{Creature, Ground, Item, Kind, Pos, Robot, World};

/// A cave of `side` with bare ground, Nina in the far corner and the probed bot at `bot`.
fn cave(side: usize, bot: Pos) -> World {
    World::bare(side, Pos::new(side - 1, side - 1), &[bot])
}

/// The prepared caves: a name and the cave with the probed bot in seat 0.
fn caves() -> Vec<(&'static str, World)> {
    let mut early = cave(40, Pos::new(20, 20));
    early.set_ground(Pos::new(19, 19), Ground::Item(Item::Gold));
    early.set_ground(Pos::new(21, 19), Ground::Boulder);
    let mut crowded = cave(40, Pos::new(20, 20));
    crowded.robots.push(Robot::new(Pos::new(21, 21)));
    crowded.creatures.extend([
        Creature {
            kind: Kind::Lion,
            pos: Pos::new(19, 20),
        },
        Creature {
            kind: Kind::Centipede,
            pos: Pos::new(20, 22),
        },
    ]);
    crowded.robots[0].poison = 2;
    let mut edge = cave(40, Pos::new(0, 3));
    edge.set_ground(Pos::new(0, 2), Ground::Boulder);
    edge.set_ground(Pos::new(1, 4), Ground::Pit);
    let mut late = cave(40, Pos::new(38, 20));
    late.robots[0].revealer = true;
    late.robots[0].knife = true;
    (late.robots[0].gold, late.robots[0].turns) = (7, 49);
    late.set_ground(Pos::new(35, 17), Ground::Item(Item::Gold));
    late.creatures.push(Creature {
        kind: Kind::Bats,
        pos: Pos::new(37, 24),
    });
    vec![
        (
            "early: the first turn, gold and a boulder next to the bot",
            early,
        ),
        (
            "crowded: a lion, a centipede and a bot around a poisoned bot",
            crowded,
        ),
        (
            "edge of board: on the West edge, a boulder North, a pit SE",
            edge,
        ),
        (
            "end-game: the last turn, with a revealer (noisy outer ring) and a knife",
            late,
        ),
    ]
}

/// One probe per cave in [`caves`]; the revealer's noise is drawn from a fixed seed.
pub(crate) fn probes(_answers: &[Answer]) -> Plan {
    let mut rng = seeded::rng(0);
    Plan::one_shot(caves().into_iter().map(|(name, world)| {
        let rows = window(&world, 0, 25, &mut rng);
        let input = Input::Stdin(encode_input(&world.robots[0], &rows));
        (name.into(), input, judge)
    }))
}

fn judge(reply: &[u8]) -> Verdict {
    match parse_reply(reply) {
        Ok(actions) => Verdict::Legal(
            actions
                .map(|action| match action {
                    Action::Move(dir) => format!("move {}", direction_code(dir)),
                    Action::Attack(dir) => format!("attack {}", direction_code(dir)),
                    Action::Hold => "hold".to_owned(),
                })
                .join(", "),
        ),
        Err(why) => Verdict::Unparsed(why.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_the_games_bytes_and_replies_are_judged_like_the_game() {
        let plan = probes(&[]);
        assert_eq!(plan.probes.len(), 4);
        assert_eq!(
            plan.probes[2].input,
            Input::Stdin(b"20,0,0,0,0,False,False\n---\n}--\nY--\n-P-\n---\n".to_vec())
        );
        let Input::Stdin(late) = &plan.probes[3].input else {
            panic!("stdin input");
        };
        assert!(late.starts_with(b"20,7,49,0,0,True,True\n"));
        assert_eq!(late.split(|&b| b == b'\n').nth(1).map(<[u8]>::len), Some(7));
        let judge = &plan.probes[0].judge;
        assert_eq!(
            judge(b"MNWASE\n"),
            Verdict::Legal("move NW, attack SE".into())
        );
        assert!(matches!(judge(b"MSNMSN\n"), Verdict::Unparsed(_)));
        assert!(matches!(judge(b""), Verdict::Unparsed(_)));
    }
}
