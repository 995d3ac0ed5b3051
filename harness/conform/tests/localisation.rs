//! A wrong answer is localised: the filter byte and bit and the element and hash function that
//! set it, the first hash function whose bit index differs, or the first differing JSON field.

mod common;

use bip37_harness::implementation::{Answer, Implementation};
use bip37_harness::ops::*;
use bip37_harness::reference_impl::Reference;
use bip37_harness::runner::{run_tests, RunOptions, State, TestResult};

/// The reference, with the answers of the operations under study edited by `edit`.
struct Edited {
    edit: fn(&mut Output),
}

impl Implementation for Edited {
    fn name(&self) -> String {
        "edited reference".into()
    }

    fn execute(&mut self, request: &Request) -> Answer<Output> {
        let mut answer = Reference.execute(request);
        if let Answer::Ok(output) = &mut answer {
            (self.edit)(output);
        }
        answer
    }
}

fn result_of(id: &str, edit: fn(&mut Output)) -> TestResult {
    let tests = common::mini_tests();
    let test = tests.iter().find(|t| t.case.id == id).unwrap();
    let run = run_tests(&[test], &mut Edited { edit }, &RunOptions::default());
    run.results.into_iter().next().unwrap()
}

#[test]
fn a_missing_filter_bit_is_traced_to_its_element_and_hash_function() {
    let result = result_of("mini/build-core-example", |output| {
        if let Output::BuildFilter(o) = output {
            o.filterload.0[1] &= !1; // data byte 0 is 0x61: clear its bit 0
        }
    });
    assert_eq!(result.state, State::WrongValue);
    assert_eq!(
        result.difference.as_deref(),
        Some("filter byte 0, bit 0 (bit index 0): expected set, actual clear; the reference sets it for insert[0] with hash function 0 (seed 0x00000000)")
    );
}

#[test]
fn an_extra_filter_bit_and_a_wrong_header_are_named() {
    let result = result_of("mini/build-core-example", |output| {
        if let Output::BuildFilter(o) = output {
            o.filterload.0[1] |= 2;
        }
    });
    assert_eq!(
        result.difference.as_deref(),
        Some("filter byte 0, bit 1 (bit index 1): expected clear, actual set; no inserted element sets it in the reference")
    );
    let result = result_of("mini/build-core-example", |output| {
        if let Output::BuildFilter(o) = output {
            o.filterload.0[4] = 6; // nHashFuncs 5 -> 6
        }
    });
    assert_eq!(
        result.difference.as_deref(),
        Some("nHashFuncs: expected 5, actual 6")
    );
}

#[test]
fn the_first_differing_hash_function_is_named() {
    let result = result_of("mini/bits-first-element", |output| {
        if let Output::BitIndexes(o) = output {
            o.indexes[2] = 1;
        }
    });
    assert_eq!(
        result.difference.as_deref(),
        Some("hash function 2 (seed 0xf7498f2a): expected bit 0, actual bit 1")
    );
}

#[test]
fn other_operations_get_the_first_differing_field_or_byte() {
    let result = result_of("mini/murmur3-one-byte", |output| {
        if let Output::Murmur3(o) = output {
            o.hash = 1;
        }
    });
    assert_eq!(
        result.difference.as_deref(),
        Some("`hash`: expected 1364076727, actual 1")
    );
    let result = result_of("mini/build-core-example", |output| {
        if let Output::BuildFilter(o) = output {
            o.contains[1] = true;
        }
    });
    assert_eq!(
        result.difference.as_deref(),
        Some("`contains[1]`: expected false, actual true")
    );
    let result = result_of("mini/load-flags-ff", |output| {
        if let Output::FilterloadDecode(o) = output {
            o.data.0.push(0);
        }
    });
    assert_eq!(
        result.difference.as_deref(),
        Some("`data`: expected 1 bytes, actual 2 (equal for the first 1)")
    );
}
