//! Structure-aware (`arbitrary`) filter construction, checked against properties every BIP 37
//! filter has rather than against another implementation:
//!
//! - no false negatives: every inserted element is contained;
//! - an insert only ever sets bits;
//! - `contains` is exactly "every bit of `bit_indexes` is set", and there is one index per hash
//!   function (none for the empty, match-all filter);
//! - a filter sized by `(n, p)` is within the protocol limits;
//! - a filter survives `filterload` encode and decode unchanged.

use arbitrary::{Arbitrary, Unstructured};
use bip37_reference::{BloomFilter, FilterLoad};

/// How the filter is set up. Sizes stay small enough that one run takes microseconds.
#[derive(Debug, Arbitrary)]
pub enum FilterSetup {
    /// Core's constructor from (n, p); inputs it leaves undefined are skipped.
    Sized {
        n: u32,
        p: f64,
        tweak: u32,
        flags: u8,
    },
    /// An explicit size, all bits clear.
    Explicit {
        bytes: u16,
        hash_funcs: u8,
        tweak: u32,
        flags: u8,
    },
    /// Bytes as a `filterload` would carry them.
    Loaded {
        data: Vec<u8>,
        hash_funcs: u8,
        tweak: u32,
        flags: u8,
    },
}

/// One filter, the elements inserted into it and further elements asked about.
#[derive(Debug, Arbitrary)]
pub struct FilterCase {
    pub setup: FilterSetup,
    pub inserts: Vec<Vec<u8>>,
    pub queries: Vec<Vec<u8>>,
}

impl FilterSetup {
    fn build(&self) -> Option<BloomFilter> {
        match *self {
            FilterSetup::Sized { n, p, tweak, flags } => {
                let filter = BloomFilter::new(n, p, tweak, flags).ok()?;
                assert!(
                    filter.is_within_size_constraints(),
                    "sized {n}, {p}: {filter:?}"
                );
                Some(filter)
            }
            FilterSetup::Explicit {
                bytes,
                hash_funcs,
                tweak,
                flags,
            } => Some(BloomFilter::from_parts(
                vec![0; usize::from(bytes)],
                hash_funcs.into(),
                tweak,
                flags,
            )),
            FilterSetup::Loaded {
                ref data,
                hash_funcs,
                tweak,
                flags,
            } => Some(BloomFilter::from_parts(
                data.clone(),
                hash_funcs.into(),
                tweak,
                flags,
            )),
        }
    }
}

/// Checks that `contains` agrees with the bit indexes of `element`.
fn check_consistent(filter: &BloomFilter, element: &[u8]) {
    let indexes = filter.bit_indexes(element);
    let expected_count = if filter.is_empty() {
        0
    } else {
        filter.hash_funcs() as usize
    };
    assert_eq!(indexes.len(), expected_count);
    let all_set = indexes
        .iter()
        .all(|&bit| filter.data()[(bit / 8) as usize] & (1 << (bit % 8)) != 0);
    assert_eq!(filter.contains(element), all_set);
}

/// The target: build, insert, query and roundtrip one arbitrary filter.
pub fn filter(bytes: &[u8]) {
    let Ok(case) = FilterCase::arbitrary_take_rest(Unstructured::new(bytes)) else {
        return;
    };
    let Some(mut filter) = case.setup.build() else {
        return;
    };
    for element in &case.inserts {
        let before = filter.data().to_vec();
        filter.insert(element);
        let only_set = before.iter().zip(filter.data()).all(|(b, a)| b & a == *b);
        assert!(only_set, "insert cleared a bit");
    }
    for element in case.inserts.iter().chain(&case.queries) {
        check_consistent(&filter, element);
    }
    for element in &case.inserts {
        assert!(
            filter.contains(element),
            "false negative for {element:02x?}"
        );
    }
    let payload = FilterLoad::from(&filter).encode();
    let decoded = FilterLoad::decode(&payload).map(FilterLoad::into_filter);
    assert_eq!(decoded.as_ref(), Ok(&filter), "filterload roundtrip");
}
