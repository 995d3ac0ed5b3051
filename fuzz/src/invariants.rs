//! Structure-aware (`arbitrary`) filters and transactions, checked against properties every
//! BIP 37 implementation has rather than against another implementation. Filter construction
//! ([`filter`]):
//!
//! - no false negatives: every inserted element is contained;
//! - an insert sets exactly the bits of its indexes and clears none;
//! - explicit and loaded filters have at most 50 hash functions, Core's `MAX_HASH_FUNCS`: Core
//!   never builds or accepts more, and 0..=50 covers every grouping of the four-at-a-time
//!   hashing in `insert` / `contains` (up to 255 made one run cost milliseconds);
//! - `contains` is exactly "every bit of `bit_indexes` is set", and there is one index per hash
//!   function (none for the empty, match-all filter);
//! - a filter sized by `(n, p)` is within the protocol limits;
//! - a filter survives `filterload` encode and decode unchanged.
//!
//! Transaction matching ([`match_tx`]) has its own list.

use arbitrary::{Arbitrary, Unstructured};
use bip37_reference::limits::MAX_HASH_FUNCS;
use bip37_reference::script::data_pushes;
use bip37_reference::tx::{OutPoint, TxIn, TxOut};
use bip37_reference::{BloomFilter, FilterLoad, MutableTransaction, Transaction};
use std::cell::RefCell;

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
    fn build(self) -> Option<BloomFilter> {
        match self {
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
                u32::from(hash_funcs) % (MAX_HASH_FUNCS + 1),
                tweak,
                flags,
            )),
            FilterSetup::Loaded {
                data,
                hash_funcs,
                tweak,
                flags,
            } => Some(BloomFilter::from_parts(
                data,
                u32::from(hash_funcs) % (MAX_HASH_FUNCS + 1),
                tweak,
                flags,
            )),
        }
    }
}

thread_local! {
    /// The filter as the bit indexes say it must be, reused by every input of [`filter`].
    static EXPECTED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Checks that `contains` agrees with `indexes`, the bit indexes of `element`, and returns it.
fn check_consistent(filter: &BloomFilter, element: &[u8], indexes: &[u32]) -> bool {
    let expected_count = if filter.is_empty() {
        0
    } else {
        filter.hash_funcs() as usize
    };
    assert_eq!(indexes.len(), expected_count);
    let all_set = indexes
        .iter()
        .all(|&bit| filter.data()[(bit / 8) as usize] & (1 << (bit % 8)) != 0);
    let contains = filter.contains(element);
    assert_eq!(contains, all_set, "contains disagrees with the bit indexes");
    contains
}

/// The target: build, insert, query and roundtrip one arbitrary filter.
pub fn filter(bytes: &[u8]) {
    crate::heap::keep_freed_memory();
    let Ok(FilterCase {
        setup,
        inserts,
        queries,
    }) = FilterCase::arbitrary_take_rest(Unstructured::new(bytes))
    else {
        return;
    };
    let Some(mut filter) = setup.build() else {
        return;
    };
    // The filter as the bit indexes say it must be: each insert sets exactly the bits of
    // `bit_indexes` (one hash function at a time, while `insert` hashes four at once) and
    // clears none. After each insert the bytes it touched are compared, after the last the
    // whole filter, by one slice comparison (comparing the whole filter after every insert,
    // or looping over its bytes in the target, cost up to 65 KB per insert and held the
    // target near 5,000 executions per second). An element's indexes do not depend on the
    // bits, so they are computed once.
    // The model's buffer is kept across inputs: a fresh copy of a filter up to 65,535 bytes
    // landed on fresh pages, and perf put 8% of the target in their page faults.
    let mut inserted = Vec::with_capacity(inserts.len());
    EXPECTED.with_borrow_mut(|expected| {
        expected.clear();
        expected.extend_from_slice(filter.data());
        for element in &inserts {
            let indexes = filter.bit_indexes(element);
            for &bit in &indexes {
                expected[(bit / 8) as usize] |= 1 << (bit % 8);
            }
            filter.insert(element);
            for &bit in &indexes {
                let byte = (bit / 8) as usize;
                assert_eq!(
                    filter.data()[byte],
                    expected[byte],
                    "insert of {element:02x?}: byte {byte}"
                );
            }
            inserted.push((element, indexes));
        }
        assert!(
            filter.data() == expected.as_slice(),
            "the inserts set other bits than their indexes, or cleared one"
        );
    });
    for (element, indexes) in &inserted {
        let contained = check_consistent(&filter, element, indexes);
        assert!(contained, "false negative for {element:02x?}");
    }
    for element in &queries {
        check_consistent(&filter, element, &filter.bit_indexes(element));
    }
    let payload = FilterLoad::from(&filter).encode();
    let decoded = FilterLoad::decode(&payload).map(FilterLoad::into_filter);
    assert_eq!(decoded.as_ref(), Ok(&filter), "filterload roundtrip");
}

/// Which part of a transaction the matching target inserts into the filter before matching.
#[derive(Debug, Arbitrary)]
pub enum Planted {
    /// Nothing: the verdict is whatever the filter says.
    Nothing,
    /// The txid.
    Txid,
    /// A push of an output script (index and push number taken modulo what exists).
    OutputPush { output: u8, push: u8 },
    /// An input's prevout serialization.
    Prevout { input: u8 },
    /// A push of an input's scriptSig.
    ScriptSigPush { input: u8, push: u8 },
}

/// An input: prevout txid and index, scriptSig, sequence (no witness: it is never tested).
#[derive(Debug, Arbitrary)]
pub struct InputShape {
    pub txid: [u8; 32],
    pub vout: u32,
    pub script_sig: Vec<u8>,
    pub sequence: u32,
}

/// A transaction built field by field (decoding random bytes would rarely give one).
#[derive(Debug, Arbitrary)]
pub struct TxShape {
    pub version: u32,
    pub inputs: Vec<InputShape>,
    pub outputs: Vec<(i64, Vec<u8>)>,
    pub lock_time: u32,
}

/// A filter, an element planted from the first transaction, and transactions evaluated in order.
#[derive(Debug, Arbitrary)]
pub struct MatchCase {
    pub filter_bytes: u16,
    pub hash_funcs: u8,
    pub tweak: u32,
    pub flags: u8,
    pub planted: Planted,
    pub txs: Vec<TxShape>,
}

impl TxShape {
    /// The transaction the shape describes.
    pub fn build(&self) -> Transaction {
        Transaction::from(MutableTransaction {
            version: self.version,
            inputs: (self.inputs.iter())
                .map(|input| TxIn {
                    prevout: OutPoint {
                        txid: input.txid,
                        vout: input.vout,
                    },
                    script_sig: input.script_sig.clone(),
                    sequence: input.sequence,
                    witness: Vec::new(),
                })
                .collect(),
            outputs: (self.outputs.iter())
                .map(|(value, script)| TxOut {
                    value: *value,
                    script_pubkey: script.clone(),
                })
                .collect(),
            lock_time: self.lock_time,
        })
    }
}

/// The element `planted` names in `tx`, if it exists.
pub fn planted_element(planted: &Planted, tx: &Transaction) -> Option<Vec<u8>> {
    let nth = |items: usize, i: u8| (items > 0).then(|| usize::from(i) % items);
    let push = |script: &[u8], i: u8| {
        let pushes: Vec<&[u8]> = data_pushes(script).collect();
        nth(pushes.len(), i).map(|i| pushes[i].to_vec())
    };
    match *planted {
        Planted::Nothing => None,
        Planted::Txid => Some(tx.txid().to_vec()),
        Planted::OutputPush { output, push: p } => {
            push(&tx.outputs[nth(tx.outputs.len(), output)?].script_pubkey, p)
        }
        Planted::Prevout { input } => Some(
            tx.inputs[nth(tx.inputs.len(), input)?]
                .prevout
                .to_bytes()
                .to_vec(),
        ),
        Planted::ScriptSigPush { input, push: p } => {
            push(&tx.inputs[nth(tx.inputs.len(), input)?].script_sig, p)
        }
    }
}

/// The target: transaction matching and updates against their invariants.
///
/// - no false negatives: a transaction whose txid, output push, prevout or scriptSig push was
///   inserted matches;
/// - updates never remove a match: the filter only gains bits, and every transaction that
///   matched still matches the final filter;
/// - with `flags & 3 == 1` a matching output's outpoint is in the filter afterwards;
/// - with `flags & 3` of 0 or 3 the filter never changes, and the empty filter matches all.
///
/// The filter has at most Core's 50 hash functions, as in [`filter`] (it took up to 63).
pub fn match_tx(bytes: &[u8]) {
    let Ok(case) = MatchCase::arbitrary_take_rest(Unstructured::new(bytes)) else {
        return;
    };
    let data = vec![0; usize::from(case.filter_bytes % 4096)];
    let mut filter = BloomFilter::from_parts(
        data,
        u32::from(case.hash_funcs) % (MAX_HASH_FUNCS + 1),
        case.tweak,
        case.flags,
    );
    let txs: Vec<Transaction> = case.txs.iter().map(TxShape::build).collect();
    if let Some(element) = txs
        .first()
        .and_then(|tx| planted_element(&case.planted, tx))
    {
        filter.insert(&element);
    }
    let initial = filter.clone();
    let mut matched = Vec::new();
    for tx in &txs {
        let before = filter.data().to_vec();
        let relevant = filter.is_relevant_and_update(tx);
        assert!(
            only_sets_bits(&before, filter.data()),
            "an update cleared a bit"
        );
        if filter.is_empty() {
            assert!(relevant, "the empty filter must match everything");
        }
        if case.flags & 3 == 1 {
            check_outpoints_inserted(&filter, &before, tx);
        }
        matched.push(relevant);
    }
    if let Some(first) = txs.first() {
        if planted_element(&case.planted, first).is_some() {
            assert!(matched[0], "false negative for {:?}", case.planted);
        }
    }
    if case.flags & 3 == 0 || case.flags & 3 == 3 {
        assert_eq!(filter, initial, "UPDATE_NONE changed the filter");
    }
    for (tx, was) in txs.iter().zip(matched) {
        if was {
            assert!(
                filter.clone().is_relevant_and_update(tx),
                "an update removed a match"
            );
        }
    }
}

/// True when `after` has every bit of `before`. A fold without early exit, so the compiler
/// compares many bytes per loop iteration and coverage tracing does not run per byte.
fn only_sets_bits(before: &[u8], after: &[u8]) -> bool {
    let cleared = (before.iter().zip(after)).fold(0u8, |cleared, (b, a)| cleared | (b & !a));
    before.len() == after.len() && cleared == 0
}

/// With UPDATE_ALL, every output with a push the filter (as it was) contains has its outpoint
/// in the filter afterwards.
fn check_outpoints_inserted(after: &BloomFilter, before: &[u8], tx: &Transaction) {
    let old = BloomFilter::from_parts(
        before.to_vec(),
        after.hash_funcs(),
        after.tweak(),
        after.flags(),
    );
    let txid = tx.txid();
    for (vout, output) in (0u32..).zip(&tx.outputs) {
        if data_pushes(&output.script_pubkey).any(|push| old.contains(push)) {
            let outpoint = OutPoint { txid, vout }.to_bytes();
            assert!(after.contains(&outpoint), "outpoint {vout} not inserted");
        }
    }
}
