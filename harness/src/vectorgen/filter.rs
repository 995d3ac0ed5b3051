//! `filter_test.json`: bit indexes, insert, contains and the `filterload` serialization.
//!
//! Core's three `bloom_tests` serialization cases and the functional test's watch filter, the
//! worked example of the seed document and Programming Bitcoin's example are transcribed with
//! their source. The generated tests each separate one classic mistake, modelled here as a
//! filter that makes exactly that mistake; the builder flags every mistake a test refuses.

use super::builder::{
    core_source, generated_source, hex, Case, FileBuilder, GroupBuilder, Outcome,
};
use super::mistaken_murmur::{murmur, Mistakes};
use super::GenError;
use crate::hex::Hex;
use crate::ops::{
    BitIndexesInput, BitIndexesOutput, BuildFilterInput, BuildFilterOutput, FilterInit, FpRate,
    OpName, Output, Request,
};
use crate::reference_impl::init_filter;
use crate::vectors::model::{Expectation, Phase, Source, VectorFile};
use bip37_reference::filter::SEED_MULTIPLIER;
use bip37_reference::limits::MAX_FILTERADD_BYTES;

/// Every mistake the filter model can make.
const MISTAKES: &[&str] = &[
    "BigEndianBlocks",
    "MurmurTail",
    "SignExtendedTail",
    "SeedNotWrapped",
    "SignedTweak",
    "MsbFirstBits",
    "ModulusByBytes",
    "HexTextHashed",
    "BigEndianHashFuncs",
    "BigEndianTweak",
    "BigEndianLength",
    "CompactSizeBoundaryLate",
    "CompactSizeBoundaryEarly",
    "NoEmptyFilterGuard",
    "ForcedMinimumOneHash",
    "EmptyElementSkipped",
    "LongElementTruncated",
];

/// The three elements of Core's serialization tests and the one-bit-off negative.
const CORE_ELEMENTS: [&str; 3] = [
    "99108ad8ed9bb6274d3980bab5a85c048f0950c8",
    "b5a2c786d9ef4658287ced5914b37a1b4aa32eee",
    "b9300670b4c5366e95b2699e8b18bc75e5f729c5",
];
const CORE_NEGATIVE: &str = "19108ad8ed9bb6274d3980bab5a85c048f0950c8";
/// `bloom_create_insert_key`: the uncompressed public key of the test's WIF key, and its HASH160.
const CORE_KEY_ELEMENTS: [&str; 2] = [
    "045b81f0017e2091e2edcd5eecf10d5bdd120a5514cb3ee65b8447ec18bfc4575c6d5bf415e54e03b1067934a0f0ba76b01c6b9ab227142ee1d543764b69d901e0",
    "477abbacd4113f2e6b100526222eedd953c26a64",
];

pub fn file() -> Result<(String, VectorFile), GenError> {
    let mut file = FileBuilder::new(
        "filter",
        &[
            "The filter itself: hash function i selects bit murmur3(i * 0xFBA4C795 + tweak, element) mod (bytes * 8), bit x is bit x mod 8 (least significant first) of byte x / 8.",
            "buildFilter sets up a filter, inserts, serializes it as a filterload payload and answers contains queries; bitIndexes lists the bit each hash function selects.",
        ],
    );
    for group in sourced_groups()? {
        file.group(group);
    }
    for group in generated_groups()? {
        file.group(group);
    }
    file.finish()
}

fn hexes(texts: &[&str]) -> Result<Vec<Hex>, GenError> {
    texts.iter().map(|t| hex(t)).collect()
}

fn build_output(filterload: &str, contains: &[bool]) -> Result<Option<Output>, GenError> {
    Ok(Some(Output::BuildFilter(BuildFilterOutput {
        filterload: hex(filterload)?,
        contains: contains.to_vec(),
    })))
}

fn sized(n_elements: u32, fp_rate: f64, tweak: u32, flags: u8) -> FilterInit {
    FilterInit::Sized {
        n_elements,
        fp_rate: FpRate(fp_rate),
        tweak,
        flags,
    }
}

fn explicit(filter_bytes: u32, hash_funcs: u32, tweak: u32, flags: u8) -> FilterInit {
    FilterInit::Explicit {
        filter_bytes,
        hash_funcs,
        tweak,
        flags,
    }
}

/// A `buildFilter` test with the mistaken answers of every modelled mistake.
fn build_case(
    slug: &str,
    phase: Phase,
    input: BuildFilterInput,
    comment: &str,
) -> Result<Case, GenError> {
    let mistaken = MISTAKES
        .iter()
        .map(|&m| (flag_of(m), model_build(Some(m), &input)))
        .collect();
    let right = model_build(None, &input);
    let request = Request::BuildFilter(input);
    check_model(&request, right)?;
    Ok(Case::new(slug, phase, request, comment).mistaken(mistaken))
}

/// A `bitIndexes` test with the mistaken answers of every modelled mistake.
fn indexes_case(slug: &str, input: BitIndexesInput, comment: &str) -> Result<Case, GenError> {
    let mistaken = MISTAKES
        .iter()
        .map(|&m| (flag_of(m), model_indexes(Some(m), &input)))
        .collect();
    let right = model_indexes(None, &input);
    let request = Request::BitIndexes(input);
    check_model(&request, right)?;
    Ok(Case::new(slug, Phase::Insert, request, comment).mistaken(mistaken))
}

/// The model without mistakes must answer what the reference answers, or its mistaken answers
/// prove nothing.
fn check_model(request: &Request, right: Outcome) -> Result<(), GenError> {
    if super::builder::reference_outcome(request) != right {
        return Err(GenError(format!(
            "the filter model without mistakes disagrees with the reference on {:?}",
            request.input_json()
        )));
    }
    Ok(())
}

/// Both off-by-one variants of the CompactSize boundary are one bug class.
fn flag_of(mistake: &'static str) -> &'static str {
    match mistake {
        "CompactSizeBoundaryLate" | "CompactSizeBoundaryEarly" => "CompactSizeBoundary",
        other => other,
    }
}

/// A `buildFilter` test transcribed from its source, with the payload and the `contains`
/// answers the source prints.
struct Printed {
    slug: &'static str,
    phase: Phase,
    input: BuildFilterInput,
    comment: &'static str,
    filterload: &'static str,
    contains: Vec<bool>,
}

/// A group of `buildFilter` tests from one source.
fn printed_group(
    source: Source,
    comment: &str,
    tests: Vec<Printed>,
) -> Result<GroupBuilder, GenError> {
    let mut group = GroupBuilder::new(OpName::BuildFilter, source, comment);
    for t in tests {
        let case = build_case(t.slug, t.phase, t.input, t.comment)?;
        group.sourced(
            case,
            Expectation::Valid,
            build_output(t.filterload, &t.contains)?,
        );
    }
    Ok(group)
}

fn worked_example() -> Source {
    Source::Literature {
        reference: "bip37-conformance seed document 000 (Bloom filters in real systems), worked example n = 8, p = 0.05, tweak = 7".into(),
    }
}

fn sourced_groups() -> Result<Vec<GroupBuilder>, GenError> {
    let queries = hexes(&[
        CORE_ELEMENTS[0],
        CORE_NEGATIVE,
        CORE_ELEMENTS[1],
        CORE_ELEMENTS[2],
    ])?;
    let after = vec![true, false, true, true];
    let build = |filter, insert, queries| BuildFilterInput {
        filter,
        insert,
        queries,
    };
    let mut groups = vec![
        printed_group(
            core_source("src/test/bloom_tests.cpp", 35, "bloom_tests/bloom_create_insert_serialize"),
            "CBloomFilter(3, 0.01, 0, BLOOM_UPDATE_ALL): three 20-byte elements and a one-bit-off negative.",
            vec![
                Printed {
                    slug: "core-insert-serialize-before-insert",
                    phase: Phase::Contains,
                    input: build(sized(3, 0.01, 0, 1), Vec::new(), hexes(&[CORE_ELEMENTS[0]])?),
                    comment: "contains is false before any insert; the payload is the empty 3-byte, 5-function filter of the same test",
                    filterload: "03000000050000000000000001",
                    contains: vec![false],
                },
                Printed {
                    slug: "core-insert-serialize",
                    phase: Phase::Serialize,
                    input: build(sized(3, 0.01, 0, 1), hexes(&CORE_ELEMENTS)?, queries.clone()),
                    comment: "the three elements inserted; the negative differs in one bit of its first byte",
                    filterload: "03614e9b050000000000000001",
                    contains: after.clone(),
                },
            ],
        )?,
        printed_group(
            core_source("src/test/bloom_tests.cpp", 60, "bloom_tests/bloom_create_insert_serialize_with_tweak"),
            "The same filter with tweak 2147483649 (0x80000001; the source comment says 100): the seed of hash function 1 wraps.",
            vec![Printed {
                slug: "core-insert-serialize-with-tweak",
                phase: Phase::Serialize,
                input: build(sized(3, 0.01, 2_147_483_649, 1), hexes(&CORE_ELEMENTS)?, queries),
                comment: "tweak 0x80000001",
                filterload: "03ce4299050000000100008001",
                contains: after,
            }],
        )?,
        printed_group(
            core_source("src/test/bloom_tests.cpp", 83, "bloom_tests/bloom_create_insert_key"),
            "CBloomFilter(2, 0.001, 0, BLOOM_UPDATE_ALL) with a 65-byte public key and its HASH160 (derived from the test's WIF key).",
            vec![Printed {
                slug: "core-insert-key",
                phase: Phase::Serialize,
                input: build(sized(2, 0.001, 0, 1), hexes(&CORE_KEY_ELEMENTS)?, Vec::new()),
                comment: "uncompressed public key, then its HASH160",
                filterload: "038fc16b080000000000000001",
                contains: Vec::new(),
            }],
        )?,
        printed_group(
            core_source("test/functional/p2p_filter.py", 43, "p2p_filter/watch_filter_init"),
            "The functional test's watch filter: CBloomFilter(10, 0.000001, 0, BLOOM_UPDATE_ALL) with the 20-byte push ff..ff of a P2SH script.",
            vec![Printed {
                slug: "core-watch-filter",
                phase: Phase::Serialize,
                input: build(sized(10, 0.000_001, 0, 1), hexes(&["ffffffffffffffffffffffffffffffffffffffff"])?, Vec::new()),
                comment: "35 bytes, 19 hash functions",
                filterload: "23400008008000002000c000200400082400048000002000000000800000400002402000130000000000000001",
                contains: Vec::new(),
            }],
        )?,
    ];
    let mut group = GroupBuilder::new(
        OpName::BitIndexes,
        worked_example(),
        "Each element's bit indexes in a 6-byte, 4-function filter.",
    )
    .shared(&["filter"]);
    for (element, indexes) in [("ab", vec![31, 5, 13, 34]), ("cafe", vec![20, 38, 46, 26])] {
        let input = BitIndexesInput {
            filter: sized(8, 0.05, 7, 0),
            element: hex(element)?,
        };
        let case = indexes_case(
            &format!("worked-example-indexes-{element}"),
            input,
            &format!("element {element}"),
        )?;
        group.sourced(
            case,
            Expectation::Valid,
            Some(Output::BitIndexes(BitIndexesOutput { indexes })),
        );
    }
    groups.push(group);
    groups.push(printed_group(
        worked_example(),
        "Both elements inserted, flags 0.",
        vec![Printed {
            slug: "worked-example-payload",
            phase: Phase::Serialize,
            input: build(sized(8, 0.05, 7, 0), hexes(&["ab", "cafe"])?, Vec::new()),
            comment: "06 | 202010844440 | 04000000 | 07000000 | 00",
            filterload: "06202010844440040000000700000000",
            contains: Vec::new(),
        }],
    )?);
    let hello = hex("48656c6c6f20576f726c64")?;
    let goodbye = hex("476f6f6462796521")?;
    groups.push(
        printed_group(
            Source::Literature { reference: "Jimmy Song, Programming Bitcoin (O'Reilly 2019), chapter 12: BloomFilter(size=10, function_count=5, tweak=99)".into() },
            "The widely copied example with an explicit size: it skips the sizing formula and tests hashing, bit order and serialization.",
            vec![
                Printed {
                    slug: "programming-bitcoin-hello-world",
                    phase: Phase::Insert,
                    input: build(explicit(10, 5, 99, 1), vec![hello.clone()], Vec::new()),
                    comment: "\"Hello World\": bit field 0000000a080000000140",
                    filterload: "0a0000000a080000000140050000006300000001",
                    contains: Vec::new(),
                },
                Printed {
                    slug: "programming-bitcoin-goodbye",
                    phase: Phase::Serialize,
                    input: build(explicit(10, 5, 99, 1), vec![hello, goodbye], Vec::new()),
                    comment: "\"Hello World\" then \"Goodbye!\": the book's filterload payload with flag 1",
                    filterload: "0a4000600a080000010940050000006300000001",
                    contains: Vec::new(),
                },
            ],
        )?
        .shared(&["filter"]),
    );
    Ok(groups)
}

/// Deterministic elements to search: 1 to 8 bytes of a fixed pattern.
fn search_elements() -> impl Iterator<Item = Hex> {
    (1..=8usize).flat_map(|len| {
        (0u8..16).map(move |start| {
            Hex((0..len)
                .map(|i| start.wrapping_mul(17).wrapping_add(i as u8 * 29))
                .collect())
        })
    })
}

/// The first element whose `bitIndexes` test separates `target`.
fn indexes_search(
    slug: &str,
    filter: FilterInit,
    target: &'static str,
    comment: &str,
) -> Result<Case, GenError> {
    for element in search_elements() {
        let input = BitIndexesInput {
            filter: filter.clone(),
            element,
        };
        let case = indexes_case(slug, input.clone(), comment)?;
        if model_indexes(Some(target), &input) != model_indexes(None, &input) {
            return Ok(case.targets(&[target]));
        }
    }
    Err(GenError(format!("{slug}: no element separates {target}")))
}

fn generated_groups() -> Result<Vec<GroupBuilder>, GenError> {
    let mut indexes = GroupBuilder::new(
        OpName::BitIndexes,
        generated_source("filter", "one hashing mistake per test: seed width, signed tweak, modulus, hex text, empty and long elements"),
        "Each test separates the mistake in its slug; its flags list every mistake it separates.",
    );
    for case in [
        indexes_search(
            "seed-not-wrapped",
            explicit(64, 10, 0, 0),
            "SeedNotWrapped",
            "10 hash functions, tweak 0: seeds 2 to 9 exceed 32 bits before wrapping",
        )?,
        indexes_search(
            "signed-tweak-80000000",
            explicit(64, 4, 0x8000_0000, 0),
            "SignedTweak",
            "tweak 2^31",
        )?,
        indexes_search(
            "signed-tweak-ffffffff",
            explicit(64, 4, 0xffff_ffff, 0),
            "SignedTweak",
            "tweak 2^32 - 1",
        )?,
        indexes_search(
            "modulus-by-bytes",
            explicit(16, 5, 0, 0),
            "ModulusByBytes",
            "16 bytes: indexes range over 128 bits, not 16",
        )?,
        indexes_search(
            "hex-text-hashed",
            explicit(32, 5, 0, 0),
            "HexTextHashed",
            "the element's bytes, not its hex text",
        )?,
        indexes_case(
            "empty-element-indexes",
            BitIndexesInput {
                filter: explicit(8, 4, 0, 0),
                element: Hex(Vec::new()),
            },
            "the empty element has bit indexes like any other",
        )?,
        indexes_case(
            "long-element-521-indexes",
            BitIndexesInput {
                filter: explicit(32, 5, 0, 0),
                element: Hex(long_element(521)),
            },
            "521 bytes: hashed whole",
        )?
        .targets(&["LongElementTruncated"]),
        indexes_case(
            "empty-filter-indexes",
            BitIndexesInput {
                filter: FilterInit::Loaded {
                    data: Hex(Vec::new()),
                    hash_funcs: 3,
                    tweak: 0,
                    flags: 0,
                },
                element: hex("00")?,
            },
            "no bytes: no bit to select, and no division by zero",
        )?
        .targets(&["NoEmptyFilterGuard"]),
    ] {
        indexes.generated(case, Expectation::Valid);
    }

    let mut build = GroupBuilder::new(
        OpName::BuildFilter,
        generated_source("filter", "one insert or serialization mistake per test: bit order, byte order of the fields, CompactSize boundaries, empty filters, zero hash functions, empty and long elements"),
        "Each test separates the mistake in its slug; its flags list every mistake it separates.",
    );
    let one = hexes(&["00010203"])?;
    let cases = [
        build_case("msb-first-bits", Phase::Insert, BuildFilterInput { filter: explicit(8, 3, 0, 0), insert: one.clone(), queries: Vec::new() }, "one element in 8 bytes: each set bit is mirrored under MSB-first order")?
            .targets(&["MsbFirstBits"]),
        build_case("big-endian-fields", Phase::Serialize, BuildFilterInput { filter: explicit(4, 3, 0x0102_0304, 1), insert: one.clone(), queries: Vec::new() }, "nHashFuncs 3 and nTweak 0x01020304 little-endian")?
            .targets(&["BigEndianHashFuncs", "BigEndianTweak"]),
        build_case("tweak-ffffffff", Phase::Serialize, BuildFilterInput { filter: explicit(8, 4, 0xffff_ffff, 2), insert: one.clone(), queries: one.clone() }, "tweak 2^32 - 1, flags 2")?
            .targets(&["SignedTweak"]),
        build_case("compact-size-252", Phase::Serialize, BuildFilterInput { filter: explicit(252, 1, 0, 0), insert: one.clone(), queries: Vec::new() }, "252 bytes: the largest one-byte length")?
            .targets(&["CompactSizeBoundary"]),
        build_case("compact-size-253", Phase::Serialize, BuildFilterInput { filter: explicit(253, 1, 0, 0), insert: one.clone(), queries: Vec::new() }, "253 bytes: the smallest 0xfd length")?
            .targets(&["CompactSizeBoundary", "BigEndianLength"]),
        build_case("big-endian-length-300", Phase::Serialize, BuildFilterInput { filter: explicit(300, 2, 0, 0), insert: one.clone(), queries: Vec::new() }, "300 bytes: fd 2c 01")?
            .targets(&["BigEndianLength"]),
        build_case("empty-filter-match-all", Phase::Contains, BuildFilterInput { filter: FilterInit::Loaded { data: Hex(Vec::new()), hash_funcs: 1, tweak: 0, flags: 0 }, insert: hexes(&["6c6574736d6973626568617665"])?, queries: hexes(&["6c6574736d6973626568617665", "00"])? }, "filterload of no bytes and 1 function, then an insert (Core's p2p_filter.py CVE-2013-5700 probe): nothing is set, everything matches")?
            .targets(&["NoEmptyFilterGuard"]),
        build_case("sized-empty-filter", Phase::Contains, BuildFilterInput { filter: sized(1, 0.5, 0, 0), insert: one.clone(), queries: hexes(&["ff"])? }, "n = 1, p = 0.5 sizes 0 bytes and 0 functions: the match-all filter")?,
        build_case("zero-hash-funcs", Phase::Contains, BuildFilterInput { filter: explicit(4, 0, 0, 0), insert: one.clone(), queries: hexes(&["ff"])? }, "4 bytes, 0 functions: inserts set nothing and every element is contained vacuously")?
            .targets(&["ForcedMinimumOneHash"]),
        build_case("empty-element", Phase::Insert, BuildFilterInput { filter: explicit(8, 4, 0, 0), insert: vec![Hex(Vec::new())], queries: vec![Hex(Vec::new())] }, "the empty element is inserted and found")?
            .targets(&["EmptyElementSkipped"]),
        build_case("long-elements", Phase::Insert, BuildFilterInput { filter: explicit(32, 5, 0, 0), insert: vec![Hex(long_element(521)), Hex(long_element(1000))], queries: vec![Hex(long_element(521)), Hex(long_element(520))] }, "elements of 521 and 1000 bytes are hashed whole; the 520-byte prefix is not among them")?
            .targets(&["LongElementTruncated"]),
        // The same mistakes asked of serialization alone: a library without `contains` must
        // meet them too.
        build_case("flags-2-serialize", Phase::Serialize, BuildFilterInput { filter: explicit(8, 4, 0, 2), insert: one.clone(), queries: Vec::new() }, "flags 2 (P2PUBKEY_ONLY) is written as the byte 02; no query")?,
        build_case("explicit-empty-filter-insert", Phase::Insert, BuildFilterInput { filter: explicit(0, 3, 0, 0), insert: one.clone(), queries: Vec::new() }, "an explicit 0-byte filter with 3 functions takes an insert (nothing is set, no division by zero) and serializes; no query")?
            .targets(&["NoEmptyFilterGuard"]),
        build_case("zero-hash-funcs-serialize", Phase::Insert, BuildFilterInput { filter: explicit(4, 0, 0, 0), insert: one.clone(), queries: Vec::new() }, "4 bytes, 0 functions: the insert sets nothing and the payload says 0 functions; no query")?
            .targets(&["ForcedMinimumOneHash"]),
        build_case("empty-element-serialize", Phase::Insert, BuildFilterInput { filter: explicit(8, 4, 0, 0), insert: vec![Hex(Vec::new())], queries: Vec::new() }, "the empty element sets its bits; no query")?
            .targets(&["EmptyElementSkipped"]),
        build_case("long-elements-serialize", Phase::Insert, BuildFilterInput { filter: explicit(32, 5, 0, 0), insert: vec![Hex(long_element(521)), Hex(long_element(1000))], queries: Vec::new() }, "elements of 521 and 1000 bytes set the bits of their whole bytes; no query")?
            .targets(&["LongElementTruncated"]),
    ];
    for case in cases {
        build.generated(case, Expectation::Valid);
    }
    Ok(vec![indexes, build])
}

/// `len` bytes of a fixed pattern, distinct in every prefix longer than 520 bytes.
fn long_element(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + i / 256) as u8).collect()
}

/// The filter fields the model works on, or the rejection of an undefined sizing.
struct Model {
    data: Vec<u8>,
    hash_funcs: u32,
    tweak: u32,
    flags: u8,
}

impl Model {
    fn new(init: &FilterInit) -> Option<Self> {
        let f = init_filter(init).ok()?;
        Some(Model {
            data: f.data().to_vec(),
            hash_funcs: f.hash_funcs(),
            tweak: f.tweak(),
            flags: f.flags(),
        })
    }

    fn hash_count(&self, mistake: Option<&str>) -> u32 {
        match mistake {
            Some("ForcedMinimumOneHash") => self.hash_funcs.max(1),
            _ => self.hash_funcs,
        }
    }

    /// The bit hash function `i` selects, or `None` on the empty filter.
    fn index(&self, mistake: Option<&str>, i: u32, element: &[u8]) -> Option<u64> {
        let bytes = self.data.len() as u64;
        if bytes == 0 {
            return None;
        }
        let is = |m: &str| mistake == Some(m);
        let hex_text;
        let element = if is("HexTextHashed") {
            hex_text = crate::hex::encode(element).into_bytes();
            &hex_text[..]
        } else if is("LongElementTruncated") {
            &element[..element.len().min(MAX_FILTERADD_BYTES)]
        } else {
            element
        };
        let product = u64::from(i) * u64::from(SEED_MULTIPLIER);
        let seed = if is("SeedNotWrapped") {
            product + u64::from(self.tweak)
        } else if is("SignedTweak") {
            product.wrapping_add(i64::from(self.tweak as i32) as u64)
        } else {
            u64::from(bip37_reference::hash_seed(i, self.tweak))
        };
        let mistakes = Mistakes {
            big_endian_blocks: is("BigEndianBlocks"),
            reversed_tail: is("MurmurTail"),
            sign_extended_tail: is("SignExtendedTail"),
        };
        let modulus = if is("ModulusByBytes") {
            bytes
        } else {
            bytes * 8
        };
        Some(u64::from(murmur(seed, element, mistakes)) % modulus)
    }

    fn bit(mistake: Option<&str>, index: u64) -> (usize, u8) {
        let shift = (index % 8) as u32;
        let mask = if mistake == Some("MsbFirstBits") {
            0x80 >> shift
        } else {
            1 << shift
        };
        ((index / 8) as usize, mask)
    }

    fn insert(&mut self, mistake: Option<&str>, element: &[u8]) {
        if element.is_empty() && mistake == Some("EmptyElementSkipped") {
            return;
        }
        for i in 0..self.hash_count(mistake) {
            if let Some(index) = self.index(mistake, i, element) {
                let (byte, mask) = Self::bit(mistake, index);
                self.data[byte] |= mask;
            }
        }
    }

    fn contains(&self, mistake: Option<&str>, element: &[u8]) -> bool {
        (0..self.hash_count(mistake)).all(|i| match self.index(mistake, i, element) {
            Some(index) => {
                let (byte, mask) = Self::bit(mistake, index);
                self.data[byte] & mask != 0
            }
            None => true,
        })
    }

    fn serialize(&self, mistake: Option<&str>) -> Vec<u8> {
        let is = |m: &str| mistake == Some(m);
        let n = self.data.len() as u64;
        // The length forms' lower bounds: Core's, or one too late / one too early.
        let (two, four) = if is("CompactSizeBoundaryLate") {
            (0xfe, 0x1_0001)
        } else if is("CompactSizeBoundaryEarly") {
            (0xfc, 0xffff)
        } else {
            (0xfd, 0x1_0000)
        };
        let field = |bytes: &[u8]| -> Vec<u8> {
            let mut bytes = bytes.to_vec();
            if is("BigEndianLength") {
                bytes.reverse();
            }
            bytes
        };
        let mut out = if n < two {
            vec![n as u8]
        } else if n < four {
            [vec![0xfd], field(&(n as u16).to_le_bytes())].concat()
        } else {
            [vec![0xfe], field(&(n as u32).to_le_bytes())].concat()
        };
        out.extend_from_slice(&self.data);
        let word = |v: u32, big: bool| {
            if big {
                v.to_be_bytes()
            } else {
                v.to_le_bytes()
            }
        };
        out.extend_from_slice(&word(self.hash_funcs, is("BigEndianHashFuncs")));
        out.extend_from_slice(&word(self.tweak, is("BigEndianTweak")));
        out.push(self.flags);
        out
    }

    /// True when a guard-less implementation would divide by zero on this filter.
    fn divides_by_zero(&self, mistake: Option<&str>) -> bool {
        mistake == Some("NoEmptyFilterGuard") && self.data.is_empty() && self.hash_funcs > 0
    }
}

fn model_build(mistake: Option<&str>, input: &BuildFilterInput) -> Outcome {
    let Some(mut model) = Model::new(&input.filter) else {
        return Outcome::Rejected;
    };
    if model.divides_by_zero(mistake) && !(input.insert.is_empty() && input.queries.is_empty()) {
        return Outcome::Fault;
    }
    for element in &input.insert {
        model.insert(mistake, element);
    }
    Outcome::Ok(Output::BuildFilter(BuildFilterOutput {
        filterload: model.serialize(mistake).into(),
        contains: input
            .queries
            .iter()
            .map(|q| model.contains(mistake, q))
            .collect(),
    }))
}

fn model_indexes(mistake: Option<&str>, input: &BitIndexesInput) -> Outcome {
    let Some(model) = Model::new(&input.filter) else {
        return Outcome::Rejected;
    };
    if model.divides_by_zero(mistake) {
        return Outcome::Fault;
    }
    let indexes = (0..model.hash_count(mistake))
        .map_while(|i| model.index(mistake, i, &input.element))
        .map(|i| i as u32)
        .collect();
    Outcome::Ok(Output::BitIndexes(BitIndexesOutput { indexes }))
}
