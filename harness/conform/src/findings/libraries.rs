//! The findings of the library matrix: per column with a manifest, its failing vectors grouped
//! into deviations, each checked against the column's expectations file (the matrix runs
//! without one, so each failure must be listed there in the same state, and each entry must
//! be a failure of the matrix: otherwise one of the two is stale and the page would be wrong).

use super::repro::{self, Reproduction as Input};
use super::severity::{self, Severity};
use super::status::{self, Outcome};
use super::{expectations_of, expected, subject_of, Entry, Finding, Reproduction, Subject};
use crate::adapters::Manifest;
use crate::matrix::{Cell, Matrix};
use bip37_harness::ops::OpName;
use bip37_harness::runner::State;
use bip37_harness::vectors::LoadedTest;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

/// What the page needs of a vector.
struct Vector {
    /// Its position among all vectors, for listing ids in vector order.
    index: usize,
    test: LoadedTest,
    /// One of its flags' notes states a policy (the verdict is the suite's, not Core's).
    policy: bool,
}

/// The built-in vectors by id.
fn vectors() -> Result<HashMap<String, Vector>, String> {
    let files = crate::vector_set::load_files(None).map_err(|e| e.to_string())?;
    let mut by_id = HashMap::new();
    for file in files {
        let policies: HashSet<&String> = (file.file.notes.iter())
            .filter(|(_, note)| note.policy.is_some())
            .map(|(flag, _)| flag)
            .collect();
        for test in file.tests {
            let policy = test.case.flags.iter().any(|f| policies.contains(f));
            let index = by_id.len();
            by_id.insert(
                test.case.id.clone(),
                Vector {
                    index,
                    test,
                    policy,
                },
            );
        }
    }
    Ok(by_id)
}

/// A test that ended in a state worth a finding: not a pass, not unanswered.
fn failed(state: State) -> bool {
    !matches!(state, State::Pass | State::Unsupported | State::NotRun)
}

/// Each column's cell of each test id.
fn cells_by_test(matrix: &Matrix) -> Vec<HashMap<&str, &Cell>> {
    let mut columns = vec![HashMap::new(); matrix.columns.len()];
    for row in &matrix.rows {
        for (column, cell) in columns.iter_mut().zip(&row.cells) {
            for id in &row.tests {
                column.insert(id.as_str(), cell);
            }
        }
    }
    columns
}

/// What makes two failures of one column the same deviation.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    severity: Severity,
    classes: Vec<String>,
    state: State,
    /// The operation, when no class is named (unknown failures of different operations are
    /// not assumed to be one bug).
    operation: Option<OpName>,
}

/// Every column with a manifest, with its deviations.
pub(super) fn findings(
    root: &Path,
    matrix: &Matrix,
    manifests: &[Manifest],
) -> Result<Vec<Entry>, String> {
    let vectors = vectors()?;
    let cells = cells_by_test(matrix);
    if let Some(id) = cells
        .first()
        .and_then(|c| c.keys().find(|id| !vectors.contains_key(**id)))
    {
        return Err(format!(
            "the library matrix has test {id}, which no vector has: regenerate the matrix \
             (README, Conformance matrix)"
        ));
    }
    let mut subjects = Vec::new();
    for (i, column) in matrix.columns.iter().enumerate() {
        let mut failing: Vec<(&str, &Cell)> = (cells[i].iter())
            .filter(|(_, cell)| failed(cell.state))
            .map(|(id, cell)| (*id, *cell))
            .collect();
        failing.sort_by_key(|(id, _)| vectors[*id].index);
        let Some(subject) = subject_of(&column.name, false, manifests)? else {
            if let Some((id, _)) = failing.first() {
                return Err(format!(
                    "the matrix column {} fails {id} but no manifest names it, so its library \
                     and version are unknown",
                    column.name
                ));
            }
            continue;
        };
        if !column.implementation.contains(&subject.library.version) {
            return Err(format!(
                "the matrix column {} ran {:?}, not version {} of its manifest: regenerate \
                 the matrix (README, Conformance matrix)",
                column.name, column.implementation, subject.library.version
            ));
        }
        let files = expectations_of(root, &column.name, false, manifests)?;
        check_agreement(&column.name, &failing, &cells[i], &files)?;
        let mut groups: BTreeMap<Key, Vec<&str>> = BTreeMap::new();
        for (id, cell) in &failing {
            let vector = &vectors[*id];
            let key = Key {
                severity: severity::of_vector(cell.state, vector.test.case.phase, vector.policy),
                classes: cell.bug_classes.clone(),
                state: cell.state,
                operation: (cell.bug_classes.is_empty()).then(|| vector.test.request.op()),
            };
            groups.entry(key).or_default().push(id);
        }
        let mut others: Vec<(String, &HashMap<&str, &Cell>)> = Vec::new();
        for (j, other) in matrix.columns.iter().enumerate() {
            match subject_of(&other.name, false, manifests)? {
                Some(s) if j != i && s.family == subject.family => {
                    others.push((s.library.version, &cells[j]))
                }
                _ => {}
            }
        }
        let found = groups
            .into_iter()
            .map(|(key, ids)| finding(key, ids, &vectors, &files, &others, &subject))
            .collect();
        subjects.push(Entry {
            subject,
            answered: (cells[i].values())
                .filter(|c| !matches!(c.state, State::Unsupported | State::NotRun))
                .count(),
            total: cells[i].len(),
            findings: found,
        });
    }
    Ok(subjects)
}

/// The failures of `column` and its expectations files must agree: every failure listed in
/// its state, every entry a failure in that state.
fn check_agreement(
    column: &str,
    failing: &[(&str, &Cell)],
    cells: &HashMap<&str, &Cell>,
    files: &[(
        std::path::PathBuf,
        bip37_harness::expectations::Expectations,
    )],
) -> Result<(), String> {
    let stale = |id: &str, what: String| {
        format!(
            "the library matrix and the expectations of {column} disagree on {id}: {what}; \
             regenerate the matrix (README, Conformance matrix) or the expectations file"
        )
    };
    for (id, cell) in failing {
        match expected(files, id) {
            None => {
                return Err(stale(
                    id,
                    format!("{} in the matrix, not listed", cell.state),
                ))
            }
            Some((_, state, _)) if state != cell.state => {
                return Err(stale(
                    id,
                    format!("{} in the matrix, {state} listed", cell.state),
                ))
            }
            Some(_) => {}
        }
    }
    for (path, file) in files {
        for (id, entry) in &file.failures {
            let actual = cells.get(id.as_str()).map(|c| c.state);
            if actual != Some(entry.state) {
                let actual = actual.map_or("not in the matrix".to_string(), |s| s.to_string());
                return Err(stale(
                    id,
                    format!(
                        "{} lists {}, the matrix has {actual}",
                        path.display(),
                        entry.state
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// One deviation: the group `ids` of one column, which share `key`.
fn finding(
    key: Key,
    ids: Vec<&str>,
    vectors: &HashMap<String, Vector>,
    files: &[(
        std::path::PathBuf,
        bip37_harness::expectations::Expectations,
    )],
    others: &[(String, &HashMap<&str, &Cell>)],
    subject: &Subject,
) -> Finding {
    // The shortest input that reproduces it, an exact one before a cut one.
    let (test, input): (&str, Input) = ids
        .iter()
        .map(|id| (*id, repro::of_request(&vectors[*id].test.request)))
        .min_by_key(|(id, input)| (!input.exact, input.text.chars().count(), vectors[*id].index))
        .expect("a group has a test");
    let reason = expected(files, test).map_or(String::new(), |(_, _, r)| r.to_string());
    let outcomes: Vec<(String, Outcome)> = others
        .iter()
        .map(|(version, cells)| (version.clone(), outcome(&ids, cells)))
        .collect();
    Finding {
        tests: ids.iter().map(|id| id.to_string()).collect(),
        classes: key.classes,
        state: key.state,
        severity: key.severity,
        reason,
        reproduction: Reproduction::Input {
            test: test.to_string(),
            input,
        },
        status: status::status(&subject.library.version, &outcomes),
    }
}

/// How another column did on `ids`.
fn outcome(ids: &[&str], cells: &HashMap<&str, &Cell>) -> Outcome {
    let states: Vec<Option<State>> = ids
        .iter()
        .map(|id| cells.get(id).map(|c| c.state))
        .collect();
    if states.iter().flatten().any(|s| failed(*s)) {
        Outcome::Fails
    } else if states.iter().all(|s| *s == Some(State::Pass)) {
        Outcome::Passes
    } else {
        Outcome::NotAnswered
    }
}
