//! nour (a Bitcoin SV toolkit forked from rust-sv, pinned in Cargo.toml) behind the suite's
//! `Implementation` trait, so the suite checks it in-process (`tests/suite.rs`) and over the
//! subprocess protocol (the `bip37-nour` binary). The adapter's code is shared with `sv`'s
//! (`adapters/sv-family/`); this crate names the library.

#[path = "../../sv-family/filter.rs"]
pub mod filter;
#[path = "../../sv-family/implementation.rs"]
mod implementation;
#[path = "../../sv-family/messages.rs"]
pub mod messages;

/// nour as an implementation under test.
#[derive(Debug, Default, Clone, Copy)]
pub struct Nour;

type Library = Nour;
const NAME: &str = "nour";
/// The exact pin of Cargo.toml.
const VERSION: &str = "1.0.2";
const NOTES: &str = "no bit-index call, no transaction matching, no merkleBlock from a filter; \
     murmur3 is another crate's; *Accept is its message path (read, then validate)";

/// The library the shared adapter code calls.
mod api {
    pub use nour::messages::{FilterAdd, FilterLoad};
    pub use nour::util::{BloomFilter, Error, Serializable};

    /// nour's `add`, which refuses elements over 520 bytes.
    pub fn add(filter: &mut BloomFilter, element: &[u8]) -> Result<(), Error> {
        filter.add(element)
    }
}
