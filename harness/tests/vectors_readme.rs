//! The operation examples of `vectors/README.md` are real: every one parses as its operation's
//! input and output, the reference answers exactly its `expected`, and every operation has one.

use bip37_harness::implementation::{Answer, Implementation};
use bip37_harness::ops::{OpName, Output, Request};
use bip37_harness::reference_impl::Reference;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// The ```json blocks of the README that hold an `operation`.
fn examples() -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors/README.md");
    let text = std::fs::read_to_string(&path).unwrap();
    text.split("```json\n")
        .skip(1)
        .filter_map(|block| block.split("\n```").next())
        .map(|json| serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}")))
        .filter(|v: &Value| v.get("operation").is_some())
        .collect()
}

#[test]
fn every_example_is_answered_by_the_reference() {
    let mut covered = BTreeSet::new();
    for example in examples() {
        let name = example["operation"].as_str().unwrap();
        let op = OpName::from_name(name).unwrap_or_else(|| panic!("unknown operation {name}"));
        covered.insert(op);
        let request = Request::from_json(op, &example["input"]).unwrap();
        let expected = Output::from_json(op, &example["expected"]).unwrap();
        match Reference.execute(&request) {
            Answer::Ok(got) => assert_eq!(got, expected, "{name}: got {}", got.to_json()),
            other => panic!("{name}: the reference answers {other:?}"),
        }
    }
    let missing: Vec<_> = OpName::ALL
        .iter()
        .filter(|op| !covered.contains(op))
        .collect();
    assert!(missing.is_empty(), "no README example for {missing:?}");
}
