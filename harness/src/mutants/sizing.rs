//! The sizing switch points: how the constructor turns (n, p) into bytes and hash functions.
//! Inputs Core leaves undefined stay errors exactly as in `bip37-reference`; only the
//! arithmetic of a defined result is where a mutant goes wrong.

use super::bug::Bug;
use bip37_reference::limits::{MAX_FILTER_BYTES, MAX_HASH_FUNCS};
use bip37_reference::sizing::{LN2, LN2_SQUARED};
use bip37_reference::{size_for, FilterSize, SizingError};

/// The sizing bugs: the mistakes that live in the constructor's arithmetic.
pub fn is_sizing_bug(bug: Bug) -> bool {
    matches!(
        bug,
        Bug::FloatHashCount
            | Bug::SizeRoundedUp
            | Bug::HashCountFromRawBits
            | Bug::HashCountRounded
            | Bug::ForcedMinimumOneHash
            | Bug::NoHashFuncCap
            | Bug::NoFilterSizeCap
            | Bug::ByteCapAgainstBitLimit
            | Bug::BitCapAgainstByteLimit
            | Bug::UndefinedSizing
    )
}

/// The size the mutant's constructor gives `n_elements` at `fp_rate`.
pub fn mutant_size(bug: Bug, n_elements: u32, fp_rate: f64) -> Result<FilterSize, SizingError> {
    match size_for(n_elements, fp_rate) {
        Err(_) if bug == Bug::UndefinedSizing => {}
        Ok(core) if !is_sizing_bug(bug) || bug == Bug::UndefinedSizing => return Ok(core),
        Err(e) => return Err(e),
        Ok(_) => {}
    }
    // Core's expression; the cast saturates (NaN and negatives give 0), which is the answer
    // the undefined-sizing mutant makes up where Core has none.
    let raw_bits = (-1.0 / LN2_SQUARED * f64::from(n_elements) * fp_rate.ln()) as u32;
    let capped_bits = match bug {
        Bug::NoFilterSizeCap => raw_bits,
        Bug::BitCapAgainstByteLimit => raw_bits.min(MAX_FILTER_BYTES),
        _ => raw_bits.min(MAX_FILTER_BYTES * 8),
    };
    let filter_bytes = match bug {
        Bug::SizeRoundedUp => capped_bits.div_ceil(8),
        Bug::ByteCapAgainstBitLimit => (raw_bits / 8).min(MAX_FILTER_BYTES * 8),
        _ => capped_bits / 8,
    };
    let bits_per_element = match bug {
        Bug::FloatHashCount => f64::from(filter_bytes) * 8.0 / f64::from(n_elements),
        Bug::HashCountFromRawBits => f64::from(capped_bits / n_elements),
        _ => (u64::from(filter_bytes) * 8)
            .checked_div(u64::from(n_elements))
            .unwrap_or(0) as f64,
    };
    let uncapped = match bug {
        Bug::HashCountRounded => (bits_per_element * LN2).round() as u32,
        _ => (bits_per_element * LN2) as u32,
    };
    let hash_funcs = match bug {
        Bug::NoHashFuncCap => uncapped,
        Bug::ForcedMinimumOneHash => uncapped.clamp(1, MAX_HASH_FUNCS),
        _ => uncapped.min(MAX_HASH_FUNCS),
    };
    Ok(FilterSize {
        filter_bytes,
        hash_funcs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(bug: Bug, n: u32, p: f64) -> (u32, u32) {
        let s = mutant_size(bug, n, p).unwrap();
        (s.filter_bytes, s.hash_funcs)
    }

    #[test]
    fn each_bug_changes_its_own_quantity() {
        assert_eq!(size(Bug::MsbFirstBits, 9, 0.01), (10, 5));
        assert_eq!(size(Bug::FloatHashCount, 9, 0.01), (10, 6));
        assert_eq!(size(Bug::SizeRoundedUp, 9, 0.01), (11, 6));
        assert_eq!(size(Bug::HashCountFromRawBits, 9, 0.01), (10, 6));
        assert_eq!(size(Bug::HashCountRounded, 9, 0.01), (10, 6));
        assert_eq!(
            size(Bug::NoFilterSizeCap, 1_000_000, 0.0001),
            (2_396_264, 13)
        );
        assert_eq!(size(Bug::NoHashFuncCap, 1, 1e-30), (17, 94));
        assert_eq!(size(Bug::ForcedMinimumOneHash, 1, 0.5), (0, 1));
        assert_eq!(
            size(Bug::ByteCapAgainstBitLimit, 1_000_000, 0.0001).0,
            288_000
        );
        assert_eq!(
            size(Bug::BitCapAgainstByteLimit, 1_000_000, 0.0001).0,
            4_500
        );
    }

    #[test]
    fn undefined_inputs_stay_errors_except_for_their_mutant() {
        assert_eq!(
            mutant_size(Bug::FloatHashCount, 0, 0.01),
            Err(SizingError::ZeroElements)
        );
        assert_eq!(size(Bug::UndefinedSizing, 0, 0.01), (0, 0));
        assert_eq!(size(Bug::UndefinedSizing, 5, 2.0), (0, 0));
        assert_eq!(size(Bug::UndefinedSizing, 9, 0.01), (10, 5));
    }
}
