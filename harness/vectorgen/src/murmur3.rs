//! `murmur3_test.json`: MurmurHash3 x86_32 and the per-function seed.
//!
//! Core's 14 `hash_tests` vectors and the seed examples of the BIP and the worked example are
//! transcribed with their source; the generated tests add tails of 1 to 3 bytes with the high
//! bit set (sign extension) and seeds past 32 bits (wrapping, signed tweaks).

use super::builder::{
    bip37_source, core_source, every_mutant, generated_source, hex, Case, FileBuilder, GroupBuilder,
};
use super::core_facts::{core, line};
use super::GenError;
use bip37_harness::hex::Hex;
use bip37_harness::ops::{
    HashSeedInput, HashSeedOutput, Murmur3Input, Murmur3Output, OpName, Output, Request,
};
use bip37_harness::vectors::model::{Expectation, Phase, Source, VectorFile};
use bip37_reference::filter::SEED_MULTIPLIER;

/// The worked example's seeds for tweak 7, hash functions 0 to 3 (seed document 000).
const WORKED_EXAMPLE_SEEDS: [u32; 4] = [0x0000_0007, 0xfba4_c79c, 0xf749_8f31, 0xf2ee_56c6];

/// Generated tails: high bytes after 0, 1 and 2 whole blocks.
const HIGH_TAILS: &[&str] = &[
    "80",
    "ff80",
    "80fe81",
    "00112233ff",
    "0011223344556677fe80",
    "deadbeefcafebabe81828384a0b0c0",
];

/// Seeds past 32 bits: (hash index, tweak, the mistake it separates).
const WIDE_SEEDS: &[(u32, u32, &str)] = &[
    (2, 0, "SeedNotWrapped"),
    (1, 0xffff_ffff, "SeedNotWrapped"),
    (49, 0xffff_ffff, "SeedNotWrapped"),
    (0, 0x8000_0000, "SignedTweak"),
    (3, 0x8000_0001, "SignedTweak"),
];

/// One `hashSeed` test.
struct SeedRow {
    slug: String,
    hash_index: u32,
    tweak: u32,
    /// The seed the source prints; `None` for a generated test.
    printed: Option<u32>,
    /// The mistakes a generated test must separate.
    targets: Vec<&'static str>,
}

pub fn file() -> Result<(String, VectorFile), GenError> {
    let mut file = FileBuilder::new(
        "murmur3",
        &[
            "MurmurHash3 x86_32 as Bitcoin Core computes it (src/hash.cpp) and the seed of hash function i, i * 0xFBA4C795 + tweak modulo 2^32.",
            "Core's hash_tests vectors cover every tail length; the generated tests add high tail bytes and seeds past 32 bits.",
        ],
    );
    file.group(core_hash_tests()?);
    file.group(high_tails()?);
    file.group(seed_group(
        bip37_source("Bloom filter format"),
        "The BIP's example: 4 hash functions, tweak 5, hash function 1.",
        vec![SeedRow {
            slug: "bip-example-tweak5-index1".into(),
            hash_index: 1,
            tweak: 5,
            printed: Some(4_221_880_218),
            targets: Vec::new(),
        }],
    ));
    let worked = WORKED_EXAMPLE_SEEDS
        .iter()
        .zip(0..)
        .map(|(&seed, i)| SeedRow {
            slug: format!("worked-example-tweak7-index{i}"),
            hash_index: i,
            tweak: 7,
            printed: Some(seed),
            targets: Vec::new(),
        })
        .collect();
    file.group(seed_group(
        Source::Literature {
            reference: "bip37-conformance seed document 000 (Bloom filters in real systems), worked example n = 8, p = 0.05, tweak = 7".into(),
        },
        "The seeds of the worked example's four hash functions.",
        worked,
    ));
    let wide = WIDE_SEEDS
        .iter()
        .map(|&(i, tweak, target)| SeedRow {
            slug: format!("wide-index{i}-tweak{tweak:08x}"),
            hash_index: i,
            tweak,
            printed: None,
            targets: vec![target],
        })
        .collect();
    file.group(seed_group(
        generated_source("murmur3", "SeedNotWrapped, SignedTweak: i * 0xFBA4C795 + tweak kept in 64 bits or with a signed tweak"),
        "Seeds whose exact value exceeds 32 bits or whose tweak has the top bit set.",
        wide,
    ));
    file.finish()
}

fn murmur_case(slug: String, seed: u32, data: Vec<u8>, comment: String) -> Case {
    let request = Request::Murmur3(Murmur3Input {
        seed,
        data: Hex(data),
    });
    let mistaken = every_mutant(&request);
    Case::new(slug, Phase::Hash, request, comment).mistaken(mistaken)
}

fn core_hash_tests() -> Result<GroupBuilder, GenError> {
    let mut group = GroupBuilder::new(
        OpName::Murmur3,
        core_source("src/test/hash_tests.cpp", 29, "hash_tests/murmurhash3"),
        "Every MurmurHash3 vector of Core's hash_tests: seeds 0, 0xFBA4C795 and 0xffffffff, data of 0 to 9 bytes.",
    );
    for vector in &core()?.murmur3 {
        let (line, hash, seed) = (line(&vector.source)?, vector.expected, vector.seed);
        let data = vector.data_hex.as_str();
        let bytes = hex(data)?.0;
        let name = if data.is_empty() { "empty" } else { data };
        let case = murmur_case(
            format!("core-{seed:08x}-{name}"),
            seed,
            bytes,
            format!(
                "hash_tests.cpp:{line}: {} bytes, seed 0x{seed:08x}",
                data.len() / 2
            ),
        );
        group.sourced(
            case,
            Expectation::Valid,
            Some(Output::Murmur3(Murmur3Output { hash })),
        );
    }
    Ok(group)
}

fn high_tails() -> Result<GroupBuilder, GenError> {
    let mut group = GroupBuilder::new(
        OpName::Murmur3,
        generated_source("murmur3", "SignExtendedTail, MurmurTail: tails of 1, 2 and 3 bytes whose bytes have the high bit set"),
        "Tail bytes of 0x80 and above must enter the hash unsigned and in little-endian order.",
    );
    for &data in HIGH_TAILS {
        let bytes = hex(data)?.0;
        let tail = bytes.len() % 4;
        for seed in [0, SEED_MULTIPLIER] {
            let targets: &[&str] = if tail == 1 {
                &["SignExtendedTail", "MurmurLengthAsBlocks"]
            } else {
                &["SignExtendedTail", "MurmurTail", "MurmurLengthAsBlocks"]
            };
            let case = murmur_case(
                format!("high-tail-{data}-seed{seed:08x}"),
                seed,
                bytes.clone(),
                format!("{} bytes: a {tail}-byte tail with high bytes", bytes.len()),
            )
            .targets(targets);
            group.generated(case, Expectation::Valid);
        }
    }
    Ok(group)
}

/// A group of `hashSeed` tests.
fn seed_group(source: Source, comment: &str, rows: Vec<SeedRow>) -> GroupBuilder {
    let mut group = GroupBuilder::new(OpName::HashSeed, source, comment);
    for row in rows {
        let (i, tweak) = (row.hash_index, row.tweak);
        let request = Request::HashSeed(HashSeedInput {
            hash_index: i,
            tweak,
        });
        let mistaken = every_mutant(&request);
        let case = Case::new(
            row.slug,
            Phase::Seed,
            request,
            format!("hash function {i}, tweak 0x{tweak:08x}"),
        )
        .mistaken(mistaken)
        .targets(&row.targets);
        match row.printed {
            Some(seed) => group.sourced(
                case,
                Expectation::Valid,
                Some(Output::HashSeed(HashSeedOutput { seed })),
            ),
            None => group.generated(case, Expectation::Valid),
        }
    }
    group
}
