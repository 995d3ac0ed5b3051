//! The whole built-in suite passes against the reference both in-process and through
//! `bip37-conform serve` as a subprocess, so the protocol path carries every operation and
//! every shape of input and output the vectors use.

mod common;

use bip37_conform::vector_set;
use bip37_harness::reference_impl::Reference;
use bip37_harness::runner::{run_tests, Conformance, RunOptions, State};
use bip37_harness::subprocess::{ClientConfig, Subprocess};

#[test]
fn the_reference_passes_every_vector_in_process_and_through_serve() {
    let tests = vector_set::load(None).expect("the built-in vectors load");
    let selected: Vec<_> = tests.iter().collect();
    assert!(selected.len() > 100, "only {} tests", selected.len());
    let in_process = run_tests(&selected, &mut Reference, &RunOptions::default());
    let mut child = Subprocess::start(ClientConfig::new(vec![
        common::conform_binary().into(),
        "serve".into(),
    ]))
    .expect("serve starts");
    let through_serve = run_tests(&selected, &mut child, &RunOptions::default());
    for run in [&in_process, &through_serve] {
        let failing: Vec<_> = run
            .results
            .iter()
            .filter(|r| r.state != State::Pass)
            .map(|r| format!("{} {}: {}", r.test.case.id, r.state, r.message))
            .collect();
        assert!(failing.is_empty(), "{}: {failing:#?}", run.implementation);
        assert_eq!(run.conformance(), Conformance::Conformant);
    }
    assert_eq!(child.restarts(), 0);
}
