//! What a bot sees (games/cave.md, "Input"): the window around it, clipped at the cave's
//! edges, 5x5 or 11x11 with a revealer, whose outer ring may show wrong symbols.

use rand_chacha::ChaCha12Rng;

use crate::seeded::below;

use super::world::{Pos, World};

/// The view's radius without and with a revealer.
const RADIUS: usize = 2;
const REVEALER_RADIUS: usize = 5;

/// The symbols a wrong cell of the outer ring may show: every symbol but `Y` (games/cave.md,
/// "Input"). A fake is drawn among the 12 that differ from the true symbol, in this order.
const FAKES: &[u8; 13] = b"-@CBLFWRKGN}P";

/// The rows of `seat`'s window, north to south, each west to east. Cells farther than 2 from
/// the bot (only with a revealer) each draw `below(100)` in row-major order and show a fake,
/// drawn with `below(12)`, when that is under `noise_percent`.
pub fn window(
    world: &World,
    seat: usize,
    noise_percent: u32,
    rng: &mut ChaCha12Rng,
) -> Vec<Vec<u8>> {
    let robot = &world.robots[seat];
    let radius = if robot.revealer {
        REVEALER_RADIUS
    } else {
        RADIUS
    };
    let centre = robot.pos;
    let last = world.side - 1;
    let xs = centre.x.saturating_sub(radius)..=(centre.x + radius).min(last);
    let ys = centre.y.saturating_sub(radius)..=(centre.y + radius).min(last);
    ys.map(|y| {
        xs.clone()
            .map(|x| {
                let pos = Pos::new(x, y);
                let symbol = world.symbol(pos, seat);
                if pos.distance(centre) <= RADIUS || below(rng, 100) >= noise_percent as usize {
                    return symbol;
                }
                let fakes: Vec<u8> = FAKES.iter().copied().filter(|&s| s != symbol).collect();
                fakes[below(rng, fakes.len())]
            })
            .collect()
    })
    .collect()
}
