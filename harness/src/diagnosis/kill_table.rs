//! The kill table (`bip37-conform mutants`): every mutant run against the vectors, whether
//! some vector kills it, which vectors do, and the diagnosis the harness gives it with the
//! first differing hash function, bit or byte. A mutant
//! that survives, or whose diagnosis does not name its own class first, is a gap in the suite.

use super::{diagnose, Diagnosis, MutantAnswers};
use crate::implementation::Answer;
use crate::mutants::Bug;
use crate::ops::Output;
use crate::runner::diff::first_difference;
use crate::vectors::LoadedTest;
use std::fmt::Write;

/// What the suite makes of one mutant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MutantOutcome {
    pub bug: Bug,
    /// The ids of the tests it fails, in vector order.
    pub killed_by: Vec<String>,
    pub diagnosis: Diagnosis,
    /// Where the first wrong value departs from the expected one (the runner's localisation:
    /// hash function, bit or byte), as `<test id>: <difference>`.
    pub first_difference: Option<String>,
}

impl MutantOutcome {
    /// True when some vector kills the mutant and its diagnosis names its own class first.
    pub fn caught(&self) -> bool {
        !self.killed_by.is_empty() && self.diagnosis.top() == Some(self.bug)
    }
}

/// The answer of a test nobody asked (cannot happen: the table asks every test).
const UNASKED: &Answer<Output> = &Answer::Unsupported;

/// Runs every mutant against `tests` and diagnoses each one as if it were an implementation.
pub fn kill_table(tests: &[LoadedTest]) -> Vec<MutantOutcome> {
    let tests: Vec<&LoadedTest> = tests.iter().collect();
    let book = MutantAnswers::compute(&tests, Bug::ALL, |_| true);
    outcomes(&tests, &book)
}

/// The kill table from every mutant's answers to every test (`book`, aligned with `tests`).
pub fn outcomes(tests: &[&LoadedTest], book: &MutantAnswers) -> Vec<MutantOutcome> {
    Bug::ALL
        .iter()
        .map(|&bug| {
            let answers: Vec<&Answer<Output>> = book
                .of(bug)
                .iter()
                .map(|a| a.as_ref().unwrap_or(UNASKED))
                .collect();
            let diagnosis = diagnose(tests, &answers, book);
            let first_difference = diagnosis.failures.iter().find_map(|&i| match answers[i] {
                Answer::Ok(actual) if tests[i].expected.is_some() => Some(format!(
                    "{}: {}",
                    tests[i].case.id,
                    first_difference(tests[i], actual)
                )),
                _ => None,
            });
            MutantOutcome {
                bug,
                killed_by: diagnosis
                    .failures
                    .iter()
                    .map(|&i| tests[i].case.id.clone())
                    .collect(),
                diagnosis,
                first_difference,
            }
        })
        .collect()
}

/// The table as text: mutant, killed or not, the killing vectors, the diagnosis given.
pub fn render(outcomes: &[MutantOutcome]) -> String {
    const SHOWN: usize = 3;
    let mut out = String::from("mutant\tkilled\tkilling vectors\tdiagnosis\n");
    for o in outcomes {
        let mut killers = o.killed_by[..o.killed_by.len().min(SHOWN)].join(" ");
        if o.killed_by.len() > SHOWN {
            let _ = write!(killers, " (+{} more)", o.killed_by.len() - SHOWN);
        }
        let verdict = match (o.killed_by.is_empty(), o.caught()) {
            (true, _) => "SURVIVED",
            (false, true) => "killed",
            (false, false) => "killed, MISDIAGNOSED",
        };
        let mut diagnosis = o.diagnosis.summary();
        if let Some(difference) = &o.first_difference {
            let _ = write!(diagnosis, "; first difference at {difference}");
        }
        let _ = writeln!(
            out,
            "mutant:{}\t{verdict}\t{}\t{diagnosis}",
            o.bug.name(),
            if killers.is_empty() { "-" } else { &killers },
        );
    }
    let caught = outcomes.iter().filter(|o| o.caught()).count();
    let _ = writeln!(
        out,
        "{caught} of {} mutants killed and diagnosed as their own bug class",
        outcomes.len()
    );
    out
}
