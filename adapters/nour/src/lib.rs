//! nour (a Bitcoin SV toolkit, pinned in Cargo.toml) behind the suite's [`Implementation`]
//! trait, so the suite checks it in-process (`tests/suite.rs`) and over the subprocess protocol
//! (the `bip37-nour` binary).
//!
//! nour implements the BIP 37 filter itself (`nour::util::BloomFilter`: its own sizing, Core's
//! seeds over the `murmur3` crate, insert and query) and the `filterload` and `filteradd`
//! messages. It has no call for one hash's bit index, no transaction matching and no merkle
//! block from a filter, and its MurmurHash3 is another crate's: those operations are
//! unsupported.
//!
//! Every answer is what nour does, never adjusted towards Core: where it differs, the
//! difference is listed in `expectations.toml` with the reason.

pub mod filter;
pub mod messages;

use bip37_harness::implementation::{Answer, Implementation};
use bip37_harness::ops::*;

/// The version of nour this adapter is built with (the exact pin of Cargo.toml).
pub const NOUR_VERSION: &str = "1.0.2";

/// nour as an implementation under test.
#[derive(Debug, Default, Clone, Copy)]
pub struct Nour;

impl Implementation for Nour {
    fn name(&self) -> String {
        "nour".to_string()
    }

    fn version(&self) -> String {
        NOUR_VERSION.to_string()
    }

    fn notes(&self) -> Option<String> {
        Some(
            "no bit-index call, no transaction matching, no merkleBlock from a filter; \
             murmur3 is another crate's; *Accept is its message path (read, then validate)"
                .to_string(),
        )
    }

    fn operations(&self) -> Vec<OpName> {
        vec![
            OpName::Sizing,
            OpName::BuildFilter,
            OpName::FilterloadDecode,
            OpName::FilterloadAccept,
            OpName::FilteraddDecode,
            OpName::FilteraddAccept,
        ]
    }

    fn sizing(&mut self, input: &SizingInput) -> Answer<SizingOutput> {
        filter::sizing(input)
    }

    fn build_filter(&mut self, input: &BuildFilterInput) -> Answer<BuildFilterOutput> {
        filter::build(input)
    }

    fn filterload_decode(&mut self, input: &PayloadInput) -> Answer<FilterloadOutput> {
        messages::filterload(&input.payload, false)
    }

    fn filterload_accept(&mut self, input: &PayloadInput) -> Answer<FilterloadOutput> {
        messages::filterload(&input.payload, true)
    }

    fn filteradd_decode(&mut self, input: &PayloadInput) -> Answer<FilteraddOutput> {
        messages::filteradd(&input.payload, false)
    }

    fn filteradd_accept(&mut self, input: &PayloadInput) -> Answer<FilteraddOutput> {
        messages::filteradd(&input.payload, true)
    }
}
