//! The protocol limits a node applies AFTER decoding a message (Core: `IsWithinSizeConstraints`
//! and the `filteradd` element size check). Decoding and limits are separate phases: Core
//! decodes an oversize `filterload` without complaint and only then treats the peer as
//! misbehaving.

use std::fmt;

/// `MAX_BLOOM_FILTER_SIZE`: the largest filter a node accepts, in bytes (inclusive).
pub const MAX_FILTER_BYTES: u32 = 36_000;
/// `MAX_HASH_FUNCS`: the most hash functions a node accepts (inclusive).
pub const MAX_HASH_FUNCS: u32 = 50;
/// `MAX_SCRIPT_ELEMENT_SIZE`: the largest `filteradd` element a node accepts (inclusive).
pub const MAX_FILTERADD_BYTES: usize = 520;

/// A decoded message that a node rejects (Core calls the peer misbehaving).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitError {
    /// A `filterload` filter longer than 36,000 bytes.
    FilterTooLarge(usize),
    /// A `filterload` with more than 50 hash functions.
    TooManyHashFuncs(u32),
    /// A `filteradd` element longer than 520 bytes.
    ElementTooLarge(usize),
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitError::FilterTooLarge(n) => {
                write!(f, "filter of {n} bytes exceeds {MAX_FILTER_BYTES} bytes")
            }
            LimitError::TooManyHashFuncs(n) => {
                write!(f, "{n} hash functions exceed {MAX_HASH_FUNCS}")
            }
            LimitError::ElementTooLarge(n) => {
                write!(
                    f,
                    "filteradd element of {n} bytes exceeds {MAX_FILTERADD_BYTES} bytes"
                )
            }
        }
    }
}

impl std::error::Error for LimitError {}

/// Core's `IsWithinSizeConstraints`, as a check with a reason.
pub fn check_filter(filter_bytes: usize, hash_funcs: u32) -> Result<(), LimitError> {
    if filter_bytes > MAX_FILTER_BYTES as usize {
        return Err(LimitError::FilterTooLarge(filter_bytes));
    }
    if hash_funcs > MAX_HASH_FUNCS {
        return Err(LimitError::TooManyHashFuncs(hash_funcs));
    }
    Ok(())
}

/// Core's `filteradd` check: an element of at most 520 bytes.
pub fn check_filteradd(element_bytes: usize) -> Result<(), LimitError> {
    if element_bytes > MAX_FILTERADD_BYTES {
        return Err(LimitError::ElementTooLarge(element_bytes));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_inclusive() {
        assert_eq!(check_filter(36_000, 50), Ok(()));
        assert_eq!(
            check_filter(36_001, 50),
            Err(LimitError::FilterTooLarge(36_001))
        );
        assert_eq!(check_filter(0, 51), Err(LimitError::TooManyHashFuncs(51)));
        assert_eq!(check_filteradd(520), Ok(()));
        assert_eq!(check_filteradd(521), Err(LimitError::ElementTooLarge(521)));
    }
}
