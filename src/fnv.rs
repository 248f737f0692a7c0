//! The 64-bit FNV-1a hash: stable across runs and versions of Rust, unlike `std`'s randomized
//! hasher, which is what seeds, cache keys and digests written to disk need. Not a security
//! measure.

/// An FNV-1a hash fed piece by piece.
#[derive(Debug, Clone, Copy)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xCBF2_9CE4_8422_2325)
    }
}

impl Fnv {
    /// Feeds `bytes`.
    pub fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }

    /// The hash of everything fed.
    pub fn finish(self) -> u64 {
        self.0
    }

    /// The hash as 16 hexadecimal digits.
    pub fn hex(self) -> String {
        format!("{:016x}", self.0)
    }
}

/// The hash of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = Fnv::default();
    hash.feed(bytes);
    hash.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_its_reference_vectors() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
