//! Regenerating part of a matrix: `matrix --keep FILE --name COLUMN` runs only the named
//! columns and takes every other one from FILE, an earlier JSON matrix, so that adding an
//! adapter does not mean installing and re-running all the others; likewise the node columns
//! the `--node-report` arguments do not give are taken from FILE's node section. A column's cells depend on
//! its own run only (each run is diagnosed alone), so a kept column is what a fresh run of
//! the same implementation would give, as long as the vectors are the same: a kept matrix
//! over other tests, or in groups mode where the words of vector rows are asked for, is
//! refused rather than mixed.

use super::nodes::{NodeCell, NodeSection};
use super::{rows, Cell, Column, Matrix, RowMode};
use bip37_harness::vectors::LoadedTest;
use std::collections::HashMap;

/// The matrix of the columns `order` (names, in order) over `tests`: each from `fresh` (the
/// columns just run) if it is there, otherwise from `kept`. The node section is `fresh`'s.
pub fn merge(
    fresh: Matrix,
    kept: &Matrix,
    order: &[String],
    tests: &[&LoadedTest],
) -> Result<Matrix, String> {
    if fresh.mode == RowMode::Vectors && kept.mode == RowMode::Groups {
        return Err(
            "the kept matrix has groups of vectors, without the words --rows vectors shows: \
             run every column"
                .into(),
        );
    }
    let fresh_cells = fresh.cells_by_test();
    let kept_cells = kept.cells_by_test();
    let kept_tests = kept_cells.first().map_or(0, HashMap::len);
    if !kept.columns.is_empty() && kept_tests != tests.len() {
        return Err(format!(
            "the kept matrix is over {kept_tests} tests, this run over {}: the vectors or the \
             selection changed, run every column",
            tests.len()
        ));
    }
    let mut columns: Vec<Column> = Vec::new();
    let mut sources: Vec<&HashMap<&str, &Cell>> = Vec::new();
    for name in order {
        let (from, cells) = match fresh.columns.iter().position(|c| &c.name == name) {
            Some(i) => (&fresh.columns[i], &fresh_cells[i]),
            None => match kept.columns.iter().position(|c| &c.name == name) {
                Some(i) => (&kept.columns[i], &kept_cells[i]),
                None => {
                    return Err(format!(
                        "the column {name} is neither run (--name {name}) nor in the kept matrix"
                    ))
                }
            },
        };
        columns.push(from.clone());
        sources.push(cells);
    }
    let mut per_test = Vec::with_capacity(tests.len());
    for test in tests {
        let id = test.case.id.as_str();
        let cells = (sources.iter().zip(&columns))
            .map(|(cells, column)| {
                let cell = cells.get(id).ok_or_else(|| {
                    format!(
                        "the column {} has no cell for {id}: the vectors changed, run it too",
                        column.name
                    )
                })?;
                Ok(strip_words(cell, fresh.mode))
            })
            .collect::<Result<Vec<Cell>, String>>()?;
        per_test.push(((id.to_string(), test.request.op()), cells));
    }
    let rows = match columns.is_empty() {
        true => Vec::new(),
        false => rows::lay_out_cells(per_test, fresh.mode),
    };
    Ok(Matrix {
        mode: fresh.mode,
        rows,
        columns,
        nodes: fresh.nodes,
    })
}

/// The node section of the `--node-report` files (`fresh`) with every column of `kept` they do
/// not give: kept columns in their order (a column given again replaced in place), new ones
/// after; rows the checks `check_ids`, a check the kept run did not have being not run.
pub fn merge_nodes(
    fresh: Option<NodeSection>,
    kept: Option<&NodeSection>,
    check_ids: &[String],
) -> Option<NodeSection> {
    let Some(kept) = kept else {
        return fresh;
    };
    let fresh = fresh.unwrap_or(NodeSection {
        columns: Vec::new(),
        rows: Vec::new(),
    });
    let cell = |section: &NodeSection, i: usize, id: &str| {
        (section.rows.iter().find(|r| r.id == id)).map_or(NodeCell::NotRun, |r| r.cells[i].clone())
    };
    let mut sources: Vec<(&NodeSection, usize)> = Vec::new();
    for (i, column) in kept.columns.iter().enumerate() {
        match fresh.columns.iter().position(|c| c.name == column.name) {
            Some(j) => sources.push((&fresh, j)),
            None => sources.push((kept, i)),
        }
    }
    for (j, column) in fresh.columns.iter().enumerate() {
        if !kept.columns.iter().any(|c| c.name == column.name) {
            sources.push((&fresh, j));
        }
    }
    let columns = (sources.iter())
        .map(|(section, i)| section.columns[*i].clone())
        .collect();
    let rows = (check_ids.iter())
        .map(|id| super::nodes::NodeRow {
            id: id.clone(),
            cells: (sources.iter())
                .map(|(section, i)| cell(section, *i, id))
                .collect(),
        })
        .collect();
    Some(NodeSection { columns, rows })
}

/// `cell` as a row of `mode` shows it: groups carry no words.
fn strip_words(cell: &Cell, mode: RowMode) -> Cell {
    match mode {
        RowMode::Vectors => cell.clone(),
        RowMode::Groups => Cell {
            diagnosis: None,
            detail: None,
            ..cell.clone()
        },
    }
}
