//! The matrix as Markdown for people: the implementations with their counts, the bug classes
//! diagnosed with the vectors that expose them, the handshake notes, then the rows.

use super::{Cell, Matrix, RowMode};
use bip37_harness::mutants::Bug;
use bip37_harness::runner::State;
use std::fmt::Write;

/// How many test ids a grouped row lists before it says how many more there are.
const IDS_SHOWN: usize = 6;

/// Makes text safe inside a Markdown table cell.
use bip37_harness::report::escape::{markdown_code, markdown_text as escape};

/// Text for a code span in a table cell (where `|` would still end the cell).
fn code_cell(text: &str) -> String {
    markdown_code(text).replace('|', "\\|")
}

fn ids(tests: &[String], limit: usize) -> String {
    let shown: Vec<String> = tests.iter().take(limit).map(|t| format!("`{t}`")).collect();
    let mut text = shown.join(", ");
    if tests.len() > limit {
        let _ = write!(text, " and {} more", tests.len() - limit);
    }
    text
}

fn cell_text(cell: &Cell) -> String {
    let mut text = cell.state.to_string();
    if cell.state == State::Pass {
        text = "✅ pass".into();
    }
    if !cell.bug_classes.is_empty() {
        let _ = write!(text, ": {}", escape(&cell.hedged_classes().join(" or ")));
    }
    if let Some(detail) = &cell.detail {
        let _ = write!(text, "<br>{}", escape(detail));
    }
    if let Some(diagnosis) = &cell.diagnosis {
        let _ = write!(text, "<br>{}", escape(diagnosis));
    }
    text
}

fn counts_text(counts: &std::collections::BTreeMap<State, usize>) -> String {
    let parts: Vec<String> = counts.iter().map(|(s, n)| format!("{s} {n}")).collect();
    parts.join(", ")
}

/// The Markdown document of `matrix`.
pub fn render(matrix: &Matrix) -> String {
    let mut out = String::new();
    let rows_are = match matrix.mode {
        RowMode::Vectors => "vectors",
        RowMode::Groups => {
            "groups of vectors of one operation on which every implementation behaves alike"
        }
    };
    let _ = writeln!(out, "# BIP 37 conformance matrix\n");
    if !matrix.columns.is_empty() {
        let _ = writeln!(
            out,
            "Columns are implementations; rows are {rows_are}. A cell is the state of the test, then \
             the bug classes the diagnosis names for that failure, when it names any, with its \
             hedge: `likely X` when no test of the run refutes X, `possibly X` when its mutant \
             gives this answer but a test of the run refutes it (README, Mutants and \
             diagnosis).\n"
        );
        let _ = writeln!(out, "## Implementations\n");
        let _ = writeln!(
            out,
            "| column | implementation | tests by state | diagnosis | command |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|");
        for c in &matrix.columns {
            let mut counts = counts_text(&c.counts);
            if let Some(why) = &c.aborted {
                let _ = write!(counts, " (stopped early: {why})");
            }
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | `{}` |",
                escape(&c.name),
                escape(&c.implementation),
                escape(&counts),
                escape(&c.diagnosis),
                code_cell(&c.command)
            );
        }

        let classes = matrix.bug_classes();
        if !classes.is_empty() {
            let _ = writeln!(out, "\n## Diagnosed bug classes\n");
            let _ = writeln!(
                out,
                "A bug class is listed where the diagnosis names it: its mutant gives the failing \
                 answer, or each wrong field of it alongside another class; a vector named for \
                 several classes is listed under each.\n"
            );
            let _ = writeln!(
                out,
                "| bug class | what it means | column | vectors that expose it |"
            );
            let _ = writeln!(out, "|---|---|---|---|");
            for (class, by_column) in &classes {
                let meaning = Bug::ALL
                    .iter()
                    .find(|b| b.flag() == class)
                    .map_or("", |b| b.explanation());
                for (column, (hedge, tests)) in by_column {
                    let _ = writeln!(
                        out,
                        "| {} | {} | {} | {} |",
                        escape(&super::hedged(*hedge, class)),
                        escape(meaning),
                        escape(column),
                        ids(tests, usize::MAX)
                    );
                }
            }
        }

        let noted: Vec<_> = matrix
            .columns
            .iter()
            .filter(|c| c.notes.is_some())
            .collect();
        if !noted.is_empty() {
            let _ = writeln!(out, "\n## What the implementations say about themselves\n");
            for c in noted {
                let notes = c.notes.as_deref().unwrap_or_default();
                let _ = writeln!(out, "- **{}**: {}", escape(&c.name), escape(notes));
            }
        }

        let _ = writeln!(out, "\n## Rows\n");
        let names: Vec<String> = matrix.columns.iter().map(|c| escape(&c.name)).collect();
        let _ = writeln!(out, "| operation | vectors | {} |", names.join(" | "));
        let _ = writeln!(out, "|---|---|{}", "---|".repeat(names.len()));
        for row in &matrix.rows {
            let cells: Vec<String> = row.cells.iter().map(cell_text).collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                row.operation,
                ids(&row.tests, IDS_SHOWN),
                cells.join(" | ")
            );
        }
    }
    if let Some(nodes) = &matrix.nodes {
        if !matrix.columns.is_empty() {
            out.push('\n');
        }
        out.push_str(&super::nodes::markdown(nodes));
    }
    out
}
