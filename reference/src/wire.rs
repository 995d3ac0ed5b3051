//! Wire payloads of `filterload`, `filteradd` and `filterclear`.
//!
//! `filterload` is `CompactSize(len) || data || nHashFuncs u32 LE || nTweak u32 LE || nFlags u8`;
//! `filteradd` is `CompactSize(len) || data`; `filterclear` is empty. Decoding is strict and
//! self-contained: the length prefix is checked against the bytes actually present before
//! anything is allocated, truncated input and trailing bytes are errors, and the protocol
//! limits (36,000 bytes, 50 functions, 520-byte elements) are NOT applied here — they are a
//! separate phase ([`crate::limits`]), as in Core. The flags byte is kept raw.

pub use crate::compact_size::MAX_COMPACT_SIZE;
use crate::compact_size::{ensure_consumed, read_prefixed, take, write_prefixed};
use crate::filter::BloomFilter;
use crate::limits::{self, LimitError};
use std::fmt;

/// Why a payload does not decode (Core drops such a message without penalty).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    /// The payload ends before `field` is complete.
    Truncated {
        field: &'static str,
        needed: u64,
        available: usize,
    },
    /// A CompactSize in a longer form than its value needs.
    NonCanonicalCompactSize { marker: u8, value: u64 },
    /// A length prefix above Core's `MAX_SIZE` (0x02000000).
    SizeTooLarge(u64),
    /// Bytes left over after a complete payload.
    TrailingBytes(usize),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Truncated {
                field,
                needed,
                available,
            } => write!(
                f,
                "truncated {field}: needs {needed} bytes, {available} available"
            ),
            DecodeError::NonCanonicalCompactSize { marker, value } => write!(
                f,
                "non-canonical CompactSize: {value} encoded with marker 0x{marker:02x}"
            ),
            DecodeError::SizeTooLarge(n) => {
                write!(f, "length {n} exceeds the maximum {MAX_COMPACT_SIZE}")
            }
            DecodeError::TrailingBytes(n) => write!(f, "{n} trailing bytes after the payload"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// The four fields of a `filterload` message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterLoad {
    pub data: Vec<u8>,
    pub hash_funcs: u32,
    pub tweak: u32,
    pub flags: u8,
}

impl FilterLoad {
    /// Decodes a `filterload` payload (no limits applied).
    pub fn decode(payload: &[u8]) -> Result<Self, DecodeError> {
        let mut input = payload;
        let data = read_prefixed(&mut input, "filter data")?.to_vec();
        let hash_funcs = u32::from_le_bytes(take(&mut input, "nHashFuncs")?);
        let tweak = u32::from_le_bytes(take(&mut input, "nTweak")?);
        let flags = take::<1>(&mut input, "nFlags")?[0];
        ensure_consumed(input)?;
        Ok(Self {
            data,
            hash_funcs,
            tweak,
            flags,
        })
    }

    /// The payload bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.data.len() + 18);
        write_prefixed(&mut out, &self.data);
        out.extend_from_slice(&self.hash_funcs.to_le_bytes());
        out.extend_from_slice(&self.tweak.to_le_bytes());
        out.push(self.flags);
        out
    }

    /// The limits phase: what Core's `IsWithinSizeConstraints` rejects.
    pub fn check_limits(&self) -> Result<(), LimitError> {
        limits::check_filter(self.data.len(), self.hash_funcs)
    }

    /// The filter these fields describe.
    pub fn into_filter(self) -> BloomFilter {
        BloomFilter::from_parts(self.data, self.hash_funcs, self.tweak, self.flags)
    }
}

impl From<&BloomFilter> for FilterLoad {
    fn from(filter: &BloomFilter) -> Self {
        Self {
            data: filter.data().to_vec(),
            hash_funcs: filter.hash_funcs(),
            tweak: filter.tweak(),
            flags: filter.flags(),
        }
    }
}

/// The one field of a `filteradd` message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterAdd {
    pub data: Vec<u8>,
}

impl FilterAdd {
    /// Decodes a `filteradd` payload (no limits applied).
    pub fn decode(payload: &[u8]) -> Result<Self, DecodeError> {
        let mut input = payload;
        let data = read_prefixed(&mut input, "element")?.to_vec();
        ensure_consumed(input)?;
        Ok(Self { data })
    }

    /// The payload bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.data.len() + 9);
        write_prefixed(&mut out, &self.data);
        out
    }

    /// The limits phase: elements of at most 520 bytes.
    pub fn check_limits(&self) -> Result<(), LimitError> {
        limits::check_filteradd(self.data.len())
    }
}

/// The empty `filterclear` payload. Core never reads it; this decoder, strict like the others,
/// rejects anything but the empty payload.
pub fn decode_filterclear(payload: &[u8]) -> Result<(), DecodeError> {
    ensure_consumed(payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_serialization_decodes() {
        let payload = [0x03, 0x61, 0x4e, 0x9b, 0x05, 0, 0, 0, 0, 0, 0, 0, 0x01];
        let load = FilterLoad::decode(&payload).unwrap();
        assert_eq!(load.data, vec![0x61, 0x4e, 0x9b]);
        assert_eq!((load.hash_funcs, load.tweak, load.flags), (5, 0, 1));
        assert_eq!(load.encode(), payload);
    }

    #[test]
    fn hostile_length_prefix_is_truncation_not_allocation() {
        let payload = [0xfe, 0x00, 0x00, 0x00, 0x02, 0xaa];
        assert_eq!(
            FilterLoad::decode(&payload),
            Err(DecodeError::Truncated {
                field: "filter data",
                needed: 0x0200_0000,
                available: 1
            })
        );
    }

    #[test]
    fn trailing_and_truncated() {
        assert_eq!(
            FilterAdd::decode(&[0x01, 0xaa, 0xbb]),
            Err(DecodeError::TrailingBytes(1))
        );
        assert!(matches!(
            FilterLoad::decode(&[0x00, 1, 0, 0, 0, 0, 0, 0, 0]),
            Err(DecodeError::Truncated {
                field: "nFlags",
                ..
            })
        ));
        assert_eq!(decode_filterclear(&[]), Ok(()));
        assert_eq!(decode_filterclear(&[0]), Err(DecodeError::TrailingBytes(1)));
    }

    #[test]
    fn oversize_filter_decodes_then_fails_limits() {
        let load = FilterLoad {
            data: vec![0xbb; 36_001],
            hash_funcs: 0,
            tweak: 0,
            flags: 0,
        };
        let decoded = FilterLoad::decode(&load.encode()).unwrap();
        assert_eq!(
            decoded.check_limits(),
            Err(LimitError::FilterTooLarge(36_001))
        );
    }
}
