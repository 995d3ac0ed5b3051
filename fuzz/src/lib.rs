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
//! - [`mutants`]: the reference against mutants with one planted bug each (the fuzzer must
//!   find every one).
//! - [`layout`]: how a target's bytes read as a request of the suite.
//! - [`seeds`]: seed corpora from the JSON vectors; [`promote`]: a crash artifact as a vector.
//! - [`alloc_guard`]: the allocator that measures the largest allocation of a decoder.

pub mod alloc_guard;
#[cfg(feature = "core")]
pub mod core;
pub mod decode;
pub mod hashing;
pub mod heap;
pub mod invariants;
pub mod layout;
pub mod merkle;
pub mod mutants;
pub mod promote;
pub mod script;
pub mod seeds;
pub mod wire;

use bip37_harness::ops::OpName;
use layout::Layout;

#[global_allocator]
static ALLOCATOR: alloc_guard::CountingAllocator = alloc_guard::CountingAllocator;

/// A fuzz target: its name (from its path under `fuzz_targets/`), its body, and the layout of
/// its input when that input is one request of the suite (what `promote` needs).
#[derive(Clone, Copy)]
pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]),
    pub layout: Option<Layout>,
}

/// Every fuzz target. A test checks that this list and `fuzz_targets/` name the same targets.
pub const TARGETS: &[Target] = &[
    Target {
        name: "decode_block",
        run: decode::block,
        layout: None,
    },
    Target {
        name: "decode_compact_size",
        run: decode::compact_size,
        layout: None,
    },
    Target {
        name: "decode_filteradd",
        run: decode::filteradd,
        layout: Some(Layout::Payload(OpName::FilteraddAccept)),
    },
    Target {
        name: "decode_filterclear",
        run: decode::filterclear,
        layout: None,
    },
    Target {
        name: "decode_filterload",
        run: decode::filterload,
        layout: Some(Layout::Payload(OpName::FilterloadAccept)),
    },
    Target {
        name: "decode_merkle_block",
        run: decode::merkle_block,
        layout: None,
    },
    Target {
        name: "decode_pmt",
        run: decode::pmt,
        layout: Some(Layout::PmtExtract),
    },
    Target {
        name: "decode_script",
        run: decode::script,
        layout: None,
    },
    Target {
        name: "decode_tx",
        run: decode::tx,
        layout: None,
    },
    Target {
        name: "differential_bit_indexes",
        run: hashing::bit_indexes_target,
        layout: Some(Layout::BitIndexes),
    },
    Target {
        name: "differential_filteradd",
        run: wire::filteradd,
        layout: Some(Layout::Payload(OpName::FilteraddAccept)),
    },
    Target {
        name: "differential_filterload",
        run: wire::filterload,
        layout: Some(Layout::Payload(OpName::FilterloadAccept)),
    },
    Target {
        name: "differential_merkle_block",
        run: merkle::merkle_block,
        layout: None,
    },
    Target {
        name: "differential_murmur3",
        run: hashing::murmur3_target,
        layout: Some(Layout::Murmur3),
    },
    Target {
        name: "differential_pmt_build",
        run: merkle::pmt_build,
        layout: Some(Layout::PmtBuild),
    },
    Target {
        name: "differential_pmt_extract",
        run: merkle::pmt_extract,
        layout: Some(Layout::PmtExtract),
    },
    Target {
        name: "differential_script",
        run: script::script,
        layout: None,
    },
    Target {
        name: "invariants_filter",
        run: invariants::filter,
        layout: None,
    },
    Target {
        name: "invariants_match_tx",
        run: invariants::match_tx,
        layout: None,
    },
    Target {
        name: "mutants_big_endian_blocks",
        run: mutants::big_endian_blocks,
        layout: Some(mutants::layout::big_endian_blocks),
    },
    Target {
        name: "mutants_limit_off_by_one",
        run: mutants::limit_off_by_one,
        layout: Some(mutants::layout::limit_off_by_one),
    },
    Target {
        name: "mutants_modulus_by_bytes",
        run: mutants::modulus_by_bytes,
        layout: Some(mutants::layout::modulus_by_bytes),
    },
    Target {
        name: "mutants_murmur_tail",
        run: mutants::murmur_tail,
        layout: Some(mutants::layout::murmur_tail),
    },
    Target {
        name: "mutants_no_element_size_limit",
        run: mutants::no_element_size_limit,
        layout: Some(mutants::layout::no_element_size_limit),
    },
    Target {
        name: "mutants_non_canonical_compact_size",
        run: mutants::non_canonical_compact_size,
        layout: Some(mutants::layout::non_canonical_compact_size),
    },
    Target {
        name: "mutants_pmt_bit_order",
        run: mutants::pmt_bit_order,
        layout: Some(mutants::layout::pmt_bit_order),
    },
    Target {
        name: "mutants_seed_not_wrapped",
        run: mutants::seed_not_wrapped,
        layout: Some(mutants::layout::seed_not_wrapped),
    },
    Target {
        name: "mutants_sign_extended_tail",
        run: mutants::sign_extended_tail,
        layout: Some(mutants::layout::sign_extended_tail),
    },
    Target {
        name: "mutants_signed_tweak",
        run: mutants::signed_tweak,
        layout: Some(mutants::layout::signed_tweak),
    },
    Target {
        name: "mutants_truncation_not_detected",
        run: mutants::truncation_not_detected,
        layout: Some(mutants::layout::truncation_not_detected),
    },
];

/// The targets against Bitcoin Core's own code (`fuzz_targets/core/`), built only with the
/// `core` feature (it builds Core from source): their names, so that a build without it still
/// knows them.
pub const CORE_TARGET_NAMES: &[&str] = &[
    "core_bit_indexes",
    "core_filter",
    "core_filteradd",
    "core_filteradd_element",
    "core_filterload",
    "core_match_tx",
    "core_merkle_block",
    "core_murmur3",
    "core_pmt_build",
    "core_pmt_extract",
];

/// The targets this build has: [`TARGETS`], and the Core targets with the `core` feature.
pub fn built_targets() -> impl Iterator<Item = Target> {
    let core: &[Target] = {
        #[cfg(feature = "core")]
        {
            core::TARGETS
        }
        #[cfg(not(feature = "core"))]
        {
            &[]
        }
    };
    TARGETS.iter().chain(core).copied()
}

/// The target called `name`, if this build has it.
pub fn target(name: &str) -> Option<Target> {
    built_targets().find(|t| t.name == name)
}
