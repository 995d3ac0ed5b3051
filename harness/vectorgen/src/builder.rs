//! The small API every vector module writes its file with. Authors state what a test asks and,
//! for tests taken from Core or the literature, the answer the source prints; the builder does
//! the mechanical rest: ids, shared group inputs, `numberOfTests`, the `notes` of the flags in
//! use, and the expected output of generated tests (from `bip37-reference`, or from the
//! implementation `--oracle` names: [`crate::oracle`]).
//!
//! A test's mistake flags are not typed by hand either: the author hands over the answers of
//! the suite's mutants ([`every_mutant`]), and the builder flags exactly the mistakes whose
//! answer the test's expected result would refuse. A generated test names the mistakes
//! it was written to separate (its targets); finishing fails if it does not separate them.

use super::GenError;
pub use crate::oracle::oracle_outcome;
use crate::oracle::{oracle_answer, outcome};
use bip37_harness::flags;
use bip37_harness::hex::Hex;
use bip37_harness::implementation::Implementation;
use bip37_harness::mutants::{Bug, Mutant};
use bip37_harness::ops::{OpName, Output, Request};
use bip37_harness::vectors::lint::SCHEMA_FILE;
use bip37_harness::vectors::model::{
    Expectation, Phase, Source, TestCase, TestGroup, VectorFile, FORMAT_VERSION, SUITE,
};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The Bitcoin Core commit every Core-sourced figure was read at.
pub const CORE_COMMIT: &str = "d861c3820528fad2e17a45549bec70b6ba434dcc";
/// The `bitcoin/bips` commit the BIP 37 text was read at.
pub const BIPS_COMMIT: &str = "7fe0b034ec967b52a5a28276419117326df93263";

/// What an implementation does with an input: answer, reject, or fail (crash, exhaust memory,
/// answer something outside the output type). It is an [`Answer`] as a vector can observe it:
/// an `invalid` test accepts a rejection at any stage in any words, so those are dropped, and
/// the outcomes of two implementations are compared by equality (see the library's
/// `runner::state` for how the outcome types relate).
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Ok(Output),
    Rejected,
    /// A value with integers wider than 32 bits (a seed never wrapped): never an expected value.
    Wide(serde_json::Value),
    Fault,
}

/// The answers of the mutants making `bugs` to a request, each named by its flag: the
/// mistaken implementations a test is to tell apart from Core are the suite's own mutants.
pub fn mutant_answers(bugs: &[Bug], request: &Request) -> Vec<(&'static str, Outcome)> {
    bugs.iter()
        .map(|&bug| (bug.flag(), outcome(Mutant { bug }.execute(request))))
        .collect()
}

/// The answers of every mutant to a request: the mistaken implementations every generated
/// and sourced test is flagged by, one per bug class (the generator models no mistake of its
/// own, so a flag and its mutant can never disagree).
pub fn every_mutant(request: &Request) -> Vec<(&'static str, Outcome)> {
    mutant_answers(Bug::ALL, request)
}

/// With an oracle (`oracle::with_oracle`): the error when the test, whose expected value a
/// source states, would refuse the oracle's own answer.
fn oracle_disagrees(
    case: &Case,
    result: Expectation,
    expected: Option<&Output>,
) -> Option<GenError> {
    let answer = oracle_answer(&case.request)?;
    refuses(result, expected, &answer).then(|| {
        GenError(format!(
            "{}: the oracle answers {answer:?}, which the test's stated {:?} result refuses",
            case.slug, result
        ))
    })
}

/// True when a test with this result and expected output refuses the `mistaken` outcome.
pub fn refuses(result: Expectation, expected: Option<&Output>, mistaken: &Outcome) -> bool {
    match (result, mistaken) {
        (_, Outcome::Fault | Outcome::Wide(_)) => true,
        (Expectation::Valid, Outcome::Rejected) => true,
        (Expectation::Invalid, Outcome::Rejected) => false,
        (Expectation::Acceptable, Outcome::Rejected) => false,
        (Expectation::Invalid, Outcome::Ok(_)) => true,
        (_, Outcome::Ok(output)) => Some(output) != expected,
    }
}

/// Bytes from hex typed into a generator module.
pub fn hex(text: &str) -> Result<Hex, GenError> {
    Hex::parse(text).map_err(|e| GenError(format!("{text}: {e}")))
}

/// A group's provenance: a Core test at [`CORE_COMMIT`].
pub fn core_source(file: &str, line: u32, test_case: &str) -> Source {
    Source::Core {
        commit: CORE_COMMIT.into(),
        file: file.into(),
        line,
        test_case: test_case.into(),
    }
}

/// A group's provenance: a section of the BIP 37 text at [`BIPS_COMMIT`].
pub fn bip37_source(section: &str) -> Source {
    Source::Bip {
        bip: 37,
        commit: BIPS_COMMIT.into(),
        section: section.into(),
    }
}

/// A group's provenance: a generator module of this crate and the mistakes it targets.
pub fn generated_source(module: &str, targets: &str) -> Source {
    Source::Generated {
        generator: format!("bip37-vectorgen harness/vectorgen/src/{module}.rs"),
        targets: targets.into(),
    }
}

/// What an author says about one test.
pub struct Case {
    slug: String,
    comment: String,
    phase: Phase,
    request: Request,
    /// Flags that are not modelled mistakes (divergence and undefined-input notes).
    notes: Vec<&'static str>,
    /// The mistakes this test must separate.
    targets: Vec<&'static str>,
    /// The answers of the modelled mistaken implementations.
    mistaken: Vec<(&'static str, Outcome)>,
}

impl Case {
    /// A test of `request`; its id is `<area>/<slug>`.
    pub fn new(
        slug: impl Into<String>,
        phase: Phase,
        request: Request,
        comment: impl Into<String>,
    ) -> Self {
        Self {
            slug: slug.into(),
            comment: comment.into(),
            phase,
            request,
            notes: Vec::new(),
            targets: Vec::new(),
            mistaken: Vec::new(),
        }
    }

    /// Adds flags that mark divergences or undefined inputs rather than modelled mistakes.
    pub fn notes(mut self, notes: &[&'static str]) -> Self {
        self.notes.extend_from_slice(notes);
        self
    }

    /// The mistakes this test exists to separate from the right answer.
    pub fn targets(mut self, targets: &[&'static str]) -> Self {
        self.targets.extend_from_slice(targets);
        self
    }

    /// The answers of mistaken implementations, each named by its flag.
    pub fn mistaken(mut self, answers: Vec<(&'static str, Outcome)>) -> Self {
        self.mistaken.extend(answers);
        self
    }
}

/// One group of tests of one operation from one source.
pub struct GroupBuilder {
    operation: OpName,
    source: Source,
    comment: String,
    shared: Vec<&'static str>,
    tests: Vec<Result<PendingTest, GenError>>,
}

struct PendingTest {
    slug: String,
    case: TestCase,
}

impl GroupBuilder {
    /// A group of `operation` tests from `source`.
    pub fn new(operation: OpName, source: Source, comment: impl Into<String>) -> Self {
        Self {
            operation,
            source,
            comment: comment.into(),
            shared: Vec::new(),
            tests: Vec::new(),
        }
    }

    /// Input fields every test of the group has with the same value: written once, in the group.
    pub fn shared(mut self, fields: &[&'static str]) -> Self {
        self.shared.extend_from_slice(fields);
        self
    }

    /// A test whose expected result and output are printed by its source (Core, the BIP, a
    /// book): the expected output is `expected`, never the reference's answer, so the lint's
    /// re-derivation checks the reference against the source.
    pub fn sourced(&mut self, case: Case, result: Expectation, expected: Option<Output>) {
        let test = match oracle_disagrees(&case, result, expected.as_ref()) {
            Some(e) => Err(e),
            None => self.finish_case(case, result, expected),
        };
        self.tests.push(test);
    }

    /// A generated test: the expected output is the oracle's answer (`bip37-reference`'s unless
    /// `--oracle` names another), which must agree with `result` (a valid test needs an
    /// answer, an invalid one a rejection).
    pub fn generated(&mut self, case: Case, result: Expectation) {
        let outcome = oracle_outcome(&case.request);
        let expected = match (result, outcome) {
            (Expectation::Invalid, Outcome::Rejected) => Ok(None),
            (Expectation::Valid | Expectation::Acceptable, Outcome::Ok(out)) => Ok(Some(out)),
            (Expectation::Acceptable, Outcome::Rejected) => Err(
                "an acceptable generated test needs the reference to answer (its expected output)",
            ),
            _ => Err("the answer (the reference's, or the oracle's) contradicts the stated result"),
        };
        let test = match expected {
            Ok(expected) => self.finish_case(case, result, expected),
            Err(why) => Err(GenError(format!("{}: {why}", case.slug))),
        };
        self.tests.push(test);
    }

    /// A generated acceptable test whose expected output is stated (e.g. the decoded prefix of a
    /// payload with trailing bytes, which the strict reference rejects).
    pub fn acceptable(&mut self, case: Case, expected: Output) {
        let result = Expectation::Acceptable;
        let test = match oracle_disagrees(&case, result, Some(&expected)) {
            Some(e) => Err(e),
            None => self.finish_case(case, result, Some(expected)),
        };
        self.tests.push(test);
    }

    fn finish_case(
        &self,
        case: Case,
        result: Expectation,
        expected: Option<Output>,
    ) -> Result<PendingTest, GenError> {
        let slug = case.slug;
        if case.request.op() != self.operation {
            return Err(GenError(format!(
                "{slug}: a {} request in a {} group",
                case.request.op(),
                self.operation
            )));
        }
        let mut flags: BTreeSet<&str> = case.notes.iter().copied().collect();
        for (mistake, answer) in &case.mistaken {
            if refuses(result, expected.as_ref(), answer) {
                flags.insert(mistake);
            }
        }
        for target in &case.targets {
            if !flags.contains(target) {
                return Err(GenError(format!(
                    "{slug}: does not separate its target mistake {target}"
                )));
            }
        }
        if result == Expectation::Acceptable && case.notes.is_empty() {
            return Err(GenError(format!(
                "{slug}: an acceptable test needs a note saying why"
            )));
        }
        let Value::Object(input) = case.request.input_json() else {
            return Err(GenError(format!("{slug}: an input is a JSON object")));
        };
        Ok(PendingTest {
            case: TestCase {
                id: String::new(),
                comment: case.comment,
                flags: flags.into_iter().map(String::from).collect(),
                result,
                phase: case.phase,
                input,
                expected: expected.map(|o| o.to_json()),
            },
            slug,
        })
    }

    fn build(self, area: &str) -> Result<TestGroup, GenError> {
        let mut tests = self.tests.into_iter().collect::<Result<Vec<_>, _>>()?;
        let mut input = Map::new();
        for field in &self.shared {
            let first = tests
                .first()
                .and_then(|t| t.case.input.get(*field))
                .cloned();
            let Some(value) = first else {
                return Err(GenError(format!("{area}: shared field {field} is missing")));
            };
            for test in &mut tests {
                if test.case.input.remove(*field).as_ref() != Some(&value) {
                    return Err(GenError(format!(
                        "{area}/{}: shared field {field} differs from the group's",
                        test.slug
                    )));
                }
            }
            input.insert((*field).to_string(), value);
        }
        Ok(TestGroup {
            operation: self.operation,
            source: self.source,
            comment: self.comment,
            input,
            tests: tests
                .into_iter()
                .map(|t| TestCase {
                    id: format!("{area}/{}", t.slug),
                    ..t.case
                })
                .collect(),
        })
    }
}

/// One vector file: `<area>_test.json`.
pub struct FileBuilder {
    area: &'static str,
    header: Vec<String>,
    groups: Vec<GroupBuilder>,
}

impl FileBuilder {
    /// A file for `area` with a header of lines for readers.
    pub fn new(area: &'static str, header: &[&str]) -> Self {
        Self {
            area,
            header: header.iter().map(|s| s.to_string()).collect(),
            groups: Vec::new(),
        }
    }

    /// Adds a group.
    pub fn group(&mut self, group: GroupBuilder) {
        self.groups.push(group);
    }

    /// The finished file: ids assigned, shared inputs lifted, counts and notes computed.
    pub fn finish(self) -> Result<(String, VectorFile), GenError> {
        let area = self.area;
        let groups = self
            .groups
            .into_iter()
            .map(|g| g.build(area))
            .collect::<Result<Vec<_>, _>>()?;
        let used: BTreeSet<&str> = groups
            .iter()
            .flat_map(|g| &g.tests)
            .flat_map(|t| &t.flags)
            .map(String::as_str)
            .collect();
        let notes = used
            .into_iter()
            .map(|flag| {
                flags::note(flag)
                    .map(|note| (flag.to_string(), note))
                    .ok_or_else(|| GenError(format!("{area}: flag {flag} is not in the catalog")))
            })
            .collect::<Result<BTreeMap<_, _>, _>>()?;
        let file = VectorFile {
            suite: SUITE.into(),
            format_version: FORMAT_VERSION,
            schema: SCHEMA_FILE.into(),
            number_of_tests: groups.iter().map(|g| g.tests.len()).sum(),
            header: self.header,
            notes,
            test_groups: groups,
        };
        Ok((format!("{area}_test.json"), file))
    }
}
