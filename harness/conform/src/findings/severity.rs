//! How bad a deviation is, derived from what the suite observed and never from a guess about
//! the implementation: the state a test ended in, the phase of BIP 37 processing the vector
//! exercises, whether the vector's verdict is the suite's policy rather than Core's behaviour,
//! and, for a node check, what kind of answer Core gives. The rules, in order:
//!
//! 1. a crash or a timeout is a **crash** (on a node, a remote crash: a peer's messages did it);
//! 2. a vector carrying a flag whose note states a policy (an input Core leaves undefined, a
//!    tolerated rejection), a vector of the `limits` phase, or a node check whose Core answer is
//!    a reaction (keep or disconnect the peer, no reply) is a **policy difference**;
//! 3. a vector that hashes, inserts, tests membership, matches transactions, updates the
//!    filter or builds merkle blocks, or a node check whose Core answer is the announcements or
//!    the filtered block a filter selects, is a **wrong match** (a missed payment or a privacy
//!    leak: what the filter selects is not what Core's would);
//! 4. a vector of sizing, serialization or decoding is **wrong bytes** (a filter or message
//!    other than Core's for the same parameters or payload).

use crate::node::checks::Observation;
use bip37_harness::runner::State;
use bip37_harness::vectors::Phase;
use serde::Serialize;
use std::fmt;

/// The severity of a deviation, most severe first (the order findings are listed in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Severity {
    Crash,
    WrongMatch,
    WrongBytes,
    Policy,
}

impl Severity {
    /// Every severity, most severe first.
    pub const ALL: &'static [Severity] = &[
        Severity::Crash,
        Severity::WrongMatch,
        Severity::WrongBytes,
        Severity::Policy,
    ];

    /// The label the page shows.
    pub fn label(self) -> &'static str {
        match self {
            Severity::Crash => "crash",
            Severity::WrongMatch => "wrong match",
            Severity::WrongBytes => "wrong bytes",
            Severity::Policy => "policy difference",
        }
    }

    /// What the label means, for the page's legend.
    pub fn meaning(self) -> &'static str {
        match self {
            Severity::Crash => {
                "the implementation died or stopped answering on the input (for a library: its \
                 process, or an answer its adapter could not send; for a node: a remote crash)"
            }
            Severity::WrongMatch => {
                "what the filter selects is not what Core's selects: a missed payment or a \
                 privacy leak"
            }
            Severity::WrongBytes => {
                "a filter or message other than Core's for the same parameters or payload"
            }
            Severity::Policy => {
                "a limit, a peer reaction or an input Core leaves undefined, handled otherwise \
                 than Core or the suite's stated policy"
            }
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

fn crashed(state: State) -> bool {
    matches!(state, State::Crash | State::Timeout)
}

/// The severity of a failed vector: its state, its phase, and whether one of its flags' notes
/// states a policy (`policy_flagged`).
pub fn of_vector(state: State, phase: Phase, policy_flagged: bool) -> Severity {
    if crashed(state) {
        return Severity::Crash;
    }
    if policy_flagged {
        return Severity::Policy;
    }
    match phase {
        Phase::Limits => Severity::Policy,
        Phase::Hash
        | Phase::Seed
        | Phase::Insert
        | Phase::Contains
        | Phase::Match
        | Phase::Update
        | Phase::Merkle
        | Phase::Sequence => Severity::WrongMatch,
        Phase::Sizing | Phase::Serialize | Phase::Decode => Severity::WrongBytes,
    }
}

/// The severity of a failed node check: its state and what Core answers (`expected`).
pub fn of_check(state: State, expected: &Observation) -> Severity {
    if crashed(state) {
        return Severity::Crash;
    }
    match expected {
        Observation::Reaction(_) => Severity::Policy,
        Observation::Block(crate::node::checks::BlockAnswer::NoReply) => Severity::Policy,
        Observation::Block(_) | Observation::Announced { .. } => Severity::WrongMatch,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::checks::{BlockAnswer, Reaction};

    #[test]
    fn a_crash_outranks_every_phase_and_policy_outranks_the_phase() {
        assert_eq!(
            of_vector(State::Crash, Phase::Sizing, true),
            Severity::Crash
        );
        assert_eq!(
            of_vector(State::Timeout, Phase::Decode, false),
            Severity::Crash
        );
        let policy = of_vector(State::AcceptedInvalid, Phase::Sizing, true);
        assert_eq!(policy, Severity::Policy);
        let sizing = of_vector(State::WrongValue, Phase::Sizing, false);
        assert_eq!(sizing, Severity::WrongBytes);
        let contains = of_vector(State::RejectedValid, Phase::Contains, false);
        assert_eq!(contains, Severity::WrongMatch);
        let limits = of_vector(State::AcceptedInvalid, Phase::Limits, false);
        assert_eq!(limits, Severity::Policy);
    }

    #[test]
    fn a_node_check_is_judged_by_the_kind_of_core_answer() {
        let disconnect = Observation::Reaction(Reaction::Disconnect);
        assert_eq!(of_check(State::WrongValue, &disconnect), Severity::Policy);
        assert_eq!(of_check(State::Timeout, &disconnect), Severity::Crash);
        let block = Observation::Block(BlockAnswer::Reference);
        assert_eq!(of_check(State::WrongValue, &block), Severity::WrongMatch);
        let announced = Observation::Announced {
            announced: vec!["matching".into()],
        };
        assert_eq!(
            of_check(State::WrongValue, &announced),
            Severity::WrongMatch
        );
    }
}
