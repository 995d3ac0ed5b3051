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

/// Mixes a scrambled block into the state of one seed.
#[inline(always)]
fn mix(h: u32, scrambled: u32) -> u32 {
    (h ^ scrambled)
        .rotate_left(13)
        .wrapping_mul(5)
        .wrapping_add(0xe654_6b64)
}

/// The 4-byte blocks of `data` as little-endian words, and the 1 to 3 tail bytes combined
/// little-endian as Core's fall-through switch does (`None` when there is no tail).
#[inline(always)]
fn blocks(data: &[u8]) -> (impl Iterator<Item = u32> + '_, Option<u32>) {
    let blocks = data.chunks_exact(4);
    let tail = blocks.remainder();
    let tail = (!tail.is_empty()).then(|| {
        tail.iter()
            .rev()
            .fold(0u32, |k, &byte| k << 8 | u32::from(byte))
    });
    let words = blocks.map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    (words, tail)
}

/// MurmurHash3 x86_32 of `data` with `seed`.
pub fn murmur3(seed: u32, data: &[u8]) -> u32 {
    let (words, tail) = blocks(data);
    let mut h = seed;
    for word in words {
        h = mix(h, scramble(word));
    }
    if let Some(tail) = tail {
        h ^= scramble(tail);
    }
    finish(h, data)
}

/// MurmurHash3 x86_32 of `data` under four seeds, as four calls of [`murmur3`] would give.
///
/// A filter hashes one element under one seed per hash function. Scrambling a block does not
/// depend on the seed, so it is done once for the four; the rest (xor, rotate, multiply-add)
/// is one dependency chain per seed, and four independent chains run side by side instead of
/// each waiting for the latency of the last (see [`finish_x4`] for what keeps them in
/// scalar registers). `cargo bench -p bip37-reference --bench murmur3`.
pub fn murmur3_x4(seeds: [u32; 4], data: &[u8]) -> [u32; 4] {
    let (words, tail) = blocks(data);
    let [mut a, mut b, mut c, mut d] = seeds;
    for word in words {
        let k = scramble(word);
        (a, b, c, d) = (mix(a, k), mix(b, k), mix(c, k), mix(d, k));
    }
    if let Some(tail) = tail {
        let k = scramble(tail);
        (a, b, c, d) = (a ^ k, b ^ k, c ^ k, d ^ k);
    }
    finish_x4(a, b, c, d, data)
}

/// [`finish`] of four states. Not inlined on purpose: inlined, LLVM vectorizes this step and
/// then carries the four states through the block loop in one vector register, moving them
/// to scalar registers and back on every block (measured slower than four single calls).
#[inline(never)]
fn finish_x4(a: u32, b: u32, c: u32, d: u32, data: &[u8]) -> [u32; 4] {
    [a, b, c, d].map(|h| finish(h, data))
}

/// Mixes in the length, modulo 2^32 as Core's `uint32_t` cast does, and avalanches.
#[inline(always)]
fn finish(h: u32, data: &[u8]) -> u32 {
    fmix(h ^ data.len() as u32)
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
    use super::{murmur3, murmur3_x4};

    #[test]
    fn empty_input_with_zero_seed_is_zero() {
        assert_eq!(murmur3(0, &[]), 0);
    }

    #[test]
    fn many_seeds_hash_as_the_mur3_crate_does() {
        let data: Vec<u8> = (0..=255).collect();
        let seeds = [0, 0xFBA4_C795, u32::MAX, 7];
        for len in 0..data.len() {
            let expected = seeds.map(|seed| mur3::murmurhash3_x86_32(&data[..len], seed));
            assert_eq!(murmur3_x4(seeds, &data[..len]), expected, "length {len}");
        }
    }
}
