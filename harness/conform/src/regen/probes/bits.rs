//! Bit positions confirmed by the node: for an element and a filter shape (bytes, hash
//! functions, tweak), load a filter with exactly the bits the reference computes (nFlags 0),
//! expect the transaction that pushes the element to match; then clear each bit in turn and
//! expect it not to match. Together: the node tests exactly those bits.
//!
//! The elements and shapes come from the insert, match and merkle block vectors (every
//! element a test inserts or asks about), plus a sweep of shapes that covers filter sizes
//! 1 to 36,000 bytes, 1 to 50 hash functions, tweaks that wrap the seed, and every MurmurHash3
//! tail length. A cleared bit that the reference says still matches through another tested
//! part of the transaction (possible in tiny filters) is inconclusive, not a failure.
//!
//! Elements longer than 520 bytes (`MAX_SCRIPT_ELEMENT_SIZE`) are node-specific: Core tests
//! output pushes of any length, the Bitcoin SV node 1.0.13 never matches them. Their probes
//! are recorded per node and reported, not counted.

use super::Findings;
use crate::regen::chain::{self, carrier_script, take_coin, Coin, MinedBlock};
use crate::regen::error::RegenError;
use crate::regen::oracle::Oracle;
use crate::regen::record::ProbeRecord;
use crate::regen::rpc::RpcClient;
use bip37_harness::ops::{FilterInit, Request};
use bip37_harness::reference_impl::init_filter;
use bip37_harness::vectors::LoadedTest;
use bip37_reference::limits::MAX_FILTER_BYTES;
use bip37_reference::{BloomFilter, FilterLoad};
use serde_json::json;
use std::collections::BTreeMap;

/// The longest push every node tests (`MAX_SCRIPT_ELEMENT_SIZE`).
const MAX_PORTABLE_ELEMENT_BYTES: usize = 520;
/// Elements longer than this are left out: a transaction carrying them would be needlessly
/// large, and no vector needs one.
const MAX_ELEMENT_BYTES: usize = 10_000;
/// The sweep's filter sizes, hash function counts, tweaks and element lengths.
const SWEEP_BYTES: [u32; 5] = [1, 3, 35, 1000, 36_000];
const SWEEP_FUNCS: [u32; 3] = [1, 19, 50];
const SWEEP_TWEAKS: [u32; 4] = [0, 1, 0x8000_0001, 0xffff_ffff];
const SWEEP_LENGTHS: [usize; 11] = [1, 2, 3, 4, 5, 20, 32, 33, 65, 520, 521];

/// One element in one filter shape, and the vector tests that use it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct BitProbe {
    pub filter_bytes: u32,
    pub hash_funcs: u32,
    pub tweak: u32,
    pub element: Vec<u8>,
    pub confirms: Vec<String>,
}

impl BitProbe {
    /// Whether nodes may legitimately answer this probe differently.
    pub fn node_specific(&self) -> bool {
        self.element.len() > MAX_PORTABLE_ELEMENT_BYTES
    }

    fn id(&self) -> String {
        let hex = bip37_harness::hex::encode(&self.element);
        let short = if hex.len() > 16 {
            format!("{}..{}b", &hex[..16], self.element.len())
        } else {
            hex
        };
        format!(
            "bits/{}B-{}f-t{:08x}/{short}",
            self.filter_bytes, self.hash_funcs, self.tweak
        )
    }

    fn indexes(&self) -> Vec<u32> {
        let mut indexes = self
            .filter(vec![0; self.filter_bytes as usize])
            .bit_indexes(&self.element);
        indexes.sort_unstable();
        indexes.dedup();
        indexes
    }

    fn filter(&self, data: Vec<u8>) -> BloomFilter {
        BloomFilter::from_parts(data, self.hash_funcs, self.tweak, 0)
    }

    fn load(&self, bits: &[u32]) -> FilterLoad {
        let mut data = vec![0u8; self.filter_bytes as usize];
        for &bit in bits {
            data[(bit / 8) as usize] |= 1 << (bit % 8);
        }
        FilterLoad {
            data,
            hash_funcs: self.hash_funcs,
            tweak: self.tweak,
            flags: 0,
        }
    }
}

/// The probes of the vectors: every (filter shape, element) an insert, match or merkle block
/// test uses, merged by content. Filters that match everything (no bytes or no hash
/// functions) and empty elements cannot isolate bits and are left out.
pub fn from_vectors(tests: &[LoadedTest]) -> Vec<BitProbe> {
    let mut merged: BTreeMap<(u32, u32, u32, Vec<u8>), Vec<String>> = BTreeMap::new();
    for test in tests {
        let (init, elements): (&FilterInit, Vec<&[u8]>) = match &test.request {
            Request::BitIndexes(i) => (&i.filter, vec![&i.element.0]),
            Request::BuildFilter(i) => (
                &i.filter,
                i.insert
                    .iter()
                    .chain(&i.queries)
                    .map(|h| &h.0[..])
                    .collect(),
            ),
            Request::MatchTx(i) => (&i.filter, i.insert.iter().map(|h| &h.0[..]).collect()),
            Request::MerkleBlock(i) => (&i.filter, i.insert.iter().map(|h| &h.0[..]).collect()),
            _ => continue,
        };
        let Ok(filter) = init_filter(init) else {
            continue;
        };
        let bytes = filter.data().len();
        if bytes == 0 || filter.hash_funcs() == 0 || bytes > MAX_FILTER_BYTES as usize {
            continue;
        }
        for element in elements {
            if element.is_empty() || element.len() > MAX_ELEMENT_BYTES {
                continue;
            }
            merged
                .entry((
                    bytes as u32,
                    filter.hash_funcs(),
                    filter.tweak(),
                    element.to_vec(),
                ))
                .or_default()
                .push(test.case.id.clone());
        }
    }
    merged
        .into_iter()
        .map(
            |((filter_bytes, hash_funcs, tweak, element), mut confirms)| {
                confirms.dedup();
                BitProbe {
                    filter_bytes,
                    hash_funcs,
                    tweak,
                    element,
                    confirms,
                }
            },
        )
        .collect()
}

/// The sweep: twelve probes that together use every size, count, tweak and length above.
pub fn sweep() -> Vec<BitProbe> {
    (0..12)
        .map(|i| BitProbe {
            filter_bytes: SWEEP_BYTES[i % SWEEP_BYTES.len()],
            hash_funcs: SWEEP_FUNCS[i % SWEEP_FUNCS.len()],
            tweak: SWEEP_TWEAKS[i % SWEEP_TWEAKS.len()],
            element: (0..SWEEP_LENGTHS[i % SWEEP_LENGTHS.len()])
                .map(|j| (j * 37 + i * 11 + 1) as u8)
                .collect(),
            confirms: Vec::new(),
        })
        .collect()
}

/// Mines one block with one carrier per probe (`coins` holds at least one plain coin per
/// probe) and confirms each probe's bits; returns the counted records and the node-specific
/// ones.
pub fn run(
    rpc: &mut RpcClient,
    oracle: &mut Oracle,
    probes: &[BitProbe],
    coins: &mut Vec<Coin>,
    findings: &mut Findings,
) -> Result<(Vec<ProbeRecord>, Vec<ProbeRecord>), RegenError> {
    if probes.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let carriers = probes
        .iter()
        .map(|p| chain::spend(&take_coin(coins)?, None, vec![carrier_script(&p.element)]))
        .collect::<Result<Vec<_>, _>>()?;
    let mined = chain::mine(rpc, &carriers)?;
    let mut counted = Vec::new();
    let mut node_specific = Vec::new();
    for (i, probe) in probes.iter().enumerate() {
        let record = confirm(oracle, &mined, i + 1, probe, findings)?;
        match probe.node_specific() {
            true => node_specific.push(record),
            false => counted.push(record),
        }
    }
    Ok((counted, node_specific))
}

/// Confirms one probe whose carrier is transaction `carrier` of `mined`.
fn confirm(
    oracle: &mut Oracle,
    mined: &MinedBlock,
    carrier: usize,
    probe: &BitProbe,
    findings: &mut Findings,
) -> Result<ProbeRecord, RegenError> {
    let id = probe.id();
    let indexes = probe.indexes();
    let mut first_difference = None;
    let mut ask = |bits: &[u32]| -> Result<(bool, bool), RegenError> {
        let answer = oracle.ask(&probe.load(bits), &[mined])?.remove(0);
        if first_difference.is_none() {
            first_difference = answer.difference;
        }
        Ok((
            answer.node.contains(&carrier),
            answer.reference.contains(&carrier),
        ))
    };
    let (all_bits, _) = ask(&indexes)?;
    let mut confirmed = all_bits;
    let mut inconclusive = 0;
    for &bit in &indexes {
        let rest: Vec<u32> = indexes.iter().copied().filter(|&b| b != bit).collect();
        let (node, reference) = ask(&rest)?;
        match (node, reference) {
            (false, _) => {}
            (true, true) => inconclusive += 1,
            (true, false) => confirmed = false,
        }
    }
    let agrees = first_difference.is_none();
    if let Some(diff) = first_difference {
        match probe.node_specific() {
            true => findings.note(format!("{id} (node-specific, not counted): {diff}")),
            false => findings.disagree(&id, diff),
        }
    }
    if inconclusive > 0 {
        findings.note(format!(
            "{id}: {inconclusive} of {} cleared bits inconclusive (the carrier matches through \
             another tested part in so small a filter)",
            indexes.len()
        ));
    }
    Ok(ProbeRecord {
        id,
        what: "the element's bits: matched with exactly these bits, not with any one cleared"
            .into(),
        confirms: probe.confirms.clone(),
        input: json!({
            "filterBytes": probe.filter_bytes,
            "hashFuncs": probe.hash_funcs,
            "tweak": probe.tweak,
            "element": bip37_harness::hex::encode(&probe.element),
        }),
        observed: json!({"indexes": indexes, "confirmed": confirmed}),
        agrees_with_reference: agrees,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_covers_every_value() {
        let probes = sweep();
        for b in SWEEP_BYTES {
            assert!(probes.iter().any(|p| p.filter_bytes == b));
        }
        for f in SWEEP_FUNCS {
            assert!(probes.iter().any(|p| p.hash_funcs == f));
        }
        for t in SWEEP_TWEAKS {
            assert!(probes.iter().any(|p| p.tweak == t));
        }
        for l in SWEEP_LENGTHS {
            assert!(probes.iter().any(|p| p.element.len() == l));
        }
    }

    #[test]
    fn exact_bits_filter_contains_the_element_and_a_cleared_bit_does_not() {
        let probe = BitProbe {
            filter_bytes: 64,
            hash_funcs: 7,
            tweak: 5,
            element: b"element".to_vec(),
            confirms: vec![],
        };
        let indexes = probe.indexes();
        let load = probe.load(&indexes);
        assert!(load.clone().into_filter().contains(b"element"));
        assert_eq!(
            load.data.iter().map(|b| b.count_ones()).sum::<u32>() as usize,
            indexes.len()
        );
        let cleared = probe.load(&indexes[1..]);
        assert!(!cleared.into_filter().contains(b"element"));
    }

    #[test]
    fn ids_are_short_and_stable() {
        let probe = &sweep()[9];
        assert_eq!(probe.id(), sweep()[9].id());
        assert!(probe.id().len() < 60, "{}", probe.id());
    }
}
