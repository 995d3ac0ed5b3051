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
    core_source, every_mutant, generated_source, oracle_outcome, Case, FileBuilder, GroupBuilder,
    Outcome,
};
use super::core_facts::{bytes, core, core_block, display_txid, line, short_name};
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
    let Outcome::Ok(Output::MerkleBlock(faithful)) = oracle_outcome(&request) else {
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
    for case in &core()?.merkle_block {
        let (name, line) = (short_name(&case.test_case), line(&case.source)?);
        let step = case
            .steps
            .first()
            .ok_or_else(|| GenError(format!("{name} has no step")))?;
        let expected = step.matched()?;
        let (test, out) = merkle_block_case(
            &format!("core-{}", name.replace('_', "-")),
            core_filter(case.filter_params.n_flags),
            step.insert()?,
            &core_block(&case.block)?,
            &format!("bloom_tests.cpp:{line}: {name}"),
        )?;
        let exact = match &step.expected_merkleblock_serialization_hex {
            Some(core_bytes) => out.merkleblock.to_hex() == *core_bytes,
            None => true,
        };
        if out.matched != expected || !exact {
            return Err(GenError(format!(
                "bloom_tests.cpp:{line}: the reference answers {out:?}, not what Core prints"
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
    for set in &core()?.merkleblock_from_txids {
        let b = core_block(&set.block)?;
        let txids = b.txids();
        let wanted = set
            .txids_display
            .iter()
            .map(|t| display_txid(t))
            .collect::<Result<Vec<_>, _>>()?;
        let marks: Vec<bool> = txids.iter().map(|id| wanted.contains(id)).collect();
        let (name, line) = (short_name(&set.test_case), line(&set.source)?);
        let slug = name.replace('_', "-");
        let comment = format!("merkleblock_tests.cpp:{line}: {name}");
        build.generated(
            build_case(&format!("build-{slug}"), &txids, &marks, &comment)?,
            Expectation::Valid,
        );
        let tree = PartialMerkleTree::build(&txids, &marks).map_err(|e| GenError(e.to_string()))?;
        let core_found = &set.extracted;
        if core_found.indices.len() != core_found.matched_display_in_order.len() {
            return Err(GenError(format!(
                "{name}: indices and txids differ in number"
            )));
        }
        let matches = core_found
            .indices
            .iter()
            .zip(&core_found.matched_display_in_order)
            .map(|(&index, txid)| {
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
    let core_case = &core()?.pmt_malleability;
    let txids = core_case
        .txids_internal_hex
        .iter()
        .map(|t| {
            bytes(t)?
                .try_into()
                .map_err(|_| GenError(format!("{t} is not 32 bytes")))
        })
        .collect::<Result<Vec<[u8; 32]>, _>>()?;
    let line = line(&core_case.source)?;
    let tree =
        PartialMerkleTree::build(&txids, &core_case.marks).map_err(|e| GenError(e.to_string()))?;
    let mut group = GroupBuilder::new(
        OpName::PmtExtract,
        core_source("src/test/pmt_tests.cpp", line, "pmt_tests/pmt_malleability"),
        "Txids 1..10, 9, 10 (uint256{v}: first internal byte v) with positions 9 and 10 marked: a node has identical children, so ExtractMatches returns the null root (CVE-2012-2459).",
    );
    let case = extract_case(
        "pmt-malleability",
        tree.encode(),
        &format!("pmt_tests.cpp:{line}: duplicated txids give identical siblings"),
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
        generated_source("merkle", "PmtBitOrder, PmtHashesDisplayOrder, PmtTransactionCountBigEndian, PmtOddNodePromoted, PmtPaddingNotChecked, PmtUnusedHashesAccepted, PmtTransactionCountUnbounded: trees that break one ExtractMatches rule each"),
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
        ("five-leaves-two-matches", valid, Expectation::Valid, &["PmtBitOrder", "PmtHashesDisplayOrder", "PmtTransactionCountBigEndian", "PmtOddNodePromoted"], "Five txids, positions 1 and 4 marked: flag bits read least significant first, and each node without a right child hashes its left child with itself."),
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
