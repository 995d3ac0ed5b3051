//! The adapters the documentation offers work: `adapters/template.py` and the JavaScript
//! adapter in `docs/PROTOCOL.md` pass what they implement and leave the rest unclaimed; and
//! the protocol document lists every operation.

mod common;

use bip37_harness::ops::OpName;
use bip37_harness::runner::{run_tests, RunOptions, State};
use bip37_harness::subprocess::{ClientConfig, Subprocess};
use std::path::Path;

fn states(argv: Vec<String>) -> Vec<(String, State)> {
    let tests = common::mini_tests();
    let selected: Vec<_> = tests.iter().collect();
    let mut child = Subprocess::start(ClientConfig::new(argv)).expect("the adapter starts");
    let run = run_tests(&selected, &mut child, &RunOptions::default());
    run.results
        .into_iter()
        .map(|r| (r.test.case.id, r.state))
        .collect()
}

fn assert_hashing_only(states: &[(String, State)]) {
    for (id, state) in states {
        let hashing = id.contains("murmur3") || id.contains("seed-");
        let wanted = if hashing {
            State::Pass
        } else {
            State::NotClaimed
        };
        assert_eq!(*state, wanted, "{id}");
    }
}

#[test]
fn the_python_template_passes_its_operations() {
    let template = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../adapters/template.py");
    assert_hashing_only(&states(vec![
        "python3".into(),
        template.to_string_lossy().into_owned(),
    ]));
}

fn protocol_document() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/PROTOCOL.md"))
        .unwrap()
}

#[test]
fn the_protocol_document_lists_every_operation() {
    let doc = protocol_document();
    for op in OpName::ALL {
        assert!(
            doc.contains(&format!("`{op}`")),
            "docs/PROTOCOL.md does not list {op}"
        );
    }
}

#[test]
fn the_javascript_adapter_of_the_protocol_document_passes_its_operations() {
    let doc = protocol_document();
    let start = doc.find("```js\n").expect("a js block") + "```js\n".len();
    let end = start + doc[start..].find("```").unwrap();
    let script = Path::new(env!("CARGO_TARGET_TMPDIR")).join("protocol_doc_adapter.js");
    std::fs::write(&script, &doc[start..end]).unwrap();
    assert_hashing_only(&states(vec![
        "node".into(),
        script.to_string_lossy().into_owned(),
    ]));
}
