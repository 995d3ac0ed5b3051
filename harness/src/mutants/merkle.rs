//! The merkle switch points: the partial merkle tree's flag bits packed most-significant
//! first, and the `merkleblock` built over the mutant's matching. Trees are built, encoded,
//! decoded and checked by `bip37-reference`; the bit-order mutant only re-orders the bits
//! within each byte on the way in and out.

use super::bug::Bug;
use super::filter::{DivisionByZero, MutantFilter};
use super::matching::is_relevant_and_update;
use bip37_reference::block::Block;
use bip37_reference::pmt::{BuildError, Match, PartialMerkleTree};

/// Why the mutant could not build a `merkleblock`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MerkleFailure {
    Hashing(DivisionByZero),
    Build(BuildError),
}

impl std::fmt::Display for MerkleFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MerkleFailure::Hashing(e) => e.fmt(f),
            MerkleFailure::Build(e) => e.fmt(f),
        }
    }
}

/// The tree as the mutant's flag bytes hold it: for the bit-order mutant, every group of 8
/// bits reversed (the padding of the last byte included), which turns Core's
/// least-significant-first packing into most-significant-first and back.
pub fn as_packed(bug: Bug, mut tree: PartialMerkleTree) -> PartialMerkleTree {
    if bug == Bug::PmtBitOrder {
        tree.bits.resize(tree.bits.len().div_ceil(8) * 8, false);
        tree.bits.chunks_mut(8).for_each(<[bool]>::reverse);
    }
    tree
}

/// A serialized tree with its flag bytes re-ordered as [`as_packed`] does: what the mutant
/// writes for Core's bytes, and what Core reads for the mutant's. Bytes that do not decode as
/// a tree are left as they are (they are refused either way).
pub fn repacked(bug: Bug, serialized: &[u8]) -> Vec<u8> {
    match PartialMerkleTree::decode(serialized) {
        Ok(tree) if bug == Bug::PmtBitOrder => as_packed(bug, tree).encode(),
        _ => serialized.to_vec(),
    }
}

/// Core's `CMerkleBlock(block, filter)` over the mutant's filter and matching: the tree as the
/// mutant packs it and the matches in block order.
pub fn filtered_tree(
    bug: Bug,
    block: &Block,
    filter: &mut MutantFilter,
) -> Result<(PartialMerkleTree, Vec<Match>), MerkleFailure> {
    let mut txids = Vec::with_capacity(block.transactions.len());
    let mut flags = Vec::with_capacity(block.transactions.len());
    let mut matched = Vec::new();
    for (index, tx) in (0u32..).zip(&block.transactions) {
        let txid = tx.txid();
        let relevant = is_relevant_and_update(bug, filter, tx).map_err(MerkleFailure::Hashing)?;
        if relevant {
            matched.push(Match { index, txid });
        }
        txids.push(txid);
        flags.push(relevant);
    }
    let tree = PartialMerkleTree::build(&txids, &flags).map_err(MerkleFailure::Build)?;
    Ok((as_packed(bug, tree), matched))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_order_mirrors_each_flag_byte() {
        let txids: Vec<[u8; 32]> = (1..=5u8).map(|i| [i; 32]).collect();
        let flags = [false, true, false, false, true];
        let core = PartialMerkleTree::build(&txids, &flags).unwrap();
        let mutant = as_packed(Bug::PmtBitOrder, core.clone());
        let (c, m) = (core.encode(), mutant.encode());
        assert_eq!(c.len(), m.len());
        assert_eq!(c.last().unwrap().reverse_bits(), *m.last().unwrap());
        assert_eq!(as_packed(Bug::MsbFirstBits, core.clone()), core);
        assert_eq!(repacked(Bug::PmtBitOrder, &c), m);
        assert_eq!(repacked(Bug::PmtBitOrder, &m), c);
        // Reading the mutant's bytes back the mutant's way gives the tree again.
        let read_back = as_packed(Bug::PmtBitOrder, PartialMerkleTree::decode(&m).unwrap());
        assert_eq!(
            read_back.extract_matches().unwrap(),
            core.extract_matches().unwrap()
        );
    }
}
