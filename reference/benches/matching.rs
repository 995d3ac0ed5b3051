//! `IsRelevantAndUpdate` of `bip37-reference` against a Core-shaped peer (`support/core_shaped.rs`:
//! Core's algorithm with its copies, `mur3`'s MurmurHash3 and rust-bitcoin's script walk), in
//! one run: one 2-in/2-out P2PKH transaction that does not match, and a 2,000-transaction
//! block in which 10 outputs match and the 10 transactions spending them match through the
//! outpoints the update inserted (plus a false positive or two: the filter is half full). `cargo bench -p bip37-reference --bench matching`.
//!
//! The filter is sized for 1000 elements at p = 0.0001 (2,396 bytes, 13 hash functions) and
//! holds 1000 random elements besides the wanted ones, so about half its bits are set; its
//! mode is UPDATE_ALL. The block case copies the filter before each pass, on both sides.

#[path = "support/core_shaped.rs"]
mod core_shaped;
#[path = "support/timing.rs"]
mod timing;
#[path = "support/workload.rs"]
mod workload;

use bip37_reference::tx::OutPoint;
use bip37_reference::Transaction;
use core_shaped::CoreShapedFilter;
use std::hint::black_box;
use timing::measure;
use workload::{block, bytes, p2pkh_tx, wallet_filter};

const BLOCK_TXS: u64 = 2_000;
/// Every this many transactions, one pays to a wanted key and the next spends it.
const WANTED_EVERY: u64 = 200;

fn row(case: &str, ours: f64, theirs: f64, ratio: f64) {
    println!("| {case} | {ours:.1} | {theirs:.1} | {ratio:.2} |");
}

fn main() {
    println!("| workload | ours ns | Core-shaped peer ns | peer/ours |");
    println!("|---|---:|---:|---:|");

    let filter = wallet_filter();
    let tx = Transaction::decode(&p2pkh_tx(1_000_001).encode()).expect("decodes");
    let (mut ours, mut peer) = (filter.clone(), CoreShapedFilter::new(&filter));
    assert!(!ours.is_relevant_and_update(&tx) && !peer.is_relevant_and_update(&tx));
    let t = measure(
        || assert!(!ours.is_relevant_and_update(black_box(&tx))),
        || assert!(!peer.is_relevant_and_update(black_box(&tx))),
    );
    row("2-in/2-out P2PKH, no match", t.ours, t.theirs, t.ratio);

    let mut filter = filter;
    let block = block(BLOCK_TXS, |index, tx, earlier| match index % WANTED_EVERY {
        0 => filter.insert(&bytes(4, index * 2, 20)),
        1 => {
            tx.inputs[0].prevout = OutPoint {
                txid: earlier[index as usize - 1].txid(),
                vout: 0,
            }
        }
        _ => {}
    });
    let peer_filter = CoreShapedFilter::new(&filter);
    let ours_pass = || {
        let mut f = filter.clone();
        let matched = block
            .transactions
            .iter()
            .filter(|tx| f.is_relevant_and_update(tx));
        (matched.count(), f)
    };
    let peer_pass = || {
        let mut f = peer_filter.clone();
        let matched = block
            .transactions
            .iter()
            .filter(|tx| f.is_relevant_and_update(tx));
        (matched.count(), f)
    };
    let ((ours_matches, ours_after), (peer_matches, peer_after)) = (ours_pass(), peer_pass());
    // The wanted outputs, their spenders, and the odd false positive of a half-full filter.
    assert!(ours_matches as u64 >= 2 * BLOCK_TXS / WANTED_EVERY);
    assert_eq!(
        (ours_matches, ours_after.data()),
        (peer_matches, peer_after.data.as_slice())
    );
    let t = measure(
        || {
            black_box(ours_pass());
        },
        || {
            black_box(peer_pass());
        },
    );
    row(
        "2,000-transaction block (per block)",
        t.ours,
        t.theirs,
        t.ratio,
    );
    row(
        "the same, per transaction",
        t.ours / BLOCK_TXS as f64,
        t.theirs / BLOCK_TXS as f64,
        t.ratio,
    );
    println!("\npeer/ours above 1.00 means bip37-reference is faster.");
}
