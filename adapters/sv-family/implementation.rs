//! The `Implementation` of a rust-sv family crate (`sv`, `nour`): the including crate names
//! the library in its `api` module and says who it is with `NAME`, `VERSION` and `NOTES`.
//!
//! The family implements the BIP 37 filter itself (`util::BloomFilter`: its own sizing, Core's
//! seeds over the `murmur3` crate, insert and query) and the `filterload` and `filteradd`
//! messages. It has no call for one hash's bit index, no transaction matching and no merkle
//! block from a filter, and its MurmurHash3 is another crate's: those operations are
//! unsupported. Every answer is what the library does, never adjusted towards Core: where it
//! differs, the difference is listed in the crate's `expectations.toml` with the reason.

use crate::{filter, messages, Library, NAME, NOTES, VERSION};
use bip37_harness::implementation::{Answer, Implementation};
use bip37_harness::ops::*;

impl Implementation for Library {
    fn name(&self) -> String {
        NAME.to_string()
    }

    fn version(&self) -> String {
        VERSION.to_string()
    }

    fn notes(&self) -> Option<String> {
        Some(NOTES.to_string())
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
