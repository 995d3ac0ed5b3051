//! MurmurHash3 and bit indexes against the `mur3` crate, an independent MurmurHash3 x86_32.
//!
//! The byte layouts of the two targets are fixed (not `arbitrary`) so that seed corpora can be
//! written from the JSON vectors and a crash artifact can be read back as a vector input.

use bip37_reference::limits::MAX_HASH_FUNCS;
use bip37_reference::{murmur3, BloomFilter};

/// The input of the `differential_murmur3` target: `seed u32 LE || data`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MurmurInput<'a> {
    pub seed: u32,
    pub data: &'a [u8],
}

impl<'a> MurmurInput<'a> {
    /// Reads the layout; `None` when the seed is incomplete.
    pub fn parse(bytes: &'a [u8]) -> Option<Self> {
        let (seed, data) = bytes.split_first_chunk::<4>()?;
        Some(Self {
            seed: u32::from_le_bytes(*seed),
            data,
        })
    }

    /// Writes the layout.
    pub fn to_bytes(&self) -> Vec<u8> {
        [&self.seed.to_le_bytes()[..], self.data].concat()
    }
}

/// The input of the `differential_bit_indexes` target:
/// `filter bytes u16 LE || hash functions u8 || tweak u32 LE || element`.
/// The filter bytes stay below 65,536, past Core's 36,000, which bit index arithmetic does not
/// depend on. The hash functions are the byte modulo 51: Core never builds or accepts a filter
/// with more than its `MAX_HASH_FUNCS` (50), so no index past function 49 has a Core answer to
/// compare with (the same bound as `invariants_filter`). Up to 255 functions made each run
/// hash five times as much on average: 161,000-169,000 runs per second on the regression corpus
/// against 261,000-358,000 with the bound (`fuzz/README.md`, Performance).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitIndexInput<'a> {
    pub filter_bytes: u16,
    pub hash_funcs: u8,
    pub tweak: u32,
    pub element: &'a [u8],
}

impl<'a> BitIndexInput<'a> {
    /// Reads the layout; `None` when the 7-byte header is incomplete.
    pub fn parse(bytes: &'a [u8]) -> Option<Self> {
        let (header, element) = bytes.split_first_chunk::<7>()?;
        Some(Self {
            filter_bytes: u16::from_le_bytes([header[0], header[1]]),
            hash_funcs: header[2] % (MAX_HASH_FUNCS as u8 + 1),
            tweak: u32::from_le_bytes([header[3], header[4], header[5], header[6]]),
            element,
        })
    }

    /// Writes the layout.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(7 + self.element.len());
        out.extend_from_slice(&self.filter_bytes.to_le_bytes());
        out.push(self.hash_funcs);
        out.extend_from_slice(&self.tweak.to_le_bytes());
        out.extend_from_slice(self.element);
        out
    }
}

/// The reference's MurmurHash3 equals `mur3`'s on every seed and byte string.
pub fn murmur3_target(bytes: &[u8]) {
    let Some(input) = MurmurInput::parse(bytes) else {
        return;
    };
    assert_eq!(
        murmur3(input.seed, input.data),
        mur3::murmurhash3_x86_32(input.data, input.seed),
        "{input:?}"
    );
}

/// The reference's bit indexes equal BIP 37's formula evaluated with `mur3`:
/// `mur3(element, i * 0xFBA4C795 + tweak mod 2^32) mod (8 * filter bytes)`, none for an empty filter.
pub fn bit_indexes_target(bytes: &[u8]) {
    let Some(input) = BitIndexInput::parse(bytes) else {
        return;
    };
    let filter = BloomFilter::from_parts(
        vec![0; usize::from(input.filter_bytes)],
        u32::from(input.hash_funcs),
        input.tweak,
        0,
    );
    let bits = u32::from(input.filter_bytes) * 8;
    let expected: Vec<u32> = match bits {
        0 => Vec::new(),
        _ => (0..u32::from(input.hash_funcs))
            .map(|i| {
                let seed = i.wrapping_mul(0xFBA4_C795).wrapping_add(input.tweak);
                mur3::murmurhash3_x86_32(input.element, seed) % bits
            })
            .collect(),
    };
    assert_eq!(filter.bit_indexes(input.element), expected, "{input:?}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_roundtrip() {
        let m = MurmurInput {
            seed: 0xFBA4_C795,
            data: b"abc",
        };
        assert_eq!(MurmurInput::parse(&m.to_bytes()), Some(m));
        let b = BitIndexInput {
            filter_bytes: 3,
            hash_funcs: 5,
            tweak: 0x8000_0001,
            element: b"hello",
        };
        let beyond = BitIndexInput {
            hash_funcs: 52,
            ..b.clone()
        };
        assert_eq!(BitIndexInput::parse(&b.to_bytes()), Some(b));
        assert_eq!(
            BitIndexInput::parse(&beyond.to_bytes()).unwrap().hash_funcs,
            1
        );
        assert_eq!(BitIndexInput::parse(&[0; 6]), None);
    }

    #[test]
    fn bip_seed_example_agrees() {
        // 4 functions, tweak 5: function 1 uses seed 4221880218.
        bit_indexes_target(
            &BitIndexInput {
                filter_bytes: 9,
                hash_funcs: 4,
                tweak: 5,
                element: b"x",
            }
            .to_bytes(),
        );
        murmur3_target(
            &MurmurInput {
                seed: 4_221_880_218,
                data: b"x",
            }
            .to_bytes(),
        );
    }
}
