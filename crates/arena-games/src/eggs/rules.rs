//! The rules of a run (games/eggs.md, "What happens"): views, simultaneous moves, fights, the
//! bounce cascade, eggs and the end of a run. Pure state; no bytes (that is `protocol.rs`).

use std::collections::BTreeMap;

use super::board::{Board, Cell, Pos};
use crate::compass::Compass;

/// Turns per entry before a run ends (`25*n`, games/eggs.md, "The board").
const TURNS_PER_ENTRY: usize = 25;

/// Where a player goes: one of the eight directions, or nowhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Direction(Option<Compass>);

impl Direction {
    /// Do not move.
    pub const STAY: Direction = Direction(None);

    /// The direction of a keypad digit 1..=9 around the player, from the layout
    /// `1 2 3 / 8 . 4 / 7 6 5`; 9 is staying put (games/eggs.md, "A turn").
    pub fn from_digit(digit: u64) -> Option<Direction> {
        const AROUND: [Compass; 8] = [
            Compass::NW,
            Compass::N,
            Compass::NE,
            Compass::E,
            Compass::SE,
            Compass::S,
            Compass::SW,
            Compass::W,
        ];
        match digit {
            9 => Some(Direction::STAY),
            _ => usize::try_from(digit)
                .ok()
                .and_then(|digit| digit.checked_sub(1))
                .and_then(|i| AROUND.get(i))
                .map(|&compass| Direction(Some(compass))),
        }
    }

    /// The step as (d_row, d_col).
    pub fn delta(self) -> (isize, isize) {
        let (dx, dy) = self.0.map_or((0, 0), Compass::delta);
        (dy, dx)
    }
}

/// What a player does in a fight and to an egg.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// `A`: beats Nothing, destroys an egg.
    Attack,
    /// `C`: beats Attack, bounces off an egg.
    Counter,
    /// `N`: beats Counter, collects an egg.
    Nothing,
}

impl Action {
    /// Rock-paper-scissors (games/eggs.md, "What happens"): A beats N, N beats C, C beats A.
    fn beats(self, other: Action) -> bool {
        matches!(
            (self, other),
            (Action::Attack, Action::Nothing)
                | (Action::Nothing, Action::Counter)
                | (Action::Counter, Action::Attack)
        )
    }
}

/// One player's decision for a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    /// Where to go.
    pub direction: Direction,
    /// How to fight and what to do with an egg.
    pub action: Action,
}

impl Move {
    /// The fallback for a missing reply (games/eggs.md, "A turn"): stay, do nothing.
    pub const REST: Move = Move {
        direction: Direction::STAY,
        action: Action::Nothing,
    };
}

/// One run in progress: the board, where everyone stands and what they have collected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunt {
    board: Board,
    positions: Vec<Pos>,
    scores: Vec<u32>,
    turn: usize,
    max_turns: usize,
    destroyed: usize,
}

impl Hunt {
    /// A run on `board` with players starting at `starts` (distinct floor squares) and a turn
    /// limit of `25 * size`.
    pub fn new(board: Board, starts: Vec<Pos>, size: usize) -> Hunt {
        debug_assert!(
            starts.iter().all(|&p| board.get(p) == Some(Cell::Floor)),
            "players start on floor"
        );
        Hunt {
            board,
            scores: vec![0; starts.len()],
            positions: starts,
            turn: 0,
            max_turns: TURNS_PER_ENTRY * size,
            destroyed: 0,
        }
    }

    /// The board as it stands.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Where each player stands, by seat.
    pub fn positions(&self) -> &[Pos] {
        &self.positions
    }

    /// Eggs collected, by seat.
    pub fn scores(&self) -> &[u32] {
        &self.scores
    }

    /// Turns played so far.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// Eggs destroyed with `A` so far.
    pub fn destroyed(&self) -> usize {
        self.destroyed
    }

    /// Whether the run is over: no eggs left, or the turn limit reached (games/eggs.md, "The
    /// board").
    pub fn is_over(&self) -> bool {
        self.board.eggs() == 0 || self.turn >= self.max_turns
    }

    /// The 5x5 view of `seat` (games/eggs.md, "A turn"): `X` beyond the edge, `*` on every player
    /// (the viewer's own centre included), else the board's symbol.
    pub fn view(&self, seat: usize) -> [[u8; 5]; 5] {
        let centre = self.positions[seat];
        let mut view = [[b'X'; 5]; 5];
        for (i, line) in view.iter_mut().enumerate() {
            for (j, symbol) in line.iter_mut().enumerate() {
                let delta = (i as isize - 2, j as isize - 2);
                if let Some(pos) = self.board.step(centre, delta) {
                    *symbol = if self.positions.contains(&pos) {
                        b'*'
                    } else {
                        self.board
                            .get(pos)
                            .expect("step stays on the board")
                            .symbol()
                    };
                }
            }
        }
        view
    }

    /// Plays one turn with one move per seat (games/eggs.md, "What happens").
    pub fn play(&mut self, moves: &[Move]) {
        assert_eq!(moves.len(), self.positions.len(), "one move per player");
        let origins = self.positions.clone();
        // Step 2: a wall (or the edge of a borderless map) cancels the move.
        let mut positions: Vec<Pos> = origins
            .iter()
            .zip(moves)
            .map(|(&origin, mv)| {
                self.board
                    .step(origin, mv.direction.delta())
                    .filter(|&target| self.board.get(target) != Some(Cell::Wall))
                    .unwrap_or(origin)
            })
            .collect();
        // Step 3: every pair is judged on the post-move snapshot, so losers are sent home
        // only after all pairs are decided.
        let mut losers = Vec::new();
        for seats in occupants(&positions).values() {
            if let [first, second] = seats[..] {
                let (a, b) = (moves[first].action, moves[second].action);
                if a.beats(b) {
                    losers.push(second);
                } else if b.beats(a) {
                    losers.push(first);
                }
            }
        }
        for loser in losers {
            positions[loser] = origins[loser];
        }
        bounce(&mut positions, &origins);
        // Step 5: after the cascade nobody shares a square, so the order does not matter.
        let mut countered = false;
        for (seat, pos) in positions.iter_mut().enumerate() {
            if self.board.get(*pos) != Some(Cell::Egg) {
                continue;
            }
            match moves[seat].action {
                Action::Attack => {
                    self.board.set(*pos, Cell::Floor);
                    self.destroyed += 1;
                }
                Action::Counter => {
                    *pos = origins[seat];
                    countered = true;
                }
                Action::Nothing => {
                    self.board.set(*pos, Cell::Floor);
                    self.scores[seat] += 1;
                }
            }
        }
        // A countered player may come home to a newcomer; send it back too (games/eggs.md,
        // "What happens", step 4).
        if countered {
            bounce(&mut positions, &origins);
        }
        self.positions = positions;
        self.turn += 1;
    }
}

/// Seats by the square they stand on.
fn occupants(positions: &[Pos]) -> BTreeMap<Pos, Vec<usize>> {
    let mut squares: BTreeMap<Pos, Vec<usize>> = BTreeMap::new();
    for (seat, &pos) in positions.iter().enumerate() {
        squares.entry(pos).or_default().push(seat);
    }
    squares
}

/// The bounce cascade (games/eggs.md, "What happens", step 3): everyone on a shared square
/// goes home, until nobody shares. It ends because origins are distinct: a shared square
/// always holds someone who is away from home, and each player goes home at most once.
fn bounce(positions: &mut [Pos], origins: &[Pos]) {
    loop {
        let shared: Vec<usize> = occupants(positions)
            .into_values()
            .filter(|seats| seats.len() > 1)
            .flatten()
            .collect();
        if shared.is_empty() {
            return;
        }
        for seat in shared {
            positions[seat] = origins[seat];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 12x12 walled board with eggs and inner walls at the given squares.
    fn board(eggs: &[(usize, usize)], walls: &[(usize, usize)]) -> Board {
        let mut text = String::new();
        for row in 0..12 {
            for col in 0..12 {
                let edge = row == 0 || col == 0 || row == 11 || col == 11;
                text.push(if edge || walls.contains(&(row, col)) {
                    '#'
                } else if eggs.contains(&(row, col)) {
                    'o'
                } else {
                    ' '
                });
            }
            text.push('\n');
        }
        Board::parse(&text).unwrap()
    }

    fn mv(direction: u64, action: Action) -> Move {
        Move {
            direction: Direction::from_digit(direction).unwrap(),
            action,
        }
    }

    use Action::{Attack as A, Counter as C, Nothing as N};

    /// Plays one turn from `starts` and returns the positions as (row, col).
    fn turn(hunt_board: Board, starts: &[(usize, usize)], moves: &[Move]) -> Hunt {
        let starts = starts.iter().map(|&(r, c)| Pos::new(r, c)).collect();
        let mut hunt = Hunt::new(hunt_board, starts, 7);
        hunt.play(moves);
        hunt
    }

    fn at(hunt: &Hunt) -> Vec<(usize, usize)> {
        hunt.positions().iter().map(|p| (p.row, p.col)).collect()
    }

    #[test]
    fn keypad_directions_match_the_spec_table() {
        let expected = [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, 1),
            (1, 1),
            (1, 0),
            (1, -1),
            (0, -1),
            (0, 0),
        ];
        for (digit, delta) in (1..=9).zip(expected) {
            assert_eq!(Direction::from_digit(digit).unwrap().delta(), delta);
        }
        assert_eq!(Direction::from_digit(0), None);
        assert_eq!(Direction::from_digit(10), None);
    }

    #[test]
    fn spec_case_1_attack_beats_nothing_on_a_shared_target() {
        let hunt = turn(board(&[], &[]), &[(5, 5), (5, 7)], &[mv(4, A), mv(8, N)]);
        assert_eq!(at(&hunt), [(5, 6), (5, 7)]);
    }

    #[test]
    fn spec_case_2_a_tie_sends_both_home() {
        let hunt = turn(board(&[], &[]), &[(5, 5), (5, 7)], &[mv(4, N), mv(8, N)]);
        assert_eq!(at(&hunt), [(5, 5), (5, 7)]);
    }

    #[test]
    fn spec_case_3_a_stayer_that_loses_still_keeps_its_square() {
        let hunt = turn(board(&[], &[]), &[(5, 6), (5, 7)], &[mv(9, C), mv(8, N)]);
        assert_eq!(at(&hunt), [(5, 6), (5, 7)]);
    }

    #[test]
    fn every_pairing_of_actions_follows_rock_paper_scissors() {
        // (P's action, Q's action, does P keep the square?) for P and Q both moving onto it.
        let table = [
            (A, N, Some(true)),
            (N, A, Some(false)),
            (N, C, Some(true)),
            (C, N, Some(false)),
            (C, A, Some(true)),
            (A, C, Some(false)),
            (A, A, None),
            (C, C, None),
            (N, N, None),
        ];
        for (p, q, p_wins) in table {
            let hunt = turn(board(&[], &[]), &[(5, 5), (5, 7)], &[mv(4, p), mv(8, q)]);
            let expected = match p_wins {
                Some(true) => [(5, 6), (5, 7)],
                Some(false) => [(5, 5), (5, 6)],
                None => [(5, 5), (5, 7)],
            };
            assert_eq!(at(&hunt), expected, "{p:?} against {q:?}");
        }
    }

    #[test]
    fn spec_case_4_three_on_a_square_all_go_home() {
        for actions in [[A, N, C], [A, A, N], [N, N, N]] {
            let moves: Vec<Move> = [4, 8, 6]
                .into_iter()
                .zip(actions)
                .map(|(d, a)| mv(d, a))
                .collect();
            let hunt = turn(board(&[], &[]), &[(5, 5), (5, 7), (4, 6)], &moves);
            assert_eq!(at(&hunt), [(5, 5), (5, 7), (4, 6)], "{actions:?}");
        }
    }

    #[test]
    fn spec_case_5_a_loser_going_home_sends_its_follower_home() {
        let hunt = turn(
            board(&[], &[]),
            &[(1, 1), (1, 2), (1, 4)],
            &[mv(4, A), mv(4, N), mv(8, A)],
        );
        assert_eq!(at(&hunt), [(1, 1), (1, 2), (1, 3)]);
    }

    #[test]
    fn a_long_chain_of_followers_all_go_home() {
        // Four players in a row follow each other; the leader loses a fight at (3,6).
        let hunt = turn(
            board(&[], &[]),
            &[(3, 2), (3, 3), (3, 4), (3, 5), (3, 7)],
            &[mv(4, N), mv(4, N), mv(4, N), mv(4, N), mv(8, A)],
        );
        assert_eq!(at(&hunt), [(3, 2), (3, 3), (3, 4), (3, 5), (3, 6)]);
    }

    #[test]
    fn squares_shared_during_the_cascade_are_not_fought_over() {
        // P1 follows P2; P2 ties with P3 and goes home to P1's new square. P1 would beat P2
        // there (A over N), but only the post-move snapshot is fought over: both go home.
        let hunt = turn(
            board(&[], &[]),
            &[(1, 1), (1, 2), (1, 4)],
            &[mv(4, A), mv(4, N), mv(8, N)],
        );
        assert_eq!(at(&hunt), [(1, 1), (1, 2), (1, 4)]);
    }

    #[test]
    fn swaps_and_rotations_are_allowed() {
        let hunt = turn(board(&[], &[]), &[(5, 5), (5, 6)], &[mv(4, N), mv(8, N)]);
        assert_eq!(at(&hunt), [(5, 6), (5, 5)]);
        let hunt = turn(
            board(&[], &[]),
            &[(5, 5), (5, 6), (6, 6), (6, 5)],
            &[mv(4, A), mv(6, C), mv(8, N), mv(2, A)],
        );
        assert_eq!(at(&hunt), [(5, 6), (6, 6), (6, 5), (5, 5)]);
    }

    #[test]
    fn spec_case_6_an_egg_is_collected_destroyed_or_bounced_off() {
        for (action, pos, score, eggs, destroyed) in [
            (N, (3, 3), 1, 0, 0),
            (A, (3, 3), 0, 0, 1),
            (C, (3, 2), 0, 1, 0),
        ] {
            let hunt = turn(board(&[(3, 3)], &[]), &[(3, 2)], &[mv(4, action)]);
            assert_eq!(at(&hunt), [pos], "{action:?}");
            assert_eq!(hunt.scores(), [score], "{action:?}");
            assert_eq!(hunt.board().eggs(), eggs, "{action:?}");
            assert_eq!(hunt.destroyed(), destroyed, "{action:?}");
        }
    }

    #[test]
    fn spec_case_7_a_wall_cancels_the_move_whatever_the_action() {
        for action in [A, C, N] {
            let hunt = turn(board(&[], &[(2, 1)]), &[(2, 2)], &[mv(8, action)]);
            assert_eq!(at(&hunt), [(2, 2)], "{action:?}");
        }
        // The outer border blocks too.
        let hunt = turn(board(&[], &[]), &[(1, 1)], &[mv(1, N)]);
        assert_eq!(at(&hunt), [(1, 1)]);
    }

    #[test]
    fn a_stayer_is_never_displaced_whatever_the_actions() {
        for stayer in [A, C, N] {
            for mover in [A, C, N] {
                // A wall-blocked player counts as a stayer too.
                for (start, direction) in [((5, 5), 9), ((1, 1), 8)] {
                    let (r, c) = start;
                    let hunt = turn(
                        board(&[], &[]),
                        &[start, (r + 1, c)],
                        &[mv(direction, stayer), mv(2, mover)],
                    );
                    assert_eq!(at(&hunt), [start, (r + 1, c)], "{stayer:?} {mover:?}");
                }
            }
        }
    }

    #[test]
    fn two_on_an_egg_fight_first_then_the_winner_acts_on_it() {
        // (P, Q, expected positions, P's score, eggs left) with P from (3,2), Q from (3,4).
        let cases = [
            (A, N, [(3, 3), (3, 4)], 0, 0),
            (N, C, [(3, 3), (3, 4)], 1, 0),
            (C, A, [(3, 2), (3, 4)], 0, 1),
            (N, N, [(3, 2), (3, 4)], 0, 1),
        ];
        for (p, q, expected, score, eggs) in cases {
            let hunt = turn(
                board(&[(3, 3)], &[]),
                &[(3, 2), (3, 4)],
                &[mv(4, p), mv(8, q)],
            );
            assert_eq!(at(&hunt), expected, "{p:?} against {q:?}");
            assert_eq!(hunt.scores(), [score, 0], "{p:?} against {q:?}");
            assert_eq!(hunt.board().eggs(), eggs, "{p:?} against {q:?}");
        }
    }

    #[test]
    fn a_countered_player_coming_home_sends_the_newcomer_home() {
        // games/eggs.md, "What happens", step 4: P counters off the egg at (3,3) and returns to
        // (3,2), where Q has just moved; the cascade after the egg step sends Q home, and R that
        // followed Q.
        let hunt = turn(
            board(&[(3, 3)], &[]),
            &[(3, 2), (4, 2), (5, 2)],
            &[mv(4, C), mv(2, N), mv(2, N)],
        );
        assert_eq!(at(&hunt), [(3, 2), (4, 2), (5, 2)]);
        assert_eq!(hunt.board().eggs(), 1);
    }

    #[test]
    fn the_run_ends_without_eggs_or_after_25n_turns() {
        let mut hunt = Hunt::new(board(&[(3, 3)], &[]), vec![Pos::new(3, 2)], 1);
        assert!(!hunt.is_over());
        hunt.play(&[mv(4, N)]);
        assert!(hunt.is_over());
        assert_eq!(hunt.turn(), 1);
        let mut hunt = Hunt::new(board(&[(3, 3)], &[]), vec![Pos::new(8, 8)], 2);
        for _ in 0..49 {
            hunt.play(&[Move::REST]);
            assert!(!hunt.is_over());
        }
        hunt.play(&[Move::REST]);
        assert!(hunt.is_over());
    }

    #[test]
    fn views_show_players_walls_eggs_and_the_outside() {
        let hunt = Hunt::new(
            board(&[(1, 4)], &[]),
            vec![Pos::new(1, 2), Pos::new(3, 2)],
            7,
        );
        let view = hunt
            .view(0)
            .map(|line| String::from_utf8(line.to_vec()).unwrap());
        assert_eq!(view, ["XXXXX", "#####", "# * o", "#    ", "# *  "]);
    }
}
