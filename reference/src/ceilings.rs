//! Work ceilings: the largest filter this crate builds or hashes with, checked when a filter is
//! made, before any memory is allocated or any element hashed.
//!
//! They are not protocol limits ([`crate::limits`]: a node refuses more than 36,000 bytes or 50
//! hash functions after decoding a `filterload`). A filter a client builds for itself may be
//! larger, and a test suite must be able to build one to show an implementation that forgets the
//! limits; but a hash function count of 2^32 - 1 would take minutes per element and gigabytes of
//! bit indexes. The ceilings leave room for such tests (a byte cap applied to the bit count,
//! 288,000 bytes, and twenty times Core's hash function limit) and refuse anything beyond.

use crate::limits::{MAX_FILTER_BYTES, MAX_HASH_FUNCS};
use std::fmt;

/// The most bytes of a filter built or hashed with: 8 × 36,000 = 288,000.
pub const MAX_BUILT_FILTER_BYTES: u64 = 8 * MAX_FILTER_BYTES as u64;
/// The most hash functions of a filter built or hashed with: 20 × 50 = 1,000.
pub const MAX_BUILT_HASH_FUNCS: u32 = 20 * MAX_HASH_FUNCS;

/// A filter beyond the work ceilings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BeyondCeiling {
    /// More bytes than [`MAX_BUILT_FILTER_BYTES`].
    FilterBytes(u64),
    /// More hash functions than [`MAX_BUILT_HASH_FUNCS`].
    HashFuncs(u32),
}

impl fmt::Display for BeyondCeiling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BeyondCeiling::FilterBytes(n) => write!(
                f,
                "a filter of {n} bytes is beyond the {MAX_BUILT_FILTER_BYTES}-byte ceiling of \
                 filters built here"
            ),
            BeyondCeiling::HashFuncs(n) => write!(
                f,
                "{n} hash functions are beyond the ceiling of {MAX_BUILT_HASH_FUNCS} for \
                 filters built here"
            ),
        }
    }
}

impl std::error::Error for BeyondCeiling {}

/// Checks a filter's size and hash function count against the ceilings.
pub fn check_filter(filter_bytes: u64, hash_funcs: u32) -> Result<(), BeyondCeiling> {
    if filter_bytes > MAX_BUILT_FILTER_BYTES {
        return Err(BeyondCeiling::FilterBytes(filter_bytes));
    }
    if hash_funcs > MAX_BUILT_HASH_FUNCS {
        return Err(BeyondCeiling::HashFuncs(hash_funcs));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceilings_are_inclusive_and_above_the_protocol_limits() {
        assert_eq!(check_filter(288_000, 1_000), Ok(()));
        assert_eq!(
            check_filter(36_001, 51),
            Ok(()),
            "room to test the protocol limits"
        );
        assert_eq!(
            check_filter(288_001, 1),
            Err(BeyondCeiling::FilterBytes(288_001))
        );
        assert_eq!(
            check_filter(1, u32::MAX),
            Err(BeyondCeiling::HashFuncs(u32::MAX))
        );
    }
}
