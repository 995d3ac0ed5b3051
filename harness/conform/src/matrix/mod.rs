//! The conformance matrix: several implementations run over the same vectors in one go, laid
//! out with implementations as columns and vectors as rows, so that where libraries agree and
//! where each one departs from Core can be read at a glance.
//!
//! A row is one vector ([`RowMode::Vectors`]) or, in the pruned view ([`RowMode::Groups`]),
//! every vector of one operation on which each implementation ends in the same state with the
//! same diagnosed bug classes. A cell holds the state and what [`bip37_harness::diagnosis`] said about a
//! failure; the matrix never diagnoses anything itself. [`markdown`], [`json`] and [`html`] render it,
//! [`command`] is `bip37-conform matrix`, [`keep`] takes columns over from an earlier matrix; [`nodes`] is the section of full nodes, whose rows are
//! the node suite's checks.

pub mod command;
pub mod html;
pub mod json;
pub mod keep;
pub mod markdown;
pub mod nodes;
pub mod rows;
pub mod spec;

pub use rows::RowMode;
pub use spec::ImplSpec;

use bip37_harness::diagnosis::annotate;
use bip37_harness::ops::OpName;
use bip37_harness::runner::{Run, State};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// One implementation, as the matrix shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Column {
    /// The column name given on the command line.
    pub name: String,
    /// The command line that ran it.
    pub command: String,
    /// What it said about itself in its handshake (library name and version).
    pub implementation: String,
    /// Its handshake notes, e.g. which operations it can only do with explicit parameters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// The operations it claimed.
    pub operations: Vec<OpName>,
    /// How many tests ended in each state.
    pub counts: BTreeMap<State, usize>,
    /// The diagnosis of the whole run in one line.
    pub diagnosis: String,
    /// Why its run stopped early, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aborted: Option<String>,
}

/// What one implementation did on a row.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cell {
    pub state: State,
    /// The flags of the bug classes the diagnosis names for this failure, best ranked first
    /// (several when the vector cannot tell them apart, or when each explains other fields).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bug_classes: Vec<String>,
    /// The diagnosis in words (single-vector rows only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<String>,
    /// Why the test is in its state (single-vector rows only; absent for a pass).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// One row: a vector, or a group of vectors every implementation treats alike.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub operation: OpName,
    /// The test ids of the row, in vector order.
    pub tests: Vec<String>,
    /// One cell per column, in column order.
    pub cells: Vec<Cell>,
}

/// A whole matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Matrix {
    pub mode: RowMode,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    /// The node checks and the nodes, when node reports were given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<nodes::NodeSection>,
}

/// Who an implementation is: its column, before the run adds counts and diagnoses.
#[derive(Debug, Clone, PartialEq)]
pub struct Participant {
    pub name: String,
    pub command: String,
    pub implementation: String,
    pub notes: Option<String>,
    pub operations: Vec<OpName>,
}

/// One implementation's run, diagnosed.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnRun {
    pub participant: Participant,
    /// The run, with every failure's diagnosis filled in.
    pub run: Run,
    /// Per test: the bug classes the diagnosis names for its failure, best ranked first.
    pub bug_classes: Vec<Vec<String>>,
    /// The run's diagnosis in one line.
    pub summary: String,
}

impl ColumnRun {
    /// Diagnoses the failures of `run` ([`bip37_harness::diagnosis::annotate`]).
    pub fn diagnosed(participant: Participant, mut run: Run) -> Self {
        let diagnosis = annotate(&mut run.results);
        let bug_classes = (0..run.results.len())
            .map(|i| {
                diagnosis
                    .named(i)
                    .iter()
                    .map(|b| b.flag().to_string())
                    .collect()
            })
            .collect();
        ColumnRun {
            participant,
            run,
            bug_classes,
            summary: diagnosis.summary(),
        }
    }
}

/// Lays out the columns' runs, which must all be over the same tests in the same order.
pub fn build(columns: Vec<ColumnRun>, mode: RowMode) -> Result<Matrix, String> {
    if let Some(first) = columns.first() {
        for column in &columns {
            let same = column.run.results.len() == first.run.results.len()
                && column
                    .run
                    .results
                    .iter()
                    .zip(&first.run.results)
                    .all(|(a, b)| a.test.case.id == b.test.case.id);
            if !same {
                return Err(format!(
                    "the run of {} is not over the same tests as the others",
                    column.participant.name
                ));
            }
        }
    }
    let rows = rows::lay_out(&columns, mode);
    let columns = columns
        .into_iter()
        .map(|c| Column {
            name: c.participant.name,
            command: c.participant.command,
            implementation: c.participant.implementation,
            notes: c.participant.notes,
            operations: c.participant.operations,
            counts: c.run.counts(),
            diagnosis: c.summary,
            aborted: c.run.aborted,
        })
        .collect();
    Ok(Matrix {
        mode,
        columns,
        rows,
        nodes: None,
    })
}

impl Matrix {
    /// Each column's cell of each test id, from rows of either mode.
    pub fn cells_by_test(&self) -> Vec<HashMap<&str, &Cell>> {
        let mut columns = vec![HashMap::new(); self.columns.len()];
        for row in &self.rows {
            for (column, cell) in columns.iter_mut().zip(&row.cells) {
                for id in &row.tests {
                    column.insert(id.as_str(), cell);
                }
            }
        }
        columns
    }

    /// Bug class → column name → the ids of the tests it explains, for the bug-class table.
    pub fn bug_classes(&self) -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
        let mut found: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
        for row in &self.rows {
            for (column, cell) in self.columns.iter().zip(&row.cells) {
                for class in &cell.bug_classes {
                    found
                        .entry(class.clone())
                        .or_default()
                        .entry(column.name.clone())
                        .or_default()
                        .extend(row.tests.iter().cloned());
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bip37_harness::implementation::Implementation;
    use bip37_harness::mutants;
    use bip37_harness::reference_impl::Reference;
    use bip37_harness::runner::{run_tests, RunOptions};
    use bip37_harness::vectors::{parse_file, LoadedTest};

    /// Four MurmurHash3 vectors: no tail, a whole block, and two 3-byte tails.
    fn vectors() -> Vec<LoadedTest> {
        let tests: Vec<String> = ["", "00010203", "000102", "aabbcc"]
            .iter()
            .enumerate()
            .map(|(i, data)| {
                let bytes = bip37_harness::hex::Hex::parse(data).unwrap();
                let hash = bip37_reference::murmur3(0, &bytes.0);
                format!(
                    r#"{{"id": "m/{i}", "comment": "c", "result": "valid", "phase": "hash",
                        "input": {{"data": "{data}"}}, "expected": {{"hash": {hash}}}}}"#
                )
            })
            .collect();
        let text = format!(
            r#"{{"suite": "bip37-conformance", "formatVersion": 1, "schema": "s.json",
                "numberOfTests": 4, "header": ["h"], "notes": {{}},
                "testGroups": [{{"operation": "murmur3",
                  "source": {{"kind": "generated", "generator": "g", "targets": "t"}},
                  "input": {{"seed": 0}}, "tests": [{}]}}]}}"#,
            tests.join(",")
        );
        parse_file("m_test.json", &text).unwrap().tests
    }

    fn participant(name: &str, implementation: &dyn Implementation) -> Participant {
        Participant {
            name: name.into(),
            command: format!("builtin {name}"),
            implementation: implementation.name(),
            notes: None,
            operations: implementation.operations(),
        }
    }

    /// The reference and the mutant that combines MurmurHash3's tail bytes in reverse.
    fn matrix(mode: RowMode) -> Matrix {
        let tests = vectors();
        let selected: Vec<&LoadedTest> = tests.iter().collect();
        let mut reference = Reference;
        let mut mutant = mutants::by_name("murmur-tail").expect("the murmur-tail mutant exists");
        let columns = vec![
            ColumnRun::diagnosed(
                participant("ref", &reference),
                run_tests(&selected, &mut reference, &RunOptions::default()),
            ),
            ColumnRun::diagnosed(
                participant("tail", &mutant),
                run_tests(&selected, &mut mutant, &RunOptions::default()),
            ),
        ];
        build(columns, mode).unwrap()
    }

    #[test]
    fn groups_vectors_every_implementation_treats_alike() {
        let m = matrix(RowMode::Groups);
        assert_eq!(m.rows.len(), 2, "{:#?}", m.rows);
        assert_eq!(m.rows[0].tests, ["m/0", "m/1"]);
        assert_eq!(m.rows[1].tests, ["m/2", "m/3"]);
        let states: Vec<State> = m.rows[1].cells.iter().map(|c| c.state).collect();
        assert_eq!(states, [State::Pass, State::WrongValue]);
        assert!(m
            .rows
            .iter()
            .flat_map(|r| &r.cells)
            .all(|c| c.detail.is_none()));
        assert_eq!(m.columns[1].counts[&State::WrongValue], 2);
        assert_eq!(m.rows[1].cells[1].bug_classes, ["MurmurTail"]);
        assert_eq!(m.bug_classes()["MurmurTail"]["tail"], ["m/2", "m/3"]);
    }

    #[test]
    fn vector_rows_carry_the_details_of_failures() {
        let m = matrix(RowMode::Vectors);
        assert_eq!(m.rows.len(), 4);
        let failing = &m.rows[2].cells[1];
        assert_eq!(failing.state, State::WrongValue);
        assert!(failing.detail.as_deref().is_some_and(|d| !d.is_empty()));
        assert!(failing
            .diagnosis
            .as_deref()
            .is_some_and(|d| d.contains("MurmurTail")));
        assert_eq!(m.rows[2].cells[0].detail, None);
    }

    #[test]
    fn renders_markdown_and_json() {
        let m = matrix(RowMode::Groups);
        let text = markdown::render(&m);
        assert!(
            text.contains("| operation | vectors | ref | tail |"),
            "{text}"
        );
        assert!(
            text.contains("| murmur3 | `m/2`, `m/3` | ✅ pass | wrongValue: MurmurTail |"),
            "{text}"
        );
        assert!(text.contains("| MurmurTail | MurmurHash3"), "{text}");
        assert!(
            text.contains("| tail | mutant:murmur-tail | pass 2, wrongValue 2 | likely MurmurTail"),
            "{text}"
        );
        let value: serde_json::Value = serde_json::from_str(&json::render(&m)).unwrap();
        assert_eq!(value["matrixFormat"], 1);
        assert_eq!(value["mode"], "groups");
        assert_eq!(value["rows"][1]["cells"][1]["state"], "wrongValue");
        assert_eq!(value["columns"][0]["counts"]["pass"], 4);
        assert_eq!(json::parse(&json::render(&m)).unwrap(), m);
        let other_format = json::render(&m).replace("\"matrixFormat\": 1", "\"matrixFormat\": 2");
        assert!(json::parse(&other_format)
            .unwrap_err()
            .contains("matrixFormat 2"));
    }

    #[test]
    fn refuses_runs_over_different_tests() {
        let tests = vectors();
        let all: Vec<&LoadedTest> = tests.iter().collect();
        let fewer: Vec<&LoadedTest> = tests.iter().take(2).collect();
        let columns = vec![
            ColumnRun::diagnosed(
                participant("a", &Reference),
                run_tests(&all, &mut Reference, &RunOptions::default()),
            ),
            ColumnRun::diagnosed(
                participant("b", &Reference),
                run_tests(&fewer, &mut Reference, &RunOptions::default()),
            ),
        ];
        let err = build(columns, RowMode::Groups).unwrap_err();
        assert!(err.contains("not over the same tests"), "{err}");
    }
}
