//! The TAP (version 13) report: one line per test with a YAML block for each failure.
//! Tests outside the claim are `# SKIP`, expected failures `# TODO`, as TAP consumers expect.

use super::{details, notices, verdict_text};
use crate::runner::{Run, State};
use std::fmt::Write;

/// Renders `run` as TAP.
pub fn render(run: &Run) -> String {
    let mut out = format!("TAP version 13\n1..{}\n", run.results.len());
    for (n, r) in run.results.iter().enumerate() {
        let n = n + 1;
        let id = one_line(&r.test.case.id);
        let _ = match r.state {
            State::Pass => writeln!(out, "ok {n} - {id}"),
            State::NotClaimed => writeln!(out, "ok {n} - {id} # SKIP not claimed"),
            State::ExpectedFailure => {
                writeln!(out, "not ok {n} - {id} # TODO {}", one_line(&r.message))
            }
            _ => writeln!(out, "not ok {n} - {id}"),
        };
        if r.state.is_failure() {
            out.push_str("  ---\n");
            let _ = writeln!(out, "  state: {}", r.state);
            for (label, value) in details(r, None) {
                // A JSON string is a valid YAML scalar, whatever it contains.
                let value = serde_json::Value::from(value).to_string();
                let _ = writeln!(out, "  {label}: {}", super::escape::json(&value));
            }
            out.push_str("  ...\n");
        }
    }
    if let Some(why) = &run.aborted {
        let _ = writeln!(out, "# run stopped early: {why}");
    }
    for notice in notices(run) {
        let _ = writeln!(out, "# {}", one_line(&notice));
    }
    let _ = writeln!(out, "# {}", one_line(&verdict_text(run)));
    out
}

fn one_line(text: &str) -> String {
    super::escape::control(text).replace('#', "\\#")
}
