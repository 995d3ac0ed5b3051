//! Vectors that need the fewest capabilities: a bug must be visible to an implementation that
//! offers only the operation showing it, with nothing else asked. A library that builds and
//! serializes filters but cannot answer `contains` must still meet every serialization bug,
//! and a limit must be tested with everything else legal, so a library cannot pass it for the
//! wrong reason.

use bip37_conform::vector_set;
use bip37_harness::implementation::{Answer, Implementation};
use bip37_harness::mutants::{Bug, Mutant};
use bip37_harness::ops::{BuildFilterInput, FilterInit, OpName, Output, Request, SizingInput};
use bip37_harness::reference_impl::Reference;
use bip37_harness::runner::verdict::judge;
use bip37_harness::runner::State;
use bip37_harness::vectors::{Expectation, LoadedTest};
use bip37_reference::FilterLoad;
use std::collections::BTreeSet;
use std::time::Duration;

fn suite() -> Vec<LoadedTest> {
    vector_set::load(None).expect("the built-in vectors load")
}

/// Two answers differ in what a test can see: values, or accept against reject.
fn differ(a: &Answer<Output>, b: &Answer<Output>) -> bool {
    match (a, b) {
        (Answer::Ok(x), Answer::Ok(y)) => x != y,
        (Answer::Rejected(_), Answer::Rejected(_)) => false,
        _ => true,
    }
}

fn fails(bug: Bug, test: &LoadedTest) -> bool {
    let answer = Mutant { bug }.execute(&test.request);
    judge(test, answer, Duration::ZERO).state != State::Pass
}

fn build_input(test: &LoadedTest) -> Option<&BuildFilterInput> {
    match &test.request {
        Request::BuildFilter(input) => Some(input),
        _ => None,
    }
}

/// Every bug class that some `buildFilter` vector shows once its `contains` queries are
/// dropped is failed by a vector that asks no query: serialization alone shows it.
#[test]
fn every_bug_serialization_shows_has_a_vector_without_queries() {
    let tests = suite();
    let mut shown_by_serializing = BTreeSet::new();
    for input in tests.iter().filter_map(build_input) {
        let stripped = Request::BuildFilter(BuildFilterInput {
            queries: Vec::new(),
            ..input.clone()
        });
        let right = Reference.execute(&stripped);
        for &bug in Bug::ALL {
            if differ(&Mutant { bug }.execute(&stripped), &right) {
                shown_by_serializing.insert(bug);
            }
        }
    }
    let query_free: Vec<&LoadedTest> = tests
        .iter()
        .filter(|t| build_input(t).is_some_and(|i| i.queries.is_empty()))
        .collect();
    let missing: Vec<&str> = shown_by_serializing
        .iter()
        .filter(|&&bug| !query_free.iter().any(|t| fails(bug, t)))
        .map(|bug| bug.flag())
        .collect();
    assert!(
        missing.is_empty(),
        "serialization shows these bugs, but every buildFilter vector that does also asks \
         contains: {missing:?}"
    );
}

/// The same question asked of the operations that can ask it: a payload of either decode or
/// accept operation, a sizing and the empty filter it sizes.
fn asked_elsewhere(request: &Request) -> Option<Request> {
    Some(match request {
        Request::FilterloadDecode(i) => Request::FilterloadAccept(i.clone()),
        Request::FilterloadAccept(i) => Request::FilterloadDecode(i.clone()),
        Request::FilteraddDecode(i) => Request::FilteraddAccept(i.clone()),
        Request::FilteraddAccept(i) => Request::FilteraddDecode(i.clone()),
        Request::Sizing(i) => Request::BuildFilter(BuildFilterInput {
            filter: FilterInit::Sized {
                n_elements: i.n_elements,
                fp_rate: i.fp_rate,
                tweak: 0,
                flags: 0,
            },
            insert: Vec::new(),
            queries: Vec::new(),
        }),
        Request::BuildFilter(BuildFilterInput {
            filter:
                FilterInit::Sized {
                    n_elements,
                    fp_rate,
                    ..
                },
            ..
        }) => Request::Sizing(SizingInput {
            n_elements: *n_elements,
            fp_rate: *fp_rate,
        }),
        _ => return None,
    })
}

/// Every bug class that an operation can show (some vector's question, asked of that
/// operation, gets another answer from the mutant) is failed by a vector of that operation: an
/// implementation offering only that operation meets every bug it can have.
#[test]
fn every_operation_that_can_show_a_bug_has_a_vector_showing_it() {
    let tests = suite();
    let elsewhere: Vec<Request> = tests
        .iter()
        .filter_map(|t| asked_elsewhere(&t.request))
        .collect();
    let mut missing = Vec::new();
    for &bug in Bug::ALL {
        for &op in OpName::ALL {
            let can_show = elsewhere
                .iter()
                .filter(|r| r.op() == op)
                .any(|r| differ(&Mutant { bug }.execute(r), &Reference.execute(r)));
            let shown = tests
                .iter()
                .filter(|t| t.request.op() == op)
                .any(|t| fails(bug, t));
            if can_show && !shown {
                missing.push(format!("{} {op}", bug.flag()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "these operations can show these bugs, but no vector of theirs does: {missing:?}"
    );
}

fn flags_of(init: &FilterInit) -> u8 {
    match init {
        FilterInit::Sized { flags, .. }
        | FilterInit::Explicit { flags, .. }
        | FilterInit::Loaded { flags, .. } => *flags,
    }
}

#[test]
fn every_update_mode_is_serialized_without_a_query() {
    let tests = suite();
    for mode in [0u8, 1, 2] {
        assert!(
            tests
                .iter()
                .filter_map(build_input)
                .any(|i| i.queries.is_empty()
                    && !i.insert.is_empty()
                    && flags_of(&i.filter) == mode),
            "no buildFilter vector with flags {mode} that only inserts and serializes"
        );
    }
}

#[test]
fn an_explicit_empty_filter_takes_an_insert_with_no_query() {
    let found = suite().iter().filter_map(build_input).any(|i| {
        matches!(i.filter, FilterInit::Explicit { filter_bytes: 0, hash_funcs, .. } if hash_funcs > 0)
            && !i.insert.is_empty()
            && i.queries.is_empty()
    });
    assert!(
        found,
        "no vector inserts into an explicit 0-byte filter and only serializes"
    );
}

/// The `filterloadAccept` vectors as (result, data bytes, hash functions).
fn accept_limits() -> Vec<(Expectation, usize, u32)> {
    suite()
        .iter()
        .filter_map(|t| match &t.request {
            Request::FilterloadAccept(input) => FilterLoad::decode(input.payload.as_ref())
                .ok()
                .map(|load| (t.case.result, load.data.len(), load.hash_funcs)),
            _ => None,
        })
        .collect()
}

#[test]
fn each_limit_is_tested_with_everything_else_legal() {
    let limits = accept_limits();
    let has = |result: Expectation, bytes: usize, funcs: fn(u32) -> bool| {
        limits
            .iter()
            .any(|&(r, b, k)| r == result && b == bytes && funcs(k))
    };
    // A legal, non-zero hash function count: refusing 0 functions cannot pass these.
    let legal_count = |k: u32| (1..=50).contains(&k);
    assert!(has(Expectation::Invalid, 36_001, legal_count));
    assert!(has(Expectation::Valid, 36_000, legal_count));
    let same_count = limits.iter().any(|&(r, b, k)| {
        r == Expectation::Invalid
            && b == 36_001
            && legal_count(k)
            && limits
                .iter()
                .any(|&(r2, b2, k2)| r2 == Expectation::Valid && b2 == 36_000 && k2 == k)
    });
    assert!(
        same_count,
        "36,001 and 36,000 bytes with the same legal count"
    );
    // 51 functions with a legal, non-empty filter.
    assert!(limits
        .iter()
        .any(|&(r, b, k)| r == Expectation::Invalid && k == 51 && (1..=36_000).contains(&b)));
}
