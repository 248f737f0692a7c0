//! The bytes of Cave Rangers (games/cave.md, "Protocol"): the input a bot reads on stdin and
//! the parsing of its reply. Syntax only; what an action does is `rules.rs`'s business.

use super::rules::Action;
use super::world::Robot;
use crate::compass::Compass;

/// The input: the status line `health,gold,turns,poison,pit,revealer,knife` with Python's
/// `True`/`False`, then the window's rows; every line ends in `\n`, the last row's too
/// (games/cave.md, "Input").
pub fn encode_input(robot: &Robot, rows: &[Vec<u8>]) -> Vec<u8> {
    let python = |flag: bool| if flag { "True" } else { "False" };
    let mut input = format!(
        "{},{},{},{},{},{},{}\n",
        robot.health,
        robot.gold,
        robot.turns,
        robot.poison,
        robot.pit,
        python(robot.revealer),
        python(robot.knife)
    )
    .into_bytes();
    for row in rows {
        input.extend_from_slice(row);
        input.push(b'\n');
    }
    input
}

/// The two-letter code of a direction in replies.
pub(crate) fn direction_code(direction: Compass) -> &'static str {
    match direction {
        Compass::N => "NN",
        Compass::NE => "NE",
        Compass::E => "EE",
        Compass::SE => "SE",
        Compass::S => "SS",
        Compass::SW => "SW",
        Compass::W => "WW",
        Compass::NW => "NW",
    }
}

/// The direction of a two-letter code, case-sensitive.
pub(crate) fn direction_of_code(code: &[u8]) -> Option<Compass> {
    Compass::ALL
        .into_iter()
        .find(|&direction| direction_code(direction).as_bytes() == code)
}

/// Parses a reply (games/cave.md, "Reply"): after trimming ASCII whitespace on both ends it
/// must be exactly two actions, each `M`, `A` or `H` followed by a direction code
/// (case-sensitive). Otherwise says why (the bot then holds twice).
pub fn parse_reply(bytes: &[u8]) -> Result<[Action; 2], &'static str> {
    let text = bytes.trim_ascii();
    if text.len() != 6 {
        return Err("not two actions of three characters such as `MNNANW`");
    }
    let action = |chunk: &[u8]| {
        let dir = direction_of_code(&chunk[1..])
            .ok_or("a direction is none of NN, NE, EE, SE, SS, SW, WW, NW")?;
        match chunk[0] {
            b'M' => Ok(Action::Move(dir)),
            b'A' => Ok(Action::Attack(dir)),
            b'H' => Ok(Action::Hold),
            _ => Err("an action is none of M, A, H"),
        }
    };
    Ok([action(&text[..3])?, action(&text[3..])?])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::world::Pos;

    #[test]
    fn the_status_line_spells_booleans_like_python_and_every_line_ends_in_a_newline() {
        let mut robot = Robot::new(Pos::new(0, 0));
        (robot.gold, robot.turns, robot.poison, robot.revealer) = (5, 10, 1, true);
        let rows = vec![b"---".to_vec(), b"Y--".to_vec()];
        assert_eq!(
            encode_input(&robot, &rows),
            b"20,5,10,1,0,True,False\n---\nY--\n".to_vec()
        );
    }

    #[test]
    fn replies_are_two_actions_after_trimming() {
        use Action::{Attack, Hold, Move};
        assert_eq!(
            parse_reply(b"MNNANW\n"),
            Ok([Move(Compass::N), Attack(Compass::NW)])
        );
        assert_eq!(parse_reply(b" \r\n\tHSEMWW"), Ok([Hold, Move(Compass::W)]));
        for bad in [
            &b""[..],
            b"MNN",
            b"MNNANWX",
            b"MSNMSN\n",
            b"mnnanw",
            b"MNN ANW",
            b"XNNANW",
            b"MNNAN",
            b"\xff\xfeMNNANW",
        ] {
            assert!(
                parse_reply(bad).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        assert_eq!(parse_reply(b"XNNANW"), Err("an action is none of M, A, H"));
    }
}
