//! The mutant's Bloom filter: Core's bit array, seeds and bit indexes, with the switch points
//! of the filter mistakes (seed wrap, hashed bytes, modulus, bit order, MurmurHash3 tail, the
//! empty-filter guard). A filter is set up by `bip37-reference` unless the constructor's
//! arithmetic is the mistake.

use super::bug::Bug;
use super::hashing::{hashed_bytes, mutant_murmur3, mutant_seed};
use super::sizing::{is_sizing_bug, mutant_size};
use crate::implementation::Stage;
use crate::ops::FilterInit;
use crate::reference_impl::init_filter;
use bip37_reference::{BloomFilter, FilterLoad};
use std::fmt;

/// What the mutant without the empty-filter guard runs into: `hash % 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DivisionByZero;

impl fmt::Display for DivisionByZero {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("division by zero: hashed into a filter of 0 bits")
    }
}

/// A Bloom filter that makes the mutant's mistake, held as its four wire fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MutantFilter {
    bug: Bug,
    fields: FilterLoad,
}

impl MutantFilter {
    /// Sets up the filter a test describes.
    pub fn new(bug: Bug, init: &FilterInit) -> Result<Self, (Stage, String)> {
        let core = match init {
            FilterInit::Sized {
                n_elements,
                fp_rate,
                tweak,
                flags,
            } if is_sizing_bug(bug) => {
                let size = mutant_size(bug, *n_elements, fp_rate.0)
                    .map_err(|e| (Stage::Parameters, e.to_string()))?;
                BloomFilter::with_size(
                    u64::from(size.filter_bytes),
                    size.hash_funcs,
                    *tweak,
                    *flags,
                )
                .map_err(|e| (Stage::Parameters, e.to_string()))?
            }
            _ => init_filter(init)?,
        };
        let mut fields = FilterLoad::from(&core);
        if bug == Bug::ZeroHashFuncsRefused && fields.hash_funcs == 0 {
            return Err((
                Stage::Parameters,
                "a filter needs at least one hash function".into(),
            ));
        }
        // The forced minimum lives in the constructor: an explicit count of 0 is raised too
        // (a loaded filter is taken as the message carries it).
        let constructed = matches!(init, FilterInit::Explicit { .. });
        if bug == Bug::ForcedMinimumOneHash && constructed {
            fields.hash_funcs = fields.hash_funcs.max(1);
        }
        Ok(Self::from_fields(bug, fields))
    }

    /// A filter from its wire fields.
    pub fn from_fields(bug: Bug, fields: FilterLoad) -> Self {
        Self { bug, fields }
    }

    /// The wire fields.
    pub fn fields(&self) -> &FilterLoad {
        &self.fields
    }

    /// The bit array.
    pub fn data(&self) -> &[u8] {
        &self.fields.data
    }

    /// The raw flags byte.
    pub fn flags(&self) -> u8 {
        self.fields.flags
    }

    /// True for the match-all filter with no bytes.
    pub fn is_empty(&self) -> bool {
        self.fields.data.is_empty()
    }

    /// True where the mutant skips `element` altogether.
    fn skips(&self, element: &[u8]) -> bool {
        self.bug == Bug::EmptyElementSkipped && element.is_empty()
    }

    /// The bit index of every hash function, in order (empty for the empty filter).
    pub fn bit_indexes(&self, element: &[u8]) -> Result<Vec<u32>, DivisionByZero> {
        if self.skips(element) {
            return Ok(Vec::new());
        }
        (0..self.fields.hash_funcs)
            .map(|i| self.bit_index(i, element))
            .filter_map(Result::transpose)
            .collect()
    }

    /// Sets the bits of `element`.
    pub fn insert(&mut self, element: &[u8]) -> Result<(), DivisionByZero> {
        for bit in self.bit_indexes(element)? {
            let (byte, mask) = self.position(bit);
            self.fields.data[byte] |= mask;
        }
        Ok(())
    }

    /// True when every bit of `element` is set.
    pub fn contains(&self, element: &[u8]) -> Result<bool, DivisionByZero> {
        if self.skips(element) {
            return Ok(false);
        }
        let set = |bit: u32| {
            let (byte, mask) = self.position(bit);
            self.fields.data[byte] & mask != 0
        };
        let bits = self.bit_indexes(element)?;
        Ok(match self.bug {
            // Vacuously true with no hash functions, as Core's `all` is.
            Bug::ContainsAnyBit if !bits.is_empty() => bits.into_iter().any(set),
            _ => bits.into_iter().all(set),
        })
    }

    /// The bit hash function `hash_index` selects, `None` where Core's empty-filter guard stops.
    fn bit_index(&self, hash_index: u32, element: &[u8]) -> Result<Option<u32>, DivisionByZero> {
        let modulus = match self.bug {
            Bug::ModulusByBytes => self.data().len() as u64,
            _ => self.data().len() as u64 * 8,
        };
        if modulus == 0 {
            return match self.bug {
                Bug::NoEmptyFilterGuard => Err(DivisionByZero),
                _ => Ok(None),
            };
        }
        let seed = mutant_seed(self.bug, hash_index, self.fields.tweak);
        let hash = mutant_murmur3(self.bug, seed, &hashed_bytes(self.bug, element));
        Ok(Some((u64::from(hash) % modulus) as u32))
    }

    /// The byte and the mask of bit `bit`.
    fn position(&self, bit: u32) -> (usize, u8) {
        let mask = match self.bug {
            Bug::MsbFirstBits => 0x80 >> (bit & 7),
            _ => 1 << (bit & 7),
        };
        ((bit >> 3) as usize, mask)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explicit(bytes: u32, hash_funcs: u32) -> FilterInit {
        FilterInit::Explicit {
            filter_bytes: bytes,
            hash_funcs,
            tweak: 7,
            flags: 0,
        }
    }

    #[test]
    fn a_harmless_bug_keeps_the_worked_example() {
        let init = FilterInit::Sized {
            n_elements: 8,
            fp_rate: crate::ops::FpRate(0.05),
            tweak: 7,
            flags: 0,
        };
        let mut f = MutantFilter::new(Bug::BigEndianTweak, &init).unwrap();
        assert_eq!(f.bit_indexes(b"\xab").unwrap(), vec![31, 5, 13, 34]);
        f.insert(b"\xab").unwrap();
        f.insert(b"\xca\xfe").unwrap();
        assert_eq!(f.data(), &[0x20, 0x20, 0x10, 0x84, 0x44, 0x40]);
        assert!(f.contains(b"\xab").unwrap());
    }

    #[test]
    fn msb_first_mirrors_each_byte() {
        let mut f = MutantFilter::new(Bug::MsbFirstBits, &explicit(6, 4)).unwrap();
        f.insert(b"\xab").unwrap();
        let mut core = init_filter(&explicit(6, 4)).unwrap();
        core.insert(b"\xab");
        let mirrored: Vec<u8> = core.data().iter().map(|b| b.reverse_bits()).collect();
        assert_eq!(f.data(), mirrored.as_slice());
    }

    #[test]
    fn empty_filter_guard() {
        let guarded = MutantFilter::new(Bug::MsbFirstBits, &explicit(0, 3)).unwrap();
        assert_eq!(guarded.contains(b"x"), Ok(true));
        let unguarded = MutantFilter::new(Bug::NoEmptyFilterGuard, &explicit(0, 3)).unwrap();
        assert_eq!(unguarded.contains(b"x"), Err(DivisionByZero));
        assert_eq!(
            unguarded.bit_indexes(b"x"),
            Err(DivisionByZero),
            "hashing into no bits is the CVE-2013-5700 crash"
        );
    }

    #[test]
    fn modulus_by_bytes_stays_in_the_first_eighth() {
        let f = MutantFilter::new(Bug::ModulusByBytes, &explicit(100, 50)).unwrap();
        assert!(f.bit_indexes(b"abc").unwrap().iter().all(|&b| b < 100));
    }
}
