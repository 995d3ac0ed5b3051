//! `filterload` and `filteradd` against the `bitcoin` crate 0.32 (`p2p::message_bloom`).
//!
//! Each target treats the fuzz input as a message payload. Both sides decode it; the reference
//! also applies the node's limits, as Core does before it accepts a message. The two must agree
//! on accept or reject, except for the divergences [`known_divergence`] lists; when both accept,
//! the fields must be equal and both encoders must give back exactly the input bytes (every
//! payload that decodes is canonical, so encode(decode(x)) == x on both sides).

use bip37_reference::{DecodeError, FilterAdd, FilterLoad, LimitError};
use bitcoin::consensus::encode;
use bitcoin::p2p::message_bloom::{self as theirs, BloomFlags};

/// Why the reference refuses a payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// It does not decode.
    Decode(DecodeError),
    /// It decodes but breaks a limit (36,000 bytes, 50 hash functions, 520-byte elements).
    Limits(LimitError),
}

/// A known, understood difference between the reference (Core) and the `bitcoin` crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Divergence {
    /// Core accepts any flags byte and uses `flags & 3`; the `bitcoin` crate rejects any
    /// byte other than 0, 1 or 2 ("unknown bloom flag").
    FlagsAbove2(u8),
    /// The `bitcoin` crate decodes messages over the BIP 37 limits: it has no limits.
    NoLimits(LimitError),
}

/// The single allowlist of accept/reject differences between the reference and the `bitcoin`
/// crate. `ours` is the reference's verdict (decode, then limits), `theirs_error` the `bitcoin`
/// crate's decode error if it refused, and `flags` the raw flags byte when the payload is a
/// `filterload` whose fields the reference could decode.
///
/// - **Flags above 2** (`filterload` only): Core's `nFlags` is a raw byte and only `& 3` counts;
///   the reference accepts it and the `bitcoin` crate fails with `ParseFailed("unknown bloom
///   flag")`. Allowed only when that is exactly the crate's error and the byte really is above 2.
/// - **Limits**: a payload that decodes on both sides but exceeds 36,000 bytes or 50 hash
///   functions (`filterload`) or 520 bytes (`filteradd`) is refused by the reference at the limits
///   phase and accepted by the `bitcoin` crate, which has none of the BIP 37 limits.
///
/// Not listed, because both sides agree: trailing bytes (both refuse them), non-canonical
/// CompactSize prefixes (both refuse them) and length prefixes beyond the bytes present.
/// Anything else (a decode rule one side has and the other lacks) is a finding.
pub fn known_divergence(
    ours: &Result<(), Refusal>,
    theirs_error: Option<&encode::Error>,
    flags: Option<u8>,
) -> Option<Divergence> {
    match (ours, theirs_error, flags) {
        (Ok(()), Some(encode::Error::ParseFailed("unknown bloom flag")), Some(flags))
            if flags > 2 =>
        {
            Some(Divergence::FlagsAbove2(flags))
        }
        (Err(Refusal::Limits(limit)), None, _) => Some(Divergence::NoLimits(*limit)),
        _ => None,
    }
}

fn flags_byte(flags: BloomFlags) -> u8 {
    match flags {
        BloomFlags::None => 0,
        BloomFlags::All => 1,
        BloomFlags::PubkeyOnly => 2,
    }
}

/// Decodes `payload` as a `filterload` on both sides and checks that they agree.
pub fn filterload(payload: &[u8]) {
    let decoded = FilterLoad::decode(payload);
    let ours = match &decoded {
        Ok(load) => load.check_limits().map_err(Refusal::Limits),
        Err(e) => Err(Refusal::Decode(*e)),
    };
    let theirs = encode::deserialize::<theirs::FilterLoad>(payload);
    if let (Ok(load), Ok(other)) = (&decoded, &theirs) {
        let fields = (&other.filter, other.hash_funcs, other.tweak);
        assert_eq!(
            fields,
            (&load.data, load.hash_funcs, load.tweak),
            "fields differ"
        );
        assert_eq!(flags_byte(other.flags), load.flags, "flags differ");
        assert_eq!(load.encode(), payload, "reference re-encodes differently");
        assert_eq!(
            encode::serialize(other),
            payload,
            "bitcoin re-encodes differently"
        );
    }
    let flags = decoded.as_ref().ok().map(|load| load.flags);
    check_verdicts(&ours, theirs.as_ref().err(), flags);
}

/// Decodes `payload` as a `filteradd` on both sides and checks that they agree.
pub fn filteradd(payload: &[u8]) {
    let decoded = FilterAdd::decode(payload);
    let ours = match &decoded {
        Ok(add) => add.check_limits().map_err(Refusal::Limits),
        Err(e) => Err(Refusal::Decode(*e)),
    };
    let theirs = encode::deserialize::<theirs::FilterAdd>(payload);
    if let (Ok(add), Ok(other)) = (&decoded, &theirs) {
        assert_eq!(other.data, add.data, "element differs");
        assert_eq!(add.encode(), payload, "reference re-encodes differently");
        assert_eq!(
            encode::serialize(other),
            payload,
            "bitcoin re-encodes differently"
        );
    }
    check_verdicts(&ours, theirs.as_ref().err(), None);
}

/// Panics when the verdicts differ in a way [`known_divergence`] does not allow.
fn check_verdicts(ours: &Result<(), Refusal>, theirs: Option<&encode::Error>, flags: Option<u8>) {
    if ours.is_ok() != theirs.is_none() && known_divergence(ours, theirs, flags).is_none() {
        panic!("accept/reject differs: reference {ours:?}, bitcoin {theirs:?}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_above_two_are_the_allowed_divergence() {
        // Core's serialization with the flags byte set to 3.
        let payload = [3, 0x61, 0x4e, 0x9b, 5, 0, 0, 0, 0, 0, 0, 0, 3];
        let theirs = encode::deserialize::<theirs::FilterLoad>(&payload).unwrap_err();
        assert_eq!(
            known_divergence(&Ok(()), Some(&theirs), Some(3)),
            Some(Divergence::FlagsAbove2(3))
        );
        filterload(&payload);
    }

    #[test]
    fn a_decode_difference_is_not_allowed() {
        let truncated = encode::deserialize::<theirs::FilterAdd>(&[2, 0xaa]).unwrap_err();
        assert_eq!(known_divergence(&Ok(()), Some(&truncated), None), None);
        let decode = Err(Refusal::Decode(DecodeError::TrailingBytes(1)));
        assert_eq!(known_divergence(&decode, None, None), None);
    }

    #[test]
    fn limits_are_the_other_allowed_divergence() {
        let mut payload = vec![0xfd, 0x09, 0x02];
        payload.extend([0xab; 521]);
        filteradd(&payload);
        let limit = Err(Refusal::Limits(LimitError::ElementTooLarge(521)));
        assert_eq!(
            known_divergence(&limit, None, None),
            Some(Divergence::NoLimits(LimitError::ElementTooLarge(521)))
        );
    }
}
