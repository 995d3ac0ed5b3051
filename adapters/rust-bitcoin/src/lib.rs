//! rust-bitcoin (the `bitcoin` crate, pinned in Cargo.toml) behind the suite's
//! [`Implementation`] trait, so the suite checks it in-process (`tests/suite.rs`) and over the
//! subprocess protocol (the `bip37-rust-bitcoin` binary).
//!
//! rust-bitcoin has the BIP 37 messages and the partial merkle tree, not the filter: it has no
//! MurmurHash3, no sizing, no insert or match, and its `MerkleBlock` is built from a txid
//! predicate rather than a filter. So it answers the message decoders ([`messages`]) and the
//! partial merkle tree ([`merkle`]), and every other operation is unsupported.
//!
//! Every answer is what rust-bitcoin does, never adjusted towards Core: where it differs, the
//! difference is listed in `expectations.toml` with the reason.

pub mod merkle;
pub mod messages;

use bip37_harness::implementation::{Answer, Implementation};
use bip37_harness::ops::*;

/// The version of the `bitcoin` crate this adapter is built with (the exact pin of Cargo.toml).
pub const BITCOIN_VERSION: &str = "0.32.102";

/// rust-bitcoin as an implementation under test.
#[derive(Debug, Default, Clone, Copy)]
pub struct RustBitcoin;

impl Implementation for RustBitcoin {
    fn name(&self) -> String {
        "rust-bitcoin".to_string()
    }

    fn version(&self) -> String {
        BITCOIN_VERSION.to_string()
    }

    fn notes(&self) -> Option<String> {
        Some(
            "no filter (hashing, sizing, matching, merkleBlock from a filter) in rust-bitcoin; \
             the *Accept operations are its decoders, as it applies no protocol limits"
                .to_string(),
        )
    }

    fn operations(&self) -> Vec<OpName> {
        vec![
            OpName::FilterloadDecode,
            OpName::FilterloadAccept,
            OpName::FilteraddDecode,
            OpName::FilteraddAccept,
            OpName::PmtBuild,
            OpName::PmtExtract,
        ]
    }

    fn filterload_decode(&mut self, input: &PayloadInput) -> Answer<FilterloadOutput> {
        messages::filterload(&input.payload)
    }

    fn filterload_accept(&mut self, input: &PayloadInput) -> Answer<FilterloadOutput> {
        messages::filterload(&input.payload)
    }

    fn filteradd_decode(&mut self, input: &PayloadInput) -> Answer<FilteraddOutput> {
        messages::filteradd(&input.payload)
    }

    fn filteradd_accept(&mut self, input: &PayloadInput) -> Answer<FilteraddOutput> {
        messages::filteradd(&input.payload)
    }

    fn pmt_build(&mut self, input: &PmtBuildInput) -> Answer<PmtBuildOutput> {
        merkle::build(input)
    }

    fn pmt_extract(&mut self, input: &PmtExtractInput) -> Answer<PmtExtractOutput> {
        merkle::extract(&input.pmt)
    }
}
