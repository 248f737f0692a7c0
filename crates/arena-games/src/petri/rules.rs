//! The rules of Battle for the Petri Dish (games/petri.md, "Rules" and "Rule sets"): the dish
//! with its cells and corpses, species, which actions are legal, what they do, and who acts
//! when.
//!
//! Pure state and arithmetic. This module knows nothing of bytes (`protocol.rs` renders and
//! parses them) or of seats, answers and outcomes (`game.rs`). The two rule sets differ only
//! in the cost of a move and in the explosion; everything else is shared on purpose, so a
//! difference in results between them can only come from those two places.

use std::fmt;

use thiserror::Error;

use super::options::RuleSet;
use crate::compass::Compass;

/// How a seat is talked to, chosen by its setup reply (games/petri.md, "LOOP mode").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Framing {
    /// A fresh process per request; the request has no trailing newline (games/petri.md,
    /// "Cell requests").
    OneShot,
    /// One persistent process per game; every request is terminated by a newline so the bot
    /// can read it line by line (games/petri.md, "LOOP mode").
    Loop,
}

/// A setup reply that parsed: three integers and the requested framing. Whether the numbers
/// make a species is a rule (`rules::Species::from_raw`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RawSpecies {
    /// Maximum and starting HP, as sent.
    pub(crate) hp: i64,
    /// Maximum energy, as sent.
    pub(crate) energy: i64,
    /// Bonus explosion damage, as sent.
    pub(crate) acidity: i64,
    /// [`Framing::Loop`] if the fourth token is `LOOP`.
    pub(crate) framing: Framing,
}

/// A syntactically valid action, not yet checked against the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RawAction {
    /// `MOVE d`.
    Move(Compass),
    /// `ATTACK d s`; the strength is whatever `parseInt` made of the third token, range
    /// checks are a rule.
    Attack(Compass, i64),
    /// `DIVIDE d`.
    Divide(Compass),
    /// `EAT d`.
    Eat(Compass),
    /// `REST`.
    Rest,
    /// `EXPLODE`.
    Explode,
}

/// HP + energy + acidity of every species (games/petri.md, "The species").
const SPEC_TOTAL: i64 = 12;
/// The energy a division costs, which is also the least energy a cell needs to divide.
const DIVIDE_COST: u32 = 5;
/// The energy resting gives, and so every invalid action too.
const REST_GAIN: u32 = 2;
/// The energy eating a corpse gives.
const EAT_GAIN: u32 = 4;
/// The most HP a cell may have and still explode (games/petri.md, "Actions").
const EXPLODE_MAX_HP: i32 = 3;
/// The highest attack strength; the lowest is 1 (games/petri.md, "Actions").
const MAX_STRENGTH: u8 = 3;

/// One of the two players. `First` moves first and starts in the north-west.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    First,
    Second,
}

impl Side {
    /// Both sides in seat order.
    pub(crate) const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The seat index of this side (0 or 1).
    pub(crate) fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }

    /// The other side.
    pub(crate) fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// Seat-neutral names, because the driver, not the engine, knows which bot sits where.
impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.index())
    }
}

/// A species' constants, chosen once per game by its player (games/petri.md, "The species").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Species {
    /// Maximum and starting HP of every cell.
    hp: u8,
    /// Maximum energy of every cell, and the first cell's starting energy.
    energy: u8,
    /// Extra explosion damage under the text rules.
    acidity: u8,
}

/// Why a parsed setup reply does not give a playable species. Every case forfeits the game
/// (games/petri.md, "Fallbacks"); only the first two are invalid replies, because the text
/// explicitly allows zero HP or energy (it just loses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub(crate) enum SpeciesError {
    #[error("has a negative value")]
    Negative,
    #[error("does not add up to 12")]
    WrongSum,
    #[error("has 0 HP")]
    ZeroHp,
    #[error("has 0 energy")]
    ZeroEnergy,
}

impl SpeciesError {
    /// Why the reply broke the protocol, or `None` for a losing species that is allowed.
    pub(crate) fn invalid_reason(self) -> Option<&'static str> {
        match self {
            SpeciesError::Negative => Some("the species has a negative value"),
            SpeciesError::WrongSum => Some("the species does not add up to 12"),
            SpeciesError::ZeroHp | SpeciesError::ZeroEnergy => None,
        }
    }
}

impl Species {
    /// Checks a setup reply's numbers: non-negative, adding up to 12, HP and energy not 0.
    pub(crate) fn from_raw(raw: &RawSpecies) -> Result<Species, SpeciesError> {
        let values = [raw.hp, raw.energy, raw.acidity];
        if values.iter().any(|&value| value < 0) {
            return Err(SpeciesError::Negative);
        }
        let sum = values
            .iter()
            .try_fold(0_i64, |sum, &value| sum.checked_add(value));
        if sum != Some(SPEC_TOTAL) {
            return Err(SpeciesError::WrongSum);
        }
        let [hp, energy, acidity] =
            values.map(|value| u8::try_from(value).expect("three non-negatives adding to 12"));
        match (hp, energy) {
            (0, _) => Err(SpeciesError::ZeroHp),
            (_, 0) => Err(SpeciesError::ZeroEnergy),
            _ => Ok(Species {
                hp,
                energy,
                acidity,
            }),
        }
    }
}

/// A cell's identity: its index in creation order over the whole game. Since ids only grow,
/// sorting a side's cells by id is sorting them oldest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct CellId(usize);

/// A square of the dish, as (x, y) with x the column and y the row from the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pos {
    x: u16,
    y: u16,
}

/// A cell, living or dead. Dead cells stay in the dish's cell list (their ids are never
/// reused) but no longer occupy a square.
#[derive(Debug, Clone)]
pub(crate) struct Cell {
    side: Side,
    pos: Pos,
    /// Current HP; the cell is dead once it is 0 or less.
    hp: i32,
    /// Current energy, never above the species maximum.
    energy: u32,
}

impl Cell {
    /// The owner.
    pub(crate) fn side(&self) -> Side {
        self.side
    }

    /// The column.
    pub(crate) fn x(&self) -> u16 {
        self.pos.x
    }

    /// The row, counted from the top.
    pub(crate) fn y(&self) -> u16 {
        self.pos.y
    }

    /// Current HP.
    pub(crate) fn hp(&self) -> i32 {
        self.hp
    }

    /// Current energy.
    pub(crate) fn energy(&self) -> u32 {
        self.energy
    }

    fn alive(&self) -> bool {
        self.hp > 0
    }
}

/// What a square holds. A square holds a cell id only while that cell lives: a cell that
/// dies is replaced by a corpse at once (games/petri.md, "Cells").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Square {
    Empty,
    Corpse,
    Cell(CellId),
}

/// What a square holds, as far as anyone outside the rules needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Contents {
    Empty,
    Corpse,
    Living(Side),
}

/// A legal action of a particular cell, with its target resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    Move(Pos),
    Attack { target: CellId, strength: u8 },
    Divide(Pos),
    Eat(Pos),
    Rest,
    Explode,
}

/// Why a well-formed action is not legal for the acting cell right now. Every case is
/// played as REST (games/petri.md, "Actions").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Illegal {
    /// The destination is outside the dish.
    OffGrid,
    /// MOVE or DIVIDE onto a living cell.
    Occupied,
    /// Not enough energy for the action.
    NoEnergy,
    /// An attack strength other than 1, 2 or 3.
    Strength,
    /// ATTACK on a square without a living cell.
    NoTarget,
    /// EAT on a square without a corpse.
    NoCorpse,
    /// EXPLODE with HP above 3 or energy not above HP.
    CannotExplode,
}

impl Illegal {
    /// Why, in words: a rejection's reason and `arena check`'s verdict.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Illegal::OffGrid => "the target square is off the dish",
            Illegal::Occupied => "the target square holds a living cell",
            Illegal::NoEnergy => "not enough energy",
            Illegal::Strength => "the attack strength is not 1, 2 or 3",
            Illegal::NoTarget => "there is no cell to attack there",
            Illegal::NoCorpse => "there is no corpse to eat there",
            Illegal::CannotExplode => "exploding needs HP 3 or less and more energy than HP",
        }
    }
}

/// What happens next in the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Next {
    /// This cell acts now; the engine asks its owner what it does.
    Act(CellId),
    /// The game is over.
    Over(Ending),
}

/// How a game that was played (not forfeited) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// A side (or both) lost its last cell during `mover`'s turn number `turn`.
    Eliminated {
        /// The side with living cells left; `None` if both died together (a draw).
        survivor: Option<Side>,
        mover: Side,
        turn: u32,
        living: [usize; 2],
    },
    /// Both sides completed `turns` turns; more living cells wins.
    TurnLimit { turns: u32, living: [usize; 2] },
}

impl Ending {
    /// The winner, or `None` for a draw.
    pub(crate) fn winner(&self) -> Option<Side> {
        match *self {
            Ending::Eliminated { survivor, .. } => survivor,
            Ending::TurnLimit { living, .. } => match living[0].cmp(&living[1]) {
                std::cmp::Ordering::Greater => Some(Side::First),
                std::cmp::Ordering::Less => Some(Side::Second),
                std::cmp::Ordering::Equal => None,
            },
        }
    }
}

/// The one-line account used as the game's summary.
impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Ending::Eliminated {
                survivor: Some(survivor),
                mover,
                turn,
                living,
            } => write!(
                f,
                "{} eliminated during turn {turn} of {mover} ({survivor} has {} left)",
                survivor.opponent(),
                Cells(living[survivor.index()]),
            ),
            Ending::Eliminated {
                survivor: None,
                mover,
                turn,
                ..
            } => write!(f, "both sides eliminated during turn {turn} of {mover}"),
            Ending::TurnLimit { turns, living } => write!(
                f,
                "turn limit after {turns} turns each: seat 0 has {}, seat 1 has {}",
                Cells(living[0]),
                Cells(living[1]),
            ),
        }
    }
}

/// "1 cell", "5 cells".
struct Cells(usize);

impl fmt::Display for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.0 == 1 { "" } else { "s" };
        write!(f, "{} cell{plural}", self.0)
    }
}

/// Where a player turn stands.
#[derive(Debug, Clone, Copy)]
struct Turn {
    side: Side,
    /// 1-based count of this side's turns.
    number: u32,
    /// How many of the side's cells existed when the turn began: cells born during the turn
    /// sit after them in the list and wait for the next turn (games/petri.md, "Turns").
    len: usize,
    /// Index into the side's list of the next cell to act.
    next: usize,
}

/// The whole game state after setup: the grid, every cell ever born, and the turn.
#[derive(Debug, Clone)]
pub(crate) struct Dish {
    width: u16,
    height: u16,
    rules: RuleSet,
    /// Turns per side before the game is decided by counting cells.
    turns: u32,
    species: [Species; 2],
    /// Row-major, `width * height` squares.
    squares: Vec<Square>,
    /// Every cell ever born, indexed by [`CellId`].
    cells: Vec<Cell>,
    /// Each side's cells in creation order (the order they act in); dead cells are dropped
    /// between turns.
    order: [Vec<CellId>; 2],
    /// Living cells per side, kept up to date so the elimination check after every action
    /// costs nothing.
    living: [usize; 2],
    turn: Turn,
}

impl Dish {
    /// A new game: one cell per side with full HP and energy, the first side's at (1, 1)
    /// and the second side's at (W-2, H-2) (games/petri.md, "The dish"). The first side moves
    /// first.
    pub(crate) fn new(
        width: u16,
        height: u16,
        turns: u32,
        rules: RuleSet,
        species: [Species; 2],
    ) -> Dish {
        let mut dish = Dish::empty(width, height, turns, rules, species);
        let starts = [
            Pos { x: 1, y: 1 },
            Pos {
                x: width - 2,
                y: height - 2,
            },
        ];
        for (side, pos) in Side::BOTH.into_iter().zip(starts) {
            dish.spawn(side, pos, u32::from(species[side.index()].energy));
        }
        dish.begin_turn(Side::First, 1);
        dish
    }

    fn empty(width: u16, height: u16, turns: u32, rules: RuleSet, species: [Species; 2]) -> Dish {
        Dish {
            width,
            height,
            rules,
            turns,
            species,
            squares: vec![Square::Empty; usize::from(width) * usize::from(height)],
            cells: Vec::new(),
            order: [Vec::new(), Vec::new()],
            living: [0, 0],
            turn: Turn {
                side: Side::First,
                number: 1,
                len: 0,
                next: 0,
            },
        }
    }

    /// Width and height.
    pub(crate) fn size(&self) -> (u16, u16) {
        (self.width, self.height)
    }

    /// A cell by id; ids come from [`Next::Act`], so they always exist.
    pub(crate) fn cell(&self, id: CellId) -> &Cell {
        &self.cells[id.0]
    }

    /// The squares in row-major order (the order of the request's rows).
    pub(crate) fn squares(&self) -> impl Iterator<Item = Contents> + '_ {
        self.squares.iter().map(|&square| self.contents(square))
    }

    /// The squares row by row, north first (the request's rows).
    pub(crate) fn rows(
        &self,
    ) -> impl Iterator<Item = impl ExactSizeIterator<Item = Contents> + '_> + '_ {
        self.squares
            .chunks(usize::from(self.width))
            .map(|row| row.iter().map(|&square| self.contents(square)))
    }

    fn contents(&self, square: Square) -> Contents {
        match square {
            Square::Empty => Contents::Empty,
            Square::Corpse => Contents::Corpse,
            Square::Cell(id) => Contents::Living(self.cells[id.0].side),
        }
    }

    /// The cell that acts next, or how the game ended. Checks for elimination first (so the
    /// check follows every action), skips cells killed earlier in their own turn (they do not
    /// act), and moves on to the next player turn when one is done (games/petri.md, "Turns").
    /// Calling it again without [`Dish::act`] in between gives the same answer.
    pub(crate) fn next(&mut self) -> Next {
        loop {
            if let Some(ending) = self.elimination() {
                return Next::Over(ending);
            }
            if let Some(&id) = self.waiting().first() {
                if self.cells[id.0].alive() {
                    return Next::Act(id);
                }
                self.turn.next += 1;
                continue;
            }
            let Turn { side, number, .. } = self.turn;
            if side == Side::Second && number == self.turns {
                return Next::Over(Ending::TurnLimit {
                    turns: self.turns,
                    living: self.living,
                });
            }
            match side {
                Side::First => self.begin_turn(Side::Second, number),
                Side::Second => self.begin_turn(Side::First, number + 1),
            }
        }
    }

    /// The side whose turn it is.
    pub(crate) fn mover(&self) -> Side {
        self.turn.side
    }

    /// Living cells per side.
    pub(crate) fn living(&self) -> [usize; 2] {
        self.living
    }

    /// Player turns completed, both sides counted: the current turn counts once none of its
    /// cells is left to act (those not reached yet but dead are skipped, games/petri.md,
    /// "Turns").
    pub(crate) fn turns_done(&self) -> u32 {
        let Turn { side, number, .. } = self.turn;
        let finished = self.waiting().iter().all(|id| !self.cells[id.0].alive());
        (number - 1) * 2 + side.index() as u32 + u32::from(finished)
    }

    /// Checks `raw` for the cell [`Dish::next`] named.
    pub(crate) fn validate(&self, raw: RawAction) -> Result<Action, Illegal> {
        self.check(self.actor(), raw)
    }

    /// The cell [`Dish::next`] named performs `action` (from [`Dish::validate`], or
    /// [`Action::Rest`] as the fallback), and the turn moves on to the following cell.
    pub(crate) fn act(&mut self, action: Action) {
        self.apply(self.actor(), action);
        self.turn.next += 1;
    }

    fn actor(&self) -> CellId {
        let id = *self
            .waiting()
            .first()
            .expect("a cell acts only after next() named it");
        debug_assert!(self.cells[id.0].alive(), "next() names living cells only");
        id
    }

    /// The current turn's cells that have not acted yet, in order (the dead among them
    /// included; cells born during the turn excluded).
    fn waiting(&self) -> &[CellId] {
        let Turn {
            side, len, next, ..
        } = self.turn;
        &self.order[side.index()][next.min(len)..len]
    }

    fn begin_turn(&mut self, side: Side, number: u32) {
        // Dead cells are dropped here, between turns, so no index of a running turn shifts.
        let cells = &self.cells;
        for list in &mut self.order {
            list.retain(|id| cells[id.0].alive());
        }
        self.turn = Turn {
            side,
            number,
            len: self.order[side.index()].len(),
            next: 0,
        };
    }

    fn elimination(&self) -> Option<Ending> {
        let survivor = match self.living {
            [0, 0] => None,
            [_, 0] => Some(Side::First),
            [0, _] => Some(Side::Second),
            _ => return None,
        };
        Some(Ending::Eliminated {
            survivor,
            mover: self.turn.side,
            turn: self.turn.number,
            living: self.living,
        })
    }

    /// The legality check of every action (games/petri.md, "Actions"), for any living cell.
    fn check(&self, actor: CellId, raw: RawAction) -> Result<Action, Illegal> {
        let cell = &self.cells[actor.0];
        let action = match raw {
            RawAction::Rest => Action::Rest,
            RawAction::Move(direction) => {
                let to = self.open_neighbour(cell.pos, direction)?;
                // Both rule sets demand energy for a move, even the driver's free one.
                if cell.energy < 1 {
                    return Err(Illegal::NoEnergy);
                }
                Action::Move(to)
            }
            RawAction::Divide(direction) => {
                let to = self.open_neighbour(cell.pos, direction)?;
                if cell.energy < DIVIDE_COST {
                    return Err(Illegal::NoEnergy);
                }
                Action::Divide(to)
            }
            RawAction::Eat(direction) => {
                let to = self.neighbour(cell.pos, direction)?;
                if self.square(to) != Square::Corpse {
                    return Err(Illegal::NoCorpse);
                }
                Action::Eat(to)
            }
            RawAction::Attack(direction, strength) => {
                let strength = u8::try_from(strength)
                    .ok()
                    .filter(|strength| (1..=MAX_STRENGTH).contains(strength))
                    .ok_or(Illegal::Strength)?;
                let to = self.neighbour(cell.pos, direction)?;
                let Square::Cell(target) = self.square(to) else {
                    return Err(Illegal::NoTarget);
                };
                if cell.energy < u32::from(strength) {
                    return Err(Illegal::NoEnergy);
                }
                Action::Attack { target, strength }
            }
            RawAction::Explode => {
                // Current values, not the species maxima (games/petri.md, "Actions").
                if cell.hp > EXPLODE_MAX_HP || i64::from(cell.energy) <= i64::from(cell.hp) {
                    return Err(Illegal::CannotExplode);
                }
                Action::Explode
            }
        };
        Ok(action)
    }

    /// Carries out a legal action of a living cell (games/petri.md, "Actions").
    fn apply(&mut self, actor: CellId, action: Action) {
        match action {
            Action::Rest => self.gain(actor, REST_GAIN),
            Action::Move(to) => {
                let cost = match self.rules {
                    RuleSet::Text => 1,
                    // The driver checks for energy but never charges it (games/petri.md,
                    // "Rule sets").
                    RuleSet::PetriJs => 0,
                };
                let cell = &mut self.cells[actor.0];
                cell.energy -= cost;
                let from = std::mem::replace(&mut cell.pos, to);
                let from = self.index(from);
                self.squares[from] = Square::Empty;
                // A corpse on `to` is overwritten, which destroys it.
                let to = self.index(to);
                self.squares[to] = Square::Cell(actor);
            }
            Action::Attack { target, strength } => {
                self.cells[actor.0].energy -= u32::from(strength);
                self.damage(target, i32::from(strength));
            }
            Action::Divide(to) => {
                let parent = &mut self.cells[actor.0];
                parent.energy -= DIVIDE_COST;
                // The child starts with what the parent has left (games/petri.md, "Actions").
                let (side, energy) = (parent.side, parent.energy);
                self.spawn(side, to, energy);
            }
            Action::Eat(to) => {
                let to = self.index(to);
                self.squares[to] = Square::Empty;
                self.gain(actor, EAT_GAIN);
            }
            Action::Explode => self.explode(actor),
        }
    }

    fn explode(&mut self, actor: CellId) {
        let centre = self.cells[actor.0].pos;
        match self.rules {
            RuleSet::Text => {
                // The damage is fixed before anybody is hurt, so all eight neighbours are
                // hit alike, friend or foe (games/petri.md, "Actions").
                let cell = &self.cells[actor.0];
                let damage = cell.hp + i32::from(self.species[cell.side.index()].acidity);
                for direction in Compass::ALL {
                    if let Ok(pos) = self.neighbour(centre, direction) {
                        if let Square::Cell(target) = self.square(pos) {
                            self.damage(target, damage);
                        }
                    }
                }
                self.kill(actor);
            }
            RuleSet::PetriJs => {
                // The driver's loop, faithfully: dx outer, dy inner, through the cell's own
                // square, subtracting the exploder's HP as it is at that moment. The self-hit
                // at (0, 0) brings that HP to 0, so the squares visited after it (S, NE, E,
                // SE) take no damage; acidity is never used (games/petri.md, "Rule sets").
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        let Some(pos) = self.offset(centre, (dx, dy)) else {
                            continue;
                        };
                        if let Square::Cell(target) = self.square(pos) {
                            let damage = self.cells[actor.0].hp;
                            self.damage(target, damage);
                        }
                    }
                }
            }
        }
    }

    /// Adds a cell with full HP, the youngest of all, on an empty or corpse square.
    fn spawn(&mut self, side: Side, pos: Pos, energy: u32) {
        let id = CellId(self.cells.len());
        self.cells.push(Cell {
            side,
            pos,
            hp: i32::from(self.species[side.index()].hp),
            energy,
        });
        let index = self.index(pos);
        self.squares[index] = Square::Cell(id);
        self.order[side.index()].push(id);
        self.living[side.index()] += 1;
    }

    fn damage(&mut self, target: CellId, amount: i32) {
        let cell = &mut self.cells[target.0];
        cell.hp -= amount;
        if !cell.alive() {
            self.kill(target);
        }
    }

    /// Turns a living cell into a corpse on its square.
    fn kill(&mut self, id: CellId) {
        let cell = &mut self.cells[id.0];
        cell.hp = cell.hp.min(0);
        let (side, pos) = (cell.side, cell.pos);
        let index = self.index(pos);
        self.squares[index] = Square::Corpse;
        self.living[side.index()] -= 1;
    }

    /// Energy gains are capped at the species maximum; the excess is lost (games/petri.md,
    /// "Cells").
    fn gain(&mut self, id: CellId, amount: u32) {
        let cell = &mut self.cells[id.0];
        let max = u32::from(self.species[cell.side.index()].energy);
        cell.energy = (cell.energy + amount).min(max);
    }

    fn neighbour(&self, from: Pos, direction: Compass) -> Result<Pos, Illegal> {
        self.offset(from, direction.delta()).ok_or(Illegal::OffGrid)
    }

    /// The neighbour in `direction` if it holds no living cell (MOVE and DIVIDE targets).
    fn open_neighbour(&self, from: Pos, direction: Compass) -> Result<Pos, Illegal> {
        let to = self.neighbour(from, direction)?;
        match self.square(to) {
            Square::Cell(_) => Err(Illegal::Occupied),
            Square::Empty | Square::Corpse => Ok(to),
        }
    }

    fn offset(&self, from: Pos, (dx, dy): (isize, isize)) -> Option<Pos> {
        let x = u16::try_from(usize::from(from.x).checked_add_signed(dx)?).ok()?;
        let y = u16::try_from(usize::from(from.y).checked_add_signed(dy)?).ok()?;
        (x < self.width && y < self.height).then_some(Pos { x, y })
    }

    fn index(&self, pos: Pos) -> usize {
        usize::from(pos.y) * usize::from(self.width) + usize::from(pos.x)
    }

    fn square(&self, pos: Pos) -> Square {
        self.squares[self.index(pos)]
    }
}

/// A test helper: species built directly, for values setup would refuse or not need.
#[cfg(test)]
impl Species {
    /// A species without the setup checks.
    pub(crate) const fn new(hp: u8, energy: u8, acidity: u8) -> Species {
        Species {
            hp,
            energy,
            acidity,
        }
    }
}

/// Dishes drawn as pictures (test positions and `arena check`'s probes), and for tests the
/// invariants every state must keep.
impl Dish {
    /// A dish drawn as rows of `o` (first side), `x` (second side), `c` (corpse) and `.`;
    /// cells are created in reading order with full HP and energy, and the first side's
    /// turn 1 is about to begin.
    pub(crate) fn from_picture(
        rows: &[&str],
        turns: u32,
        rules: RuleSet,
        species: [Species; 2],
    ) -> Dish {
        let width = u16::try_from(rows[0].len()).expect("test picture width");
        let height = u16::try_from(rows.len()).expect("test picture height");
        let mut dish = Dish::empty(width, height, turns, rules, species);
        for (y, row) in (0..).zip(rows) {
            assert_eq!(row.len(), usize::from(width), "ragged test picture");
            for (x, symbol) in (0..).zip(row.bytes()) {
                let pos = Pos { x, y };
                match symbol {
                    b'o' | b'x' => {
                        let side = if symbol == b'o' {
                            Side::First
                        } else {
                            Side::Second
                        };
                        let energy = u32::from(species[side.index()].energy);
                        dish.spawn(side, pos, energy);
                    }
                    b'c' => {
                        let index = dish.index(pos);
                        dish.squares[index] = Square::Corpse;
                    }
                    b'.' => {}
                    other => panic!("unknown picture symbol {:?}", char::from(other)),
                }
            }
        }
        dish.begin_turn(Side::First, 1);
        dish
    }

    #[cfg(test)]
    /// The dish drawn like [`Dish::from_picture`] reads it (`o` is always the first side).
    pub(crate) fn picture(&self) -> Vec<String> {
        let symbols: Vec<char> = self
            .squares()
            .map(|contents| match contents {
                Contents::Empty => '.',
                Contents::Corpse => 'c',
                Contents::Living(Side::First) => 'o',
                Contents::Living(Side::Second) => 'x',
            })
            .collect();
        symbols
            .chunks(usize::from(self.width))
            .map(|row| row.iter().collect())
            .collect()
    }

    /// The living cell at (x, y).
    #[cfg(test)]
    pub(crate) fn at(&self, x: u16, y: u16) -> CellId {
        match self.square(Pos { x, y }) {
            Square::Cell(id) => id,
            other => panic!("no living cell at ({x}, {y}) but {other:?}"),
        }
    }

    /// Sets a cell's current HP and energy.
    pub(crate) fn set(&mut self, id: CellId, hp: i32, energy: u32) {
        let cell = &mut self.cells[id.0];
        cell.hp = hp;
        cell.energy = energy;
    }

    #[cfg(test)]
    /// Every invariant the rules promise, as a description of the first one broken.
    pub(crate) fn check_invariants(&self) -> Result<(), String> {
        if self.squares.len() != usize::from(self.width) * usize::from(self.height) {
            return Err("square count".into());
        }
        let mut living = [0; 2];
        for (index, cell) in self.cells.iter().enumerate() {
            let species = self.species[cell.side.index()];
            if cell.energy > u32::from(species.energy) {
                return Err(format!("cell {index} has energy {}", cell.energy));
            }
            if cell.hp > i32::from(species.hp) {
                return Err(format!("cell {index} has HP {}", cell.hp));
            }
            let here = self.square(cell.pos);
            if cell.alive() {
                living[cell.side.index()] += 1;
                if here != Square::Cell(CellId(index)) {
                    return Err(format!("living cell {index} is not on its square"));
                }
                let listed = self.order[cell.side.index()]
                    .iter()
                    .filter(|id| id.0 == index)
                    .count();
                if listed != 1 {
                    return Err(format!("living cell {index} listed {listed} times"));
                }
            }
        }
        for square in &self.squares {
            if let Square::Cell(id) = *square {
                if !self.cells[id.0].alive() {
                    return Err(format!("dead cell {} occupies a square", id.0));
                }
            }
        }
        let on_board = self
            .squares
            .iter()
            .filter(|square| matches!(square, Square::Cell(_)))
            .count();
        if on_board != living[0] + living[1] || living != self.living {
            return Err(format!(
                "{on_board} cells on the board, {living:?} alive, {:?} counted",
                self.living
            ));
        }
        for list in &self.order {
            if !list.is_sorted() {
                return Err("a side's cells are out of creation order".into());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: RuleSet = RuleSet::Text;
    const JS: RuleSet = RuleSet::PetriJs;
    /// A species with room to see every cap and cost: 5 HP, 6 energy, acidity 1.
    const SPECIES: Species = Species::new(5, 6, 1);

    fn dish(rows: &[&str], rules: RuleSet) -> Dish {
        Dish::from_picture(rows, 150, rules, [SPECIES, SPECIES])
    }

    /// Makes the cell at (x, y) perform `raw`, the way the engine does: invalid means REST.
    fn perform(dish: &mut Dish, (x, y): (u16, u16), raw: RawAction) -> Result<Action, Illegal> {
        let actor = dish.at(x, y);
        let checked = dish.check(actor, raw);
        dish.apply(actor, checked.unwrap_or(Action::Rest));
        dish.check_invariants().expect("invariants hold");
        checked
    }

    fn stats(dish: &Dish, x: u16, y: u16) -> (i32, u32) {
        let cell = dish.cell(dish.at(x, y));
        (cell.hp(), cell.energy())
    }

    fn raw(species: (i64, i64, i64)) -> RawSpecies {
        RawSpecies {
            hp: species.0,
            energy: species.1,
            acidity: species.2,
            framing: Framing::OneShot,
        }
    }

    #[test]
    fn species_must_be_non_negative_add_up_to_12_and_have_hp_and_energy() {
        assert_eq!(
            Species::from_raw(&raw((5, 6, 1))),
            Ok(Species::new(5, 6, 1))
        );
        assert_eq!(
            Species::from_raw(&raw((12, 12, -12))),
            Err(SpeciesError::Negative)
        );
        assert_eq!(
            Species::from_raw(&raw((4, 4, 5))),
            Err(SpeciesError::WrongSum)
        );
        assert_eq!(
            Species::from_raw(&raw((i64::MAX, i64::MAX, 2))),
            Err(SpeciesError::WrongSum)
        );
        assert_eq!(
            Species::from_raw(&raw((0, 6, 6))),
            Err(SpeciesError::ZeroHp)
        );
        assert_eq!(
            Species::from_raw(&raw((6, 0, 6))),
            Err(SpeciesError::ZeroEnergy)
        );
        assert!(SpeciesError::WrongSum.invalid_reason().is_some());
        assert_eq!(SpeciesError::ZeroHp.invalid_reason(), None);
    }

    #[test]
    fn new_dish_places_full_cells_at_the_start_squares() {
        let mut dish = Dish::new(10, 4, 150, TEXT, [SPECIES, Species::new(4, 8, 0)]);
        assert_eq!(
            dish.picture(),
            ["..........", ".o........", "........x.", ".........."]
        );
        assert_eq!(stats(&dish, 1, 1), (5, 6));
        assert_eq!(stats(&dish, 8, 2), (4, 8));
        assert_eq!(dish.next(), Next::Act(dish.at(1, 1)));
    }

    #[test]
    fn move_costs_one_energy_under_the_text_rules_and_nothing_under_petri_js() {
        for (rules, energy) in [(TEXT, 5), (JS, 6)] {
            let mut dish = dish(&["o..", "..x"], rules);
            assert_eq!(
                perform(&mut dish, (0, 0), RawAction::Move(Compass::E)),
                Ok(Action::Move(Pos { x: 1, y: 0 }))
            );
            assert_eq!(dish.picture(), [".o.", "..x"]);
            assert_eq!(stats(&dish, 1, 0), (5, energy), "{rules:?}");
        }
    }

    #[test]
    fn move_needs_one_energy_in_both_rule_sets() {
        for rules in [TEXT, JS] {
            let mut dish = dish(&["o..", "..x"], rules);
            dish.set(dish.at(0, 0), 5, 0);
            assert_eq!(
                perform(&mut dish, (0, 0), RawAction::Move(Compass::E)),
                Err(Illegal::NoEnergy)
            );
            assert_eq!(dish.picture(), ["o..", "..x"]);
            assert_eq!(stats(&dish, 0, 0), (5, 2), "the fallback is a rest");
        }
    }

    #[test]
    fn move_off_the_grid_or_onto_a_living_cell_is_a_rest() {
        let mut dish = dish(&["oo.", "..x"], TEXT);
        dish.set(dish.at(0, 0), 5, 1);
        for direction in [
            Compass::N,
            Compass::NW,
            Compass::W,
            Compass::SW,
            Compass::NE,
        ] {
            assert_eq!(
                perform(&mut dish, (0, 0), RawAction::Move(direction)),
                Err(Illegal::OffGrid)
            );
            dish.set(dish.at(0, 0), 5, 1);
        }
        assert_eq!(
            perform(&mut dish, (0, 0), RawAction::Move(Compass::E)),
            Err(Illegal::Occupied)
        );
        assert_eq!(stats(&dish, 0, 0), (5, 3));
        assert_eq!(
            perform(&mut dish, (1, 0), RawAction::Move(Compass::SE)),
            Err(Illegal::Occupied),
            "enemies block too"
        );
        assert_eq!(dish.picture(), ["oo.", "..x"]);
    }

    #[test]
    fn moving_onto_a_corpse_destroys_it() {
        let mut dish = dish(&["oc.", "..x"], TEXT);
        perform(&mut dish, (0, 0), RawAction::Move(Compass::E)).expect("legal");
        assert_eq!(dish.picture(), [".o.", "..x"]);
        assert_eq!(
            stats(&dish, 1, 0),
            (5, 5),
            "no energy from a trampled corpse"
        );
        perform(&mut dish, (1, 0), RawAction::Move(Compass::W)).expect("legal");
        assert_eq!(
            dish.picture(),
            ["o..", "..x"],
            "the corpse is gone for good"
        );
    }

    #[test]
    fn attack_costs_its_strength_and_deals_it_as_damage_in_both_rule_sets() {
        for rules in [TEXT, JS] {
            for strength in 1..=3 {
                let mut dish = dish(&["ox"], rules);
                let target = dish.at(1, 0);
                let checked = perform(&mut dish, (0, 0), RawAction::Attack(Compass::E, strength));
                assert_eq!(
                    checked,
                    Ok(Action::Attack {
                        target,
                        strength: strength as u8
                    })
                );
                assert_eq!(stats(&dish, 0, 0), (5, 6 - strength as u32));
                assert_eq!(stats(&dish, 1, 0), (5 - strength as i32, 6));
            }
        }
    }

    #[test]
    fn attack_kills_at_zero_hp_and_leaves_a_corpse() {
        let mut dish = dish(&["ox", ".."], TEXT);
        dish.set(dish.at(1, 0), 3, 6);
        perform(&mut dish, (0, 0), RawAction::Attack(Compass::E, 2)).expect("legal");
        assert_eq!(stats(&dish, 1, 0), (1, 6));
        perform(&mut dish, (0, 0), RawAction::Attack(Compass::E, 3)).expect("legal");
        assert_eq!(dish.picture(), ["oc", ".."]);
        assert_eq!(dish.living(), [1, 0]);
    }

    #[test]
    fn attacking_a_friend_is_legal() {
        let mut dish = dish(&["oo", ".x"], TEXT);
        perform(&mut dish, (0, 0), RawAction::Attack(Compass::E, 3)).expect("legal");
        assert_eq!(stats(&dish, 1, 0), (2, 6));
    }

    #[test]
    fn every_illegal_attack_is_a_rest() {
        let mut dish = dish(&["oc.", "..x"], TEXT);
        for (raw, why) in [
            (RawAction::Attack(Compass::E, 0), Illegal::Strength),
            (RawAction::Attack(Compass::E, 4), Illegal::Strength),
            (RawAction::Attack(Compass::E, -1), Illegal::Strength),
            (RawAction::Attack(Compass::E, i64::MAX), Illegal::Strength),
            (RawAction::Attack(Compass::N, 1), Illegal::OffGrid),
            (RawAction::Attack(Compass::E, 1), Illegal::NoTarget),
            (RawAction::Attack(Compass::S, 1), Illegal::NoTarget),
        ] {
            dish.set(dish.at(0, 0), 5, 1);
            assert_eq!(perform(&mut dish, (0, 0), raw), Err(why), "{raw:?}");
            assert_eq!(stats(&dish, 0, 0), (5, 3));
        }
        let mut dish = dish_with_neighbour_enemy();
        dish.set(dish.at(0, 0), 5, 2);
        assert_eq!(
            perform(&mut dish, (0, 0), RawAction::Attack(Compass::E, 3)),
            Err(Illegal::NoEnergy)
        );
        assert_eq!(stats(&dish, 1, 0), (5, 6), "the target is unharmed");
        assert_eq!(stats(&dish, 0, 0), (5, 4));
    }

    fn dish_with_neighbour_enemy() -> Dish {
        dish(&["ox."], TEXT)
    }

    #[test]
    fn divide_splits_the_energy_left_after_paying_five() {
        for (energy, left) in [(8, 3), (6, 1), (5, 0)] {
            let species = Species::new(3, 8, 1);
            let mut dish = Dish::from_picture(&["o.", ".x"], 150, TEXT, [species, species]);
            dish.set(dish.at(0, 0), 2, energy);
            let checked = perform(&mut dish, (0, 0), RawAction::Divide(Compass::E));
            assert_eq!(checked, Ok(Action::Divide(Pos { x: 1, y: 0 })));
            assert_eq!(dish.picture(), ["oo", ".x"]);
            assert_eq!(stats(&dish, 0, 0), (2, left), "the parent keeps its HP");
            assert_eq!(stats(&dish, 1, 0), (3, left), "the child has full HP");
        }
    }

    #[test]
    fn divide_is_the_same_in_both_rule_sets_and_destroys_a_corpse() {
        for rules in [TEXT, JS] {
            let mut dish = dish(&["oc", ".x"], rules);
            perform(&mut dish, (0, 0), RawAction::Divide(Compass::E)).expect("legal");
            assert_eq!(dish.picture(), ["oo", ".x"]);
            assert_eq!(stats(&dish, 1, 0), (5, 1));
        }
    }

    #[test]
    fn every_illegal_divide_is_a_rest() {
        let mut dish = dish(&["o.x", "..."], TEXT);
        dish.set(dish.at(0, 0), 5, 4);
        assert_eq!(
            perform(&mut dish, (0, 0), RawAction::Divide(Compass::E)),
            Err(Illegal::NoEnergy)
        );
        assert_eq!(stats(&dish, 0, 0), (5, 6));
        assert_eq!(
            perform(&mut dish, (0, 0), RawAction::Divide(Compass::W)),
            Err(Illegal::OffGrid)
        );
        assert_eq!(
            perform(&mut dish, (0, 0), RawAction::Divide(Compass::N)),
            Err(Illegal::OffGrid)
        );
        let mut dish = dish_with_neighbour_enemy();
        assert_eq!(
            perform(&mut dish, (0, 0), RawAction::Divide(Compass::E)),
            Err(Illegal::Occupied)
        );
        assert_eq!(dish.living(), [1, 1]);
    }

    #[test]
    fn eat_removes_the_corpse_and_gains_four_energy_capped_at_the_maximum() {
        for rules in [TEXT, JS] {
            let mut dish = dish(&["oc", "cx"], rules);
            dish.set(dish.at(0, 0), 5, 1);
            assert_eq!(
                perform(&mut dish, (0, 0), RawAction::Eat(Compass::E)),
                Ok(Action::Eat(Pos { x: 1, y: 0 }))
            );
            assert_eq!(dish.picture(), ["o.", "cx"]);
            assert_eq!(stats(&dish, 0, 0), (5, 5));
            perform(&mut dish, (0, 0), RawAction::Eat(Compass::S))
                .expect("eating at 5 of 6 is legal");
            assert_eq!(dish.picture(), ["o.", ".x"]);
            assert_eq!(stats(&dish, 0, 0), (5, 6), "5 + 4 is capped at 6");
        }
    }

    #[test]
    fn eating_at_full_energy_still_consumes_the_corpse() {
        let mut dish = dish(&["oc", ".x"], TEXT);
        perform(&mut dish, (0, 0), RawAction::Eat(Compass::E)).expect("legal");
        assert_eq!(dish.picture(), ["o.", ".x"]);
        assert_eq!(stats(&dish, 0, 0), (5, 6));
    }

    #[test]
    fn every_illegal_eat_is_a_rest() {
        let mut dish = dish(&["o.", "ox"], TEXT);
        dish.set(dish.at(0, 0), 5, 0);
        for (direction, why) in [
            (Compass::E, Illegal::NoCorpse),
            (Compass::S, Illegal::NoCorpse),
            (Compass::SE, Illegal::NoCorpse),
            (Compass::N, Illegal::OffGrid),
        ] {
            assert_eq!(
                perform(&mut dish, (0, 0), RawAction::Eat(direction)),
                Err(why)
            );
        }
        assert_eq!(stats(&dish, 0, 0), (5, 6), "four rests of 2, capped at 6");
        assert_eq!(dish.living(), [2, 1]);
    }

    #[test]
    fn rest_gains_two_energy_capped_at_the_maximum() {
        for rules in [TEXT, JS] {
            let mut dish = dish(&["o.", ".x"], rules);
            dish.set(dish.at(0, 0), 5, 3);
            for energy in [5, 6, 6] {
                perform(&mut dish, (0, 0), RawAction::Rest).expect("legal");
                assert_eq!(stats(&dish, 0, 0), (5, energy), "{rules:?}");
            }
        }
    }

    #[test]
    fn explode_needs_hp_at_most_3_and_energy_above_hp() {
        for rules in [TEXT, JS] {
            for (hp, energy, legal) in [
                (3, 4, true),
                (1, 2, true),
                (4, 6, false),
                (3, 3, false),
                (2, 1, false),
            ] {
                let mut dish = dish(&["o.", ".x"], rules);
                dish.set(dish.at(0, 0), hp, energy);
                let checked = perform(&mut dish, (0, 0), RawAction::Explode);
                if legal {
                    assert_eq!(checked, Ok(Action::Explode));
                    assert_eq!(dish.picture(), ["c.", ".x"]);
                } else {
                    assert_eq!(checked, Err(Illegal::CannotExplode));
                    assert_eq!(stats(&dish, 0, 0), (hp, (energy + 2).min(6)));
                }
            }
        }
    }

    /// A cell at the centre of a 3x3 block of enemies with 6 HP each.
    fn surrounded(rules: RuleSet, acidity: u8) -> Dish {
        let species = [Species::new(5, 6, acidity), Species::new(6, 6, 0)];
        let mut dish = Dish::from_picture(&["xxx", "xox", "xxx"], 150, rules, species);
        dish.set(dish.at(1, 1), 3, 4);
        dish
    }

    fn hp_grid(dish: &Dish) -> Vec<Vec<i32>> {
        (0..3)
            .map(|y| {
                (0..3)
                    .map(|x| match dish.square(Pos { x, y }) {
                        Square::Cell(id) => dish.cell(id).hp(),
                        _ => 0,
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn text_explosion_deals_hp_plus_acidity_to_all_eight_neighbours() {
        let mut dish = surrounded(TEXT, 2);
        perform(&mut dish, (1, 1), RawAction::Explode).expect("legal");
        assert_eq!(hp_grid(&dish), [[1, 1, 1], [1, 0, 1], [1, 1, 1]]);
        assert_eq!(dish.picture(), ["xxx", "xcx", "xxx"]);
        let mut dish = surrounded(TEXT, 3);
        perform(&mut dish, (1, 1), RawAction::Explode).expect("legal");
        assert_eq!(
            dish.picture(),
            ["ccc", "ccc", "ccc"],
            "3 + 3 kills them all"
        );
        assert_eq!(dish.living(), [0, 0]);
    }

    #[test]
    fn petri_js_explosion_hurts_only_nw_w_sw_and_n_by_hp_without_acidity() {
        let mut dish = surrounded(JS, 9);
        perform(&mut dish, (1, 1), RawAction::Explode).expect("legal");
        // dx outer, dy inner: NW, W, SW, N take 3; the self-hit zeroes the HP; S, NE, E, SE
        // take 0.
        assert_eq!(hp_grid(&dish), [[3, 3, 6], [3, 0, 6], [3, 6, 6]]);
        assert_eq!(dish.picture(), ["xxx", "xcx", "xxx"]);
    }

    #[test]
    fn petri_js_explosion_kills_only_on_the_western_and_northern_side() {
        let species = [Species::new(5, 6, 0), Species::new(2, 10, 0)];
        let mut dish = Dish::from_picture(&["xxx", "xox", "xxx"], 150, JS, species);
        dish.set(dish.at(1, 1), 2, 3);
        perform(&mut dish, (1, 1), RawAction::Explode).expect("legal");
        assert_eq!(dish.picture(), ["ccx", "ccx", "cxx"]);
        assert_eq!(dish.living(), [0, 4]);
    }

    #[test]
    fn explosions_hit_friends_and_ignore_corpses_and_empty_squares() {
        for rules in [TEXT, JS] {
            let mut dish = dish(&["oc.", ".o.", "..x"], rules);
            dish.set(dish.at(1, 1), 2, 3);
            perform(&mut dish, (1, 1), RawAction::Explode).expect("legal");
            assert_eq!(dish.picture(), ["oc.", ".c.", "..x"]);
            let friend = stats(&dish, 0, 0).0;
            let damage = if rules == TEXT { 2 + 1 } else { 2 };
            assert_eq!(friend, 5 - damage, "{rules:?}");
            let enemy = stats(&dish, 2, 2).0;
            let damage = if rules == TEXT { 3 } else { 0 };
            assert_eq!(enemy, 5 - damage, "{rules:?}: SE is spared by petri.js");
        }
    }

    #[test]
    fn explosion_costs_no_energy_and_has_no_chain_reaction() {
        let species = Species::new(5, 6, 0);
        let mut dish = Dish::from_picture(&["ooo."], 150, TEXT, [species, species]);
        dish.set(dish.at(1, 0), 3, 6);
        dish.set(dish.at(2, 0), 2, 6);
        perform(&mut dish, (1, 0), RawAction::Explode).expect("legal");
        assert_eq!(dish.picture(), ["occ."]);
        assert_eq!(stats(&dish, 0, 0), (2, 6));
    }

    /// Plays the dish with `reply(dish, actor)` choosing every action and returns the cells
    /// that acted, as (x, y) before acting.
    fn run(
        dish: &mut Dish,
        steps: usize,
        mut reply: impl FnMut(&Dish, CellId) -> RawAction,
    ) -> (Vec<(Side, u16, u16)>, Next) {
        let mut acted = Vec::new();
        for _ in 0..steps {
            let id = match dish.next() {
                Next::Act(id) => id,
                over @ Next::Over(_) => return (acted, over),
            };
            let cell = dish.cell(id);
            acted.push((cell.side(), cell.x(), cell.y()));
            let action = dish.validate(reply(dish, id)).unwrap_or(Action::Rest);
            dish.act(action);
            dish.check_invariants().expect("invariants hold");
        }
        (acted, dish.next())
    }

    #[test]
    fn cells_act_oldest_first_and_newborns_wait_for_the_next_turn() {
        let species = [Species::new(5, 12, 0), SPECIES];
        let mut dish = Dish::from_picture(&["....", ".o..", "...x"], 150, TEXT, species);
        let (acted, _) = run(&mut dish, 8, |dish, id| {
            let cell = dish.cell(id);
            match (cell.side(), cell.x(), cell.y()) {
                (Side::First, 1, 1) if cell.energy() == 12 => RawAction::Divide(Compass::E),
                (Side::First, 1, 1) => RawAction::Move(Compass::N),
                (Side::First, 2, 1) => RawAction::Divide(Compass::S),
                _ => RawAction::Rest,
            }
        });
        use Side::{First, Second};
        // Turn 1: the only cell divides east and its child waits. Turn 2: the parent moves
        // north, then the child divides south and the grandchild waits. Turn 3: all three,
        // oldest first.
        assert_eq!(
            acted,
            [
                (First, 1, 1),
                (Second, 3, 2),
                (First, 1, 1),
                (First, 2, 1),
                (Second, 3, 2),
                (First, 1, 0),
                (First, 2, 1),
                (First, 2, 2),
            ]
        );
        assert_eq!(dish.picture(), [".o..", "..o.", "..ox"]);
    }

    #[test]
    fn moving_does_not_change_the_order() {
        let mut dish = dish(&["..o", "o..", "x.."], TEXT);
        let (acted, _) = run(&mut dish, 5, |dish, id| {
            let cell = dish.cell(id);
            match (cell.side(), cell.x(), cell.y()) {
                (Side::First, 2, 0) => RawAction::Move(Compass::S),
                (Side::First, 0, 1) => RawAction::Move(Compass::N),
                _ => RawAction::Rest,
            }
        });
        use Side::{First, Second};
        // After turn 1 the younger cell comes first in reading order, yet acts second.
        assert_eq!(
            acted,
            [
                (First, 2, 0),
                (First, 0, 1),
                (Second, 0, 2),
                (First, 2, 1),
                (First, 0, 0)
            ]
        );
    }

    #[test]
    fn every_cell_sees_the_board_after_the_earlier_cells_acted() {
        let mut dish = dish(&["o.", "o.", ".x"], TEXT);
        let (acted, _) = run(&mut dish, 2, |dish, id| match dish.cell(id).y() {
            0 => RawAction::Move(Compass::SE),
            _ => RawAction::Move(Compass::E),
        });
        assert_eq!(acted, [(Side::First, 0, 0), (Side::First, 0, 1)]);
        // The first cell took (1, 1), so the second cell's move there was a rest.
        assert_eq!(dish.picture(), ["..", "oo", ".x"]);
        assert_eq!(stats(&dish, 1, 1), (5, 5));
        assert_eq!(stats(&dish, 0, 1), (5, 6));
    }

    #[test]
    fn a_cell_killed_by_a_friend_earlier_in_the_turn_does_not_act() {
        let mut dish = dish(&["oo.", "..x"], TEXT);
        dish.set(dish.at(1, 0), 2, 6);
        let (acted, _) = run(&mut dish, 2, |dish, id| match dish.cell(id).side() {
            Side::First => RawAction::Attack(Compass::E, 3),
            Side::Second => RawAction::Rest,
        });
        assert_eq!(acted, [(Side::First, 0, 0), (Side::Second, 2, 1)]);
        assert_eq!(dish.picture(), ["oc.", "..x"]);
    }

    #[test]
    fn the_game_ends_in_the_middle_of_a_turn_when_a_side_is_wiped_out() {
        let mut dish = dish(&["ox.", "...", "o.."], TEXT);
        dish.set(dish.at(1, 0), 1, 6);
        let (acted, over) = run(&mut dish, 10, |_, _| RawAction::Attack(Compass::E, 1));
        assert_eq!(acted, [(Side::First, 0, 0)], "the second cell never acts");
        assert_eq!(
            over,
            Next::Over(Ending::Eliminated {
                survivor: Some(Side::First),
                mover: Side::First,
                turn: 1,
                living: [2, 0]
            })
        );
        let Next::Over(ending) = over else {
            unreachable!()
        };
        assert_eq!(ending.winner(), Some(Side::First));
        assert_eq!(
            ending.to_string(),
            "seat 1 eliminated during turn 1 of seat 0 (seat 0 has 2 cells left)"
        );
    }

    #[test]
    fn a_side_can_lose_its_last_cell_to_itself() {
        let mut dish = dish(&["o..", "..x"], TEXT);
        dish.set(dish.at(0, 0), 1, 6);
        let (_, over) = run(&mut dish, 10, |_, _| RawAction::Explode);
        let Next::Over(ending) = over else {
            panic!("not over: {over:?}")
        };
        assert_eq!(ending.winner(), Some(Side::Second));
        assert_eq!(
            ending.to_string(),
            "seat 0 eliminated during turn 1 of seat 0 (seat 1 has 1 cell left)"
        );
    }

    #[test]
    fn both_sides_dying_in_one_explosion_is_a_draw() {
        let mut dish = dish(&["ox", ".."], TEXT);
        dish.set(dish.at(0, 0), 3, 6);
        dish.set(dish.at(1, 0), 4, 6);
        let (_, over) = run(&mut dish, 10, |_, _| RawAction::Explode);
        let Next::Over(ending) = over else {
            panic!("not over: {over:?}")
        };
        assert_eq!(
            ending,
            Ending::Eliminated {
                survivor: None,
                mover: Side::First,
                turn: 1,
                living: [0, 0]
            }
        );
        assert_eq!(ending.winner(), None);
        assert_eq!(
            ending.to_string(),
            "both sides eliminated during turn 1 of seat 0"
        );
    }

    #[test]
    fn the_turn_limit_ends_the_game_after_the_second_sides_last_turn() {
        let mut dish = Dish::from_picture(&["o..", "...", "..x"], 3, TEXT, [SPECIES, SPECIES]);
        let (acted, over) = run(&mut dish, 100, |_, _| RawAction::Rest);
        assert_eq!(acted.len(), 6, "three turns each");
        assert_eq!(acted.last().map(|cell| cell.0), Some(Side::Second));
        let Next::Over(ending) = over else {
            panic!("not over: {over:?}")
        };
        assert_eq!(
            ending,
            Ending::TurnLimit {
                turns: 3,
                living: [1, 1]
            }
        );
        assert_eq!(ending.winner(), None, "equal counts draw");
        assert_eq!(
            ending.to_string(),
            "turn limit after 3 turns each: seat 0 has 1 cell, seat 1 has 1 cell"
        );
        assert_eq!(dish.next(), over, "asking again gives the same answer");
    }

    #[test]
    fn at_the_turn_limit_more_living_cells_win() {
        for (divider, winner) in [(Side::First, Side::First), (Side::Second, Side::Second)] {
            let mut dish = Dish::from_picture(&["o..", "...", "..x"], 2, JS, [SPECIES, SPECIES]);
            let (_, over) = run(&mut dish, 100, |dish, id| match dish.cell(id).side() {
                side if side != divider => RawAction::Rest,
                Side::First => RawAction::Divide(Compass::E),
                Side::Second => RawAction::Divide(Compass::W),
            });
            let Next::Over(ending) = over else {
                panic!("not over: {over:?}")
            };
            assert_eq!(ending.winner(), Some(winner), "{ending}");
        }
    }

    #[test]
    fn the_elimination_check_comes_before_the_turn_limit() {
        let mut dish = Dish::from_picture(&["ox"], 1, TEXT, [SPECIES, SPECIES]);
        dish.set(dish.at(0, 0), 2, 6);
        let (acted, over) = run(&mut dish, 10, |dish, id| match dish.cell(id).side() {
            Side::First => RawAction::Rest,
            Side::Second => RawAction::Attack(Compass::W, 2),
        });
        assert_eq!(acted.len(), 2);
        let Next::Over(ending) = over else {
            panic!("not over: {over:?}")
        };
        assert!(
            matches!(
                ending,
                Ending::Eliminated {
                    survivor: Some(Side::Second),
                    ..
                }
            ),
            "{ending:?}"
        );
    }
}
