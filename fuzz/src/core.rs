//! The reference against Bitcoin Core's own code (`adapters/bitcoin-core`: Core's
//! `CBloomFilter`, `CMerkleBlock`, `CPartialMerkleTree`, `MurmurHash3` and deserialization,
//! compiled from its source): each target reads its bytes in one [`Layout`], asks both the same
//! request and crashes when they disagree (another value, or accept against reject). Core is
//! the truth, so a crash is a bug of the reference, or of a vector built from it.
//!
//! Inputs where Core's code is undefined (sizing with n = 0, bit indexes of a 0-byte filter, a
//! block without transactions) Core's side answers unsupported; those are skipped. One
//! difference is the suite's stated policy: bytes after a complete `filterload` or `filteradd`
//! payload or partial merkle tree, which Core does not read (`net_processing.cpp` reads one
//! message value from the stream, `verifytxoutproof` one merkle block) and the reference
//! refuses (the vectors' `acceptable` tests, TrailingBytesIgnoredByCore). It passes only when
//! the reference, asked about the prefix Core read, answers what Core did.
//!
//! `BIP37_FUZZ_PLANT=<bug>` (a mutant's name, e.g. `murmur-tail`) puts that planted bug into
//! the reference side, so a run shows how long these targets take to find a difference
//! (`fuzz/fuzz.sh -P <bug>`).
//!
//! Only with the `core` feature: building it builds Core from source once (cached).

use crate::layout::Layout;
use crate::Target;
use bip37_adapter_bitcoin_core::Core;
use bip37_harness::disagreement::compare::{compare, Agreement};
use bip37_harness::hex::Hex;
use bip37_harness::implementation::Answer;
use bip37_harness::implementation::Implementation;
use bip37_harness::mutants::{Bug, Mutant};
use bip37_harness::ops::{OpName, Output, PayloadInput, PmtExtractInput, Request};
use bip37_harness::reference_impl::Reference;
use bip37_reference::{FilterAdd, FilterLoad, PartialMerkleTree};
use std::sync::OnceLock;

/// The planted bug `BIP37_FUZZ_PLANT` names, read once; a name no mutant has stops the run.
fn planted() -> Option<Bug> {
    static PLANTED: OnceLock<Option<Bug>> = OnceLock::new();
    *PLANTED.get_or_init(|| {
        let name = std::env::var("BIP37_FUZZ_PLANT").ok()?;
        let bug = Bug::ALL.iter().copied().find(|bug| bug.name() == name);
        let Some(bug) = bug else {
            let names: Vec<&str> = Bug::ALL.iter().map(|bug| bug.name()).collect();
            panic!(
                "BIP37_FUZZ_PLANT={name} is no mutant; one of: {}",
                names.join(", ")
            );
        };
        eprintln!("core targets: the reference side has the planted bug {name}");
        Some(bug)
    })
}

/// Crashes when the reference (or, with a planted bug, its mutant) and Core disagree on
/// `request`.
fn differ(request: &Request) {
    let ours = ours(request);
    let core = Core.execute(request);
    // Core answers unsupported where its code is undefined: `compare` skips those.
    if compare(&ours, &core) == Agreement::Disagrees && !trailing_bytes_tolerated(request, &core) {
        panic!(
            "the reference and Bitcoin Core disagree on {}: Core {core:?}, reference {ours:?}",
            request.input_json()
        );
    }
}

/// The reference's answer, or with a planted bug its mutant's.
fn ours(request: &Request) -> Answer<Output> {
    match planted() {
        Some(bug) => Mutant { bug }.execute(request),
        None => Reference.execute(request),
    }
}

/// True when Core read a message payload's prefix and left trailing bytes, and the reference
/// answers that prefix as Core answered the whole payload.
fn trailing_bytes_tolerated(request: &Request, core: &Answer<Output>) -> bool {
    if let Request::PmtExtract(input) = request {
        return pmt_prefix_agrees(&input.pmt.0, core);
    }
    let read = match core {
        Answer::Ok(Output::FilteraddDecode(out) | Output::FilteraddAccept(out)) => FilterAdd {
            data: out.data.0.clone(),
        }
        .encode(),
        Answer::Ok(Output::FilterloadDecode(out) | Output::FilterloadAccept(out)) => FilterLoad {
            data: out.data.0.clone(),
            hash_funcs: out.hash_funcs,
            tweak: out.tweak,
            flags: out.flags,
        }
        .encode(),
        _ => return false,
    };
    let prefix = |payload: &PayloadInput| {
        let bytes = &payload.payload.0;
        (read.len() < bytes.len() && bytes.starts_with(&read)).then(|| PayloadInput {
            payload: Hex(read.clone()),
        })
    };
    let asked = match request {
        Request::FilteraddDecode(p) => prefix(p).map(Request::FilteraddDecode),
        Request::FilteraddAccept(p) => prefix(p).map(Request::FilteraddAccept),
        Request::FilterloadDecode(p) => prefix(p).map(Request::FilterloadDecode),
        Request::FilterloadAccept(p) => prefix(p).map(Request::FilterloadAccept),
        _ => None,
    };
    asked.is_some_and(|asked| compare(&ours(&asked), core) == Agreement::Agrees)
}

/// True when `pmt` is one tree and more bytes, and the reference answers that tree as Core
/// answered the whole.
fn pmt_prefix_agrees(pmt: &[u8], core: &Answer<Output>) -> bool {
    let mut rest = pmt;
    if PartialMerkleTree::decode_from(&mut rest).is_err() || rest.is_empty() {
        return false;
    }
    let tree = Request::PmtExtract(PmtExtractInput {
        pmt: Hex(pmt[..pmt.len() - rest.len()].to_vec()),
    });
    compare(&ours(&tree), core) == Agreement::Agrees
}

/// Asks both the request `bytes` form in `layout`.
fn differ_in(layout: Layout, bytes: &[u8]) {
    if let Some(request) = layout.request(bytes) {
        differ(&request);
    }
}

/// A message payload, decoded (`*Decode`) and checked against the limits (`*Accept`).
fn differ_on_payload(decode: OpName, accept: OpName, bytes: &[u8]) {
    for op in [decode, accept] {
        if let Some(request) = Layout::Payload(op).request(bytes) {
            differ(&request);
        }
    }
}

/// `MurmurHash3(seed, data)`: any seed, any length.
pub fn murmur3(bytes: &[u8]) {
    differ_in(Layout::Murmur3, bytes)
}

/// The bit each hash function selects, on an explicit filter of any size and function count.
pub fn bit_indexes(bytes: &[u8]) {
    differ_in(Layout::BitIndexes, bytes)
}

/// A filter from (n, p, tweak, flags), explicit or loaded bytes, with inserts, queries and its
/// `filterload` serialization.
pub fn filter(bytes: &[u8]) {
    differ_in(Layout::BuildFilter, bytes)
}

/// `filterload` payloads: decoding and the limits (36,000 bytes, 50 functions).
pub fn filterload(bytes: &[u8]) {
    differ_on_payload(OpName::FilterloadDecode, OpName::FilterloadAccept, bytes)
}

/// `filteradd` payloads: decoding and the 520-byte element limit.
pub fn filteradd(bytes: &[u8]) {
    differ_on_payload(OpName::FilteraddDecode, OpName::FilteraddAccept, bytes)
}

/// A `filteradd` element of any length, sent canonically encoded to `filteraddAccept` (a
/// payload whose 3-byte length prefix matches its length is all but unreachable by mutating
/// payloads; an element of 521 bytes is not).
pub fn filteradd_element(bytes: &[u8]) {
    differ_in(Layout::FilteraddElement, bytes)
}

/// Bitcoin Core's answer to `request`: what a vector promoted from a Core target records.
pub fn core_answer(request: &Request) -> Answer<Output> {
    Core.execute(request)
}

/// `IsRelevantAndUpdate` over transactions with any scripts, on a filter with any flags byte.
pub fn match_tx(bytes: &[u8]) {
    differ_in(Layout::MatchTx, bytes)
}

/// `CMerkleBlock` of a block of such transactions.
pub fn merkle_block(bytes: &[u8]) {
    differ_in(Layout::MerkleBlock, bytes)
}

/// A partial merkle tree built from txids and match flags.
pub fn pmt_build(bytes: &[u8]) {
    differ_in(Layout::PmtBuild, bytes)
}

/// A serialized partial merkle tree, well formed or not: root and matches, or the refusal.
pub fn pmt_extract(bytes: &[u8]) {
    differ_in(Layout::PmtExtract, bytes)
}

/// The Core targets; their names are [`crate::CORE_TARGET_NAMES`], in the same order.
pub const TARGETS: &[Target] = &[
    Target {
        name: "core_bit_indexes",
        run: bit_indexes,
        layout: Some(Layout::BitIndexes),
    },
    Target {
        name: "core_filter",
        run: filter,
        layout: Some(Layout::BuildFilter),
    },
    Target {
        name: "core_filteradd",
        run: filteradd,
        layout: Some(Layout::Payload(OpName::FilteraddAccept)),
    },
    Target {
        name: "core_filteradd_element",
        run: filteradd_element,
        layout: Some(Layout::FilteraddElement),
    },
    Target {
        name: "core_filterload",
        run: filterload,
        layout: Some(Layout::Payload(OpName::FilterloadAccept)),
    },
    Target {
        name: "core_match_tx",
        run: match_tx,
        layout: Some(Layout::MatchTx),
    },
    Target {
        name: "core_merkle_block",
        run: merkle_block,
        layout: Some(Layout::MerkleBlock),
    },
    Target {
        name: "core_murmur3",
        run: murmur3,
        layout: Some(Layout::Murmur3),
    },
    Target {
        name: "core_pmt_build",
        run: pmt_build,
        layout: Some(Layout::PmtBuild),
    },
    Target {
        name: "core_pmt_extract",
        run: pmt_extract,
        layout: Some(Layout::PmtExtract),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_the_listed_ones() {
        let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
        assert_eq!(names, crate::CORE_TARGET_NAMES);
    }

    #[test]
    fn a_difference_is_found_and_an_agreement_is_not() {
        // seed 0, data "abc": Core and the reference agree; the same input with the tail
        // read big-endian (the mutant) does not.
        let input = [0, 0, 0, 0, b'a', b'b', b'c'];
        murmur3(&input);
        let request = Layout::Murmur3.request(&input).unwrap();
        let mutant = Mutant {
            bug: Bug::MurmurTail,
        }
        .execute(&request);
        assert_eq!(
            compare(&Core.execute(&request), &mutant),
            Agreement::Disagrees
        );
    }

    #[test]
    fn trailing_bytes_pass_only_when_the_prefix_agrees() {
        // filteradd of one byte, then one byte Core leaves unread: tolerated.
        filteradd(&[0x01, 0xaa, 0xbb]);
        let request = Layout::Payload(OpName::FilteraddDecode)
            .request(&[0x01, 0xaa, 0xbb])
            .unwrap();
        let core = Core.execute(&request);
        assert!(matches!(core, Answer::Ok(_)), "{core:?}");
        assert!(trailing_bytes_tolerated(&request, &core));
        // The same answer for a payload that is not its prefix plus more is not.
        let other = Layout::Payload(OpName::FilteraddDecode)
            .request(&[0x01, 0xab, 0xbb])
            .unwrap();
        assert!(!trailing_bytes_tolerated(&other, &core));
    }

    #[test]
    fn a_tree_followed_by_bytes_passes_as_its_tree_does() {
        // Found by core_pmt_extract: a 5-leaf tree of one hash and flags byte 00, then 61 bytes
        // Core does not read (its answer is the tree's root and no matches).
        let mut pmt = vec![5, 0, 0, 0, 1];
        pmt.extend_from_slice(&[0xd8; 32]);
        pmt.extend_from_slice(&[1, 0]);
        pmt.extend_from_slice(&[0; 61]);
        let request = Layout::PmtExtract.request(&pmt).unwrap();
        let core = Core.execute(&request);
        assert!(matches!(core, Answer::Ok(_)), "{core:?}");
        assert!(matches!(Reference.execute(&request), Answer::Rejected(_)));
        pmt_extract(&pmt);
        // The answer of another tree is not the prefix's.
        let mut other = pmt.clone();
        other[5] = 0xd9;
        assert!(!pmt_prefix_agrees(&other, &core));
    }

    #[test]
    fn inputs_core_leaves_undefined_are_skipped() {
        // A 0-byte filter's bit indexes: Core's Hash would take a remainder by 0.
        let input = [0, 0, 5, 0, 0, 0, 0, 0xaa];
        let request = Layout::BitIndexes.request(&input).unwrap();
        assert_eq!(
            compare(&Reference.execute(&request), &Core.execute(&request)),
            Agreement::Unsupported
        );
        bit_indexes(&input);
    }
}
