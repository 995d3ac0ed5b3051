//! Partial merkle trees and `merkleblock` construction of `bip37-reference` against
//! rust-bitcoin's (`bitcoin` 0.32 `merkle_tree::{PartialMerkleTree, MerkleBlock}`), in one run,
//! on the same 2,000 txids with 10 of them matched: building the tree from txids and match
//! flags, extracting the matches from it, and building the `merkleblock` of a decoded
//! 2,000-transaction block for a set of wanted txids (Core's `gettxoutproof` path); and parsing
//! and serializing the tree of the same txids with every one matched.
//! `cargo bench -p bip37-reference --bench merkle`.
//!
//! The last case includes computing the txids: the reference keeps them from decoding (as
//! Core's `CTransaction` does), rust-bitcoin computes them from its transactions.

#[path = "support/timing.rs"]
mod timing;
#[path = "support/workload.rs"]
#[allow(dead_code)] // the filter is for the matching benches
mod workload;

use bip37_reference::{MerkleBlock, PartialMerkleTree};
use bitcoin::consensus::encode;
use bitcoin::hashes::Hash;
use bitcoin::merkle_tree as theirs;
use bitcoin::Txid;
use std::hint::black_box;
use timing::measure;

const TXS: u64 = 2_000;
const MATCH_EVERY: usize = 200;

fn row(case: &str, ours: f64, theirs: f64, ratio: f64) {
    println!(
        "| {case} | {:.1} | {:.1} | {ratio:.2} |",
        ours / 1e3,
        theirs / 1e3
    );
}

fn main() {
    println!("| case (2,000 txids, 10 matched) | ours µs | rust-bitcoin µs | rust-bitcoin/ours |");
    println!("|---|---:|---:|---:|");
    let block = workload::block(TXS, |_, _, _| {});
    let txids = block.txids();
    let matches: Vec<bool> = (0..txids.len()).map(|i| i % MATCH_EVERY == 7).collect();
    let their_ids: Vec<Txid> = txids.iter().map(|id| Txid::from_byte_array(*id)).collect();

    let ours = PartialMerkleTree::build(&txids, &matches).expect("2,000 txids");
    let other = theirs::PartialMerkleTree::from_txids(&their_ids, &matches);
    assert_eq!(ours.encode(), encode::serialize(&other), "the same tree");
    let t = measure(
        || {
            black_box(PartialMerkleTree::build(black_box(&txids), &matches).ok());
        },
        || {
            black_box(theirs::PartialMerkleTree::from_txids(
                black_box(&their_ids),
                &matches,
            ));
        },
    );
    row("build the partial merkle tree", t.ours, t.theirs, t.ratio);

    let extracted = ours.extract_matches().expect("a valid tree");
    let (mut their_matches, mut their_indexes) = (Vec::new(), Vec::new());
    let their_root = other
        .extract_matches(&mut their_matches, &mut their_indexes)
        .expect("a valid tree");
    assert_eq!(extracted.root, their_root.to_byte_array(), "the same root");
    assert_eq!(
        extracted.matches.len(),
        their_matches.len(),
        "the same matches"
    );
    let t = measure(
        || {
            black_box(black_box(&ours).extract_matches().ok());
        },
        || {
            let (mut matches, mut indexes) = (Vec::new(), Vec::new());
            black_box(
                black_box(&other)
                    .extract_matches(&mut matches, &mut indexes)
                    .ok(),
            );
        },
    );
    row("extract the matches", t.ours, t.theirs, t.ratio);

    // The wire form of the largest tree of these txids: every one matched, 2,000 hashes and
    // about 4,000 flags (the size of tree a `merkleblock` decoder meets in a block full of matches).
    let everything = vec![true; txids.len()];
    let full = PartialMerkleTree::build(&txids, &everything).expect("2,000 txids");
    let wire = full.encode();
    let their_full: theirs::PartialMerkleTree = encode::deserialize(&wire).expect("decodes");
    assert_eq!(encode::serialize(&their_full), wire, "the same bytes");
    let t = measure(
        || {
            black_box(PartialMerkleTree::decode(black_box(&wire)).ok());
        },
        || {
            black_box(encode::deserialize::<theirs::PartialMerkleTree>(black_box(&wire)).ok());
        },
    );
    row(
        "parse the tree, every txid matched",
        t.ours,
        t.theirs,
        t.ratio,
    );
    let t = measure(
        || {
            black_box(black_box(&full).encode());
        },
        || {
            black_box(encode::serialize(black_box(&their_full)));
        },
    );
    row("serialize it", t.ours, t.theirs, t.ratio);

    let wanted: Vec<_> = (0..txids.len())
        .filter(|i| i % MATCH_EVERY == 7)
        .map(|i| txids[i])
        .collect();
    let their_wanted: Vec<Txid> = wanted.iter().map(|id| Txid::from_byte_array(*id)).collect();
    let their_block: bitcoin::Block = encode::deserialize(&block.encode()).expect("decodes");
    let ours = MerkleBlock::from_txids(&block, &wanted).expect("a block with transactions");
    let other = theirs::MerkleBlock::from_block_with_predicate(&their_block, |id| {
        their_wanted.contains(id)
    });
    assert_eq!(
        ours.encode(),
        encode::serialize(&other),
        "the same merkleblock"
    );
    let t = measure(
        || {
            black_box(MerkleBlock::from_txids(black_box(&block), &wanted).ok());
        },
        || {
            black_box(theirs::MerkleBlock::from_block_with_predicate(
                black_box(&their_block),
                |id| their_wanted.contains(id),
            ));
        },
    );
    row("merkleblock of a decoded block", t.ours, t.theirs, t.ratio);
    println!("\nrust-bitcoin/ours above 1.00 means bip37-reference is faster.");
}
