//! The suite proves it catches every bug class: every mutant (the reference with one classic
//! mistake) fails some vector, the diagnosis of every mutant names its own class first, every
//! bug class has a vector and a mutant, and the same holds when a mutant answers over the
//! subprocess protocol (`bip37-conform serve --mutant`).
//!
//! A bug class is every note of the vector files whose `bugType` is not `DIVERGENCE`: a
//! divergence note explains why an `acceptable` test tolerates two behaviours, so it names no
//! mistake a mutant could make.

use bip37_conform::vector_set;
use bip37_harness::diagnosis::kill_table as table;
use bip37_harness::diagnosis::{diagnose, fails, MutantAnswers};
use bip37_harness::implementation::Answer;
use bip37_harness::mutants::{self, Bug};
use bip37_harness::ops::Output;
use bip37_harness::runner::{run_tests, RunOptions};
use bip37_harness::subprocess::{ClientConfig, Subprocess};
use bip37_harness::vectors::{BugType, LoadedFile, LoadedTest};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// The suite's vector files (those built into the harness).
fn vector_files() -> Vec<LoadedFile> {
    vector_set::load_files(None).expect("the vector files load")
}

/// Every test, and every mutant's answer to it: computed once, shared by the tests below.
fn suite() -> &'static (Vec<LoadedTest>, MutantAnswers) {
    static SUITE: OnceLock<(Vec<LoadedTest>, MutantAnswers)> = OnceLock::new();
    SUITE.get_or_init(|| {
        let tests: Vec<LoadedTest> = vector_files().into_iter().flat_map(|f| f.tests).collect();
        let book = MutantAnswers::compute(&tests.iter().collect::<Vec<_>>(), Bug::ALL, |_| true);
        (tests, book)
    })
}

#[test]
fn every_mutant_is_killed_and_diagnosed_as_its_own_class() {
    let (tests, book) = suite();
    let outcomes = table::outcomes(&tests.iter().collect::<Vec<_>>(), book);
    let gaps: Vec<String> = outcomes
        .iter()
        .filter(|o| !o.caught())
        .map(|o| match o.killed_by.is_empty() {
            true => format!("mutant:{} survives every vector", o.bug.name()),
            false => format!(
                "mutant:{} is diagnosed as {:?}: {}",
                o.bug.name(),
                o.diagnosis.top().map(Bug::flag),
                o.diagnosis.summary()
            ),
        })
        .collect();
    assert!(gaps.is_empty(), "{}", gaps.join("\n"));
}

/// The bug classes the vector files define: flag -> its bug type.
fn noted_classes() -> BTreeMap<String, BugType> {
    vector_files()
        .into_iter()
        .flat_map(|f| f.file.notes)
        .map(|(flag, note)| (flag, note.bug_type))
        .collect()
}

#[test]
fn every_bug_class_has_a_vector_and_a_mutant_and_every_mutant_a_class() {
    let notes = noted_classes();
    let classes: BTreeSet<&str> = notes
        .iter()
        .filter(|(_, &bug_type)| bug_type != BugType::Divergence)
        .map(|(flag, _)| flag.as_str())
        .collect();
    let flagged: BTreeSet<String> = suite()
        .0
        .iter()
        .flat_map(|t| t.case.flags.clone())
        .collect();
    let mutant_classes: BTreeSet<&str> = Bug::ALL.iter().map(|b| b.flag()).collect();
    let without_vector: Vec<&&str> = classes.iter().filter(|c| !flagged.contains(**c)).collect();
    let without_mutant: Vec<&&str> = classes.difference(&mutant_classes).collect();
    let not_a_class: Vec<&&str> = mutant_classes.difference(&classes).collect();
    assert!(
        without_vector.is_empty() && without_mutant.is_empty() && not_a_class.is_empty(),
        "bug classes without a vector: {without_vector:?}\n\
         bug classes without a mutant: {without_mutant:?}\n\
         mutants whose class no vector file defines: {not_a_class:?}"
    );
}

/// One mutant of each area (hash, seed, sizing, filter bits, layout, crash on an untrusted
/// length, limits, matching, merkle packing and checks, session): run over the protocol,
/// killed and diagnosed as itself.
const OVER_THE_PROTOCOL: &[Bug] = &[
    Bug::SignExtendedTail,
    Bug::SeedNotWrapped,
    Bug::FloatHashCount,
    Bug::MsbFirstBits,
    Bug::BigEndianLength,
    Bug::UntrustedLengthAllocation,
    Bug::NoFilterSizeLimit,
    Bug::TxidDisplayOrder,
    Bug::PmtBitOrder,
    Bug::PmtIdenticalSiblingsAccepted,
    Bug::UpdatesNotPersisted,
];

#[test]
fn the_subprocess_path_kills_and_diagnoses_like_the_built_in_path() {
    let (tests, book) = suite();
    let selected: Vec<&LoadedTest> = tests.iter().collect();
    for &bug in OVER_THE_PROTOCOL {
        let argv = vec![
            env!("CARGO_BIN_EXE_bip37-conform").to_string(),
            "serve".to_string(),
            "--mutant".to_string(),
            bug.name().to_string(),
        ];
        let mut child = Subprocess::start(ClientConfig::new(argv)).expect("the mutant serves");
        let run = run_tests(&selected, &mut child, &RunOptions::default());
        let answers: Vec<&Answer<Output>> = run.results.iter().map(|r| &r.answer).collect();
        let diagnosis = diagnose(&selected, &answers, book);
        let built_in: Vec<usize> = (0..selected.len())
            .filter(|&i| {
                book.of(bug)[i]
                    .as_ref()
                    .is_some_and(|a| fails(selected[i], a))
            })
            .collect();
        assert!(
            !diagnosis.failures.is_empty(),
            "mutant:{} survives over the protocol",
            bug.name()
        );
        assert_eq!(
            diagnosis.failures,
            built_in,
            "mutant:{} fails other tests over the protocol than built in",
            bug.name()
        );
        assert_eq!(diagnosis.top(), Some(bug), "{}", diagnosis.summary());
    }
}

#[test]
fn every_mutant_is_a_builtin() {
    for mutant in mutants::all() {
        let name = format!("mutant:{}", mutant.bug.name());
        let built = bip37_conform::builtins::builtin(&name).expect("a known mutant");
        assert_eq!(built.name(), name);
    }
    let err = bip37_conform::builtins::builtin("mutant:nope").err();
    assert!(err.is_some_and(|e| e.contains("mutant:")));
}
