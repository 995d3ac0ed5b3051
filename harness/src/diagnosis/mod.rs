//! Diagnosis: which known bug classes explain an implementation's failures.
//!
//! Every mutant ([`crate::mutants`]) answers the same requests as the implementation. A bug
//! class explains a failure EXACTLY when its mutant gives the same answer (the same value, or
//! a rejection where the implementation rejected); it is merely CONSISTENT with it when its
//! mutant fails that test too, with another answer. Classes are ranked by the failures they
//! explain exactly, then by those they are consistent with, then by their false alarms (tests
//! the implementation passes and the mutant fails), so the class that behaves most like the
//! implementation comes first. A failure no class explains is said to be unexplained, plainly.
//! Protocol errors and timeouts are not diagnosed: they are about the adapter, not BIP 37.
//!
//! The first differing hash function, bit or byte of each failure is the runner's
//! localisation ([`crate::runner::diff`]), already in every report next to the diagnosis.

use crate::implementation::{Answer, Fault, Implementation};
use crate::mutants::{self, Bug};
use crate::ops::{OpName, Output};
use crate::runner::TestResult;
use crate::vectors::{Expectation, LoadedTest};
use std::collections::BTreeSet;

/// True when `answer` fails `test` (an unsupported operation is not a failure).
pub fn fails(test: &LoadedTest, answer: &Answer<Output>) -> bool {
    match (answer, test.case.result) {
        (Answer::Ok(value), Expectation::Valid | Expectation::Acceptable) => {
            test.expected.as_ref() != Some(value)
        }
        (Answer::Ok(_), Expectation::Invalid) => true,
        (Answer::Rejected(_), result) => result == Expectation::Valid,
        (Answer::Unsupported, _) => false,
        (Answer::Fault(_), _) => true,
    }
}

/// False for the answers that say nothing about BIP 37 (a protocol error, a timeout): the
/// diagnosis leaves those failures to the report's own message.
fn about_bip37(answer: &Answer<Output>) -> bool {
    !matches!(
        answer,
        Answer::Fault(Fault::Protocol(_)) | Answer::Fault(Fault::Timeout)
    )
}

/// True when two answers are the same for diagnosis: equal values, two rejections (whatever
/// their words), or the same kind of fault.
fn same_answer(a: &Answer<Output>, b: &Answer<Output>) -> bool {
    match (a, b) {
        (Answer::Ok(x), Answer::Ok(y)) => x == y,
        (Answer::Rejected(_), Answer::Rejected(_)) | (Answer::Unsupported, Answer::Unsupported) => {
            true
        }
        (Answer::Fault(x), Answer::Fault(y)) => {
            std::mem::discriminant::<Fault>(x) == std::mem::discriminant(y)
        }
        _ => false,
    }
}

/// The mutants' answers to a list of tests, asked once and shared by all the diagnoses made
/// over those tests.
pub struct MutantAnswers {
    /// Per mutant (in [`Bug::ALL`] order), per test: the answer, or `None` if not asked.
    answers: Vec<(Bug, Vec<Option<Answer<Output>>>)>,
}

impl MutantAnswers {
    /// Asks the mutants of `bugs` the tests (by index) for which `wanted` holds.
    pub fn compute(tests: &[&LoadedTest], bugs: &[Bug], wanted: impl Fn(usize) -> bool) -> Self {
        let mut book = Self {
            answers: Bug::ALL
                .iter()
                .map(|&bug| (bug, vec![None; tests.len()]))
                .collect(),
        };
        book.ask(tests, bugs, wanted);
        book
    }

    /// Asks the mutants of `bugs` the wanted tests they have not answered yet.
    pub fn ask(&mut self, tests: &[&LoadedTest], bugs: &[Bug], wanted: impl Fn(usize) -> bool) {
        for (bug, row) in self.answers.iter_mut().filter(|(b, _)| bugs.contains(b)) {
            let mut mutant = mutants::Mutant { bug: *bug };
            for (i, slot) in row.iter_mut().enumerate() {
                if slot.is_none() && wanted(i) {
                    *slot = Some(mutant.execute(&tests[i].request));
                }
            }
        }
    }

    /// The answers of the mutant of `bug`, aligned with the tests.
    pub fn of(&self, bug: Bug) -> &[Option<Answer<Output>>] {
        self.answers
            .iter()
            .find(|(b, _)| *b == bug)
            .map_or(&[], |(_, row)| row.as_slice())
    }
}

/// How well one bug class explains the failures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub bug: Bug,
    /// The failures (indexes into the tests) its mutant answers identically.
    pub exact: Vec<usize>,
    /// The failures its mutant fails too, identically or not.
    pub consistent: Vec<usize>,
    /// Tests the implementation passes and its mutant fails.
    pub false_alarms: usize,
}

/// The bug classes behind a set of failures, best explanation first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnosis {
    /// Every class consistent with at least one failure, ranked.
    pub findings: Vec<Finding>,
    /// The failures (indexes into the tests).
    pub failures: Vec<usize>,
    /// The failures no class is even consistent with.
    pub unexplained: Vec<usize>,
}

/// Diagnoses the implementation whose answers to `tests` are `answers` (aligned), using the
/// mutants' answers in `book` (aligned with the same tests).
pub fn diagnose(
    tests: &[&LoadedTest],
    answers: &[&Answer<Output>],
    book: &MutantAnswers,
) -> Diagnosis {
    let failures: Vec<usize> = (0..tests.len())
        .filter(|&i| fails(tests[i], answers[i]) && about_bip37(answers[i]))
        .collect();
    let mut findings: Vec<Finding> = Bug::ALL
        .iter()
        .map(|&bug| {
            let row = book.of(bug);
            let mutant = |i: usize| row.get(i).and_then(Option::as_ref);
            let consistent: Vec<usize> = failures
                .iter()
                .copied()
                .filter(|&i| mutant(i).is_some_and(|m| fails(tests[i], m)))
                .collect();
            let exact = consistent
                .iter()
                .copied()
                .filter(|&i| mutant(i).is_some_and(|m| same_answer(m, answers[i])))
                .collect();
            let false_alarms = (0..tests.len())
                .filter(|&i| !fails(tests[i], answers[i]))
                .filter(|&i| mutant(i).is_some_and(|m| fails(tests[i], m)))
                .count();
            Finding {
                bug,
                exact,
                consistent,
                false_alarms,
            }
        })
        .filter(|f| !f.consistent.is_empty())
        .collect();
    findings.sort_by_key(|f| {
        (
            std::cmp::Reverse(f.exact.len()),
            std::cmp::Reverse(f.consistent.len()),
            f.false_alarms,
        )
    });
    let covered: BTreeSet<usize> = findings.iter().flat_map(|f| f.consistent.clone()).collect();
    let unexplained = failures
        .iter()
        .copied()
        .filter(|i| !covered.contains(i))
        .collect();
    Diagnosis {
        findings,
        failures,
        unexplained,
    }
}

impl Diagnosis {
    /// The best explanation, if any class explains a failure.
    pub fn top(&self) -> Option<Bug> {
        self.findings.first().map(|f| f.bug)
    }

    /// The diagnosis of failure `index`: the best-ranked class that gives the same answer, or
    /// else one whose mutant fails it too, or a plain statement that no known class explains it.
    pub fn of_failure(&self, index: usize) -> String {
        let total = self.failures.len();
        let exact: Vec<&Finding> = self
            .findings
            .iter()
            .filter(|f| f.exact.contains(&index))
            .collect();
        if let Some((best, others)) = exact.split_first() {
            let mut text = format!(
                "likely {}: {} (mutant:{} gives this exact answer; the class explains {} of {} failures)",
                best.bug.flag(),
                best.bug.explanation(),
                best.bug.name(),
                best.exact.len(),
                total
            );
            if !others.is_empty() {
                let names: Vec<&str> = others.iter().map(|f| f.bug.flag()).collect();
                text.push_str(&format!("; also answered so by {}", names.join(", ")));
            }
            return text;
        }
        match self.findings.iter().find(|f| f.consistent.contains(&index)) {
            Some(f) => format!(
                "no known bug class gives this exact answer; closest: {} ({}), whose mutant fails this test with another answer",
                f.bug.flag(),
                f.bug.explanation()
            ),
            None => "no known bug class explains this failure".to_string(),
        }
    }

    /// One line for the whole run.
    pub fn summary(&self) -> String {
        match self.findings.first() {
            None if self.failures.is_empty() => "no failures to diagnose".into(),
            None => format!(
                "no known bug class explains any of the {} failures",
                self.failures.len()
            ),
            Some(best) => {
                let mut text = format!(
                    "likely {} ({} of {} failures answered identically by mutant:{})",
                    best.bug.flag(),
                    best.exact.len(),
                    self.failures.len(),
                    best.bug.name()
                );
                if !self.unexplained.is_empty() {
                    text.push_str(&format!(
                        "; {} failures not explained by any known bug class",
                        self.unexplained.len()
                    ));
                }
                text
            }
        }
    }
}

/// Fills the diagnosis slot of every failing result of a run. Every mutant is asked the
/// failing tests; only when several classes explain them equally well are those few asked the
/// passing tests of the failing operations too, so their false alarms can tell them apart.
pub fn annotate(results: &mut [TestResult]) -> Diagnosis {
    let tests: Vec<&LoadedTest> = results.iter().map(|r| &r.test).collect();
    let answers: Vec<&Answer<Output>> = results.iter().map(|r| &r.answer).collect();
    let failing: Vec<bool> = (0..tests.len())
        .map(|i| fails(tests[i], answers[i]) && about_bip37(answers[i]))
        .collect();
    let mut book = MutantAnswers::compute(&tests, Bug::ALL, |i| failing[i]);
    let mut diagnosis = diagnose(&tests, &answers, &book);
    let score = |f: &Finding| (f.exact.len(), f.consistent.len());
    let tied: Vec<Bug> = match diagnosis.findings.first() {
        Some(best) => diagnosis
            .findings
            .iter()
            .filter(|f| score(f) == score(best))
            .map(|f| f.bug)
            .collect(),
        None => Vec::new(),
    };
    if tied.len() > 1 {
        let failing_ops: BTreeSet<OpName> = (0..tests.len())
            .filter(|&i| failing[i])
            .map(|i| tests[i].request.op())
            .collect();
        book.ask(&tests, &tied, |i| {
            failing_ops.contains(&tests[i].request.op())
        });
        diagnosis = diagnose(&tests, &answers, &book);
    }
    let texts: Vec<(usize, String)> = diagnosis
        .failures
        .iter()
        .map(|&i| (i, diagnosis.of_failure(i)))
        .collect();
    for (i, text) in texts {
        results[i].diagnosis = Some(text);
    }
    diagnosis
}

#[cfg(test)]
mod tests {
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
}
