//! The board of an Easter Egg Hunt run: the grid of walls, eggs and floor, the seeded
//! generator (games/eggs.md, "The board"), and fixed maps in the original `map.txt` format.
//!
//! Everything random here draws from one `ChaCha12Rng` through the shared helpers in
//! [`crate::seeded`], so that a board depends only on the seed and the ChaCha12 stream.

use std::collections::VecDeque;

use rand_chacha::ChaCha12Rng;

use crate::seeded::{below, sample};

/// The shortest and longest inner wall segment (games/eggs.md, "The board").
const WALL_LENGTHS: (u32, u32) = (2, 10);

/// One square of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Empty floor, ` `.
    Floor,
    /// A wall, `#`.
    Wall,
    /// An egg, `o`.
    Egg,
}

impl Cell {
    /// The symbol of the cell in views and map files.
    pub fn symbol(self) -> u8 {
        match self {
            Cell::Floor => b' ',
            Cell::Wall => b'#',
            Cell::Egg => b'o',
        }
    }
}

/// A square as (row, column), row 0 at the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// Row, from the top.
    pub row: usize,
    /// Column, from the left.
    pub col: usize,
}

impl Pos {
    /// A position.
    pub const fn new(row: usize, col: usize) -> Pos {
        Pos { row, col }
    }
}

/// A rectangular grid of cells. Generated boards are square; fixed maps may be rectangular,
/// and need no border: a square beyond the edge blocks moves like a wall.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    rows: usize,
    cols: usize,
    cells: Vec<Cell>,
}

impl Board {
    /// A board of floor surrounded by a ring of walls.
    fn walled(side: usize) -> Board {
        let mut board = Board {
            rows: side,
            cols: side,
            cells: vec![Cell::Floor; side * side],
        };
        for i in 0..side {
            for pos in [
                Pos::new(0, i),
                Pos::new(side - 1, i),
                Pos::new(i, 0),
                Pos::new(i, side - 1),
            ] {
                board.set(pos, Cell::Wall);
            }
        }
        board
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The cell at `pos`, or `None` beyond the edge.
    pub fn get(&self, pos: Pos) -> Option<Cell> {
        (pos.row < self.rows && pos.col < self.cols)
            .then(|| self.cells[pos.row * self.cols + pos.col])
    }

    /// Sets the cell at `pos`, which must be on the board.
    pub fn set(&mut self, pos: Pos, cell: Cell) {
        assert!(
            pos.row < self.rows && pos.col < self.cols,
            "{pos:?} is off the board"
        );
        self.cells[pos.row * self.cols + pos.col] = cell;
    }

    /// Every position holding `cell`, in row-major order.
    pub fn positions(&self, cell: Cell) -> Vec<Pos> {
        (0..self.rows)
            .flat_map(|row| (0..self.cols).map(move |col| Pos::new(row, col)))
            .filter(|&pos| self.get(pos) == Some(cell))
            .collect()
    }

    /// How many eggs are left.
    pub fn eggs(&self) -> usize {
        self.cells.iter().filter(|&&c| c == Cell::Egg).count()
    }

    /// The neighbour of `pos` at `(d_row, d_col)`, if it is on the board.
    pub fn step(&self, pos: Pos, (d_row, d_col): (isize, isize)) -> Option<Pos> {
        let row = pos.row.checked_add_signed(d_row)?;
        let col = pos.col.checked_add_signed(d_col)?;
        (row < self.rows && col < self.cols).then_some(Pos::new(row, col))
    }

    /// The non-wall squares 8-connected to `start` (a diagonal is blocked only by a wall on
    /// the target, so there is no corner rule: games/eggs.md, "What happens"), as a mask in
    /// row-major order.
    pub fn component(&self, start: Pos) -> Vec<bool> {
        let mut seen = vec![false; self.cells.len()];
        let mut queue = VecDeque::from([start]);
        seen[start.row * self.cols + start.col] = true;
        while let Some(pos) = queue.pop_front() {
            for d_row in -1..=1 {
                for d_col in -1..=1 {
                    let Some(next) = self.step(pos, (d_row, d_col)) else {
                        continue;
                    };
                    let index = next.row * self.cols + next.col;
                    if !seen[index] && self.cells[index] != Cell::Wall {
                        seen[index] = true;
                        queue.push_back(next);
                    }
                }
            }
        }
        seen
    }

    /// The floor squares players may start on: those of the component holding every egg
    /// (games/eggs.md, "The board"), so every egg is reachable from every start. `None` if there
    /// are no eggs or they are not all in one component.
    pub fn start_cells(&self) -> Option<Vec<Pos>> {
        let eggs = self.positions(Cell::Egg);
        let component = self.component(*eggs.first()?);
        let index = |pos: &Pos| pos.row * self.cols + pos.col;
        if !eggs.iter().all(|pos| component[index(pos)]) {
            return None;
        }
        let floor = self.positions(Cell::Floor);
        Some(
            floor
                .into_iter()
                .filter(|pos| component[index(pos)])
                .collect(),
        )
    }

    /// Parses a map in the original format (`map.txt`): one row per line of `#`, `o` and
    /// spaces, all rows equally long. A trailing `\r` per line and empty lines at the end of
    /// the file are ignored; trailing spaces are part of a row.
    pub fn parse(text: &str) -> Result<Board, String> {
        let mut lines: Vec<&str> = text
            .split('\n')
            .map(|line| line.strip_suffix('\r').unwrap_or(line))
            .collect();
        while lines.last().is_some_and(|line| line.is_empty()) {
            lines.pop();
        }
        let Some(first) = lines.first() else {
            return Err("the map is empty".to_owned());
        };
        let cols = first.chars().count();
        let mut cells = Vec::with_capacity(cols * lines.len());
        for (row, line) in lines.iter().enumerate() {
            let width = line.chars().count();
            if width != cols {
                return Err(format!(
                    "line {} has {width} characters, line 1 has {cols} (every row must be \
                     equally long; keep trailing spaces)",
                    row + 1
                ));
            }
            for (col, symbol) in line.chars().enumerate() {
                cells.push(match symbol {
                    ' ' => Cell::Floor,
                    '#' => Cell::Wall,
                    'o' => Cell::Egg,
                    other => {
                        return Err(format!(
                            "line {}, column {}: `{other}` is not `#`, `o` or a space",
                            row + 1,
                            col + 1
                        ));
                    }
                });
            }
        }
        Ok(Board {
            rows: lines.len(),
            cols,
            cells,
        })
    }

    /// The board in the map format, one `\n`-terminated line per row.
    pub fn render(&self) -> String {
        let mut text = String::with_capacity((self.cols + 1) * self.rows);
        for row in self.cells.chunks(self.cols) {
            text.extend(row.iter().map(|cell| char::from(cell.symbol())));
            text.push('\n');
        }
        text
    }
}

/// Generates a board sized for `size` entries and start squares for `players` of them
/// (games/eggs.md, "The board"): side `3*size` with the border, `3*size` wall segments,
/// `4*size` eggs, all in one 8-connected component with room for every player. A board
/// that fails is regenerated from the same stream.
pub fn generate(rng: &mut ChaCha12Rng, size: usize, players: usize) -> (Board, Vec<Pos>) {
    let side = 3 * size;
    loop {
        let mut board = Board::walled(side);
        for _ in 0..3 * size {
            let length = WALL_LENGTHS.0 as usize
                + below(rng, (WALL_LENGTHS.1 - WALL_LENGTHS.0 + 1) as usize);
            let horizontal = below(rng, 2) == 0;
            let row = 1 + below(rng, side - 2);
            let col = 1 + below(rng, side - 2);
            for i in 0..length {
                let pos = if horizontal {
                    Pos::new(row, col + i)
                } else {
                    Pos::new(row + i, col)
                };
                if board.get(pos).is_none() {
                    break;
                }
                board.set(pos, Cell::Wall);
            }
        }
        let floor = board.positions(Cell::Floor);
        if floor.len() < 4 * size {
            continue;
        }
        for pos in sample(rng, &floor, 4 * size) {
            board.set(pos, Cell::Egg);
        }
        if let Some(starts) = board.start_cells().filter(|s| s.len() >= players) {
            let starts = sample(rng, &starts, players);
            return (board, starts);
        }
    }
}
