//! sv (rust-sv, a Bitcoin SV library, pinned in Cargo.toml) behind the suite's
//! `Implementation` trait, so the suite checks it in-process (`tests/suite.rs`) and over the
//! subprocess protocol (the `bip37-sv` binary). The adapter's code is shared with nour's
//! (`adapters/sv-family/`); this crate names the library.

#[path = "../../sv-family/filter.rs"]
pub mod filter;
#[path = "../../sv-family/implementation.rs"]
mod implementation;
#[path = "../../sv-family/messages.rs"]
pub mod messages;

/// sv as an implementation under test.
#[derive(Debug, Default, Clone, Copy)]
pub struct Sv;

type Library = Sv;
const NAME: &str = "sv";
/// The exact pin of Cargo.toml.
const VERSION: &str = "0.2.2";
const NOTES: &str = "no bit-index call, no transaction matching, no merkleBlock from a filter; \
     murmur3 is another crate's; *Accept is its message path (read, then validate)";

/// The library the shared adapter code calls.
mod api {
    pub use sv::messages::{FilterAdd, FilterLoad};
    pub use sv::util::{BloomFilter, Error, Serializable};

    /// sv's `add`, which takes any element and cannot fail.
    pub fn add(filter: &mut BloomFilter, element: &[u8]) -> Result<(), Error> {
        filter.add(element);
        Ok(())
    }
}
