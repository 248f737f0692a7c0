//! The rules of a turn (games/cave.md, "A turn", "Moves" and "Attacks"): poison, the
//! creatures, the bats, Nina, the bots' moves and attacks, and the end of a turn. Steps are
//! numbered as in "A turn"; 2a to 2d are the four parts of its step 2. Pure state changes on
//! a [`World`]; every random draw comes from the game's one RNG, in the order of the steps.

use rand_chacha::ChaCha12Rng;

use crate::seeded::{below, sample};

use super::generate::empty_cell;
use super::options::Confusion;
use super::world::{Ground, Item, Killer, Kind, Pos, World};
use crate::compass::Compass;

/// Damage of a lion's hit (games/cave.md, "The cave").
const LION_DAMAGE: i64 = 10;
/// Damage of a centipede's bite (games/cave.md, "The cave").
const BITE_DAMAGE: i64 = 1;
/// Damage per turn of poison, and how many turns a bite poisons for (games/cave.md, "A turn").
const POISON_DAMAGE: i64 = 2;
const POISON_TURNS: u32 = 3;
/// Health from food and from Nina per turn (games/cave.md, "The cave").
const FOOD_HEALTH: i64 = 5;
const NINA_HEALTH: i64 = 10;
/// Turns stuck in a pit (games/cave.md, "Moves").
const PIT_TURNS: u32 = 3;
/// Bot-on-bot damage without and with a knife (games/cave.md, "Attacks").
const ATTACK_DAMAGE: i64 = 5;
const KNIFE_DAMAGE: i64 = 10;
/// Bot phases Nina stays on one cell (games/cave.md, "A turn").
const NINA_STAY: u32 = 3;

/// One of a bot's two actions (games/cave.md, "Reply").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// `M`: move one cell (games/cave.md, "Moves").
    Move(Compass),
    /// `A`: attack the adjacent cell (games/cave.md, "Attacks").
    Attack(Compass),
    /// `H`: do nothing.
    Hold,
}

impl Action {
    /// What a bot does on an invalid or missing reply (games/cave.md, "Reply").
    pub const HOLDS: [Action; 2] = [Action::Hold, Action::Hold];
}

impl World {
    /// Steps 1 and 2 of a turn: poison, creature moves, creature attacks, bats, Nina. Starts
    /// the next turn's count.
    pub fn start_turn(&mut self, rng: &mut ChaCha12Rng) {
        self.turn += 1;
        for robot in &mut self.robots {
            robot.fell = false;
        }
        self.poison();
        self.move_creatures(rng);
        self.creature_attacks();
        self.confuse();
        self.move_nina(rng);
    }

    /// Step 1: every poisoned bot loses 2 health and one turn of poison.
    pub fn poison(&mut self) {
        for seat in 0..self.robots.len() {
            let robot = &mut self.robots[seat];
            if robot.alive() && robot.poison > 0 {
                robot.health -= POISON_DAMAGE;
                robot.poison -= 1;
                self.check_death(seat, Killer::Poison);
            }
        }
    }

    /// Step 2a: each creature in creation order tries one step in a random direction and
    /// stays put if it is blocked.
    pub fn move_creatures(&mut self, rng: &mut ChaCha12Rng) {
        for index in 0..self.creatures.len() {
            let creature = self.creatures[index];
            let dir = Compass::ALL[below(rng, Compass::ALL.len())];
            let Some(target) = self.step(creature.pos, dir.delta()) else {
                continue;
            };
            let blocked = matches!(self.ground(target), Ground::Boulder | Ground::Pit)
                || self.creature_at(target).is_some()
                || (creature.kind.blocks_bots() && self.robot_at(target).is_some());
            if !blocked {
                self.creatures[index].pos = target;
            }
        }
    }

    /// Step 2b: every lion and centipede hits every living bot next to it; deaths are
    /// checked after all attacks. The killer is the creature whose hit took the bot to
    /// 0 health or below first.
    pub fn creature_attacks(&mut self) {
        let mut lethal: Vec<Option<Kind>> = vec![None; self.robots.len()];
        for creature in &self.creatures {
            if creature.kind == Kind::Bats {
                continue;
            }
            for (robot, lethal) in self.robots.iter_mut().zip(&mut lethal) {
                if !robot.alive() || robot.pos.distance(creature.pos) != 1 {
                    continue;
                }
                if creature.kind == Kind::Lion {
                    robot.health -= LION_DAMAGE;
                } else {
                    robot.health -= BITE_DAMAGE;
                    robot.poison = POISON_TURNS;
                }
                if robot.health <= 0 && lethal.is_none() {
                    *lethal = Some(creature.kind);
                }
            }
        }
        for (seat, kind) in lethal.into_iter().enumerate() {
            if let Some(kind) = kind {
                self.check_death(seat, Killer::Creature(kind));
            }
        }
    }

    /// Step 2c: a bot sharing its cell with bats is confused this turn.
    pub fn confuse(&mut self) {
        for seat in 0..self.robots.len() {
            let pos = self.robots[seat].pos;
            let bats = self
                .creature_at(pos)
                .is_some_and(|index| self.creatures[index].kind == Kind::Bats);
            let robot = &mut self.robots[seat];
            robot.confused = robot.alive() && bats;
        }
    }

    /// Step 2d: Nina jumps to a random empty cell when her stay is over, then one bot phase
    /// of her stay passes.
    pub fn move_nina(&mut self, rng: &mut ChaCha12Rng) {
        if self.nina.stay == 0 {
            self.nina.pos = empty_cell(self, rng);
            self.nina.stay = NINA_STAY;
        }
        self.nina.stay -= 1;
    }

    /// The order of this turn's bot phase: the living bots in a uniformly random order
    /// (Fisher-Yates).
    pub fn bot_order(&self, rng: &mut ChaCha12Rng) -> Vec<usize> {
        let alive: Vec<usize> = (0..self.robots.len())
            .filter(|&seat| self.robots[seat].alive())
            .collect();
        sample(rng, &alive, alive.len())
    }

    /// Step 3 for `seat`: a confused bot's actions are replaced; then both actions apply,
    /// left to right.
    pub fn act(
        &mut self,
        seat: usize,
        actions: [Action; 2],
        confusion: Confusion,
        rng: &mut ChaCha12Rng,
    ) {
        let actions = if self.robots[seat].confused {
            let mut random = || Compass::ALL[below(rng, Compass::ALL.len())];
            match confusion {
                Confusion::TwoMoves => {
                    let dir = random();
                    [Action::Move(dir), Action::Move(dir)]
                }
                Confusion::OneMove => [Action::Move(random()), Action::Hold],
                Confusion::TwoDirections => [Action::Move(random()), Action::Move(random())],
            }
        } else {
            actions
        };
        for action in actions {
            match action {
                Action::Move(dir) => self.move_robot(seat, dir),
                Action::Attack(dir) => self.attack(seat, dir),
                Action::Hold => {}
            }
        }
    }

    /// Whether a bot may enter `pos`: no boulder, no other bot, no lion or centipede
    /// (games/cave.md, "Moves").
    fn enterable(&self, pos: Pos) -> bool {
        self.ground(pos) != Ground::Boulder
            && self.robot_at(pos).is_none()
            && self
                .creature_at(pos)
                .is_none_or(|index| !self.creatures[index].kind.blocks_bots())
    }

    /// A move (games/cave.md, "Moves"): ignored in a pit; orthogonal moves go or stay; a
    /// blocked diagonal falls back to its vertical, then its horizontal component.
    pub fn move_robot(&mut self, seat: usize, dir: Compass) {
        let robot = self.robots[seat];
        if robot.pit > 0 {
            return;
        }
        let (dx, dy) = dir.delta();
        let candidates: &[(isize, isize)] = if dx == 0 || dy == 0 {
            &[(dx, dy)]
        } else {
            &[(dx, dy), (0, dy), (dx, 0)]
        };
        let target = candidates
            .iter()
            .filter_map(|&delta| self.step(robot.pos, delta))
            .find(|&pos| self.enterable(pos));
        if let Some(target) = target {
            self.enter(seat, target);
        }
    }

    /// A bot enters `pos`: it takes the item there, then falls in if it is a pit
    /// (games/cave.md, "Moves").
    fn enter(&mut self, seat: usize, pos: Pos) {
        let ground = self.ground(pos);
        let robot = &mut self.robots[seat];
        robot.pos = pos;
        match ground {
            Ground::Item(item) => {
                match item {
                    Item::Gold => robot.gold += 1,
                    Item::Food => robot.health += FOOD_HEALTH,
                    Item::Water => robot.poison = 0,
                    Item::Knife => robot.knife = true,
                    Item::Revealer => robot.revealer = true,
                }
                self.set_ground(pos, Ground::Bare);
            }
            Ground::Pit => {
                robot.pit = PIT_TURNS;
                robot.fell = true;
            }
            Ground::Bare | Ground::Boulder => {}
        }
    }

    /// An attack (games/cave.md, "Attacks"): kills any creature on the target cell and hurts
    /// any bot there, both when bats share a cell with a bot.
    pub fn attack(&mut self, seat: usize, dir: Compass) {
        let attacker = self.robots[seat];
        let Some(target) = self.step(attacker.pos, dir.delta()) else {
            return;
        };
        if let Some(index) = self.creature_at(target) {
            self.creatures.remove(index);
        }
        if let Some(victim) = self.robot_at(target) {
            self.robots[victim].health -= if attacker.knife {
                KNIFE_DAMAGE
            } else {
                ATTACK_DAMAGE
            };
            self.check_death(victim, Killer::Bot(seat));
        }
    }

    /// Step 4: Nina heals the bots on her cell, pits release their captives by one turn (not
    /// in the turn they fell), and every living bot survived one more turn.
    pub fn end_turn(&mut self) {
        let nina = self.nina.pos;
        for robot in self.robots.iter_mut().filter(|r| r.alive()) {
            if robot.pos == nina {
                robot.health += NINA_HEALTH;
            }
            if robot.pit > 0 && !robot.fell {
                robot.pit -= 1;
            }
            robot.turns += 1;
        }
    }

    /// Whether the game is over after the current turn (games/cave.md, "A turn", step 4):
    /// `max_turns` played, or at most one bot alive (none, in a one-bot game).
    pub fn is_over(&self, max_turns: u32) -> bool {
        let last = usize::from(self.robots.len() > 1);
        self.turn >= max_turns || self.alive() <= last
    }

    /// Removes the bot at `seat` if its health is gone (games/cave.md, "A turn").
    fn check_death(&mut self, seat: usize, killer: Killer) {
        let robot = &mut self.robots[seat];
        if robot.alive() && robot.health <= 0 {
            robot.death = Some((self.turn, killer));
        }
    }
}
