//! The node section of the matrix: the checks of the node suite (`vectors/node/checks.json`)
//! as rows and full nodes as columns, read from the JSON reports of `bip37-conform node` runs
//! (`--node-report COLUMN=FILE`; several reports of one column, e.g. a node run with NODE_BLOOM
//! on and off, merge) so the matrix shows what CI measured instead of running nodes itself.
//! Node checks are not vectors, so they get a table of their own beside the libraries'.
//!
//! A cell says only what the report says: pass, a pass on a legitimate difference from Core,
//! an expected failure (listed in the node's expectations file), another failure by its state,
//! or not run (the check needs the other NODE_BLOOM setting, or the node was not run here).

use bip37_harness::runner::State;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The largest report read: a node suite report is about 100 KB.
const MAX_REPORT_BYTES: u64 = 16 * 1024 * 1024;

/// The message prefix of a pass on a legitimate deviation (node/judge.rs).
pub const LEGITIMATE: &str = "a legitimate difference from Core";

/// What one node did on one check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "result")]
pub enum NodeCell {
    Pass,
    AcceptableDifference {
        detail: String,
    },
    ExpectedFailure {
        detail: String,
    },
    /// Any other failure, with its state.
    Failure {
        state: State,
        detail: String,
    },
    NotRun,
}

/// One node: its column and the reports it was read from (none: not run here).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeColumn {
    pub name: String,
    pub reports: Vec<PathBuf>,
}

/// One check: its id and a cell per column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeRow {
    pub id: String,
    pub cells: Vec<NodeCell>,
}

/// The node section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeSection {
    pub columns: Vec<NodeColumn>,
    pub rows: Vec<NodeRow>,
}

/// Parses `COLUMN=FILE` (an empty FILE: a column of a node not run here).
pub fn parse_node_report(text: &str) -> Result<(String, Option<PathBuf>), String> {
    let Some((name, file)) = text.split_once('=') else {
        return Err(format!("{text:?}: expected COLUMN=FILE"));
    };
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Err(format!("{text:?}: the column must be a non-empty word"));
    }
    Ok((name.to_string(), (!file.is_empty()).then(|| file.into())))
}

/// The node section of the reports `given` (column, report file or none), columns in first-seen
/// order, rows in the order of `check_ids`. A report naming a check not in `check_ids`, or two
/// reports of one column that both ran a check, is an error.
pub fn build(
    given: &[(String, Option<PathBuf>)],
    check_ids: &[String],
) -> Result<NodeSection, String> {
    let mut columns: Vec<NodeColumn> = Vec::new();
    for (name, report) in given {
        let column = match columns.iter_mut().find(|c| &c.name == name) {
            Some(column) => column,
            None => {
                columns.push(NodeColumn {
                    name: name.clone(),
                    reports: Vec::new(),
                });
                columns.last_mut().expect("just pushed")
            }
        };
        column.reports.extend(report.iter().cloned());
    }
    let mut rows: Vec<NodeRow> = check_ids
        .iter()
        .map(|id| NodeRow {
            id: id.clone(),
            cells: vec![NodeCell::NotRun; columns.len()],
        })
        .collect();
    for (i, column) in columns.iter().enumerate() {
        for report in &column.reports {
            for (id, cell) in read_report(report)? {
                let row = rows.iter_mut().find(|r| r.id == id).ok_or_else(|| {
                    format!(
                        "{}: check {id} is not in vectors/node/checks.json",
                        report.display()
                    )
                })?;
                if cell == NodeCell::NotRun {
                    continue;
                }
                if row.cells[i] != NodeCell::NotRun {
                    return Err(format!(
                        "{}: check {id} of {} was already run in another report",
                        report.display(),
                        column.name
                    ));
                }
                row.cells[i] = cell;
            }
        }
    }
    Ok(NodeSection { columns, rows })
}

/// Each result of a node suite JSON report (`--report json:FILE`) as a cell.
fn read_report(path: &Path) -> Result<Vec<(String, NodeCell)>, String> {
    let text = bip37_harness::input_file::read_text(path, MAX_REPORT_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let report: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let results = report["results"]
        .as_array()
        .ok_or_else(|| format!("{}: not a bip37-conform JSON report", path.display()))?;
    results
        .iter()
        .map(|r| {
            let id = r["id"].as_str().unwrap_or_default().to_string();
            let state: State = serde_json::from_value(r["state"].clone())
                .map_err(|e| format!("{}: {id}: state: {e}", path.display()))?;
            let detail = r["message"].as_str().unwrap_or_default().to_string();
            Ok((id, cell(state, detail)))
        })
        .collect()
}

fn cell(state: State, detail: String) -> NodeCell {
    match state {
        State::Pass if detail.starts_with(LEGITIMATE) => NodeCell::AcceptableDifference { detail },
        State::Pass => NodeCell::Pass,
        State::ExpectedFailure => NodeCell::ExpectedFailure { detail },
        // A node's check that does not apply is `notClaimed` (`unsupported` in reports written
        // before the hello was a claim).
        State::NotClaimed | State::Unsupported | State::NotRun => NodeCell::NotRun,
        state => NodeCell::Failure { state, detail },
    }
}

/// The section as Markdown.
pub fn markdown(section: &NodeSection) -> String {
    use bip37_harness::report::escape::markdown_text as escape;
    use std::fmt::Write;
    let mut out = String::from("## Node checks\n\n");
    out.push_str(
        "Rows are the checks of the node suite (`vectors/node/checks.json`), columns full nodes, \
         read from their `bip37-conform node` JSON reports (README, Check a node). A cell: pass; \
         acceptable difference (a legitimate difference from Core, which the check allows); \
         expected failure (listed in the node's expectations file); a failure by its state; not \
         run (the check needs the other NODE_BLOOM setting, or the node was not run here).\n\n",
    );
    let names: Vec<String> = section.columns.iter().map(|c| escape(&c.name)).collect();
    let _ = writeln!(out, "| check | {} |", names.join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(names.len()));
    for row in &section.rows {
        let cells: Vec<String> = row
            .cells
            .iter()
            .map(|c| match c {
                NodeCell::Pass => "✅ pass".to_string(),
                NodeCell::AcceptableDifference { detail } => {
                    format!("acceptable difference<br>{}", escape(detail))
                }
                NodeCell::ExpectedFailure { detail } => {
                    let reason = detail.strip_prefix("expected failure ").unwrap_or(detail);
                    format!("expected failure<br>{}", escape(reason))
                }
                NodeCell::Failure { state, detail } => format!("{state}<br>{}", escape(detail)),
                NodeCell::NotRun => "not run".to_string(),
            })
            .collect();
        let _ = writeln!(out, "| `{}` | {} |", row.id, cells.join(" | "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(dir: &Path, name: &str, results: serde_json::Value) -> PathBuf {
        let path = dir.join(name);
        let text = serde_json::json!({ "results": results }).to_string();
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn reports_of_one_column_merge_and_cells_say_what_the_report_says() {
        let dir = std::env::temp_dir().join(format!("node-matrix-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let on = report(
            &dir,
            "on.json",
            serde_json::json!([
                {"id": "a", "state": "pass", "message": ""},
                {"id": "b", "state": "pass", "message": "a legitimate difference from Core: x"},
                {"id": "c", "state": "expectedFailure", "message": "listed"},
                {"id": "d", "state": "unsupported", "message": "needs no bloom"},
            ]),
        );
        let off = report(
            &dir,
            "off.json",
            serde_json::json!([
                {"id": "a", "state": "unsupported", "message": ""},
                {"id": "d", "state": "wrongValue", "message": "kept"},
            ]),
        );
        let ids: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let given = [
            ("n".to_string(), Some(on.clone())),
            ("n".to_string(), Some(off.clone())),
            ("core".to_string(), None),
        ];
        let section = build(&given, &ids).unwrap();
        let n: Vec<&NodeCell> = section.rows.iter().map(|r| &r.cells[0]).collect();
        assert_eq!(n[0], &NodeCell::Pass);
        assert!(matches!(n[1], NodeCell::AcceptableDifference { .. }));
        assert!(matches!(n[2], NodeCell::ExpectedFailure { .. }));
        assert!(matches!(
            n[3],
            NodeCell::Failure {
                state: State::WrongValue,
                ..
            }
        ));
        assert!(section.rows.iter().all(|r| r.cells[1] == NodeCell::NotRun));
        // A check run by both reports of a column, or unknown to the suite, is refused.
        assert!(build(
            &[("n".into(), Some(on.clone())), ("n".into(), Some(on))],
            &ids
        )
        .is_err());
        assert!(build(&[("n".into(), Some(off))], &ids[..3]).is_err());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_node_report_argument_is_a_column_and_a_file() {
        assert_eq!(
            parse_node_report("bcoin=r.json").unwrap(),
            ("bcoin".into(), Some("r.json".into()))
        );
        assert_eq!(parse_node_report("Core=").unwrap(), ("Core".into(), None));
        assert!(parse_node_report("r.json").is_err());
        assert!(parse_node_report("=r.json").is_err());
    }
}
