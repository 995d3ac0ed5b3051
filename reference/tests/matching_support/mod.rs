//! What the Core-case tests share: hex, the Core transactions and blocks transcribed into
//! `vectors/sources/`, txids written in display order, and the filter every Core case starts from.

use bip37_reference::BloomFilter;

/// Bytes of lowercase hex text (test data only; panics on a typo in the test itself).
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
