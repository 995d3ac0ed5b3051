//! The mutants' answers to the tests of a run, asked once and shared by every diagnosis made
//! over those tests.

use crate::implementation::{Answer, Implementation};
use crate::mutants::{self, Bug};
use crate::ops::Output;
use crate::vectors::LoadedTest;

/// Per mutant, per test: the mutant's answer, or `None` where it was not asked.
pub struct MutantAnswers {
    /// In [`Bug::ALL`] order, each row aligned with the tests.
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
