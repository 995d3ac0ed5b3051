//! When an implementation's answer counts as agreeing with the reference: the same output, or
//! both rejecting (at any stage: where an implementation rejects is its own business, as for
//! `invalid` vectors). An unsupported operation is not a disagreement; a crash, a timeout or a
//! protocol error always is. Two values with integers wider than 32 bits agree when they show
//! the same mistake ([`crate::ops::wide::same_value`]).
//!
//! [`Agreement`] is not a [`crate::runner::State`]: a state judges an answer against a vector,
//! an agreement against another answer (`runner::state` relates the outcome types).

use crate::implementation::Answer;
use crate::ops::wide::same_value;
use crate::ops::Output;

/// How a candidate's answer relates to the reference's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agreement {
    /// Same output, or both rejected.
    Agrees,
    /// The candidate does not support the operation (or this input shape).
    Unsupported,
    /// Anything else: another output, accept against reject, or a fault.
    Disagrees,
}

/// Compares `candidate` with the `reference` answer.
pub fn compare(reference: &Answer<Output>, candidate: &Answer<Output>) -> Agreement {
    match (reference, candidate) {
        (_, Answer::Unsupported) => Agreement::Unsupported,
        (Answer::Ok(a), Answer::Ok(b)) if a == b => Agreement::Agrees,
        (Answer::Rejected(_), Answer::Rejected(_)) => Agreement::Agrees,
        (Answer::Wide(a), Answer::Wide(b)) if same_value(&a.output, &b.output) => Agreement::Agrees,
        _ => Agreement::Disagrees,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::{Fault, Stage};
    use crate::ops::Murmur3Output;

    fn ok(hash: u32) -> Answer<Output> {
        Answer::Ok(Output::Murmur3(Murmur3Output { hash }))
    }

    #[test]
    fn outputs_rejections_and_faults() {
        assert_eq!(compare(&ok(1), &ok(1)), Agreement::Agrees);
        assert_eq!(compare(&ok(1), &ok(2)), Agreement::Disagrees);
        let decode = Answer::reject(Stage::Decode, "x");
        let limits = Answer::reject(Stage::Limits, "y");
        assert_eq!(compare(&decode, &limits), Agreement::Agrees);
        assert_eq!(compare(&ok(1), &decode), Agreement::Disagrees);
        assert_eq!(compare(&decode, &ok(1)), Agreement::Disagrees);
        assert_eq!(
            compare(&ok(1), &Answer::Unsupported),
            Agreement::Unsupported
        );
        let crash = Answer::Fault(Fault::Crash("boom".into()));
        assert_eq!(compare(&decode, &crash), Agreement::Disagrees);
    }
}
