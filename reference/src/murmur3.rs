//! MurmurHash3 x86_32, exactly as Bitcoin Core's `MurmurHash3` (src/hash.cpp).
//!
//! Every operation wraps at 32 bits, the 4-byte blocks are read little-endian and the
//! tail bytes are unsigned (no sign extension). The final mix XORs the whole byte
//! length, not the block count.

const C1: u32 = 0xcc9e_2d51;
const C2: u32 = 0x1b87_3593;

/// Scrambles one 32-bit block before it is mixed into the state.
#[inline(always)]
fn scramble(k: u32) -> u32 {
    k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2)
}

/// MurmurHash3 x86_32 of `data` with `seed`.
pub fn murmur3(seed: u32, data: &[u8]) -> u32 {
    let mut h = seed;
    let mut blocks = data.chunks_exact(4);
    for block in &mut blocks {
        let k = u32::from_le_bytes([block[0], block[1], block[2], block[3]]);
        h ^= scramble(k);
        h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    // The 1 to 3 tail bytes, little-endian, as Core's fall-through switch combines them.
    let tail = blocks.remainder();
    if let Some(&first) = tail.first() {
        let mut k = u32::from(first);
        if let Some(&second) = tail.get(1) {
            k |= u32::from(second) << 8;
        }
        if let Some(&third) = tail.get(2) {
            k |= u32::from(third) << 16;
        }
        h ^= scramble(k);
    }
    // The length is mixed in modulo 2^32, as Core's `uint32_t` cast does.
    h ^= data.len() as u32;
    fmix(h)
}

/// The final avalanche of MurmurHash3.
#[inline(always)]
fn fmix(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

#[cfg(test)]
mod tests {
    use super::murmur3;

    #[test]
    fn empty_input_with_zero_seed_is_zero() {
        assert_eq!(murmur3(0, &[]), 0);
    }

    #[test]
    fn core_seed_vectors_for_every_tail_length() {
        // A sample of Core's hash_tests (the vector files hold all of them).
        assert_eq!(murmur3(0xFBA4_C795, &[]), 0x6a39_6f08);
        assert_eq!(murmur3(0, &[0xff]), 0xfd6c_f10d);
        assert_eq!(murmur3(0, &[0x00, 0x11]), 0x16c6_b7ab);
        assert_eq!(murmur3(0, &[0x00, 0x11, 0x22]), 0x8eb5_1c3d);
        assert_eq!(murmur3(0, &[0x00, 0x11, 0x22, 0x33]), 0xb4471bf8);
    }
}
