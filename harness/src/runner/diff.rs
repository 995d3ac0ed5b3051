//! First-difference localisation: where a wrong answer first departs from the expected one.
//!
//! A filter is compared as Core serializes it, down to the byte and the bit, and the bit is
//! traced back to the inserted element and hash function that set it in the reference; bit
//! indexes name the first hash function that disagrees. Every other operation falls back to a
//! generic walk of the JSON output that names the first differing field, array element or byte.

use crate::hex::Hex;
use crate::ops::{BuildFilterInput, FilterInit, Output, Request};
use crate::reference_impl::init_filter;
use crate::vectors::LoadedTest;
use bip37_reference::{hash_seed, FilterLoad};
use serde_json::Value;

/// A one-line account of the first place where `actual` differs from the test's expected output.
pub fn first_difference(test: &LoadedTest, actual: &Output) -> String {
    let Some(expected) = &test.expected else {
        return "the test expects a rejection, not a value".into();
    };
    match (&test.request, expected, actual) {
        (Request::BuildFilter(input), Output::BuildFilter(e), Output::BuildFilter(a))
            if e.filterload != a.filterload =>
        {
            filterload_difference(input, &e.filterload, &a.filterload)
        }
        (Request::BitIndexes(input), Output::BitIndexes(e), Output::BitIndexes(a)) => {
            index_difference(&input.filter, &e.indexes, &a.indexes)
        }
        _ => json_difference("", &expected.to_json(), &actual.to_json())
            .unwrap_or_else(|| "the outputs are equal as JSON".into()),
    }
}

fn filterload_difference(input: &BuildFilterInput, expected: &[u8], actual: &[u8]) -> String {
    let (e, a) = match (FilterLoad::decode(expected), FilterLoad::decode(actual)) {
        (Ok(e), Ok(a)) => (e, a),
        (Ok(_), Err(err)) => {
            return format!(
                "the actual filterload does not decode ({err}); {}",
                byte_difference("filterload", expected, actual)
            )
        }
        _ => return byte_difference("filterload", expected, actual),
    };
    if e.data.len() != a.data.len() {
        format!(
            "filter size: expected {} bytes, actual {} bytes",
            e.data.len(),
            a.data.len()
        )
    } else if e.hash_funcs != a.hash_funcs {
        format!(
            "nHashFuncs: expected {}, actual {}",
            e.hash_funcs, a.hash_funcs
        )
    } else if e.tweak != a.tweak {
        format!("nTweak: expected {}, actual {}", e.tweak, a.tweak)
    } else if e.data != a.data {
        bit_difference(input, &e.data, &a.data)
    } else {
        format!("nFlags: expected {}, actual {}", e.flags, a.flags)
    }
}

/// Names the first differing bit of two equally long filters and who sets it in the reference.
fn bit_difference(input: &BuildFilterInput, expected: &[u8], actual: &[u8]) -> String {
    let Some(byte) = expected.iter().zip(actual).position(|(e, a)| e != a) else {
        return "the filter bits are equal".into();
    };
    let bit_in_byte = (expected[byte] ^ actual[byte]).trailing_zeros();
    let bit = byte as u64 * 8 + u64::from(bit_in_byte);
    let expected_set = expected[byte] & (1 << bit_in_byte) != 0;
    let place = format!("filter byte {byte}, bit {bit_in_byte} (bit index {bit})");
    if !expected_set {
        return format!(
            "{place}: expected clear, actual set; no inserted element sets it in the reference"
        );
    }
    let Ok(filter) = init_filter(&input.filter) else {
        return format!("{place}: expected set, actual clear");
    };
    if let FilterInit::Loaded { data, .. } = &input.filter {
        if data.get(byte).is_some_and(|b| b & (1 << bit_in_byte) != 0) {
            return format!("{place}: expected set, actual clear; it is set in the loaded data");
        }
    }
    let setter = input.insert.iter().enumerate().find_map(|(n, element)| {
        (0..filter.hash_funcs())
            .find(|&h| filter.bit_index(h, element).map(u64::from) == Some(bit))
            .map(|h| (n, h))
    });
    match setter {
        Some((n, h)) => format!(
            "{place}: expected set, actual clear; the reference sets it for insert[{n}] with hash function {h} (seed {:#010x})",
            hash_seed(h, filter.tweak())
        ),
        None => format!("{place}: expected set, actual clear"),
    }
}

fn index_difference(filter: &FilterInit, expected: &[u32], actual: &[u32]) -> String {
    let tweak = match filter {
        FilterInit::Sized { tweak, .. }
        | FilterInit::Explicit { tweak, .. }
        | FilterInit::Loaded { tweak, .. } => *tweak,
    };
    match expected.iter().zip(actual).position(|(e, a)| e != a) {
        Some(h) => format!(
            "hash function {h} (seed {:#010x}): expected bit {}, actual bit {}",
            hash_seed(h as u32, tweak),
            expected[h],
            actual[h]
        ),
        None => format!(
            "expected {} indexes (one per hash function), actual {}",
            expected.len(),
            actual.len()
        ),
    }
}

/// The first differing field, element or byte of two JSON values, or `None` when equal.
pub fn json_difference(path: &str, expected: &Value, actual: &Value) -> Option<String> {
    let at = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (key, ev) in e {
                match a.get(key) {
                    None => return Some(format!("`{}`: missing from the answer", at(key))),
                    Some(av) => {
                        if let Some(d) = json_difference(&at(key), ev, av) {
                            return Some(d);
                        }
                    }
                }
            }
            a.keys()
                .find(|k| !e.contains_key(*k))
                .map(|k| format!("`{}`: not expected in the answer", at(k)))
        }
        (Value::Array(e), Value::Array(a)) => e
            .iter()
            .zip(a)
            .enumerate()
            .find_map(|(i, (ev, av))| json_difference(&format!("{path}[{i}]"), ev, av))
            .or_else(|| {
                (e.len() != a.len()).then(|| {
                    format!(
                        "`{path}`: expected {} elements, actual {}",
                        e.len(),
                        a.len()
                    )
                })
            }),
        (Value::String(e), Value::String(a)) if e != a => {
            Some(match (Hex::parse(e), Hex::parse(a)) {
                (Ok(e), Ok(a)) => byte_difference(path, &e, &a),
                _ => format!("`{path}`: expected {e:?}, actual {a:?}"),
            })
        }
        _ if expected == actual => None,
        _ => Some(format!("`{path}`: expected {expected}, actual {actual}")),
    }
}

/// The first differing byte of two byte strings (or where the shorter one ends).
pub fn byte_difference(what: &str, expected: &[u8], actual: &[u8]) -> String {
    match expected.iter().zip(actual).position(|(e, a)| e != a) {
        Some(i) => format!(
            "`{what}`: first differing byte at offset {i}: expected {:02x}, actual {:02x} (bits {:08b} differ)",
            expected[i],
            actual[i],
            expected[i] ^ actual[i]
        ),
        None => format!(
            "`{what}`: expected {} bytes, actual {} (equal for the first {})",
            expected.len(),
            actual.len(),
            expected.len().min(actual.len())
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn generic_walk_names_field_element_and_byte() {
        let d = json_difference("", &json!({"a": [1, 2]}), &json!({"a": [1, 3]})).unwrap();
        assert_eq!(d, "`a[1]`: expected 2, actual 3");
        let d = json_difference("", &json!({"x": "00ff10"}), &json!({"x": "00fe10"})).unwrap();
        assert!(
            d.starts_with("`x`: first differing byte at offset 1"),
            "{d}"
        );
        let d = json_difference("", &json!({"x": [true]}), &json!({"x": [true, false]})).unwrap();
        assert_eq!(d, "`x`: expected 1 elements, actual 2");
        assert_eq!(
            json_difference("", &json!({"a": 1}), &json!({"a": 1})),
            None
        );
        let d = json_difference("", &json!({"a": 1}), &json!({"a": 1, "b": 2})).unwrap();
        assert_eq!(d, "`b`: not expected in the answer");
    }

    #[test]
    fn byte_difference_reports_a_short_answer() {
        assert_eq!(
            byte_difference("pmt", &[1, 2, 3], &[1, 2]),
            "`pmt`: expected 3 bytes, actual 2 (equal for the first 2)"
        );
    }
}
