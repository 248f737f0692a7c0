//! What a cave holds (games/cave.md, "The cave"): positions and directions, the static layer
//! (ground, boulders, pits, items), creatures, Nurse Nina and the robots, with the queries the
//! rules and the view need. Changing the cave is `rules.rs`'s business; building it,
//! `generate.rs`'s.

/// A cell as (x, y): `x` the column growing East, `y` the row growing South; (0, 0) is the
/// NW corner (games/cave.md, "The cave").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// Column, from the West edge.
    pub x: usize,
    /// Row, from the North edge.
    pub y: usize,
}

impl Pos {
    /// A position.
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    /// Chebyshev distance: 1 for the 8 neighbours.
    pub fn distance(self, other: Pos) -> usize {
        self.x.abs_diff(other.x).max(self.y.abs_diff(other.y))
    }
}

/// A pickup item, used up on entry (games/cave.md, "Moves").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// `G`: +1 gold.
    Gold,
    /// `F`: +5 health.
    Food,
    /// `W`: cures poison.
    Water,
    /// `K`: bot attacks deal 10.
    Knife,
    /// `R`: the 11x11 view.
    Revealer,
}

/// The static layer of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ground {
    /// `-`: bare ground.
    Bare,
    /// `}`: impassable for everyone.
    Boulder,
    /// `P`: a bot entering it is stuck for 3 turns.
    Pit,
    /// An item lying on bare ground.
    Item(Item),
}

impl Ground {
    /// The symbol of the static layer (games/cave.md, "The cave").
    pub fn symbol(self) -> u8 {
        match self {
            Ground::Bare => b'-',
            Ground::Boulder => b'}',
            Ground::Pit => b'P',
            Ground::Item(Item::Gold) => b'G',
            Ground::Item(Item::Food) => b'F',
            Ground::Item(Item::Water) => b'W',
            Ground::Item(Item::Knife) => b'K',
            Ground::Item(Item::Revealer) => b'R',
        }
    }
}

/// The kind of a wandering creature (games/cave.md, "The cave").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `C`: bites adjacent bots for 1 and poisons them.
    Centipede,
    /// `B`: confuses a bot sharing its cell.
    Bats,
    /// `L`: hits adjacent bots for 10.
    Lion,
}

impl Kind {
    /// The creature's symbol.
    pub fn symbol(self) -> u8 {
        match self {
            Kind::Centipede => b'C',
            Kind::Bats => b'B',
            Kind::Lion => b'L',
        }
    }

    /// Whether it blocks bots and is blocked by them: lions and centipedes do, bats do not
    /// (games/cave.md, "A turn" and "Moves").
    pub fn blocks_bots(self) -> bool {
        self != Kind::Bats
    }
}

/// A living creature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Creature {
    /// What it is.
    pub kind: Kind,
    /// Where it is.
    pub pos: Pos,
}

/// Nurse Nina: where she is and how many more bot phases she stays (games/cave.md, "A turn").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nina {
    /// Her cell.
    pub pos: Pos,
    /// Her stay counter: she jumps in step 2d when it is 0.
    pub stay: u32,
}

/// What ended a bot (for the game's summary).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Killer {
    /// Poison in step 1.
    Poison,
    /// A creature's attack in step 2b.
    Creature(Kind),
    /// Another bot's attack, by seat.
    Bot(usize),
}

/// One robot (games/cave.md, "A turn", and the status line of "Input").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Robot {
    /// Health; the bot dies at 0 or below (games/cave.md, "A turn").
    pub health: i64,
    /// Gold collected.
    pub gold: u32,
    /// Turn ends it was alive for.
    pub turns: u32,
    /// Turns of poison left.
    pub poison: u32,
    /// Turns still stuck in a pit.
    pub pit: u32,
    /// Whether it holds a revealer.
    pub revealer: bool,
    /// Whether it holds a knife.
    pub knife: bool,
    /// Its cell (kept after death for the record; a dead bot occupies nothing).
    pub pos: Pos,
    /// `None` while alive; how and in which turn it died otherwise.
    pub death: Option<(u32, Killer)>,
    /// Whether bats shared its cell in this turn's step 2c.
    pub confused: bool,
    /// Whether it fell into a pit during this turn's bot phase.
    pub fell: bool,
}

impl Robot {
    /// Health a robot starts with.
    pub const START_HEALTH: i64 = 20;

    /// A fresh robot at `pos`.
    pub fn new(pos: Pos) -> Robot {
        Robot {
            health: Robot::START_HEALTH,
            gold: 0,
            turns: 0,
            poison: 0,
            pit: 0,
            revealer: false,
            knife: false,
            pos,
            death: None,
            confused: false,
            fell: false,
        }
    }

    /// Whether it is still in the game.
    pub fn alive(&self) -> bool {
        self.death.is_none()
    }
}

/// A whole cave: the square grid and everything in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct World {
    /// Side of the square.
    pub side: usize,
    /// The static layer, row-major.
    pub ground: Vec<Ground>,
    /// Living creatures in creation order (the order they move and attack in).
    pub creatures: Vec<Creature>,
    /// Nurse Nina.
    pub nina: Nina,
    /// The robots, by seat.
    pub robots: Vec<Robot>,
    /// Turns started so far; the current turn's number during a turn.
    pub turn: u32,
}

impl World {
    /// A cave of bare ground with Nina at `nina` and robots at `starts`, nothing else: the
    /// starting point of the generator and of rule tests.
    pub fn bare(side: usize, nina: Pos, starts: &[Pos]) -> World {
        World {
            side,
            ground: vec![Ground::Bare; side * side],
            creatures: Vec::new(),
            nina: Nina { pos: nina, stay: 3 },
            robots: starts.iter().map(|&pos| Robot::new(pos)).collect(),
            turn: 0,
        }
    }

    /// The static layer at `pos`, which must be inside.
    pub fn ground(&self, pos: Pos) -> Ground {
        self.ground[pos.y * self.side + pos.x]
    }

    /// Sets the static layer at `pos`, which must be inside.
    pub fn set_ground(&mut self, pos: Pos, ground: Ground) {
        self.ground[pos.y * self.side + pos.x] = ground;
    }

    /// The neighbour of `pos` in direction `(dx, dy)`, if it is inside the cave.
    pub fn step(&self, pos: Pos, (dx, dy): (isize, isize)) -> Option<Pos> {
        let x = pos.x.checked_add_signed(dx)?;
        let y = pos.y.checked_add_signed(dy)?;
        (x < self.side && y < self.side).then_some(Pos::new(x, y))
    }

    /// The seat of the living robot at `pos`.
    pub fn robot_at(&self, pos: Pos) -> Option<usize> {
        self.robots.iter().position(|r| r.alive() && r.pos == pos)
    }

    /// The index of the creature at `pos`.
    pub fn creature_at(&self, pos: Pos) -> Option<usize> {
        self.creatures.iter().position(|c| c.pos == pos)
    }

    /// Whether `pos` is empty in the generator's sense (games/cave.md, "The cave"): bare
    /// ground, no creature, not Nina's cell, no living robot.
    pub fn is_empty(&self, pos: Pos) -> bool {
        self.ground(pos) == Ground::Bare
            && self.creature_at(pos).is_none()
            && self.nina.pos != pos
            && self.robot_at(pos).is_none()
    }

    /// Living robots.
    pub fn alive(&self) -> usize {
        self.robots.iter().filter(|r| r.alive()).count()
    }

    /// What a viewer at seat `viewer` sees on `pos` without noise: `Y` > `@` > creature >
    /// `N` > the static layer (games/cave.md, "The cave").
    pub fn symbol(&self, pos: Pos, viewer: usize) -> u8 {
        match self.robot_at(pos) {
            Some(seat) if seat == viewer => b'Y',
            Some(_) => b'@',
            None => match self.creature_at(pos) {
                Some(index) => self.creatures[index].kind.symbol(),
                None if self.nina.pos == pos => b'N',
                None => self.ground(pos).symbol(),
            },
        }
    }
}
