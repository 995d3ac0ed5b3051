//! Whether a transaction is relevant to a filter, and the filter update that goes with it:
//! Core's `CBloomFilter::IsRelevantAndUpdate` (src/common/bloom.cpp), step for step.
//!
//! 1. The empty (match-all) filter matches every transaction and never changes.
//! 2. The txid (internal byte order) is tested.
//! 3. EVERY output is scanned, even after the txid matched: its non-empty pushes are tested in
//!    order up to the first match or the first malformed push. On a match the outpoint
//!    (txid, output index) is inserted when the update mode says so (ALL always,
//!    P2PUBKEY_ONLY only for pay-to-pubkey and bare multisig outputs), at most once per
//!    output, and the scan moves on to the next output.
//! 4. Only when nothing matched so far are the inputs tested, in order: each input's prevout
//!    (36-byte serialization), then the non-empty pushes of its scriptSig. Inputs never
//!    update the filter.
//!
//! Witness data, the wtxid, whole scripts, values and lock times are never tested. The BIP
//! text says the algorithm "aborts" at the first match; Core does not, and this follows Core.

use crate::filter::BloomFilter;
use crate::flags::UpdateMode;
use crate::script::data_pushes;
use crate::solver::is_pubkey_or_multisig;
use crate::tx::{OutPoint, Transaction};

impl BloomFilter {
    /// Core's `IsRelevantAndUpdate`: true when `tx` matches; inserts the outpoints of matching
    /// outputs as the update mode says.
    pub fn is_relevant_and_update(&mut self, tx: &Transaction) -> bool {
        if self.is_empty() {
            return true;
        }
        let txid = tx.txid();
        let mut found = self.contains(&txid);
        let mode = self.update_mode();
        for (index, output) in tx.outputs.iter().enumerate() {
            let script = &output.script_pubkey;
            if !data_pushes(script).any(|data| self.contains(data)) {
                continue;
            }
            found = true;
            let insert = match mode {
                UpdateMode::All => true,
                UpdateMode::P2PubkeyOnly => is_pubkey_or_multisig(script),
                UpdateMode::None => false,
            };
            if insert {
                // Core's output indexes are u32; a transaction cannot hold 2^32 outputs.
                let vout = u32::try_from(index).unwrap_or(u32::MAX);
                self.insert(&OutPoint { txid, vout }.to_bytes());
            }
        }
        if found {
            return true;
        }
        tx.inputs.iter().any(|input| {
            self.contains(&input.prevout.to_bytes())
                || data_pushes(&input.script_sig).any(|data| self.contains(data))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::{BLOOM_UPDATE_ALL, BLOOM_UPDATE_NONE, BLOOM_UPDATE_P2PUBKEY_ONLY};
    use crate::tx::{MutableTransaction, TxIn, TxOut};

    fn filter(flags: u8, elements: &[&[u8]]) -> BloomFilter {
        let mut f = BloomFilter::new(10, 0.000_001, 0, flags).unwrap();
        for e in elements {
            f.insert(e);
        }
        f
    }

    fn tx(script_sig: Vec<u8>, outputs: Vec<Vec<u8>>) -> Transaction {
        Transaction::from(MutableTransaction {
            version: 1,
            inputs: vec![TxIn {
                prevout: OutPoint {
                    txid: [9; 32],
                    vout: 3,
                },
                script_sig,
                sequence: u32::MAX,
                witness: vec![vec![0xee; 20]],
            }],
            outputs: outputs
                .into_iter()
                .map(|script_pubkey| TxOut {
                    value: 1,
                    script_pubkey,
                })
                .collect(),
            lock_time: 0,
        })
    }

    fn push20(byte: u8) -> Vec<u8> {
        [&[0x14][..], &[byte; 20]].concat()
    }

    fn outpoint(tx: &Transaction, vout: u32) -> [u8; 36] {
        OutPoint {
            txid: tx.txid(),
            vout,
        }
        .to_bytes()
    }

    #[test]
    fn empty_filter_matches_without_update() {
        let mut f = BloomFilter::from_parts(Vec::new(), 5, 0, BLOOM_UPDATE_ALL);
        assert!(f.is_relevant_and_update(&tx(Vec::new(), vec![])));
        assert!(f.data().is_empty());
    }

    #[test]
    fn txid_match_still_updates_outputs() {
        let t = tx(Vec::new(), vec![push20(0xaa)]);
        let mut f = filter(BLOOM_UPDATE_ALL, &[&t.txid(), &[0xaa; 20]]);
        assert!(f.is_relevant_and_update(&t));
        assert!(f.contains(&outpoint(&t, 0)));
        let mut display = t.txid();
        display.reverse();
        assert!(!filter(BLOOM_UPDATE_ALL, &[&display]).is_relevant_and_update(&t));
    }

    #[test]
    fn update_modes() {
        let p2pk = [&[33u8][..], &[0x02; 33], &[0xac]].concat();
        let key = [0x02; 33];
        let t = tx(Vec::new(), vec![p2pk, push20(0xaa)]);
        for (flags, first, second) in [
            (BLOOM_UPDATE_NONE, false, false),
            (BLOOM_UPDATE_ALL, true, true),
            (BLOOM_UPDATE_P2PUBKEY_ONLY, true, false),
            (3, false, false),
        ] {
            let mut f = filter(flags, &[&key, &[0xaa; 20]]);
            assert!(f.is_relevant_and_update(&t));
            assert_eq!(f.contains(&outpoint(&t, 0)), first, "flags {flags}");
            assert_eq!(f.contains(&outpoint(&t, 1)), second, "flags {flags}");
        }
    }

    #[test]
    fn inputs_only_when_nothing_else_matched() {
        let t = tx(push20(0xbb), vec![push20(0xaa)]);
        let prevout = t.inputs[0].prevout.to_bytes();
        assert!(filter(BLOOM_UPDATE_ALL, &[&prevout]).is_relevant_and_update(&t));
        assert!(filter(BLOOM_UPDATE_ALL, &[&[0xbb; 20]]).is_relevant_and_update(&t));
        // Witness data is never tested.
        assert!(!filter(BLOOM_UPDATE_ALL, &[&[0xee; 20]]).is_relevant_and_update(&t));
        // An input match never inserts anything.
        let mut f = filter(BLOOM_UPDATE_ALL, &[&prevout]);
        let before = f.data().to_vec();
        f.is_relevant_and_update(&t);
        assert_eq!(f.data(), before.as_slice());
    }

    #[test]
    fn malformed_push_stops_the_script() {
        // A push claiming 21 bytes with 20 present: its bytes are not an element.
        let truncated = [&[0x15][..], &[0xcc; 20]].concat();
        let script = [&push20(0xaa)[..], &truncated].concat();
        let t = tx(Vec::new(), vec![script]);
        assert!(filter(BLOOM_UPDATE_NONE, &[&[0xaa; 20]]).is_relevant_and_update(&t));
        assert!(!filter(BLOOM_UPDATE_NONE, &[&[0xcc; 20]]).is_relevant_and_update(&t));
    }
}
