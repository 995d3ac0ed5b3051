//! The matching switch points: Core's `IsRelevantAndUpdate` over the mutant's filter, where a
//! mutant can test the txid in display order, serialize an outpoint's index big-endian, stop
//! at a txid match, insert once per matching push, insert for any output under
//! P2PUBKEY_ONLY, use the flags byte unmasked, or test witness data. Transactions, scripts
//! and the standard-script solver are `bip37-reference`'s.

use super::bug::Bug;
use super::filter::{DivisionByZero, MutantFilter};
use bip37_reference::flags::{BLOOM_UPDATE_ALL, BLOOM_UPDATE_P2PUBKEY_ONLY};
use bip37_reference::script::data_pushes;
use bip37_reference::sha256::Hash256;
use bip37_reference::solver::is_pubkey_or_multisig;
use bip37_reference::tx::{OutPoint, Transaction};
use bip37_reference::UpdateMode;

/// A txid as the mutant holds it: internal byte order, or reversed (display order).
fn held(bug: Bug, txid: Hash256) -> Hash256 {
    let mut txid = txid;
    if bug == Bug::TxidDisplayOrder {
        txid.reverse();
    }
    txid
}

/// The 36-byte outpoint element as the mutant serializes it.
fn outpoint_element(bug: Bug, outpoint: &OutPoint) -> [u8; 36] {
    let mut bytes = OutPoint {
        txid: held(bug, outpoint.txid),
        vout: outpoint.vout,
    }
    .to_bytes();
    if bug == Bug::BigEndianOutpointIndex {
        bytes[32..].copy_from_slice(&outpoint.vout.to_be_bytes());
    }
    bytes
}

/// The update mode the mutant reads from the flags byte.
fn update_mode(bug: Bug, flags: u8) -> UpdateMode {
    match (bug, flags) {
        (Bug::FlagsNotMasked, BLOOM_UPDATE_ALL) => UpdateMode::All,
        (Bug::FlagsNotMasked, BLOOM_UPDATE_P2PUBKEY_ONLY) => UpdateMode::P2PubkeyOnly,
        (Bug::FlagsNotMasked, _) => UpdateMode::None,
        _ => UpdateMode::from_flags(flags),
    }
}

/// `IsRelevantAndUpdate` as the mutant runs it.
pub fn is_relevant_and_update(
    bug: Bug,
    filter: &mut MutantFilter,
    tx: &Transaction,
) -> Result<bool, DivisionByZero> {
    if filter.is_empty() && bug != Bug::NoEmptyFilterGuard {
        return Ok(true);
    }
    let txid = tx.txid();
    let mut found = filter.contains(&held(bug, txid))?;
    if found && bug == Bug::AbortAfterTxidMatch {
        return Ok(true);
    }
    let mode = update_mode(bug, filter.flags());
    for (index, output) in tx.outputs.iter().enumerate() {
        let script = &output.script_pubkey;
        let mut matching_pushes = 0;
        for data in data_pushes(script) {
            if filter.contains(data)? {
                matching_pushes += 1;
                if bug != Bug::OutpointPerPush {
                    break;
                }
            }
        }
        if matching_pushes == 0 {
            continue;
        }
        found = true;
        let insert = match mode {
            UpdateMode::All => true,
            UpdateMode::P2PubkeyOnly => {
                bug == Bug::P2PubkeyOnlyAnyOutput || is_pubkey_or_multisig(script)
            }
            UpdateMode::None => false,
        };
        if insert {
            // A transaction cannot hold 2^32 outputs; the index fits.
            let vout = u32::try_from(index).unwrap_or(u32::MAX);
            let element = outpoint_element(bug, &OutPoint { txid, vout });
            for _ in 0..matching_pushes {
                filter.insert(&element)?;
            }
        }
    }
    if found {
        return Ok(true);
    }
    for input in &tx.inputs {
        let witness = match bug {
            Bug::WitnessMatched => &input.witness[..],
            _ => &[],
        };
        let relevant = filter.contains(&outpoint_element(bug, &input.prevout))?
            || any_contained(filter, data_pushes(&input.script_sig))?
            || any_contained(filter, witness.iter().map(Vec::as_slice))?;
        if relevant {
            return Ok(true);
        }
    }
    Ok(false)
}

/// True when the filter contains one of `elements` (stopping at the first).
fn any_contained<'a>(
    filter: &MutantFilter,
    elements: impl IntoIterator<Item = &'a [u8]>,
) -> Result<bool, DivisionByZero> {
    for element in elements {
        if !element.is_empty() && filter.contains(element)? {
            return Ok(true);
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bip37_reference::{BloomFilter, FilterLoad};

    const FLAGS_BYTE_CASES: [u8; 4] = [0, 1, 2, 3];

    /// A segwit transaction spending output 3 of txid 0909..09, with one 20-byte witness item
    /// of 0xee and one output per script, serialized and decoded by the reference.
    fn tx(scripts: &[Vec<u8>]) -> Transaction {
        let mut raw = vec![1, 0, 0, 0, 0x00, 0x01, 1];
        raw.extend([9; 32]);
        raw.extend([3, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, scripts.len() as u8]);
        for script in scripts {
            raw.extend([1, 0, 0, 0, 0, 0, 0, 0, script.len() as u8]);
            raw.extend(script);
        }
        raw.extend([1, 20]);
        raw.extend([0xee; 20]);
        raw.extend([0; 4]);
        Transaction::decode(&raw).unwrap()
    }

    fn push20(byte: u8) -> Vec<u8> {
        [&[0x14][..], &[byte; 20]].concat()
    }

    /// The mutant's verdict and filter bytes next to the reference's, for one transaction.
    fn both(bug: Bug, flags: u8, elements: &[&[u8]], t: &Transaction) -> [(bool, Vec<u8>); 2] {
        let empty = FilterLoad {
            data: vec![0; 35],
            hash_funcs: 19,
            tweak: 0,
            flags,
        };
        let mut mutant = MutantFilter::from_fields(bug, empty.clone());
        let mut core = empty.into_filter();
        for e in elements {
            mutant.insert(e).unwrap();
            core.insert(e);
        }
        let verdict = is_relevant_and_update(bug, &mut mutant, t).unwrap();
        let core_verdict = BloomFilter::is_relevant_and_update(&mut core, t);
        [
            (verdict, mutant.data().to_vec()),
            (core_verdict, core.data().to_vec()),
        ]
    }

    #[test]
    fn a_harmless_bug_matches_like_core() {
        let t = tx(&[push20(0xaa), push20(0xbb)]);
        for flags in FLAGS_BYTE_CASES {
            let [m, c] = both(Bug::MsbFirstBits, flags, &[&[0xaa; 20]], &t);
            assert_eq!(m.0, c.0);
        }
    }

    #[test]
    fn each_matching_bug_departs_from_core() {
        let t = tx(&[push20(0xaa)]);
        let mut display = t.txid();
        display.reverse();
        let [m, c] = both(Bug::TxidDisplayOrder, 0, &[&display], &t);
        assert_ne!(m.0, c.0);
        let txid = t.txid();
        let [m, c] = both(Bug::AbortAfterTxidMatch, 1, &[&txid, &[0xaa; 20]], &t);
        assert_ne!(m.1, c.1, "the outpoint is not inserted after a txid match");
        let [m, c] = both(Bug::FlagsNotMasked, 0xfd, &[&[0xaa; 20]], &t);
        assert_ne!(m.1, c.1);
        let [m, c] = both(Bug::P2PubkeyOnlyAnyOutput, 2, &[&[0xaa; 20]], &t);
        assert_ne!(m.1, c.1);
        // Index 0 reads the same in both byte orders: the second output matches.
        let second = tx(&[push20(0xbb), push20(0xaa)]);
        let [m, c] = both(Bug::BigEndianOutpointIndex, 1, &[&[0xaa; 20]], &second);
        assert_ne!(m.1, c.1);
        let [m, c] = both(Bug::WitnessMatched, 0, &[&[0xee; 20]], &t);
        assert_ne!(m.0, c.0);
    }
}
