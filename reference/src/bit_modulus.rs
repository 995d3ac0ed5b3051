//! `hash % bits` for the fixed bit count of one filter, by multiplication instead of division.
//!
//! Every hash function of `insert` and `contains` takes its 32-bit hash modulo the filter's
//! bit count, and a hardware division sits on the path from the hash to the byte it tests.
//! A filter's bit count never changes, so its reciprocal is computed once and each remainder
//! is two multiplications: `((M * hash mod 2^64) * bits) >> 64` with `M = floor((2^64 - 1) /
//! bits) + 1`, exact for every 32-bit `hash` and every `bits` below 2^32 (Lemire, Kaser and
//! Kurz, "Faster remainder by direct computation", 2019, for 32-bit operands and a 64-bit
//! multiplier). A bit count of 2^32 or more (a 512 MiB filter, beyond every ceiling) is above
//! every hash, so the remainder is the hash itself.

/// The remainder modulo one nonzero bit count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BitModulus {
    bits: u64,
    /// `floor((2^64 - 1) / bits) + 1`, wrapped (0 for `bits` = 1); unused from 2^32 bits.
    multiplier: u64,
}

impl BitModulus {
    /// The modulus for `bits`, or `None` when there are no bits (the empty filter).
    pub(crate) fn new(bits: u64) -> Option<Self> {
        let multiplier = (u64::MAX / bits.max(1)).wrapping_add(1);
        (bits > 0).then_some(Self { bits, multiplier })
    }

    /// `hash % bits`.
    #[inline(always)]
    pub(crate) fn of(self, hash: u32) -> usize {
        if self.bits > u64::from(u32::MAX) {
            return hash as usize;
        }
        let fraction = self.multiplier.wrapping_mul(u64::from(hash));
        ((u128::from(fraction) * u128::from(self.bits)) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::BitModulus;

    #[test]
    fn no_bits_has_no_modulus() {
        assert_eq!(BitModulus::new(0), None);
    }

    #[test]
    fn every_remainder_is_the_division_remainder() {
        let divisors = [1, 2, 3, 7, 8, 9, 19_168, 288_000, 288_008, 2_304_000]
            .into_iter()
            .chain([(1 << 31) - 1, 1 << 31, (1 << 31) + 1, (1 << 32) - 1])
            .chain([1 << 32, (1 << 32) + 8, u64::MAX])
            .chain((1..2000u64).map(|i| i * 8))
            .chain((0..200u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32 | 1));
        let hashes: Vec<u32> = [0, 1, 7, 8, u32::MAX, u32::MAX - 1, 1 << 31]
            .into_iter()
            .chain((0..500u32).map(|i| i.wrapping_mul(0x9E37_79B9)))
            .collect();
        for bits in divisors {
            let modulus = BitModulus::new(bits).unwrap();
            for &hash in &hashes {
                assert_eq!(
                    modulus.of(hash) as u64,
                    u64::from(hash) % bits,
                    "{hash} % {bits}"
                );
            }
        }
    }
}
