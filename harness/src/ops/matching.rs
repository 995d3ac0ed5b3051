//! Inputs and outputs of the transaction matching and merkle block operations.
//! Transaction ids are 32 bytes in INTERNAL byte order (the reverse of RPC / explorer hex).

use super::filter::FilterInit;
use crate::hex::Hex;
use serde::{Deserialize, Serialize};

/// `matchTx`: set up a filter, insert `insert`, then evaluate each transaction of `txs` in
/// order with Core's `IsRelevantAndUpdate` (the filter updates carry over from one to the next).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MatchTxInput {
    pub filter: FilterInit,
    #[serde(default)]
    pub insert: Vec<Hex>,
    pub txs: Vec<Hex>,
}

/// The answer to `matchTx`: one verdict per transaction and the filter bytes afterwards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MatchTxOutput {
    pub matched: Vec<bool>,
    pub filter_data: Hex,
}

/// `merkleBlock`: set up a filter, insert `insert`, then build Core's `CMerkleBlock` of `block`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MerkleBlockInput {
    pub filter: FilterInit,
    #[serde(default)]
    pub insert: Vec<Hex>,
    pub block: Hex,
}

/// A matched transaction: its position in the block and its txid (internal byte order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MatchedTx {
    pub index: u32,
    pub txid: Hex,
}

/// The answer to `merkleBlock`: the `merkleblock` payload, the matches in block order and the
/// filter bytes after the updates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MerkleBlockOutput {
    pub merkleblock: Hex,
    pub matched: Vec<MatchedTx>,
    pub filter_data: Hex,
}

/// `pmtBuild`: the partial merkle tree of `txids` with match flags `matches`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PmtBuildInput {
    pub txids: Vec<Hex>,
    pub matches: Vec<bool>,
}

/// The answer to `pmtBuild`: the serialized `CPartialMerkleTree`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PmtBuildOutput {
    pub pmt: Hex,
}

/// `pmtExtract`: parse a serialized partial merkle tree and extract its matches; an invalid
/// tree (where Core's `ExtractMatches` returns the null root) is a rejection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PmtExtractInput {
    pub pmt: Hex,
}

/// The answer to `pmtExtract`: the computed root (internal byte order) and the matches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PmtExtractOutput {
    pub root: Hex,
    pub matched: Vec<MatchedTx>,
}
