//! The matrix as one self-contained HTML page (`matrix --html FILE`): the implementations with
//! their counts, then a grid of tests (rows, grouped by operation; a group row of the pruned
//! matrix is one row per test) against implementations (columns), each cell coloured by its
//! state and showing the state's symbol, with filters by operation, state and bug class and a
//! count that follows them. The page, its policy and its script are the run report's
//! ([`bip37_harness::report::html::page`]); every text from a manifest, a handshake or a
//! diagnosis is escaped.
//!
//! For the browser check: `#summary` carries `data-count-tests` (the tests, every row's ids)
//! and `data-count-cells-<state>` (cells in each state, a group row counting once per test),
//! each column's header `data-count-<state>` (its run's counts).

use super::Matrix;
use bip37_harness::report::escape::html as esc;
use bip37_harness::report::html::{filter_select, legend, page, state_badge, state_symbol};
use bip37_harness::runner::State;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// The page of `matrix`.
pub fn render(matrix: &Matrix) -> String {
    let mut body = String::from("<header><h1>BIP 37 conformance matrix</h1>\n");
    let tests: usize = matrix.rows.iter().map(|r| r.tests.len()).sum();
    let mut cells: BTreeMap<&str, usize> = BTreeMap::new();
    let mut ops: Vec<String> = Vec::new();
    let mut classes: BTreeSet<String> = BTreeSet::new();
    for row in &matrix.rows {
        if !ops.contains(&row.operation.as_str().to_string()) {
            ops.push(row.operation.as_str().to_string());
        }
        for cell in &row.cells {
            *cells.entry(cell.state.as_str()).or_default() += row.tests.len();
            classes.extend(cell.bug_classes.iter().cloned());
        }
    }
    let _ = writeln!(
        body,
        "<p>Columns are implementations, rows are the {tests} tests grouped by operation. A cell \
         is the test's state (symbol and colour) and the bug classes its diagnosis names (on \
         hover or keyboard focus, with their hedge, likely or possibly, and in the filter). Made by bip37-conform {} on {}.</p></header>",
        env!("CARGO_PKG_VERSION"),
        bip37_harness::report::html::now_utc()
    );
    let mut attrs = format!("data-count-tests=\"{tests}\"");
    for state in State::ALL {
        let _ = write!(
            attrs,
            " data-count-cells-{}=\"{}\"",
            state.as_str(),
            cells.get(state.as_str()).copied().unwrap_or(0)
        );
    }
    let _ = writeln!(
        body,
        "<section id=\"summary\" {attrs}>\n<h2>Implementations</h2>\n<table><thead><tr>\
         <th>column</th><th>implementation</th><th>tests by state</th><th>diagnosis</th>\
         <th>command</th></tr></thead><tbody>"
    );
    for c in &matrix.columns {
        let counts: Vec<String> = (c.counts.iter())
            .filter(|(_, n)| **n > 0)
            .map(|(s, n)| format!("{} {n}", state_badge(s.as_str())))
            .collect();
        let stopped = match &c.aborted {
            Some(why) => format!(" (stopped early: {})", esc(why)),
            None => String::new(),
        };
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{}{stopped}</td><td>{}</td><td><code>{}</code></td></tr>",
            esc(&c.name),
            esc(&c.implementation),
            counts.join(", "),
            esc(&c.diagnosis),
            esc(&c.command)
        );
    }
    body.push_str("</tbody></table>\n</section>\n");
    let states: Vec<String> = State::ALL
        .iter()
        .filter(|s| cells.contains_key(s.as_str()))
        .map(|s| s.as_str().to_string())
        .collect();
    let classes: Vec<String> = classes.into_iter().collect();
    let _ = writeln!(
        body,
        "<h2 id=\"grid\">Tests against implementations</h2>\n<div class=\"controls\">{}{}{}\
         <span>shown: <strong id=\"shown\" data-shown=\"{tests}\">{tests}</strong> of {tests} \
         tests</span></div>\n{}\n<p id=\"cell-detail\" aria-live=\"polite\">Tab to a cell (or \
         hover it) for its state, bug classes and diagnosis.</p>",
        filter_select("op", "Operation", &ops),
        filter_select("state", "A cell in state", &states),
        filter_select("class", "Bug class", &classes),
        legend(&states.iter().map(String::as_str).collect::<Vec<_>>())
    );
    body.push_str("<table class=\"matrix\"><thead><tr><th>test</th>");
    for c in &matrix.columns {
        let mut attrs = String::new();
        for state in State::ALL {
            let _ = write!(
                attrs,
                " data-count-{}=\"{}\"",
                state.as_str(),
                c.counts.get(state).copied().unwrap_or(0)
            );
        }
        let _ = write!(
            body,
            "<th class=\"col\" scope=\"col\" data-column=\"{0}\"{attrs}>{0}</th>",
            esc(&c.name)
        );
    }
    body.push_str("</tr></thead>\n");
    for op in &ops {
        let rows: Vec<_> = matrix
            .rows
            .iter()
            .filter(|r| r.operation.as_str() == op)
            .collect();
        let n: usize = rows.iter().map(|r| r.tests.len()).sum();
        let _ = writeln!(
            body,
            "<tbody><tr><th colspan=\"{}\" scope=\"rowgroup\">{} ({n} tests)</th></tr>",
            matrix.columns.len() + 1,
            esc(op)
        );
        for row in rows {
            let mut states: Vec<&str> = row.cells.iter().map(|c| c.state.as_str()).collect();
            states.sort_unstable();
            states.dedup();
            let mut row_classes: Vec<String> = row
                .cells
                .iter()
                .flat_map(|c| c.bug_classes.clone())
                .collect();
            row_classes.sort();
            row_classes.dedup();
            let mut tds = String::new();
            for (c, cell) in matrix.columns.iter().zip(&row.cells) {
                let mut title = format!("{}: {}", c.name, cell.state.as_str());
                if !cell.bug_classes.is_empty() {
                    let _ = write!(title, " ({})", cell.hedged_classes().join(", "));
                }
                if let Some(d) = cell.detail.as_ref().or(cell.diagnosis.as_ref()) {
                    let d: String = d.chars().take(300).collect();
                    let _ = write!(title, "; {d}");
                }
                let _ = write!(
                    tds,
                    "<td class=\"c-{}\" tabindex=\"0\" title=\"{}\">{}</td>",
                    cell.state.as_str(),
                    esc(&title),
                    state_symbol(cell.state.as_str())
                );
            }
            for test in &row.tests {
                let _ = writeln!(
                    body,
                    "<tr data-row data-op=\"{}\" data-state=\"{}\" data-class=\"{}\"><td class=\"id\">{}</td>{tds}</tr>",
                    esc(op),
                    states.join(" "),
                    esc(&row_classes.join(" ")),
                    esc(test)
                );
            }
        }
        body.push_str("</tbody>\n");
    }
    body.push_str("</table>\n");
    if matrix.nodes.is_some() {
        body.push_str(
            "<p>This matrix also has a node section; the Markdown and JSON matrices show it.</p>\n",
        );
    }
    page("BIP 37 conformance matrix", &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn committed() -> Matrix {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../adapters/matrix.json");
        super::super::json::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn the_committed_matrix_renders_every_test_and_cell() {
        let matrix = committed();
        let page = render(&matrix);
        let tests: usize = matrix.rows.iter().map(|r| r.tests.len()).sum();
        assert_eq!(page.matches("<tr data-row").count(), tests);
        let cells = page.matches("<td class=\"c-").count();
        assert_eq!(cells, tests * matrix.columns.len());
        // Every cell takes the keyboard's focus, and the page has where its title is shown.
        assert_eq!(page.matches("tabindex=\"0\" title=").count(), cells);
        assert!(page.contains("<p id=\"cell-detail\" aria-live=\"polite\">"));
        let pass: usize = (matrix.rows.iter())
            .map(|r| r.cells.iter().filter(|c| c.state == State::Pass).count() * r.tests.len())
            .sum();
        assert!(page.contains(&format!("data-count-cells-pass=\"{pass}\"")));
        assert!(page.contains(&format!("data-count-tests=\"{tests}\"")));
    }

    #[test]
    fn a_hostile_column_renders_as_text() {
        let mut matrix = committed();
        matrix.columns[0].name = "<script>alert(1)</script>".into();
        matrix.columns[0].implementation = "\"><img src=x onerror=alert(1)>".into();
        matrix.rows[0].cells[0].bug_classes = vec!["\"><svg onload=alert(1)>".into()];
        let page = render(&matrix);
        let body = &page[page.find("<body>").unwrap()..page.rfind("<script>").unwrap()];
        assert!(!body.contains("<script") && !body.contains("<img") && !body.contains("<svg"));
        assert!(body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    }
}
