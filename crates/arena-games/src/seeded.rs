//! Seeded randomness shared by the engines: one `ChaCha12Rng` per game, built from the game's
//! seed, and the few sampling helpers the games need, written here rather than taken from
//! `rand` so that a game depends only on its seed and the ChaCha12 stream, never on a
//! library's sampling code.

use rand_chacha::ChaCha12Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

/// The generator's RNG for a game seed: the seed's 8 little-endian bytes followed by 24 zero
/// bytes as the ChaCha12 key. Written out rather than `seed_from_u64`, whose expansion is
/// the library's choice; this way a game depends on the seed and ChaCha12 alone.
pub fn rng(seed: u64) -> ChaCha12Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    ChaCha12Rng::from_seed(key)
}

/// A uniform number in `0..n` (`n > 0`), without modulo bias: draws below `2^32 mod n` are
/// rejected, so the accepted range is a whole number of copies of `0..n`.
pub fn below(rng: &mut ChaCha12Rng, n: usize) -> usize {
    let n = u32::try_from(n).expect("random ranges fit in u32");
    assert!(n > 0, "an empty range has no members");
    let threshold = n.wrapping_neg() % n;
    loop {
        let x = rng.next_u32();
        if x >= threshold {
            return (x % n) as usize;
        }
    }
}

/// Seeded draws for scripted players and fuzz tests (the benchmarks' players, the engines'
/// and the runner's robustness tests): the games' generator and its one uniform helper, so
/// that every random choice in the project is drawn the same way.
#[derive(Debug, Clone)]
pub struct Draws(ChaCha12Rng);

impl Draws {
    /// Draws from `seed`.
    pub fn new(seed: u64) -> Draws {
        Draws(rng(seed))
    }

    /// A uniform number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        below(&mut self.0, n)
    }

    /// One of `items` (not empty), uniformly.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// Up to `max` random bytes.
    pub fn bytes(&mut self, max: usize) -> Vec<u8> {
        let len = self.below(max + 1);
        let mut bytes = vec![0; len];
        self.0.fill_bytes(&mut bytes);
        bytes
    }
}

/// `k` distinct items of `items` chosen uniformly, in a uniformly random order (the first
/// `k` steps of a Fisher-Yates shuffle).
pub fn sample<T: Copy>(rng: &mut ChaCha12Rng, items: &[T], k: usize) -> Vec<T> {
    assert!(k <= items.len(), "cannot choose {k} of {}", items.len());
    let mut items = items.to_vec();
    for i in 0..k {
        let j = i + below(rng, items.len() - i);
        items.swap(i, j);
    }
    items.truncate(k);
    items
}
