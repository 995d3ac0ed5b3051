//! # bip37-fuzz
//!
//! The cargo-fuzz targets of `bip37-conformance`, as plain functions of `&[u8]` so that
//! `cargo test` replays the corpora without cargo-fuzz. Each file under `fuzz_targets/` is a
//! few lines that hand the fuzzer's bytes to one function named in [`TARGETS`].
//!
//! - [`wire`]: `filterload` / `filteradd` against the `bitcoin` crate 0.32, with the one
//!   allowlist of known divergences.
//! - [`merkle`]: partial merkle trees and `merkleblock` against the `bitcoin` crate 0.32.
//! - [`script`]: the script push walk against the `bitcoin` crate's instruction iterator.
//! - [`hashing`]: MurmurHash3 and bit indexes against the `mur3` crate.
//! - [`decode`]: every reference decoder on arbitrary bytes (no panic, no allocation from an
//!   untrusted length, canonical re-encoding).
//! - [`invariants`]: structure-aware filters and transactions against properties every
//!   implementation has (no false negatives, roundtrips, updates never remove a match).
//! - [`alloc_guard`]: the allocator that measures the largest allocation of a decoder.

pub mod alloc_guard;
pub mod decode;
pub mod hashing;
pub mod invariants;
pub mod merkle;
pub mod script;
pub mod wire;

#[global_allocator]
static ALLOCATOR: alloc_guard::CountingAllocator = alloc_guard::CountingAllocator;

/// A fuzz target: its name (from its path under `fuzz_targets/`) and its body.
#[derive(Clone, Copy)]
pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]),
}

/// Every fuzz target. A test checks that this list and `fuzz_targets/` name the same targets.
pub const TARGETS: &[Target] = &[
    Target {
        name: "decode_block",
        run: decode::block,
    },
    Target {
        name: "decode_compact_size",
        run: decode::compact_size,
    },
    Target {
        name: "decode_filteradd",
        run: decode::filteradd,
    },
    Target {
        name: "decode_filterclear",
        run: decode::filterclear,
    },
    Target {
        name: "decode_filterload",
        run: decode::filterload,
    },
    Target {
        name: "decode_merkle_block",
        run: decode::merkle_block,
    },
    Target {
        name: "decode_pmt",
        run: decode::pmt,
    },
    Target {
        name: "decode_script",
        run: decode::script,
    },
    Target {
        name: "decode_tx",
        run: decode::tx,
    },
    Target {
        name: "differential_bit_indexes",
        run: hashing::bit_indexes_target,
    },
    Target {
        name: "differential_filteradd",
        run: wire::filteradd,
    },
    Target {
        name: "differential_filterload",
        run: wire::filterload,
    },
    Target {
        name: "differential_merkle_block",
        run: merkle::merkle_block,
    },
    Target {
        name: "differential_murmur3",
        run: hashing::murmur3_target,
    },
    Target {
        name: "differential_pmt_build",
        run: merkle::pmt_build,
    },
    Target {
        name: "differential_pmt_extract",
        run: merkle::pmt_extract,
    },
    Target {
        name: "differential_script",
        run: script::script,
    },
    Target {
        name: "invariants_filter",
        run: invariants::filter,
    },
    Target {
        name: "invariants_match_tx",
        run: invariants::match_tx,
    },
];

/// The target called `name`.
pub fn target(name: &str) -> Option<Target> {
    TARGETS.iter().copied().find(|t| t.name == name)
}
