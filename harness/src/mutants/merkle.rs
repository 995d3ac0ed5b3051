//! The merkle switch points: the `merkleblock` built over the mutant's matching (or over a
//! snapshot of the filter), the partial merkle tree's flag bits packed most-significant
//! first, its hashes or transaction count byte-swapped, and an `ExtractMatches` that skips
//! one of Core's checks or passes an odd node up unhashed. Trees are built, encoded
//! and decoded by `bip37-reference`, and checked by it unless skipping a check is the mistake.

use super::bug::Bug;
use super::filter::{DivisionByZero, MutantFilter};
use super::matching::is_relevant_and_update;
use crate::ops::MerkleBlockOutput;
use crate::reference_impl::matched_txs;
use bip37_reference::block::Block;
use bip37_reference::merkle_block::MerkleBlock;
use bip37_reference::pmt::{
    BuildError, ExtractError, Extracted, Match, PartialMerkleTree, MAX_TRANSACTIONS,
};
use bip37_reference::sha256::{hash_pair, Hash256};

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

/// The tree as the mutant serializes it: for the bit-order mutant, every group of 8 bits
/// reversed (the padding of the last byte included), which turns Core's
/// least-significant-first packing into most-significant-first and back; for the byte-order
/// mutants, every hash or the transaction count byte-swapped. Each is its own inverse, so the
/// same change turns Core's bytes into what the mutant reads.
pub fn as_packed(bug: Bug, mut tree: PartialMerkleTree) -> PartialMerkleTree {
    match bug {
        Bug::PmtBitOrder => {
            tree.bits.resize(tree.bits.len().div_ceil(8) * 8, false);
            tree.bits.chunks_mut(8).for_each(<[bool]>::reverse);
        }
        Bug::PmtHashesDisplayOrder => tree.hashes.iter_mut().for_each(|h| h.reverse()),
        Bug::PmtTransactionCountBigEndian => tree.transactions = tree.transactions.swap_bytes(),
        _ => {}
    }
    tree
}

/// The mistakes in how a tree is serialized, which [`as_packed`] makes.
fn is_packing_bug(bug: Bug) -> bool {
    matches!(
        bug,
        Bug::PmtBitOrder | Bug::PmtHashesDisplayOrder | Bug::PmtTransactionCountBigEndian
    )
}

/// A serialized tree with its flag bytes re-ordered as [`as_packed`] does: what the mutant
/// writes for Core's bytes, and what Core reads for the mutant's. Bytes that do not decode as
/// a tree are left as they are (they are refused either way).
pub fn repacked(bug: Bug, serialized: &[u8]) -> Vec<u8> {
    match PartialMerkleTree::decode(serialized) {
        Ok(tree) if is_packing_bug(bug) => as_packed(bug, tree).encode(),
        _ => serialized.to_vec(),
    }
}

/// Core's `CMerkleBlock(block, filter)` over the mutant's filter and matching, as the
/// operations report it: the payload (with the tree packed the mutant's way), the matches in
/// block order and the filter bytes after the updates.
pub fn merkle_block(
    bug: Bug,
    block: &Block,
    filter: &mut MutantFilter,
) -> Result<MerkleBlockOutput, MerkleFailure> {
    let mut txids = Vec::with_capacity(block.transactions.len());
    let mut flags = Vec::with_capacity(block.transactions.len());
    let mut matched = Vec::new();
    // What the snapshot mutant evaluates against: the filter before the block.
    let snapshot = filter.clone();
    for (index, tx) in (0u32..).zip(&block.transactions) {
        let txid = tx.txid();
        let updated = is_relevant_and_update(bug, filter, tx);
        let relevant = match bug {
            Bug::BlockUsesFilterSnapshot => is_relevant_and_update(bug, &mut snapshot.clone(), tx),
            _ => updated,
        }
        .map_err(MerkleFailure::Hashing)?;
        if relevant {
            matched.push(Match { index, txid });
        }
        txids.push(txid);
        flags.push(relevant);
    }
    let tree = PartialMerkleTree::build(&txids, &flags).map_err(MerkleFailure::Build)?;
    let message = MerkleBlock {
        header: block.header,
        tree: as_packed(bug, tree),
        matched,
    };
    Ok(MerkleBlockOutput {
        merkleblock: message.encode().into(),
        matched: matched_txs(&message.matched),
        filter_data: filter.data().to_vec().into(),
    })
}

/// The mistakes of `ExtractMatches`: a check Core makes that the mutant skips.
pub fn is_extraction_bug(bug: Bug) -> bool {
    matches!(
        bug,
        Bug::PmtPaddingNotChecked
            | Bug::PmtUnusedHashesAccepted
            | Bug::PmtTransactionCountUnbounded
            | Bug::PmtIdenticalSiblingsAccepted
            | Bug::PmtOddNodePromoted
    )
}

/// `ExtractMatches` as the mutant runs it: Core's traversal and checks, less the one its
/// mistake skips.
pub fn extract_matches(bug: Bug, tree: &PartialMerkleTree) -> Result<Extracted, ExtractError> {
    let n = tree.transactions;
    if n == 0 {
        return Err(ExtractError::NoTransactions);
    }
    if n > MAX_TRANSACTIONS && bug != Bug::PmtTransactionCountUnbounded {
        return Err(ExtractError::TooManyTransactions(n));
    }
    if tree.hashes.len() > n as usize {
        return Err(ExtractError::MoreHashesThanTransactions {
            hashes: tree.hashes.len(),
            transactions: n,
        });
    }
    if tree.bits.len() < tree.hashes.len() {
        return Err(ExtractError::FewerBitsThanHashes {
            bits: tree.bits.len(),
            hashes: tree.hashes.len(),
        });
    }
    let mut walk = Walk {
        bug,
        tree,
        bits: 0,
        hashes: 0,
        matches: Vec::new(),
    };
    let height = (0..).find(|&h| walk.width(h) <= 1).unwrap_or(0);
    let root = walk.node(height, 0)?;
    let (bits, hashes) = (walk.bits, walk.hashes);
    if bits.div_ceil(8) != tree.bits.len().div_ceil(8) && bug != Bug::PmtPaddingNotChecked {
        return Err(ExtractError::UnusedBits {
            used: bits,
            available: tree.bits.len(),
        });
    }
    if hashes != tree.hashes.len() && bug != Bug::PmtUnusedHashesAccepted {
        return Err(ExtractError::UnusedHashes {
            used: hashes,
            available: tree.hashes.len(),
        });
    }
    Ok(Extracted {
        root,
        matches: walk.matches,
    })
}

/// The next unused item of `items`, counting it as used; `exhausted` when none is left.
fn next<T: Copy>(
    items: &[T],
    used: &mut usize,
    exhausted: ExtractError,
) -> Result<T, ExtractError> {
    let item = *items.get(*used).ok_or(exhausted)?;
    *used += 1;
    Ok(item)
}

/// The depth-first walk of `TraverseAndExtract`: how many bits and hashes it has used.
struct Walk<'a> {
    bug: Bug,
    tree: &'a PartialMerkleTree,
    bits: usize,
    hashes: usize,
    matches: Vec<Match>,
}

impl Walk<'_> {
    /// The number of nodes `height` levels above the leaves.
    fn width(&self, height: u32) -> u64 {
        (u64::from(self.tree.transactions) + (1u64 << height) - 1) >> height
    }

    /// The hash of node `pos` at `height`, consuming bits and hashes as it goes.
    fn node(&mut self, height: u32, pos: u32) -> Result<Hash256, ExtractError> {
        let flag = next(&self.tree.bits, &mut self.bits, ExtractError::BitsExhausted)?;
        if height > 0 && flag {
            let left = self.node(height - 1, pos * 2)?;
            if u64::from(pos * 2 + 1) >= self.width(height - 1) {
                return Ok(match self.bug {
                    Bug::PmtOddNodePromoted => left,
                    _ => hash_pair(&left, &left),
                });
            }
            let right = self.node(height - 1, pos * 2 + 1)?;
            if right == left && self.bug != Bug::PmtIdenticalSiblingsAccepted {
                return Err(ExtractError::IdenticalSiblings { height, pos });
            }
            return Ok(hash_pair(&left, &right));
        }
        let hash = next(
            &self.tree.hashes,
            &mut self.hashes,
            ExtractError::HashesExhausted,
        )?;
        if flag {
            self.matches.push(Match {
                index: pos,
                txid: hash,
            });
        }
        Ok(hash)
    }
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

    #[test]
    fn extraction_skips_only_its_own_check() {
        let txids: Vec<[u8; 32]> = (1..=5u8).map(|i| [i; 32]).collect();
        let mut tree =
            PartialMerkleTree::build(&txids, &[false, true, false, false, true]).unwrap();
        let core = tree.extract_matches();
        // Five leaves leave nodes without a right child: only the odd-node mutant differs.
        for &bug in Bug::ALL.iter().filter(|&&b| b != Bug::PmtOddNodePromoted) {
            assert_eq!(extract_matches(bug, &tree), core, "{bug:?}");
        }
        assert_ne!(extract_matches(Bug::PmtOddNodePromoted, &tree), core);
        tree.hashes.push([0xee; 32]);
        assert_eq!(
            extract_matches(Bug::MsbFirstBits, &tree),
            tree.extract_matches()
        );
        assert_eq!(extract_matches(Bug::PmtUnusedHashesAccepted, &tree), core);
        tree.hashes.pop();
        tree.bits.extend([false; 8]);
        assert!(extract_matches(Bug::PmtUnusedHashesAccepted, &tree).is_err());
        assert_eq!(extract_matches(Bug::PmtPaddingNotChecked, &tree), core);
        let twins: Vec<[u8; 32]> = [1u8, 2, 3, 3].iter().map(|&i| [i; 32]).collect();
        let tree = PartialMerkleTree::build(&twins, &[false, false, true, true]).unwrap();
        assert!(tree.extract_matches().is_err());
        assert!(extract_matches(Bug::PmtIdenticalSiblingsAccepted, &tree).is_ok());
    }
}
