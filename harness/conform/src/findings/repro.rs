//! A vector's input as the page prints it: the operation and its input as one line of JSON,
//! shortened so it stays readable but stays exact. Inside a hex string, a run of
//! [`MIN_RUN`] or more identical bytes is written `(bb×N)`: the byte `bb` N times (hex has
//! no parentheses, so this cannot be misread). An input still longer than [`MAX_CHARS`] has its
//! long strings cut, and is then marked as not exact: the vector itself, named by its id,
//! holds the whole input.

use bip37_harness::ops::Request;
use serde_json::Value;

/// The shortest run of one byte written as `(bb×N)`.
pub const MIN_RUN: usize = 8;
/// The longest reproduction printed whole.
pub const MAX_CHARS: usize = 400;
/// How much of a long string is kept when an input must be cut.
const KEPT_CHARS: usize = 64;

/// A printable reproduction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reproduction {
    /// `op {input}`.
    pub text: String,
    /// False when long strings were cut (the vector holds the whole input).
    pub exact: bool,
}

/// The reproduction of `request`.
pub fn of_request(request: &Request) -> Reproduction {
    let input = compress(request.input_json());
    let text = format!("{} {}", request.op(), input);
    if text.chars().count() <= MAX_CHARS {
        return Reproduction { text, exact: true };
    }
    Reproduction {
        text: format!("{} {}", request.op(), cut(input)),
        exact: false,
    }
}

/// Every hex string of `value` with its runs of one byte written `(bb×N)`.
fn compress(value: Value) -> Value {
    match value {
        Value::String(s) if is_hex(&s) => Value::String(runs(&s)),
        Value::Array(items) => Value::Array(items.into_iter().map(compress).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, compress(v))).collect())
        }
        other => other,
    }
}

/// Every string of `value` longer than [`KEPT_CHARS`] cut to that, with its length.
fn cut(value: Value) -> Value {
    match value {
        Value::String(s) if s.chars().count() > KEPT_CHARS => {
            let kept: String = s.chars().take(KEPT_CHARS).collect();
            Value::String(format!("{kept}… ({} chars)", s.chars().count()))
        }
        Value::Array(items) => Value::Array(items.into_iter().map(cut).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, cut(v))).collect()),
        other => other,
    }
}

fn is_hex(s: &str) -> bool {
    s.len().is_multiple_of(2) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `hex` with each run of [`MIN_RUN`] or more identical bytes written `(bb×N)`.
fn runs(hex: &str) -> String {
    let bytes: Vec<&str> = (0..hex.len()).step_by(2).map(|i| &hex[i..i + 2]).collect();
    let mut out = String::with_capacity(hex.len());
    let mut i = 0;
    while i < bytes.len() {
        let run = bytes[i..].iter().take_while(|b| **b == bytes[i]).count();
        if run >= MIN_RUN {
            out.push_str(&format!("({}×{run})", bytes[i]));
        } else {
            (0..run).for_each(|_| out.push_str(bytes[i]));
        }
        i += run;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use bip37_harness::ops::OpName;
    use serde_json::json;

    fn request(op: OpName, input: Value) -> Request {
        Request::from_json(op, &input).unwrap()
    }

    #[test]
    fn runs_of_one_byte_are_counted_and_short_runs_kept() {
        assert_eq!(runs(""), "");
        assert_eq!(runs("fda18c"), "fda18c");
        let long = format!("fd{}01", "bb".repeat(36001));
        assert_eq!(runs(&long), "fd(bb×36001)01");
        assert_eq!(runs(&"00".repeat(7)), "00".repeat(7));
        assert_eq!(runs(&"00".repeat(8)), "(00×8)");
    }

    #[test]
    fn a_request_prints_exactly_unless_it_cannot_fit() {
        let small = request(OpName::FilteraddDecode, json!({"payload": "fe00000002aa"}));
        let r = of_request(&small);
        assert_eq!(r.text, r#"filteraddDecode {"payload":"fe00000002aa"}"#);
        assert!(r.exact);
        let payload = format!("fda18c{}0500000000000000", "bb".repeat(36001));
        let big = request(OpName::FilterloadAccept, json!({ "payload": payload }));
        let r = of_request(&big);
        assert!(
            r.exact && r.text.contains("fda18c(bb×36001)0500000000000000"),
            "{}",
            r.text
        );
        // Random bytes do not compress: the strings are cut and the reproduction says so.
        let random: String = (0..600u32)
            .map(|i| format!("{:02x}", (i * 7919) % 251))
            .collect();
        let long = request(OpName::FilteraddDecode, json!({ "payload": random }));
        let r = of_request(&long);
        assert!(!r.exact && r.text.contains("… (1200 chars)"), "{}", r.text);
    }
}
