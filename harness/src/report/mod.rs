//! Reports of a run in the formats CI systems and people read: [`human`] (colour only on a
//! terminal), [`json`] (a stable schema, `docs/REPORT.md`), [`junit`], [`tap`] and [`markdown`].
//!
//! Every format shows, for each failure, the input, the expected and actual values, the first
//! difference and, when one is named, the diagnosis.

pub mod escape;
pub mod human;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod tap;

use crate::implementation::{Answer, Fault};
use crate::ops::Output;
use crate::runner::{Conformance, Run, TestResult};

/// A report format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    Junit,
    Tap,
    Markdown,
}

/// The report of `run` in `format`; `colour` only affects the human format.
pub fn render(run: &Run, format: Format, colour: bool) -> String {
    match format {
        Format::Human => human::render(run, colour),
        Format::Json => json::render(run),
        Format::Junit => junit::render(run),
        Format::Tap => tap::render(run),
        Format::Markdown => markdown::render(run),
    }
}

/// The verdict in words.
pub fn verdict_text(run: &Run) -> &'static str {
    match run.conformance() {
        Conformance::Conformant => "conformant",
        Conformance::Failures => "not conformant: some tests fail",
        Conformance::Breakdown => "not conformant: the implementation crashed or timed out",
    }
}

/// An answer in words: the output as JSON, or what happened instead.
pub fn describe_answer(answer: &Answer<Output>) -> String {
    match answer {
        Answer::Ok(output) => output.to_json().to_string(),
        Answer::Rejected(r) => match r.stage {
            Some(stage) => format!("rejected at stage {stage}: {}", r.message),
            None => format!("rejected: {}", r.message),
        },
        Answer::Unsupported => "unsupported".into(),
        Answer::Fault(Fault::Timeout) => "no answer in time".into(),
        Answer::Fault(fault) => fault.to_string(),
    }
}

/// The labelled lines that explain a result, empty ones left out. Values longer than `limit`
/// characters are cut (the JSON report always carries them whole).
pub fn details(result: &TestResult, limit: Option<usize>) -> Vec<(&'static str, String)> {
    let test = &result.test;
    let cut = |text: String| match limit {
        Some(max) if text.chars().count() > max => {
            let kept: String = text.chars().take(max).collect();
            format!("{kept}... ({} characters)", text.chars().count())
        }
        _ => text,
    };
    let expected = match &test.expected {
        Some(e) if test.case.result == crate::vectors::Expectation::Acceptable => {
            format!("{} or a rejection", e.to_json())
        }
        Some(e) => e.to_json().to_string(),
        None => format!(
            "a rejection (Core rejects at phase {})",
            crate::runner::select::wire_name(&test.case.phase)
        ),
    };
    let lines = [
        ("comment", test.case.comment.clone()),
        ("why", result.message.clone()),
        ("input", test.request.input_json().to_string()),
        ("expected", expected),
        ("actual", describe_answer(&result.answer)),
        ("difference", result.difference.clone().unwrap_or_default()),
        ("diagnosis", result.diagnosis.clone().unwrap_or_default()),
    ];
    lines
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| (k, cut(v)))
        .collect()
}
