//! Diagnosis: which known bug classes explain an implementation's failures.
//!
//! Every mutant ([`crate::mutants`]) answers the tests the implementation failed, and each
//! failure is judged on its own evidence ([`mod@evidence`]): a class *explains* a failure when its
//! mutant's answer to that test fits the implementation's, exactly or in some of the differing
//! fields. A crash is explained only by a mutant that crashes there, a rejection only by one
//! that rejects at the same stage, and a wrong value field by field, so that two mistakes in
//! one answer (the size and the hash count both wrong) are each named.
//!
//! Across the run, a class is *refuted* by each test that shows it is not this
//! implementation's bug: a test the implementation passes and its mutant fails (a *false
//! alarm*), and, for a rejection or crash it fits, a failure with the same rejection (stage)
//! or crash that its mutant does not give (a *rival*: the implementation refuses or crashes
//! more widely than the class does). Which classes fit a failure depends on that failure
//! alone; a narrower run (`--id`, `--op`) holds a subset of the tests, so it can only lose
//! refutations. The verdict on a failure is therefore built so that a narrower run is never
//! more sure than the whole one:
//!
//! - the classes whose mutant gives this exact answer and that nothing refutes are named, all
//!   of them (the run cannot tell them apart), except one whose fitted failures another of
//!   them fits too, and more: that one stays a candidate (the same evidence, a lesser
//!   explanation). A narrower run, which sees fewer failures, may name such a candidate
//!   beside the class the whole run names;
//! - when every such class is refuted and the answer carries values (a wrong value, an
//!   accept), they are still named, with the tests that refute each: a byte-identical answer
//!   is evidence a maintainer needs, the refutation too;
//! - with no exact fit, a wrong value whose every differing field is got wrong the same way by
//!   some unrefuted class is explained field by field (two mistakes in one answer);
//! - otherwise "no known bug class explains this failure", listing the refuted classes that
//!   fit it. A wrong name costs a maintainer more than none.
//!
//! So the classes a narrower run names are always among the classes that fit that failure in
//! the whole run (named, or listed as candidates), and a narrower run that names a class for
//! it names one the whole run names too. A failure on a vector the reference itself fails is a bad
//! vector, not a bug class. Protocol errors, timeouts and crashes no class explains are adapter
//! faults, not BIP 37 answers: they are diagnosed as such ([`adapter_fault`]), never matched
//! against a class. A crash is matched only where a mutant crashes too (hashing into an empty
//! filter divides by zero: CVE-2013-5700).
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
        // Never the expected value: no expected value is wider than 32 bits.
        (Answer::Wide(_) | Answer::Fault(_), _) => true,
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
    /// fit: the implementation refuses or crashes more widely than this class.
    pub rivals: usize,
    /// Tests the implementation passes and its mutant fails.
    pub false_alarms: usize,
    /// The tests that refute it (its false alarms and rivals), in test order.
    pub refutations: Vec<usize>,
}

impl Finding {
    /// How many failures it explains, exactly or in part.
    pub fn explained(&self) -> usize {
        self.exact.len() + self.partial.len()
    }

    /// True when no test of the run refutes it.
    pub fn unrefuted(&self) -> bool {
        self.refutations.is_empty()
    }

    /// The order of findings: unrefuted first, then by failures explained, then by exact
    /// explanations (the order classes are listed in, never which are named).
    fn rank_key(&self) -> (bool, std::cmp::Reverse<usize>, std::cmp::Reverse<usize>) {
        (
            !self.unrefuted(),
            std::cmp::Reverse(self.explained()),
            std::cmp::Reverse(self.exact.len()),
        )
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
    /// The unrefuted classes whose mutant gives this exact answer, best ranked first: the run
    /// cannot tell them apart. A class whose fitted failures another of them fits too, and
    /// more, is left to the candidates: the evidence is the same, the other explains more.
    Exact(Vec<Bug>),
    /// The classes whose mutant gives this exact answer (which carries values), when every such
    /// class is refuted by some test of the run: those refuted by the fewest tests.
    Refuted(Vec<Bug>),
    /// Every differing field explained by an unrefuted class whose mutant gets that field
    /// wrong in the same way (and no other field wrong); every such class is listed.
    Fields(Vec<(Bug, Vec<String>)>),
    /// No class explains it without refutation.
    Unknown,
    /// The reference itself fails this vector: the vector is suspect, not the implementation.
    BadVector,
}

impl Verdict {
    /// The classes it names, best first.
    pub fn named(&self) -> Vec<Bug> {
        match self {
            Verdict::Exact(bugs) | Verdict::Refuted(bugs) => bugs.clone(),
            Verdict::Fields(parts) => parts.iter().map(|(bug, _)| *bug).collect(),
            Verdict::Unknown | Verdict::BadVector => Vec::new(),
        }
    }

    /// The classes it names that no test of the run refutes.
    pub fn likely(&self) -> Vec<Bug> {
        match self {
            Verdict::Refuted(_) => Vec::new(),
            other => other.named(),
        }
    }
}

/// The bug classes behind a set of failures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnosis {
    /// Every class that fits at least one failure, unrefuted ones first, ranked.
    pub findings: Vec<Finding>,
    /// The failures (indexes into the tests).
    pub failures: Vec<usize>,
    /// The verdict on each failure.
    pub verdicts: BTreeMap<usize, Verdict>,
    /// The id of each test, for naming the tests that refute a class.
    pub ids: Vec<String>,
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
            let valued = shown[&i].carries_values();
            let verdict = match (bad.contains(&i), &shown[&i]) {
                (true, _) => Verdict::BadVector,
                (false, Evidence::WrongValue(fields)) => {
                    verdict_of(&findings, i, valued, Some(fields))
                }
                (false, _) => verdict_of(&findings, i, valued, None),
            };
            (i, verdict)
        })
        .collect();
    Diagnosis {
        findings,
        failures,
        verdicts,
        ids: tests.iter().map(|t| t.case.id.clone()).collect(),
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
        refutations: Vec::new(),
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
    let rivals: BTreeSet<usize> = shown
        .iter()
        .filter(|(i, e)| !fitted.contains(i) && !bad.contains(i) && kinds.contains(e))
        .map(|(&i, _)| i)
        .collect();
    let false_alarms: BTreeSet<usize> = (0..tests.len())
        .filter(|&i| passes(tests[i], answers[i]))
        .filter(|&i| mutant(i).is_some_and(|m| fails(tests[i], m)))
        .collect();
    found.rivals = rivals.len();
    found.false_alarms = false_alarms.len();
    found.refutations = rivals.union(&false_alarms).copied().collect();
    found
}

/// The verdict on failure `index` (whose evidence carries values when `valued`): the
/// unrefuted classes that give its exact answer; else, when some class gives it and it carries
/// values, those classes as refuted; else (for a wrong value, whose differing fields are
/// `fields`) an unrefuted class for every field.
fn verdict_of(
    findings: &[Finding],
    index: usize,
    valued: bool,
    fields: Option<&BTreeMap<String, serde_json::Value>>,
) -> Verdict {
    let exact: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.exact.contains(&index))
        .collect();
    let unrefuted: Vec<&Finding> = exact.iter().copied().filter(|f| f.unrefuted()).collect();
    // Of those, a class whose fitted failures another of them fits too, and more besides, is
    // the lesser explanation of the same evidence: the other is named, it stays a candidate.
    let dominated = |f: &Finding| {
        let own: BTreeSet<usize> = f.fitted().collect();
        unrefuted.iter().any(|g| {
            let other: BTreeSet<usize> = g.fitted().collect();
            own.len() < other.len() && own.is_subset(&other)
        })
    };
    let named: Vec<Bug> = (unrefuted.iter().filter(|f| !dominated(f)))
        .map(|f| f.bug)
        .collect();
    if !named.is_empty() {
        return Verdict::Exact(named);
    }
    // The least refuted of them: the class the run contradicts least.
    let fewest = exact.iter().map(|f| f.refutations.len()).min();
    if let (true, Some(fewest)) = (valued, fewest) {
        let least = exact.iter().filter(|f| f.refutations.len() == fewest);
        return Verdict::Refuted(least.map(|f| f.bug).collect());
    }
    let Some(fields) = fields else {
        return Verdict::Unknown;
    };
    let parts: Vec<(Bug, Vec<String>)> = findings
        .iter()
        .filter(|f| f.unrefuted())
        .filter_map(|f| f.fields_of(index).map(|own| (f.bug, own.to_vec())))
        .collect();
    let explained: BTreeSet<&String> = parts.iter().flat_map(|(_, own)| own).collect();
    match !parts.is_empty() && fields.keys().all(|field| explained.contains(field)) {
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

    /// The classes named for failure `index`, best first (none for a pass or an unknown);
    /// refuted ones only when every class giving its exact answer is refuted.
    pub fn named(&self, index: usize) -> Vec<Bug> {
        self.verdicts.get(&index).map_or(Vec::new(), Verdict::named)
    }

    fn finding(&self, bug: Bug) -> Option<&Finding> {
        self.findings.iter().find(|f| f.bug == bug)
    }

    /// Every class that fits failure `index`, exactly or in part, refuted or not: what a
    /// narrower run may name for it (which depends on the failure alone).
    pub fn candidates(&self, index: usize) -> Vec<Bug> {
        self.findings
            .iter()
            .filter(|f| f.fitted().any(|i| i == index))
            .map(|f| f.bug)
            .collect()
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
        text
    }

    /// Which tests refute a class, in words (at most three ids, then how many more).
    fn refuted_by(&self, bug: Bug) -> String {
        let Some(f) = self.finding(bug) else {
            return String::new();
        };
        let mut ids: Vec<&str> = f
            .refutations
            .iter()
            .take(3)
            .map(|&i| self.ids.get(i).map_or("?", String::as_str))
            .collect();
        let more = f.refutations.len().saturating_sub(ids.len());
        let more = (more > 0).then(|| format!("{more} more"));
        ids.extend(more.as_deref());
        let mut why = Vec::new();
        if f.false_alarms > 0 {
            why.push(format!(
                "{} this implementation passes and the mutant fails",
                f.false_alarms
            ));
        }
        if f.rivals > 0 {
            why.push(format!(
                "{} failing the same way that the mutant does not",
                f.rivals
            ));
        }
        format!("refuted by {} ({})", ids.join(", "), why.join("; "))
    }

    /// The refuted classes that fit failure `index` exactly, but for those `named`, each with
    /// its refutation.
    fn refuted_candidates(&self, index: usize, named: &[Bug]) -> Vec<String> {
        self.findings
            .iter()
            .filter(|f| !f.unrefuted() && f.exact.contains(&index) && !named.contains(&f.bug))
            .map(|f| {
                format!(
                    "mutant:{} gives it too, but is {}",
                    f.bug.name(),
                    self.refuted_by(f.bug)
                )
            })
            .collect()
    }

    /// The diagnosis of failure `index` in words.
    pub fn of_failure(&self, index: usize) -> String {
        let mut text = match self.verdicts.get(&index) {
            None | Some(Verdict::Unknown) => {
                let fit: Vec<String> = self
                    .findings
                    .iter()
                    .filter(|f| !f.unrefuted() && f.fitted().any(|i| i == index))
                    .map(|f| format!("mutant:{} fits it, but is {}", f.bug.name(), self.refuted_by(f.bug)))
                    .collect();
                return match fit.is_empty() {
                    true => "no known bug class explains this failure".into(),
                    false => format!(
                        "no known bug class explains this failure ({})",
                        fit.join("; ")
                    ),
                };
            }
            Some(Verdict::BadVector) => return "bad vector: the reference itself fails this test, so the vector (not the implementation) is suspect".into(),
            Some(Verdict::Exact(bugs)) if bugs.len() == 1 => format!(
                "likely {}: {} (mutant:{} gives this exact answer; {})",
                bugs[0].flag(),
                bugs[0].explanation(),
                bugs[0].name(),
                self.support(bugs[0])
            ),
            Some(Verdict::Exact(bugs)) => {
                let names: Vec<&str> = bugs.iter().map(|b| b.flag()).collect();
                let each: Vec<String> = bugs
                    .iter()
                    .map(|b| format!("{}: {} ({})", b.flag(), b.explanation(), self.support(*b)))
                    .collect();
                format!(
                    "likely one of {}, whose mutants give this exact answer and which no test of \
                     this run tells apart; {}",
                    names.join(", "),
                    each.join("; ")
                )
            }
            Some(Verdict::Refuted(bugs)) => {
                let each: Vec<String> = bugs
                    .iter()
                    .map(|b| {
                        format!(
                            "{}: {} (mutant:{} gives this exact answer, but is {})",
                            b.flag(),
                            b.explanation(),
                            b.name(),
                            self.refuted_by(*b)
                        )
                    })
                    .collect();
                format!("possibly {}", each.join("; or "))
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
        };
        let named = self.named(index);
        for refuted in self.refuted_candidates(index, &named) {
            text.push_str(&format!("; {refuted}"));
        }
        text
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
                    "{} {} ({} of {total} failures explained by mutant:{}",
                    match best.unrefuted() {
                        true => "likely",
                        false => "possibly",
                    },
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
