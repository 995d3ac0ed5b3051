//! Timing helpers shared by the harness benchmarks (self-written: no benchmark framework).

use bip37_harness::subprocess::{ClientConfig, Subprocess};
use std::time::{Duration, Instant};

/// Runs `work` repeatedly for about `budget` (at least `min_runs` times) and returns the
/// median duration of one run.
pub fn median_time(budget: Duration, min_runs: usize, mut work: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut times = Vec::new();
    while times.len() < min_runs || start.elapsed() < budget {
        let began = Instant::now();
        work();
        times.push(began.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

/// `bip37-conform serve` (the reference on the subprocess protocol), started and greeted.
pub fn serve_child() -> Subprocess {
    Subprocess::start(ClientConfig::new(vec![
        env!("CARGO_BIN_EXE_bip37-conform").into(),
        "serve".into(),
    ]))
    .expect("bip37-conform serve starts")
}
