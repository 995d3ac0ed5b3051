//! Benchmark: the whole suite against the built-in reference, in-process (goal: under 1 s),
//! with the same suite through `bip37-conform serve` as the peer it is compared with.
//!
//! `cargo bench -p bip37-conform --bench suite [-- VECTOR_DIR]`

mod common;

use bip37_conform::vector_set;
use bip37_harness::reference_impl::Reference;
use bip37_harness::runner::{run_tests, RunOptions, State};
use std::path::PathBuf;
use std::time::Duration;

fn main() {
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from);
    let load = || vector_set::load(dir.as_deref()).expect("the vectors load");
    let tests = load();
    let selected: Vec<_> = tests.iter().collect();
    let options = RunOptions::default();
    let budget = Duration::from_secs(3);

    let load_time = common::median_time(budget, 5, || drop(load()));
    let in_process = common::median_time(budget, 5, || {
        let run = run_tests(&selected, &mut Reference, &options);
        assert!(run.results.iter().all(|r| r.state == State::Pass));
    });
    let mut child = common::serve_child();
    let subprocess = common::median_time(budget, 3, || {
        let run = run_tests(&selected, &mut child, &options);
        assert!(run.results.iter().all(|r| r.state == State::Pass));
    });

    println!("whole suite: {} tests", tests.len());
    println!(
        "  load and parse the vectors:        {:>10.3} ms",
        ms(load_time)
    );
    println!(
        "  run in-process (reference):        {:>10.3} ms",
        ms(in_process)
    );
    println!(
        "  load + run in-process:             {:>10.3} ms (goal < 1000 ms)",
        ms(load_time + in_process)
    );
    println!(
        "  run through `serve` (peer):        {:>10.3} ms",
        ms(subprocess)
    );
    println!(
        "  in-process is {:.1}x faster than through `serve`",
        subprocess.as_secs_f64() / in_process.as_secs_f64()
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
