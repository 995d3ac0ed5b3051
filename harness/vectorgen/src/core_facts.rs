//! Bitcoin Core's transcribed facts, read from `vectors/sources/` (the one place they are
//! written): the raw transactions and blocks as `.hex` files and every other vector in
//! `core.json`, each entry with its `path:line@commit`. The reference's tests read the same
//! files, so a fact is never typed twice. Txids are in display order where the field name says
//! `display`, and converted to internal order here.

use super::GenError;
use bip37_harness::hex::Hex;
use bip37_harness::ops::MatchedTx;
use bip37_reference::{Block, Transaction};
use serde::Deserialize;
use std::sync::OnceLock;

/// The parts of `core.json` the generator uses.
#[derive(Debug, Deserialize)]
pub struct CoreFacts {
    pub murmur3: Vec<Murmur3Case>,
    pub filter_serialize: Vec<FilterSerialize>,
    pub bloom_match: BloomMatch,
    pub merkle_block: Vec<MerkleCase>,
    pub merkleblock_from_txids: Vec<TxidSet>,
    pub pmt_malleability: Malleability,
}

/// One `hash_tests/murmurhash3` vector.
#[derive(Debug, Deserialize)]
pub struct Murmur3Case {
    pub source: String,
    pub seed: u32,
    pub data_hex: String,
    pub expected: u32,
}

/// One of `bloom_tests`' serialization tests: a sized filter, its elements, the payload Core
/// compares with and the `contains` answers it checks.
#[derive(Debug, Deserialize)]
pub struct FilterSerialize {
    pub source: String,
    pub test_case: String,
    pub params: SizedParams,
    pub insert_hex: Vec<String>,
    pub expected_serialization_hex: String,
    #[serde(default)]
    pub checks_before_insert: Vec<ContainsElement>,
    #[serde(default)]
    pub contains_after: Vec<ContainsElement>,
}

/// `CBloomFilter(n_elements, fp_rate, n_tweak, n_flags)`.
#[derive(Debug, Deserialize)]
pub struct SizedParams {
    pub n_elements: u32,
    pub fp_rate: f64,
    pub n_tweak: u32,
    pub n_flags: u8,
}

/// An element Core asks the filter about, and the answer.
#[derive(Debug, Deserialize)]
pub struct ContainsElement {
    pub element_hex: String,
    pub contains: bool,
}

/// `bloom_tests/bloom_match`.
#[derive(Debug, Deserialize)]
pub struct BloomMatch {
    pub cases: Vec<BloomMatchCase>,
}

/// One `bloom_match` case: a fresh filter with one element, evaluated on the transaction.
#[derive(Debug, Deserialize)]
pub struct BloomMatchCase {
    pub source: String,
    pub element_hex: String,
    pub expect_match: bool,
    /// Present when the same filter then evaluates the spending transaction.
    pub then: Option<serde::de::IgnoredAny>,
}

/// One `bloom_tests/merkle_block_*` test: a block and the steps on one filter.
#[derive(Debug, Deserialize)]
pub struct MerkleCase {
    pub source: String,
    pub test_case: String,
    pub block: String,
    pub filter_params: FilterParams,
    pub steps: Vec<MerkleStep>,
    /// The outpoints Core asks the filter about after the block (P2PUBKEY_ONLY / NONE cases).
    #[serde(default, rename = "after_CMerkleBlock_filter_contains")]
    pub contains_after: Vec<ContainsCheck>,
}

#[derive(Debug, Deserialize)]
pub struct FilterParams {
    pub n_flags: u8,
}

/// One `CMerkleBlock` of a test.
#[derive(Debug, Deserialize)]
pub struct MerkleStep {
    pub insert_hex: Vec<String>,
    /// Core's `vMatchedTxn` as (index, txid in display order), where Core checks it.
    #[serde(rename = "expected_vMatchedTxn")]
    pub core_matched: Option<Vec<(u32, String)>>,
    /// The exact bytes, where Core checks them.
    pub expected_merkleblock_serialization_hex: Option<String>,
    pub derived: MerkleDerived,
}

/// What the independent model computed for a step.
#[derive(Debug, Deserialize)]
pub struct MerkleDerived {
    #[serde(rename = "vMatchedTxn")]
    pub matched: Option<Vec<(u32, String)>>,
}

/// An outpoint Core checks the filter for.
#[derive(Debug, Deserialize)]
pub struct ContainsCheck {
    pub outpoint_txid_display: String,
    pub contains: bool,
}

/// One `merkleblock_tests` txid set on a block.
#[derive(Debug, Deserialize)]
pub struct TxidSet {
    pub source: String,
    pub test_case: String,
    pub block: String,
    pub txids_display: Vec<String>,
    #[serde(rename = "expected_ExtractMatches")]
    pub extracted: ExtractMatches,
}

/// What Core's `ExtractMatches` returns: indices and txids in tree order.
#[derive(Debug, Deserialize)]
pub struct ExtractMatches {
    pub indices: Vec<u32>,
    pub matched_display_in_order: Vec<String>,
}

/// `pmt_tests/pmt_malleability`.
#[derive(Debug, Deserialize)]
pub struct Malleability {
    pub source: String,
    pub txids_internal_hex: Vec<String>,
    #[serde(rename = "vMatch")]
    pub marks: Vec<bool>,
}

/// `vectors/sources/core.json`, parsed once.
pub fn core() -> Result<&'static CoreFacts, GenError> {
    static FACTS: OnceLock<Result<CoreFacts, String>> = OnceLock::new();
    FACTS
        .get_or_init(|| {
            serde_json::from_str(include_str!("../../../vectors/sources/core.json"))
                .map_err(|e| format!("vectors/sources/core.json: {e}"))
        })
        .as_ref()
        .map_err(|e| GenError(e.clone()))
}

/// The line of a `path:line@commit` source.
pub fn line(source: &str) -> Result<u32, GenError> {
    source
        .split('@')
        .next()
        .and_then(|at| at.rsplit(':').next())
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| GenError(format!("{source} is not path:line@commit")))
}

/// A Core test case's name without its suite (`bloom_tests/merkle_block_1` → `merkle_block_1`).
pub fn short_name(test_case: &str) -> &str {
    test_case.rsplit('/').next().unwrap_or(test_case)
}

/// Bytes of hex read from the sources.
pub fn bytes(text: &str) -> Result<Vec<u8>, GenError> {
    Hex::parse(text.trim())
        .map(|h| h.0)
        .map_err(|e| GenError(format!("{text}: {e}")))
}

/// A txid written in display order, as internal bytes.
pub fn display_txid(text: &str) -> Result<[u8; 32], GenError> {
    let mut id: [u8; 32] = bytes(text)?
        .try_into()
        .map_err(|_| GenError(format!("{text} is not 32 bytes")))?;
    id.reverse();
    Ok(id)
}

/// (index, display txid) pairs as (index, internal txid).
pub fn matched(pairs: &[(u32, String)]) -> Result<Vec<(u32, [u8; 32])>, GenError> {
    pairs
        .iter()
        .map(|(index, txid)| Ok((*index, display_txid(txid)?)))
        .collect()
}

impl MerkleStep {
    /// The elements the step inserts.
    pub fn insert(&self) -> Result<Vec<Vec<u8>>, GenError> {
        self.insert_hex.iter().map(|e| bytes(e)).collect()
    }

    /// The matched list (txids in internal order): Core's where it checks one, else the
    /// independent model's.
    pub fn matched(&self) -> Result<Vec<MatchedTx>, GenError> {
        let pairs = self.core_matched.as_ref().or(self.derived.matched.as_ref());
        let pairs = pairs.ok_or_else(|| GenError("a merkle step without a matched list".into()))?;
        Ok(matched(pairs)?
            .into_iter()
            .map(|(index, txid)| MatchedTx {
                index,
                txid: Hex(txid.to_vec()),
            })
            .collect())
    }
}

/// The `merkle_block` test called `bloom_tests/<name>`.
pub fn merkle_case(name: &str) -> Result<&'static MerkleCase, GenError> {
    core()?
        .merkle_block
        .iter()
        .find(|c| short_name(&c.test_case) == name)
        .ok_or_else(|| GenError(format!("core.json has no merkle_block case {name}")))
}

/// The `filter_serialize` test called `bloom_tests/<name>`.
pub fn filter_case(name: &str) -> Result<&'static FilterSerialize, GenError> {
    core()?
        .filter_serialize
        .iter()
        .find(|c| short_name(&c.test_case) == name)
        .ok_or_else(|| GenError(format!("core.json has no filter_serialize case {name}")))
}

/// A Core block by its `vectors/sources/` name.
pub fn core_block(name: &str) -> Result<Block, GenError> {
    let text = match name {
        "block_13b8a" => include_str!("../../../vectors/sources/block_13b8a.hex"),
        "block_5a4ded" => include_str!("../../../vectors/sources/block_5a4ded.hex"),
        "block_dab013" => include_str!("../../../vectors/sources/block_dab013.hex"),
        "block_b731f2" => include_str!("../../../vectors/sources/block_b731f2.hex"),
        other => return Err(GenError(format!("no Core block {other}"))),
    };
    Block::decode(&bytes(text)?).map_err(|e| GenError(format!("{name}: {e}")))
}

/// Core's `bloom_match` transaction and its spender (bloom_tests.cpp:106 and :111).
pub fn core_transactions() -> Result<(Transaction, Transaction), GenError> {
    let decode =
        |text: &str| Transaction::decode(&bytes(text)?).map_err(|e| GenError(e.to_string()));
    Ok((
        decode(include_str!("../../../vectors/sources/bloom_match_tx.hex"))?,
        decode(include_str!(
            "../../../vectors/sources/bloom_match_spending_tx.hex"
        ))?,
    ))
}
