//! Why the reference hashes with the `sha2` crate: `sha256d` (Bitcoin's `Hash`) from `sha2`,
//! from `bitcoin_hashes` 0.14 (rust-bitcoin's) and from the hand-written implementation the
//! reference used before, in one run, on the inputs BIP 37 hashes: a merkle node (64 bytes),
//! the 2-in/2-out P2PKH transaction of the matching bench (374 bytes) and a 4 KiB one.
//! `cargo bench -p bip37-reference --bench sha256`.
//!
//! Both crates choose the CPU's SHA extensions at run time; the hand-written one is portable
//! code. The ratio columns are the medians of adjacent batches (see `support/timing.rs`).

#[path = "support/handwritten_sha256.rs"]
mod handwritten;
#[path = "support/timing.rs"]
mod timing;
#[path = "support/workload.rs"]
#[allow(dead_code)] // the transactions are for the matching and merkle benches
mod workload;

use bip37_reference::sha256::sha256d;
use bitcoin::hashes::{sha256d as theirs, Hash};
use std::hint::black_box;
use timing::measure;
use workload::bytes;

/// The bytes every run hashes, `len` of them.
fn input_bytes(len: usize) -> Vec<u8> {
    bytes(0, len as u64, len)
}

fn main() {
    println!("| input | sha2 ns | bitcoin_hashes ns | hand-written ns | bitcoin_hashes/sha2 | hand-written/sha2 |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (case, len) in [("merkle node", 64), ("2-in/2-out tx", 374), ("4 KiB", 4096)] {
        let data = input_bytes(len);
        let expected = sha256d(&data);
        assert_eq!(theirs::Hash::hash(&data).to_byte_array(), expected);
        assert_eq!(handwritten::sha256d(&data), expected);
        let ours = || {
            black_box(sha256d(black_box(&data)));
        };
        let vs_crate = measure(ours, || {
            black_box(theirs::Hash::hash(black_box(&data)));
        });
        let vs_handwritten = measure(ours, || {
            black_box(handwritten::sha256d(black_box(&data)));
        });
        println!(
            "| {case} ({len} B) | {:.1} | {:.1} | {:.1} | {:.2} | {:.2} |",
            vs_crate.ours,
            vs_crate.theirs,
            vs_handwritten.theirs,
            vs_crate.ratio,
            vs_handwritten.ratio
        );
    }
    println!("\nA ratio above 1.00 means sha2 is faster.");
}
