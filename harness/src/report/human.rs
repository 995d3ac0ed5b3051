//! The report for people: counts per state, then every failure with its details, then the
//! verdict. Colour is the caller's choice (the CLI uses it only on a terminal).

use super::escape::control;
use super::{details, expected_failures, notices, verdict_text};
use crate::runner::select::{source_kind, wire_name};
use crate::runner::{Conformance, Run, State};
use std::fmt::Write;

/// Values longer than this are cut in the human report.
const VALUE_LIMIT: usize = 400;

fn paint(colour: bool, code: &str, text: &str) -> String {
    if colour {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

fn state_colour(state: State) -> &'static str {
    match state {
        State::Pass => "32",
        State::NotClaimed | State::ExpectedFailure => "33",
        _ => "31",
    }
}

/// Renders `run` for a terminal or a log.
pub fn render(run: &Run, colour: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "bip37-conform: {}, {} tests in {:.3} s",
        control(&run.implementation),
        run.results.len(),
        run.elapsed.as_secs_f64()
    );
    let counts: Vec<String> = run
        .counts()
        .iter()
        .map(|(state, n)| paint(colour, state_colour(*state), &format!("{state} {n}")))
        .collect();
    let _ = writeln!(out, "{}", counts.join(", "));
    for result in run.failures() {
        let test = &result.test;
        let _ = writeln!(
            out,
            "\n{} {}  [{}, phase {}, source {}]",
            paint(colour, "1;31", result.state.as_str()),
            paint(colour, "1", &control(&test.case.id)),
            test.request.op(),
            wire_name(&test.case.phase),
            source_kind(&test.group.source)
        );
        for (label, value) in details(result, Some(VALUE_LIMIT)) {
            // stderr's lines are shown one under the other, each escaped; any other value is
            // one line, its newlines escaped.
            let lines: Vec<&str> = match label {
                "stderr" => value.split('\n').collect(),
                _ => vec![&value],
            };
            for (i, line) in lines.into_iter().enumerate() {
                let label = if i == 0 { label } else { "" };
                let _ = writeln!(out, "  {label:<10} {}", control(line));
            }
        }
    }
    let tolerated = expected_failures(run);
    if !tolerated.is_empty() {
        let _ = writeln!(
            out,
            "\nexpected failures ({}, listed in the expectations file):",
            tolerated.len()
        );
        for (id, why) in tolerated {
            let why = match why.chars().count() > VALUE_LIMIT {
                true => format!("{}...", why.chars().take(VALUE_LIMIT).collect::<String>()),
                false => why.to_string(),
            };
            let _ = writeln!(out, "  {}  {}", control(id), control(&why));
        }
    }
    for notice in notices(run) {
        let _ = writeln!(out, "\n{}", control(&notice));
    }
    if let Some(why) = &run.aborted {
        let _ = writeln!(out, "\nrun stopped early: {}", control(why));
    }
    let code = match run.conformance() {
        Conformance::Conformant => "1;32",
        _ => "1;31",
    };
    let _ = writeln!(out, "\n{}", paint(colour, code, &verdict_text(run)));
    out
}
