//! The filter cases two benches share: the reference's `insert` and `contains` against a peer
//! filter over a copy of the same bytes (Core's algorithm with `mur3`'s hash in the `murmur3`
//! bench, Core's own compiled `CBloomFilter` in adapters/bitcoin-core's `vs_core`).
//!
//! The two filters of the Core measurement, each loaded with as many random elements
//! as it was sized for (so about half its bits are set): (1000, 0.0001) = 2,396 B and 13 hash
//! functions, (20000, 0.0001) = 36,000 B and 9. "Absent" cycles through 256 random elements
//! the filter does not contain: with half the bits set, `contains` stops after one hash
//! function for half of them, after two for a quarter, and so on.

use crate::timing::{measure, Timing};
use crate::workload::bytes;
use bip37_reference::BloomFilter;
use std::hint::black_box;

/// The tweak of both filters.
pub const TWEAK: u32 = 0x8000_0001;
/// How many absent elements a "contains absent" case cycles through.
const ABSENT: u64 = 256;

/// A filter with Core's `insert` and `contains`.
pub trait PeerFilter {
    fn insert(&mut self, element: &[u8]);
    fn contains(&self, element: &[u8]) -> bool;
    /// The bit array (a copy: Core's filter keeps its bytes private).
    fn data(&self) -> Vec<u8>;
}

/// The bytes every case hashes, `len` of them.
pub fn input_bytes(len: usize) -> Vec<u8> {
    bytes(0, len as u64, len)
}

/// A filter sized for `n` at p = 0.0001, holding `n` random elements.
fn loaded_filter(n: u32) -> BloomFilter {
    let mut filter = BloomFilter::new(n, 0.0001, TWEAK, 0).expect("a legal (n, p)");
    for i in 0..n {
        filter.insert(&bytes(5, u64::from(i), 32));
    }
    filter
}

/// Times insert, contains of a present element and contains of absent ones at each size on
/// both filters, checking first that both sides set the same bits and give the same verdicts;
/// `row` gets each case's operation and filter, its element size and its timing.
pub fn run<P: PeerFilter>(
    sizes: &[usize],
    peer_of: impl Fn(&BloomFilter) -> P,
    mut row: impl FnMut(&str, usize, Timing),
) {
    for n in [1000, 20000] {
        let mut ours = loaded_filter(n);
        let label = format!("{} B, k = {}", ours.data().len(), ours.hash_funcs());
        let mut peer = peer_of(&ours);
        for &len in sizes {
            let present = input_bytes(len);
            let absent: Vec<Vec<u8>> = (0..ABSENT)
                .map(|j| bytes(6, j, len))
                .filter(|e| !peer.contains(e))
                .collect();
            ours.insert(&present);
            peer.insert(&present);
            assert_eq!(ours.data(), peer.data(), "both inserts set the same bits");
            assert!(absent.iter().all(|e| !ours.contains(e)));
            let insert = measure(
                || ours.insert(black_box(&present)),
                || peer.insert(black_box(&present)),
            );
            row(&format!("insert ({label})"), len, insert);
            let found = measure(
                || assert!(ours.contains(black_box(&present))),
                || assert!(peer.contains(black_box(&present))),
            );
            row(&format!("contains present ({label})"), len, found);
            let (mut i, mut j) = (0, 0);
            let missing = measure(
                || {
                    i = (i + 1) % absent.len();
                    assert!(!ours.contains(black_box(&absent[i])));
                },
                || {
                    j = (j + 1) % absent.len();
                    assert!(!peer.contains(black_box(&absent[j])));
                },
            );
            row(&format!("contains absent ({label})"), len, missing);
        }
    }
}
