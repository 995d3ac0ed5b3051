//! The hashing switch points: MurmurHash3's block, tail and length mistakes, the hash seed
//! kept wider than 32 bits or without its tweak, and the bytes an element is hashed as.
//!
//! The mistaken hash is [`super::murmur`]'s model of mistaken ports; the generator flags each
//! vector by these mutants' answers, so a flag and its mutant cannot disagree. Without its bug
//! a mutant hashes with `bip37-reference`.

use super::bug::Bug;
use super::murmur::{murmur, Mistakes};
use bip37_reference::filter::SEED_MULTIPLIER;
use bip37_reference::limits::MAX_FILTERADD_BYTES;
use bip37_reference::{hash_seed, murmur3};
use std::borrow::Cow;

/// The seed as the mutant holds it: 32 bits, or wider for the seed mistakes.
pub fn mutant_seed(bug: Bug, hash_index: u32, tweak: u32) -> u64 {
    let product = u64::from(hash_index) * u64::from(SEED_MULTIPLIER);
    match bug {
        Bug::SeedNotWrapped => product + u64::from(tweak),
        Bug::SeedReducedMod2To31 => (product + u64::from(tweak)) % (1 << 31),
        // The tweak read as an i32 and sign-extended into the 64-bit sum.
        Bug::SignedTweak => product.wrapping_add(i64::from(tweak as i32) as u64),
        Bug::TweakIgnored => u64::from(hash_seed(hash_index, 0)),
        _ => u64::from(hash_seed(hash_index, tweak)),
    }
}

/// The seed as the mutant reports it for `hashSeed`, as a port with its mistake would send
/// it: wider than 32 bits when it was never wrapped, negative when a sign-extended tweak made
/// the signed 64-bit sum negative (such an answer is a wide value, [`crate::ops::wide`]).
pub fn reported_seed(bug: Bug, hash_index: u32, tweak: u32) -> i128 {
    let seed = mutant_seed(bug, hash_index, tweak);
    match bug {
        // The sum is at most 49,999 * 0xFBA4C795 + 2^31 in size: an i64 holds it exactly.
        Bug::SignedTweak => i128::from(seed as i64),
        _ => i128::from(seed),
    }
}

/// MurmurHash3 x86_32 of `data` as the mutant computes it, from a seed of [`mutant_seed`].
pub fn mutant_murmur3(bug: Bug, seed: u64, data: &[u8]) -> u32 {
    let mistakes = Mistakes {
        big_endian_blocks: bug == Bug::BigEndianBlocks,
        reversed_tail: bug == Bug::MurmurTail,
        sign_extended_tail: bug == Bug::SignExtendedTail,
        length_as_blocks: bug == Bug::MurmurLengthAsBlocks,
    };
    match u32::try_from(seed) {
        Ok(seed) if mistakes == Mistakes::default() => murmur3(seed, data),
        _ => murmur(seed, data, mistakes),
    }
}

/// The bytes the mutant feeds to the hash for `element`.
pub fn hashed_bytes(bug: Bug, element: &[u8]) -> Cow<'_, [u8]> {
    match bug {
        Bug::HexTextHashed => crate::hex::encode(element).into_bytes().into(),
        Bug::LongElementTruncated if element.len() > MAX_FILTERADD_BYTES => {
            element[..MAX_FILTERADD_BYTES].into()
        }
        _ => element.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bugs_only_change_what_they_break() {
        // Whole blocks and single positive bytes have no tail to get wrong.
        for data in [&b""[..], b"\x00\x11\x22\x33", b"\x7f"] {
            assert_eq!(mutant_murmur3(Bug::MurmurTail, 7, data), murmur3(7, data));
        }
        assert_ne!(
            mutant_murmur3(Bug::SignExtendedTail, 0, b"\xff"),
            murmur3(0, b"\xff")
        );
        assert_ne!(
            mutant_murmur3(Bug::BigEndianBlocks, 0, b"\x00\x11\x22\x33"),
            murmur3(0, b"\x00\x11\x22\x33")
        );
    }

    #[test]
    fn wide_seeds() {
        assert_eq!(mutant_seed(Bug::SeedNotWrapped, 1, 5), 4_221_880_218);
        assert_eq!(mutant_seed(Bug::SeedNotWrapped, 2, 0), 0x1_f749_8f2a);
        assert_eq!(mutant_seed(Bug::SignedTweak, 1, 0xffff_ffff), 0xfba4_c794);
        assert_eq!(
            mutant_seed(Bug::SignedTweak, 0, 0x8000_0000),
            0xffff_ffff_8000_0000
        );
        assert_eq!(reported_seed(Bug::SeedNotWrapped, 2, 0), 0x1_f749_8f2a);
        assert_eq!(reported_seed(Bug::SignedTweak, 0, 0x8000_0000), -(1 << 31));
        assert_eq!(reported_seed(Bug::MsbFirstBits, 2, 0), 0xf749_8f2a);
    }

    #[test]
    fn element_bytes() {
        assert_eq!(&*hashed_bytes(Bug::HexTextHashed, &[0xab]), b"ab");
        assert_eq!(
            hashed_bytes(Bug::LongElementTruncated, &[1; 600]).len(),
            520
        );
        assert_eq!(hashed_bytes(Bug::MurmurTail, &[1; 600]).len(), 600);
    }
}
