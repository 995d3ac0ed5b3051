//! The vector files compiled into the harness, so an installed `bip37-conform` runs the whole
//! suite without a checkout. A test keeps this list equal to the `*_test.json` files of
//! `vectors/`: a new vector file needs a line here.

use super::load::{parse_file, LoadedFile, VectorError};

/// Every vector file: its name and its text, sorted by name.
pub const FILES: &[(&str, &str)] = &[
    (
        "filter_test.json",
        include_str!("../../../vectors/filter_test.json"),
    ),
    (
        "match_test.json",
        include_str!("../../../vectors/match_test.json"),
    ),
    (
        "merkle_test.json",
        include_str!("../../../vectors/merkle_test.json"),
    ),
    (
        "murmur3_test.json",
        include_str!("../../../vectors/murmur3_test.json"),
    ),
    (
        "sequence_test.json",
        include_str!("../../../vectors/sequence_test.json"),
    ),
    (
        "sizing_test.json",
        include_str!("../../../vectors/sizing_test.json"),
    ),
    (
        "wire_test.json",
        include_str!("../../../vectors/wire_test.json"),
    ),
];

/// The embedded files, parsed.
pub fn load() -> Result<Vec<LoadedFile>, VectorError> {
    FILES
        .iter()
        .map(|(name, text)| parse_file(name, text))
        .collect()
}
