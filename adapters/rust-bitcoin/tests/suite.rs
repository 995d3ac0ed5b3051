//! The whole built-in suite against rust-bitcoin, in-process through the `Implementation`
//! trait and through its `bip37-rust-bitcoin` server: it must fail exactly the tests
//! `expectations.toml` lists, in the listed states, and keep answering the operations it pins.
//! A new failure, a listed test that passes, a stale entry or a dropped operation (a change in
//! rust-bitcoin's behaviour) fails the test with the report `bip37-conform run` prints.

use bip37_adapter_rust_bitcoin::RustBitcoin;
use bip37_harness::expectations::Expectations;
use bip37_harness::implementation::Implementation;
use bip37_harness::report::{render, Format};
use bip37_harness::runner::{run_tests, Conformance, Run, RunOptions, State};
use bip37_harness::subprocess::{ClientConfig, Subprocess};
use bip37_harness::vectors::{embedded, LoadedTest};
use std::collections::HashSet;
use std::path::Path;

fn vectors() -> Vec<LoadedTest> {
    let files = embedded::load().expect("the built-in vectors load");
    files.into_iter().flat_map(|file| file.tests).collect()
}

/// Runs every vector against `implementation` and judges the run against the expectations file.
fn judged(tests: &[LoadedTest], implementation: &mut dyn Implementation) -> (Run, Expectations) {
    let selected: Vec<&LoadedTest> = tests.iter().collect();
    let mut run = run_tests(&selected, implementation, &RunOptions::default());
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("expectations.toml");
    let expectations = Expectations::load(&path).expect("expectations.toml loads");
    let known: HashSet<&str> = tests.iter().map(|t| t.case.id.as_str()).collect();
    expectations.apply(&mut run, &known);
    (run, expectations)
}

fn assert_as_expected(run: &Run, expectations: &Expectations) {
    let report = render(run, Format::Human, false);
    assert_eq!(run.conformance(), Conformance::Conformant, "{report}");
    let counts = run.counts();
    let count = |state| counts.get(&state).copied().unwrap_or(0);
    assert_eq!(
        count(State::ExpectedFailure),
        expectations.failures.len(),
        "{report}"
    );
    assert!(count(State::Pass) > 0, "{report}");
}

#[test]
fn rust_bitcoin_fails_exactly_as_its_expectations_say_in_process() {
    let tests = vectors();
    let (run, expectations) = judged(&tests, &mut RustBitcoin);
    assert_as_expected(&run, &expectations);
}

#[test]
fn its_server_gives_the_same_verdicts_over_the_protocol() {
    let tests = vectors();
    let (in_process, _) = judged(&tests, &mut RustBitcoin);
    let mut child = Subprocess::start(ClientConfig::new(vec![env!(
        "CARGO_BIN_EXE_bip37-rust-bitcoin"
    )
    .into()]))
    .expect("bip37-rust-bitcoin starts");
    assert_eq!(child.name(), "rust-bitcoin 0.32.102");
    assert_eq!(child.notes(), RustBitcoin.notes());
    let (served, expectations) = judged(&tests, &mut child);
    assert_as_expected(&served, &expectations);
    let states = |run: &Run| -> Vec<(String, State)> {
        run.results
            .iter()
            .map(|r| (r.test.case.id.clone(), r.state))
            .collect()
    };
    assert_eq!(states(&in_process), states(&served));
    assert_eq!(child.restarts(), 0);
}
