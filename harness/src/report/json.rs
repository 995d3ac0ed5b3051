//! The JSON report: a stable, documented schema (`docs/REPORT.md`, `reportVersion` 1) that
//! carries every result whole, for tools that post-process runs.

use super::{conformance_name, verdict_text};
use crate::implementation::{Answer, Fault};
use crate::ops::Output;
use crate::runner::select::source_kind;
use crate::runner::{Run, State, TestResult};
use serde_json::{json, Map, Value};

/// The version of the report schema; it changes only when a field changes meaning or goes.
pub const REPORT_VERSION: u32 = 1;

/// Renders `run` as a pretty-printed JSON document.
pub fn render(run: &Run) -> String {
    let text = serde_json::to_string_pretty(&to_value(run)).unwrap_or_default();
    super::escape::json(&text).into_owned() + "\n"
}

/// The report as a JSON value.
pub fn to_value(run: &Run) -> Value {
    let counts = run.counts();
    let mut summary = Map::new();
    summary.insert("total".into(), json!(run.results.len()));
    for state in State::ALL {
        summary.insert(
            state.as_str().into(),
            json!(counts.get(state).copied().unwrap_or(0)),
        );
    }
    json!({
        "reportVersion": REPORT_VERSION,
        "tool": {"name": "bip37-conform", "version": env!("CARGO_PKG_VERSION")},
        "implementation": run.implementation,
        "conformance": conformance_name(run.conformance()),
        "verdict": verdict_text(run),
        "aborted": run.aborted,
        "elapsedMs": run.elapsed.as_secs_f64() * 1e3,
        "summary": summary,
        "staleExpectations": run.stale_expectations,
        "warnings": run.warnings,
        "missingOperations": run.missing_operations.iter().map(|o| o.as_str()).collect::<Vec<_>>(),
        "claimedOperations": run.claimed.iter().map(|o| o.as_str()).collect::<Vec<_>>(),
        "results": run.results.iter().map(result_value).collect::<Vec<_>>(),
    })
}

fn result_value(result: &TestResult) -> Value {
    let test = &result.test;
    json!({
        "id": test.case.id,
        "file": test.file,
        "operation": test.request.op().as_str(),
        "phase": test.case.phase,
        "source": source_kind(&test.group.source),
        "result": test.case.result,
        "flags": test.case.flags,
        "comment": test.case.comment,
        "state": result.state,
        "message": result.message,
        "input": test.request.input_json(),
        "expected": test.expected.as_ref().map(Output::to_json),
        "answer": answer_value(&result.answer),
        "difference": result.difference,
        "diagnosis": result.diagnosis,
        "policy": Some(super::policy(&test.case.flags)).filter(|p| !p.is_empty()),
        "durationMs": result.duration.as_secs_f64() * 1e3,
    })
}

fn answer_value(answer: &Answer<Output>) -> Value {
    match answer {
        Answer::Ok(output) => json!({"status": "ok", "output": output.to_json()}),
        Answer::Rejected(r) => json!({"status": "error", "stage": r.stage, "message": r.message}),
        Answer::Unsupported => json!({"status": "unsupported"}),
        Answer::Wide(wide) => {
            let paths: Vec<&str> = wide.fields.iter().map(|(path, _)| path.as_str()).collect();
            json!({"status": "ok", "output": wide.output, "widerThan32Bits": paths})
        }
        Answer::Fault(fault) => {
            let kind = match fault {
                Fault::Crash(_) => "crash",
                Fault::Timeout => "timeout",
                Fault::Protocol(_) => "protocol",
                Fault::Oversized { .. } => "oversized",
            };
            json!({"status": "fault", "kind": kind, "message": fault.to_string()})
        }
    }
}
