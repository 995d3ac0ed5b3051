//! Filter sizing from (number of elements, false-positive rate), exactly as Bitcoin Core's
//! `CBloomFilter` constructor (src/common/bloom.cpp).
//!
//! The arithmetic order matters to the last bit: the bit count is a `double` truncated to an
//! unsigned integer and capped at 36,000 × 8 before it is divided into whole bytes; the hash
//! function count divides the bit count by `n` as INTEGERS before multiplying by ln 2. A
//! floating-point `bytes * 8 / n` gives a different count (n = 9, p = 0.01: 5, not 6).
//!
//! Core leaves some inputs undefined (division by zero, a double outside (-1, 2^32) cast to
//! `unsigned int`: NaN from the logarithm of a negative rate, infinity from a rate of 0, a
//! negative count from most rates above 1); they are typed errors here, never a panic. A rate
//! of exactly 1 is defined: log(1) = 0, the bit count is -0.0 and converts to 0, so Core builds
//! the 0-byte, 0-function (match-all) filter.

use crate::limits::{MAX_FILTER_BYTES, MAX_HASH_FUNCS};
use std::fmt;

/// ln(2)², as Core spells it (`LN2SQUARED`).
pub const LN2_SQUARED: f64 = 0.480_453_013_918_201_4;
/// ln(2): Core's `LN2` literal rounds to the same double as the standard constant.
pub const LN2: f64 = std::f64::consts::LN_2;

/// The size of a filter: what the constructor derives from (n, p).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FilterSize {
    /// Length of the bit array in bytes (0 to 36,000).
    pub filter_bytes: u32,
    /// Number of hash functions (0 to 50).
    pub hash_funcs: u32,
}

/// An input for which Core's constructor has no defined result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SizingError {
    /// `n = 0`: Core divides by zero when it computes the hash function count.
    ZeroElements,
    /// The rate is NaN, not above 0, or so far above 1 that the bit count is -1 or less:
    /// Core's cast of that double to `unsigned int` is undefined behaviour.
    FpRateOutOfRange(f64),
    /// The bit count before the cap does not fit in 32 bits: Core's cast to `unsigned int`
    /// is undefined behaviour there.
    BitCountOverflow(f64),
}

impl fmt::Display for SizingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SizingError::ZeroElements => {
                write!(f, "n_elements must be at least 1 (Core divides by it)")
            }
            SizingError::FpRateOutOfRange(p) => {
                write!(
                    f,
                    "fp_rate {p} gives a bit count Core cannot convert (NaN, infinite or -1 or less)"
                )
            }
            SizingError::BitCountOverflow(bits) => write!(
                f,
                "the uncapped bit count {bits} does not fit in 32 bits (undefined in Core)"
            ),
        }
    }
}

impl std::error::Error for SizingError {}

/// Sizes a filter for `n_elements` elements at false-positive rate `fp_rate`.
pub fn size_for(n_elements: u32, fp_rate: f64) -> Result<FilterSize, SizingError> {
    if n_elements == 0 {
        return Err(SizingError::ZeroElements);
    }
    if fp_rate.is_nan() || fp_rate <= 0.0 {
        return Err(SizingError::FpRateOutOfRange(fp_rate));
    }
    // Core: -1 / LN2SQUARED * nElements * log(nFPRate), evaluated left to right. Converting a
    // double to `unsigned int` is defined when the truncated value fits: above -1 and below
    // 2^32 (so p = 1 gives -0.0 and a few rates just above 1 give small negatives: all 0).
    let raw_bits = -1.0 / LN2_SQUARED * f64::from(n_elements) * fp_rate.ln();
    if raw_bits.is_nan() || raw_bits <= -1.0 {
        return Err(SizingError::FpRateOutOfRange(fp_rate));
    }
    if raw_bits >= 4_294_967_296.0 {
        return Err(SizingError::BitCountOverflow(raw_bits));
    }
    let bits = (raw_bits as u32).min(MAX_FILTER_BYTES * 8);
    let filter_bytes = bits / 8;
    Ok(FilterSize {
        filter_bytes,
        hash_funcs: hash_funcs_for(filter_bytes, n_elements),
    })
}

/// Core's hash function count: `(bytes * 8 / n)` in integers, times ln 2, truncated, capped.
fn hash_funcs_for(filter_bytes: u32, n_elements: u32) -> u32 {
    let bits_per_element = u64::from(filter_bytes) * 8 / u64::from(n_elements);
    ((bits_per_element as f64 * LN2) as u32).min(MAX_HASH_FUNCS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(n: u32, p: f64) -> (u32, u32) {
        let s = size_for(n, p).unwrap();
        (s.filter_bytes, s.hash_funcs)
    }

    #[test]
    fn core_checked_sizes() {
        assert_eq!(size(3, 0.01), (3, 5));
        assert_eq!(size(2, 0.001), (3, 8));
        assert_eq!(size(10, 0.000001), (35, 19));
    }

    #[test]
    fn integer_division_before_ln2() {
        // 86 bits truncate to 10 bytes; 80 / 9 = 8 in integers, 8 * ln 2 = 5.5 -> 5.
        // Floating-point division gives 8.9 * ln 2 = 6.2 -> 6.
        assert_eq!(size(9, 0.01), (10, 5));
    }

    #[test]
    fn degenerate_but_defined_results() {
        assert_eq!(size(1, 0.5), (0, 0));
        assert_eq!(size(1_000_000, 0.0001), (36_000, 0));
        // log(1) = 0: the bit count is -0.0, which converts to 0.
        assert_eq!(size(5, 1.0), (0, 0));
        // -n ln p / ln²2 = -0.198 for n = 1, p = 1.1: truncated to 0, still defined.
        assert_eq!(size(1, 1.1), (0, 0));
    }

    #[test]
    fn undefined_inputs_are_errors() {
        assert_eq!(size_for(0, 0.01), Err(SizingError::ZeroElements));
        for p in [0.0, -0.5, 2.0, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(size_for(5, p), Err(SizingError::FpRateOutOfRange(p)));
        }
        assert!(matches!(
            size_for(5, f64::NAN),
            Err(SizingError::FpRateOutOfRange(_))
        ));
        assert!(matches!(
            size_for(u32::MAX, 1e-9),
            Err(SizingError::BitCountOverflow(_))
        ));
    }
}
