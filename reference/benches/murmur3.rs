//! MurmurHash3, filter insert and filter contains of `bip37-reference` against the `mur3`
//! crate's `murmurhash3_x86_32`, in one run, at every element size BIP 37 hashes: 20 B
//! (hash160), 32 B (txid), 33 and 65 B (public keys), 36 B (outpoint), 520 B (the largest
//! element), and 4 KiB for the long-input rate. `cargo bench -p bip37-reference --bench murmur3`.
//!
//! The filter operations run on the two filters of the Core measurement, each loaded
//! with as many random elements as it was sized for (so about half its bits are set):
//! (1000, 0.0001) = 2,396 B and 13 hash functions, (20000, 0.0001) = 36,000 B and 9. The peer
//! is Core's `insert` / `contains` (seed, murmur3 modulo the bit count, bit least significant
//! first, `contains` returns at the first clear bit) written over a copy of the same bytes
//! with `mur3`'s hash. "Absent" cycles through 256 random elements the filter does not
//! contain: with half the bits set, `contains` stops after one hash function for half of
//! them, after two for a quarter, and so on.

#[path = "support/timing.rs"]
mod timing;
#[path = "support/workload.rs"]
#[allow(dead_code)] // the transactions are for the matching and merkle benches
mod workload;

use bip37_reference::{hash_seed, murmur3, BloomFilter};
use std::hint::black_box;
use timing::{measure, Timing};
use workload::bytes;

const SIZES: [usize; 7] = [20, 32, 33, 36, 65, 520, 4096];
const TWEAK: u32 = 0x8000_0001;
/// How many absent elements a "contains absent" case cycles through.
const ABSENT: u64 = 256;

/// Core's insert over `data` with `mur3`'s hash.
fn peer_insert(data: &mut [u8], hash_funcs: u32, element: &[u8]) {
    let bits = data.len() as u64 * 8;
    for i in 0..hash_funcs {
        let seed = hash_seed(i, TWEAK);
        let bit = (u64::from(mur3::murmurhash3_x86_32(element, seed)) % bits) as usize;
        data[bit >> 3] |= 1 << (bit & 7);
    }
}

/// Core's contains over `data` with `mur3`'s hash.
fn peer_contains(data: &[u8], hash_funcs: u32, element: &[u8]) -> bool {
    let bits = data.len() as u64 * 8;
    for i in 0..hash_funcs {
        let seed = hash_seed(i, TWEAK);
        let bit = (u64::from(mur3::murmurhash3_x86_32(element, seed)) % bits) as usize;
        if data[bit >> 3] & (1 << (bit & 7)) == 0 {
            return false;
        }
    }
    true
}

fn row(case: &str, len: usize, t: Timing) {
    let mib_s = |ns: f64| len as f64 / ns * 1e9 / (1024.0 * 1024.0);
    println!(
        "| {case:<40} | {:>10.1} | {:>10.0} | {:>10.1} | {:>10.0} | {:>9.2} |",
        t.ours,
        mib_s(t.ours),
        t.theirs,
        mib_s(t.theirs),
        t.ratio
    );
}

/// A filter sized for `n` at p = 0.0001, holding `n` random elements.
fn loaded_filter(n: u32) -> BloomFilter {
    let mut filter = BloomFilter::new(n, 0.0001, TWEAK, 0).expect("a legal (n, p)");
    for i in 0..n {
        filter.insert(&bytes(5, u64::from(i), 32));
    }
    filter
}

/// The bytes every run hashes, `len` of them.
fn input_bytes(len: usize) -> Vec<u8> {
    bytes(0, len as u64, len)
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
        row(&format!("murmur3 {len} B"), len, times);
    }
    for n in [1000, 20000] {
        let mut ours = loaded_filter(n);
        let k = ours.hash_funcs();
        let label = format!("{} B, k = {k}", ours.data().len());
        let mut peer = ours.data().to_vec();
        for len in SIZES {
            let present = input_bytes(len);
            // Absent elements take one hash function or several before a clear bit: the
            // case cycles through many, so it times the average.
            let absent: Vec<Vec<u8>> = (0..ABSENT)
                .map(|j| bytes(6, j, len))
                .filter(|e| !peer_contains(&peer, k, e))
                .collect();
            ours.insert(&present);
            peer_insert(&mut peer, k, &present);
            assert_eq!(
                ours.data(),
                peer.as_slice(),
                "both inserts set the same bits"
            );
            assert!(absent.iter().all(|e| !ours.contains(e)));
            let insert = measure(
                || ours.insert(black_box(&present)),
                || peer_insert(&mut peer, k, black_box(&present)),
            );
            row(&format!("insert {len} B ({label})"), len, insert);
            let found = measure(
                || assert!(ours.contains(black_box(&present))),
                || assert!(peer_contains(&peer, k, black_box(&present))),
            );
            row(&format!("contains present {len} B ({label})"), len, found);
            let (mut i, mut j) = (0, 0);
            let missing = measure(
                || {
                    i = (i + 1) % absent.len();
                    assert!(!ours.contains(black_box(&absent[i])));
                },
                || {
                    j = (j + 1) % absent.len();
                    assert!(!peer_contains(&peer, k, black_box(&absent[j])));
                },
            );
            row(&format!("contains absent {len} B ({label})"), len, missing);
        }
    }
    println!("\nmur3/ours above 1.00 means bip37-reference is faster.");
}
