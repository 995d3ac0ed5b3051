//! The enumeration of Core's steps (`docs/CORE-STEPS.md`) and the `bugs!` registry agree:
//! every step names an existing class, every class breaks some step, and the vector a step
//! names separates its class with the fewest capabilities (it carries the class's flag, and no
//! vector of a cheaper operation does).

use bip37_conform::vector_set;
use bip37_harness::mutants::Bug;
use bip37_harness::ops::OpName;
use bip37_harness::vectors::LoadedTest;
use std::collections::{BTreeMap, BTreeSet};

mod common;
use common::core_steps::steps;

/// What an implementation must offer to answer an operation, cheapest first (the order
/// `docs/CORE-STEPS.md` states).
fn cost(op: OpName) -> u8 {
    use OpName::*;
    match op {
        Murmur3 | HashSeed | Sizing | FilterloadDecode | FilteraddDecode | PmtBuild
        | PmtExtract => 1,
        BitIndexes | FilterloadAccept | FilteraddAccept => 2,
        BuildFilter => 3,
        MatchTx => 4,
        MerkleBlock => 5,
        Sequence => 6,
    }
}

#[test]
fn step_ids_are_unique_and_the_enumeration_is_not_empty() {
    let steps = steps();
    let ids: BTreeSet<&str> = steps.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids.len(), steps.len(), "a step id appears twice");
    assert!(steps.iter().filter(|s| s.class.is_some()).count() >= Bug::ALL.len());
}

#[test]
fn every_step_names_a_class_and_every_class_a_step() {
    let flags: BTreeSet<&str> = Bug::ALL.iter().map(|b| b.flag()).collect();
    let steps = steps();
    let named: BTreeSet<&str> = steps
        .iter()
        .filter_map(|s| s.class.as_ref().map(|(class, _)| class.as_str()))
        .collect();
    let not_classes: Vec<&&str> = named.difference(&flags).collect();
    let without_step: Vec<&&str> = flags.difference(&named).collect();
    assert!(
        not_classes.is_empty() && without_step.is_empty(),
        "steps naming no class of the registry: {not_classes:?}\n\
         classes no step of docs/CORE-STEPS.md names: {without_step:?}"
    );
}

#[test]
fn each_steps_vector_separates_its_class_with_the_fewest_capabilities() {
    let tests: Vec<LoadedTest> = vector_set::load(None).expect("the built-in vectors load");
    let by_id: BTreeMap<&str, &LoadedTest> =
        tests.iter().map(|t| (t.case.id.as_str(), t)).collect();
    let mut problems = Vec::new();
    for step in steps() {
        let Some((class, vector)) = &step.class else {
            continue;
        };
        let Some(test) = by_id.get(vector.as_str()) else {
            problems.push(format!("{}: no vector {vector}", step.id));
            continue;
        };
        if !test.case.flags.contains(class) {
            problems.push(format!("{}: {vector} does not carry {class}", step.id));
        }
        let cheapest = tests
            .iter()
            .filter(|t| t.case.flags.contains(class))
            .min_by_key(|t| cost(t.request.op()));
        if let Some(cheapest) = cheapest.filter(|c| cost(c.request.op()) < cost(test.request.op()))
        {
            problems.push(format!(
                "{}: {vector} ({}) needs more than {} ({}), which also separates {class}",
                step.id,
                test.request.op(),
                cheapest.case.id,
                cheapest.request.op()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
