//! What the suite demands of an answer where no vector exists yet (a fuzz finding): the same
//! `valid`/`invalid`/`acceptable` a vector would say, so that a finding is exactly an answer
//! `run` would fail, and a vector written from one never contradicts the suite's notes.
//!
//! The reference is Core's answer except where Core's node and a strict decoder part, the
//! DIVERGENCE notes of `vectors/wire_test.json`, on which the suite takes either answer:
//!
//! - `TrailingBytesIgnoredByCore`: a complete `filterload` or `filteradd` payload followed by
//!   more bytes. The reference rejects it; Core's node reads the payload and ignores the rest,
//!   so Core's answer is the reference's answer to the payload alone.
//! - `RawFlagsByte`: a `filterload` whose flags byte is none of Core's update modes (over 2).
//!   Core keeps the byte; a rejection is tolerated.
//! - `LimitsEnforcedAtDecode`: a `filterload` that decodes but breaks a protocol limit, asked of
//!   the decode-only operation. Core decodes it; a rejection is tolerated (a `filteradd`
//!   decoder must take any length: its vectors are `valid`).
//!
//! [`expectation`] gives a request's expectation; [`contradiction`] checks a vector's against
//! it (used by `lint` and before any vector is imported).

use crate::implementation::{Answer, Implementation};
use crate::ops::{OpName, Output, PayloadInput, Request};
use crate::reference_impl::Reference;
use crate::vectors::{Expectation, LoadedTest};
use bip37_reference::{DecodeError, FilterAdd, FilterLoad};

/// What the suite demands of the answer to one request.
#[derive(Debug, Clone, PartialEq)]
pub struct Demand {
    pub result: Expectation,
    /// Core's output, for a `valid` or `acceptable` demand where Core answers one.
    pub expected: Option<Output>,
    /// The DIVERGENCE note that makes it `acceptable`.
    pub divergence: Option<&'static str>,
}

/// The demand on `request`, from the reference's answer `reference` to it; `None` where the
/// reference gives no answer to judge by (unsupported, a fault).
pub fn expectation(request: &Request, reference: &Answer<Output>) -> Option<Demand> {
    if let Some((divergence, core)) = divergence(request, reference) {
        return Some(Demand {
            result: Expectation::Acceptable,
            expected: match core {
                Answer::Ok(output) => Some(output),
                _ => None,
            },
            divergence: Some(divergence),
        });
    }
    let (result, expected) = match reference {
        Answer::Ok(output) => (Expectation::Valid, Some(output.clone())),
        Answer::Rejected(_) => (Expectation::Invalid, None),
        Answer::Unsupported | Answer::Wide(_) | Answer::Fault(_) => return None,
    };
    Some(Demand {
        result,
        expected,
        divergence: None,
    })
}

/// The divergence `request` is an input of, with Core's answer to it.
fn divergence(
    request: &Request,
    reference: &Answer<Output>,
) -> Option<(&'static str, Answer<Output>)> {
    let (op, payload) = match request {
        Request::FilterloadDecode(i) | Request::FilterloadAccept(i) => (request.op(), &i.payload),
        Request::FilteraddDecode(i) | Request::FilteraddAccept(i) => (request.op(), &i.payload),
        _ => return None,
    };
    let load = matches!(op, OpName::FilterloadDecode | OpName::FilterloadAccept);
    let decoded = match load {
        true => FilterLoad::decode(&payload.0).map(|l| l.flags),
        false => FilterAdd::decode(&payload.0).map(|_| 0),
    };
    match decoded {
        Err(DecodeError::TrailingBytes(extra)) => {
            let prefix = payload.0[..payload.0.len() - extra].to_vec();
            let core = Reference.execute(&with_payload(op, prefix));
            // A prefix Core rejects makes the whole payload a rejection in Core too.
            matches!(core, Answer::Ok(_)).then_some(("TrailingBytesIgnoredByCore", core))
        }
        Ok(flags) if load && flags > 2 && matches!(reference, Answer::Ok(_)) => {
            Some(("RawFlagsByte", reference.clone()))
        }
        Ok(_) if op == OpName::FilterloadDecode => {
            let limited =
                Reference.execute(&with_payload(OpName::FilterloadAccept, payload.0.clone()));
            matches!(limited, Answer::Rejected(_))
                .then(|| ("LimitsEnforcedAtDecode", reference.clone()))
        }
        _ => None,
    }
}

fn with_payload(op: OpName, payload: Vec<u8>) -> Request {
    let input = PayloadInput {
        payload: crate::hex::Hex(payload),
    };
    match op {
        OpName::FilterloadDecode => Request::FilterloadDecode(input),
        OpName::FilterloadAccept => Request::FilterloadAccept(input),
        OpName::FilteraddDecode => Request::FilteraddDecode(input),
        _ => Request::FilteraddAccept(input),
    }
}

/// How `test` contradicts the suite's notes on its kind of input, if it does: a vector of a
/// divergence must be `acceptable` with Core's answer, and only such a vector may be.
pub fn contradiction(test: &LoadedTest) -> Option<String> {
    let reference = Reference.execute(&test.request);
    let demand = expectation(&test.request, &reference)?;
    let wire = crate::runner::select::wire_name;
    match demand.divergence {
        Some(note) if test.case.result != Expectation::Acceptable => Some(format!(
            "the test is {}, but its input is one the {note} note tolerates either way: it must \
             be acceptable",
            wire(&test.case.result)
        )),
        Some(note) if test.expected != demand.expected => Some(format!(
            "the test's expected answer is not Core's ({note}): Core answers {}",
            demand
                .expected
                .as_ref()
                .map_or_else(|| "a rejection".into(), |o| o.to_json().to_string())
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn demand(op: OpName, payload: &str) -> Demand {
        let request = with_payload(op, crate::hex::Hex::parse(payload).unwrap().0);
        expectation(&request, &Reference.execute(&request)).unwrap()
    }

    #[test]
    fn the_suite_notes_become_acceptable_demands() {
        let trailing = demand(OpName::FilterloadDecode, "03614e9b05000000000000000100");
        assert_eq!(trailing.result, Expectation::Acceptable);
        assert_eq!(trailing.divergence, Some("TrailingBytesIgnoredByCore"));
        let core = trailing.expected.unwrap().to_json();
        assert_eq!(core["data"], "614e9b");
        let flags = demand(OpName::FilterloadAccept, "01040100000000000000ff");
        assert_eq!(flags.divergence, Some("RawFlagsByte"));
        let plain = demand(OpName::FilterloadDecode, "03614e9b050000000000000001");
        assert_eq!((plain.result, plain.divergence), (Expectation::Valid, None));
        let truncated = demand(OpName::FilteraddDecode, "02aa");
        assert_eq!(truncated.result, Expectation::Invalid);
    }
}
