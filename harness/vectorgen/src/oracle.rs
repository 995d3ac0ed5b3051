//! Where a generated test's expected value comes from: `bip37-reference` by default, or, inside
//! [`with_oracle`], another implementation (in practice Bitcoin Core's own code through its
//! adapter, `bip37-vectorgen --oracle`). Then every expected value the generator computes is
//! that implementation's answer, and every value a source prints (Core's tests, the BIP, a
//! book) must be one its test accepts from it, so `--check` with Core as the oracle says that
//! the committed files are what Core's code computes, byte for byte.
//!
//! An operation the oracle does not answer (unsupported: an operation it lacks, or an input
//! its code leaves undefined) takes the reference's answer; the [`OracleReport`] counts those
//! per operation, so a run says how much of the files the oracle decided. A fault of the
//! oracle (a crash, a timeout, a malformed answer) is never replaced: it is recorded and ends
//! the run, and so does an operation the oracle claims but answered no request of (an oracle
//! that answers unsupported to everything would otherwise hand the run to the reference).

use crate::builder::Outcome;
use bip37_harness::implementation::{Answer, Implementation};
use bip37_harness::ops::{Output, Request};
use bip37_harness::reference_impl::Reference;
use std::cell::RefCell;
use std::collections::BTreeMap;

/// What the oracle did during one [`with_oracle`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OracleReport {
    /// Requests it answered (a value or a rejection).
    pub answered: usize,
    /// Operations it claims (its handshake) of which it answered no request it was asked.
    pub silent: Vec<String>,
    /// Requests it answered unsupported, per operation: the reference answered those.
    pub unsupported: BTreeMap<String, usize>,
    /// Its faults, one line each (the request and what went wrong).
    pub faults: Vec<String>,
}

struct Active {
    implementation: Box<dyn Implementation>,
    report: OracleReport,
    /// Requests answered per operation.
    answered: BTreeMap<String, usize>,
}

thread_local! {
    /// The oracle of this thread's generation (the generator runs on one thread).
    static ORACLE: RefCell<Option<Active>> = const { RefCell::new(None) };
}

/// Runs `generate` with `implementation` as the oracle and returns its result with what the
/// oracle did. The oracle is this thread's only, and is removed afterwards.
pub fn with_oracle<T>(
    implementation: Box<dyn Implementation>,
    generate: impl FnOnce() -> T,
) -> (T, OracleReport) {
    ORACLE.with_borrow_mut(|oracle| {
        *oracle = Some(Active {
            implementation,
            report: OracleReport::default(),
            answered: BTreeMap::new(),
        })
    });
    let result = generate();
    let Some(mut active) = ORACLE.with_borrow_mut(Option::take) else {
        return (result, OracleReport::default());
    };
    let asked = |op: &String| active.report.unsupported.contains_key(op);
    active.report.silent = (active.implementation.operations().iter())
        .map(ToString::to_string)
        .filter(|op| asked(op) && !active.answered.contains_key(op))
        .collect();
    (result, active.report)
}

/// An answer as a vector can observe it (a rejection in any words).
pub fn outcome(answer: Answer<Output>) -> Outcome {
    match answer {
        Answer::Ok(output) => Outcome::Ok(output),
        Answer::Rejected(_) => Outcome::Rejected,
        Answer::Wide(wide) => Outcome::Wide(wide.output),
        Answer::Unsupported | Answer::Fault(_) => Outcome::Fault,
    }
}

/// The oracle's own answer to `request`: `None` when there is no oracle or it answered
/// unsupported (counted).
pub fn oracle_answer(request: &Request) -> Option<Outcome> {
    ORACLE.with_borrow_mut(|oracle| {
        let active = oracle.as_mut()?;
        match active.implementation.execute(request) {
            Answer::Unsupported => {
                let op = request.op().to_string();
                *active.report.unsupported.entry(op).or_default() += 1;
                None
            }
            Answer::Fault(fault) => {
                let line = format!("{} {}: {fault:?}", request.op(), request.input_json());
                active.report.faults.push(line);
                Some(Outcome::Fault)
            }
            answer => {
                active.report.answered += 1;
                *active.answered.entry(request.op().to_string()).or_default() += 1;
                Some(outcome(answer))
            }
        }
    })
}

/// The expected outcome of `request`: the oracle's answer, or the reference's where there is
/// no oracle or it does not answer.
pub fn oracle_outcome(request: &Request) -> Outcome {
    oracle_answer(request).unwrap_or_else(|| outcome(Reference.execute(request)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bip37_harness::hex::Hex;
    use bip37_harness::mutants::{Bug, Mutant};
    use bip37_harness::ops::{Murmur3Input, PmtExtractInput};

    fn murmur(data: &[u8]) -> Request {
        Request::Murmur3(Murmur3Input {
            seed: 0,
            data: Hex(data.to_vec()),
        })
    }

    #[test]
    fn without_an_oracle_the_reference_answers() {
        assert_eq!(oracle_answer(&murmur(b"abc")), None);
        assert_eq!(
            oracle_outcome(&murmur(b"abc")),
            outcome(Reference.execute(&murmur(b"abc")))
        );
    }

    #[test]
    fn the_oracle_answers_inside_and_not_after() {
        let mutant = Box::new(Mutant {
            bug: Bug::MurmurTail,
        });
        let (outcome_inside, report) = with_oracle(mutant, || oracle_outcome(&murmur(b"abc")));
        assert_ne!(outcome_inside, outcome(Reference.execute(&murmur(b"abc"))));
        assert_eq!(report.answered, 1);
        assert_eq!(oracle_answer(&murmur(b"abc")), None);
    }

    /// An implementation of murmur3 only.
    struct OnlyMurmur;
    impl Implementation for OnlyMurmur {
        fn name(&self) -> String {
            "only-murmur".into()
        }
        fn murmur3(&mut self, input: &Murmur3Input) -> Answer<bip37_harness::ops::Murmur3Output> {
            Reference.murmur3(input)
        }
    }

    /// An implementation that claims everything and answers nothing.
    struct Silent;
    impl Implementation for Silent {
        fn name(&self) -> String {
            "silent".into()
        }
    }

    #[test]
    fn a_claimed_operation_never_answered_is_named() {
        let ((), report) = with_oracle(Box::new(Silent), || {
            oracle_outcome(&murmur(b"abc"));
        });
        assert_eq!(report.silent, ["murmur3"]);
        let ((), report) = with_oracle(Box::new(OnlyMurmur), || {
            oracle_outcome(&murmur(b"abc"));
        });
        assert!(report.silent.is_empty());
    }

    #[test]
    fn unsupported_requests_fall_back_and_are_counted() {
        let extract = Request::PmtExtract(PmtExtractInput {
            pmt: Hex(vec![1, 0, 0, 0]),
        });
        let ((), report) = with_oracle(Box::new(OnlyMurmur), || {
            assert_eq!(
                oracle_outcome(&extract),
                outcome(Reference.execute(&extract))
            );
        });
        assert_eq!(report.unsupported.get("pmtExtract"), Some(&1));
        assert_eq!(report.answered, 0);
    }
}
