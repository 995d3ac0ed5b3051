//! The message switch points: the byte order of `nHashFuncs`, `nTweak` and CompactSize
//! lengths, the CompactSize rules, truncation and untrusted lengths, and the limits a node
//! applies after decoding. A mutant whose mistake is elsewhere decodes, encodes and checks
//! with `bip37-reference`.

use super::bug::Bug;
use bip37_reference::limits::{LimitError, MAX_FILTERADD_BYTES, MAX_FILTER_BYTES, MAX_HASH_FUNCS};
use bip37_reference::wire::MAX_COMPACT_SIZE;
use bip37_reference::{compact_size, DecodeError, FilterAdd, FilterLoad};
use std::fmt;

/// The mistakes in how the messages are laid out or read.
fn is_layout_bug(bug: Bug) -> bool {
    matches!(
        bug,
        Bug::BigEndianHashFuncs
            | Bug::BigEndianTweak
            | Bug::BigEndianLength
            | Bug::CompactSizeBoundaryLate
            | Bug::CompactSizeBoundaryEarly
            | Bug::NonCanonicalCompactSize
            | Bug::TruncationNotDetected
            | Bug::UntrustedLengthAllocation
    )
}

/// Why the mutant's decoder gives up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireFailure {
    /// A decoding error, as the reference reports it.
    Decode(DecodeError),
    /// The zero-hash-functions mutant refuses a filterload with `nHashFuncs` = 0 as
    /// undecodable.
    ZeroHashFuncs,
    /// The untrusted-length mutant reserved what a length prefix claims, beyond any real
    /// machine's memory: the crash it models.
    AllocationFailed(u64),
}

impl From<DecodeError> for WireFailure {
    fn from(e: DecodeError) -> Self {
        WireFailure::Decode(e)
    }
}

impl fmt::Display for WireFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireFailure::Decode(e) => e.fmt(f),
            WireFailure::ZeroHashFuncs => f.write_str("nHashFuncs is 0"),
            WireFailure::AllocationFailed(n) => {
                write!(
                    f,
                    "memory allocation of {n} bytes failed (untrusted length prefix)"
                )
            }
        }
    }
}

/// Core's `MAX_PROTOCOL_MESSAGE_LENGTH`: no message holds more bytes, so a length beyond it is
/// the untrusted-length mutant's doomed allocation (the crash it models).
const MAX_MESSAGE_BYTES: u64 = 4_000_000;

/// The largest CompactSize value the mutant writes as one byte.
fn one_byte_maximum(bug: Bug) -> u64 {
    match bug {
        Bug::CompactSizeBoundaryLate => 0xfd,
        Bug::CompactSizeBoundaryEarly => 0xfb,
        _ => 0xfc,
    }
}

/// A u32 field in the byte order the mutant uses for it.
fn u32_bytes(value: u32, big_endian: bool) -> [u8; 4] {
    match big_endian {
        true => value.to_be_bytes(),
        false => value.to_le_bytes(),
    }
}

/// Appends `n` as the mutant's CompactSize.
fn write_compact_size(bug: Bug, out: &mut Vec<u8>, n: u64) {
    if !is_layout_bug(bug) {
        return compact_size::write(out, n);
    }
    let (marker, width) = match n {
        _ if n <= one_byte_maximum(bug) => return out.push(n as u8),
        0..=0xffff => (0xfd, 2),
        0x1_0000..=0xffff_ffff => (0xfe, 4),
        _ => (0xff, 8),
    };
    out.push(marker);
    let bytes = match bug {
        Bug::BigEndianLength => n.to_be_bytes()[8 - width..].to_vec(),
        _ => n.to_le_bytes()[..width].to_vec(),
    };
    out.extend_from_slice(&bytes);
}

/// The `filterload` payload the mutant sends for these fields.
pub fn encode_filterload(bug: Bug, load: &FilterLoad) -> Vec<u8> {
    if !is_layout_bug(bug) {
        return load.encode();
    }
    let mut out = Vec::with_capacity(load.data.len() + 18);
    write_compact_size(bug, &mut out, load.data.len() as u64);
    out.extend_from_slice(&load.data);
    out.extend_from_slice(&u32_bytes(load.hash_funcs, bug == Bug::BigEndianHashFuncs));
    out.extend_from_slice(&u32_bytes(load.tweak, bug == Bug::BigEndianTweak));
    out.push(load.flags);
    out
}

/// Decodes a `filterload` payload the mutant's way (no limits).
pub fn decode_filterload(bug: Bug, payload: &[u8]) -> Result<FilterLoad, WireFailure> {
    if bug == Bug::ZeroHashFuncsRefused {
        let load = FilterLoad::decode(payload)?;
        return match load.hash_funcs {
            0 => Err(WireFailure::ZeroHashFuncs),
            _ => Ok(load),
        };
    }
    if !is_layout_bug(bug) {
        return Ok(FilterLoad::decode(payload)?);
    }
    let mut reader = Reader { bug, rest: payload };
    let len = reader.compact_size()?;
    let data = reader.bytes(len, "filter data")?.to_vec();
    let hash_funcs = reader.u32("nHashFuncs", bug == Bug::BigEndianHashFuncs)?;
    let tweak = reader.u32("nTweak", bug == Bug::BigEndianTweak)?;
    let flags = reader.byte("nFlags")?;
    reader.finish()?;
    Ok(FilterLoad {
        data,
        hash_funcs,
        tweak,
        flags,
    })
}

/// Decodes a `filteradd` payload the mutant's way (no limits).
pub fn decode_filteradd(bug: Bug, payload: &[u8]) -> Result<FilterAdd, WireFailure> {
    if !is_layout_bug(bug) {
        return Ok(FilterAdd::decode(payload)?);
    }
    let mut reader = Reader { bug, rest: payload };
    let len = reader.compact_size()?;
    let data = reader.bytes(len, "element")?.to_vec();
    reader.finish()?;
    Ok(FilterAdd { data })
}

/// The `filterload` limits as the mutant applies them.
pub fn check_filterload_limits(bug: Bug, load: &FilterLoad) -> Result<(), LimitError> {
    let (bytes, funcs) = (load.data.len(), load.hash_funcs);
    let (byte_limit, func_limit) = match bug {
        Bug::LimitOffByOne => (MAX_FILTER_BYTES as usize - 1, MAX_HASH_FUNCS - 1),
        Bug::NoFilterSizeLimit => (usize::MAX, MAX_HASH_FUNCS),
        Bug::NoHashFuncLimit => (MAX_FILTER_BYTES as usize, u32::MAX),
        Bug::ByteCapAgainstBitLimit => (MAX_FILTER_BYTES as usize * 8, MAX_HASH_FUNCS),
        Bug::BitCapAgainstByteLimit => (MAX_FILTER_BYTES as usize / 8, MAX_HASH_FUNCS),
        _ => return load.check_limits(),
    };
    if bytes > byte_limit {
        return Err(LimitError::FilterTooLarge(bytes));
    }
    if funcs > func_limit {
        return Err(LimitError::TooManyHashFuncs(funcs));
    }
    Ok(())
}

/// The `filteradd` limit as the mutant applies it.
pub fn check_filteradd_limits(bug: Bug, add: &FilterAdd) -> Result<(), LimitError> {
    let limit = match bug {
        Bug::LimitOffByOne => MAX_FILTERADD_BYTES - 1,
        Bug::NoElementSizeLimit => usize::MAX,
        _ => return add.check_limits(),
    };
    match add.data.len() {
        n if n > limit => Err(LimitError::ElementTooLarge(n)),
        _ => Ok(()),
    }
}

/// A cursor over an untrusted payload that checks every length against what is left before
/// it takes (and so before anything is allocated), unless checking is the mistake: the
/// truncation mutant takes what is there, the untrusted-length mutant "reserves" the claim.
struct Reader<'a> {
    bug: Bug,
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn bytes(&mut self, len: u64, field: &'static str) -> Result<&'a [u8], WireFailure> {
        let available = self.rest.len();
        if self.bug == Bug::UntrustedLengthAllocation && len > MAX_MESSAGE_BYTES {
            return Err(WireFailure::AllocationFailed(len));
        }
        let len = match self.bug {
            Bug::TruncationNotDetected => len.min(available as u64),
            _ => len,
        };
        if len > available as u64 {
            return Err(DecodeError::Truncated {
                field,
                needed: len,
                available,
            }
            .into());
        }
        let (head, rest) = self.rest.split_at(len as usize);
        self.rest = rest;
        Ok(head)
    }

    /// A u32; missing bytes (read by the truncation mutant) are zeros.
    fn u32(&mut self, field: &'static str, big_endian: bool) -> Result<u32, WireFailure> {
        let mut b = [0u8; 4];
        let got = self.bytes(4, field)?;
        b[..got.len()].copy_from_slice(got);
        Ok(match big_endian {
            true => u32::from_be_bytes(b),
            false => u32::from_le_bytes(b),
        })
    }

    /// A byte; missing (for the truncation mutant) is zero.
    fn byte(&mut self, field: &'static str) -> Result<u8, WireFailure> {
        Ok(self.bytes(1, field)?.first().copied().unwrap_or(0))
    }

    fn compact_size(&mut self) -> Result<u64, WireFailure> {
        let marker = self.byte("CompactSize marker")?;
        let (width, minimum) = match marker {
            // Every decoder reads a marker below 0xfd as the value itself.
            _ if u64::from(marker) <= one_byte_maximum(self.bug).max(0xfc) => {
                return Ok(u64::from(marker))
            }
            0xfd => (2, one_byte_maximum(self.bug) + 1),
            0xfe => (4, 0x1_0000),
            _ => (8, 0x1_0000_0000),
        };
        let raw = self.bytes(width, "CompactSize")?;
        let value = match self.bug {
            Bug::BigEndianLength => raw.iter().fold(0u64, |v, &b| v << 8 | u64::from(b)),
            _ => raw.iter().rev().fold(0u64, |v, &b| v << 8 | u64::from(b)),
        };
        if value < minimum && self.bug != Bug::NonCanonicalCompactSize {
            return Err(DecodeError::NonCanonicalCompactSize { marker, value }.into());
        }
        if value > MAX_COMPACT_SIZE && self.bug != Bug::UntrustedLengthAllocation {
            return Err(DecodeError::SizeTooLarge(value).into());
        }
        Ok(value)
    }

    fn finish(self) -> Result<(), WireFailure> {
        match self.rest.len() {
            0 => Ok(()),
            n => Err(DecodeError::TrailingBytes(n).into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(len: usize) -> FilterLoad {
        FilterLoad {
            data: vec![0x5a; len],
            hash_funcs: 5,
            tweak: 0x8000_0001,
            flags: 1,
        }
    }

    #[test]
    fn each_layout_bug_roundtrips_its_own_encoding() {
        for &bug in Bug::ALL {
            for len in [3, 253, 70_000] {
                let payload = encode_filterload(bug, &load(len));
                assert_eq!(decode_filterload(bug, &payload), Ok(load(len)), "{bug:?}");
            }
        }
    }

    #[test]
    fn layouts_differ_where_they_should() {
        let core = load(253).encode();
        assert_eq!(
            &encode_filterload(Bug::BigEndianLength, &load(253))[..3],
            [0xfd, 0, 0xfd]
        );
        assert_eq!(
            encode_filterload(Bug::CompactSizeBoundaryLate, &load(253))[0],
            0xfd
        );
        assert_eq!(
            encode_filterload(Bug::CompactSizeBoundaryLate, &load(253)).len(),
            core.len() - 2
        );
        assert_eq!(
            &encode_filterload(Bug::CompactSizeBoundaryEarly, &load(252))[..3],
            [0xfd, 0xfc, 0]
        );
        assert_eq!(
            decode_filterload(Bug::CompactSizeBoundaryEarly, &load(252).encode()),
            Ok(load(252))
        );
        let be = encode_filterload(Bug::BigEndianTweak, &load(3));
        assert_eq!(&be[8..12], [0x80, 0, 0, 0x01]);
        assert_eq!(
            encode_filterload(Bug::MsbFirstBits, &load(3)),
            load(3).encode()
        );
    }

    #[test]
    fn hostile_lengths() {
        let payload = [0xfe, 0x02, 0x00, 0x00, 0x00, 0xaa];
        assert!(matches!(
            decode_filteradd(Bug::BigEndianLength, &payload),
            Err(WireFailure::Decode(DecodeError::Truncated { .. }))
        ));
        let huge = [0xff, 0, 0, 0, 0, 1, 0, 0, 0, 0xaa];
        assert_eq!(
            decode_filteradd(Bug::UntrustedLengthAllocation, &huge),
            Err(WireFailure::AllocationFailed(1 << 32))
        );
        let claims_more = [0xfe, 0x00, 0x00, 0x01, 0x00, 0xaa];
        assert_eq!(
            decode_filteradd(Bug::TruncationNotDetected, &claims_more).map(|a| a.data),
            Ok(vec![0xaa])
        );
        let short = decode_filterload(Bug::TruncationNotDetected, &[0x01, 0xaa, 0x05]).unwrap();
        assert_eq!((short.hash_funcs, short.tweak, short.flags), (5, 0, 0));
        assert!(decode_filteradd(Bug::NonCanonicalCompactSize, &[0xfd, 0x01, 0x00, 0xaa]).is_ok());
    }

    #[test]
    fn limit_bugs() {
        let mut big = load(36_001);
        assert!(check_filterload_limits(Bug::MsbFirstBits, &big).is_err());
        assert!(check_filterload_limits(Bug::NoFilterSizeLimit, &big).is_ok());
        big.data.truncate(36_000);
        assert!(check_filterload_limits(Bug::MsbFirstBits, &big).is_ok());
        assert!(check_filterload_limits(Bug::LimitOffByOne, &big).is_err());
        big.hash_funcs = 51;
        assert!(check_filterload_limits(Bug::NoHashFuncLimit, &big).is_ok());
        assert!(check_filterload_limits(Bug::NoFilterSizeLimit, &big).is_err());
        let add = FilterAdd { data: vec![0; 520] };
        assert!(check_filteradd_limits(Bug::LimitOffByOne, &add).is_err());
        assert!(check_filteradd_limits(Bug::MsbFirstBits, &add).is_ok());
    }
}
