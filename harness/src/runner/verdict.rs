//! Judging one answer against one vector: `valid` demands exactly the expected value,
//! `invalid` demands a rejection at any stage, `acceptable` takes either.

use super::diff::first_difference;
use super::state::State;
use crate::implementation::{Answer, Fault};
use crate::ops::Output;
use crate::vectors::{Expectation, LoadedTest};
use std::time::Duration;

/// One test after the run: the vector, the answer, and what they add up to.
#[derive(Debug, Clone, PartialEq)]
pub struct TestResult {
    pub test: LoadedTest,
    pub state: State,
    /// What the implementation answered (`Unsupported` also when the test was not sent).
    pub answer: Answer<Output>,
    /// One line saying why the test is in its state (empty for a pass).
    pub message: String,
    /// Where a wrong value first departs from the expected one.
    pub difference: Option<String>,
    /// The likely bug class behind a failure, when one can be named.
    pub diagnosis: Option<String>,
    /// The time the implementation took to answer.
    pub duration: Duration,
}

/// The state an answer earns against a demand (`result`, with the `expected` output): the
/// judgement of [`judge`], also for callers with no vector yet (a fuzz finding is an answer
/// earning a failing state).
pub fn state_of(result: Expectation, expected: Option<&Output>, answer: &Answer<Output>) -> State {
    match (answer, result) {
        (Answer::Ok(actual), Expectation::Valid | Expectation::Acceptable) => {
            match expected == Some(actual) {
                true => State::Pass,
                false => State::WrongValue,
            }
        }
        (Answer::Wide(_), Expectation::Valid | Expectation::Acceptable) => State::WrongValue,
        (
            Answer::Ok(_) | Answer::Wide(_) | Answer::Fault(Fault::Oversized { .. }),
            Expectation::Invalid,
        ) => State::AcceptedInvalid,
        (Answer::Rejected(_), Expectation::Invalid | Expectation::Acceptable) => State::Pass,
        (Answer::Rejected(_), Expectation::Valid) => State::RejectedValid,
        (Answer::Unsupported, _) => State::Unsupported,
        (Answer::Fault(Fault::Crash(_)), _) => State::Crash,
        (Answer::Fault(Fault::Timeout), _) => State::Timeout,
        (Answer::Fault(Fault::Protocol(_) | Fault::Oversized { .. }), _) => State::ProtocolError,
    }
}

/// The state of `test` given `answer`, with the message and first difference to report. Only
/// tests the implementation claims are judged here: an `unsupported` answer is an unanswered
/// claim ([`not_claimed`] is the result of a test never sent).
pub fn judge(test: &LoadedTest, answer: Answer<Output>, duration: Duration) -> TestResult {
    let state = state_of(test.case.result, test.expected.as_ref(), &answer);
    let (message, difference) = match (&answer, state) {
        (_, State::Pass) => (String::new(), None),
        (Answer::Ok(actual), State::WrongValue) => (
            "answered a value other than the expected one".to_string(),
            Some(first_difference(test, actual)),
        ),
        (Answer::Wide(wide), State::WrongValue) => (
            "answered a value other than the expected one: an integer wider than the 32 bits \
             of its field"
                .to_string(),
            Some(wide.describe(test.expected.as_ref())),
        ),
        (Answer::Fault(Fault::Oversized { limit }), State::AcceptedInvalid) => (
            format!(
                "answered a line over the {limit}-byte cap where a rejection is expected: no rejection is that long, so this is an accept ({})",
                crate::report::rejection_basis(test)
            ),
            None,
        ),
        (_, State::AcceptedInvalid) => (
            format!(
                "accepted an input that must be rejected ({})",
                crate::report::rejection_basis(test)
            ),
            None,
        ),
        (Answer::Rejected(rejection), _) => (
            match rejection.stage {
                Some(stage) => format!(
                    "rejected a valid input at stage {stage}: {}",
                    rejection.message
                ),
                None => format!("rejected a valid input: {}", rejection.message),
            },
            None,
        ),
        (Answer::Fault(fault), _) => (fault.to_string(), None),
        // What is left is an `unsupported` answer to a claimed test.
        (_, _) => (
            format!(
                "answered `unsupported`, but the hello claims {} and declares no capability that \
                 excludes this input: list it in the expectations file as unsupported with a \
                 reason, or declare the capability (docs/PROTOCOL.md, \"Capabilities\")",
                test.request.op()
            ),
            None,
        ),
    };
    TestResult {
        test: test.clone(),
        state,
        answer,
        message,
        difference,
        diagnosis: None,
        duration,
    }
}

/// The result of a test that was not sent because it is outside the implementation's claim:
/// its operation is not in the hello, or a declared capability excludes its input (`why`).
pub fn not_claimed(test: &LoadedTest, why: String) -> TestResult {
    TestResult {
        test: test.clone(),
        state: State::NotClaimed,
        answer: Answer::Unsupported,
        message: why,
        difference: None,
        diagnosis: None,
        duration: Duration::ZERO,
    }
}
