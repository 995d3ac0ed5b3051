//! Bitcoin's CompactSize length prefix, read the way Core's `ReadCompactSize` reads it:
//! 1, 3, 5 or 9 bytes, little-endian, the shortest form only, and at most `MAX_SIZE`
//! (0x02000000) when it prefixes a byte vector.

use crate::wire::DecodeError;

/// Core's `MAX_SIZE`: the largest length a vector prefix may state.
pub const MAX_COMPACT_SIZE: u64 = 0x0200_0000;

/// Appends the canonical CompactSize encoding of `n`.
pub fn write(out: &mut Vec<u8>, n: u64) {
    let (bytes, len) = encode(n);
    out.extend_from_slice(&bytes[..len]);
}

/// The canonical CompactSize encoding of `n`: its bytes are the first `len` of the array.
pub(crate) fn encode(n: u64) -> ([u8; 9], usize) {
    let mut bytes = [0u8; 9];
    let (marker, len) = match n {
        0..=0xfc => {
            bytes[0] = n as u8;
            return (bytes, 1);
        }
        0xfd..=0xffff => {
            bytes[1..3].copy_from_slice(&(n as u16).to_le_bytes());
            (0xfd, 3)
        }
        0x1_0000..=0xffff_ffff => {
            bytes[1..5].copy_from_slice(&(n as u32).to_le_bytes());
            (0xfe, 5)
        }
        _ => {
            bytes[1..].copy_from_slice(&n.to_le_bytes());
            (0xff, 9)
        }
    };
    bytes[0] = marker;
    (bytes, len)
}

/// Reads a canonical CompactSize no larger than [`MAX_COMPACT_SIZE`] from the front of `input`.
pub fn read(input: &mut &[u8]) -> Result<u64, DecodeError> {
    let marker = take::<1>(input, "CompactSize marker")?[0];
    let (value, minimum) = match marker {
        0xfd => (
            u64::from(u16::from_le_bytes(take(input, "CompactSize")?)),
            0xfd,
        ),
        0xfe => (
            u64::from(u32::from_le_bytes(take(input, "CompactSize")?)),
            0x1_0000,
        ),
        0xff => (
            u64::from_le_bytes(take(input, "CompactSize")?),
            0x1_0000_0000,
        ),
        small => return Ok(u64::from(small)),
    };
    if value < minimum {
        return Err(DecodeError::NonCanonicalCompactSize { marker, value });
    }
    if value > MAX_COMPACT_SIZE {
        return Err(DecodeError::SizeTooLarge(value));
    }
    Ok(value)
}

/// Appends `bytes` with its CompactSize length in front: Bitcoin's serialization of a byte vector.
pub(crate) fn write_prefixed(out: &mut Vec<u8>, bytes: &[u8]) {
    write(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// Reads a byte vector: a CompactSize length, then that many bytes of `field`.
pub(crate) fn read_prefixed<'a>(
    input: &mut &'a [u8],
    field: &'static str,
) -> Result<&'a [u8], DecodeError> {
    let len = read(input)?;
    take_slice(input, len, field)
}

/// Succeeds when nothing is left of the input: a payload's trailing bytes are an error.
pub(crate) fn ensure_consumed(rest: &[u8]) -> Result<(), DecodeError> {
    match rest.len() {
        0 => Ok(()),
        n => Err(DecodeError::TrailingBytes(n)),
    }
}

/// Takes exactly `N` bytes from the front of `input`.
pub(crate) fn take<const N: usize>(
    input: &mut &[u8],
    field: &'static str,
) -> Result<[u8; N], DecodeError> {
    let bytes = take_slice(input, N as u64, field)?;
    let mut out = [0; N];
    out.copy_from_slice(bytes);
    Ok(out)
}

/// Takes `len` bytes from the front of `input`, checking `len` against what is there before
/// anything is allocated or copied.
pub(crate) fn take_slice<'a>(
    input: &mut &'a [u8],
    len: u64,
    field: &'static str,
) -> Result<&'a [u8], DecodeError> {
    let available = input.len();
    if len > available as u64 {
        return Err(DecodeError::Truncated {
            field,
            needed: len,
            available,
        });
    }
    let (head, rest) = input.split_at(len as usize);
    *input = rest;
    Ok(head)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(n: u64) -> Vec<u8> {
        let mut out = Vec::new();
        write(&mut out, n);
        let mut slice = out.as_slice();
        assert_eq!(read(&mut slice), Ok(n));
        assert!(slice.is_empty());
        out
    }

    #[test]
    fn boundaries_use_the_shortest_form() {
        assert_eq!(roundtrip(252), vec![0xfc]);
        assert_eq!(roundtrip(253), vec![0xfd, 0xfd, 0x00]);
        assert_eq!(roundtrip(65_535), vec![0xfd, 0xff, 0xff]);
        assert_eq!(roundtrip(65_536), vec![0xfe, 0x00, 0x00, 0x01, 0x00]);
    }

    #[test]
    fn non_canonical_forms_are_rejected() {
        assert_eq!(
            read(&mut &[0xfd, 0xfc, 0x00][..]),
            Err(DecodeError::NonCanonicalCompactSize {
                marker: 0xfd,
                value: 0xfc
            })
        );
        assert!(read(&mut &[0xfe, 0xff, 0xff, 0x00, 0x00][..]).is_err());
        assert!(read(&mut &[0xff, 1, 0, 0, 0, 0, 0, 0, 0][..]).is_err());
    }

    #[test]
    fn too_large_and_truncated() {
        assert_eq!(
            read(&mut &[0xfe, 0x01, 0x00, 0x00, 0x02][..]),
            Err(DecodeError::SizeTooLarge(0x0200_0001))
        );
        assert!(read(&mut &[0xfe, 0x00, 0x00, 0x00, 0x02][..]).is_ok());
        assert!(matches!(
            read(&mut &[0xfd, 0x00][..]),
            Err(DecodeError::Truncated { .. })
        ));
        assert!(matches!(
            read(&mut &[][..]),
            Err(DecodeError::Truncated { .. })
        ));
    }
}
