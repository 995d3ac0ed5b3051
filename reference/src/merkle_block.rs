//! The `merkleblock` message: a block header and the partial merkle tree proving which of the
//! block's transactions matched (Core's `CMerkleBlock`, src/merkleblock.cpp).
//!
//! From a filter, the transactions are evaluated in block order with
//! [`BloomFilter::is_relevant_and_update`], so an outpoint a transaction inserts can make a
//! later transaction of the same block match, and the filter keeps those updates afterwards.
//! From a txid set (Core's `gettxoutproof` path) the filter is not involved and no matched
//! list is kept; the tree still marks the transactions.
//!
//! Tested against every Core case in `reference/tests/merkle_core.rs` and by the properties in
//! `reference/tests/merkle_properties.rs`.

use crate::block::{Block, BlockHeader};
use crate::filter::BloomFilter;
use crate::pmt::{BuildError, Match, PartialMerkleTree};
use crate::sha256::Hash256;
use crate::wire::DecodeError;

/// A `merkleblock` and, when built from a filter, the matches in block order (Core's
/// `vMatchedTxn`: the transactions a node sends after the `merkleblock`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MerkleBlock {
    pub header: BlockHeader,
    pub tree: PartialMerkleTree,
    pub matched: Vec<Match>,
}

impl MerkleBlock {
    /// Core's `CMerkleBlock(block, filter)`; updates `filter` as the matches dictate. A block
    /// without transactions has no tree (Core would read out of bounds).
    pub fn from_filter(block: &Block, filter: &mut BloomFilter) -> Result<Self, BuildError> {
        let mut matches = Vec::with_capacity(block.transactions.len());
        let mut txids = Vec::with_capacity(block.transactions.len());
        let mut matched = Vec::new();
        for (index, tx) in block.transactions.iter().enumerate() {
            let txid = tx.txid();
            let relevant = filter.is_relevant_and_update(tx);
            if relevant {
                let index = u32::try_from(index)
                    .map_err(|_| BuildError::TooManyTransactions(block.transactions.len()))?;
                matched.push(Match { index, txid });
            }
            matches.push(relevant);
            txids.push(txid);
        }
        Ok(Self {
            header: block.header,
            tree: PartialMerkleTree::build(&txids, &matches)?,
            matched,
        })
    }

    /// Core's `CMerkleBlock(block, txids)`: marks the block's transactions whose txid is in
    /// `wanted`; `matched` stays empty as in Core.
    pub fn from_txids(block: &Block, wanted: &[Hash256]) -> Result<Self, BuildError> {
        let txids = block.txids();
        let matches: Vec<bool> = txids.iter().map(|id| wanted.contains(id)).collect();
        Ok(Self {
            header: block.header,
            tree: PartialMerkleTree::build(&txids, &matches)?,
            matched: Vec::new(),
        })
    }

    /// The `merkleblock` payload: the header, then the tree.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = self.header.encode().to_vec();
        out.extend_from_slice(&self.tree.encode());
        out
    }

    /// Decodes a `merkleblock` payload into its header and tree (the matched list is not on
    /// the wire); trailing bytes are an error.
    pub fn decode(payload: &[u8]) -> Result<(BlockHeader, PartialMerkleTree), DecodeError> {
        let mut input = payload;
        let header = BlockHeader::decode_from(&mut input)?;
        let tree = PartialMerkleTree::decode(input)?;
        Ok((header, tree))
    }
}
