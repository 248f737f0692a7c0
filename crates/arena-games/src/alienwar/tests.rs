//! Engine-level tests: every formula and quirk of the original controller (rounding, dodge
//! cap, blur, rewards, the double reward on a dead resident, removal timing, the
//! snapshot), the prey, the byte-exact protocol vectors in `games/alienwar/`, and whole
//! games with scripted and garbage-answering bots.

use crate::compass::Compass;
use crate::engine::testing::{play, vector_records as records};
use crate::engine::{Answer, Game, Input, Outcome, Phase, Query, Step};
use crate::seeded::Draws;
use crate::seeded::rng;

use super::game::AlienWar;
use super::options::AlienWarOptions;
use super::planet::{Instance, Planet};
use super::prey::Prey;
use super::protocol::{self, parse_fight, parse_move, parse_points, parse_words};
use super::rules::{self, Levels, Move, View, round_half_up};

const PROTOCOL: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../games/alienwar/protocol.txt"
));

fn instance(species: usize, id: u32, levels: [f32; 5], hp: i32, x: usize, y: usize) -> Instance {
    Instance {
        species,
        id,
        levels: Levels::new(levels),
        hp,
        x,
        y,
    }
}

/// A planet of side `side` with one bot species (0) and prey species 1 (Whale), holding
/// `instances` at their given cells, in this order for the round that begins.
fn planet_with(side: usize, instances: Vec<Instance>, dead_resident_reward: bool) -> Planet {
    let mut planet = Planet::new(side, 1, b"AW".to_vec(), Vec::new(), 5, dead_resident_reward);
    *planet.instances_mut() = instances;
    planet
}

// ---------------------------------------------------------------------------------------
// Formulas

#[test]
fn levels_round_half_up_like_java() {
    let cases = [
        (1.5, 2),
        (2.5, 3),
        (4.5, 5),
        (0.5, 1),
        (2.4999, 2),
        (-1.5, -1),
        (6.5, 7),
    ];
    for (x, rounded) in cases {
        assert_eq!(round_half_up(x), rounded, "{x}");
    }
    // The hand-made floor agrees with `f64::floor` on edges and on a spread of bit patterns.
    let edges = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        f32::MIN,
        -0.0,
        -0.5,
        -0.49,
        2_147_483_500.0,
        -2_147_483_500.0,
        -2_147_483_648.0,
    ];
    let spread = (0..=u32::MAX).step_by(65_537).map(f32::from_bits);
    for x in edges.into_iter().chain(spread) {
        let by_floor = (f64::from(x) + 0.5).floor() as i32;
        assert_eq!(round_half_up(x), by_floor, "{x:e}");
    }
    let levels = Levels::from_points(&[4.5, 5.5, 0.0, 0.0, 0.0]);
    assert_eq!(levels.rounded(), [6, 7, 1, 1, 1]);
    // The score rounds the float sum, so the rounding trick does not inflate it.
    assert_eq!(levels.score(), 15);
}

#[test]
fn allocations_need_values_in_range_and_an_f32_sum_of_at_most_ten() {
    assert!(rules::valid_points(&[4.5, 5.5, 0.0, 0.0, 0.0]));
    assert!(rules::valid_points(&[2.0; 5]));
    assert!(rules::valid_points(&[0.0; 5]));
    assert!(!rules::valid_points(&[10.0, 0.5, 0.0, 0.0, 0.0]));
    assert!(!rules::valid_points(&[-1.0, 5.0, 0.0, 0.0, 0.0]));
    assert!(!rules::valid_points(&[11.0, -1.0, 0.0, 0.0, 0.0]));
    assert!(!rules::valid_points(&[f32::NAN, 0.0, 0.0, 0.0, 0.0]));
    assert!(!rules::valid_points(&[2.0, 2.0, 2.0, 2.0, 2.000_001]));
}

#[test]
fn hit_points_come_from_the_rounded_life_points() {
    assert_eq!(rules::starting_hp(&[0.0; 5]), 10);
    assert_eq!(rules::starting_hp(&[4.5, 5.5, 0.0, 0.0, 0.0]), 35);
    assert_eq!(rules::starting_hp(&[3.5, 6.5, 0.0, 0.0, 0.0]), 30);
    assert_eq!(rules::starting_hp(&[10.0, 0.0, 0.0, 0.0, 0.0]), 60);
}

#[test]
fn the_board_side_follows_the_species_count() {
    let sides: Vec<usize> = [48, 18, 10, 6].map(|n| rules::board_side(n, 100)).to_vec();
    assert_eq!(sides, [110, 68, 50, 39]);
}

#[test]
fn vision_radius_and_blur_come_from_the_floats() {
    let radius = |vision: f32| Levels::new([1.0, 1.0, 1.0, vision, 1.0]).vision_radius();
    assert_eq!([1.0, 2.0, 3.0, 11.0, 2.9].map(radius), [1, 1, 2, 6, 1]);
    // 2.9 shows as vision level 3 but sees only radius 1.
    assert_eq!(
        Levels::new([1.0, 1.0, 1.0, 2.9, 1.0]).level(rules::VISION),
        3
    );
    let blur = |clev: f32| Levels::new([1.0, 1.0, 1.0, 1.0, clev]).blur();
    assert_eq!([1.0, 2.0, 3.0, 11.0].map(blur), [2, 2, 3, 7]);
}

#[test]
fn request_lines_show_large_levels_as_well_as_small_ones() {
    // Small levels' text is kept with the levels; levels in the thousands are too long to
    // keep and are rendered where they are written. Both must read the same.
    for (floats, shown) in [
        ([2.5, 1.0, 3.4, 2.9, 11.0], "3 1 3 3 11 1 7"),
        (
            [2500.0, 1000.4, 3.5, 9999.0, 12345.0],
            "2500 1000 4 9999 12345 5000 6174",
        ),
    ] {
        let one = instance(0, 42, floats, 317, 0, 0);
        let mut line = Vec::new();
        protocol::write_fight_line(&mut line, &one, [1, 2, 3, 4]);
        assert_eq!(
            String::from_utf8(line).unwrap(),
            format!("42 317 {shown} 1 2 3 4\n")
        );
    }
    assert!(Levels::new([1.0; 5]).shown_text().is_some());
    assert!(
        Levels::new([2500.0, 1000.4, 3.5, 9999.0, 12345.0])
            .shown_text()
            .is_none()
    );
}

#[test]
fn dodging_is_one_in_fifty_over_defense_plus_one_capped_at_a_half() {
    let ranges = [1, 2, 5, 6, 11, 17, 25, 26, 50, 51, 1000].map(rules::dodge_range);
    assert_eq!(ranges, [51, 26, 11, 9, 5, 3, 3, 2, 2, 2, 2]);
    let mut rng = rng(3);
    let dodged = (0..20_000).filter(|_| rules::dodges(&mut rng, 200)).count();
    assert!(
        (9_500..10_500).contains(&dodged),
        "{dodged} of 20000 at the cap"
    );
}

#[test]
fn damage_is_uniform_from_one_to_the_strength_level() {
    let mut rng = rng(4);
    let mut seen = [0; 8];
    for _ in 0..7_000 {
        let hit = rules::damage(&mut rng, 7);
        seen[hit as usize] += 1;
    }
    assert_eq!(seen[0], 0);
    assert!(seen[1..].iter().all(|&n| n > 800), "{seen:?}");
}

#[test]
fn blur_adds_zero_to_half_the_cleverness_to_each_shown_level() {
    let mut rng = rng(5);
    let plain = Levels::new([2.0, 3.0, 4.0, 5.0, 1.0]);
    let human = Levels::new([1.0, 1.0, 1.0, 1.0, 11.0]);
    let (mut plain_seen, mut human_seen) = ([false; 2], [false; 7]);
    for _ in 0..2_000 {
        let shown = rules::blurred(&mut rng, &plain);
        for (k, value) in shown.into_iter().enumerate() {
            let extra = value - [2, 3, 4, 5][k];
            plain_seen[extra as usize] = true;
        }
        for value in rules::blurred(&mut rng, &human) {
            human_seen[(value - 1) as usize] = true;
        }
    }
    assert_eq!(plain_seen, [true; 2], "even without cleverness: +0 or +1");
    assert_eq!(human_seen, [true; 7], "the Human: +0 to +6");
}

#[test]
fn a_reward_adds_a_fifth_of_each_rounded_level_and_twice_the_life_level_as_hp() {
    let mut planet = planet_with(
        5,
        vec![
            instance(0, 0, [1.0, 20.0, 1.0, 1.0, 1.0], 1_000, 1, 1),
            instance(0, 1, [5.5, 2.4, 1.0, 3.0, 11.0], 1, 2, 1),
        ],
        true,
    );
    planet.apply_moves(&[Move::Stay, Move::Step(Compass::W)]);
    let wave = planet.next_wave();
    assert_eq!(wave.len(), 1);
    planet.settle(&wave[0], false, true);
    let [winner, loser] = [&planet.instances()[0], &planet.instances()[1]];
    assert!(loser.is_dead());
    // Rounded loser levels 6, 2, 1, 3, 11 → +1.2, +0.4, +0.2, +0.6, +2.2 (as f32).
    let expected = [
        1.0 + 6.0 / 5.0,
        20.0 + 2.0 / 5.0,
        1.0 + 0.2,
        1.0 + 3.0 / 5.0,
        1.0 + 11.0 / 5.0,
    ];
    assert_eq!(winner.levels.floats(), expected);
    // Hit at most once per exchange by strength 2; + 2 * 6 HP for the kill.
    assert!(
        winner.hp > 1_000 - 2 * 51 + 12 && winner.hp <= 1_012,
        "{}",
        winner.hp
    );
    assert_eq!(planet.tally().fights, 1);
}

// ---------------------------------------------------------------------------------------
// The round

#[test]
fn peace_needs_both_to_say_no_and_one_yes_is_a_fight() {
    for (newcomer, resident, fights) in [(false, false, 0), (true, false, 1), (false, true, 1)] {
        let mut planet = planet_with(
            5,
            vec![
                instance(0, 0, [1.0, 1.0, 1.0, 1.0, 1.0], 500, 1, 1),
                instance(0, 1, [1.0, 1.0, 1.0, 1.0, 1.0], 500, 1, 2),
            ],
            true,
        );
        planet.apply_moves(&[Move::Stay, Move::Step(Compass::N)]);
        let wave = planet.next_wave();
        planet.settle(&wave[0], newcomer, resident);
        assert_eq!(planet.tally().fights, fights);
        let someone_dead = planet.instances().iter().any(Instance::is_dead);
        assert_eq!(someone_dead, fights == 1);
    }
}

#[test]
fn both_can_die_in_one_exchange_and_then_nobody_is_rewarded() {
    let mut both_died = 0;
    for seed in 0..40 {
        let mut planet = Planet::new(5, 1, b"AW".to_vec(), Vec::new(), seed, true);
        *planet.instances_mut() = vec![
            instance(0, 0, [1.0, 1.0, 1.0, 1.0, 1.0], 1, 1, 1),
            instance(0, 1, [1.0, 1.0, 1.0, 1.0, 1.0], 1, 1, 2),
        ];
        planet.apply_moves(&[Move::Stay, Move::Step(Compass::N)]);
        let wave = planet.next_wave();
        planet.settle(&wave[0], true, true);
        let [a, b] = [&planet.instances()[0], &planet.instances()[1]];
        if a.is_dead() && b.is_dead() {
            both_died += 1;
            assert_eq!(a.levels.floats(), [1.0; 5]);
            assert_eq!(b.levels.floats(), [1.0; 5]);
        } else {
            // Otherwise exactly one died and the other gained 1/5 of each level.
            let winner = if a.is_dead() { b } else { a };
            assert_eq!(winner.levels.floats(), [1.2; 5]);
        }
    }
    assert!(
        both_died > 30,
        "both die in most exchanges at 1 HP: {both_died}"
    );
}

/// Resident 0 (weak) on a cell, newcomer 1 kills it, then newcomer 2 arrives.
fn dead_resident_cell(dead_resident_reward: bool) -> Planet {
    let mut planet = planet_with(
        6,
        vec![
            instance(0, 0, [1.0, 1.0, 1.0, 1.0, 1.0], 1, 2, 2),
            instance(0, 1, [1.0, 30.0, 1.0, 1.0, 1.0], 1_000, 2, 3),
            instance(0, 2, [1.0, 1.0, 1.0, 1.0, 1.0], 50, 3, 2),
        ],
        dead_resident_reward,
    );
    planet.apply_moves(&[Move::Stay, Move::Step(Compass::N), Move::Step(Compass::W)]);
    let first = planet.next_wave();
    assert_eq!((first[0].newcomer, first[0].resident), (1, 0));
    planet.settle(&first[0], true, false);
    assert!(planet.instances()[0].is_dead());
    planet
}

#[test]
fn a_dead_resident_still_meets_later_arrivals_and_pays_its_reward_again() {
    let mut planet = dead_resident_cell(true);
    let second = planet.next_wave();
    assert_eq!(second.len(), 1);
    assert_eq!((second[0].newcomer, second[0].resident), (2, 0));
    planet.settle(&second[0], true, false);
    let lucky = &planet.instances()[2];
    // No blow was struck (the resident is already dead), yet the reward is paid.
    assert_eq!(lucky.levels.floats(), [1.2; 5]);
    assert_eq!(lucky.hp, 50 + 2);
    assert_eq!(planet.tally().dead_resident_rewards, 1);
    assert!(planet.next_wave().is_empty());
}

#[test]
fn without_the_quirk_the_next_arrival_takes_over_a_dead_residents_cell() {
    let mut planet = dead_resident_cell(false);
    assert!(
        planet.next_wave().is_empty(),
        "the newcomer simply moves in"
    );
    assert_eq!(planet.instances()[2].levels.floats(), [1.0; 5]);
    assert_eq!(planet.tally().dead_resident_rewards, 0);
}

#[test]
fn arrivals_meet_only_the_first_arrival_never_each_other() {
    let mut planet = planet_with(
        6,
        vec![
            instance(0, 0, [1.0; 5], 10, 2, 2),
            instance(0, 1, [1.0; 5], 10, 2, 3),
            instance(0, 2, [1.0; 5], 10, 3, 2),
            instance(0, 3, [1.0; 5], 10, 1, 2),
        ],
        true,
    );
    planet.apply_moves(&[
        Move::Stay,
        Move::Step(Compass::N),
        Move::Step(Compass::W),
        Move::Step(Compass::E),
    ]);
    let mut met = Vec::new();
    loop {
        let wave = planet.next_wave();
        if wave.is_empty() {
            break;
        }
        for meeting in &wave {
            met.push((meeting.newcomer, meeting.resident));
            planet.settle(meeting, false, false);
        }
    }
    assert_eq!(met, [(1, 0), (2, 0), (3, 0)]);
}

#[test]
fn moves_see_the_start_of_round_board_and_may_swap_or_overtake() {
    // 0 and 1 swap places: no meeting. 2 moves onto 3's cell before 3 moves; 3 stays and
    // so arrives second: 3 is the newcomer.
    let mut planet = planet_with(
        6,
        vec![
            instance(0, 0, [1.0; 5], 10, 0, 0),
            instance(0, 1, [1.0; 5], 10, 1, 0),
            instance(0, 2, [1.0; 5], 10, 3, 3),
            instance(0, 3, [1.0; 5], 10, 4, 3),
        ],
        true,
    );
    planet.apply_moves(&[
        Move::Step(Compass::E),
        Move::Step(Compass::W),
        Move::Step(Compass::E),
        Move::Stay,
    ]);
    let wave = planet.next_wave();
    assert_eq!(wave.len(), 1);
    assert_eq!((wave[0].newcomer, wave[0].resident), (3, 2));
}

#[test]
fn the_dead_are_removed_at_the_end_of_the_round_and_missing_from_the_next_snapshot() {
    let mut planet = dead_resident_cell(true);
    assert_eq!(
        planet.instances().len(),
        3,
        "still there until the round ends"
    );
    planet.end_round();
    assert_eq!(planet.instances().len(), 2);
    planet.begin_round();
    let alive: Vec<u32> = planet.instances().iter().map(|i| i.id).collect();
    assert!(!alive.contains(&0));
    // Both survivors are on cell (2, 2): one 'A', the other cells blank.
    let i = 0;
    let view = planet.view(i);
    let me = &planet.instances()[i];
    assert_eq!((me.x, me.y), (2, 2));
    assert_eq!(view.cells.iter().filter(|&&c| c == b'A').count(), 1);
}

#[test]
fn the_snapshot_shows_the_later_instance_and_views_wrap_around_the_torus() {
    let mut planet = Planet::new(4, 1, b"AW".to_vec(), Vec::new(), 9, true);
    // Instance order is the round order; begin_round shuffles, so compare by id after it.
    *planet.instances_mut() = vec![
        instance(1, 0, [11.0, 1.0, 1.0, 1.0, 1.0], 60, 0, 0),
        instance(0, 1, [1.0; 5], 10, 0, 0),
        instance(0, 2, [1.0, 1.0, 1.0, 3.0, 1.0], 10, 3, 3),
    ];
    planet.begin_round();
    let order: Vec<usize> = planet.instances().iter().map(|i| i.species).collect();
    let shared_shows = if order.iter().position(|&s| s == 1) > order.iter().position(|&s| s == 0) {
        b'W'
    } else {
        b'A'
    };
    let viewer = planet.instances().iter().position(|i| i.id == 2).unwrap();
    let view = planet.view(viewer);
    assert_eq!(view.radius, 2);
    // From (3, 3) with radius 2, the cell (0, 0) is at offset (+1, +1) across both edges.
    assert_eq!(view.at(1, 1), Some(shared_shows));
    assert_eq!(view.at(0, 0), Some(b'A'));
    // 5 > 4: the view repeats cells; (3 - 2) wraps to the same column as (3 + 2).
    assert_eq!(view.at(-2, -2), view.at(2, 2));
}

#[test]
fn a_view_more_than_twice_as_wide_as_the_planet_repeats_it_in_every_row() {
    let mut planet = Planet::new(2, 1, b"AW".to_vec(), Vec::new(), 9, true);
    // Vision 5 is radius 3: a view of 7 x 7 cells on a planet of 2 x 2.
    *planet.instances_mut() = vec![
        instance(0, 0, [1.0, 1.0, 1.0, 5.0, 1.0], 10, 1, 0),
        instance(1, 0, [1.0; 5], 10, 0, 1),
    ];
    planet.begin_round();
    let viewer = planet
        .instances()
        .iter()
        .position(|i| i.species == 0)
        .unwrap();
    let view = planet.view(viewer);
    assert_eq!(view.radius, 3);
    for dy in -3..=3_isize {
        for dx in -3..=3_isize {
            let (x, y) = ((1 + dx).rem_euclid(2), dy.rem_euclid(2));
            let expected = match (x, y) {
                (1, 0) => b'A',
                (0, 1) => b'W',
                _ => b'.',
            };
            assert_eq!(view.at(dx, dy), Some(expected), "offset ({dx}, {dy})");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Prey

#[test]
fn prey_put_all_points_into_one_ability() {
    let points = Prey::ALL.map(|prey| prey.points());
    for (k, points) in points.iter().enumerate() {
        assert_eq!(points.iter().sum::<f32>(), 10.0);
        assert_eq!(points[k], 10.0);
        assert!(rules::valid_points(points));
    }
    let hp: Vec<i32> = Prey::ALL
        .iter()
        .map(|p| rules::starting_hp(&p.points()))
        .collect();
    assert_eq!(hp, [60, 10, 10, 10, 10]);
    assert_eq!(Prey::ALL.map(Prey::symbol), *b"WCTEH");
}

#[test]
fn prey_move_by_their_fixed_rules() {
    let mut rng = rng(1);
    let empty = View {
        radius: 1,
        cells: b"....W....".to_vec(),
    };
    assert_eq!(Prey::Whale.choose_move(&empty, &mut rng), Move::Stay);
    assert_eq!(
        Prey::Turtle.choose_move(&empty, &mut rng),
        Move::Step(Compass::SW)
    );
    assert_eq!(
        Prey::Human.choose_move(&empty, &mut rng),
        Move::Step(Compass::NE)
    );
    let mut cow = [false; 9];
    for _ in 0..500 {
        let m = Prey::Cow.choose_move(&empty, &mut rng);
        cow[Move::ALL.iter().position(|&n| n == m).unwrap()] = true;
    }
    assert_eq!(cow, [true; 9], "the Cow uses all nine moves, STAY included");
}

#[test]
fn the_eagle_takes_the_emptiest_ray_first_in_enum_order() {
    let view = |rows: &[&str]| View {
        radius: rows.len() / 2,
        cells: rows.concat().into_bytes(),
    };
    let mut rng = rng(1);
    let alone = view(&["...", ".E.", "..."]);
    assert_eq!(
        Prey::Eagle.choose_move(&alone, &mut rng),
        Move::Step(Compass::N)
    );
    let north_taken = view(&[".A.", ".E.", "..."]);
    assert_eq!(
        Prey::Eagle.choose_move(&north_taken, &mut rng),
        Move::Step(Compass::NE)
    );
    // Everything occupied but the west ray at distance 2: STAY counts its own cell r times.
    let crowded = view(&["AAAAA", "AAAAA", ".AEAA", "AAAAA", "AAAAA"]);
    assert_eq!(
        Prey::Eagle.choose_move(&crowded, &mut rng),
        Move::Step(Compass::W)
    );
}

// ---------------------------------------------------------------------------------------
// Protocol vectors

/// The words a parsed reply stands for, `-` for an unusable one.
fn render<T>(answers: &[Option<T>], word: impl Fn(&T) -> String) -> String {
    let words: Vec<String> = answers
        .iter()
        .map(|a| a.as_ref().map_or_else(|| "-".to_owned(), &word))
        .collect();
    words.join(" ")
}

#[test]
fn the_byte_exact_vectors_in_games_alienwar_hold() {
    let records = records(PROTOCOL);
    let mut current: Option<Instance> = None;
    let mut view: Vec<u8> = Vec::new();
    let mut parsed: Option<(String, u32)> = None;
    let mut checked = 0;
    for record in &records {
        let words: Vec<&str> = record.words.iter().map(String::as_str).collect();
        match words.as_slice() {
            ["create", count, side] => {
                let request =
                    protocol::encode_create(count.parse().unwrap(), side.parse().unwrap());
                assert_eq!(request, record.payload);
            }
            ["instance", id, hp, levels] => {
                let levels: Vec<f32> = levels.split(',').map(|v| v.parse().unwrap()).collect();
                let levels = Levels::new(levels.try_into().unwrap());
                current = Some(Instance {
                    species: 0,
                    id: id.parse().unwrap(),
                    levels,
                    hp: hp.parse().unwrap(),
                    x: 0,
                    y: 0,
                });
            }
            ["view"] => {
                view = record.text().lines().flat_map(str::bytes).collect();
            }
            ["move"] => {
                let instance = current.as_ref().unwrap();
                let radius = instance.levels.vision_radius();
                assert_eq!(
                    view.len(),
                    (2 * radius + 1).pow(2),
                    "view size for {radius}"
                );
                let mut request = Vec::new();
                protocol::write_header(&mut request, "MOVE", 1);
                let rows = view.chunks(2 * radius + 1);
                protocol::write_move_line(&mut request, instance, rows);
                assert_eq!(String::from_utf8(request).unwrap(), record.text());
            }
            ["fight", sees] => {
                let sees: Vec<i32> = sees.split(',').map(|v| v.parse().unwrap()).collect();
                let mut request = Vec::new();
                protocol::write_header(&mut request, "FIGHT", 1);
                let instance = current.as_ref().unwrap();
                protocol::write_fight_line(&mut request, instance, sees.try_into().unwrap());
                assert_eq!(String::from_utf8(request).unwrap(), record.text());
            }
            ["reply", kind, count] => {
                let count = count.parse().unwrap();
                let reply = &record.payload;
                parsed = Some(match *kind {
                    "create" => {
                        let (answers, invalid) = parse_words(reply, count, parse_points);
                        let show = |p: &[f32; 5]| p.map(|v| v.to_string()).join(",");
                        (render(&answers, show), invalid.total())
                    }
                    "move" => {
                        let (answers, invalid) = parse_words(reply, count, parse_move);
                        (
                            render(&answers, |m: &Move| m.name().to_owned()),
                            invalid.total(),
                        )
                    }
                    "fight" => {
                        let (answers, invalid) = parse_words(reply, count, parse_fight);
                        let show = |&f: &bool| if f { "Y" } else { "N" }.to_owned();
                        (render(&answers, show), invalid.total())
                    }
                    other => panic!("unknown reply kind {other}"),
                });
            }
            ["parsed", invalid] => {
                let (words, counted) = parsed.take().expect("a reply before its parse");
                assert_eq!(words, record.text(), "words");
                assert_eq!(
                    counted,
                    invalid.parse::<u32>().unwrap(),
                    "invalid count of {words}"
                );
            }
            other => panic!("unknown record {other:?}"),
        }
        checked += 1;
    }
    assert_eq!(checked, records.len());
    assert!(checked >= 20, "{checked} records");
}

// ---------------------------------------------------------------------------------------
// Whole games

fn small(rounds: u32, instances: u32) -> AlienWarOptions {
    AlienWarOptions {
        rounds,
        instances,
        ..AlienWarOptions::default()
    }
}

/// The header word and the number of lines of a session request.
fn request_kind(query: &Query) -> (String, usize) {
    let Input::Session(bytes) = &query.input else {
        panic!("AlienWar talks to persistent sessions only");
    };
    let text = String::from_utf8(bytes.clone()).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(' ').collect();
    let count: usize = header[1].parse().unwrap();
    if header[0] != "CREATE" {
        assert_eq!(lines.count(), count, "one line per instance");
    }
    (header[0].to_owned(), count)
}

/// A bot that gives every instance `points`, always moves `mv` and always answers `fight`.
fn scripted(points: &'static str, mv: Move, fight: &'static str) -> impl Fn(&Query) -> Answer {
    move |query| {
        let (kind, count) = request_kind(query);
        let word = match kind.as_str() {
            "CREATE" => points,
            "MOVE" => mv.name(),
            _ => fight,
        };
        Answer::Reply(vec![word; count].join(" ").into_bytes())
    }
}

#[test]
fn a_game_creates_asks_everyone_once_a_round_and_scores_the_prey_as_built_in_seats() {
    let mut game = AlienWar::new(&small(3, 10), 7, 2).unwrap();
    let Step::Ask(create) = game.poll() else {
        panic!("a game starts by creating");
    };
    assert_eq!(create.len(), 2);
    assert!(create.iter().all(|q| q.phase == Phase::Setup));
    assert_eq!(create[0].input, Input::Session(b"CREATE 10 14\n".to_vec()));
    let bot = scripted("2,2,2,2,2", Move::Stay, "N");
    game.handle_answers(&create.iter().map(&bot).collect::<Vec<_>>());
    let mut moves = 0;
    let outcome = play(
        &mut game,
        |query| {
            let (kind, count) = request_kind(query);
            assert_eq!(query.phase, Phase::Play);
            if kind == "MOVE" {
                moves += 1;
                assert_eq!(count, 10, "no instance dies when nobody fights");
            }
            bot(query)
        },
        1_000,
    );
    assert_eq!(moves, 3 * 2, "one MOVE request per species and round");
    assert_eq!(outcome.seats.len(), 2);
    // Ten instances of 2+2+2+2+2 points: 10 × 15.
    assert!(
        outcome
            .seats
            .iter()
            .all(|s| s.score == 150 && s.invalid_replies == 0)
    );
    let names: Vec<&str> = outcome.built_in.iter().map(|h| h.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "prey.Whale",
            "prey.Cow",
            "prey.Turtle",
            "prey.Eagle",
            "prey.Human"
        ]
    );
    assert!(
        outcome.summary.starts_with("3 rounds: "),
        "{}",
        outcome.summary
    );
}

#[test]
fn illegal_allocations_and_garbage_take_the_originals_defaults_and_are_counted() {
    let mut game = AlienWar::new(&small(2, 4), 1, 2).unwrap();
    let outcome = play(
        &mut game,
        |query| {
            let (kind, count) = request_kind(query);
            let reply = match (query.seat, kind.as_str()) {
                // Seat 0: two legal, one over budget, one unreadable; moves garbage; no fights.
                (0, "CREATE") => "1,1,1,1,1 0,10,0,0,0 5,5,0,0,1 banana".to_owned(),
                (0, "MOVE") => vec!["UP"; count].join(" "),
                (0, _) => vec!["N"; count].join(" "),
                // Seat 1: no usable reply at all.
                _ => return Answer::NoReply,
            };
            Answer::Reply(reply.into_bytes())
        },
        1_000,
    );
    let [zero, one] = [&outcome.seats[0], &outcome.seats[1]];
    // Seat 0 lost two instances at creation (2 invalid) and sent 2 × 2 bad moves.
    assert_eq!(zero.invalid_replies, 2 + 2 * 2);
    assert_eq!(
        one.invalid_replies, 0,
        "no reply is the driver's count, not the game's"
    );
    assert_eq!(one.score, 0, "no instance was created");
}

#[test]
fn an_aliens_own_failures_are_counted_apart_from_protocol_mistakes() {
    let (words, unusable) = parse_words(b"STAY ! UP", 4, parse_move);
    assert_eq!(words, [Some(Move::Stay), None, None, None]);
    assert_eq!(
        unusable,
        protocol::Unusable {
            failed: 1,
            other: 2
        },
        "`!` failed; UP and the missing word are mistakes"
    );
    assert_eq!(
        parse_words(b"! ! Y", 2, parse_fight).1.total(),
        3,
        "one surplus"
    );

    let mut game = AlienWar::new(&small(1, 4), 1, 1).unwrap();
    let mut reasons = std::collections::BTreeMap::new();
    for _ in 0..10 {
        let Step::Ask(queries) = game.poll() else {
            break;
        };
        let answers: Vec<Answer> = (queries.iter())
            .map(|query| match request_kind(query).0.as_str() {
                "CREATE" => Answer::Reply(b"1,1,1,1,1 ! ! banana".to_vec()),
                _ => Answer::Reply(b"! UP".to_vec()),
            })
            .collect();
        game.handle_answers(&answers);
        for rejection in game.take_rejections() {
            *reasons.entry(rejection.reason).or_insert(0) += rejection.count;
        }
    }
    assert_eq!(
        reasons.into_iter().collect::<Vec<_>>(),
        [
            ("`!`, the alien's code failed", 2 + 1),
            ("not one of the nine moves per instance", 1),
            ("not one word of five decimals per instance", 1)
        ],
        "one instance was created; its move was `!`, and UP one word too many"
    );
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let run = |seed| {
        let mut game = AlienWar::new(&small(30, 20), seed, 2).unwrap();
        play(
            &mut game,
            scripted("3.5,6.5,0,0,0", Move::Step(Compass::E), "Y"),
            100_000,
        )
    };
    let first: Outcome = run(11);
    assert_eq!(run(11), first);
    assert!(first.summary.contains(" fights"), "{}", first.summary);
}

#[test]
fn fight_questions_carry_the_askers_current_state_and_every_answer_is_used() {
    // Hunters (seat 0) fight everything; pacifists (seat 1) nothing. Each FIGHT line is a
    // well-formed question about an instance the bot owns.
    let mut game = AlienWar::new(&small(40, 30), 3, 2).unwrap();
    let mut questions = 0;
    let outcome = play(
        &mut game,
        |query| {
            let (kind, count) = request_kind(query);
            if kind == "FIGHT" {
                let Input::Session(bytes) = &query.input else {
                    unreachable!()
                };
                for line in String::from_utf8_lossy(bytes).lines().skip(1) {
                    let fields: Vec<i64> = line.split(' ').map(|f| f.parse().unwrap()).collect();
                    assert_eq!(fields.len(), 13, "{line}");
                    assert!((0..30).contains(&fields[0]), "an id of the species");
                    assert!(
                        fields[9..].iter().all(|&v| v >= 1),
                        "blurred levels are >= 1"
                    );
                }
                questions += count;
            }
            let answer = if query.seat == 0 { "Y" } else { "N" };
            let points = if query.seat == 0 {
                "0,10,0,0,0"
            } else {
                "10,0,0,0,0"
            };
            scripted(points, Move::ALL[query.seat * 2], answer)(query)
        },
        100_000,
    );
    assert!(questions > 0);
    assert!(outcome.seats.iter().all(|s| s.invalid_replies == 0));
}

#[test]
fn garbage_replies_never_panic_and_the_game_ends() {
    let mut rng = Draws::new(0x5eed);
    let words = [
        "NORTH",
        "STAY",
        "Y",
        "N",
        "1,1,1,1,1",
        "!",
        "",
        "\u{0}",
        "9,9,9,9,9",
    ];
    for seed in 0..10 {
        let mut game = AlienWar::new(&small(15, 8), seed, 3).unwrap();
        let outcome = play(
            &mut game,
            |query| {
                if rng.below(10) == 0 {
                    return Answer::NoReply;
                }
                let (_, count) = request_kind(query);
                let mut reply: Vec<u8> = (0..count + rng.below(3))
                    .flat_map(|_| format!("{} ", rng.pick(&words)).into_bytes())
                    .collect();
                if rng.below(4) == 0 {
                    reply = rng.bytes(64);
                }
                Answer::Reply(reply)
            },
            100_000,
        );
        assert_eq!(outcome.seats.len(), 3);
        assert_eq!(outcome.built_in.len(), 5);
    }
}

#[test]
fn a_replay_frame_is_the_planet_after_each_round_with_scores_and_deaths() {
    let mut game = AlienWar::new(&small(30, 20), 11, 2).unwrap();
    assert_eq!(game.snapshot(), None, "nothing to draw before creation");
    let bot = scripted("3.5,6.5,0,0,0", Move::Step(Compass::E), "Y");
    let (mut frames, mut deaths) = (Vec::new(), 0);
    loop {
        match game.poll() {
            Step::Done(outcome) => {
                let last: &crate::snapshot::Snapshot = frames.last().unwrap();
                assert_eq!(last.turn, 30, "the last round's end is shown");
                let seats: Vec<i64> = outcome.seats.iter().map(|s| s.score).collect();
                assert_eq!(last.scores, seats);
                break;
            }
            Step::Ask(queries) => {
                let answers: Vec<Answer> = queries.iter().map(&bot).collect();
                game.handle_answers(&answers);
                let snapshot = game.snapshot().expect("a game in play has a planet");
                assert_eq!(snapshot.problems(), Vec::<String>::new());
                assert_eq!((snapshot.width, snapshot.height), (19, 19));
                deaths += snapshot.events.len();
                frames.push(snapshot);
            }
        }
    }
    let first = &frames[0];
    assert_eq!(first.turn, 0);
    assert!(
        first.events.is_empty(),
        "nobody died before the first round"
    );
    // 20 instances of each of the 2 seats and 5 prey on distinct cells at the start.
    let count = |code: char| first.cells.chars().filter(|&c| c == code).count();
    assert_eq!(
        (count('A'), count('B'), count('~'), count('%')),
        (20, 20, 20, 20)
    );
    assert_eq!(first.scores, [20 * 15, 20 * 15]);
    let seats: Vec<Option<usize>> = first.legend.iter().map(|g| g.seat).collect();
    assert_eq!(
        seats,
        [None, None, None, None, None, None, Some(0), Some(1)]
    );
    assert!(first.legend[..6].iter().all(|g| g.colour.is_some()));
    assert!(deaths > 0, "Y-sayers kill each other in 30 rounds");
    assert!(
        frames
            .iter()
            .flat_map(|f| &f.events)
            .all(|e| e.ends_with(" died")),
        "{:?}",
        frames.last().unwrap().events
    );
}
