//! Benchmark: requests per second through `bip37-conform serve` as a subprocess (goal: at
//! least 100,000/s), with the same requests answered in-process as the peer.
//!
//! `cargo bench -p bip37-conform --bench serve_throughput`

mod common;

use bip37_harness::hex::Hex;
use bip37_harness::implementation::{Answer, Implementation};
use bip37_harness::ops::{Murmur3Input, Request};
use bip37_harness::reference_impl::Reference;
use std::time::Duration;

const BATCH: usize = 2_000;

fn main() {
    let request = Request::Murmur3(Murmur3Input {
        seed: 0xfba4c795,
        data: Hex((0u8..32).collect()),
    });
    let budget = Duration::from_secs(3);
    let answer_all = |implementation: &mut dyn Implementation| {
        for _ in 0..BATCH {
            assert!(matches!(implementation.execute(&request), Answer::Ok(_)));
        }
    };
    let mut child = common::serve_child();
    let through_serve = common::median_time(budget, 5, || answer_all(&mut child));
    let in_process = common::median_time(budget, 5, || answer_all(&mut Reference));
    let per_second = |batch: Duration| BATCH as f64 / batch.as_secs_f64();
    println!("murmur3 of 32 bytes, batches of {BATCH} requests, median batch:");
    println!(
        "  through `bip37-conform serve`:  {:>12.0} requests/s (goal >= 100000)",
        per_second(through_serve)
    );
    println!(
        "  in-process reference (peer):    {:>12.0} requests/s",
        per_second(in_process)
    );
    println!(
        "  the subprocess round trip costs {:.0}x an in-process call",
        through_serve.as_secs_f64() / in_process.as_secs_f64()
    );
}
