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

/// Mixes a scrambled block into the state of one seed: `rotl(h ^ k, 13) * 5 + 0xe6546b64`.
#[inline(always)]
fn mix(h: u32, scrambled: u32) -> u32 {
    times5_plus_constant((h ^ scrambled).rotate_left(13))
}

/// The constant added after the multiplication by 5.
const MIX_ADD: u32 = 0xe654_6b64;

/// `r * 5 + 0xe6546b64`, the last link of the per-block dependency chain, in one `lea`.
///
/// Why assembly: for generic x86-64 LLVM splits `r * 5 + c` into `lea` + `add` (it tunes
/// for CPUs where a three-operand `lea` is slow), so each block waits four instructions
/// where GCC's build of Core waits three. On the project's machine (Intel Xeon, 2026-12)
/// a GCC -O2 build of Core's function against this one in the same process, interleaved:
/// without the `lea` 0.80 of Core's speed at 520 B and 4 KiB; with it 0.93-1.01 there (four
/// runs), and 1.17-1.28 at 20-65 B with the per-size copies of [`murmur3()`]. The murmur3
/// bench shows the same step against `mur3`: 0.95-1.01 before, 1.10-1.25 after. The block is pure arithmetic on registers: it reads and writes no memory
/// and leaves the flags alone, so LLVM still schedules and unrolls around it.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn times5_plus_constant(r: u32) -> u32 {
    let out: u32;
    // SAFETY: one register-to-register `lea`; the address it computes is never accessed.
    // The upper half of `r`'s 64-bit register may hold anything: the low 32 bits of the
    // sum, all that `out` keeps, depend only on the low 32 bits of `r`.
    unsafe {
        std::arch::asm!(
            "lea {out:e}, [{r:r} + {r:r}*4 + {add}]",
            out = lateout(reg) out,
            r = in(reg) r,
            add = const MIX_ADD as i32, // a sign-extended displacement, the same mod 2^32
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    out
}

/// `r * 5 + 0xe6546b64` (see the x86-64 version for why that one is assembly).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn times5_plus_constant(r: u32) -> u32 {
    r.wrapping_mul(5).wrapping_add(MIX_ADD)
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
///
/// The 20-byte element (hash160) gets a copy compiled for its length: blocks fully unrolled
/// and no tail; against Core's own compiled `MurmurHash3` (the vs_core bench of
/// adapters/bitcoin-core, AMD EPYC) it takes 0.68-0.89 of Core's time. The other sizes go
/// through the unrolled loops ([`GROUP`], [`LONG_GROUP`]): the txid (32 B) and outpoint (36 B)
/// had copies too, and were slower with them on each CPU the machine has had (see `GROUP`).
pub fn murmur3(seed: u32, data: &[u8]) -> u32 {
    match data.len() {
        20 => murmur3_20(seed, data[..20].try_into().unwrap()),
        n if n >= LONG => murmur3_any::<LONG_GROUP>(seed, data),
        _ => murmur3_any::<GROUP>(seed, data),
    }
}

/// MurmurHash3 x86_32 of a 20-byte element (a hash160, the most common element of a wallet's
/// filter), every block unrolled and no tail; inlined where a caller knows the length.
#[inline(always)]
pub(crate) fn murmur3_20(seed: u32, data: &[u8; 20]) -> u32 {
    murmur3_any::<GROUP>(seed, data)
}

/// Bytes per pass of the general loop below [`LONG`] bytes: four blocks, unrolled. A call's
/// chain of blocks is latency-bound (xor, rotate, `lea`) in Core's loop and in this one alike,
/// but calls on independent inputs (a filter's hash functions, a batch of elements) overlap,
/// and there the instructions around the blocks count. On the AMD EPYC of 2026-12 (Zen 4,
/// family 25 model 17), against Core's own compiled `MurmurHash3` (vs_core, seven rounds, two
/// builds): eight blocks a pass gave 0.98-1.00 of Core's time at 32 B, 0.97-0.98 at 33 B and
/// 1.05-1.06 at 36 B; four give 0.87, 0.87-0.88 and 0.88-0.90, and 0.91-0.94 at 65 B. Per-size
/// copies of 32, 33 and 36 B (the length known, every block unrolled) were slower again:
/// 1.13-1.18. On the Zen 3 the machine had before, eight blocks had been the best (0.82-0.97
/// from 32 to 36 B), so the figure to trust is the bench's on the machine at hand.
const GROUP: usize = 16;

/// Bytes per pass for an element of at least [`LONG`] bytes: thirty-two blocks, unrolled. With
/// eight blocks a pass, the loop's own counter and branch cost a few per cent against Core's
/// one chain on long data: vs_core gave 1.02 of Core's time at 520 B and 1.04 at 4 KiB (Zen 3,
/// 20 interleaved rounds); thirty-two blocks gave 0.97 and 0.98 there (seven rounds), and
/// 0.99-1.01 on the Zen 4. They are kept to long data: sixty-four-byte passes for every length
/// made the txid and outpoint (32 to 36 B) slower, 1.14-1.21 of Core's time, because a short
/// element then never runs the unrolled body and falls to the one-block remainder.
const LONG_GROUP: usize = 128;

/// The length from which [`LONG_GROUP`] is used: below it an element has at most a few
/// passes, and the shorter group's code (already in the cache for the filters' 20 to 65-byte
/// elements) is as fast.
const LONG: usize = 256;

/// MurmurHash3 x86_32 of `data` of any length.
#[inline(always)]
fn murmur3_any<const G: usize>(seed: u32, data: &[u8]) -> u32 {
    let (groups, rest) = data.as_chunks::<G>();
    let mut h = seed;
    for group in groups {
        for block in group.as_chunks::<4>().0 {
            h = mix(h, scramble(u32::from_le_bytes(*block)));
        }
    }
    let (words, tail) = blocks(rest);
    for word in words {
        h = mix(h, scramble(word));
    }
    if let Some(tail) = tail {
        h ^= scramble(tail);
    }
    finish(h, data)
}

/// MurmurHash3 x86_32 of `data` under `N` seeds, as `N` calls of [`murmur3`] would give.
///
/// A filter hashes one element under one seed per hash function. Scrambling a block does not
/// depend on the seed, so it is done once for all of them; the rest (xor, rotate,
/// multiply-add) is one dependency chain per seed, and the `N` independent chains run side by
/// side instead of each waiting for the latency of the last (the `lea` of
/// `times5_plus_constant` keeps them in scalar registers; see `finish_many`). `insert` takes
/// four at a time; `contains` two for a long element, where two chains cost about what one
/// does and four do not (`cargo bench --manifest-path adapters/bitcoin-core/Cargo.toml --bench
/// vs_core`).
pub fn murmur3_many<const N: usize>(seeds: [u32; N], data: &[u8]) -> [u32; N] {
    let (words, tail) = blocks(data);
    let mut states = seeds;
    for word in words {
        let k = scramble(word);
        // In place, lane by lane: `states.map(..)` here packed two lanes into one 64-bit
        // register and shifted them apart on every block.
        for h in &mut states {
            *h = mix(*h, k);
        }
    }
    if let Some(tail) = tail {
        let k = scramble(tail);
        states = states.map(|h| h ^ k);
    }
    finish_many(states, data)
}

/// [`finish`] of several states. Not inlined on purpose: inlined, LLVM vectorizes this step and
/// then carries the four states through the block loop in one vector register, moving them
/// to scalar registers and back on every block (measured slower than four single calls).
#[inline(never)]
fn finish_many<const N: usize>(states: [u32; N], data: &[u8]) -> [u32; N] {
    states.map(|h| finish(h, data))
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
    use super::{murmur3, murmur3_many, times5_plus_constant, MIX_ADD};

    #[test]
    fn empty_input_with_zero_seed_is_zero() {
        assert_eq!(murmur3(0, &[]), 0);
    }

    #[test]
    fn the_last_link_of_the_mix_wraps_as_the_plain_formula() {
        for r in [
            0,
            1,
            0x3333_3333,
            0x3333_3334,
            0x8000_0000,
            u32::MAX - 4,
            u32::MAX,
        ]
        .into_iter()
        .chain((0..1000u32).map(|i| i.wrapping_mul(0x9E37_79B9)))
        {
            assert_eq!(
                times5_plus_constant(r),
                r.wrapping_mul(5).wrapping_add(MIX_ADD)
            );
        }
    }

    #[test]
    fn every_length_hashes_as_the_mur3_crate_does() {
        // Covers the length with its own unrolled copy (20), the four-block group (16), the
        // long group from `LONG` on (256, 128-byte passes) and their neighbours, with every tail
        // length and up to four long passes plus a partial one.
        let data: Vec<u8> = (0..=700u32)
            .map(|i| (i as u8).wrapping_mul(151) ^ (i >> 8) as u8)
            .collect();
        for len in 0..=data.len() {
            for seed in [0, 0xFBA4_C795, u32::MAX] {
                let expected = mur3::murmurhash3_x86_32(&data[..len], seed);
                assert_eq!(murmur3(seed, &data[..len]), expected, "length {len}");
            }
        }
    }

    #[test]
    fn many_seeds_hash_as_the_mur3_crate_does() {
        let data: Vec<u8> = (0..=255).collect();
        let seeds = [0, 0xFBA4_C795, u32::MAX, 7];
        for len in 0..data.len() {
            let expected = seeds.map(|seed| mur3::murmurhash3_x86_32(&data[..len], seed));
            assert_eq!(murmur3_many(seeds, &data[..len]), expected, "length {len}");
            let pair = [seeds[1], seeds[2]];
            assert_eq!(
                murmur3_many(pair, &data[..len]),
                [expected[1], expected[2]],
                "length {len}"
            );
        }
    }
}
