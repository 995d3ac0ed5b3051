//! The whole example implementation of `docs/RUST.md`, compiled and run: the lines between the
//! markers below are that page's first ```rust block, character for character
//! (`the_guide_shows_exactly_this_example` compares them). It answers three operations through
//! the `Implementation` trait, leaves the rest unsupported, and conforms.

// guide begin
use bip37_harness::implementation::{Answer, Implementation, Stage};
use bip37_harness::ops::{
    FilteraddOutput, HashSeedInput, HashSeedOutput, Hex, Murmur3Input, Murmur3Output, OpName,
    PayloadInput,
};

/// The library under test. Here it is a few functions; in your crate it is your filter type.
struct MyFilter;

impl Implementation for MyFilter {
    /// The name and version reports print.
    fn name(&self) -> String {
        "my-filter".into()
    }

    fn version(&self) -> String {
        "0.1.0".into()
    }

    /// The operations it claims; tests of the others are reported unsupported, not failed.
    fn operations(&self) -> Vec<OpName> {
        vec![OpName::Murmur3, OpName::HashSeed, OpName::FilteraddDecode]
    }

    fn murmur3(&mut self, input: &Murmur3Input) -> Answer<Murmur3Output> {
        Answer::Ok(Murmur3Output {
            hash: murmur3(input.seed, &input.data.0),
        })
    }

    fn hash_seed(&mut self, input: &HashSeedInput) -> Answer<HashSeedOutput> {
        let seed = input.hash_index.wrapping_mul(0xfba4_c795);
        Answer::Ok(HashSeedOutput {
            seed: seed.wrapping_add(input.tweak),
        })
    }

    /// A payload that does not decode is a rejection, not a panic and not a value.
    fn filteradd_decode(&mut self, input: &PayloadInput) -> Answer<FilteraddOutput> {
        match decode_filteradd(&input.payload.0) {
            Ok(element) => Answer::Ok(FilteraddOutput { data: Hex(element) }),
            Err(why) => Answer::reject(Stage::Decode, why),
        }
    }
}

/// MurmurHash3 x86_32.
fn murmur3(seed: u32, data: &[u8]) -> u32 {
    let scramble = |k: u32| {
        k.wrapping_mul(0xcc9e_2d51)
            .rotate_left(15)
            .wrapping_mul(0x1b87_3593)
    };
    let mut h = seed;
    let blocks = data.chunks_exact(4);
    let tail = blocks.remainder();
    for block in blocks {
        let k = u32::from_le_bytes([block[0], block[1], block[2], block[3]]);
        h = (h ^ scramble(k))
            .rotate_left(13)
            .wrapping_mul(5)
            .wrapping_add(0xe654_6b64);
    }
    if !tail.is_empty() {
        let k = tail
            .iter()
            .rev()
            .fold(0u32, |k, &byte| k << 8 | u32::from(byte));
        h ^= scramble(k);
    }
    h ^= data.len() as u32;
    h = (h ^ (h >> 16)).wrapping_mul(0x85eb_ca6b);
    h = (h ^ (h >> 13)).wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

/// `CompactSize(len) | data`, the length canonical (the shortest form), nothing after it.
fn decode_filteradd(payload: &[u8]) -> Result<Vec<u8>, String> {
    let (&first, rest) = payload.split_first().ok_or("empty payload")?;
    let (width, least) = match first {
        0xfd => (2, 0xfd),
        0xfe => (4, 0x1_0000),
        0xff => (8, 0x1_0000_0000),
        small => (0, u64::from(small)),
    };
    let (length, data) = match width {
        0 => (least, rest),
        _ if rest.len() < width => return Err("truncated length".into()),
        _ => {
            let mut bytes = [0u8; 8];
            bytes[..width].copy_from_slice(&rest[..width]);
            (u64::from_le_bytes(bytes), &rest[width..])
        }
    };
    if length < least {
        return Err(format!("non-canonical length {length}"));
    }
    if length != data.len() as u64 {
        return Err(format!("{length} bytes announced, {} present", data.len()));
    }
    Ok(data.to_vec())
}

#[test]
fn conforms_to_bip37() {
    bip37_harness::Suite::new(MyFilter)
        .expectations("tests/my-filter-expectations.toml")
        .assert_conforms();
}

#[test]
fn hashes_like_core() {
    let input = Murmur3Input {
        seed: 0,
        data: Hex(vec![0x00]),
    };
    let hash = MyFilter.murmur3(&input);
    assert_eq!(
        hash,
        Answer::Ok(Murmur3Output {
            hash: 1_364_076_727
        })
    );
}
// guide end

/// The first ```rust block of `docs/RUST.md`.
fn guide_block() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/RUST.md");
    let guide = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let block = guide
        .split_once("```rust\n")
        .unwrap_or_else(|| panic!("{path} has no ```rust block"))
        .1;
    block.split("```").next().unwrap_or_default().to_string()
}

#[test]
fn the_guide_shows_exactly_this_example() {
    let this = include_str!("rust_guide_example.rs");
    let shown = this
        .split_once("// guide begin\n")
        .and_then(|(_, rest)| rest.split_once("// guide end\n"))
        .expect("the markers")
        .0;
    assert_eq!(guide_block(), shown);
}

/// The trait's method for `op`: its wire name in `snake_case` (the operation table names both).
fn method_of(op: OpName) -> String {
    let mut method = String::new();
    for c in op.as_str().chars() {
        if c.is_ascii_uppercase() {
            method.push('_');
        }
        method.push(c.to_ascii_lowercase());
    }
    method
}

#[test]
fn the_guide_lists_every_method_in_table_order() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/RUST.md");
    let guide = std::fs::read_to_string(path).unwrap();
    let rows: Vec<String> = guide
        .lines()
        .skip_while(|line| !line.starts_with("| method | operation | input | output |"))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(str::to_owned)
        .collect();
    let wanted: Vec<String> = OpName::ALL
        .iter()
        .map(|&op| {
            let (input, output) = op.type_names();
            format!("| `{}` | `{op}` | `{input}` | `{output}` |", method_of(op))
        })
        .collect();
    assert_eq!(rows, wanted);
}
