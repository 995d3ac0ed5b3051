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

/// A test that ended in a state worth a finding: one that fails a run ([`State::is_failure`]),
/// less a claimed input the adapter cannot express and a test not run.
fn failed(state: State) -> bool {
    state.is_failure() && !matches!(state, State::Unsupported | State::NotRun)
}

/// What makes two failures of one column the same deviation: the bug classes the diagnosis
/// names or, when it names none, what the expectations file says the implementation did
/// ([`gist`]), or the operation where it says nothing.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    classes: Vec<String>,
    unexplained: Option<String>,
}

/// One failing vector of a deviation.
struct Failure<'a> {
    id: &'a str,
    severity: Severity,
    state: State,
}

/// Every column with a manifest, with its deviations.
pub(super) fn findings(
    root: &Path,
    matrix: &Matrix,
    manifests: &[Manifest],
) -> Result<Vec<Entry>, String> {
    let vectors = vectors()?;
    let cells = matrix.cells_by_test();
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
        let mut groups: BTreeMap<Key, Vec<Failure>> = BTreeMap::new();
        for (id, cell) in &failing {
            let vector = &vectors[*id];
            let key = Key {
                classes: cell.bug_classes.clone(),
                unexplained: (cell.bug_classes.is_empty()).then(|| {
                    let reason = expected(&files, id).map_or("", |(_, _, r)| observed(r));
                    match gist(reason) {
                        "" => vector.test.request.op().to_string(),
                        gist => gist.to_string(),
                    }
                }),
            };
            groups.entry(key).or_default().push(Failure {
                id,
                severity: severity::of_vector(cell.state, vector.test.case.phase, vector.policy),
                state: cell.state,
            });
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
            .map(|(key, failures)| finding(key, failures, &vectors, &files, &others, &subject))
            .collect();
        subjects.push(Entry {
            subject,
            answered: (cells[i].values())
                .filter(|c| {
                    !matches!(
                        c.state,
                        State::Unsupported | State::NotClaimed | State::NotRun
                    )
                })
                .count(),
            total: cells[i].len(),
            findings: found,
            legitimate: Vec::new(),
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

/// One deviation: the failures of one column that share `key`, as bad as the worst of them.
fn finding(
    key: Key,
    failures: Vec<Failure>,
    vectors: &HashMap<String, Vector>,
    files: &[(
        std::path::PathBuf,
        bip37_harness::expectations::Expectations,
    )],
    others: &[(String, &HashMap<&str, &Cell>)],
    subject: &Subject,
) -> Finding {
    let severity = (failures.iter().map(|f| f.severity).min()).expect("a group has a test");
    // The shortest input that reproduces the worst of it, an exact one before a cut one.
    let (test, input): (&str, Input) = (failures.iter())
        .filter(|f| f.severity == severity)
        .map(|f| (f.id, repro::of_request(&vectors[f.id].test.request)))
        .min_by_key(|(id, input)| (!input.exact, input.text.chars().count(), vectors[*id].index))
        .expect("a group has a test of its severity");
    let reason = expected(files, test).map_or(String::new(), |(_, _, r)| observed(r).to_string());
    let ids: Vec<&str> = failures.iter().map(|f| f.id).collect();
    let outcomes: Vec<(String, Outcome)> = others
        .iter()
        .map(|(version, cells)| (version.clone(), outcome(&ids, cells)))
        .collect();
    let mut states: Vec<State> = failures.iter().map(|f| f.state).collect();
    states.sort();
    states.dedup();
    Finding {
        tests: ids.iter().map(|id| id.to_string()).collect(),
        classes: key.classes,
        states,
        severity,
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

/// The end of the diagnosis `--update-expectations` once wrote at the start of a reason.
const DIAGNOSED: &str = " this exact answer";

/// `reason` without the diagnosis it may start with ("X (its mutant gives this exact answer):
/// ", "no known bug class gives this exact answer: "): that was the diagnosis when the entry
/// was written, and the page's class column is the committed run's; what remains is what the
/// implementation did.
fn observed(reason: &str) -> &str {
    let Some(at) = reason.find(DIAGNOSED) else {
        return reason;
    };
    let (head, rest) = (&reason[..at], &reason[at + DIAGNOSED.len()..]);
    let named = head.ends_with(" (its mutant gives") || head.ends_with(" mutants give");
    match (rest.strip_prefix("): "), rest.strip_prefix(": ")) {
        (Some(rest), _) if named => rest,
        (_, Some(rest)) if head == "no known bug class gives" => rest,
        _ => reason,
    }
}

/// What `reason` says the implementation does, without the values of this one vector: a
/// reason `--update-expectations` completed with the run's message ends in `FIELD: expected
/// A, actual B`, which is cut off with its field (a reason that is nothing else keeps the
/// field). Two failures whose reasons differ only in those values are one deviation.
fn gist(reason: &str) -> &str {
    let Some(at) = reason.find("expected ") else {
        return reason;
    };
    if !reason[at..].contains(", actual ") {
        return reason;
    }
    let Some(field) = reason[..at].strip_suffix(": ") else {
        return reason;
    };
    match field.rfind(": ") {
        Some(cut) => &reason[..cut],
        None => field,
    }
}

#[cfg(test)]
mod tests {
    use super::{gist, observed};

    #[test]
    fn the_values_of_one_vector_are_not_part_of_the_gist() {
        let cases = [
            (
                "sizes up where Core truncates: `filterBytes`: expected 7, actual 8",
                "sizes up where Core truncates",
            ),
            (
                "sizes up where Core truncates: filter size: expected 0 bytes, actual 1 bytes",
                "sizes up where Core truncates",
            ),
            ("nHashFuncs: expected 5, actual 6", "nHashFuncs"),
            (
                "bloom.go:45: sizes up: `filterBytes`: expected 7, actual 8",
                "bloom.go:45: sizes up",
            ),
            (
                "refuses p = 1 (expected by nobody)",
                "refuses p = 1 (expected by nobody)",
            ),
        ];
        for (reason, gist_of_it) in cases {
            assert_eq!(gist(reason), gist_of_it, "{reason}");
        }
    }

    #[test]
    fn the_diagnosis_a_reason_was_written_with_is_left_out() {
        let cases = [
            (
                "SizeRoundedUp (its mutant gives this exact answer): size 1",
                "size 1",
            ),
            ("A or B (both mutants give this exact answer): x", "x"),
            (
                "no known bug class gives this exact answer: refused",
                "refused",
            ),
            (
                "lib.go:7 reads the tail backwards",
                "lib.go:7 reads the tail backwards",
            ),
            (
                "it gives this exact answer: kept",
                "it gives this exact answer: kept",
            ),
        ];
        for (reason, kept) in cases {
            assert_eq!(observed(reason), kept, "{reason}");
        }
    }
}
