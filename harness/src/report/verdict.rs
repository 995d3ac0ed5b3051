//! The verdict line's words. "Conformant" says what was checked (how many of the claimed
//! operations some test passed in, and what was left out of the claim); "not conformant" names
//! every cause, each counted: failing tests by state, claimed tests answered `unsupported`,
//! unexpected passes, stale expectations entries, a coverage drop, a breakdown.

use crate::ops::OpName;
use crate::runner::{Run, State};
use std::collections::{BTreeMap, BTreeSet};

/// `count` of `what`, in the plural when it is not one (`2 unexpected passes`).
fn plural(count: usize, what: &str) -> String {
    match count {
        1 => format!("1 {what}"),
        n if what.ends_with('s')
            || what.ends_with('x')
            || what.ends_with("sh")
            || what.ends_with("ch") =>
        {
            format!("{n} {what}es")
        }
        n => format!("{n} {what}s"),
    }
}

/// A state's count, as `crash: 3` (a state's name is a word of the report, not a noun to
/// put in the plural).
fn state_count(state: State, count: usize) -> String {
    format!("{state}: {count}")
}

/// "conformant in X of Y claimed operations", with what was passed, expected and left out.
pub fn conformant(run: &Run) -> String {
    let asked: BTreeSet<OpName> = run.results.iter().map(|r| r.test.request.op()).collect();
    let claimed: Vec<OpName> = asked
        .iter()
        .copied()
        .filter(|op| run.claimed.contains(op))
        .collect();
    let passed: BTreeSet<OpName> = run
        .results
        .iter()
        .filter(|r| r.state == State::Pass)
        .map(|r| r.test.request.op())
        .collect();
    let count = |state: State| run.results.iter().filter(|r| r.state == state).count();
    let mut text = format!(
        "conformant in {} of {} claimed operations the selected tests ask ({})",
        passed.len(),
        claimed.len(),
        plural(count(State::Pass), "test") + " passed"
    );
    let unpassed: Vec<String> = claimed
        .iter()
        .filter(|op| !passed.contains(op))
        .map(|op| format!("{} ({})", op.as_str(), why_none_passed(run, *op)))
        .collect();
    if !unpassed.is_empty() {
        text.push_str(&format!("; no test passed in {}", unpassed.join(", ")));
    }
    let expected = count(State::ExpectedFailure);
    if expected > 0 {
        text.push_str(&format!("; {}", plural(expected, "expected failure")));
    }
    let left_out = count(State::NotClaimed);
    if left_out > 0 {
        text.push_str(&format!("; {} not claimed", plural(left_out, "test")));
        if !run.capabilities.is_everything() {
            text.push_str(&format!(
                " (the hello's capabilities: {})",
                run.capabilities
            ));
        }
    }
    text
}

/// What the tests of `op`, a claimed operation none of whose tests passed in a conformant run,
/// were instead: each state counted, so an expected failure is named only where the
/// expectations file listed one, and tests the hello's capabilities excluded are called so.
fn why_none_passed(run: &Run, op: OpName) -> String {
    let mut by_state: BTreeMap<State, usize> = BTreeMap::new();
    for r in run.results.iter().filter(|r| r.test.request.op() == op) {
        *by_state.entry(r.state).or_insert(0) += 1;
    }
    let parts: Vec<String> = by_state
        .iter()
        .map(|(state, n)| match state {
            State::ExpectedFailure => plural(*n, "expected failure"),
            State::NotClaimed => format!(
                "{} excluded by the hello's capabilities",
                plural(*n, "test")
            ),
            state => state_count(*state, *n),
        })
        .collect();
    parts.join(", ")
}

/// Every reason the run is not conformant, most severe first (none for a conformant run).
pub fn causes(run: &Run) -> Vec<String> {
    let mut causes = Vec::new();
    if let Some(why) = &run.aborted {
        causes.push(format!("the run stopped early: {why}"));
    }
    let mut by_state: BTreeMap<State, usize> = BTreeMap::new();
    for r in run.failures() {
        *by_state.entry(r.state).or_insert(0) += 1;
    }
    let take =
        |by_state: &mut BTreeMap<State, usize>, state: State| by_state.remove(&state).unwrap_or(0);
    let broken: Vec<String> = [State::Crash, State::Timeout, State::NotRun]
        .into_iter()
        .filter_map(|state| match take(&mut by_state, state) {
            0 => None,
            n => Some(state_count(state, n)),
        })
        .collect();
    if !broken.is_empty() {
        causes.push(format!(
            "the implementation broke down ({})",
            broken.join(", ")
        ));
    }
    let unanswered = take(&mut by_state, State::Unsupported);
    let unexpected = take(&mut by_state, State::UnexpectedPass);
    let failing: usize = by_state.values().sum();
    if failing > 0 {
        let states: Vec<String> = by_state
            .iter()
            .map(|(state, n)| state_count(*state, *n))
            .collect();
        causes.push(format!(
            "{} ({})",
            plural(failing, "failing test"),
            states.join(", ")
        ));
    }
    if unanswered > 0 {
        causes.push(format!(
            "{} answered `unsupported` (an unanswered claim: not listed in the expectations \
             file with a reason, nor excluded by a declared capability)",
            plural(unanswered, "claimed test")
        ));
    }
    if unexpected > 0 {
        causes.push(format!(
            "{} (listed as failing in the expectations file: remove the entries)",
            plural(unexpected, "unexpected pass")
        ));
    }
    match run.stale_expectations.len() {
        0 => {}
        1 => causes.push("1 stale expectations entry (no vector has its id)".to_string()),
        n => causes.push(format!(
            "{n} stale expectations entries (no vector has their ids)"
        )),
    }
    if !run.missing_operations.is_empty() {
        let missing: Vec<&str> = run.missing_operations.iter().map(|o| o.as_str()).collect();
        causes.push(format!(
            "coverage dropped: no selected test of {} was answered, which the expectations \
             file requires",
            missing.join(", ")
        ));
    }
    causes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_and_state_counts() {
        assert_eq!(plural(2, "unexpected pass"), "2 unexpected passes");
        assert_eq!(plural(1, "unexpected pass"), "1 unexpected pass");
        assert_eq!(plural(3, "failing test"), "3 failing tests");
        assert_eq!(state_count(State::Crash, 3), "crash: 3");
    }
}
