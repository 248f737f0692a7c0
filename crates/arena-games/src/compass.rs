//! The eight compass directions of a square grid, shared by the games that step in them.
//! North is towards row 0: x grows east, y grows south.

/// One of the eight compass directions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compass {
    /// y − 1.
    N,
    /// x + 1, y − 1.
    NE,
    /// x + 1.
    E,
    /// x + 1, y + 1.
    SE,
    /// y + 1.
    S,
    /// x − 1, y + 1.
    SW,
    /// x − 1.
    W,
    /// x − 1, y − 1.
    NW,
}

impl Compass {
    /// All eight, clockwise from north: the order the games' rules and protocols list them in.
    pub const ALL: [Compass; 8] = [
        Compass::N,
        Compass::NE,
        Compass::E,
        Compass::SE,
        Compass::S,
        Compass::SW,
        Compass::W,
        Compass::NW,
    ];

    /// The change of (x, y) when stepping once in this direction.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Compass::N => (0, -1),
            Compass::NE => (1, -1),
            Compass::E => (1, 0),
            Compass::SE => (1, 1),
            Compass::S => (0, 1),
            Compass::SW => (-1, 1),
            Compass::W => (-1, 0),
            Compass::NW => (-1, -1),
        }
    }
}
