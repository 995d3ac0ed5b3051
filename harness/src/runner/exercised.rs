//! Whether a run exercised anything. A run in which no test passed (none selected, none of an
//! operation the implementation claims, every one excluded by its capabilities, or every
//! answered one an expected failure) proves nothing, so it is not conformant: "conformant" must never be
//! said of an implementation the suite did not actually test.

use super::execute::Run;
use super::state::State;
use crate::ops::OpName;
use std::collections::BTreeSet;

/// The operation names this harness knows, for messages.
pub fn known_operations() -> String {
    let known: Vec<&str> = OpName::ALL.iter().map(|o| o.as_str()).collect();
    known.join(", ")
}

/// The warning for operation names an implementation claims that this harness does not know
/// (allowed: an adapter may be newer than the harness), or `None` when there are none.
pub fn unknown_operations_warning(unknown: &[String]) -> Option<String> {
    if unknown.is_empty() {
        return None;
    }
    Some(format!(
        "the implementation claims operations this harness does not know, never sent: {}; known: {}",
        unknown.join(", "),
        known_operations()
    ))
}

impl Run {
    /// Why nothing was exercised, when no test passed; `None` when at least one did.
    pub fn nothing_exercised(&self) -> Option<String> {
        if self.results.iter().any(|r| r.state == State::Pass) {
            return None;
        }
        let why = if self.results.is_empty() {
            "the selection picks no test (check --id, --flag, --phase, --source and --op)"
                .to_string()
        } else if self.claimed.is_empty() {
            format!(
                "the hello lists no known operation; known: {}",
                known_operations()
            )
        } else if !self
            .results
            .iter()
            .any(|r| self.claimed.contains(&r.test.request.op()))
        {
            let asked: BTreeSet<&str> = self
                .results
                .iter()
                .map(|r| r.test.request.op().as_str())
                .collect();
            let claimed: Vec<&str> = self.claimed.iter().map(|o| o.as_str()).collect();
            format!(
                "none of the {} selected tests asks an operation the implementation claims \
                 (it claims {}; the tests ask {})",
                self.results.len(),
                claimed.join(", "),
                asked.into_iter().collect::<Vec<_>>().join(", ")
            )
        } else {
            let count = |state: State| self.results.iter().filter(|r| r.state == state).count();
            let (expected, unsupported) =
                (count(State::ExpectedFailure), count(State::Unsupported));
            if unsupported > 0 && expected == 0 {
                format!(
                    "the implementation answered `unsupported` to every test it was sent \
                     ({unsupported})"
                )
            } else if expected == 0 {
                format!(
                    "the hello's capabilities ({}) exclude every selected test of a claimed \
                     operation",
                    self.capabilities
                )
            } else {
                format!(
                    "no test passed: {expected} expected failures, {} not claimed",
                    count(State::NotClaimed)
                )
            }
        };
        Some(format!("nothing was exercised: {why}"))
    }
}
