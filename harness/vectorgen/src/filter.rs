//! `filter_test.json`: bit indexes, insert, contains and the `filterload` serialization.
//!
//! Core's three `bloom_tests` serialization cases and the functional test's watch filter, the
//! worked example of the seed document and Programming Bitcoin's example are transcribed with
//! their source. The generated tests each separate one classic mistake; the mistaken answers
//! are the suite's mutants', and the builder flags every mutant a test refuses.

use super::builder::{
    core_source, every_mutant, generated_source, hex, oracle_outcome, Case, FileBuilder,
    GroupBuilder,
};
use super::core_facts::{filter_case, line, ContainsElement};
use super::GenError;
use bip37_harness::hex::Hex;
use bip37_harness::ops::{
    BitIndexesInput, BitIndexesOutput, BuildFilterInput, BuildFilterOutput, FilterInit, FpRate,
    OpName, Output, Request,
};
use bip37_harness::vectors::model::{Expectation, Phase, Source, VectorFile};

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

/// A `buildFilter` test with the answers of every mutant.
fn build_case(
    slug: &str,
    phase: Phase,
    input: BuildFilterInput,
    comment: &str,
) -> Result<Case, GenError> {
    let request = Request::BuildFilter(input);
    let mistaken = every_mutant(&request);
    Ok(Case::new(slug, phase, request, comment).mistaken(mistaken))
}

/// A `bitIndexes` test with the answers of every mutant.
fn indexes_case(slug: &str, input: BitIndexesInput, comment: &str) -> Result<Case, GenError> {
    let request = Request::BitIndexes(input);
    let mistaken = every_mutant(&request);
    Ok(Case::new(slug, Phase::Insert, request, comment).mistaken(mistaken))
}

/// A `buildFilter` test transcribed from its source, with the payload and the `contains`
/// answers the source prints.
struct Printed {
    slug: &'static str,
    phase: Phase,
    input: BuildFilterInput,
    comment: &'static str,
    filterload: String,
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
            build_output(&t.filterload, &t.contains)?,
        );
    }
    Ok(group)
}

fn worked_example() -> Source {
    Source::Literature {
        reference: "bip37-conformance seed document 000 (Bloom filters in real systems), worked example n = 8, p = 0.05, tweak = 7".into(),
    }
}

/// A Core serialization test's filter, elements and printed answers, from `core.json`.
struct CoreFilter {
    line: u32,
    filter: FilterInit,
    insert: Vec<Hex>,
    filterload: String,
    queries: Vec<Hex>,
    contains: Vec<bool>,
}

fn core_filter_case(name: &str) -> Result<CoreFilter, GenError> {
    let case = filter_case(name)?;
    let p = &case.params;
    let elements = |list: &[ContainsElement]| -> Result<(Vec<Hex>, Vec<bool>), GenError> {
        let queries = list
            .iter()
            .map(|c| hex(&c.element_hex))
            .collect::<Result<_, _>>()?;
        Ok((queries, list.iter().map(|c| c.contains).collect()))
    };
    let (queries, contains) = elements(&case.contains_after)?;
    Ok(CoreFilter {
        line: line(&case.source)?,
        filter: sized(p.n_elements, p.fp_rate, p.n_tweak, p.n_flags),
        insert: case
            .insert_hex
            .iter()
            .map(|e| hex(e))
            .collect::<Result<_, _>>()?,
        filterload: case.expected_serialization_hex.clone(),
        queries,
        contains,
    })
}

fn sourced_groups() -> Result<Vec<GroupBuilder>, GenError> {
    let serialize = core_filter_case("bloom_create_insert_serialize")?;
    let (before_queries, before) = {
        let checks = &filter_case("bloom_create_insert_serialize")?.checks_before_insert;
        let queries = checks
            .iter()
            .map(|c| hex(&c.element_hex))
            .collect::<Result<Vec<_>, _>>()?;
        (queries, checks.iter().map(|c| c.contains).collect())
    };
    let tweak = core_filter_case("bloom_create_insert_serialize_with_tweak")?;
    let key = core_filter_case("bloom_create_insert_key")?;
    let build = |filter, insert, queries| BuildFilterInput {
        filter,
        insert,
        queries,
    };
    let mut groups = vec![
        printed_group(
            core_source("src/test/bloom_tests.cpp", serialize.line, "bloom_tests/bloom_create_insert_serialize"),
            "CBloomFilter(3, 0.01, 0, BLOOM_UPDATE_ALL): three 20-byte elements and a one-bit-off negative.",
            vec![
                Printed {
                    slug: "core-insert-serialize-before-insert",
                    phase: Phase::Contains,
                    input: build(serialize.filter.clone(), Vec::new(), before_queries),
                    comment: "contains is false before any insert; the payload is the empty 3-byte, 5-function filter of the same test",
                    filterload: "03000000050000000000000001".into(),
                    contains: before,
                },
                Printed {
                    slug: "core-insert-serialize",
                    phase: Phase::Serialize,
                    input: build(serialize.filter, serialize.insert, serialize.queries),
                    comment: "the three elements inserted; the negative differs in one bit of its first byte",
                    filterload: serialize.filterload,
                    contains: serialize.contains,
                },
            ],
        )?,
        printed_group(
            core_source("src/test/bloom_tests.cpp", tweak.line, "bloom_tests/bloom_create_insert_serialize_with_tweak"),
            "The same filter with tweak 2147483649 (0x80000001; the source comment says 100): the seed of hash function 1 wraps.",
            vec![Printed {
                slug: "core-insert-serialize-with-tweak",
                phase: Phase::Serialize,
                input: build(tweak.filter, tweak.insert, tweak.queries),
                comment: "tweak 0x80000001",
                filterload: tweak.filterload,
                contains: tweak.contains,
            }],
        )?,
        printed_group(
            core_source("src/test/bloom_tests.cpp", key.line, "bloom_tests/bloom_create_insert_key"),
            "CBloomFilter(2, 0.001, 0, BLOOM_UPDATE_ALL) with a 65-byte public key and its HASH160 (derived from the test's WIF key).",
            vec![Printed {
                slug: "core-insert-key",
                phase: Phase::Serialize,
                input: build(key.filter, key.insert, key.queries),
                comment: "uncompressed public key, then its HASH160",
                filterload: key.filterload,
                contains: key.contains,
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
                filterload: "23400008008000002000c000200400082400048000002000000000800000400002402000130000000000000001".into(),
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
            filterload: "06202010844440040000000700000000".into(),
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
                    filterload: "0a0000000a080000000140050000006300000001".into(),
                    contains: Vec::new(),
                },
                Printed {
                    slug: "programming-bitcoin-goodbye",
                    phase: Phase::Serialize,
                    input: build(explicit(10, 5, 99, 1), vec![hello, goodbye], Vec::new()),
                    comment: "\"Hello World\" then \"Goodbye!\": the book's filterload payload with flag 1",
                    filterload: "0a4000600a080000010940050000006300000001".into(),
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
        let request = Request::BitIndexes(input.clone());
        let separates = every_mutant(&request)
            .iter()
            .any(|(flag, answer)| *flag == target && *answer != oracle_outcome(&request));
        if separates {
            return Ok(indexes_case(slug, input, comment)?.targets(&[target]));
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
            "no bytes: no bit to select; Core's CBloomFilter::Hash would take a remainder by 0 (undefined: its insert and contains return before calling it), so the empty list is the suite's policy",
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
            .targets(&["SignedTweak", "TweakIgnored"]),
        build_case("compact-size-252", Phase::Serialize, BuildFilterInput { filter: explicit(252, 1, 0, 0), insert: one.clone(), queries: Vec::new() }, "252 bytes: the largest one-byte length")?
            .targets(&["CompactSizeBoundaryEarly"]),
        build_case("compact-size-253", Phase::Serialize, BuildFilterInput { filter: explicit(253, 1, 0, 0), insert: one.clone(), queries: Vec::new() }, "253 bytes: the smallest 0xfd length")?
            .targets(&["CompactSizeBoundaryLate", "BigEndianLength"]),
        build_case("big-endian-length-300", Phase::Serialize, BuildFilterInput { filter: explicit(300, 2, 0, 0), insert: one.clone(), queries: Vec::new() }, "300 bytes: fd 2c 01")?
            .targets(&["BigEndianLength"]),
        build_case("empty-filter-match-all", Phase::Contains, BuildFilterInput { filter: FilterInit::Loaded { data: Hex(Vec::new()), hash_funcs: 1, tweak: 0, flags: 0 }, insert: hexes(&["6c6574736d6973626568617665"])?, queries: hexes(&["6c6574736d6973626568617665", "00"])? }, "filterload of no bytes and 1 function, then an insert (Core's p2p_filter.py CVE-2013-5700 probe): nothing is set, everything matches")?
            .targets(&["NoEmptyFilterGuard"]),
        build_case("sized-empty-filter", Phase::Contains, BuildFilterInput { filter: sized(1, 0.5, 0, 0), insert: one.clone(), queries: hexes(&["ff"])? }, "n = 1, p = 0.5 sizes 0 bytes and 0 functions: the match-all filter")?,
        build_case("zero-hash-funcs", Phase::Contains, BuildFilterInput { filter: explicit(4, 0, 0, 0), insert: one.clone(), queries: hexes(&["ff"])? }, "4 bytes, 0 functions: inserts set nothing and every element is contained vacuously")?
            .targets(&["ForcedMinimumOneHash", "ZeroHashFuncsRefused"]),
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
            .targets(&["ForcedMinimumOneHash", "ZeroHashFuncsRefused"]),
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
