//! `arena check`'s probes for AlienWar, all on one persistent process as in a game: the
//! creation request of a one-bot tournament with the options checked, then `MOVE` and
//! `FIGHT` requests about the instances it created, in prepared positions on a planet of the
//! size it was told. The positions are laid out on a [`Planet`] and rendered by the engine's
//! own code (views cut from the round's snapshot, wrapping at the edges; meetings found and
//! blurred by the planet), so the bytes are exactly a tournament's.

use crate::compass::Compass;
use crate::engine::{Answer, Input, Phase};
use crate::probe::{Plan, Probe, Verdict};

use super::game::{fight_lines, new_instance};
use super::options::AlienWarOptions;
use super::planet::{Instance, Planet};
use super::prey::Prey;
use super::protocol;
use super::rules::{self, Move};

/// A prepared position: its name, the picture's top-left cell on the planet, and the picture.
/// `0` to `5` are the bot's first created instances (its own ability points), `A` another
/// species' alien, `W C T E H` the prey, `.` nobody.
type Position = (&'static str, (usize, usize), &'static [&'static str]);

/// The `MOVE` positions before the fight, each about a subset of the previous one's
/// instances, as a species only loses instances.
const BEFORE_FIGHT: &[Position] = &[
    (
        "early: a MOVE batch of six instances, spread out",
        (10, 10),
        &[
            "..........",
            ".0.....W..",
            "....C.....",
            "..1....A..",
            ".......2..",
            "3...E.....",
            "......4...",
            ".H.....5..",
        ],
    ),
    (
        "crowded: a MOVE batch of five instances packed among aliens and prey",
        (20, 20),
        &["AWA.", "0A1C", "T2A3", "A4HA"],
    ),
    (
        "edge of the planet: views that wrap around (instance 0 on cell 0,0)",
        (37, 37),
        &["C..A", "...W", "A.0.", "..12", "3..T"],
    ),
];

/// The fight: a Cow steps west onto instance 0, instance 2 steps west onto instance 1, so
/// the bot is asked about both sides of one meeting and one side of another.
const FIGHT: Position = (
    "FIGHT questions: instance 0 meets a Cow, instances 1 and 2 meet each other",
    (5, 5),
    &["0C.12"],
);

/// The end: the species' last instance, wounded, next to an Eagle.
const END_GAME: Position = (
    "end-game: a MOVE batch of one, the species' last instance with 2 HP",
    (30, 5),
    &["...", ".0.", "..E"],
);

/// Points for the probes' instances when the bot created none.
const FALLBACK_POINTS: [f32; 5] = [2.0; 5];

/// The probes: `CREATE`, the `MOVE` batches of [`BEFORE_FIGHT`], the `FIGHT` questions of
/// [`FIGHT`], the `MOVE` batch of [`END_GAME`].
pub(crate) fn probes(options: &AlienWarOptions, answers: &[Answer]) -> Plan {
    let count = options.instances as usize;
    let side = rules::board_side(1 + Prey::ALL.len(), count);
    let created = created(answers.first(), count);
    let mut probes = vec![Probe {
        name: "creation: CREATE for a one-bot game".into(),
        input: Input::Session(protocol::encode_create(count, side)),
        phase: Phase::Setup,
        judge: Box::new(move |reply| judge_create(reply, count)),
    }];
    for &position in BEFORE_FIGHT {
        let mut planet = lay_out(position, side, &created, |_| {});
        probes.push(move_probe(position.0, &mut planet));
    }
    let mut planet = lay_out(FIGHT, side, &created, |_| {});
    probes.push(fight_probe(FIGHT.0, &mut planet));
    let mut planet = lay_out(END_GAME, side, &created, |instance| {
        if instance.species == 0 {
            instance.hp = 2;
        }
    });
    probes.push(move_probe(END_GAME.0, &mut planet));
    Plan {
        probes,
        farewell: protocol::FAREWELL,
    }
}

/// The bot's created instances (id and points) from its `CREATE` reply, or six with
/// [`FALLBACK_POINTS`] when it created none.
fn created(reply: Option<&Answer>, count: usize) -> Vec<(u32, [f32; 5])> {
    let accepted: Vec<(u32, [f32; 5])> = match reply {
        Some(Answer::Reply(reply)) => {
            let (points, _) = protocol::parse_words(reply, count, protocol::parse_points);
            (0..)
                .zip(points)
                .filter_map(|(id, points)| Some((id, points?)))
                .filter(|(_, points)| rules::valid_points(points))
                .collect()
        }
        Some(Answer::NoReply) | None => Vec::new(),
    };
    if accepted.is_empty() {
        (0..6).map(|id| (id, FALLBACK_POINTS)).collect()
    } else {
        accepted
    }
}

/// The planet of `position`: the bot is species 0, another alien species 1, then the prey.
/// Digits beyond the bot's created instances are left empty. `adjust` may change each
/// instance before the round begins.
fn lay_out(
    (_, (left, top), picture): Position,
    side: usize,
    created: &[(u32, [f32; 5])],
    adjust: impl Fn(&mut Instance),
) -> Planet {
    let mut instances = Vec::new();
    for (dy, row) in picture.iter().enumerate() {
        for (dx, cell) in row.bytes().enumerate() {
            let prey = Prey::ALL.into_iter().position(|p| p.symbol() == cell);
            let instance = match (cell, prey) {
                (b'0'..=b'9', _) => created
                    .get(usize::from(cell - b'0'))
                    .map(|&(id, points)| new_instance(0, id as usize, &points)),
                (b'A', _) => Some(new_instance(1, instances.len(), &FALLBACK_POINTS)),
                (_, Some(k)) => Some(new_instance(2 + k, instances.len(), &Prey::ALL[k].points())),
                _ => None,
            };
            if let Some(mut instance) = instance {
                (instance.x, instance.y) = ((left + dx) % side, (top + dy) % side);
                adjust(&mut instance);
                instances.push(instance);
            }
        }
    }
    let symbols = [b'A', b'A']
        .into_iter()
        .chain(Prey::ALL.map(Prey::symbol))
        .collect();
    let mut planet = Planet::placed(side, 2, symbols, instances, 1, true);
    planet.begin_round();
    planet
}

/// The `MOVE` request about the bot's instances on `planet`, in the round's order.
fn move_probe(name: &str, planet: &mut Planet) -> Probe {
    let mut lines = Vec::new();
    let mut count = 0;
    for (i, instance) in planet.instances().iter().enumerate() {
        if instance.species == 0 {
            protocol::write_move_line(&mut lines, instance, planet.view_rows(i));
            count += 1;
        }
    }
    let mut request = Vec::new();
    protocol::write_header(&mut request, "MOVE", count);
    request.extend_from_slice(&lines);
    Probe {
        name: name.into(),
        input: Input::Session(request),
        phase: Phase::Play,
        judge: Box::new(move |reply| {
            judge_words(reply, count, protocol::parse_move, "a move name", |m| {
                m.name().to_owned()
            })
        }),
    }
}

/// The `FIGHT` request of the first wave of meetings after [`FIGHT`]'s moves: the Cow and
/// instance 2 step west.
fn fight_probe(name: &str, planet: &mut Planet) -> Probe {
    let moves: Vec<Move> = planet
        .instances()
        .iter()
        .map(|instance| {
            let (x, y) = (FIGHT.1.0, FIGHT.1.1);
            let cell = FIGHT.2[instance.y - y].as_bytes()[instance.x - x];
            if matches!(cell, b'C' | b'2') {
                Move::Step(Compass::W)
            } else {
                Move::Stay
            }
        })
        .collect();
    planet.apply_moves(&moves);
    let wave = planet.next_wave();
    let mut lines = Vec::new();
    let asked = fight_lines(2, planet.instances(), &wave, &mut lines);
    let count = asked[0].len();
    let mut request = Vec::new();
    protocol::write_header(&mut request, "FIGHT", count);
    request.append(&mut lines[0]);
    Probe {
        name: name.into(),
        input: Input::Session(request),
        phase: Phase::Play,
        judge: Box::new(move |reply| {
            judge_words(reply, count, protocol::parse_fight, "Y or N", |&fight| {
                if fight { "Y" } else { "N" }.to_owned()
            })
        }),
    }
}

/// A `CREATE` reply: `count` allocations, each within the 10-point rule.
fn judge_create(reply: &[u8], count: usize) -> Verdict {
    let shown = |points: &[f32; 5]| format!("{points:?}");
    match judge_words(reply, count, protocol::parse_points, "five decimals", shown) {
        Verdict::Legal(_) => {
            let (points, _) = protocol::parse_words(reply, count, protocol::parse_points);
            let parsed = format!("{count} allocations");
            match (0..)
                .zip(points.into_iter().flatten())
                .find(|(_, points)| !rules::valid_points(points))
            {
                Some((id, points)) => Verdict::Illegal(
                    parsed,
                    format!(
                        "instance {id}'s points {points:?} are not each 0 to 10 with a sum \
                         of at most 10"
                    ),
                ),
                None => Verdict::Legal(parsed),
            }
        }
        other => other,
    }
}

/// A reply of one word per instance, each read by `parse` (`what` says what a word must
/// be); legal when every word is usable and none is surplus, its meaning the words read
/// back by `show`.
fn judge_words<T>(
    reply: &[u8],
    count: usize,
    parse: impl Fn(&[u8]) -> Option<T>,
    what: &str,
    show: impl Fn(&T) -> String,
) -> Verdict {
    let (answers, unusable) = protocol::parse_words(reply, count, &parse);
    if unusable.total() == 0 {
        let words: Vec<String> = answers.iter().flatten().map(show).collect();
        return Verdict::Legal(words.join(" "));
    }
    let given: Vec<&[u8]> = reply
        .split(u8::is_ascii_whitespace)
        .filter(|word| !word.is_empty())
        .collect();
    let words = given.len();
    Verdict::Unparsed(match answers.iter().position(Option::is_none) {
        Some(index) if given.get(index) == Some(&protocol::FAILED) => {
            format!("word {}: {}", index + 1, protocol::FAILED_MEANS)
        }
        Some(index) if index < words => format!("word {} is not {what}", index + 1),
        Some(_) => format!("{words} words for {count} instances"),
        None => format!("{words} words for {count} instances (too many)"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(plan: &Plan, index: usize, reply: &[u8]) -> Verdict {
        (plan.probes[index].judge)(reply)
    }

    fn request(plan: &Plan, index: usize) -> String {
        let Input::Session(bytes) = &plan.probes[index].input else {
            panic!("every AlienWar probe goes to the persistent process");
        };
        String::from_utf8(bytes.clone()).unwrap()
    }

    #[test]
    fn creation_is_a_default_games_and_replies_are_judged_like_the_game() {
        let plan = probes(&Default::default(), &[]);
        assert_eq!(request(&plan, 0), "CREATE 100 39\n");
        assert_eq!(plan.probes[0].phase, Phase::Setup);
        assert_eq!(plan.farewell, b"END\n");
        let good = vec!["4.5,5.5,0,0,0"; 100].join(" ");
        assert_eq!(
            judge(&plan, 0, good.as_bytes()),
            Verdict::Legal("100 allocations".into())
        );
        let over = format!("{} 6,5,0,0,0", vec!["1,1,1,1,1"; 99].join(" "));
        assert!(matches!(
            judge(&plan, 0, over.as_bytes()),
            Verdict::Illegal(_, why) if why.starts_with("instance 99's points")
        ));
        assert_eq!(
            judge(&plan, 0, b"1,1,1,1,1 banana"),
            Verdict::Unparsed("word 2 is not five decimals".into())
        );
        assert_eq!(
            judge(&plan, 0, b"1,1,1,1,1"),
            Verdict::Unparsed("1 words for 100 instances".into())
        );
        assert_eq!(
            judge(&plan, 0, b"1,1,1,1,1 !"),
            Verdict::Unparsed("word 2: `!`, the alien's code failed".into())
        );
    }

    #[test]
    fn the_instances_are_the_bots_own_and_each_batch_a_subset_of_the_last() {
        // Instance 1 is refused (over budget), so the probes use ids 0, 2, 3, ...
        let mut words = vec!["0,0,0,9.5,0"; 100];
        words[1] = "10,10,0,0,0";
        let plan = probes(
            &Default::default(),
            &[Answer::Reply(words.join(" ").into_bytes())],
        );
        assert_eq!(plan.probes.len(), 6);
        let ids = |index: usize| -> Vec<u32> {
            let mut ids: Vec<u32> = request(&plan, index)
                .lines()
                .skip(1)
                .map(|line| line.split(' ').next().unwrap().parse().unwrap())
                .collect();
            ids.sort_unstable();
            ids
        };
        assert_eq!(ids(1), [0, 2, 3, 4, 5, 6]);
        assert_eq!(ids(2), [0, 2, 3, 4, 5]);
        assert_eq!(ids(3), [0, 2, 3, 4]);
        assert_eq!(ids(4), [0, 2, 3]);
        assert_eq!(ids(5), [0]);
        // Vision 10.5 gives radius 5: views of 11 rows of 11 cells.
        let early = request(&plan, 1);
        let line = early.lines().nth(1).unwrap();
        assert!(line.contains(" 10 1 1 1 11 1 5 2 "), "{line}");
        assert_eq!(line.rsplit(' ').next().unwrap().split('/').count(), 11);
    }

    #[test]
    fn the_edge_view_wraps_around_the_planet() {
        let plan = probes(&Default::default(), &[]);
        let edge = request(&plan, 3);
        assert!(edge.starts_with("MOVE 4\n"), "{edge}");
        // Instance 0 on cell 0,0 (radius 2): rows 37, 38, 0, 1, 2 of columns 37, 38, 0, 1, 2,
        // so the Cow on cell 37,37 is its view's top-left corner.
        let line = edge.lines().find(|line| line.starts_with("0 ")).unwrap();
        assert!(
            line.ends_with(" 2 3 C..A./...W./A.A../..AA./A..T."),
            "{line}"
        );
        assert_eq!(
            judge(&plan, 3, b"NORTH SOUTH STAY WEST\n"),
            Verdict::Legal("NORTH SOUTH STAY WEST".into())
        );
        assert_eq!(
            judge(&plan, 3, b"NORTH SOUTH STAY WEST EAST"),
            Verdict::Unparsed("5 words for 4 instances (too many)".into())
        );
        assert_eq!(
            judge(&plan, 3, b"NORTH south STAY WEST"),
            Verdict::Unparsed("word 2 is not a move name".into())
        );
    }

    #[test]
    fn the_fight_asks_about_both_sides_of_a_meeting_and_one_of_another() {
        let plan = probes(&Default::default(), &[]);
        let fight = request(&plan, 4);
        assert!(fight.starts_with("FIGHT 3\n"), "{fight}");
        let ids: Vec<&str> = fight.lines().skip(1).map(|l| &l[..2]).collect();
        assert_eq!(ids.len(), 3);
        for id in ["0 ", "1 ", "2 "] {
            assert!(ids.contains(&id), "{fight}");
        }
        assert!(judge(&plan, 4, b"Y N Y").is_valid());
        assert!(matches!(judge(&plan, 4, b"Y N yes"), Verdict::Unparsed(_)));
        let end = request(&plan, 5);
        assert!(end.starts_with("MOVE 1\n0 2 "), "{end}");
    }
}
