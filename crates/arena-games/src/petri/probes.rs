//! `arena check`'s probes for Petri: the setup request, then one cell request in each of a
//! few prepared positions, framed the way the bot's setup reply asked (one-shot, or `LOOP`
//! on a persistent process after its `BEGIN` line). Bytes and verdicts come from
//! `protocol.rs` and `rules.rs`, exactly as in a game.

use crate::engine::{Answer, Input, Phase};
use crate::probe::{Plan, Probe, Verdict};

use super::options::PetriOptions;
use super::protocol;
use super::rules::{Dish, Framing, Next, RawSpecies, Species};

/// The positions, drawn with `o` for the bot's cells, `x` for the enemy's and `c` for
/// corpses (10 by 4, the default dish), with the acting cell's HP and energy. The acting cell
/// is the bot's first in reading order.
const POSITIONS: &[(&str, [&str; 4], i32, u32)] = &[
    (
        "early: the first cell, full HP and energy",
        ["..........", ".o........", "..........", "........x."],
        0,
        0,
    ),
    (
        "crowded: hemmed in by enemies, a corpse the only open square",
        ["xxx.......", "cox.......", "xxo.......", ".......oox"],
        0,
        0,
    ),
    (
        "edge of board: in the top-left corner with 1 energy",
        ["o.........", "..........", "......xx..", ".........x"],
        0,
        1,
    ),
    (
        "end-game: the last cell, 1 HP, enemies all around",
        ["xx.c......", "xo.c..xx..", "xxc...xx..", "......x..x"],
        1,
        2,
    ),
];

/// The probes: the setup request, the session's `BEGIN` line for a `LOOP` bot, and a cell
/// request in each of [`POSITIONS`] (HP and energy 0 mean full).
pub(crate) fn probes(options: &PetriOptions, answers: &[Answer]) -> Plan {
    let setup = answers.first().and_then(|answer| match answer {
        Answer::Reply(reply) => protocol::parse_species(reply).ok(),
        Answer::NoReply => None,
    });
    let framing = setup.map_or(Framing::OneShot, |raw| raw.framing);
    // The bot's own species where it chose a playable one, so the stats line is its own.
    let species = setup
        .and_then(|raw| Species::from_raw(&raw).ok())
        .unwrap_or_else(|| {
            Species::from_raw(&RawSpecies {
                hp: 4,
                energy: 4,
                acidity: 4,
                framing,
            })
            .expect("4 4 4 is a species")
        });
    let mut probes = vec![Probe {
        name: "setup".into(),
        input: Input::Stdin(protocol::SETUP_REQUEST.to_vec()),
        phase: Phase::Setup,
        judge: Box::new(judge_species),
    }];
    if framing == Framing::Loop {
        probes.push(Probe {
            name: "session start (LOOP): the reply line is read and ignored".into(),
            input: Input::Session(protocol::SESSION_START.to_vec()),
            phase: Phase::Setup,
            judge: Box::new(|_| Verdict::Legal("a line (ignored)".into())),
        });
    }
    for &(name, picture, hp, energy) in POSITIONS {
        let mut dish = Dish::from_picture(&picture, options.turns, options.rules, [species; 2]);
        let Next::Act(actor) = dish.next() else {
            unreachable!("every probe position has cells of both sides")
        };
        if hp > 0 || energy > 0 {
            let cell = dish.cell(actor);
            let (full_hp, full_energy) = (cell.hp(), cell.energy());
            dish.set(
                actor,
                if hp > 0 { hp } else { full_hp },
                if energy > 0 { energy } else { full_energy },
            );
        }
        let request = protocol::encode_request(&dish, actor, framing);
        probes.push(Probe {
            name: name.into(),
            input: match framing {
                Framing::OneShot => Input::Stdin(request),
                Framing::Loop => Input::Session(request),
            },
            phase: Phase::Play,
            judge: Box::new(move |reply| judge_action(&dish, reply)),
        });
    }
    Plan {
        probes,
        farewell: protocol::SESSION_END,
    }
}

fn judge_species(reply: &[u8]) -> Verdict {
    let Ok(raw) = protocol::parse_species(reply) else {
        return Verdict::Unparsed("the first three words are not all integers".into());
    };
    let loop_mode = match raw.framing {
        Framing::Loop => ", persistent (LOOP)",
        Framing::OneShot => ", one process per request",
    };
    let parsed = format!(
        "HP {}, energy {}, acidity {}{loop_mode}",
        raw.hp, raw.energy, raw.acidity
    );
    match Species::from_raw(&raw) {
        Ok(_) => Verdict::Legal(parsed),
        Err(why) => Verdict::Illegal(parsed, format!("the species {why}")),
    }
}

fn judge_action(dish: &Dish, reply: &[u8]) -> Verdict {
    let raw = match protocol::parse_action(reply) {
        Ok(raw) => raw,
        Err(why) => return Verdict::Unparsed(why.reason().into()),
    };
    let parsed = format!("{raw:?}");
    match dish.validate(raw) {
        Ok(_) => Verdict::Legal(parsed),
        Err(why) => Verdict::Illegal(parsed, why.reason().into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(plan: &Plan, index: usize, reply: &[u8]) -> Verdict {
        (plan.probes[index].judge)(reply)
    }

    #[test]
    fn one_shot_bots_get_unterminated_requests_and_legal_moves_pass() {
        let plan = probes(&Default::default(), &[Answer::Reply(b"3 6 3".to_vec())]);
        assert_eq!(plan.probes.len(), 1 + POSITIONS.len());
        assert_eq!(
            plan.probes[1].input,
            Input::Stdin(
                b"10 4\n..........\n.o........\n..........\n........x.\n\n1 1 3 6".to_vec()
            )
        );
        assert!(judge(&plan, 1, b"DIVIDE SE").is_valid());
        assert_eq!(
            judge(&plan, 1, b"MOVE UP"),
            Verdict::Unparsed("the direction is none of N, NE, E, SE, S, SW, W, NW".into())
        );
        // Crowded: an enemy to the north, the corpse to the west can be eaten.
        assert!(matches!(judge(&plan, 2, b"MOVE N"), Verdict::Illegal(..)));
        assert!(judge(&plan, 2, b"EAT W").is_valid());
        // Edge: north is off the dish; one energy is too little to divide.
        assert!(matches!(judge(&plan, 3, b"MOVE N"), Verdict::Illegal(..)));
        assert!(matches!(
            judge(&plan, 3, b"DIVIDE SE"),
            Verdict::Illegal(..)
        ));
        assert!(judge(&plan, 3, b"MOVE SE").is_valid());
        assert!(judge(&plan, 4, b"REST").is_valid());
    }

    #[test]
    fn loop_bots_get_a_session_start_and_terminated_requests() {
        let plan = probes(
            &Default::default(),
            &[Answer::Reply(b"6 3 3 LOOP\n".to_vec())],
        );
        assert_eq!(plan.probes.len(), 2 + POSITIONS.len());
        assert_eq!(plan.probes[1].input, Input::Session(b"BEGIN\n".to_vec()));
        let Input::Session(request) = &plan.probes[2].input else {
            panic!("cell requests go to the session");
        };
        assert!(request.ends_with(b"\n\n1 1 6 3\n"), "{request:?}");
        assert_eq!(plan.farewell, b"END\n");
    }

    #[test]
    fn setup_replies_are_judged_like_the_game() {
        let plan = probes(&Default::default(), &[]);
        assert!(judge(&plan, 0, b"4 4 4\n").is_valid());
        assert!(matches!(judge(&plan, 0, b"4 4 5"), Verdict::Illegal(..)));
        assert!(matches!(judge(&plan, 0, b"hello"), Verdict::Unparsed(_)));
    }
}
