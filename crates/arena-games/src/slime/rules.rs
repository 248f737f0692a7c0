//! The board and the move rules, exactly as the original controller checks and applies
//! them (games/slime.md, "Rules").
//!
//! Cells are stored as the bytes the protocol sends (`.` and `1` to `4`), so rendering a
//! request is a copy and the tests can write boards as text. Nothing here parses replies or
//! knows about turns; `game.rs` decides whose move it is.

/// An empty cell.
pub(crate) const EMPTY: u8 = b'.';

/// The byte of seat `seat` (0-based) on the board: player 1 is `1`.
pub(crate) fn mark(seat: usize) -> u8 {
    assert!(seat < 4, "seat {seat} out of range");
    b'1' + seat as u8
}

/// The board. The game only builds square ones, but the rules work on any rectangle, so the
/// challenge's 5×4 examples can be played as they are printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Board {
    rows: usize,
    cols: usize,
    /// Row-major bytes from `.1234`.
    cells: Vec<u8>,
}

/// A move as read from a reply: from row, from column, to row, to column, each whatever
/// integer the bot printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RawMove(pub(crate) [i32; 4]);

/// A legal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Move {
    pub(crate) kind: MoveKind,
    pub(crate) from: (usize, usize),
    pub(crate) to: (usize, usize),
}

/// The three actions of games/slime.md, "Rules".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MoveKind {
    /// To an empty cell at distance 1; the source stays.
    Spread,
    /// To an empty cell at distance 2; the source is emptied.
    Jump,
    /// To an own cell at distance 1: fills the empty cells around it; the source is emptied.
    Merge,
}

/// Why a move is a pass, one variant per check of games/slime.md, "Rules", in the order they
/// run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IllegalMove {
    /// A coordinate is outside the board.
    OffBoard,
    /// The source is not the mover's.
    NotOwnSource,
    /// The target belongs to another player.
    EnemyTarget,
    /// The Chebyshev distance is 0 or more than 2.
    BadDistance,
    /// A merge onto an own cell at distance 2.
    LongMerge,
}

impl IllegalMove {
    /// Why, in words: a rejection's reason and `arena check`'s verdict.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            IllegalMove::OffBoard => "a cell is off the board",
            IllegalMove::NotOwnSource => "the source is not the mover's",
            IllegalMove::EnemyTarget => "the target is an enemy cell",
            IllegalMove::BadDistance => "the distance is not 1 or 2",
            IllegalMove::LongMerge => "a merge must be at distance 1",
        }
    }
}

impl Board {
    /// The starting position (games/slime.md, "Rules"): empty but for the four corners, players 1
    /// to 4 at top-left, top-right, bottom-left and bottom-right. On a 2×2 board that is full.
    pub(crate) fn new(size: usize) -> Board {
        assert!(size >= 2, "a board needs room for four corners");
        let mut board = Board {
            rows: size,
            cols: size,
            cells: vec![EMPTY; size * size],
        };
        let last = size - 1;
        for (seat, (row, col)) in [(0, 0), (0, last), (last, 0), (last, last)]
            .into_iter()
            .enumerate()
        {
            board.set((row, col), mark(seat));
        }
        board
    }

    /// A board from its rows of `.1234`.
    ///
    /// # Panics
    ///
    /// On an empty or ragged list, or another character: this builds test positions and
    /// `arena check`'s probes.
    pub(crate) fn from_rows(rows: &[&str]) -> Board {
        let cols = rows.first().map_or(0, |row| row.len());
        assert!(cols > 0, "a board needs cells");
        let mut cells = Vec::with_capacity(rows.len() * cols);
        for row in rows {
            assert_eq!(row.len(), cols, "ragged board: {rows:?}");
            assert!(row.bytes().all(|b| b".1234".contains(&b)), "{row:?}");
            cells.extend_from_slice(row.as_bytes());
        }
        Board {
            rows: rows.len(),
            cols,
            cells,
        }
    }

    /// Rows and columns.
    pub(crate) fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The rows, top first, each as its bytes.
    pub(crate) fn rows(&self) -> impl Iterator<Item = &[u8]> {
        self.cells.chunks(self.cols)
    }

    /// What is on `(row, col)`.
    pub(crate) fn get(&self, (row, col): (usize, usize)) -> u8 {
        self.cells[row * self.cols + col]
    }

    fn set(&mut self, (row, col): (usize, usize), value: u8) {
        self.cells[row * self.cols + col] = value;
    }

    /// Cells owned by `seat`: its score.
    pub(crate) fn count(&self, seat: usize) -> usize {
        let mark = mark(seat);
        self.cells.iter().filter(|&&cell| cell == mark).count()
    }

    /// Whether no cell is empty, which ends the game (games/slime.md, "Rules").
    pub(crate) fn is_full(&self) -> bool {
        !self.cells.contains(&EMPTY)
    }

    /// The empty cells.
    pub(crate) fn empty_cells(&self) -> usize {
        self.cells.iter().filter(|&&cell| cell == EMPTY).count()
    }

    /// The cell at `(row, col)` if both are inside the board.
    fn cell_at(&self, row: i64, col: i64) -> Option<(usize, usize)> {
        let inside = (0..self.rows as i64).contains(&row) && (0..self.cols as i64).contains(&col);
        inside.then_some((row as usize, col as usize))
    }

    /// The 3×3 block centred on `centre`, clipped to the board (the centre included).
    fn block(&self, (row, col): (usize, usize)) -> impl Iterator<Item = (usize, usize)> + '_ {
        (-1..=1).flat_map(move |dr| {
            (-1..=1).filter_map(move |dc| self.cell_at(row as i64 + dr, col as i64 + dc))
        })
    }

    /// Whether `seat` has any legal move: an empty cell 1 or 2 from one of its cells, or two
    /// of its cells side by side (a merge). Without one, a pass is all it can play.
    pub(crate) fn has_move(&self, seat: usize) -> bool {
        let own = mark(seat);
        let (rows, cols) = self.size();
        (0..rows).any(|row| {
            (0..cols).any(|col| {
                self.get((row, col)) == own
                    && (-2..=2_i64).any(|dr| {
                        (-2..=2_i64).any(|dc| {
                            let Some(to) = self.cell_at(row as i64 + dr, col as i64 + dc) else {
                                return false;
                            };
                            let near = dr.abs().max(dc.abs()) == 1;
                            self.get(to) == EMPTY || (near && self.get(to) == own)
                        })
                    })
            })
        })
    }

    /// Checks `raw` for `seat` in the controller's order; the first failing check decides.
    pub(crate) fn validate(&self, seat: usize, raw: RawMove) -> Result<Move, IllegalMove> {
        let [fr, fc, tr, tc] = raw.0.map(i64::from);
        let (Some(from), Some(to)) = (self.cell_at(fr, fc), self.cell_at(tr, tc)) else {
            return Err(IllegalMove::OffBoard);
        };
        let own = mark(seat);
        if self.get(from) != own {
            return Err(IllegalMove::NotOwnSource);
        }
        let target = self.get(to);
        if target != EMPTY && target != own {
            return Err(IllegalMove::EnemyTarget);
        }
        let distance = (fr - tr).abs().max((fc - tc).abs());
        let kind = match (distance, target == own) {
            (1, false) => MoveKind::Spread,
            (2, false) => MoveKind::Jump,
            (1, true) => MoveKind::Merge,
            (2, true) => return Err(IllegalMove::LongMerge),
            _ => return Err(IllegalMove::BadDistance),
        };
        Ok(Move { kind, from, to })
    }

    /// Plays a move of `seat` that [`Board::validate`] accepted.
    pub(crate) fn apply(&mut self, seat: usize, mv: Move) {
        let own = mark(seat);
        let block: Vec<_> = self.block(mv.to).collect();
        match mv.kind {
            MoveKind::Spread | MoveKind::Jump => {
                self.set(mv.to, own);
                for cell in block {
                    if self.get(cell) != EMPTY {
                        self.set(cell, own);
                    }
                }
            }
            MoveKind::Merge => {
                for cell in block {
                    if self.get(cell) == EMPTY {
                        self.set(cell, own);
                    }
                }
            }
        }
        if mv.kind != MoveKind::Spread {
            self.set(mv.from, EMPTY);
        }
    }
}
