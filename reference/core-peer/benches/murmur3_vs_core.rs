//! The reference's MurmurHash3 against Bitcoin Core's compiled as C at -O2 (this crate), and
//! `mur3` against the same, at every element size BIP 37 hashes (20 B hash160, 32 B txid,
//! 33 and 65 B public keys, 36 B outpoint, 520 B the largest element) and 4 KiB. The second
//! ratio relates the `mur3/ours` figures of `cargo bench -p bip37-reference --bench murmur3`
//! to Core on machines where this crate's C peer is not at hand. "Chained" times calls whose
//! seed is the previous call's hash, so no call overlaps the next: pure latency, where the
//! independent calls of the other columns let the CPU run several at once.
//! `cargo bench -p bip37-core-peer`.

#[path = "../../benches/support/timing.rs"]
mod timing;

use bip37_core_peer::core_murmur3;
use bip37_reference::murmur3;
use std::hint::black_box;

const SIZES: [usize; 7] = [20, 32, 33, 36, 65, 520, 4096];

fn main() {
    println!("| size | ours ns | Core (C, -O2) ns | Core/ours | chained Core/ours | mur3 ns | Core/mur3 |");
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for len in SIZES {
        let data: Vec<u8> = (0..len).map(|i| (i * 131 + 7) as u8).collect();
        assert_eq!(murmur3(7, &data), core_murmur3(7, &data));
        let core = || {
            black_box(core_murmur3(black_box(7), black_box(&data)));
        };
        let ours = timing::measure(
            || {
                black_box(murmur3(black_box(7), black_box(&data)));
            },
            core,
        );
        let (mut ours_seed, mut core_seed) = (7, 7);
        let chained = timing::measure(
            || ours_seed = black_box(murmur3(ours_seed, black_box(&data))),
            || core_seed = black_box(core_murmur3(core_seed, black_box(&data))),
        );
        let mur3 = timing::measure(
            || {
                black_box(mur3::murmurhash3_x86_32(black_box(&data), black_box(7)));
            },
            core,
        );
        println!(
            "| {len} B | {:.1} | {:.1} | {:.3} | {:.3} | {:.1} | {:.3} |",
            ours.ours, ours.theirs, ours.ratio, chained.ratio, mur3.ours, mur3.ratio
        );
    }
}
