//! MurmurHash3 as mistaken ports compute it: one switch per classic mistake, the hash the
//! hashing mutants use (and through them the generator's flags).
//!
//! The state is kept in 64 bits and masked to 32 after each step, the way scripting-language
//! ports write it. A seed that was never wrapped to 32 bits (see `SeedNotWrapped`) therefore
//! leaks its high bits into the low ones wherever a right shift or rotation reads them, as an
//! unmasked `rotl32` or `h ^= h >> 16` does. With every switch off and a 32-bit seed this is
//! plain MurmurHash3 x86_32 (a test below checks that against the reference).

const MASK: u64 = 0xffff_ffff;
const C1: u64 = 0xcc9e_2d51;
const C2: u64 = 0x1b87_3593;

/// Which mistakes the port makes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mistakes {
    /// Blocks read as big-endian words.
    pub big_endian_blocks: bool,
    /// Tail bytes combined in reverse order (`tail[0]` highest).
    pub reversed_tail: bool,
    /// Tail bytes sign-extended before they are shifted (C `(int8_t)tail[i] << s`).
    pub sign_extended_tail: bool,
    /// The number of 4-byte blocks mixed in at the end instead of the length in bytes.
    pub length_as_blocks: bool,
}

/// A 32-bit rotation that, like an unmasked scripting port, reads whatever sits above bit 31.
fn rotl(x: u64, r: u32) -> u64 {
    ((x << r) | (x >> (32 - r))) & MASK
}

fn scramble(k: u64) -> u64 {
    rotl(k.wrapping_mul(C1) & MASK, 15).wrapping_mul(C2) & MASK
}

/// The hash a port with `mistakes` computes for `data` with a seed of up to 64 bits.
pub fn murmur(seed: u64, data: &[u8], mistakes: Mistakes) -> u32 {
    let mut h = seed;
    let blocks = data.chunks_exact(4);
    let tail = blocks.remainder();
    for block in blocks {
        let word = [block[0], block[1], block[2], block[3]];
        let k = if mistakes.big_endian_blocks {
            u32::from_be_bytes(word)
        } else {
            u32::from_le_bytes(word)
        };
        h = rotl(h ^ scramble(u64::from(k)), 13);
        h = h.wrapping_mul(5).wrapping_add(0xe654_6b64) & MASK;
    }
    if !tail.is_empty() {
        let mut k = 0u64;
        for (i, &byte) in tail.iter().enumerate() {
            let shift = if mistakes.reversed_tail {
                8 * (tail.len() - 1 - i)
            } else {
                8 * i
            };
            let value = if mistakes.sign_extended_tail {
                u64::from(byte as i8 as i32 as u32)
            } else {
                u64::from(byte)
            };
            k ^= (value << shift) & MASK;
        }
        h ^= scramble(k);
    }
    h ^= if mistakes.length_as_blocks {
        (data.len() / 4) as u64
    } else {
        data.len() as u64
    };
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b) & MASK;
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35) & MASK;
    (h ^ (h >> 16)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_mistakes_it_is_murmur3() {
        let data: Vec<u8> = (0u8..=40).map(|b| b.wrapping_mul(37)).collect();
        for len in 0..data.len() {
            for seed in [0u32, 7, 0xFBA4_C795, u32::MAX] {
                assert_eq!(
                    murmur(u64::from(seed), &data[..len], Mistakes::default()),
                    bip37_reference::murmur3(seed, &data[..len])
                );
            }
        }
    }

    #[test]
    fn high_seed_bits_leak() {
        let wrapped = bip37_reference::hash_seed(2, 0);
        let unwrapped = 2 * 0xFBA4_C795u64;
        assert_eq!(unwrapped & MASK, u64::from(wrapped));
        assert_ne!(
            murmur(unwrapped, b"abc", Mistakes::default()),
            bip37_reference::murmur3(wrapped, b"abc")
        );
    }
}
