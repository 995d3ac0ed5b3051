//! Integers wider than the 32 bits their field holds, in an answer: a seed computed in 64 bits
//! and never wrapped (a Java `long` sent without `& 0xffffffffL`, a JavaScript number past 2^32,
//! Python's unbounded `int`), or a tweak read as a signed `int` and sent negative.
//!
//! Such an answer is a wrong value, the natural form of a classic mistake, not a broken
//! protocol line: [`WideAnswer::from_json`] keeps the output as it was sent, with each wide
//! integer's path, when the output parses once those integers are wrapped to their low 32 bits
//! (two's complement for a negative one). The diagnosis compares it field by field with the
//! mutants' answers (a mutant that does not wrap answers the same way); an integer that does
//! not fit 64 bits, or an output that does not parse even wrapped, stays a protocol error.

use super::{OpName, Output};
use serde_json::Value;
use std::fmt;

/// An answer whose output holds integers wider than 32 bits.
#[derive(Debug, Clone, PartialEq)]
pub struct WideAnswer {
    /// The output as the implementation sent it.
    pub output: Value,
    /// The same output with every wide integer wrapped to its low 32 bits.
    pub wrapped: Output,
    /// Each wide integer: its path (`seed`, `indexes[2]`) and its value as sent.
    pub fields: Vec<(String, i128)>,
}

impl WideAnswer {
    /// The wide answer `output` to `op` is, or `None` when it holds no integer outside the
    /// 32 bits (from -2^63 to 2^64 - 1) or does not parse as `op`'s output even wrapped.
    pub fn from_json(op: OpName, output: &Value) -> Option<Self> {
        let mut fields = Vec::new();
        let wrapped = wrap(output, String::new(), &mut |wide| wide as u32, &mut fields);
        if fields.is_empty() {
            return None;
        }
        // Each of them in a 32-bit field: the output parses with u32::MAX in their place too
        // (a wide flags byte wrapped to 0 would parse, but is no 32-bit value).
        let widest = wrap(output, String::new(), &mut |_| u32::MAX, &mut Vec::new());
        Output::from_json(op, &widest).ok()?;
        let wrapped = Output::from_json(op, &wrapped).ok()?;
        Some(WideAnswer {
            output: output.clone(),
            wrapped,
            fields,
        })
    }

    /// What went wrong, in words: each wide integer, its low 32 bits and whether they are the
    /// expected value (`expected`, the vector's output, when it has one).
    pub fn describe(&self, expected: Option<&Output>) -> String {
        let expected = expected.map(Output::to_json);
        let each: Vec<String> = self
            .fields
            .iter()
            .map(|(path, value)| {
                let low = *value as u32;
                let right = expected
                    .as_ref()
                    .and_then(|e| at(e, path))
                    .and_then(Value::as_u64)
                    .map(|e| e == u64::from(low));
                let verdict = match right {
                    Some(true) => ": they are the expected value, so it was not wrapped to 32 bits",
                    Some(false) => ", not the expected value either",
                    None => "",
                };
                format!(
                    "`{path}` is {value}, wider than 32 bits (its low 32 bits are {low}{verdict})"
                )
            })
            .collect();
        each.join("; ")
    }
}

/// True for two JSON values that show the same mistake: equal, or integers wider than 32 bits
/// of the same sign with the same low 32 bits (a seed not wrapped is the same mistake whatever
/// multiple of 2^32 is left in it), element by element in a list.
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(_), Value::Number(_)) => match (integer(a), integer(b)) {
            (Some(x), Some(y)) if !fits(x) && !fits(y) => {
                (x < 0) == (y < 0) && (x as u32) == (y as u32)
            }
            _ => a == b,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b))
        }
        _ => a == b,
    }
}

fn integer(value: &Value) -> Option<i128> {
    value
        .as_u64()
        .map(i128::from)
        .or_else(|| value.as_i64().map(i128::from))
}

fn fits(value: i128) -> bool {
    u32::try_from(value).is_ok()
}

/// `value` with every integer outside the 32 bits replaced by `by` of it, collecting their
/// paths.
fn wrap(
    value: &Value,
    path: String,
    by: &mut dyn FnMut(i128) -> u32,
    fields: &mut Vec<(String, i128)>,
) -> Value {
    match value {
        Value::Number(_) => match integer(value) {
            Some(wide) if !fits(wide) => {
                let narrow = by(wide);
                fields.push((path_or_whole(path), wide));
                Value::from(narrow)
            }
            _ => value.clone(),
        },
        Value::Array(items) => Value::Array(
            (items.iter().enumerate())
                .map(|(i, item)| wrap(item, format!("{path}[{i}]"), by, fields))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, item)| {
                    let inner = match path.is_empty() {
                        true => key.clone(),
                        false => format!("{path}.{key}"),
                    };
                    (key.clone(), wrap(item, inner, by, fields))
                })
                .collect(),
        ),
        _ => value.clone(),
    }
}

fn path_or_whole(path: String) -> String {
    match path.is_empty() {
        true => ".".into(),
        false => path,
    }
}

/// The value at `path` (as [`wrap`] writes paths) in `value`.
fn at<'a>(value: &'a Value, path: &str) -> Option<&'a Value> {
    let mut here = value;
    for part in path.split('.') {
        let (key, indexes) = part
            .split_once('[')
            .map_or((part, ""), |(k, rest)| (k, rest));
        if !key.is_empty() {
            here = here.get(key)?;
        }
        for index in indexes.split('[').filter(|s| !s.is_empty()) {
            here = here.get(index.trim_end_matches(']').parse::<usize>().ok()?)?;
        }
    }
    Some(here)
}

impl fmt::Display for WideAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::HashSeedOutput;
    use serde_json::json;

    #[test]
    fn a_seed_past_32_bits_is_kept_with_its_wrap() {
        let wide = WideAnswer::from_json(OpName::HashSeed, &json!({"seed": 8443760433u64}))
            .expect("a wide seed");
        assert_eq!(
            wide.wrapped,
            Output::HashSeed(HashSeedOutput {
                seed: (8443760433u64 & 0xffff_ffff) as u32
            })
        );
        assert_eq!(wide.fields, vec![("seed".to_string(), 8443760433)]);
        let expected = Output::HashSeed(HashSeedOutput {
            seed: 8443760433u64 as u32,
        });
        assert!(
            wide.describe(Some(&expected)).contains("not wrapped"),
            "{}",
            wide.describe(Some(&expected))
        );
    }

    #[test]
    fn a_negative_tweak_and_a_wide_index_in_a_list() {
        let wide = WideAnswer::from_json(
            OpName::FilterloadDecode,
            &json!({"data": "00", "hashFuncs": 1, "tweak": -2147483648i64, "flags": 0}),
        )
        .unwrap();
        assert_eq!(wide.fields, vec![("tweak".to_string(), -2147483648)]);
        let wide =
            WideAnswer::from_json(OpName::BitIndexes, &json!({"indexes": [1, 4294967298u64]}))
                .unwrap();
        assert_eq!(wide.fields[0].0, "indexes[1]");
        let expected = Output::from_json(OpName::BitIndexes, &json!({"indexes": [1, 2]})).unwrap();
        assert!(wide.describe(Some(&expected)).contains("not wrapped"));
    }

    #[test]
    fn only_wide_integers_that_then_parse() {
        assert!(WideAnswer::from_json(OpName::HashSeed, &json!({"seed": 5})).is_none());
        assert!(WideAnswer::from_json(OpName::HashSeed, &json!({"seed": 5.5})).is_none());
        // The flags byte is no 32-bit field: wrapping does not make it parse.
        let flags = json!({"data": "00", "hashFuncs": 1, "tweak": 0, "flags": 4294967296u64});
        assert!(WideAnswer::from_json(OpName::FilterloadDecode, &flags).is_none());
    }

    #[test]
    fn the_same_mistake_whatever_multiple_is_left() {
        let right = 4148793137u64;
        assert!(same_value(
            &json!(right + (1 << 32)),
            &json!(right + (3 << 32))
        ));
        assert!(!same_value(
            &json!(right + (1 << 32)),
            &json!(right + 1 + (1 << 32))
        ));
        assert!(!same_value(&json!(right), &json!(right + (1 << 32))));
        assert!(!same_value(
            &json!(-1),
            &json!(u64::from(u32::MAX) + (1 << 32))
        ));
        assert!(same_value(
            &json!([1, right + (1 << 32)]),
            &json!([1, right + (2 << 32)])
        ));
    }
}
