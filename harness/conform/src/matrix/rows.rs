//! Turning per-implementation runs into rows: one per vector, or pruned into groups of
//! vectors of one operation on which every implementation behaves alike (same state, same
//! bug classes), in order of first appearance.

use super::{Cell, ColumnRun, Row};
use bip37_harness::ops::OpName;
use bip37_harness::runner::State;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// How rows are formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "camelCase")]
pub enum RowMode {
    /// One row per vector, with each implementation's message and diagnosis.
    Vectors,
    /// One row per operation and behaviour: vectors every implementation treats alike share it.
    Groups,
}

/// The cell of test `index` in `column`; the words only for single-vector rows.
fn cell(column: &ColumnRun, index: usize, with_words: bool) -> Cell {
    let result = &column.run.results[index];
    let detail = match &result.difference {
        Some(difference) => format!("{}: {difference}", result.message),
        None => result.message.clone(),
    };
    let failed = result.state != State::Pass;
    Cell {
        state: result.state,
        bug_classes: column.bug_classes[index].clone(),
        hedge: column.hedges[index],
        diagnosis: result.diagnosis.clone().filter(|_| with_words),
        detail: (with_words && failed && !detail.is_empty()).then_some(detail),
    }
}

/// The rows of `columns`, whose runs must all be over the same tests in the same order.
pub fn lay_out(columns: &[ColumnRun], mode: RowMode) -> Vec<Row> {
    let Some(first) = columns.first() else {
        return Vec::new();
    };
    let with_words = mode == RowMode::Vectors;
    let per_test = first.run.results.iter().enumerate().map(|(i, result)| {
        let cells: Vec<Cell> = columns.iter().map(|c| cell(c, i, with_words)).collect();
        (
            (result.test.case.id.clone(), result.test.request.op()),
            cells,
        )
    });
    lay_out_cells(per_test, mode)
}

/// The rows of tests given in vector order, each with its id, operation and one cell per
/// column: a row per test, or per operation and identical cells.
pub fn lay_out_cells(
    per_test: impl IntoIterator<Item = ((String, OpName), Vec<Cell>)>,
    mode: RowMode,
) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    let mut index: HashMap<(OpName, Vec<Cell>), usize> = HashMap::new();
    for ((id, op), cells) in per_test {
        let key = (op, cells);
        match index.get(&key).filter(|_| mode == RowMode::Groups) {
            Some(&at) => rows[at].tests.push(id),
            None => {
                index.insert(key.clone(), rows.len());
                rows.push(Row {
                    operation: key.0,
                    tests: vec![id],
                    cells: key.1,
                });
            }
        }
    }
    rows
}
