use super::*;
use crate::ops::{Murmur3Input, Murmur3Output, Request};
use crate::vectors::load::TestGroupInfo;
use crate::vectors::{Phase, Source, TestCase};

fn murmur_test(id: &str, seed: u32, data: &[u8]) -> LoadedTest {
    let request = Request::Murmur3(Murmur3Input {
        seed,
        data: data.into(),
    });
    let hash = bip37_reference::murmur3(seed, data);
    LoadedTest {
        file: "t_test.json".into(),
        group: TestGroupInfo {
            index: 0,
            operation: request.op(),
            source: Source::Generated {
                generator: "unit".into(),
                targets: "diagnosis".into(),
            },
            comment: String::new(),
        },
        case: TestCase {
            id: id.into(),
            comment: String::new(),
            flags: Vec::new(),
            result: Expectation::Valid,
            phase: Phase::Hash,
            input: Default::default(),
            expected: None,
        },
        request,
        expected: Some(Output::Murmur3(Murmur3Output { hash })),
    }
}

/// An implementation's answers: the mutant of `bug`, except where `wrong` says otherwise.
fn diagnose_as(bug: Bug, tests: &[LoadedTest], wrong: Option<(usize, u32)>) -> Diagnosis {
    let refs: Vec<&LoadedTest> = tests.iter().collect();
    let book = MutantAnswers::compute(&refs, Bug::ALL, |_| true);
    let mut answers: Vec<Answer<Output>> =
        book.of(bug).iter().map(|a| a.clone().unwrap()).collect();
    if let Some((i, hash)) = wrong {
        answers[i] = Answer::Ok(Output::Murmur3(Murmur3Output { hash }));
    }
    let answer_refs: Vec<&Answer<Output>> = answers.iter().collect();
    diagnose(&refs, &answer_refs, &book)
}

fn tests() -> Vec<LoadedTest> {
    vec![
        murmur_test("a", 0, b"\x00\x11"),
        murmur_test("b", 0, b"\xff"),
        murmur_test("c", 0, b"\x00\x11\x22\x33"),
        // No block and no tail: every mutant hashes it right.
        murmur_test("d", 7, b""),
    ]
}

#[test]
fn a_mutant_is_diagnosed_as_its_own_class() {
    for bug in [Bug::MurmurTail, Bug::SignExtendedTail, Bug::BigEndianBlocks] {
        let d = diagnose_as(bug, &tests(), None);
        assert_eq!(d.top(), Some(bug), "{d:?}");
        assert!(d.of_failure(d.failures[0]).contains(bug.flag()));
        assert!(d.summary().starts_with(&format!("likely {}", bug.flag())));
    }
}

#[test]
fn annotate_fills_the_slot_of_every_failure() {
    use crate::runner::{run_tests, RunOptions};
    let tests = tests();
    let refs: Vec<&LoadedTest> = tests.iter().collect();
    let mut mutant = crate::mutants::Mutant {
        bug: Bug::MurmurTail,
    };
    let mut run = run_tests(&refs, &mut mutant, &RunOptions::default());
    let d = annotate(&mut run.results);
    assert_eq!(d.top(), Some(Bug::MurmurTail));
    for r in &run.results {
        assert_eq!(
            r.diagnosis.is_some(),
            r.state.is_failure(),
            "{}",
            r.test.case.id
        );
    }
    assert!(run.results[0]
        .diagnosis
        .as_ref()
        .is_some_and(|d| d.starts_with("likely MurmurTail")));
}

#[test]
fn an_unknown_wrong_answer_is_said_to_be_unexplained() {
    let d = diagnose_as(Bug::MsbFirstBits, &tests(), Some((3, 12345)));
    assert_eq!(d.failures, vec![3]);
    assert_eq!(d.of_failure(3), "no known bug class explains this failure");
    assert!(d.summary().contains("no known bug class explains"));
}
