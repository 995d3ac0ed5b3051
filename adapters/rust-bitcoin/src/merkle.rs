//! Partial merkle trees through rust-bitcoin's `PartialMerkleTree` (`from_txids`, which its
//! `MerkleBlock::from_block_with_predicate` builds on, and `extract_matches`).

use bip37_harness::hex::Hex;
use bip37_harness::implementation::{Answer, Stage};
use bip37_harness::ops::{MatchedTx, PmtBuildInput, PmtBuildOutput, PmtExtractOutput};
use bitcoin::consensus::{deserialize, serialize};
use bitcoin::hashes::Hash;
use bitcoin::merkle_tree::PartialMerkleTree;
use bitcoin::Txid;

/// The serialized tree of `input.txids` with `input.matches`. rust-bitcoin asserts that there
/// is at least one txid and one flag per txid: other inputs panic, which the runner reports as
/// the crash it is.
pub fn build(input: &PmtBuildInput) -> Answer<PmtBuildOutput> {
    let mut txids = Vec::with_capacity(input.txids.len());
    for txid in &input.txids {
        match <[u8; 32]>::try_from(&txid[..]) {
            Ok(bytes) => txids.push(Txid::from_byte_array(bytes)),
            Err(_) => {
                return Answer::reject(
                    Stage::Parameters,
                    format!("a txid is 32 bytes, not {}", txid.len()),
                )
            }
        }
    }
    let tree = PartialMerkleTree::from_txids(&txids, &input.matches);
    Answer::Ok(PmtBuildOutput {
        pmt: serialize(&tree).into(),
    })
}

/// The root and matches of a serialized tree: a payload rust-bitcoin does not decode is
/// rejected at decode, a tree its `extract_matches` refuses at validation.
pub fn extract(pmt: &[u8]) -> Answer<PmtExtractOutput> {
    let tree = match deserialize::<PartialMerkleTree>(pmt) {
        Ok(tree) => tree,
        Err(e) => return Answer::reject(Stage::Decode, e),
    };
    let (mut matches, mut indexes) = (Vec::new(), Vec::new());
    match tree.extract_matches(&mut matches, &mut indexes) {
        Ok(root) => Answer::Ok(PmtExtractOutput {
            root: Hex(root.to_byte_array().to_vec()),
            matched: indexes
                .into_iter()
                .zip(matches)
                .map(|(index, txid)| MatchedTx {
                    index,
                    txid: Hex(txid.to_byte_array().to_vec()),
                })
                .collect(),
        }),
        Err(e) => Answer::reject(Stage::Validation, e),
    }
}
