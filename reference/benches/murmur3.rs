//! MurmurHash3 and filter-insert throughput of `bip37-reference` against the `mur3` crate, on
//! 32-byte and 4 KiB inputs, in one run. `cargo bench -p bip37-reference --bench murmur3`.
//!
//! A small timing loop (no benchmark framework): each case runs in short batches (about
//! 0.5 ms, so few are interrupted on a busy machine), 201 times, alternating the two
//! implementations batch by batch. It reports the median time per call of each and the median
//! of the ratios of adjacent batches, which cancels the machine's slow and fast phases. The
//! insert comparison runs Core's insert (seed, murmur3 modulo the bit count, set the bit least
//! significant first) once with our hash and once with `mur3`'s, on the same filter.

use bip37_reference::{hash_seed, murmur3, BloomFilter};
use std::hint::black_box;
use std::time::{Duration, Instant};

const REPETITIONS: usize = 201;
const BATCH_TARGET: Duration = Duration::from_micros(500);
/// A filter of the maximum size with a typical hash function count.
const FILTER_BYTES: u64 = 36_000;
const HASH_FUNCS: u32 = 11;
const TWEAK: u32 = 0x8000_0001;

/// Deterministic bytes (xorshift), so every run hashes the same input.
fn input(len: usize) -> Vec<u8> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

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
/// of `theirs / ours` over adjacent batches.
struct Timing {
    ours: f64,
    theirs: f64,
    ratio: f64,
}

/// Times both closures alternately.
fn measure(mut ours: impl FnMut(), mut theirs: impl FnMut()) -> Timing {
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

/// Core's insert with the hash as a parameter.
fn insert_with(data: &mut [u8], element: &[u8], hash: impl Fn(u32, &[u8]) -> u32) {
    let bits = data.len() as u64 * 8;
    for i in 0..HASH_FUNCS {
        let bit = (u64::from(hash(hash_seed(i, TWEAK), element)) % bits) as usize;
        data[bit >> 3] |= 1 << (bit & 7);
    }
}

fn row(case: &str, len: usize, t: Timing) {
    let mib_s = |ns: f64| len as f64 / ns * 1e9 / (1024.0 * 1024.0);
    println!(
        "| {case:<22} | {:>10.1} | {:>10.0} | {:>10.1} | {:>10.0} | {:>9.2} |",
        t.ours,
        mib_s(t.ours),
        t.theirs,
        mib_s(t.theirs),
        t.ratio
    );
}

fn main() {
    println!("| case                   | ours ns/op | ours MiB/s | mur3 ns/op | mur3 MiB/s | mur3/ours |");
    println!(
        "|------------------------|-----------:|-----------:|-----------:|-----------:|----------:|"
    );
    for len in [32, 4096] {
        let data = input(len);
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
    for len in [32, 4096] {
        let element = input(len);
        let mut reference = BloomFilter::with_size(FILTER_BYTES, HASH_FUNCS, TWEAK, 0)
            .expect("36,000 bytes is a legal filter size");
        let mut with_mur3 = vec![0u8; FILTER_BYTES as usize];
        insert_with(&mut with_mur3, &element, |seed, e| {
            mur3::murmurhash3_x86_32(e, seed)
        });
        reference.insert(&element);
        assert_eq!(
            reference.data(),
            with_mur3.as_slice(),
            "both inserts must set the same bits"
        );
        let times = measure(
            || reference.insert(black_box(&element)),
            || {
                insert_with(&mut with_mur3, black_box(&element), |seed, e| {
                    mur3::murmurhash3_x86_32(e, seed)
                })
            },
        );
        row(&format!("insert {len} B (k = {HASH_FUNCS})"), len, times);
    }
    println!("\nmur3/ours above 1.00 means bip37-reference is faster.");
}
