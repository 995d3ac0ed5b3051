//! The state of one test after a run: richer than pass/fail, so that a partial implementation,
//! a crash and a wrong value are told apart, and so that known failures can be expected.
//!
//! # The outcome vocabulary
//!
//! Four types say what happened, each a judgement the one before it cannot make:
//!
//! - [`Answer`](crate::implementation::Answer): what an implementation said to one request (a
//!   value, a rejection with its stage and words, "unsupported", or a fault the harness saw).
//!   Nothing is judged yet: the same answer is right for one vector and wrong for another.
//! - [`State`] (this module): an answer judged against a vector's expectation, then against the
//!   expectations file. It needs twelve values because a report must tell a wrong value from a
//!   wrong rejection, a crash from a protocol error, an unanswered claim from an operation never
//!   claimed, and an expected failure from an unexpected pass. [`Conformance`](super::Conformance) sums the states of a run into its verdict.
//! - [`Agreement`](crate::disagreement::compare::Agreement): an answer judged against another
//!   answer, the reference's, where no vector exists yet (the fuzz campaign). Without a vector
//!   there is no `valid`/`invalid` to say which side is wrong, so three values: agrees,
//!   disagrees, unsupported.
//! - `Outcome` (in `bip37-vectorgen`): an answer as a vector can observe it, the rejection's
//!   stage and words dropped and unsupported counted with the faults, so the generator can ask
//!   by equality whether a test tells a mutant's answer from Core's.

use serde::{Deserialize, Serialize};
use std::fmt;

/// What happened to one test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum State {
    /// The answer is what the vector demands.
    Pass,
    /// The implementation answered a value other than the expected one.
    WrongValue,
    /// The implementation rejected an input it must accept.
    RejectedValid,
    /// The implementation accepted an input it must reject.
    AcceptedInvalid,
    /// The implementation answered `unsupported` to a test it claims (its operation is in the
    /// hello and no declared capability excludes its input): an unanswered claim, a failure.
    Unsupported,
    /// Outside the claim: the operation is not in the hello, or a declared capability excludes
    /// the input. Not sent, and not a failure.
    NotClaimed,
    /// The implementation answered something that is not a valid answer.
    ProtocolError,
    /// The implementation crashed while handling the test.
    Crash,
    /// The implementation did not answer in time.
    Timeout,
    /// A failure listed in the expectations file, in the listed state.
    ExpectedFailure,
    /// A test listed as failing in the expectations file now passes: shrink the list.
    UnexpectedPass,
    /// Not attempted because the run's overall time bound was spent.
    NotRun,
}

impl State {
    /// Every state, in report order.
    pub const ALL: &'static [State] = &[
        State::Pass,
        State::WrongValue,
        State::RejectedValid,
        State::AcceptedInvalid,
        State::Unsupported,
        State::NotClaimed,
        State::ProtocolError,
        State::Crash,
        State::Timeout,
        State::ExpectedFailure,
        State::UnexpectedPass,
        State::NotRun,
    ];

    /// The name used in every report format and in expectations files.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Pass => "pass",
            State::WrongValue => "wrongValue",
            State::RejectedValid => "rejectedValid",
            State::AcceptedInvalid => "acceptedInvalid",
            State::Unsupported => "unsupported",
            State::NotClaimed => "notClaimed",
            State::ProtocolError => "protocolError",
            State::Crash => "crash",
            State::Timeout => "timeout",
            State::ExpectedFailure => "expectedFailure",
            State::UnexpectedPass => "unexpectedPass",
            State::NotRun => "notRun",
        }
    }

    /// The state with this name.
    pub fn from_name(name: &str) -> Option<State> {
        State::ALL.iter().copied().find(|s| s.as_str() == name)
    }

    /// True for the states that make a run non-conformant (exit code 1 or 3).
    pub fn is_failure(self) -> bool {
        !matches!(
            self,
            State::Pass | State::NotClaimed | State::ExpectedFailure
        )
    }

    /// True for the states where the implementation itself broke down (exit code 3).
    pub fn is_breakdown(self) -> bool {
        matches!(self, State::Crash | State::Timeout | State::NotRun)
    }

    /// True for a failure an expectations file may list.
    pub fn can_be_expected(self) -> bool {
        self.is_failure() && !matches!(self, State::UnexpectedPass | State::NotRun)
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_roundtrip_and_match_serde() {
        for &state in State::ALL {
            assert_eq!(State::from_name(state.as_str()), Some(state));
            assert_eq!(
                serde_json::to_value(state).unwrap(),
                serde_json::Value::from(state.as_str())
            );
        }
    }

    #[test]
    fn an_unanswered_claim_fails_and_no_claim_does_not() {
        assert!(State::Unsupported.is_failure());
        assert!(State::Unsupported.can_be_expected());
        assert!(!State::NotClaimed.is_failure());
        assert!(State::UnexpectedPass.is_failure());
        assert!(State::Timeout.is_breakdown());
        assert!(!State::WrongValue.is_breakdown());
    }
}
