//! Seeds and random streams.
//!
//! A run has one [`RunSeed`]. Every random draw in the game comes from a
//! [`Stream`] named by a domain and an index, derived from that seed:
//!
//! ```text
//! key   = seed as 8 bytes little-endian
//!       ++ FNV-1a-64(domain as UTF-8) as 8 bytes little-endian
//!       ++ 16 zero bytes                          (32-byte ChaCha key)
//! stream = ChaCha8 with that key, ChaCha stream id = index, word position 0
//! ```
//!
//! So floor `d` is generated from `("mapgen", d)` and populated from
//! `("spawn", d)` whatever the player did above it, and adding a new domain
//! never shifts the draws of an existing one. ChaCha8's output is fixed by its
//! specification, and the integer draws below are written out here rather than
//! borrowed from a library whose algorithm may change between versions, so a
//! seed plays the same on every platform, toolchain and build.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The root of every random draw in a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RunSeed(pub u64);

impl RunSeed {
    /// The stream for `(domain, index)`. See the module documentation for the
    /// derivation, which is part of the recording format's contract.
    pub fn stream(self, domain: &str, index: u64) -> Stream {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&self.0.to_le_bytes());
        key[8..16].copy_from_slice(&fnv1a64(domain.as_bytes()).to_le_bytes());
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(index);
        Stream { rng }
    }
}

/// 64-bit FNV-1a, used to turn a domain name into key material.
pub const fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash
}

/// A deterministic random stream. Serializable, so a saved game resumes its
/// draws exactly where they stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stream {
    rng: ChaCha8Rng,
}

/// Bound on rejection-sampling retries. Each retry succeeds with probability
/// above one half, so reaching the bound means something is badly wrong with
/// the generator; we then accept the (barely) biased value rather than spin.
const MAX_REJECTIONS: u32 = 64;

impl Stream {
    /// How far the stream has been drawn from, in 32-bit words: changes
    /// exactly when something was drawn.
    pub fn position(&self) -> u128 {
        self.rng.get_word_pos()
    }

    /// A uniformly random integer in `0..n`. `n` must be at least 1.
    ///
    /// Rejection sampling on 64-bit draws: values at or above the largest
    /// multiple of `n` are redrawn, so every result is equally likely.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n >= 1, "Stream::below(0) has no possible result");
        let n = u64::from(n);
        let zone = (u64::MAX / n) * n;
        let mut value = self.rng.next_u64();
        let mut tries = 0;
        while value >= zone && tries < MAX_REJECTIONS {
            value = self.rng.next_u64();
            tries += 1;
        }
        // The remainder is below n, which fits in u32.
        (value % n) as u32
    }

    /// A uniformly random integer in `lo..=hi`. `lo` must not exceed `hi`.
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        assert!(lo <= hi, "Stream::range({lo}, {hi}) is empty");
        let span = u32::try_from(i64::from(hi) - i64::from(lo) + 1)
            .expect("ranges wider than u32 are not used by the game");
        lo + self.below(span) as i32
    }

    /// True with probability 1 in `n`.
    pub fn one_in(&mut self, n: u32) -> bool {
        self.below(n) == 0
    }

    /// True with probability `percent` in 100.
    pub fn percent(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }

    /// The sum of `count` dice with `sides` faces each.
    pub fn roll(&mut self, count: u32, sides: u32) -> i32 {
        (0..count).map(|_| self.below(sides) as i32 + 1).sum()
    }

    /// A uniformly chosen element, or `None` for an empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            return None;
        }
        let len = u32::try_from(items.len()).expect("slices picked from are small");
        Some(&items[self.below(len) as usize])
    }

    /// An index chosen with probability proportional to its weight, or `None`
    /// when every weight is zero.
    pub fn weighted(&mut self, weights: &[u32]) -> Option<usize> {
        let total: u32 = weights.iter().sum();
        if total == 0 {
            return None;
        }
        let mut roll = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if roll < w {
                return Some(i);
            }
            roll -= w;
        }
        unreachable!("roll below the total always lands in a weight")
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let bound = u32::try_from(i + 1).expect("slices shuffled are small");
            let j = self.below(bound) as usize;
            items.swap(i, j);
        }
    }
}

/// The serialized form of a [`Stream`]: its key, ChaCha stream id and word
/// position. Written out here so the encoding does not depend on rand_chacha's
/// own serde representation.
#[derive(Serialize, Deserialize)]
struct StreamState {
    key: [u8; 32],
    stream: u64,
    /// The 128-bit word position as two halves: not every serde format
    /// (RON among them) carries a u128.
    word_pos_high: u64,
    word_pos_low: u64,
}

impl Serialize for Stream {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        StreamState {
            key: self.rng.get_seed(),
            stream: self.rng.get_stream(),
            word_pos_high: (self.rng.get_word_pos() >> 64) as u64,
            word_pos_low: self.rng.get_word_pos() as u64,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Stream {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let state = StreamState::deserialize(deserializer)?;
        let mut rng = ChaCha8Rng::from_seed(state.key);
        rng.set_stream(state.stream);
        rng.set_word_pos((u128::from(state.word_pos_high) << 64) | u128::from(state.word_pos_low));
        Ok(Stream { rng })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_the_reference_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn the_derivation_is_pinned() {
        // If this changes, every recording ever made drifts on its first key.
        let mut s = RunSeed(7).stream("mapgen", 1);
        let draws: Vec<u32> = (0..4).map(|_| s.below(1000)).collect();
        assert_eq!(draws, PINNED_MAPGEN_7_1);
    }

    const PINNED_MAPGEN_7_1: [u32; 4] = [196, 502, 258, 832];

    #[test]
    fn streams_differ_by_seed_domain_and_index() {
        let first = |seed, domain, index| RunSeed(seed).stream(domain, index).below(u32::MAX);
        let base = first(1, "mapgen", 1);
        assert_ne!(base, first(2, "mapgen", 1));
        assert_ne!(base, first(1, "spawn", 1));
        assert_ne!(base, first(1, "mapgen", 2));
        assert_eq!(base, first(1, "mapgen", 1));
    }

    #[test]
    fn draws_stay_in_range() {
        let mut s = RunSeed(3).stream("test", 0);
        for _ in 0..10_000 {
            assert!(s.below(7) < 7);
            let r = s.range(-3, 3);
            assert!((-3..=3).contains(&r));
            let d = s.roll(2, 6);
            assert!((2..=12).contains(&d));
        }
        assert_eq!(s.range(5, 5), 5);
        assert_eq!(s.below(1), 0);
    }

    #[test]
    fn below_reaches_every_value() {
        let mut s = RunSeed(11).stream("test", 0);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[s.below(6) as usize] += 1;
        }
        // Each face expects 1000; a fair die stays well inside 800..1200.
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
    }

    #[test]
    fn weighted_never_picks_a_zero_weight() {
        let mut s = RunSeed(5).stream("test", 0);
        for _ in 0..1000 {
            let i = s.weighted(&[0, 3, 0, 1]).expect("some weight is positive");
            assert!(i == 1 || i == 3);
        }
        assert_eq!(s.weighted(&[0, 0]), None);
        assert_eq!(s.weighted(&[]), None);
    }

    #[test]
    fn a_serialized_stream_resumes_exactly() {
        let mut s = RunSeed(9).stream("play", 0);
        for _ in 0..37 {
            s.below(100);
        }
        let text = ron::to_string(&s).expect("streams serialize");
        let mut resumed: Stream = ron::from_str(&text).expect("and deserialize");
        let a: Vec<u32> = (0..50).map(|_| s.below(1 << 20)).collect();
        let b: Vec<u32> = (0..50).map(|_| resumed.below(1 << 20)).collect();
        assert_eq!(a, b);
    }
}
