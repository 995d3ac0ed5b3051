//! Core's merkle block tests (src/test/bloom_tests.cpp, src/test/merkleblock_tests.cpp and
//! src/test/pmt_tests.cpp at d861c382) against the reference, read from
//! `vectors/sources/core.json`.
//!
//! Each bloom_tests case loads `CBloomFilter(10, 0.000001, 0, flags)`, inserts elements and
//! builds `CMerkleBlock` of a block; later steps insert more into the SAME (already updated)
//! filter. Core checks the matched (index, txid) list (`expected_vMatchedTxn`), the exact bytes
//! of merkle_block_3 and, for merkle_block_4's P2PUBKEY_ONLY / NONE variants, which outpoints
//! the filter holds after. The values under `derived` (filter bytes, merkleblock bytes, and
//! the matched lists Core does not check) were computed by an independent model, not by Core:
//! agreeing with them cross-checks two implementations.

mod core_support;

use bip37_reference::pmt::ExtractError;
use bip37_reference::{Block, MerkleBlock, PartialMerkleTree};
use core_support::{bytes, core, core_filter, display, list, source, text};
use serde_json::Value;

fn block(name: &str) -> Block {
    Block::decode(&source(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `[[index, txid in display order], ...]` as (index, internal txid) pairs.
pub fn matched(value: &Value) -> Vec<(u32, [u8; 32])> {
    list(value)
        .iter()
        .map(|pair| {
            let index = pair[0].as_u64().expect("index") as u32;
            (index, display(text(&pair[1])))
        })
        .collect()
}

/// A Core case's filter flags.
fn flags(case: &Value) -> u8 {
    case["filter_params"]["n_flags"].as_u64().expect("n_flags") as u8
}

/// The `merkle_block` case of `test_case`.
fn merkle_case(test_case: &str) -> &'static Value {
    list(&core()["merkle_block"])
        .iter()
        .find(|c| c["test_case"] == test_case)
        .unwrap_or_else(|| panic!("core.json has no {test_case}"))
}

#[test]
fn core_blocks_decode_and_hash_to_their_roots() {
    let blocks = core()["blocks"].as_object().expect("blocks");
    assert_eq!(blocks.len(), 4);
    for (name, facts) in blocks {
        let b = block(name);
        let txs = facts["n_tx"].as_u64().expect("n_tx") as usize;
        assert_eq!(b.transactions.len(), txs, "{name}");
        assert_eq!(
            b.computed_merkle_root(),
            Some(b.header.merkle_root),
            "{name}"
        );
        assert_eq!(
            b.header.merkle_root,
            display(text(&facts["merkle_root_display"])),
            "{name}"
        );
        assert_eq!(
            b.header.hash(),
            display(text(&facts["hash_display"])),
            "{name}"
        );
        assert_eq!(b.encode(), source(name), "{name}");
    }
}

#[test]
fn every_core_merkle_block_case() {
    let cases = list(&core()["merkle_block"]);
    assert_eq!(cases.len(), 7);
    for case in cases {
        let b = block(text(&case["block"]));
        let mut filter = core_filter(flags(case));
        for (i, step) in list(&case["steps"]).iter().enumerate() {
            let at = format!("{} step {i}", text(&case["source"]));
            for element in list(&step["insert_hex"]) {
                filter.insert(&bytes(element));
            }
            let mb = MerkleBlock::from_filter(&b, &mut filter).expect(&at);
            let found: Vec<(u32, [u8; 32])> =
                mb.matched.iter().map(|m| (m.index, m.txid)).collect();
            let expected = step
                .get("expected_vMatchedTxn")
                .unwrap_or(&step["derived"]["vMatchedTxn"]);
            assert_eq!(found, matched(expected), "{at}: matched");
            let derived = &step["derived"];
            assert_eq!(
                filter.data(),
                bytes(&derived["filter_after_hex"]),
                "{at}: filter after"
            );
            assert_eq!(
                mb.encode(),
                bytes(&derived["merkleblock_serialization_hex"]),
                "{at}: merkleblock"
            );
            let extracted = mb.tree.extract_matches().expect(&at);
            assert_eq!(extracted.root, b.header.merkle_root, "{at}: root");
            assert_eq!(extracted.matches, mb.matched, "{at}: extracted");
        }
    }
}

#[test]
fn p2pubkey_only_inserts_the_p2pk_outpoint_but_not_the_p2pkh_one() {
    // bloom_tests.cpp:428-431 and :453-456.
    for test_case in [
        "bloom_tests/merkle_block_4_test_p2pubkey_only",
        "bloom_tests/merkle_block_4_test_update_none",
    ] {
        let case = merkle_case(test_case);
        let mut filter = core_filter(flags(case));
        for element in list(&case["steps"][0]["insert_hex"]) {
            filter.insert(&bytes(element));
        }
        MerkleBlock::from_filter(&block(text(&case["block"])), &mut filter).expect(test_case);
        let checks = list(&case["after_CMerkleBlock_filter_contains"]);
        assert_eq!(checks.len(), 2);
        for check in checks {
            let expected = check["contains"].as_bool().expect("contains");
            let element = bytes(&check["element_hex"]);
            assert_eq!(filter.contains(&element), expected, "{test_case}");
        }
    }
}

#[test]
fn merkle_block_3_bytes_are_cores() {
    // bloom_tests.cpp:346-352 compares the serialization byte for byte.
    let step = &merkle_case("bloom_tests/merkle_block_3_and_serialize")["steps"][0];
    let expected = bytes(&step["expected_merkleblock_serialization_hex"]);
    assert_eq!(
        bytes(&step["derived"]["merkleblock_serialization_hex"]),
        expected
    );
    let (header, tree) = MerkleBlock::decode(&expected).unwrap();
    assert_eq!(header, block("block_dab013").header);
    assert_eq!(tree.encode(), expected[80..]);
}

#[test]
fn merkleblock_from_txids() {
    // merkleblock_tests.cpp:20 (found, in tree order, with an empty vMatchedTxn) and :61 (a
    // txid not in the block matches nothing; the root still holds).
    let cases = list(&core()["merkleblock_from_txids"]);
    assert_eq!(cases.len(), 2);
    for case in cases {
        let at = text(&case["source"]);
        let b = block(text(&case["block"]));
        let wanted: Vec<[u8; 32]> = list(&case["txids_display"])
            .iter()
            .map(|t| display(text(t)))
            .collect();
        let mb = MerkleBlock::from_txids(&b, &wanted).expect(at);
        assert!(mb.matched.is_empty(), "{at}");
        // The bytes agree with the independent model's.
        assert_eq!(
            mb.encode(),
            bytes(&case["derived"]["merkleblock_serialization_hex"]),
            "{at}"
        );
        let extracted = mb.tree.extract_matches().expect(at);
        assert_eq!(extracted.root, b.header.merkle_root, "{at}");
        let found: Vec<(u32, [u8; 32])> = extracted
            .matches
            .iter()
            .map(|m| (m.index, m.txid))
            .collect();
        let expected = &case["expected_ExtractMatches"];
        let core_found: Vec<(u32, [u8; 32])> = list(&expected["indices"])
            .iter()
            .zip(list(&expected["matched_display_in_order"]))
            .map(|(i, t)| (i.as_u64().expect("index") as u32, display(text(t))))
            .collect();
        assert_eq!(found, core_found, "{at}");
    }
}

#[test]
fn pmt_malleability_is_refused() {
    // pmt_tests.cpp:111: txids 1..10, 9, 10 with matches at positions 9 and 10.
    let case = &core()["pmt_malleability"];
    let txids: Vec<[u8; 32]> = list(&case["txids_internal_hex"])
        .iter()
        .map(|t| bytes(t).try_into().expect("32-byte txid"))
        .collect();
    let matches: Vec<bool> = list(&case["vMatch"])
        .iter()
        .map(|m| m.as_bool().expect("vMatch"))
        .collect();
    let tree = PartialMerkleTree::build(&txids, &matches).unwrap();
    assert_eq!(
        tree.encode(),
        bytes(&case["derived"]["pmt_serialization_hex"])
    );
    let decoded = PartialMerkleTree::decode(&tree.encode()).unwrap();
    assert!(matches!(
        decoded.extract_matches(),
        Err(ExtractError::IdenticalSiblings { .. })
    ));
}
