//! Running selected tests one at a time against any [`Implementation`], within an overall
//! time bound, and summing up what happened.

use super::state::State;
use super::verdict::{judge, not_claimed, TestResult};
use crate::capabilities::Capabilities;
use crate::implementation::{Answer, Fault, Implementation};
use crate::ops::{OpName, Output, Request};
use crate::vectors::LoadedTest;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// How a run is bounded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Once this much time has passed, the remaining tests are not started.
    pub total_time: Option<Duration>,
}

/// The outcome of a whole run.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The implementation's name for reports.
    pub implementation: String,
    pub results: Vec<TestResult>,
    /// Why the run stopped early, if it did.
    pub aborted: Option<String>,
    pub elapsed: Duration,
    /// Expectations-file entries whose test id does not exist in the vectors.
    pub stale_expectations: Vec<String>,
    /// The operations the implementation claimed (those this harness knows).
    pub claimed: Vec<OpName>,
    /// The narrowings it declared within those operations.
    pub capabilities: Capabilities,
    /// Things a reader should know that do not change the verdict (e.g. unknown operation
    /// names in the hello).
    pub warnings: Vec<String>,
    /// Operations the expectations file requires that no selected test exercised.
    pub missing_operations: Vec<OpName>,
    /// When set, a run in which no test passed is conformant (`--allow-empty`).
    pub allow_empty: bool,
}

/// What a run adds up to, in decreasing order of severity of its exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conformance {
    /// Every answered test passed (unsupported operations and expected failures allowed).
    Conformant,
    /// Some test failed, or the expectations file lists tests that do not exist.
    Failures,
    /// The implementation crashed or timed out, or the run hit its time bound.
    Breakdown,
    /// Nothing failed, but no test passed either: nothing was exercised (see
    /// [`Run::nothing_exercised`]).
    NothingExercised,
}

/// Runs `tests` in order. Tests outside the implementation's claim (an operation it does not
/// claim, an input its capabilities exclude) are reported as not claimed without being sent.
pub fn run_tests(
    tests: &[&LoadedTest],
    implementation: &mut dyn Implementation,
    options: &RunOptions,
) -> Run {
    run_tests_observed(tests, implementation, options, &mut |_| {})
}

/// [`run_tests`], calling `after_test` with the number of tests done after each one (for a
/// progress display).
pub fn run_tests_observed(
    tests: &[&LoadedTest],
    implementation: &mut dyn Implementation,
    options: &RunOptions,
    after_test: &mut dyn FnMut(usize),
) -> Run {
    let start = Instant::now();
    let claimed = implementation.operations();
    let capabilities = implementation.capabilities();
    let unknown = implementation.unknown_operations();
    let mut results = Vec::with_capacity(tests.len());
    let mut aborted = None;
    for test in tests {
        let out_of_time = options.total_time.is_some_and(|t| start.elapsed() >= t);
        if out_of_time && aborted.is_none() {
            aborted = Some(format!(
                "the overall time bound of {:?} was spent",
                options.total_time.unwrap_or_default()
            ));
        }
        if aborted.is_some() {
            let mut result = not_claimed(test, "not run: the overall time bound was spent".into());
            result.state = State::NotRun;
            results.push(result);
            after_test(results.len());
            continue;
        }
        let op = test.request.op();
        if !claimed.contains(&op) {
            results.push(not_claimed(
                test,
                format!("not claimed: the hello does not list {op}"),
            ));
        } else if let Some(why) = capabilities.excludes(&test.request) {
            results.push(not_claimed(test, format!("not claimed: {why}")));
        } else {
            let began = Instant::now();
            let answer = answer_of(implementation, &test.request);
            // A restart of the implementation before this request is not its answer's time.
            let answering = began
                .elapsed()
                .saturating_sub(implementation.last_start_time());
            results.push(judge(test, answer, answering));
        }
        after_test(results.len());
    }
    Run {
        implementation: implementation.name(),
        results,
        aborted,
        elapsed: start.elapsed(),
        stale_expectations: Vec::new(),
        warnings: super::exercised::unknown_operations_warning(&unknown)
            .into_iter()
            .collect(),
        claimed,
        capabilities,
        missing_operations: Vec::new(),
        allow_empty: false,
    }
}

/// The implementation's answer to `request`. An in-process implementation that panics (a
/// library asserting on an input) has crashed on that test: the panic becomes
/// [`Fault::Crash`] and the run goes on, as it does when a subprocess dies. Later answers are
/// judged as they come, whatever state the panic left behind.
fn answer_of(implementation: &mut dyn Implementation, request: &Request) -> Answer<Output> {
    catch_unwind(AssertUnwindSafe(|| implementation.execute(request))).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        Answer::Fault(Fault::Crash(format!("panicked: {why}")))
    })
}

impl Run {
    /// How many tests ended in each state (states with no tests are left out).
    pub fn counts(&self) -> BTreeMap<State, usize> {
        let mut counts = BTreeMap::new();
        for r in &self.results {
            *counts.entry(r.state).or_insert(0) += 1;
        }
        counts
    }

    /// The verdict of the run.
    pub fn conformance(&self) -> Conformance {
        if self.aborted.is_some() || self.results.iter().any(|r| r.state.is_breakdown()) {
            Conformance::Breakdown
        } else if !self.stale_expectations.is_empty()
            || !self.missing_operations.is_empty()
            || self.results.iter().any(|r| r.state.is_failure())
        {
            Conformance::Failures
        } else if !self.allow_empty && self.nothing_exercised().is_some() {
            Conformance::NothingExercised
        } else {
            Conformance::Conformant
        }
    }

    /// The results that make the run fail, in run order.
    pub fn failures(&self) -> impl Iterator<Item = &TestResult> {
        self.results.iter().filter(|r| r.state.is_failure())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{Murmur3Input, Murmur3Output};

    /// Panics on every other request.
    struct Flaky(u32);

    impl Implementation for Flaky {
        fn name(&self) -> String {
            "flaky".into()
        }

        fn murmur3(&mut self, _input: &Murmur3Input) -> Answer<Murmur3Output> {
            self.0 += 1;
            assert!(self.0.is_multiple_of(2), "odd request {}", self.0);
            Answer::Ok(Murmur3Output { hash: 0 })
        }
    }

    #[test]
    fn a_panic_is_a_crash_of_that_test_and_the_run_goes_on() {
        let request = Request::Murmur3(Murmur3Input {
            seed: 0,
            data: crate::hex::Hex(vec![]),
        });
        let mut flaky = Flaky(0);
        match answer_of(&mut flaky, &request) {
            Answer::Fault(Fault::Crash(why)) => assert!(why.contains("odd request 1"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(answer_of(&mut flaky, &request), Answer::Ok(_)));
    }
}
