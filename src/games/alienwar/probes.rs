//! `arena check`'s probes for AlienWar, all on one persistent process as in a game: the
//! creation request of a one-bot tournament with the default options, then `MOVE` and
//! `FIGHT` requests about the instances it created, in prepared positions on a planet of the
//! size it was told. The positions are laid out on a [`Planet`] and rendered by the engine's
//! own code (views cut from the round's snapshot, wrapping at the edges; meetings found and
//! blurred by the planet), so the bytes are exactly a tournament's.

use crate::check::{Plan, Probe, Verdict};
use crate::engine::{Answer, Input, Phase};

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
pub(crate) fn probes(answers: &[Answer]) -> Plan {
    let options = AlienWarOptions::default();
    let count = options.instances as usize;
    let side = rules::board_side(1 + Prey::ALL.len(), count);
    let created = created(answers.first(), count);
    let mut probes = vec![Probe {
        name: "creation: CREATE for a one-bot game with the default options".into(),
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
            let view = planet.view(i);
            protocol::write_move_line(&mut lines, instance, view.radius, &view.cells);
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
                Move::West
            } else {
                Move::Stay
            }
        })
        .collect();
    planet.apply_moves(&moves);
    let wave = planet.next_wave();
    let (mut lines, asked) = fight_lines(2, planet.instances(), &wave);
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
    if unusable == 0 {
        let words: Vec<String> = answers.iter().flatten().map(show).collect();
        return Verdict::Legal(words.join(" "));
    }
    let given = reply
        .split(u8::is_ascii_whitespace)
        .filter(|word| !word.is_empty())
        .count();
    Verdict::Unparsed(match answers.iter().position(Option::is_none) {
        Some(index) if index < given => format!("word {} is not {what}", index + 1),
        Some(_) => format!("{given} words for {count} instances"),
        None => format!("{given} words for {count} instances (too many)"),
    })
}
