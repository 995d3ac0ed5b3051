//! The diagnosis checked against mistakes it was not built around: an independent BIP 37
//! model written in Python from the Core facts (`tests/independent/bip37_model.py`, not from
//! the reference's code) runs through the subprocess protocol once per planted mistake. Every
//! mistake must fail some test, and every failure must be diagnosed as the planted class or as
//! "no known bug class": a wrong name is a failure of this test, an honest "unknown" is not.
//!
//! `PLANTED` is the expected mapping. A mistake the mutants model names its class; a variant
//! they do not model (a seed reduced mod 2^31, a CompactSize one step early, a rejection at the
//! wrong stage, a crash) expects `Unknown` until a mutant for it exists: then change its entry
//! to `Names(&[<the new class's flag>])`.

use bip37_conform::vector_set;
use bip37_harness::diagnosis::annotate;
use bip37_harness::runner::{run_tests, RunOptions};
use bip37_harness::subprocess::{ClientConfig, Subprocess};
use bip37_harness::vectors::LoadedTest;
use std::process::Command;

mod common;

/// What the diagnosis may say about a planted mistake's failures.
enum Expect {
    /// The run is diagnosed as one of these classes; each failure as one of them or unknown.
    Names(&'static [&'static str]),
    /// No class is named for any failure: "no known bug class explains this".
    Unknown,
    /// One of these classes or unknown, for the run and each failure: for combinations where
    /// one mistake hides the other on the present vectors.
    AtMost(&'static [&'static str]),
}

use Expect::{AtMost, Names, Unknown};

/// Planted mistakes (joined by `+` when several at once) and what the diagnosis may say.
const PLANTED: &[(&str, Expect)] = &[
    ("murmur-big-endian-blocks", Names(&["BigEndianBlocks"])),
    ("murmur-tail-reversed", Names(&["MurmurTail"])),
    ("murmur-signed-tail", Names(&["SignExtendedTail"])),
    ("murmur-xor-block-count", Unknown),
    ("seed-mod-2-31", Names(&["SeedReducedMod2To31"])),
    ("seed-not-wrapped", Names(&["SeedNotWrapped"])),
    ("float-hash-count", Names(&["FloatHashCount"])),
    // Rounds the bits up before truncating them: the mutant's size in most tests, not in all.
    ("size-rounded-up", Names(&["SizeRoundedUp"])),
    ("no-hash-func-cap", Names(&["NoHashFuncCap"])),
    ("no-filter-size-cap", Names(&["NoFilterSizeCap"])),
    ("msb-first-bits", Names(&["MsbFirstBits"])),
    ("modulus-by-bytes", Names(&["ModulusByBytes"])),
    ("hex-text-hashed", Names(&["HexTextHashed"])),
    // Skips it when inserting only; the mutant also skips it in bitIndexes, which this passes,
    // but the two insert vectors (one serialize-only) outweigh that one false alarm.
    ("empty-element-skipped", Names(&["EmptyElementSkipped"])),
    ("big-endian-tweak", Names(&["BigEndianTweak"])),
    ("big-endian-hash-funcs", Names(&["BigEndianHashFuncs"])),
    // Writes 252 as fd fc 00 but decodes strictly: CompactSizeBoundaryEarly's mutant gives
    // the same bytes, so it is named, as refuted by the decode tests this passes.
    ("compact-size-early", Names(&["CompactSizeBoundaryEarly"])),
    ("big-endian-length", Names(&["BigEndianLength"])),
    (
        "non-canonical-accepted",
        Names(&["NonCanonicalCompactSize"]),
    ),
    ("truncation-zero-filled", Names(&["TruncationNotDetected"])),
    ("zero-hash-funcs-refused", Unknown),
    ("no-filter-size-limit", Names(&["NoFilterSizeLimit"])),
    ("no-hash-func-limit", Names(&["NoHashFuncLimit"])),
    ("no-element-size-limit", Names(&["NoElementSizeLimit"])),
    ("limits-exclusive", Names(&["LimitOffByOne"])),
    ("crash-on-empty-filter", Unknown),
    // Every multi-byte-length vector is refused too, as BigEndianLength refuses it: not named.
    ("refuse-everything", Unknown),
    ("flags-written-as-bit", Unknown),
    ("without-contains+msb-first-bits", Names(&["MsbFirstBits"])),
    (
        "msb-first-bits+big-endian-tweak",
        Names(&["MsbFirstBits", "BigEndianTweak"]),
    ),
    (
        "float-hash-count+no-hash-func-cap",
        Names(&["FloatHashCount", "NoHashFuncCap"]),
    ),
    (
        "no-hash-func-cap+no-filter-size-cap",
        Names(&["NoHashFuncCap", "NoFilterSizeCap"]),
    ),
    (
        "murmur-tail-reversed+modulus-by-bytes",
        Names(&["MurmurTail", "ModulusByBytes"]),
    ),
    (
        "seed-mod-2-31+big-endian-tweak",
        Names(&["SeedReducedMod2To31", "BigEndianTweak"]),
    ),
    // The 36,001-byte filterload with 5 hash functions shows the missing limit, but the
    // 0-function one the pair refuses for its own reason counts against the class.
    (
        "zero-hash-funcs-refused+no-filter-size-limit",
        AtMost(&["NoFilterSizeLimit"]),
    ),
    // A library without `contains` still shows these on the serialize-only vectors.
    ("without-contains+flags-written-as-bit", Unknown),
    ("without-contains+crash-on-empty-filter", Unknown),
    (
        "crash-on-empty-filter+no-hash-func-limit",
        Names(&["NoHashFuncLimit"]),
    ),
    // Both refuse the 36,000-byte filterload at "limits", each for its own reason: the pair
    // passes the 50-function test LimitOffByOne fails, so that class must not be named.
    (
        "big-endian-length+truncation-zero-filled",
        Names(&["BigEndianLength", "TruncationNotDetected"]),
    ),
    // Broken hashing hides the empty-element skip from bitIndexes: the class is named there.
    (
        "seed-mod-2-31+empty-element-skipped",
        Names(&["SeedReducedMod2To31", "EmptyElementSkipped"]),
    ),
];

/// The model's path.
fn model() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/independent/bip37_model.py"
    )
    .to_string()
}

/// The model's command line with `planted` mistakes.
fn argv(planted: &str) -> Vec<String> {
    let mut argv = vec!["python3".to_string(), model()];
    for name in planted.split('+').filter(|n| !n.is_empty()) {
        argv.extend(["--mistake".to_string(), name.to_string()]);
    }
    argv
}

/// What went wrong with one planted mistake's diagnosis, if anything.
fn check(planted: &str, expect: &Expect, tests: &[&LoadedTest]) -> Option<String> {
    let (allowed, must_name): (&[&str], bool) = match expect {
        Names(classes) => (classes, true),
        Unknown => (&[], false),
        AtMost(classes) => (classes, false),
    };
    let mut child = Subprocess::start(ClientConfig::new(argv(planted))).expect("the model starts");
    let mut run = run_tests(tests, &mut child, &RunOptions::default());
    drop(child);
    let diagnosis = annotate(&mut run.results);
    if diagnosis.failures.is_empty() {
        return Some(format!("{planted}: fails no test"));
    }
    let mut wrong: Vec<String> = diagnosis
        .failures
        .iter()
        .filter_map(|&i| {
            let named = diagnosis.named(i);
            let stray: Vec<&str> = named
                .iter()
                .map(|b| b.flag())
                .filter(|f| !allowed.contains(f))
                .collect();
            (!stray.is_empty()).then(|| {
                format!(
                    "{planted}: {} diagnosed as {stray:?}: {}",
                    tests[i].case.id,
                    diagnosis.of_failure(i)
                )
            })
        })
        .collect();
    let top = diagnosis.top().map(|b| b.flag());
    if top.is_some_and(|t| !allowed.contains(&t)) || (top.is_none() && must_name) {
        wrong.push(format!(
            "{planted}: the run is diagnosed as {top:?}, expected one of {allowed:?}: {}",
            diagnosis.summary()
        ));
    }
    (!wrong.is_empty()).then(|| wrong.join("\n"))
}

#[test]
fn every_planted_mistake_fails_and_is_named_right_or_unknown() {
    let tests: Vec<LoadedTest> = vector_set::load_files(None)
        .expect("the vectors load")
        .into_iter()
        .flat_map(|f| f.tests)
        .collect();
    let tests: Vec<&LoadedTest> = tests.iter().collect();
    // A run mostly waits for the child (start, answers, exit): a few at a time.
    let problems: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = PLANTED
            .chunks(PLANTED.len().div_ceil(4))
            .map(|chunk| {
                let tests = &tests;
                scope.spawn(move || {
                    chunk
                        .iter()
                        .filter_map(|(planted, expect)| check(planted, expect, tests))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a checking thread"))
            .collect()
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_model_without_mistakes_is_conformant_and_each_mistake_exists() {
    let status = Command::new(common::conform_binary())
        .args(["run", "--impl", &format!("python3 {}", model())])
        .output()
        .expect("bip37-conform runs");
    assert_eq!(
        status.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&status.stdout)
    );
    let listed = Command::new("python3")
        .args([model().as_str(), "--list"])
        .output()
        .expect("the model lists its mistakes");
    let listed = String::from_utf8_lossy(&listed.stdout);
    let names: Vec<&str> = listed
        .lines()
        .filter_map(|l| l.split('\t').next())
        .collect();
    assert!(names.len() >= 15, "{names:?}");
    for (planted, _) in PLANTED {
        for name in planted.split('+') {
            assert!(
                names.contains(&name),
                "{name} is not a mistake of the model"
            );
        }
    }
    let planted: Vec<&str> = PLANTED.iter().flat_map(|(p, _)| p.split('+')).collect();
    let untested: Vec<&&str> = names.iter().filter(|n| !planted.contains(n)).collect();
    assert!(
        untested.is_empty(),
        "mistakes no table entry plants: {untested:?}"
    );
}

/// The same crash gets the same diagnosis in a run of four tests as in the whole suite: which
/// classes fit a failure depends on that failure alone.
#[test]
fn a_crash_is_unexplained_in_a_small_run_as_in_the_whole_suite() {
    let tests: Vec<LoadedTest> = vector_set::load_files(None)
        .expect("the vectors load")
        .into_iter()
        .flat_map(|f| f.tests)
        .collect();
    let small: Vec<&LoadedTest> = tests
        .iter()
        .filter(|t| {
            t.case.id.starts_with("filter/empty-filter-")
                || t.case.id == "murmur3/core-00000000-0011"
                || t.case.id == "wire/filterload-flags-1"
        })
        .collect();
    assert_eq!(small.len(), 4);
    let mut child = Subprocess::start(ClientConfig::new(argv("crash-on-empty-filter")))
        .expect("the model starts");
    let mut run = run_tests(&small, &mut child, &RunOptions::default());
    drop(child);
    let diagnosis = annotate(&mut run.results);
    assert_eq!(diagnosis.failures.len(), 2, "{}", diagnosis.summary());
    for &i in &diagnosis.failures {
        assert_eq!(diagnosis.named(i), [], "{}", diagnosis.of_failure(i));
    }
}
