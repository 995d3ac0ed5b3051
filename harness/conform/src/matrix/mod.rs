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

use bip37_harness::diagnosis::{annotate, Diagnosis, Verdict};
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
    /// How sure the diagnosis is of those classes, part of their names in every rendering
    /// (`likely X`, `possibly X`): absent without classes, and in a matrix written before the
    /// hedge was kept (whose classes are then shown bare).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hedge: Option<Hedge>,
    /// The diagnosis in words (single-vector rows only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<String>,
    /// Why the test is in its state (single-vector rows only; absent for a pass).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// How sure the diagnosis is of the classes it names for a failure, as its words say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Hedge {
    /// "likely X": no test of the run refutes the class (an exact answer, or each wrong field).
    Likely,
    /// "possibly X, refuted by ...": the class's mutant gives this exact answer, but some test
    /// of the run refutes every class that does.
    Possibly,
}

impl Hedge {
    /// The hedge of a failure's verdict; none when it names no class.
    pub fn of(verdict: &Verdict) -> Option<Hedge> {
        match verdict {
            Verdict::Exact(_) | Verdict::Fields(_) => Some(Hedge::Likely),
            Verdict::Refuted(_) => Some(Hedge::Possibly),
            Verdict::Unknown | Verdict::BadVector => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Hedge::Likely => "likely",
            Hedge::Possibly => "possibly",
        }
    }
}

/// `class` with its hedge in front, as the diagnosis says it (bare when the hedge is unknown).
pub fn hedged(hedge: Option<Hedge>, class: &str) -> String {
    match hedge {
        Some(hedge) => format!("{} {class}", hedge.as_str()),
        None => class.to_string(),
    }
}

impl Cell {
    /// The cell's classes with their hedge, best first: `possibly X`, never a bare `X` the
    /// diagnosis doubted.
    pub fn hedged_classes(&self) -> Vec<String> {
        (self.bug_classes.iter())
            .map(|class| hedged(self.hedge, class))
            .collect()
    }
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
    /// Per test: how sure the diagnosis is of them.
    pub hedges: Vec<Option<Hedge>>,
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
        let hedges = (0..run.results.len())
            .map(|i| diagnosis.verdicts.get(&i).and_then(Hedge::of))
            .collect();
        ColumnRun {
            participant,
            run,
            bug_classes,
            hedges,
            summary: summary_line(&diagnosis),
        }
    }
}

/// The run's diagnosis in one line, every class named with its hedge and the number of
/// failures it is named for, most first ("likely A 3, possibly B 1 of 5 failures"), then the
/// failures no class explains and those on bad vectors.
pub fn summary_line(diagnosis: &Diagnosis) -> String {
    let total = diagnosis.failures.len();
    let mut counts: BTreeMap<(Hedge, &'static str), usize> = BTreeMap::new();
    for verdict in diagnosis.verdicts.values() {
        let Some(hedge) = Hedge::of(verdict) else {
            continue;
        };
        for bug in verdict.named() {
            *counts.entry((hedge, bug.flag())).or_default() += 1;
        }
    }
    if counts.is_empty() {
        return diagnosis.summary();
    }
    let mut classes: Vec<((Hedge, &str), usize)> = counts.into_iter().collect();
    classes.sort_by_key(|&((hedge, flag), n)| (std::cmp::Reverse(n), hedge, flag));
    let named: Vec<String> = (classes.iter())
        .map(|((hedge, flag), n)| format!("{} {n}", hedged(Some(*hedge), flag)))
        .collect();
    let mut text = format!("{} of {total} failures", named.join(", "));
    let count = |wanted: &Verdict| {
        (diagnosis.verdicts.values())
            .filter(|v| *v == wanted)
            .count()
    };
    let unknown = count(&Verdict::Unknown);
    if unknown > 0 {
        text.push_str(&format!("; {unknown} not explained by any known bug class"));
    }
    let bad = count(&Verdict::BadVector);
    if bad > 0 {
        text.push_str(&format!(
            "; {bad} on vectors the reference itself fails (bad vectors)"
        ));
    }
    text
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

/// Where a class is named in one column: its hedge there and the ids of those tests.
pub type NamedIn = (Option<Hedge>, Vec<String>);

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

    /// Bug class → column name → its hedge in that column and the ids of the tests it is
    /// named for, for the bug-class table. A class has one hedge in a run (refuted or not by
    /// the run as a whole); the first cell's is kept.
    pub fn bug_classes(&self) -> BTreeMap<String, BTreeMap<String, NamedIn>> {
        let mut found: BTreeMap<String, BTreeMap<String, NamedIn>> = BTreeMap::new();
        for row in &self.rows {
            for (column, cell) in self.columns.iter().zip(&row.cells) {
                for class in &cell.bug_classes {
                    let entry = found
                        .entry(class.clone())
                        .or_default()
                        .entry(column.name.clone())
                        .or_insert((cell.hedge, Vec::new()));
                    entry.1.extend(row.tests.iter().cloned());
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
        assert_eq!(m.rows[1].cells[1].hedge, Some(Hedge::Likely));
        assert_eq!(m.rows[1].cells[1].hedged_classes(), ["likely MurmurTail"]);
        assert_eq!(
            m.bug_classes()["MurmurTail"]["tail"],
            (
                Some(Hedge::Likely),
                vec!["m/2".to_string(), "m/3".to_string()]
            )
        );
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
            text.contains("| murmur3 | `m/2`, `m/3` | ✅ pass | wrongValue: likely MurmurTail |"),
            "{text}"
        );
        assert!(text.contains("| likely MurmurTail | MurmurHash3"), "{text}");
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

    /// Issue 33: a class the diagnosis doubts ("possibly X, refuted by ...") was shown as a
    /// bare `X` in every format; the hedge is part of its name in the cells, the class table,
    /// the page's hover text and the JSON, and a matrix without hedges still reads.
    #[test]
    fn a_doubted_class_keeps_its_hedge_in_every_format() {
        let mut m = matrix(RowMode::Groups);
        m.rows[1].cells[1].hedge = Some(Hedge::Possibly);
        let text = markdown::render(&m);
        assert!(text.contains("wrongValue: possibly MurmurTail |"), "{text}");
        assert!(
            text.contains("| possibly MurmurTail | MurmurHash3"),
            "{text}"
        );
        assert!(!text.contains(": MurmurTail"), "{text}");
        let page = html::render(&m);
        assert!(page.contains("wrongValue (possibly MurmurTail)"), "{page}");
        let json = json::render(&m);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["rows"][1]["cells"][1]["hedge"], "possibly");
        assert_eq!(value["rows"][1]["cells"][1]["bugClasses"][0], "MurmurTail");
        assert_eq!(json::parse(&json).unwrap(), m);
        let mut bare = value.clone();
        let cell = bare["rows"][1]["cells"][1].as_object_mut().unwrap();
        assert!(cell.remove("hedge").is_some());
        let old = json::parse(&bare.to_string()).unwrap();
        assert_eq!(old.rows[1].cells[1].hedge, None);
        assert!(markdown::render(&old).contains("wrongValue: MurmurTail |"));
    }

    /// Issue 33: a column's line named one class; it names each with its hedge and count.
    #[test]
    fn the_summary_line_names_every_class_with_its_hedge_and_count() {
        let (a, b) = (
            bip37_harness::mutants::Bug::ALL[0],
            bip37_harness::mutants::Bug::ALL[1],
        );
        let diagnosis = Diagnosis {
            findings: Vec::new(),
            failures: vec![0, 1, 2, 3, 4],
            verdicts: BTreeMap::from([
                (0, Verdict::Exact(vec![a])),
                (1, Verdict::Refuted(vec![b])),
                (2, Verdict::Refuted(vec![b])),
                (3, Verdict::Unknown),
                (4, Verdict::BadVector),
            ]),
            ids: (0..5).map(|i| format!("t/{i}")).collect(),
        };
        assert_eq!(
            summary_line(&diagnosis),
            format!(
                "possibly {} 2, likely {} 1 of 5 failures; 1 not explained by any known bug \
                 class; 1 on vectors the reference itself fails (bad vectors)",
                b.flag(),
                a.flag()
            )
        );
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
