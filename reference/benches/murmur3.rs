//! MurmurHash3, filter insert and filter contains of `bip37-reference` against the `mur3`
//! crate's `murmurhash3_x86_32`, in one run, at every element size BIP 37 hashes: 20 B
//! (hash160), 32 B (txid), 33 and 65 B (public keys), 36 B (outpoint), 520 B (the largest
//! element), and 4 KiB for the long-input rate. `cargo bench -p bip37-reference --bench murmur3`.
//!
//! The filter operations: `support/filter_cases.rs`. Their peer is Core's `insert` /
//! `contains` (seed, murmur3 modulo the bit count, bit least significant first, `contains`
//! returns at the first clear bit) written over a copy of the same bytes with `mur3`'s hash.

#[path = "support/timing.rs"]
mod timing;
#[path = "support/workload.rs"]
#[allow(dead_code)] // the transactions are for the matching and merkle benches
mod workload;

#[path = "support/filter_cases.rs"]
mod filter_cases;

use bip37_reference::{hash_seed, murmur3};
use filter_cases::{input_bytes, PeerFilter, TWEAK};
use std::hint::black_box;
use timing::{measure, Timing};

const SIZES: [usize; 7] = [20, 32, 33, 36, 65, 520, 4096];

/// Core's filter with `mur3`'s hash: its bytes and hash function count.
struct Mur3Filter {
    data: Vec<u8>,
    hash_funcs: u32,
}

impl Mur3Filter {
    /// Core's `Hash(i, element)`: the bit index of hash function `i`.
    fn bit(&self, i: u32, element: &[u8]) -> usize {
        let bits = self.data.len() as u64 * 8;
        (u64::from(mur3::murmurhash3_x86_32(element, hash_seed(i, TWEAK))) % bits) as usize
    }
}

impl PeerFilter for Mur3Filter {
    fn insert(&mut self, element: &[u8]) {
        for i in 0..self.hash_funcs {
            let bit = self.bit(i, element);
            self.data[bit >> 3] |= 1 << (bit & 7);
        }
    }

    fn contains(&self, element: &[u8]) -> bool {
        for i in 0..self.hash_funcs {
            let bit = self.bit(i, element);
            if self.data[bit >> 3] & (1 << (bit & 7)) == 0 {
                return false;
            }
        }
        true
    }

    fn data(&self) -> Vec<u8> {
        self.data.clone()
    }
}

fn row(case: &str, len: usize, t: Timing) {
    let mib_s = |ns: f64| len as f64 / ns * 1e9 / (1024.0 * 1024.0);
    let case = format!("{case}, {len} B");
    println!(
        "| {case:<40} | {:>10.1} | {:>10.0} | {:>10.1} | {:>10.0} | {:>9.2} |",
        t.ours,
        mib_s(t.ours),
        t.theirs,
        mib_s(t.theirs),
        t.ratio
    );
}

fn main() {
    println!("| case                                     | ours ns/op | ours MiB/s | mur3 ns/op | mur3 MiB/s | mur3/ours |");
    println!("|------------------------------------------|-----------:|-----------:|-----------:|-----------:|----------:|");
    for len in SIZES {
        let data = input_bytes(len);
        assert_eq!(
            murmur3(7, &data),
            mur3::murmurhash3_x86_32(&data, 7),
            "the two hashes must agree before they are timed"
        );
        let times = measure(
            || {
                black_box(murmur3(black_box(7), black_box(&data)));
            },
            || {
                black_box(mur3::murmurhash3_x86_32(black_box(&data), black_box(7)));
            },
        );
        row("murmur3", len, times);
    }
    filter_cases::run(
        &SIZES,
        |ours| Mur3Filter {
            data: ours.data().to_vec(),
            hash_funcs: ours.hash_funcs(),
        },
        row,
    );
    println!("\nmur3/ours above 1.00 means bip37-reference is faster.");
}
