//! Diagnosis: which known bug classes explain an implementation's failures.
//!
//! Every mutant ([`crate::mutants`]) answers the tests the implementation failed, and each
//! failure is judged on its own evidence ([`mod@evidence`]): a class *explains* a failure when its
//! mutant's answer to that test fits the implementation's, exactly or in some of the differing
//! fields. A crash is explained only by a mutant that crashes there, a rejection only by one
//! that rejects at the same stage, and a wrong value field by field, so that two mistakes in
//! one answer (the size and the hash count both wrong) are each named.
//!
//! Across the run, a class is scored by the failures it explains minus its *false alarms*: the
//! tests the implementation passes and its mutant fails. Only a class with more failures whose
//! values it matches than false alarms, or with no false alarm and more of the implementation's
//! rejections or crashes of one kind fitted than not, is ever named (*credible*): a matching
//! rejection or crash is shared by many classes and cannot outweigh a test the implementation
//! passes and the mutant fails, nor name a bug in an implementation that refuses everything.
//! Of the classes that fit one
//! failure, the best-scored is named (with any of equal score, which the run cannot tell
//! apart). Which classes fit depends only on that failure; the choice among them follows the run. A failure no credible class explains, or whose fields are not
//! all explained, gets "no known bug class explains this failure": a wrong name costs a
//! maintainer more than none. A failure on a vector the reference itself fails is a bad vector,
//! not a bug class. Protocol errors, timeouts and crashes no class explains are adapter faults,
//! not BIP 37 answers: they are diagnosed as such ([`adapter_fault`]), never matched against a
//! class. A crash is matched only where a mutant crashes too (hashing into an empty filter
//! divides by zero: CVE-2013-5700), and named only when that class is credible.
//!
//! The first differing hash function, bit or byte of each failure is the runner's
//! localisation ([`crate::runner::diff`]), already in every report next to the diagnosis.
//! [`kill_table`] turns the diagnosis on the mutants themselves: each must be caught and named.

mod book;
pub mod evidence;
pub mod kill_table;

pub use book::MutantAnswers;

use crate::implementation::{Answer, Fault, Implementation};
use crate::mutants::Bug;
use crate::ops::Output;
use crate::reference_impl::Reference;
use crate::runner::TestResult;
use crate::vectors::{Expectation, LoadedTest};
use evidence::{evidence, fit, Evidence, Fit};
use std::collections::{BTreeMap, BTreeSet};

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

/// True when `answer` passes `test` (an unsupported operation does not pass).
fn passes(test: &LoadedTest, answer: &Answer<Output>) -> bool {
    !matches!(answer, Answer::Unsupported) && !fails(test, answer)
}

/// How well one bug class explains the failures of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub bug: Bug,
    /// The failures (indexes into the tests) its mutant answers identically.
    pub exact: Vec<usize>,
    /// The failures whose differing fields it explains in part, with those fields.
    pub partial: Vec<(usize, Vec<String>)>,
    /// Of those, the failures that carry values it matches (a wrong value, or an accept with
    /// its output), as against a rejection or a crash, which many classes share.
    pub valued: usize,
    /// Failures showing the same rejection (stage) or crash as one it fits that it does not
    /// fit: many of them mean the implementation refuses or crashes everywhere, not like it.
    pub rivals: usize,
    /// Tests the implementation passes and its mutant fails.
    pub false_alarms: usize,
}

impl Finding {
    /// How many failures it explains, exactly or in part.
    pub fn explained(&self) -> usize {
        self.exact.len() + self.partial.len()
    }

    /// Its rank score: failures explained minus false alarms.
    fn score(&self) -> isize {
        self.explained() as isize - self.false_alarms as isize
    }

    /// The order of findings: credible first, then by score, then by exact explanations.
    fn rank_key(&self) -> (bool, std::cmp::Reverse<isize>, std::cmp::Reverse<usize>) {
        (
            !self.credible(),
            std::cmp::Reverse(self.score()),
            std::cmp::Reverse(self.exact.len()),
        )
    }

    /// True when it may be named: the failures whose values it matches outnumber its false
    /// alarms, or, with no false alarm, the rejections and crashes it fits outnumber those of
    /// the same kind it does not. A matching rejection or crash cannot outweigh a test the
    /// implementation passes and the mutant fails, nor name the bug of an implementation that
    /// refuses everything.
    pub fn credible(&self) -> bool {
        let kinds = self.explained() - self.valued;
        self.valued > self.false_alarms || (self.false_alarms == 0 && kinds > self.rivals)
    }

    /// The failures it fits, exactly or in part.
    fn fitted(&self) -> impl Iterator<Item = usize> + '_ {
        self.exact
            .iter()
            .copied()
            .chain(self.partial.iter().map(|(i, _)| *i))
    }

    fn fields_of(&self, index: usize) -> Option<&[String]> {
        self.partial
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, fields)| fields.as_slice())
    }
}

/// What the diagnosis says about one failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The best credible class whose mutant gives this exact answer, with those the run cannot
    /// tell from it (the same score).
    Exact(Vec<Bug>),
    /// Every differing field explained, each by the best credible class whose mutant gets that
    /// field wrong in the same way (and no other field wrong).
    Fields(Vec<(Bug, Vec<String>)>),
    /// No credible class explains it.
    Unknown,
    /// The reference itself fails this vector: the vector is suspect, not the implementation.
    BadVector,
}

impl Verdict {
    /// The classes it names, best first.
    pub fn named(&self) -> Vec<Bug> {
        match self {
            Verdict::Exact(bugs) => bugs.clone(),
            Verdict::Fields(parts) => parts.iter().map(|(bug, _)| *bug).collect(),
            Verdict::Unknown | Verdict::BadVector => Vec::new(),
        }
    }
}

/// The bug classes behind a set of failures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnosis {
    /// Every class that fits at least one failure, credible ones first, ranked by score.
    pub findings: Vec<Finding>,
    /// The failures (indexes into the tests).
    pub failures: Vec<usize>,
    /// The verdict on each failure.
    pub verdicts: BTreeMap<usize, Verdict>,
}

/// Diagnoses the implementation whose answers to `tests` are `answers` (aligned), using the
/// mutants' answers in `book` (aligned with the same tests). A mutant's false alarms are
/// counted over the tests the book holds its answers to.
pub fn diagnose(
    tests: &[&LoadedTest],
    answers: &[&Answer<Output>],
    book: &MutantAnswers,
) -> Diagnosis {
    let shown: BTreeMap<usize, Evidence> = (0..tests.len())
        .filter_map(|i| evidence(tests[i], answers[i]).map(|e| (i, e)))
        .collect();
    let failures: Vec<usize> = shown.keys().copied().collect();
    let bad: BTreeSet<usize> = failures
        .iter()
        .copied()
        .filter(|&i| fails(tests[i], &Reference.execute(&tests[i].request)))
        .collect();
    let mut findings: Vec<Finding> = Bug::ALL
        .iter()
        .map(|&bug| finding(bug, tests, answers, book, &shown, &bad))
        .filter(|f| f.explained() > 0)
        .collect();
    findings.sort_by_key(Finding::rank_key);
    let verdicts = failures
        .iter()
        .map(|&i| {
            let verdict = match (bad.contains(&i), &shown[&i]) {
                (true, _) => Verdict::BadVector,
                (false, Evidence::WrongValue(fields)) => verdict_of(&findings, i, Some(fields)),
                (false, _) => verdict_of(&findings, i, None),
            };
            (i, verdict)
        })
        .collect();
    Diagnosis {
        findings,
        failures,
        verdicts,
    }
}

/// How `bug` fits the failures in `shown` (leaving out bad vectors) and its false alarms.
fn finding(
    bug: Bug,
    tests: &[&LoadedTest],
    answers: &[&Answer<Output>],
    book: &MutantAnswers,
    shown: &BTreeMap<usize, Evidence>,
    bad: &BTreeSet<usize>,
) -> Finding {
    let row = book.of(bug);
    let mutant = |i: usize| row.get(i).and_then(Option::as_ref);
    let mut found = Finding {
        bug,
        exact: Vec::new(),
        partial: Vec::new(),
        valued: 0,
        rivals: 0,
        false_alarms: 0,
    };
    for (&i, ours) in shown.iter().filter(|(i, _)| !bad.contains(i)) {
        let theirs = mutant(i).and_then(|m| evidence(tests[i], m));
        match theirs.and_then(|t| fit(ours, &t)) {
            Some(Fit::Exact) => found.exact.push(i),
            Some(Fit::Fields(fields)) => found.partial.push((i, fields)),
            None => continue,
        }
        found.valued += usize::from(ours.carries_values());
    }
    let fitted: BTreeSet<usize> = found.fitted().collect();
    let kinds: Vec<&Evidence> = fitted
        .iter()
        .map(|i| &shown[i])
        .filter(|e| !e.carries_values())
        .collect();
    found.rivals = shown
        .iter()
        .filter(|(i, e)| !fitted.contains(i) && !bad.contains(i) && kinds.contains(e))
        .count();
    found.false_alarms = (0..tests.len())
        .filter(|&i| passes(tests[i], answers[i]))
        .filter(|&i| mutant(i).is_some_and(|m| fails(tests[i], m)))
        .count();
    found
}

/// The verdict on failure `index`: the credible classes that give its exact answer, or else
/// (for a wrong value, whose differing fields are `fields`) a credible class for every field.
fn verdict_of(
    findings: &[Finding],
    index: usize,
    fields: Option<&BTreeMap<String, serde_json::Value>>,
) -> Verdict {
    let credible = || findings.iter().filter(|f| f.credible());
    let exact: Vec<&Finding> = credible().filter(|f| f.exact.contains(&index)).collect();
    if let Some(best) = exact.first() {
        let tied = exact.iter().filter(|f| f.rank_key() == best.rank_key());
        return Verdict::Exact(tied.map(|f| f.bug).collect());
    }
    let Some(fields) = fields else {
        return Verdict::Unknown;
    };
    let mut unexplained: BTreeSet<&String> = fields.keys().collect();
    let mut parts = Vec::new();
    for f in credible() {
        let Some(explains) = f.fields_of(index) else {
            continue;
        };
        // Every field it explains leaves the set (no short-circuit), then it is named if any did.
        let newly = explains
            .iter()
            .filter(|&field| unexplained.remove(field))
            .count();
        if newly > 0 {
            parts.push((f.bug, explains.to_vec()));
        }
    }
    match unexplained.is_empty() && !parts.is_empty() {
        true => Verdict::Fields(parts),
        false => Verdict::Unknown,
    }
}

impl Diagnosis {
    /// The best-ranked class named for any failure, if one is.
    pub fn top(&self) -> Option<Bug> {
        self.findings
            .iter()
            .find(|f| self.verdicts.values().any(|v| v.named().contains(&f.bug)))
            .map(|f| f.bug)
    }

    /// The classes named for failure `index`, best first (none for a pass or an unknown).
    pub fn named(&self, index: usize) -> Vec<Bug> {
        self.verdicts.get(&index).map_or(Vec::new(), Verdict::named)
    }

    fn finding(&self, bug: Bug) -> Option<&Finding> {
        self.findings.iter().find(|f| f.bug == bug)
    }

    /// How far a class is borne out across the run, for the text of a failure.
    fn support(&self, bug: Bug) -> String {
        let Some(f) = self.finding(bug) else {
            return String::new();
        };
        let mut text = format!(
            "the class explains {} of {} failures",
            f.exact.len(),
            self.failures.len()
        );
        if !f.partial.is_empty() {
            text.push_str(&format!(" and {} more in part", f.partial.len()));
        }
        if f.false_alarms > 0 {
            text.push_str(&format!(
                " and fails {} tests this implementation passes",
                f.false_alarms
            ));
        }
        text
    }

    /// The diagnosis of failure `index` in words.
    pub fn of_failure(&self, index: usize) -> String {
        match self.verdicts.get(&index) {
            None | Some(Verdict::Unknown) => "no known bug class explains this failure".into(),
            Some(Verdict::BadVector) => "bad vector: the reference itself fails this test, so the vector (not the implementation) is suspect".into(),
            Some(Verdict::Exact(bugs)) => {
                let best = bugs[0];
                let mut text = format!(
                    "likely {}: {} (mutant:{} gives this exact answer; {})",
                    best.flag(),
                    best.explanation(),
                    best.name(),
                    self.support(best)
                );
                if bugs.len() > 1 {
                    let names: Vec<&str> = bugs[1..].iter().map(|b| b.flag()).collect();
                    text.push_str(&format!("; also answered so by {}", names.join(", ")));
                }
                text
            }
            Some(Verdict::Fields(parts)) => {
                let heads: Vec<String> = parts
                    .iter()
                    .map(|(bug, fields)| format!("{} (`{}`)", bug.flag(), fields.join("`, `")))
                    .collect();
                let mutants: Vec<String> = parts
                    .iter()
                    .map(|(bug, _)| format!("mutant:{}", bug.name()))
                    .collect();
                let each: Vec<String> = parts
                    .iter()
                    .map(|(bug, _)| {
                        format!(
                            "{}: {} ({})",
                            bug.flag(),
                            bug.explanation(),
                            self.support(*bug)
                        )
                    })
                    .collect();
                format!(
                    "likely {} mistakes at once: {}, each field wrong exactly as {} get it wrong; {}",
                    parts.len(),
                    heads.join(" and "),
                    mutants.join(" and "),
                    each.join("; ")
                )
            }
        }
    }

    /// One line for the whole run.
    pub fn summary(&self) -> String {
        let total = self.failures.len();
        let count = |wanted: &dyn Fn(&Verdict) -> bool| {
            self.verdicts.values().filter(|v| wanted(v)).count()
        };
        let unknown = count(&|v| *v == Verdict::Unknown);
        let bad = count(&|v| *v == Verdict::BadVector);
        let mut text = match self.top().and_then(|bug| self.finding(bug)) {
            None if total == 0 => return "no failures to diagnose".into(),
            None => format!("no known bug class explains any of the {total} failures"),
            Some(best) => {
                let mut text = format!(
                    "likely {} ({} of {total} failures explained by mutant:{}",
                    best.bug.flag(),
                    best.exact.len(),
                    best.bug.name()
                );
                if !best.partial.is_empty() {
                    text.push_str(&format!(" and {} more in part", best.partial.len()));
                }
                text.push(')');
                if unknown > 0 {
                    text.push_str(&format!(
                        "; {unknown} failures not explained by any known bug class"
                    ));
                }
                text
            }
        };
        if bad > 0 {
            text.push_str(&format!(
                "; {bad} failures on vectors the reference itself fails (bad vectors)"
            ));
        }
        text
    }
}

/// Fills the diagnosis slot of every failing result of a run. Every mutant is asked the
/// failing tests; the classes that fit some failure are then asked every test the
/// implementation passes, so that their false alarms are counted over the whole run.
pub fn annotate(results: &mut [TestResult]) -> Diagnosis {
    let tests: Vec<&LoadedTest> = results.iter().map(|r| &r.test).collect();
    let answers: Vec<&Answer<Output>> = results.iter().map(|r| &r.answer).collect();
    let shown: Vec<Option<Evidence>> = (0..tests.len())
        .map(|i| evidence(tests[i], answers[i]))
        .collect();
    let mut book = MutantAnswers::compute(&tests, Bug::ALL, |i| shown[i].is_some());
    let fits = |bug: Bug, i: usize| {
        let theirs = book.of(bug)[i].as_ref().and_then(|m| evidence(tests[i], m));
        matches!((&shown[i], theirs), (Some(ours), Some(t)) if fit(ours, &t).is_some())
    };
    let fitting: Vec<Bug> = Bug::ALL
        .iter()
        .copied()
        .filter(|&bug| (0..tests.len()).any(|i| fits(bug, i)))
        .collect();
    book.ask(&tests, &fitting, |i| passes(tests[i], answers[i]));
    let diagnosis = diagnose(&tests, &answers, &book);
    for &i in &diagnosis.failures {
        results[i].diagnosis = Some(diagnosis.of_failure(i));
    }
    for (i, result) in results.iter_mut().enumerate() {
        let fault = match &result.answer {
            Answer::Fault(fault) if result.state.is_failure() => fault,
            _ => continue,
        };
        if diagnosis.named(i).is_empty()
            && !matches!(diagnosis.verdicts.get(&i), Some(Verdict::BadVector))
        {
            result.diagnosis = Some(adapter_fault(fault));
        }
    }
    diagnosis
}

/// The diagnosis of a fault of the implementation itself (a crash no bug class explains, a
/// timeout, a protocol error): what to look at instead of a bug class.
pub fn adapter_fault(fault: &Fault) -> String {
    let what = match fault {
        Fault::Crash(_) => "the implementation crashed; the end of its stderr names the cause",
        Fault::Timeout => "the implementation did not answer in time (--timeout)",
        Fault::Protocol(_) | Fault::Oversized { .. } => {
            "the answer broke the subprocess protocol (docs/PROTOCOL.md)"
        }
    };
    format!("adapter fault: {what}; not a BIP 37 answer, so no bug class is matched")
}

#[cfg(test)]
mod tests;
