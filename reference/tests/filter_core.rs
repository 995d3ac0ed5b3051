//! Core's MurmurHash3 vectors (src/test/hash_tests.cpp) and filter serialization tests
//! (src/test/bloom_tests.cpp `bloom_create_insert_*`) against the reference, read from
//! `vectors/sources/core.json`.

mod core_support;

use bip37_reference::murmur3;
use bip37_reference::{BloomFilter, FilterLoad};
use core_support::{bytes, core, list, text};

#[test]
fn every_core_murmur3_vector() {
    let vectors = list(&core()["murmur3"]);
    assert_eq!(vectors.len(), 14);
    for v in vectors {
        let seed = v["seed"].as_u64().expect("seed") as u32;
        let expected = v["expected"].as_u64().expect("expected") as u32;
        let data = bytes(&v["data_hex"]);
        assert_eq!(murmur3(seed, &data), expected, "{}", text(&v["source"]));
    }
}

#[test]
fn every_core_serialization_case() {
    let cases = list(&core()["filter_serialize"]);
    assert_eq!(cases.len(), 3);
    for case in cases {
        let at = text(&case["source"]);
        let p = &case["params"];
        let mut filter = BloomFilter::new(
            p["n_elements"].as_u64().expect("n_elements") as u32,
            p["fp_rate"].as_f64().expect("fp_rate"),
            p["n_tweak"].as_u64().expect("n_tweak") as u32,
            p["n_flags"].as_u64().expect("n_flags") as u8,
        )
        .expect(at);
        let checks = |filter: &BloomFilter, key: &str| {
            for check in case.get(key).map(list).unwrap_or_default() {
                let expected = check["contains"].as_bool().expect("contains");
                let element = bytes(&check["element_hex"]);
                assert_eq!(filter.contains(&element), expected, "{at} {key}");
            }
        };
        checks(&filter, "checks_before_insert");
        for element in list(&case["insert_hex"]) {
            filter.insert(&bytes(element));
        }
        checks(&filter, "contains_after");
        assert_eq!(
            FilterLoad::from(&filter).encode(),
            bytes(&case["expected_serialization_hex"]),
            "{at}"
        );
    }
}
