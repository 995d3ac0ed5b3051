//! `sizing_test.json`: Core's constructor arithmetic, (n, p) → (bytes, hash functions).
//!
//! The three sizes Core's tests pin down are transcribed; every other test is generated to
//! separate one classic mistake (float division, rounding, caps, forced minimum), found by a
//! deterministic search over (n, p) that prefers a pair separating that mistake ALONE. Inputs
//! Core leaves undefined are `invalid`: that is the suite's policy (Core has undefined
//! behaviour there, not a rejection), and their note says so.

use super::builder::{
    core_source, every_mutant, generated_source, mutant_answers, oracle_outcome, Case, FileBuilder,
    GroupBuilder,
};
use super::GenError;
use bip37_harness::mutants::Bug;
use bip37_harness::ops::{
    BuildFilterInput, FilterInit, FpRate, OpName, Output, Request, SizingInput, SizingOutput,
};
use bip37_harness::vectors::model::{Expectation, Phase, VectorFile};

/// The sizing mistakes the generated tests separate, each a mutant.
const MISTAKES: &[Bug] = &[
    Bug::FloatHashCount,
    Bug::SizeRoundedUp,
    Bug::HashCountFromRawBits,
    Bug::HashCountRounded,
    Bug::ForcedMinimumOneHash,
    Bug::NoHashFuncCap,
    Bug::NoFilterSizeCap,
    Bug::ByteCapAgainstBitLimit,
    Bug::BitCapAgainstByteLimit,
];

/// Core-tested sizes: (file, line, test case, n, p, bytes, hash functions), read off the
/// serialized filters the tests compare against.
const CORE_SIZES: &[(&str, u32, &str, u32, f64, u32, u32)] = &[
    (
        "src/test/bloom_tests.cpp",
        35,
        "bloom_tests/bloom_create_insert_serialize",
        3,
        0.01,
        3,
        5,
    ),
    (
        "src/test/bloom_tests.cpp",
        83,
        "bloom_tests/bloom_create_insert_key",
        2,
        0.001,
        3,
        8,
    ),
    (
        "test/functional/p2p_filter.py",
        43,
        "p2p_filter/watch_filter_init",
        10,
        0.000_001,
        35,
        19,
    ),
];

/// Pairs worth a test of their own whatever they separate: the named float-division example,
/// the degenerate sizes (0 bytes, 0 functions, including p = 1, where Core's bit count is
/// -0.0) and both caps.
const NAMED: &[(u32, f64)] = &[
    (9, 0.01),
    (1, 0.5),
    (1, 0.99),
    (1_000_000, 0.0001),
    (20_000, 0.001),
    (10_000, 0.000_001),
    (1, 0.0001),
    (100, 0.0001),
    (5, 1.0),
];

/// Inputs without a defined result in Core, and what Core does with them.
const UNDEFINED: &[(u32, f64, &str, &str)] = &[
    (
        0,
        0.01,
        "n-zero",
        "the hash function count divides by n = 0",
    ),
    (
        5,
        0.0,
        "p-zero",
        "log(0) is -infinity, the bit count +infinity",
    ),
    (
        5,
        -0.5,
        "p-negative",
        "the logarithm of a negative rate is NaN",
    ),
    (5, 2.0, "p-above-one", "the bit count is -7.2"),
    (5, f64::NAN, "p-nan", "the bit count is NaN"),
    (5, f64::INFINITY, "p-infinity", "the bit count is -infinity"),
    (
        5,
        f64::NEG_INFINITY,
        "p-negative-infinity",
        "the logarithm of -infinity is NaN",
    ),
    (
        u32::MAX,
        1e-9,
        "bit-count-overflow",
        "the bit count, 1.8e11, does not fit in 32 bits",
    ),
];

pub fn file() -> Result<(String, VectorFile), GenError> {
    let mut file = FileBuilder::new(
        "sizing",
        &[
            "Core's CBloomFilter constructor: bits = min(trunc(-n ln p / ln2^2), 288000), bytes = bits / 8, hash functions = min(trunc((bytes * 8 / n) * ln 2), 50) with an INTEGER division.",
            "Sizing is client-side (never on the wire) but decides every filter a client sends.",
        ],
    );
    for &(path, line, test_case, n, p, filter_bytes, hash_funcs) in CORE_SIZES {
        let mut group = GroupBuilder::new(OpName::Sizing, core_source(path, line, test_case), "");
        let expected = Output::Sizing(SizingOutput {
            filter_bytes,
            hash_funcs,
        });
        group.sourced(
            sizing_case(n, p, "core", &[]),
            Expectation::Valid,
            Some(expected),
        );
        file.group(group);
    }
    let targeted = targeted_pairs()?;
    let mut group = GroupBuilder::new(
        OpName::Sizing,
        generated_source("sizing", "one sizing mistake per test, found by a deterministic search over (n, p)"),
        "Each test separates the mistake in its slug (and says in its flags which others it also separates).",
    );
    for &(target, n, p) in &targeted {
        group.generated(
            sizing_case(n, p, &kebab(target), &[target]),
            Expectation::Valid,
        );
    }
    file.group(group);
    let mut group = GroupBuilder::new(
        OpName::Sizing,
        generated_source(
            "sizing",
            "degenerate sizes (0 bytes, 0 functions) and the caps",
        ),
        "Sizes Core's formula gives at its extremes.",
    );
    for &(n, p) in NAMED {
        group.generated(sizing_case(n, p, "edge", &[]), Expectation::Valid);
    }
    file.group(group);
    let mut group = GroupBuilder::new(
        OpName::BuildFilter,
        generated_source("sizing", "the sizing mistakes as they show in a filterload payload"),
        "An empty filter sized from (n, p), serialized: its length and hash function count carry the sizing.",
    );
    // One payload per (n, p): small ones, and every cap, whose payloads are large but which a
    // library without a `sizing` entry point must meet too.
    let caps = [
        "NoFilterSizeCap",
        "ByteCapAgainstBitLimit",
        "BitCapAgainstByteLimit",
    ];
    let mut asked: Vec<(u32, f64)> = Vec::new();
    for &(target, n, p) in &targeted {
        if asked.contains(&(n, p)) || !(serialized_size(n, p) < 1000 || caps.contains(&target)) {
            continue;
        }
        asked.push((n, p));
        let targets: Vec<&'static str> = targeted
            .iter()
            .filter(|&&(_, n2, p2)| (n2, p2) == (n, p))
            .map(|&(t, _, _)| t)
            .collect();
        group.generated(
            build_case(n, p, &kebab(target), &targets),
            Expectation::Valid,
        );
    }
    // Sizing Core leaves undefined, asked of a filter.
    group.generated(
        build_case(5, 2.0, "undefined", &["UndefinedSizing"]),
        Expectation::Invalid,
    );
    file.group(group);
    let mut group = GroupBuilder::new(
        OpName::Sizing,
        generated_source("sizing", "inputs Core leaves undefined"),
        "Undefined behaviour in Core (a division by zero, or a double outside (-1, 2^32) cast to unsigned int): Core has no answer and does not reject either; the suite requires a rejection.",
    );
    for &(n, p, slug, why) in UNDEFINED {
        let request = sizing_request(n, p);
        let case = Case::new(
            format!("undefined-{slug}"),
            Phase::Sizing,
            request,
            format!(
                "n = {n}, p = {p:?}: {why}, undefined behaviour in Core; the suite requires a rejection"
            ),
        )
        .notes(&["UndefinedSizing"]);
        group.generated(case, Expectation::Invalid);
    }
    file.group(group);
    file.finish()
}

/// For each mistake, the first (n, p) of the search grid that separates it alone, or failing
/// that the first that separates it at all. (The choice is frozen: it decides the test ids,
/// which expectations files and reports refer to.)
fn targeted_pairs() -> Result<Vec<(&'static str, u32, f64)>, GenError> {
    let ns = (1..=40).chain([
        100, 1_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1_000_000,
    ]);
    let ps = [
        0.5, 0.1, 0.05, 0.01, 0.001, 0.0001, 1e-6, 1e-9, 1e-12, 1e-20,
    ];
    let grid: Vec<(u32, f64)> = ns.flat_map(|n| ps.iter().map(move |&p| (n, p))).collect();
    let separated = |n: u32, p: f64| -> Vec<&'static str> {
        let request = sizing_request(n, p);
        let right = oracle_outcome(&request);
        mutant_answers(MISTAKES, &request)
            .into_iter()
            .filter(|(_, answer)| *answer != right)
            .map(|(flag, _)| flag)
            .collect()
    };
    let mut pairs = vec![("FloatHashCount", 9, 0.01)];
    for target in MISTAKES
        .iter()
        .map(|b| b.flag())
        .filter(|&m| m != "FloatHashCount")
    {
        let alone = grid.iter().find(|&&(n, p)| separated(n, p) == [target]);
        let any = || {
            grid.iter()
                .find(|&&(n, p)| separated(n, p).contains(&target))
        };
        let &(n, p) = alone
            .or_else(any)
            .ok_or_else(|| GenError(format!("no (n, p) separates {target}")))?;
        pairs.push((target, n, p));
    }
    Ok(pairs)
}

fn sizing_request(n: u32, p: f64) -> Request {
    Request::Sizing(SizingInput {
        n_elements: n,
        fp_rate: FpRate(p),
    })
}

fn serialized_size(n: u32, p: f64) -> u32 {
    bip37_reference::size_for(n, p).map_or(0, |size| size.filter_bytes)
}

fn sizing_case(n: u32, p: f64, prefix: &str, targets: &[&'static str]) -> Case {
    let request = sizing_request(n, p);
    let mistaken = every_mutant(&request);
    Case::new(
        format!("{prefix}-n{n}-p{p:?}"),
        Phase::Sizing,
        request,
        format!("n = {n}, p = {p:?}"),
    )
    .mistaken(mistaken)
    .targets(targets)
}

fn build_case(n: u32, p: f64, prefix: &str, targets: &[&'static str]) -> Case {
    let request = Request::BuildFilter(BuildFilterInput {
        filter: FilterInit::Sized {
            n_elements: n,
            fp_rate: FpRate(p),
            tweak: 0,
            flags: 0,
        },
        insert: Vec::new(),
        queries: Vec::new(),
    });
    let mistaken = every_mutant(&request);
    Case::new(
        format!("{prefix}-payload-n{n}-p{p:?}"),
        Phase::Sizing,
        request,
        format!("an empty filter for n = {n}, p = {p:?}, tweak 0, flags 0"),
    )
    .mistaken(mistaken)
    .targets(targets)
}

/// `FloatHashCount` → `float-hash-count`.
pub fn kebab(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}
