//! Properties of the reference that hold for every input, checked with proptest:
//! a Bloom filter has no false negatives, the message codecs round-trip, the bitwise OR of two
//! filters with the same parameters contains both sets, and the decoders refuse without
//! panicking whatever bytes they get.

use bip37_reference::compact_size::{self, MAX_COMPACT_SIZE};
use bip37_reference::{BloomFilter, FilterAdd, FilterLoad};
use proptest::collection::vec;
use proptest::prelude::*;

/// Filter parameters: 1 to 600 bytes (across the CompactSize boundary at 253), 0 to 50 hash
/// functions, any tweak and flags.
fn parameters() -> impl Strategy<Value = (u64, u32, u32, u8)> {
    (1u64..600, 0u32..=50, any::<u32>(), any::<u8>())
}

/// Elements of 0 to 80 bytes, every tail length included.
fn elements(max: usize) -> impl Strategy<Value = Vec<Vec<u8>>> {
    vec(vec(any::<u8>(), 0..80), 0..max)
}

proptest! {
    #[test]
    fn inserted_elements_are_always_contained(
        (bytes, hash_funcs, tweak, flags) in parameters(),
        inserted in elements(40),
    ) {
        let mut filter = BloomFilter::with_size(bytes, hash_funcs, tweak, flags).unwrap();
        for element in &inserted {
            filter.insert(element);
        }
        for element in &inserted {
            prop_assert!(filter.contains(element));
        }
    }

    #[test]
    fn sized_filters_have_no_false_negatives(
        n in 1u32..5_000,
        p in 1e-9f64..0.99,
        tweak in any::<u32>(),
        inserted in elements(30),
    ) {
        let mut filter = BloomFilter::new(n, p, tweak, 0).unwrap();
        for element in &inserted {
            filter.insert(element);
        }
        prop_assert!(inserted.iter().all(|e| filter.contains(e)));
    }

    #[test]
    fn filterload_encode_then_decode_is_the_identity(
        data in vec(any::<u8>(), 0..700),
        hash_funcs in any::<u32>(),
        tweak in any::<u32>(),
        flags in any::<u8>(),
    ) {
        let load = FilterLoad { data, hash_funcs, tweak, flags };
        prop_assert_eq!(FilterLoad::decode(&load.encode()), Ok(load));
    }

    #[test]
    fn filteradd_encode_then_decode_is_the_identity(data in vec(any::<u8>(), 0..700)) {
        let add = FilterAdd { data };
        prop_assert_eq!(FilterAdd::decode(&add.encode()), Ok(add));
    }

    #[test]
    fn compact_size_write_then_read_is_the_identity(n in 0..=MAX_COMPACT_SIZE) {
        let mut out = Vec::new();
        compact_size::write(&mut out, n);
        let mut rest = out.as_slice();
        prop_assert_eq!(compact_size::read(&mut rest), Ok(n));
        prop_assert!(rest.is_empty());
    }

    #[test]
    fn or_of_two_filters_contains_both_sets(
        (bytes, hash_funcs, tweak, flags) in parameters(),
        first in elements(20),
        second in elements(20),
    ) {
        let mut a = BloomFilter::with_size(bytes, hash_funcs, tweak, flags).unwrap();
        let mut b = a.clone();
        let mut both = a.clone();
        for element in &first {
            a.insert(element);
            both.insert(element);
        }
        for element in &second {
            b.insert(element);
            both.insert(element);
        }
        let union: Vec<u8> = a.data().iter().zip(b.data()).map(|(x, y)| x | y).collect();
        let union = BloomFilter::from_parts(union, hash_funcs, tweak, flags);
        for element in first.iter().chain(&second) {
            prop_assert!(union.contains(element));
        }
        // The union is exactly the filter of both sets: insert is a bitwise OR of bits.
        prop_assert_eq!(union, both);
    }

    #[test]
    fn decoders_answer_any_bytes_without_panicking(payload in vec(any::<u8>(), 0..64)) {
        let load = FilterLoad::decode(&payload);
        if let Ok(load) = &load {
            prop_assert_eq!(load.encode(), payload.clone());
        }
        let add = FilterAdd::decode(&payload);
        if let Ok(add) = &add {
            prop_assert_eq!(add.encode(), payload);
        }
    }
}
