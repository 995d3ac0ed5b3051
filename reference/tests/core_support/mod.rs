//! What the Core-case tests share: hex, Core's facts as `vectors/sources/` holds them (the
//! transactions and blocks as `.hex`, every other vector in `core.json`, each entry with its
//! `path:line@commit`), txids written in display order, and the filter every Core case starts
//! from. The tests read the facts from there, as the vector generator does, so each is written
//! once.
//!
//! Each test file compiles this module and uses only part of it.
#![allow(dead_code)]

use bip37_reference::BloomFilter;
use serde_json::Value;
use std::sync::OnceLock;

/// Bytes of lowercase hex text (test data only; panics on a typo in the data itself).
pub fn hex(text: &str) -> Vec<u8> {
    ::hex::decode(text.trim()).expect("test data is hex")
}

/// A transaction or block of `vectors/sources/<name>.hex`.
pub fn source(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../vectors/sources/{name}.hex",
        env!("CARGO_MANIFEST_DIR")
    );
    hex(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")))
}

/// `vectors/sources/core.json`, parsed once.
pub fn core() -> &'static Value {
    static CORE: OnceLock<Value> = OnceLock::new();
    CORE.get_or_init(|| {
        serde_json::from_str(include_str!("../../../vectors/sources/core.json"))
            .expect("vectors/sources/core.json is JSON")
    })
}

/// The string at `value`, which the data must have.
pub fn text(value: &Value) -> &str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("core.json: {value} is not a string"))
}

/// The array at `value`, which the data must have.
pub fn list(value: &Value) -> &[Value] {
    value
        .as_array()
        .unwrap_or_else(|| panic!("core.json: {value} is not an array"))
}

/// The bytes of the hex string at `value`.
pub fn bytes(value: &Value) -> Vec<u8> {
    hex(text(value))
}

/// A txid written in display (RPC) order, as internal bytes.
pub fn display(text: &str) -> [u8; 32] {
    let mut id: [u8; 32] = hex(text).try_into().expect("32-byte txid");
    id.reverse();
    id
}

/// `CBloomFilter(10, 0.000001, 0, flags)`: the filter of every `bloom_tests` case.
pub fn core_filter(flags: u8) -> BloomFilter {
    BloomFilter::new(10, 0.000_001, 0, flags).expect("Core's test filter sizes")
}
