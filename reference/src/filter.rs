//! The BIP 37 Bloom filter: bit array, hash functions, tweak and flags, with Core's
//! `insert` / `contains` semantics (src/common/bloom.cpp).
//!
//! Hash function `i` hashes with seed `i * 0xFBA4C795 + tweak` (wrapping at 32 bits) and
//! selects bit `murmur3 % (bytes * 8)`; bit `x` is bit `x % 8`, least significant first,
//! of byte `x / 8`. A filter with no bytes is Core's match-all filter (the CVE-2013-5700
//! guard): `insert` does nothing and `contains` is always true. A filter with zero hash
//! functions contains everything too, vacuously.

use crate::bit_modulus::BitModulus;
use crate::ceilings::{self, BeyondCeiling};
use crate::flags::UpdateMode;
use crate::limits;
use crate::murmur3::{murmur3, murmur3_20, murmur3_many};
use crate::sizing::{size_for, FilterSize, SizingError};

/// The multiplier of the hash function index in the seed.
pub const SEED_MULTIPLIER: u32 = 0xFBA4_C795;

/// How many hash functions `contains` hashes one at a time before going four at a time: with
/// about half the bits set, seven in eight absent elements stop within the first three, and
/// a four-seed hash there was measured 0.54-0.81 of `mur3`'s one-at-a-time loop at 20-36 B
/// (murmur3 bench). Measured against 2 and all: 3 keeps absent elements at 1.15-1.39 of
/// `mur3`'s loop at 20-65 B (2: 1.02-1.29) and present ones at 1.13-1.62 and about 2 at 520 B
/// and beyond (all: 1.22-1.25 there, the single hash's own speed).
const CONTAINS_SINGLES: u32 = 3;

/// From this many bytes on, `contains` hashes its first [`CONTAINS_PAIRED`] hash functions two
/// at a time instead of [`CONTAINS_SINGLES`] one at a time: a long element's hash is one long
/// chain, two chains side by side cost little more than one, and an absent element is decided
/// by the first two functions three times in four. Against Core's own compiled `contains`
/// (vs_core bench, AMD EPYC), absent 520-byte elements went from 1.01-1.03 of Core's time to
/// 0.73-0.82; pairs from 64 bytes on made absent 65-byte ones slower (0.81 against 0.71-0.72).
const LONG_ELEMENT: usize = 128;

/// How many hash functions `contains` hashes in pairs for a long element before going four at
/// a time.
const CONTAINS_PAIRED: u32 = 4;

/// The seed of hash function `hash_index` for `tweak`.
pub fn hash_seed(hash_index: u32, tweak: u32) -> u32 {
    hash_index.wrapping_mul(SEED_MULTIPLIER).wrapping_add(tweak)
}

/// A BIP 37 Bloom filter as a node holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BloomFilter {
    data: Vec<u8>,
    hash_funcs: u32,
    tweak: u32,
    flags: u8,
    /// `hash % bits` for this filter's bit count (`None`: no bytes, the match-all filter).
    bits: Option<BitModulus>,
}

impl BloomFilter {
    /// An empty filter sized by Core's constructor for `n_elements` at `fp_rate`.
    pub fn new(n_elements: u32, fp_rate: f64, tweak: u32, flags: u8) -> Result<Self, SizingError> {
        let FilterSize {
            filter_bytes,
            hash_funcs,
        } = size_for(n_elements, fp_rate)?;
        Ok(Self::from_parts(
            vec![0; filter_bytes as usize],
            hash_funcs,
            tweak,
            flags,
        ))
    }

    /// An all-zero filter of an explicit size, as clients that skip the sizing formula build;
    /// refused beyond the [`ceilings`] before anything is allocated.
    pub fn with_size(
        filter_bytes: u64,
        hash_funcs: u32,
        tweak: u32,
        flags: u8,
    ) -> Result<Self, BeyondCeiling> {
        ceilings::check_filter(filter_bytes, hash_funcs)?;
        Ok(Self::from_parts(
            vec![0; filter_bytes as usize],
            hash_funcs,
            tweak,
            flags,
        ))
    }

    /// A filter from its four wire fields, refused beyond the [`ceilings`].
    pub fn bounded(
        data: Vec<u8>,
        hash_funcs: u32,
        tweak: u32,
        flags: u8,
    ) -> Result<Self, BeyondCeiling> {
        ceilings::check_filter(data.len() as u64, hash_funcs)?;
        Ok(Self::from_parts(data, hash_funcs, tweak, flags))
    }

    /// A filter from its four wire fields, unchecked: for fields within Core's limits (a
    /// `filterload` that passed them) or the ceilings; otherwise use [`Self::bounded`].
    pub fn from_parts(data: Vec<u8>, hash_funcs: u32, tweak: u32, flags: u8) -> Self {
        Self {
            bits: BitModulus::new(data.len() as u64 * 8),
            data,
            hash_funcs,
            tweak,
            flags,
        }
    }

    /// The bit array.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The number of hash functions.
    pub fn hash_funcs(&self) -> u32 {
        self.hash_funcs
    }

    /// The tweak added to every seed.
    pub fn tweak(&self) -> u32 {
        self.tweak
    }

    /// The raw flags byte, as received.
    pub fn flags(&self) -> u8 {
        self.flags
    }

    /// What a matching output does to this filter (`flags & 3`).
    pub fn update_mode(&self) -> UpdateMode {
        UpdateMode::from_flags(self.flags)
    }

    /// True for Core's match-all filter: no bytes at all.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The bit index hash function `hash_index` selects for `element`, or `None` for the
    /// empty filter (Core never hashes there: that was the division by zero of CVE-2013-5700).
    pub fn bit_index(&self, hash_index: u32, element: &[u8]) -> Option<u32> {
        let bits = self.bits?;
        Some(bits.of(murmur3(hash_seed(hash_index, self.tweak), element)) as u32)
    }

    /// The bit index of every hash function, in hash function order (empty for the empty filter).
    pub fn bit_indexes(&self, element: &[u8]) -> Vec<u32> {
        let Some(bits) = self.bits else {
            return Vec::new();
        };
        // Allocated once (growing by doubling took up to six allocations for 50 hash
        // functions), but never beyond the ceiling: `from_parts` takes any count unchecked.
        let mut indexes =
            Vec::with_capacity(self.hash_funcs.min(ceilings::MAX_BUILT_HASH_FUNCS) as usize);
        for i in 0..self.hash_funcs {
            indexes.push(bits.of(murmur3(hash_seed(i, self.tweak), element)) as u32);
        }
        indexes
    }

    /// Sets the bits of `element`; does nothing on the empty filter.
    pub fn insert(&mut self, element: &[u8]) {
        let Some(bits) = self.bits else {
            return;
        };
        // The indexing keeps its bounds check: `get_unchecked` measured no faster in the
        // murmur3 bench (the check's branch is always predicted).
        for bit in hashed_bits(self.hash_funcs, self.tweak, element, bits) {
            self.data[bit >> 3] |= 1 << (bit & 7);
        }
    }

    /// True when every bit of `element` is set; always true on the empty filter. Written as
    /// plain loops rather than over `hashed_bits`: with the iterator's chained state, an
    /// absent element measured slower than Core's loop even when both hashed one seed at a time.
    pub fn contains(&self, element: &[u8]) -> bool {
        let Some(bits) = self.bits else {
            return true;
        };
        let is_set = |hash: u32| {
            let bit = bits.of(hash);
            self.data[bit >> 3] & (1 << (bit & 7)) != 0
        };
        let first = if let Ok(hash160) = <&[u8; 20]>::try_from(element) {
            let singles = self.hash_funcs.min(CONTAINS_SINGLES);
            if !(0..singles).all(|i| is_set(murmur3_20(hash_seed(i, self.tweak), hash160))) {
                return false;
            }
            singles
        } else if element.len() < LONG_ELEMENT {
            let singles = self.hash_funcs.min(CONTAINS_SINGLES);
            if !(0..singles).all(|i| is_set(murmur3(hash_seed(i, self.tweak), element))) {
                return false;
            }
            singles
        } else {
            let paired = self.hash_funcs.min(CONTAINS_PAIRED);
            if !all_set::<2>(0..paired, self.tweak, element, is_set) {
                return false;
            }
            paired
        };
        all_set::<4>(first..self.hash_funcs, self.tweak, element, is_set)
    }

    /// Core's `IsWithinSizeConstraints`: at most 36,000 bytes and 50 hash functions.
    pub fn is_within_size_constraints(&self) -> bool {
        limits::check_filter(self.data.len(), self.hash_funcs).is_ok()
    }
}

/// True when `is_set` holds for the hash of every hash function of `functions`, hashed `N` at
/// a time with [`murmur3_many`]; stops at the first group with a clear bit.
#[inline(always)]
fn all_set<const N: usize>(
    functions: std::ops::Range<u32>,
    tweak: u32,
    element: &[u8],
    is_set: impl Fn(u32) -> bool,
) -> bool {
    let end = functions.end;
    functions.step_by(N).all(|i| {
        let seeds = std::array::from_fn(|lane| hash_seed(i.wrapping_add(lane as u32), tweak));
        murmur3_many::<N>(seeds, element)
            .into_iter()
            .take((end - i).min(N as u32) as usize)
            .all(&is_set)
    })
}

/// The bit index (out of `bits`) of each of `hash_funcs` hash functions for `element`, in
/// order, as `insert` uses them: the same values as [`BloomFilter::bit_indexes`], computed
/// faster: the first alone, then four at a time with [`murmur3_many`] (1 + 4 + 4 + 4 covers the
/// 13 hash functions of a (1000, 0.0001) filter exactly).
fn hashed_bits(
    hash_funcs: u32,
    tweak: u32,
    element: &[u8],
    bits: BitModulus,
) -> impl Iterator<Item = usize> + '_ {
    let first = (hash_funcs > 0).then(|| murmur3(hash_seed(0, tweak), element));
    let rest = (1..hash_funcs).step_by(4).flat_map(move |i| {
        let seeds = std::array::from_fn(|lane| hash_seed(i.wrapping_add(lane as u32), tweak));
        murmur3_many::<4>(seeds, element)
            .into_iter()
            .take((hash_funcs - i).min(4) as usize)
    });
    first.into_iter().chain(rest).map(move |hash| bits.of(hash))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        ::hex::decode(s).unwrap()
    }

    #[test]
    fn bip_seed_example() {
        assert_eq!(hash_seed(1, 5), 4_221_880_218);
    }

    #[test]
    fn seed_wraps_at_32_bits() {
        assert_eq!(hash_seed(2, 0), 0xF749_8F2A);
        assert_eq!(hash_seed(0, 0xffff_ffff), 0xffff_ffff);
        assert_eq!(hash_seed(1, 0xffff_ffff), 0xFBA4_C794);
    }

    #[test]
    fn worked_example_n8_p005_tweak7() {
        let mut f = BloomFilter::new(8, 0.05, 7, 0).unwrap();
        assert_eq!((f.data().len(), f.hash_funcs()), (6, 4));
        assert_eq!(f.bit_indexes(&hex("ab")), vec![31, 5, 13, 34]);
        assert_eq!(f.bit_indexes(&hex("cafe")), vec![20, 38, 46, 26]);
        f.insert(&hex("ab"));
        f.insert(&hex("cafe"));
        assert_eq!(f.data(), hex("202010844440").as_slice());
    }

    #[test]
    fn empty_filter_matches_everything_and_ignores_inserts() {
        let mut f = BloomFilter::from_parts(Vec::new(), 1, 0, 0);
        f.insert(b"anything");
        assert!(f.data().is_empty());
        assert!(f.contains(b"else"));
        assert!(f.bit_indexes(b"x").is_empty());
    }

    #[test]
    fn contains_agrees_with_the_bit_indexes_for_every_grouping() {
        // contains hashes three seeds alone (four in pairs from LONG_ELEMENT bytes on), then
        // four at a time: every hash function count across those groups, short and long
        // elements, against Core's definition (every selected bit set).
        let short = (0u8..64).map(|i| vec![i; usize::from(i % 40)]);
        let long = (0u8..16).map(|i| vec![i; LONG_ELEMENT - 8 + usize::from(i)]);
        let elements: Vec<Vec<u8>> = short.chain(long).collect();
        for hash_funcs in 0..=14 {
            let mut f = BloomFilter::from_parts(vec![0; 3], hash_funcs, 99, 0);
            f.insert(b"present");
            f.insert(&[7; LONG_ELEMENT]);
            assert!(f.contains(&[7; LONG_ELEMENT]));
            for element in &elements {
                let expected = f
                    .bit_indexes(element)
                    .iter()
                    .all(|&bit| f.data()[bit as usize / 8] & (1 << (bit % 8)) != 0);
                assert_eq!(
                    f.contains(element),
                    expected,
                    "k = {hash_funcs}, {element:?}"
                );
            }
            assert!(f.contains(b"present"));
        }
    }

    #[test]
    fn zero_hash_functions_contain_everything() {
        let f = BloomFilter::from_parts(vec![0; 4], 0, 0, 0);
        assert!(f.contains(b"x"));
    }

    #[test]
    fn explicit_size_is_bounded_by_the_ceilings() {
        assert!(BloomFilter::with_size(288_001, 1, 0, 0).is_err());
        assert!(BloomFilter::with_size(10, 4_294_967_295, 0, 0).is_err());
        assert!(BloomFilter::bounded(vec![0; 10], 1_001, 0, 0).is_err());
        assert_eq!(
            BloomFilter::with_size(10, 5, 99, 1).unwrap().data(),
            &[0; 10]
        );
    }
}
