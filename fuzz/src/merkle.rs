//! Partial merkle trees and `merkleblock` payloads against the `bitcoin` crate 0.32
//! (`merkle_tree::{PartialMerkleTree, MerkleBlock}`): build, serialize, parse and extract.
//!
//! Both implement Core's `CPartialMerkleTree`, so they must agree exactly: the same bytes from
//! the same txids and flags, the same decode verdict, the same root and matches, and the same
//! reason for refusing a tree. The `bitcoin` crate asserts on an empty txid list, so that case is
//! checked on the reference alone (it must refuse it) and never handed to the crate.

use bip37_reference::block::merkle_root;
use bip37_reference::pmt::{ExtractError, Extracted};
use bip37_reference::sha256::Hash256;
use bip37_reference::{MerkleBlock, PartialMerkleTree};
use bitcoin::consensus::encode;
use bitcoin::hashes::Hash;
use bitcoin::merkle_tree::{self as theirs, MerkleBlockError};
use bitcoin::Txid;

/// The input of `differential_pmt_build`:
/// `n u16 LE || ceil(n/8) match-flag bytes (LSB first) || txid material`.
/// Txid `i` is the `i mod k`-th 32-byte chunk of the material (so short material repeats
/// txids, the CVE-2012-2459 shape), or `i` as 32 little-endian bytes when there is no chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildInput {
    pub txids: Vec<Hash256>,
    pub matches: Vec<bool>,
}

impl BuildInput {
    /// Most transactions per input, to keep one run fast.
    pub const MAX_TRANSACTIONS: usize = 4096;

    /// Reads the layout; `None` when it is incomplete.
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        let (count, rest) = bytes.split_first_chunk::<2>()?;
        let n = usize::from(u16::from_le_bytes(*count)) % (Self::MAX_TRANSACTIONS + 1);
        let flag_bytes = n.div_ceil(8);
        if rest.len() < flag_bytes {
            return None;
        }
        let (flags, material) = rest.split_at(flag_bytes);
        let matches = (0..n).map(|i| flags[i / 8] >> (i % 8) & 1 == 1).collect();
        let chunks: Vec<Hash256> = (material.chunks_exact(32))
            .map(|chunk| {
                let mut id = [0; 32];
                id.copy_from_slice(chunk);
                id
            })
            .collect();
        let txids = (0..n)
            .map(|i| match chunks.get(i % chunks.len().max(1)) {
                Some(chunk) => *chunk,
                None => {
                    let mut id = [0; 32];
                    id[..8].copy_from_slice(&(i as u64).to_le_bytes());
                    id
                }
            })
            .collect();
        Some(Self { txids, matches })
    }

    /// Writes the layout, txids as given.
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.txids.len() as u16;
        let mut out = n.to_le_bytes().to_vec();
        let mut flags = vec![0u8; self.matches.len().div_ceil(8)];
        for (i, _) in self.matches.iter().enumerate().filter(|(_, m)| **m) {
            flags[i / 8] |= 1 << (i % 8);
        }
        out.extend_from_slice(&flags);
        self.txids.iter().for_each(|id| out.extend_from_slice(id));
        out
    }
}

/// The reference's refusal as the `bitcoin` crate names it.
fn their_name(error: &ExtractError) -> MerkleBlockError {
    match error {
        ExtractError::NoTransactions => MerkleBlockError::NoTransactions,
        ExtractError::TooManyTransactions(_) => MerkleBlockError::TooManyTransactions,
        ExtractError::MoreHashesThanTransactions { .. } => MerkleBlockError::TooManyHashes,
        ExtractError::FewerBitsThanHashes { .. } => MerkleBlockError::NotEnoughBits,
        ExtractError::BitsExhausted => MerkleBlockError::BitsArrayOverflow,
        ExtractError::HashesExhausted => MerkleBlockError::HashesArrayOverflow,
        ExtractError::IdenticalSiblings { .. } => MerkleBlockError::IdenticalHashesFound,
        ExtractError::UnusedBits { .. } => MerkleBlockError::NotAllBitsConsumed,
        ExtractError::UnusedHashes { .. } => MerkleBlockError::NotAllHashesConsumed,
    }
}

/// Extracts with both and checks that they agree: the same root and matches, or the same error.
fn check_extract(ours: &PartialMerkleTree, other: &theirs::PartialMerkleTree) -> Option<Extracted> {
    let (mut txids, mut indexes) = (Vec::new(), Vec::new());
    let their_root = other.extract_matches(&mut txids, &mut indexes);
    match (ours.extract_matches(), their_root) {
        (Ok(extracted), Ok(root)) => {
            assert_eq!(extracted.root, root.to_byte_array(), "roots differ");
            let mine: Vec<(u32, Hash256)> = extracted
                .matches
                .iter()
                .map(|m| (m.index, m.txid))
                .collect();
            let other: Vec<(u32, Hash256)> = indexes
                .into_iter()
                .zip(txids.iter().map(|t| t.to_byte_array()))
                .collect();
            assert_eq!(mine, other, "matches differ");
            Some(extracted)
        }
        (Err(mine), Err(other)) => {
            assert_eq!(
                their_name(&mine),
                other,
                "refused for different reasons: {mine:?}"
            );
            None
        }
        (mine, other) => panic!("extract differs: reference {mine:?}, bitcoin {other:?}"),
    }
}

/// Builds the tree of arbitrary txids and flags with both, then serializes and extracts.
pub fn pmt_build(bytes: &[u8]) {
    let Some(input) = BuildInput::parse(bytes) else {
        return;
    };
    let built = PartialMerkleTree::build(&input.txids, &input.matches);
    if input.txids.is_empty() {
        // The bitcoin crate asserts here; Core reads out of bounds. The reference must refuse.
        assert!(built.is_err(), "a tree of no transactions was built");
        return;
    }
    let Ok(ours) = built else {
        panic!(
            "the reference refused {} txids: {built:?}",
            input.txids.len()
        );
    };
    let ids: Vec<Txid> = input
        .txids
        .iter()
        .map(|id| Txid::from_byte_array(*id))
        .collect();
    let other = theirs::PartialMerkleTree::from_txids(&ids, &input.matches);
    // Encoded once: the bytes compared with the crate's are the bytes decoded and re-encoded.
    let encoded = ours.encode();
    assert_eq!(encoded, encode::serialize(&other), "serializations differ");
    let decoded = PartialMerkleTree::decode(&encoded).map(|t| t.encode());
    assert_eq!(decoded, Ok(encoded), "roundtrip");
    if let Some(extracted) = check_extract(&ours, &other) {
        assert_eq!(
            Some(extracted.root),
            merkle_root(&input.txids),
            "root is not the merkle root"
        );
        let wanted: Vec<u32> = (0..)
            .zip(&input.matches)
            .filter(|(_, m)| **m)
            .map(|(i, _)| i)
            .collect();
        let got: Vec<u32> = extracted.matches.iter().map(|m| m.index).collect();
        assert_eq!(
            got, wanted,
            "extracted matches are not the flagged transactions"
        );
    }
}

/// Parses arbitrary bytes as a serialized tree with both, then extracts.
pub fn pmt_extract(bytes: &[u8]) {
    let ours = PartialMerkleTree::decode(bytes);
    let other = encode::deserialize::<theirs::PartialMerkleTree>(bytes);
    match (&ours, &other) {
        (Ok(tree), Ok(other)) => {
            assert_eq!(
                encode::serialize(other),
                tree.encode(),
                "re-encodings differ"
            );
            check_extract(tree, other);
        }
        (Err(_), Err(_)) => {}
        _ => panic!("decode differs: reference {ours:?}, bitcoin {other:?}"),
    }
}

/// Parses arbitrary bytes as a `merkleblock` payload with both, then extracts and checks the
/// root against the header as the `bitcoin` crate's `MerkleBlock::extract_matches` does.
pub fn merkle_block(bytes: &[u8]) {
    let ours = MerkleBlock::decode(bytes);
    let other = encode::deserialize::<theirs::MerkleBlock>(bytes);
    match (&ours, &other) {
        (Ok((header, tree)), Ok(other)) => {
            assert_eq!(
                encode::serialize(other),
                bytes,
                "bitcoin re-encodes differently"
            );
            assert_eq!(
                header.encode(),
                encode::serialize(&other.header)[..],
                "headers differ"
            );
            let extracted = check_extract(tree, &other.txn);
            let (mut txids, mut indexes) = (Vec::new(), Vec::new());
            let verified = other.extract_matches(&mut txids, &mut indexes).is_ok();
            let root_matches = extracted.is_some_and(|e| e.root == header.merkle_root);
            assert_eq!(root_matches, verified, "header root check differs");
        }
        (Err(_), Err(_)) => {}
        _ => panic!("decode differs: reference {ours:?}, bitcoin {other:?}"),
    }
}
