//! The reference's filter `insert` and `contains` against the C build of Core's (this crate's
//! `core_bloom.c`, calling `core_murmur3.c` as Core's `bloom.cpp` calls `hash.cpp`), at every
//! element size BIP 37 hashes, on the two filters of the Core measurement
//! (`../benches/support/filter_cases.rs`). `cargo bench -p bip37-core-peer --bench filter_vs_core`.

#[path = "../../benches/support/timing.rs"]
mod timing;
#[path = "../../benches/support/workload.rs"]
#[allow(dead_code)] // the transactions are for the reference's matching and merkle benches
mod workload;

#[path = "../../benches/support/filter_cases.rs"]
mod filter_cases;

use bip37_core_peer::CoreFilter;
use filter_cases::{PeerFilter, TWEAK};
use timing::Timing;

const SIZES: [usize; 6] = [20, 32, 33, 36, 65, 520];

impl PeerFilter for CoreFilter {
    fn insert(&mut self, element: &[u8]) {
        CoreFilter::insert(self, element)
    }

    fn contains(&self, element: &[u8]) -> bool {
        CoreFilter::contains(self, element)
    }

    fn data(&self) -> &[u8] {
        CoreFilter::data(self)
    }
}

fn row(case: &str, _len: usize, t: Timing) {
    println!(
        "| {case:<40} | {:>8.1} | {:>8.1} | {:>9.2} |",
        t.ours, t.theirs, t.ratio
    );
}

fn main() {
    println!("| case                                     | ours ns | Core ns | Core/ours |");
    println!("|------------------------------------------|--------:|--------:|----------:|");
    filter_cases::run(
        &SIZES,
        |ours| CoreFilter::new(ours.data(), ours.hash_funcs(), TWEAK),
        row,
    );
    println!("\nCore/ours above 1.00 means bip37-reference is faster.");
}
