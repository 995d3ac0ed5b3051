//! `merkle_test.json`: merkle blocks and partial merkle trees.
//!
//! - `merkleBlock`: the first `CMerkleBlock` of each of Core's `merkle_block_*` tests on the
//!   Core blocks transcribed in `vectors/sources/` (the later, cumulative steps are sequences in
//!   `sequence_test.json`), and generated blocks in which a transaction matches only through an
//!   outpoint an earlier transaction of the same block inserted.
//! - `pmtBuild` / `pmtExtract`: Core's `merkleblock_tests` txid sets as trees over block
//!   13b8a's txids, `pmt_malleability`, and generated trees that break one `ExtractMatches`
//!   rule each.

use super::builder::{
    core_source, every_mutant, generated_source, reference_outcome, Case, FileBuilder,
    GroupBuilder, Outcome,
};
use super::synthetic::{
    block, coinbase, compressed_key, core_filter, element, foreign_outpoint, input, output_of,
    p2pk, p2pkh, push, tx,
};
use super::GenError;
use bip37_harness::hex::Hex;
use bip37_harness::ops::{
    FilterInit, MatchedTx, MerkleBlockInput, MerkleBlockOutput, OpName, Output, PmtBuildInput,
    PmtExtractInput, PmtExtractOutput, Request,
};
use bip37_harness::vectors::model::{Expectation, Phase, VectorFile};
use bip37_reference::flags::{BLOOM_UPDATE_ALL, BLOOM_UPDATE_NONE, BLOOM_UPDATE_P2PUBKEY_ONLY};
use bip37_reference::pmt::{bits_to_bytes, Match, MAX_TRANSACTIONS};
use bip37_reference::{Block, PartialMerkleTree};

/// A Core block by its `vectors/sources/` name.
pub fn core_block(name: &str) -> Result<Block, GenError> {
    let text = match name {
        "block_13b8a" => include_str!("../../../vectors/sources/block_13b8a.hex"),
        "block_5a4ded" => include_str!("../../../vectors/sources/block_5a4ded.hex"),
        "block_dab013" => include_str!("../../../vectors/sources/block_dab013.hex"),
        "block_b731f2" => include_str!("../../../vectors/sources/block_b731f2.hex"),
        other => return Err(GenError(format!("no Core block {other}"))),
    };
    let bytes = Hex::parse(text.trim()).map_err(GenError)?.0;
    Block::decode(&bytes).map_err(|e| GenError(format!("{name}: {e}")))
}

/// A txid written in display order, as internal bytes.
pub fn display_txid(text: &str) -> Result<[u8; 32], GenError> {
    let mut id: [u8; 32] = Hex::parse(text)
        .map_err(GenError)?
        .0
        .try_into()
        .map_err(|_| GenError(format!("{text} is not 32 bytes")))?;
    id.reverse();
    Ok(id)
}

/// The first `CMerkleBlock` of a Core `merkle_block_*` test.
pub struct CoreMerkleCase {
    pub test_case: &'static str,
    pub line: u32,
    pub block: &'static str,
    pub flags: u8,
    pub insert: &'static [&'static str],
    /// Core's `vMatchedTxn`: (index, txid in display order).
    pub matched: &'static [(u32, &'static str)],
}

/// `src/test/bloom_tests.cpp`: each test's first merkle block.
pub const CORE_MERKLE_BLOCKS: &[CoreMerkleCase] = &[
    CoreMerkleCase { test_case: "merkle_block_1", line: 173, block: "block_13b8a", flags: BLOOM_UPDATE_ALL,
        insert: &["201f4587ec86b58297edc2dd32d6fcd998aa794308aac802a8af3be0e081d674"],
        matched: &[(8, "74d681e0e03bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20")] },
    CoreMerkleCase { test_case: "merkle_block_2", line: 214, block: "block_5a4ded", flags: BLOOM_UPDATE_ALL,
        insert: &["703bb9ec7ab4f56d9e417a53ac19cef9c53513dc0352b9734e012d799ffe80e9"],
        matched: &[(0, "e980fe9f792d014e73b95203dc1335c5f9ce19ac537a419e6df5b47aecb93b70")] },
    CoreMerkleCase { test_case: "merkle_block_2_with_update_none", line: 271, block: "block_5a4ded", flags: BLOOM_UPDATE_NONE,
        insert: &["703bb9ec7ab4f56d9e417a53ac19cef9c53513dc0352b9734e012d799ffe80e9"],
        matched: &[(0, "e980fe9f792d014e73b95203dc1335c5f9ce19ac537a419e6df5b47aecb93b70")] },
    CoreMerkleCase { test_case: "merkle_block_3_and_serialize", line: 325, block: "block_dab013", flags: BLOOM_UPDATE_ALL,
        insert: &["b50cc069d6a3e33e3ff84a5c41d9d3febe7c770fdcc96b2c3ff60abe184f1963"],
        matched: &[(0, "63194f18be0af63f2c6bc9dc0f777cbefed3d9415c4af83f3ee3a3d669c00cb5")] },
    CoreMerkleCase { test_case: "merkle_block_4", line: 361, block: "block_b731f2", flags: BLOOM_UPDATE_ALL,
        insert: &["54c10adf159bf118b8b2e629141ac6b5c69addf4ddea130a7d72a4bdf0922a0a"],
        matched: &[(6, "0a2a92f0bda4727d0a13eaddf4dd9ac6b5c61a1429e6b2b818f19b15df0ac154")] },
    CoreMerkleCase { test_case: "merkle_block_4_test_p2pubkey_only", line: 409, block: "block_b731f2", flags: BLOOM_UPDATE_P2PUBKEY_ONLY,
        insert: &["04eaafc2314def4ca98ac970241bcab022b9c1e1f4ea423a20f134c876f2c01ec0f0dd5b2e86e7168cefe0d81113c3807420ce13ad1357231a2252247d97a46a91", "b6efd80d99179f4f4ff6f4dd0a007d018c385d21"],
        matched: &[(0, "147caa76786596590baa4e98f5d9f48b86c7765e489f7a6ff3360fe5c674360b"), (3, "02981fa052f0481dbc5868f4fc2166035a10f27a03cfd2de67326471df5bc041")] },
    CoreMerkleCase { test_case: "merkle_block_4_test_update_none", line: 434, block: "block_b731f2", flags: BLOOM_UPDATE_NONE,
        insert: &["04eaafc2314def4ca98ac970241bcab022b9c1e1f4ea423a20f134c876f2c01ec0f0dd5b2e86e7168cefe0d81113c3807420ce13ad1357231a2252247d97a46a91", "b6efd80d99179f4f4ff6f4dd0a007d018c385d21"],
        matched: &[(0, "147caa76786596590baa4e98f5d9f48b86c7765e489f7a6ff3360fe5c674360b"), (3, "02981fa052f0481dbc5868f4fc2166035a10f27a03cfd2de67326471df5bc041")] },
];

/// bloom_tests.cpp:346: the exact merkleblock of merkle_block_3_and_serialize.
const CORE_MERKLE_BLOCK_3: &str = "0100000079cda856b143d9db2c1caff01d1aecc8630d30625d10e8b4b8b0000000000000b50cc069d6a3e33e3ff84a5c41d9d3febe7c770fdcc96b2c3ff60abe184f196367291b4d4c86041b8fa45d630100000001b50cc069d6a3e33e3ff84a5c41d9d3febe7c770fdcc96b2c3ff60abe184f19630101";

/// (line, test case, txids in display order, Core's matches in tree order as (index, txid in
/// display order)).
type TxidSet = (
    u32,
    &'static str,
    &'static [&'static str],
    &'static [(u32, &'static str)],
);

/// `src/test/merkleblock_tests.cpp`'s txid sets on block 13b8a.
const CORE_TXID_SETS: &[TxidSet] = &[
    (
        20,
        "merkleblock_construct_from_txids_found",
        &[
            "74d681e0e03bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20",
            "f9fc751cb7dc372406a9f8d738d5e6f8f63bab71986a39cf36ee70ee17036d07",
        ],
        &[
            (
                1,
                "f9fc751cb7dc372406a9f8d738d5e6f8f63bab71986a39cf36ee70ee17036d07",
            ),
            (
                8,
                "74d681e0e03bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20",
            ),
        ],
    ),
    (
        61,
        "merkleblock_construct_from_txids_not_found",
        &["c0ffee00003bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20"],
        &[],
    ),
];

pub fn file() -> Result<(String, VectorFile), GenError> {
    let mut file = FileBuilder::new(
        "merkle",
        &[
            "CMerkleBlock and CPartialMerkleTree as Bitcoin Core builds, serializes and checks them (src/merkleblock.cpp): transactions evaluated in block order against a filter that changes as they match, flag bits packed least significant first, and every ExtractMatches rule.",
            "Transaction ids are 32 bytes in internal byte order.",
        ],
    );
    file.group(core_merkle_blocks()?);
    file.group(generated_merkle_blocks()?);
    let (build, extract) = core_txid_sets()?;
    file.group(build);
    file.group(extract);
    file.group(malleability()?);
    file.group(generated_trees()?);
    file.finish()
}

/// The matches in the operations' form.
fn matched_txs(matches: &[Match]) -> Vec<MatchedTx> {
    matches
        .iter()
        .map(|m| MatchedTx {
            index: m.index,
            txid: Hex(m.txid.to_vec()),
        })
        .collect()
}

/// A `merkleBlock` test with the answers of every mutant, and the reference's answer.
fn merkle_block_case(
    slug: &str,
    filter: FilterInit,
    insert: Vec<Vec<u8>>,
    block: &Block,
    comment: &str,
) -> Result<(Case, MerkleBlockOutput), GenError> {
    let request = Request::MerkleBlock(MerkleBlockInput {
        filter,
        insert: insert.into_iter().map(Hex).collect(),
        block: Hex(block.encode()),
    });
    let Outcome::Ok(Output::MerkleBlock(faithful)) = reference_outcome(&request) else {
        return Err(GenError(format!(
            "{slug}: the reference builds no merkle block"
        )));
    };
    let mistaken = every_mutant(&request);
    let case = Case::new(slug, Phase::Merkle, request, comment).mistaken(mistaken);
    Ok((case, faithful))
}

fn core_merkle_blocks() -> Result<GroupBuilder, GenError> {
    let mut group = GroupBuilder::new(
        OpName::MerkleBlock,
        core_source("src/test/bloom_tests.cpp", 173, "bloom_tests/merkle_block_1 .. merkle_block_4_test_update_none"),
        "The first CMerkleBlock of each of Core's merkle_block tests: CBloomFilter(10, 0.000001, 0, flags) with the test's elements. Core prints the matched (index, txid) list and, for merkle_block_3, the exact bytes; the other bytes and the filters after are the reference's.",
    );
    for case in CORE_MERKLE_BLOCKS {
        let b = core_block(case.block)?;
        let insert = case
            .insert
            .iter()
            .map(|e| Hex::parse(e).map(|h| h.0).map_err(GenError))
            .collect::<Result<Vec<_>, _>>()?;
        let expected = case
            .matched
            .iter()
            .map(|&(index, txid)| {
                Ok(MatchedTx {
                    index,
                    txid: Hex(display_txid(txid)?.to_vec()),
                })
            })
            .collect::<Result<Vec<_>, GenError>>()?;
        let (test, out) = merkle_block_case(
            &format!("core-{}", case.test_case.replace('_', "-")),
            core_filter(case.flags),
            insert,
            &b,
            &format!("bloom_tests.cpp:{}: {}", case.line, case.test_case),
        )?;
        let exact = case.line != 325 || out.merkleblock.to_hex() == CORE_MERKLE_BLOCK_3;
        if out.matched != expected || !exact {
            return Err(GenError(format!(
                "bloom_tests.cpp:{}: the reference answers {out:?}, not what Core prints",
                case.line
            )));
        }
        group.generated(test, Expectation::Valid);
    }
    Ok(group)
}

fn generated_merkle_blocks() -> Result<GroupBuilder, GenError> {
    let mut group = GroupBuilder::new(
        OpName::MerkleBlock,
        generated_source("merkle", "BlockUsesFilterSnapshot, PmtBitOrder: a transaction matching only through an outpoint an earlier transaction of the same block inserted"),
        "Blocks whose later transactions spend earlier ones: the filter changes while the block is evaluated.",
    );
    let key = compressed_key(0xc1);
    let mined = coinbase(vec![0x01, 0x07], p2pk(&key));
    let parent = tx(
        vec![input(output_of(&mined, 0), Vec::new())],
        vec![p2pkh(&element(0xc2)), push(&element(0xc3))],
    );
    let unrelated = tx(
        vec![input(foreign_outpoint(0x77, 3), Vec::new())],
        vec![push(&element(0xc4))],
    );
    let child = tx(
        vec![input(output_of(&parent, 0), Vec::new())],
        vec![push(&element(0xc5))],
    );
    let grandchild = tx(
        vec![input(output_of(&child, 0), Vec::new())],
        vec![push(&element(0xc6))],
    );
    let chain = block(vec![
        mined.clone(),
        parent.clone(),
        unrelated.clone(),
        child.clone(),
        grandchild,
    ]);
    let cases = [
        ("chain-update-all", BLOOM_UPDATE_ALL, vec![element(0xc2)], "UPDATE_ALL: the parent's output matches; its child matches through the inserted outpoint, and the grandchild through the child's."),
        ("chain-update-none", BLOOM_UPDATE_NONE, vec![element(0xc2)], "UPDATE_NONE: only the parent matches."),
        ("chain-p2pubkey-only-coinbase", BLOOM_UPDATE_P2PUBKEY_ONLY, vec![key], "P2PUBKEY_ONLY: the coinbase pays to a pubkey, so its outpoint is inserted and the parent spending it matches; the parent's P2PKH output inserts nothing."),
        ("chain-txid-then-children", BLOOM_UPDATE_ALL, vec![parent.txid().to_vec(), element(0xc3)], "The parent matches by txid and by output 1: (parent, 1) is inserted, but the child spends output 0 and does not match."),
    ];
    for (slug, flags, insert, comment) in cases {
        let targets: &[&str] = if flags == BLOOM_UPDATE_ALL && slug == "chain-update-all" {
            &["BlockUsesFilterSnapshot", "PmtBitOrder"]
        } else {
            &[]
        };
        let (case, _) = merkle_block_case(slug, core_filter(flags), insert, &chain, comment)?;
        group.generated(case.targets(targets), Expectation::Valid);
    }
    let single = block(vec![unrelated]);
    // With a hash function, an implementation without the empty-filter guard hashes into the
    // 0 bits (the division by zero of CVE-2013-5700); with none it never hashes.
    let empty_filters: [(&str, u32, &[&str], &str); 2] = [
        ("empty-filter-matches-all", 0, &[], "A filter of no bytes matches every transaction and is never updated."),
        ("empty-filter-one-function-matches-all", 1, &["NoEmptyFilterGuard"], "A filter of no bytes and 1 hash function matches every transaction and is never updated."),
    ];
    for (slug, hash_funcs, targets, comment) in empty_filters {
        let filter = FilterInit::Loaded {
            data: Hex(Vec::new()),
            hash_funcs,
            tweak: 0,
            flags: BLOOM_UPDATE_ALL,
        };
        let (case, _) = merkle_block_case(slug, filter, Vec::new(), &chain, comment)?;
        group.generated(case.targets(targets), Expectation::Valid);
    }
    let (case, _) = merkle_block_case(
        "single-transaction-no-match",
        core_filter(BLOOM_UPDATE_ALL),
        vec![element(0xcf)],
        &single,
        "A one-transaction block that does not match: height 0, one bit (0) and the txid as the root.",
    )?;
    group.generated(case, Expectation::Valid);
    Ok(group)
}

/// A `pmtBuild` request.
fn build_request(txids: &[[u8; 32]], matches: &[bool]) -> Request {
    Request::PmtBuild(PmtBuildInput {
        txids: txids.iter().map(|id| Hex(id.to_vec())).collect(),
        matches: matches.to_vec(),
    })
}

/// A `pmtExtract` request.
fn extract_request(tree: Vec<u8>) -> Request {
    Request::PmtExtract(PmtExtractInput { pmt: Hex(tree) })
}

/// A `pmtBuild` test with the answers of every mutant attached.
fn build_case(
    slug: &str,
    txids: &[[u8; 32]],
    matches: &[bool],
    comment: &str,
) -> Result<Case, GenError> {
    let request = build_request(txids, matches);
    let mistaken = every_mutant(&request);
    Ok(Case::new(slug, Phase::Merkle, request, comment).mistaken(mistaken))
}

/// A `pmtExtract` test with the answers of every mutant attached.
fn extract_case(slug: &str, tree: Vec<u8>, comment: &str) -> Result<Case, GenError> {
    let request = extract_request(tree);
    let mistaken = every_mutant(&request);
    Ok(Case::new(slug, Phase::Merkle, request, comment).mistaken(mistaken))
}

fn extract_output(root: [u8; 32], matches: &[Match]) -> Outcome {
    Outcome::Ok(Output::PmtExtract(PmtExtractOutput {
        root: Hex(root.to_vec()),
        matched: matched_txs(matches),
    }))
}

fn core_txid_sets() -> Result<(GroupBuilder, GroupBuilder), GenError> {
    let b = core_block("block_13b8a")?;
    let txids = b.txids();
    let mut build = GroupBuilder::new(
        OpName::PmtBuild,
        core_source("src/test/merkleblock_tests.cpp", 20, "merkleblock_tests/merkleblock_construct_from_txids_found"),
        "CMerkleBlock(block, txids) on block 0000…13b8a: the tree over its 9 txids with the given ones marked. Core checks the extraction (next group); the bytes are the reference's.",
    )
    .shared(&["txids"]);
    let mut extract = GroupBuilder::new(
        OpName::PmtExtract,
        core_source("src/test/merkleblock_tests.cpp", 20, "merkleblock_tests/merkleblock_construct_from_txids_found"),
        "ExtractMatches of those trees: the header's merkle root and the marked txids in tree order, as Core checks.",
    );
    for &(line, test_case, wanted, core_matches) in CORE_TXID_SETS {
        let wanted = wanted
            .iter()
            .map(|t| display_txid(t))
            .collect::<Result<Vec<_>, _>>()?;
        let marks: Vec<bool> = txids.iter().map(|id| wanted.contains(id)).collect();
        let slug = test_case.replace('_', "-");
        let comment = format!("merkleblock_tests.cpp:{line}: {test_case}");
        build.generated(
            build_case(&format!("build-{slug}"), &txids, &marks, &comment)?,
            Expectation::Valid,
        );
        let tree = PartialMerkleTree::build(&txids, &marks).map_err(|e| GenError(e.to_string()))?;
        let matches = core_matches
            .iter()
            .map(|&(index, txid)| {
                Ok(Match {
                    index,
                    txid: display_txid(txid)?,
                })
            })
            .collect::<Result<Vec<_>, GenError>>()?;
        let case = extract_case(&format!("extract-{slug}"), tree.encode(), &comment)?;
        let Outcome::Ok(expected) = extract_output(b.header.merkle_root, &matches) else {
            unreachable!("extract_output answers Ok")
        };
        extract.sourced(case, Expectation::Valid, Some(expected));
    }
    Ok((build, extract))
}

fn malleability() -> Result<GroupBuilder, GenError> {
    let txids: Vec<[u8; 32]> = [1u8, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9, 10]
        .iter()
        .map(|&v| {
            let mut id = [0u8; 32];
            id[0] = v;
            id
        })
        .collect();
    let marks: Vec<bool> = (0..12).map(|i| i == 9 || i == 10).collect();
    let tree = PartialMerkleTree::build(&txids, &marks).map_err(|e| GenError(e.to_string()))?;
    let mut group = GroupBuilder::new(
        OpName::PmtExtract,
        core_source("src/test/pmt_tests.cpp", 111, "pmt_tests/pmt_malleability"),
        "Txids 1..10, 9, 10 (uint256{v}: first internal byte v) with positions 9 and 10 marked: a node has identical children, so ExtractMatches returns the null root (CVE-2012-2459).",
    );
    let case = extract_case(
        "pmt-malleability",
        tree.encode(),
        "pmt_tests.cpp:111: duplicated txids give identical siblings",
    )?
    .targets(&["PmtIdenticalSiblingsAccepted"]);
    group.sourced(case, Expectation::Invalid, None);
    Ok(group)
}

/// A generated tree test: slug, bytes, result, targets, comment.
type TreeRow = (
    &'static str,
    Vec<u8>,
    Expectation,
    &'static [&'static str],
    &'static str,
);

/// A serialized tree from its parts (flag bits given as bytes).
fn raw_tree(transactions: u32, hashes: &[[u8; 32]], flag_bytes: &[u8]) -> Vec<u8> {
    let tree = PartialMerkleTree {
        transactions,
        hashes: hashes.to_vec(),
        bits: flag_bytes
            .iter()
            .flat_map(|b| (0..8).map(move |i| b >> i & 1 == 1))
            .collect(),
    };
    tree.encode()
}

fn generated_trees() -> Result<GroupBuilder, GenError> {
    let mut group = GroupBuilder::new(
        OpName::PmtExtract,
        generated_source("merkle", "PmtBitOrder, PmtPaddingNotChecked, PmtUnusedHashesAccepted, PmtTransactionCountUnbounded: trees that break one ExtractMatches rule each"),
        "Partial merkle trees that are valid only when read exactly as Core reads them.",
    );
    let ids: Vec<[u8; 32]> = (1..=5u8).map(|v| [v; 32]).collect();
    let marks = [false, true, false, false, true];
    let tree = PartialMerkleTree::build(&ids, &marks).map_err(|e| GenError(e.to_string()))?;
    let valid = tree.encode();
    let flag_bytes = bits_to_bytes(&tree.bits);
    let mut extra_byte = flag_bytes.clone();
    extra_byte.push(0);
    let mut extra_hash = tree.hashes.clone();
    extra_hash.push([0xee; 32]);
    let rows: Vec<TreeRow> = vec![
        ("five-leaves-two-matches", valid, Expectation::Valid, &["PmtBitOrder"], "Five txids, positions 1 and 4 marked: flag bits read least significant first."),
        ("extra-flag-byte", raw_tree(5, &tree.hashes, &extra_byte), Expectation::Invalid, &["PmtPaddingNotChecked"], "The same tree with one more (zero) flag byte: padding may only fill the last byte."),
        ("unused-hash", raw_tree(5, &extra_hash, &flag_bytes), Expectation::Invalid, &["PmtUnusedHashesAccepted"], "The same tree with one hash too many: every hash must be used."),
        ("most-transactions", raw_tree(MAX_TRANSACTIONS, &[[0xab; 32]], &[0]), Expectation::Valid, &[], "16,666 transactions (4,000,000 / 240), nothing matched: one bit, one hash, and that hash is the root."),
        ("too-many-transactions", raw_tree(MAX_TRANSACTIONS + 1, &[[0xab; 32]], &[0]), Expectation::Invalid, &["PmtTransactionCountUnbounded"], "16,667 transactions: more than a block can hold."),
        ("no-transactions", raw_tree(0, &[[0xab; 32]], &[0]), Expectation::Invalid, &[], "A tree of zero transactions is invalid."),
        ("single-transaction-matched", raw_tree(1, &[[0xcd; 32]], &[1]), Expectation::Valid, &["PmtBitOrder"], "One transaction: height 0, one bit and one hash, the matched txid is the root."),
        ("more-hashes-than-transactions", raw_tree(1, &[[0xcd; 32], [0xce; 32]], &[1]), Expectation::Invalid, &[], "Two hashes for one transaction."),
        ("bits-exhausted", raw_tree(5, &tree.hashes, &[]), Expectation::Invalid, &[], "No flag bits at all (fewer bits than hashes)."),
    ];
    for (slug, bytes, result, targets, comment) in rows {
        let case = extract_case(slug, bytes, comment)?.targets(targets);
        group.generated(case, result);
    }
    Ok(group)
}
