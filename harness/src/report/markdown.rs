//! The Markdown report, for pull-request comments and job summaries: the verdict, a table of
//! counts per state and one section per failure.

use super::escape::{code_span, markdown_text};
use super::{details, expected_failures, notices, verdict_text};
use crate::runner::Run;
use std::fmt::Write;

/// Values longer than this are cut in the Markdown report.
const VALUE_LIMIT: usize = 600;

/// Renders `run` as Markdown.
pub fn render(run: &Run) -> String {
    let mut out = format!(
        "## bip37-conform: {}\n\n**{}**: {} tests in {:.3} s.\n\n| state | tests |\n|---|---:|\n",
        markdown_text(&run.implementation),
        verdict_text(run),
        run.results.len(),
        run.elapsed.as_secs_f64()
    );
    for (state, n) in run.counts() {
        let _ = writeln!(out, "| {state} | {n} |");
    }
    if let Some(why) = &run.aborted {
        let _ = writeln!(out, "\nThe run stopped early: {}.", markdown_text(why));
    }
    for notice in notices(run) {
        let _ = writeln!(out, "\n{}", markdown_text(&notice));
    }
    let tolerated = expected_failures(run);
    if !tolerated.is_empty() {
        let _ = writeln!(
            out,
            "\nExpected failures ({}, listed in the expectations file):\n",
            tolerated.len()
        );
        for (id, why) in tolerated {
            let why: String = why.chars().take(VALUE_LIMIT).collect();
            let _ = writeln!(out, "- {}: {}", code_span(id), markdown_text(&why));
        }
    }
    for r in run.failures() {
        let _ = writeln!(out, "\n### {}: {}\n", code_span(&r.test.case.id), r.state);
        for (label, value) in details(r, Some(VALUE_LIMIT)) {
            let _ = writeln!(out, "- **{label}**: {}", code_span(&value));
        }
    }
    out
}
