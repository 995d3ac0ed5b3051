//! Reports of a run in the formats CI systems and people read: [`human`] (colour only on a
//! terminal), [`json`] (a stable schema, `docs/REPORT.md`), [`junit`], [`tap`], [`markdown`] and
//! [`html`] (one self-contained page).
//!
//! Every format shows, for each failure, the input, the expected and actual values, the first
//! difference and, when one is named, the diagnosis.

pub mod escape;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod stderr;
pub mod tap;
pub mod verdict;

use crate::implementation::{Answer, Fault};
use crate::ops::Output;
use crate::runner::{Conformance, Run, TestResult};

/// A report format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Human,
    Json,
    Junit,
    Tap,
    Markdown,
    Html,
}

impl Format {
    /// Every format, in the order the command line lists them.
    pub const ALL: [Format; 6] = [
        Format::Human,
        Format::Json,
        Format::Junit,
        Format::Tap,
        Format::Markdown,
        Format::Html,
    ];

    /// The format's name on the command line (`junit`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Human => "human",
            Format::Json => "json",
            Format::Junit => "junit",
            Format::Tap => "tap",
            Format::Markdown => "markdown",
            Format::Html => "html",
        }
    }

    /// The format named `name` (any case), if there is one.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }
}

/// The report of `run` in `format`; `colour` only affects the human format.
pub fn render(run: &Run, format: Format, colour: bool) -> String {
    match format {
        Format::Human => human::render(run, colour),
        Format::Json => json::render(run),
        Format::Junit => junit::render(run),
        Format::Tap => tap::render(run),
        Format::Markdown => markdown::render(run),
        Format::Html => html::render(run),
    }
}

/// The verdict in words: what was checked when it is conformant, and every cause when it is
/// not ([`verdict::causes`]).
pub fn verdict_text(run: &Run) -> String {
    match run.conformance() {
        Conformance::Conformant => verdict::conformant(run),
        Conformance::NothingExercised => format!(
            "not conformant: {}",
            run.nothing_exercised().unwrap_or_default()
        ),
        Conformance::Failures | Conformance::Breakdown => {
            format!("not conformant: {}", verdict::causes(run).join("; "))
        }
    }
}

/// The name of the verdict in the JSON report (`conformance`).
pub fn conformance_name(conformance: Conformance) -> &'static str {
    match conformance {
        Conformance::Conformant => "conformant",
        Conformance::Failures => "failures",
        Conformance::Breakdown => "breakdown",
        Conformance::NothingExercised => "nothingExercised",
    }
}

/// The lines a reader must see besides the results: warnings, operations the expectations
/// file requires that were not exercised, and stale expectations entries.
pub fn notices(run: &Run) -> Vec<String> {
    let mut lines: Vec<String> = run
        .warnings
        .iter()
        .map(|w| format!("warning: {w}"))
        .collect();
    if !run.missing_operations.is_empty() {
        let missing: Vec<&str> = run.missing_operations.iter().map(|o| o.as_str()).collect();
        lines.push(format!(
            "coverage dropped: the expectations file requires {}, but no selected test of it was \
             answered (every one unsupported or not claimed)",
            missing.join(", ")
        ));
    }
    if !run.stale_expectations.is_empty() {
        lines.push(format!(
            "stale expectations (no vector has these ids): {}",
            run.stale_expectations.join(", ")
        ));
    }
    lines
}

/// The tests that failed as the expectations file lists them, with why: a conformant run
/// names what it tolerated, not only how many.
pub fn expected_failures(run: &Run) -> Vec<(&str, &str)> {
    (run.results.iter())
        .filter(|r| r.state == crate::runner::State::ExpectedFailure)
        .map(|r| (r.test.case.id.as_str(), r.message.as_str()))
        .collect()
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
        Answer::Wide(wide) => wide.output.to_string(),
        Answer::Fault(Fault::Timeout) => "no answer in time".into(),
        Answer::Fault(fault) => fault.to_string(),
    }
}

/// What the suite's policy, rather than Core, decides about a test with these flags: the
/// `policy` of the suite's own notes for them (the bug-class registry and the divergences),
/// or an empty string when Core decides all of it. Flags the suite does not define (in a
/// `--vectors DIR` of one's own) have no policy here.
pub fn policy(flags: &[String]) -> String {
    let policies: Vec<String> = flags
        .iter()
        .filter_map(|flag| crate::flags::note(flag)?.policy)
        .collect();
    policies.join("; ")
}

/// Why an `invalid` test must be rejected: where Core rejects it, or, when Core has no
/// defined behaviour there, the suite's policy.
pub fn rejection_basis(test: &crate::vectors::LoadedTest) -> String {
    match policy(&test.case.flags) {
        policy if policy.is_empty() => format!(
            "Core rejects it at phase {}",
            crate::runner::select::wire_name(&test.case.phase)
        ),
        policy => format!("the suite's policy: {policy}"),
    }
}

/// Where a value a report cuts is whole: the JSON report, which a run writes beside any other.
pub const WHOLE_VALUES: &str = "whole in the JSON report: --report json:FILE";

/// The labelled lines that explain a result, empty ones left out. Values longer than `limit`
/// characters are cut (the JSON report always carries them whole, and the cut says so): at the
/// end, except the end of a crashed adapter's stderr (`stderr`), which keeps the lines that
/// name the error and its last lines ([`stderr::excerpt`]).
/// A fault is said once, in `why`: it has no `actual` line.
pub fn details(result: &TestResult, limit: Option<usize>) -> Vec<(&'static str, String)> {
    let test = &result.test;
    let cut = |label: &str, text: String| match limit {
        _ if label == "stderr" => stderr::excerpt(&text, limit),
        Some(max) if text.chars().count() > max => {
            let kept: String = text.chars().take(max).collect();
            format!(
                "{kept}... ({} characters; {WHOLE_VALUES})",
                text.chars().count()
            )
        }
        _ => text,
    };
    let expected = match &test.expected {
        Some(e) if test.case.result == crate::vectors::Expectation::Acceptable => {
            format!("{} or a rejection", e.to_json())
        }
        Some(e) => e.to_json().to_string(),
        None => format!("a rejection ({})", rejection_basis(test)),
    };
    let crash = match &result.answer {
        Answer::Fault(fault) => fault.crash_parts(),
        _ => None,
    };
    let why = match (crash, result.state) {
        // An expected failure's message says more (the expectations entry) than the crash.
        (Some((status, _)), crate::runner::State::Crash) => format!("crashed: {status}"),
        _ => result.message.clone(),
    };
    let actual = match &result.answer {
        Answer::Fault(_) => String::new(),
        answer => describe_answer(answer),
    };
    let stderr = crash
        .and_then(|(_, stderr)| stderr)
        .map(str::to_string)
        .unwrap_or_default();
    let lines = [
        ("comment", test.case.comment.clone()),
        ("why", why),
        ("input", test.request.input_json().to_string()),
        ("expected", expected),
        // An invalid test's policy is already in its expected line.
        (
            "policy",
            match test.case.result {
                crate::vectors::Expectation::Invalid => String::new(),
                _ => policy(&test.case.flags),
            },
        ),
        ("actual", actual),
        ("stderr", stderr),
        ("difference", result.difference.clone().unwrap_or_default()),
        ("diagnosis", result.diagnosis.clone().unwrap_or_default()),
    ];
    lines
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| (k, cut(k, v)))
        .collect()
}
