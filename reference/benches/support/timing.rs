//! The timing loop every bench of this crate shares (no benchmark framework): each case runs in
//! short batches (about 0.5 ms, so few are interrupted on a busy machine), 201 times,
//! alternating the two implementations batch by batch. It reports the median time per call of
//! each and the median of the ratios of adjacent batches, which cancels the machine's slow and
//! fast phases: the ratio is the figure to compare across machines and loads.

use std::time::{Duration, Instant};

const REPETITIONS: usize = 201;
const BATCH_TARGET: Duration = Duration::from_micros(500);

/// How many calls of `f` take about [`BATCH_TARGET`].
fn batch_size(f: &mut impl FnMut()) -> u32 {
    let mut n = 1u32;
    loop {
        let start = Instant::now();
        for _ in 0..n {
            f();
        }
        if start.elapsed() >= BATCH_TARGET / 4 || n >= 1 << 28 {
            return n.saturating_mul(4);
        }
        n *= 2;
    }
}

/// What one case measured: median nanoseconds per call of each implementation, and the median
/// of `theirs / ours` over adjacent batches (above 1 means ours is faster).
pub struct Timing {
    pub ours: f64,
    pub theirs: f64,
    pub ratio: f64,
}

/// Times both closures alternately.
pub fn measure(mut ours: impl FnMut(), mut theirs: impl FnMut()) -> Timing {
    let n = batch_size(&mut ours).max(batch_size(&mut theirs));
    let mut times = (Vec::new(), Vec::new());
    for _ in 0..REPETITIONS {
        for (f, out) in [
            (&mut ours as &mut dyn FnMut(), &mut times.0),
            (&mut theirs, &mut times.1),
        ] {
            let start = Instant::now();
            for _ in 0..n {
                f();
            }
            out.push(start.elapsed().as_nanos() as f64 / f64::from(n));
        }
    }
    let ratios = times.0.iter().zip(&times.1).map(|(o, t)| t / o).collect();
    Timing {
        ours: median(times.0),
        theirs: median(times.1),
        ratio: median(ratios),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
