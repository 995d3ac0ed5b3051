//! What one failing answer shows, in pieces that can be compared with a mutant's failing answer
//! to the same test: the fields of a wrong value (a `filterload` is taken apart into its data,
//! nHashFuncs, nTweak and nFlags), the output of a wrong accept, the stage of a wrong
//! rejection, or a crash.
//!
//! A value with integers wider than 32 bits ([`crate::ops::wide`]) is a value like any other,
//! taken as it was sent; two such integers are the same wrong value when they have the same sign
//! and low 32 bits (a seed never wrapped, whatever multiple of 2^32 is left in it).
//!
//! A mutant *fits* a failure when its answer to that test shows the same thing: the same wrong
//! value (exactly), or the same wrong values in some of the fields and no field wrong that the
//! implementation got right (in part, so that a second mistake can explain the other fields);
//! an accept with the same output; a rejection at the same stage (any stage when the
//! implementation names none); a crash for a crash. Nothing else fits: a crash is never
//! explained by a mutant that answers, nor a rejection by a mutant that rejects at another stage.

use super::fails;
use crate::implementation::{Answer, Fault, Stage};
use crate::ops::wide::same_value;
use crate::ops::Output;
use crate::vectors::{Expectation, LoadedTest};
use bip37_reference::FilterLoad;
use serde_json::Value;
use std::collections::BTreeMap;

/// What a failing answer shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Evidence {
    /// A value other than the expected one: every differing field with its actual value.
    WrongValue(BTreeMap<String, Value>),
    /// A value where a rejection is expected.
    WrongAccept(Accepted),
    /// A rejection of an input that must be accepted, at the stage the answer names.
    WrongReject(Option<Stage>),
    /// The implementation crashed.
    Crash,
}

/// The output of a wrong accept.
#[derive(Debug, Clone, PartialEq)]
pub enum Accepted {
    Output(Value),
    /// An answer line over the protocol's cap of this many bytes: the output was not read.
    OverCap(usize),
}

/// How a mutant's failing answer fits the implementation's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fit {
    /// The same answer.
    Exact,
    /// The same wrong values in these fields, and no other field wrong.
    Fields(Vec<String>),
}

impl Evidence {
    /// True when it holds values a mutant must match (a wrong value, an accepted output),
    /// rather than only a kind of answer (a rejection at a stage, a crash, an unread accept).
    pub fn carries_values(&self) -> bool {
        matches!(
            self,
            Evidence::WrongValue(_) | Evidence::WrongAccept(Accepted::Output(_))
        )
    }
}

/// What `answer` shows about `test`, or `None` when it passes or shows nothing about BIP 37
/// (unsupported, a timeout, a protocol error).
pub fn evidence(test: &LoadedTest, answer: &Answer<Output>) -> Option<Evidence> {
    if !fails(test, answer) {
        return None;
    }
    let must_reject = test.case.result == Expectation::Invalid;
    match answer {
        Answer::Ok(actual) => Some(valued(test, actual.to_json(), must_reject)),
        // Its integers as sent, wider than 32 bits: what a mutant that never wraps answers.
        Answer::Wide(wide) => Some(valued(test, wide.output.clone(), must_reject)),
        Answer::Rejected(rejection) => Some(Evidence::WrongReject(rejection.stage)),
        Answer::Fault(Fault::Crash(_)) => Some(Evidence::Crash),
        Answer::Fault(Fault::Oversized { limit }) if must_reject => {
            Some(Evidence::WrongAccept(Accepted::OverCap(*limit)))
        }
        _ => None,
    }
}

/// What an answer carrying the value `actual` shows: a wrong value, or a wrong accept.
fn valued(test: &LoadedTest, actual: Value, must_reject: bool) -> Evidence {
    match (&test.expected, must_reject) {
        (Some(expected), false) => {
            Evidence::WrongValue(differing_fields(&expected.to_json(), &actual))
        }
        _ => Evidence::WrongAccept(Accepted::Output(actual)),
    }
}

/// True when two maps of differing fields show the same values ([`same_value`]: a value
/// wider than 32 bits is the same mistake whatever multiple of 2^32 it holds).
fn same_fields(ours: &BTreeMap<String, Value>, theirs: &BTreeMap<String, Value>) -> bool {
    ours.len() == theirs.len()
        && ours
            .iter()
            .all(|(k, v)| theirs.get(k).is_some_and(|t| same_value(v, t)))
}

/// How the mutant's evidence fits the implementation's, if at all.
pub fn fit(implementation: &Evidence, mutant: &Evidence) -> Option<Fit> {
    use Evidence::*;
    match (implementation, mutant) {
        (WrongValue(ours), WrongValue(theirs)) if same_fields(ours, theirs) => Some(Fit::Exact),
        (WrongValue(ours), WrongValue(theirs)) => {
            let within = !theirs.is_empty()
                && (theirs.iter()).all(|(k, v)| ours.get(k).is_some_and(|o| same_value(o, v)));
            within.then(|| Fit::Fields(theirs.keys().cloned().collect()))
        }
        (WrongAccept(Accepted::Output(ours)), WrongAccept(Accepted::Output(theirs))) => {
            same_value(ours, theirs).then_some(Fit::Exact)
        }
        (WrongAccept(Accepted::OverCap(limit)), WrongAccept(Accepted::Output(theirs))) => {
            (theirs.to_string().len() > *limit).then_some(Fit::Exact)
        }
        (WrongReject(ours), WrongReject(theirs)) => {
            (ours.is_none() || ours == theirs).then_some(Fit::Exact)
        }
        (Crash, Crash) => Some(Fit::Exact),
        _ => None,
    }
}

/// Every top-level field of `actual` that differs from `expected` (outputs as JSON), with its
/// actual value (`null` when missing); a `filterload` payload is compared field by field.
fn differing_fields(expected: &Value, actual: &Value) -> BTreeMap<String, Value> {
    let (Value::Object(e), Value::Object(a)) = (expected, actual) else {
        return BTreeMap::from([(String::new(), actual.clone())]);
    };
    let mut fields = BTreeMap::new();
    for key in e.keys().chain(a.keys().filter(|k| !e.contains_key(*k))) {
        let (ev, av) = (e.get(key), a.get(key));
        if ev == av {
            continue;
        }
        match (
            key.as_str(),
            ev.and_then(as_filterload),
            av.and_then(as_filterload),
        ) {
            ("filterload", Some(ef), Some(af)) => {
                for (name, e_value, a_value) in filterload_fields(&ef, &af) {
                    if e_value != a_value {
                        fields.insert(format!("filterload.{name}"), a_value);
                    }
                }
            }
            _ => {
                fields.insert(key.clone(), av.cloned().unwrap_or(Value::Null));
            }
        }
    }
    fields
}

fn as_filterload(value: &Value) -> Option<FilterLoad> {
    let bytes = crate::hex::Hex::parse(value.as_str()?).ok()?;
    FilterLoad::decode(&bytes.0).ok()
}

/// The fields of two decoded `filterload` payloads, side by side.
fn filterload_fields(e: &FilterLoad, a: &FilterLoad) -> [(&'static str, Value, Value); 4] {
    let hex = |data: &[u8]| Value::from(crate::hex::Hex(data.to_vec()).to_string());
    [
        ("data", hex(&e.data), hex(&a.data)),
        ("nHashFuncs", e.hash_funcs.into(), a.hash_funcs.into()),
        ("nTweak", e.tweak.into(), a.tweak.into()),
        ("nFlags", e.flags.into(), a.flags.into()),
    ]
}
