//! `filterload` and `filteradd` payloads the way the rust-sv family's message reader handles
//! them (`Message::read_partial` of `sv` and `nour`): the payload's `read` from a cursor, which
//! does not look for trailing bytes, then, for the `*Accept` operations, the message's
//! `validate` (the library's limits: 36,000 filter bytes and 50 hash functions, 520-byte
//! elements, and in nour flags at most 2).

use crate::api::{FilterAdd, FilterLoad, Serializable};
use bip37_harness::implementation::{Answer, Stage};
use bip37_harness::ops::{FilteraddOutput, FilterloadOutput};
use std::io::Cursor;

/// A `filterload` payload read by the library, and validated when `accept` says so.
pub fn filterload(payload: &[u8], accept: bool) -> Answer<FilterloadOutput> {
    let message = match FilterLoad::read(&mut Cursor::new(payload)) {
        Ok(message) => message,
        Err(e) => return Answer::reject(Stage::Decode, e),
    };
    if accept {
        if let Err(e) = message.validate() {
            return Answer::reject(Stage::Limits, e);
        }
    }
    let filter = message.bloom_filter;
    match u32::try_from(filter.num_hash_funcs) {
        Ok(hash_funcs) => Answer::Ok(FilterloadOutput {
            data: filter.filter.into(),
            hash_funcs,
            tweak: filter.tweak,
            flags: message.flags,
        }),
        // The library reads the count from four bytes, so this does not happen.
        Err(e) => Answer::reject(Stage::Decode, e),
    }
}

/// A `filteradd` payload read by the library, and validated when `accept` says so.
pub fn filteradd(payload: &[u8], accept: bool) -> Answer<FilteraddOutput> {
    let message = match FilterAdd::read(&mut Cursor::new(payload)) {
        Ok(message) => message,
        Err(e) => return Answer::reject(Stage::Decode, e),
    };
    if accept {
        if let Err(e) = message.validate() {
            return Answer::reject(Stage::Limits, e);
        }
    }
    Answer::Ok(FilteraddOutput {
        data: message.data.into(),
    })
}
