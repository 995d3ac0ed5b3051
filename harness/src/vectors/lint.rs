//! The vector lint: everything a vector file must satisfy beyond parsing, as a list of
//! problems (empty when the files are sound), so the tests and `bip37-conform lint` share it.
//!
//! - ids are unique across files and start with the file's area (`wire/` in `wire_test.json`,
//!   `fuzz/` in `imported/fuzz_test.json`);
//! - every flag a test carries is defined in its file's `notes`, and every note is used;
//! - every `acceptable` test carries a flag of bug type DIVERGENCE that says why;
//! - every DIVERGENCE or UNDEFINED note states its `policy` (those verdicts are the suite's
//!   choice, not Core's behaviour, and reports must be able to say so);
//! - `numberOfTests` counts the tests and `schema` names [`SCHEMA_FILE`];
//! - every expected result is re-derived by the reference: a `valid` test must get exactly its
//!   expected output, an `invalid` one a rejection, an `acceptable` one either. A vector can
//!   therefore never disagree with its own oracle.
//!
//! JSON Schema validation is not here: it runs in the tests, against `vectors.schema.json`.

use super::load::{parse_file, LoadedFile, LoadedTest};
use super::model::{BugType, Expectation};
use crate::implementation::{Answer, Implementation};
use crate::reference_impl::Reference;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

pub use super::model::SCHEMA_FILE;

/// One thing wrong with the vectors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file's name (with `:line:column` where a file that does not load breaks).
    pub file: String,
    /// The test's id, when the problem is in one test.
    pub id: Option<String>,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.id {
            Some(id) => write!(f, "{}: {id}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Parses `(name, text)` pairs and lints them; a file that does not parse is one problem.
pub fn lint_texts(files: &[(&str, &str)]) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut loaded = Vec::new();
    for (name, text) in files {
        match parse_file(name, text) {
            Ok(file) => loaded.push(file),
            Err(e) => problems.push(Problem {
                file: name.to_string(),
                id: None,
                message: e.to_string(),
            }),
        }
    }
    problems.extend(lint(&loaded));
    problems
}

/// Every problem of a set of parsed files (ids are checked across all of them).
pub fn lint(files: &[LoadedFile]) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut first_file_of_id: BTreeMap<&str, &str> = BTreeMap::new();
    for file in files {
        let mut report = |id: Option<&str>, message: String| {
            problems.push(Problem {
                file: file.name.clone(),
                id: id.map(str::to_string),
                message,
            })
        };
        lint_header(file, &mut report);
        for test in &file.tests {
            let id = test.case.id.as_str();
            if let Some(earlier) = first_file_of_id.insert(id, &file.name) {
                report(Some(id), format!("id already used in {earlier}"));
            }
            if let Some(message) = rejudge(test) {
                report(Some(id), message);
            }
        }
    }
    problems
}

/// The file-level checks and the per-test flag checks.
fn lint_header(file: &LoadedFile, report: &mut impl FnMut(Option<&str>, String)) {
    let vf = &file.file;
    if vf.schema != SCHEMA_FILE {
        report(
            None,
            format!("schema is {:?}, not {SCHEMA_FILE:?}", vf.schema),
        );
    }
    if vf.number_of_tests != file.tests.len() {
        report(
            None,
            format!(
                "numberOfTests is {} but the file has {} tests",
                vf.number_of_tests,
                file.tests.len()
            ),
        );
    }
    let base = file.name.rsplit('/').next().unwrap_or(&file.name);
    let area = base.strip_suffix("_test.json").unwrap_or(base);
    let mut used = BTreeSet::new();
    for test in &file.tests {
        let case = &test.case;
        let id = Some(case.id.as_str());
        if case
            .id
            .strip_prefix(area)
            .and_then(|r| r.strip_prefix('/'))
            .is_none()
        {
            report(id, format!("ids in {} start with {area}/", file.name));
        }
        for flag in &case.flags {
            used.insert(flag.as_str());
            if !vf.notes.contains_key(flag) {
                report(id, format!("flag {flag} is not defined in notes"));
            }
        }
        let explained = case.flags.iter().any(|f| {
            vf.notes
                .get(f)
                .is_some_and(|n| n.bug_type == BugType::Divergence)
        });
        if case.result == Expectation::Acceptable && !explained {
            report(
                id,
                "an acceptable test needs a DIVERGENCE flag saying why".into(),
            );
        }
    }
    for (flag, note) in &vf.notes {
        let chosen = matches!(note.bug_type, BugType::Divergence | BugType::Undefined);
        if chosen && note.policy.is_none() {
            report(
                None,
                format!("note {flag}: a DIVERGENCE or UNDEFINED note states its policy"),
            );
        }
    }
    for flag in vf.notes.keys().filter(|f| !used.contains(f.as_str())) {
        report(None, format!("note {flag} is used by no test"));
    }
}

/// What is wrong with a test's expected result, if anything: the reference's answer must meet
/// it, and a test of an input the suite tolerates either way (a divergence note) must say so
/// ([`crate::disagreement::policy::contradiction`]). Imports are re-judged by it too.
pub fn rejudge(test: &LoadedTest) -> Option<String> {
    rederive(test).or_else(|| crate::disagreement::policy::contradiction(test))
}

/// What is wrong with a test's expected result according to the reference, if anything.
fn rederive(test: &LoadedTest) -> Option<String> {
    let answer = Reference.execute(&test.request);
    let result = test.case.result;
    match (&answer, result) {
        (Answer::Ok(got), Expectation::Valid | Expectation::Acceptable) => {
            if Some(got) == test.expected.as_ref() {
                None
            } else {
                Some(format!(
                    "the reference answers {} but the test expects {}",
                    got.to_json(),
                    test.expected
                        .as_ref()
                        .map_or_else(|| "nothing".into(), |e| e.to_json().to_string())
                ))
            }
        }
        (Answer::Rejected(_), Expectation::Invalid | Expectation::Acceptable) => None,
        (Answer::Ok(got), Expectation::Invalid) => Some(format!(
            "the test is invalid but the reference answers {}",
            got.to_json()
        )),
        (Answer::Rejected(r), Expectation::Valid) => Some(format!(
            "the test is valid but the reference rejects it: {}",
            r.message
        )),
        (Answer::Unsupported, _) => Some("the reference does not support this operation".into()),
        (Answer::Wide(wide), _) => Some(format!("the reference answers {wide}")),
        (Answer::Fault(fault), _) => Some(format!("the reference {fault}")),
    }
}
