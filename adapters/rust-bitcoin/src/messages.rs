//! `filterload` and `filteradd` payloads through rust-bitcoin's consensus decoders
//! (`bitcoin::p2p::message_bloom`).
//!
//! rust-bitcoin decodes messages and applies no protocol limit of its own (no 36,000-byte
//! filter, no 50 hash functions, no 520-byte element), so the `*Accept` operations get the same
//! answer as the `*Decode` ones: a node built on it accepts what it decodes unless it adds
//! checks itself. Its flags byte is an enum of three values, so a `filterload` whose flags are
//! above 2 does not decode, where Core keeps the byte.

use bip37_harness::implementation::{Answer, Stage};
use bip37_harness::ops::{FilteraddOutput, FilterloadOutput};
use bitcoin::consensus::deserialize;
use bitcoin::p2p::message_bloom::{BloomFlags, FilterAdd, FilterLoad};

/// A `filterload` payload decoded by rust-bitcoin (the whole payload must be used).
pub fn filterload(payload: &[u8]) -> Answer<FilterloadOutput> {
    match deserialize::<FilterLoad>(payload) {
        Ok(message) => Answer::Ok(FilterloadOutput {
            data: message.filter.into(),
            hash_funcs: message.hash_funcs,
            tweak: message.tweak,
            flags: flags_byte(message.flags),
        }),
        Err(e) => Answer::reject(Stage::Decode, e),
    }
}

/// A `filteradd` payload decoded by rust-bitcoin (the whole payload must be used).
pub fn filteradd(payload: &[u8]) -> Answer<FilteraddOutput> {
    match deserialize::<FilterAdd>(payload) {
        Ok(message) => Answer::Ok(FilteraddOutput {
            data: message.data.into(),
        }),
        Err(e) => Answer::reject(Stage::Decode, e),
    }
}

/// The byte rust-bitcoin writes for its flags.
fn flags_byte(flags: BloomFlags) -> u8 {
    match flags {
        BloomFlags::None => 0,
        BloomFlags::All => 1,
        BloomFlags::PubkeyOnly => 2,
    }
}
