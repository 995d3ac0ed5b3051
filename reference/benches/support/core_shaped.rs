//! The peer of the matching bench: Core's `CBloomFilter::IsRelevantAndUpdate` written the way
//! Core writes it, with none of the reference's code. Each push is copied into a vector (as
//! Core's `GetOp` fills a `std::vector<unsigned char>`), each outpoint is serialized into a
//! fresh buffer (Core's `DataStream`), and the hash functions run one at a time with the `mur3`
//! crate's MurmurHash3. The script walk is rust-bitcoin's `Script::instructions`. The txid is
//! read from the transaction, as Core's `CTransaction` caches it. Update modes NONE and ALL
//! only: the benches use those.

use bip37_reference::{hash_seed, BloomFilter, Transaction};
use bitcoin::script::{Instruction, Script};

#[derive(Clone)]
pub struct CoreShapedFilter {
    pub data: Vec<u8>,
    hash_funcs: u32,
    tweak: u32,
    update_all: bool,
}

impl CoreShapedFilter {
    /// The same filter as `filter` (UPDATE_NONE or UPDATE_ALL).
    pub fn new(filter: &BloomFilter) -> Self {
        assert!(
            filter.flags() & 3 < 2,
            "the peer implements NONE and ALL only"
        );
        Self {
            data: filter.data().to_vec(),
            hash_funcs: filter.hash_funcs(),
            tweak: filter.tweak(),
            update_all: filter.flags() & 3 == 1,
        }
    }

    fn bit(&self, i: u32, element: &[u8]) -> usize {
        let hash = mur3::murmurhash3_x86_32(element, hash_seed(i, self.tweak));
        (u64::from(hash) % (self.data.len() as u64 * 8)) as usize
    }

    fn insert(&mut self, element: &[u8]) {
        for i in 0..self.hash_funcs {
            let bit = self.bit(i, element);
            self.data[bit >> 3] |= 1 << (bit & 7);
        }
    }

    fn contains(&self, element: &[u8]) -> bool {
        (0..self.hash_funcs).all(|i| {
            let bit = self.bit(i, element);
            self.data[bit >> 3] & (1 << (bit & 7)) != 0
        })
    }

    /// The pushes of `script` as Core's `GetOp` loop sees them, copied.
    fn pushes(script: &[u8]) -> impl Iterator<Item = Vec<u8>> + '_ {
        Script::from_bytes(script)
            .instructions()
            .map_while(Result::ok)
            .map(|instruction| match instruction {
                Instruction::PushBytes(data) => data.as_bytes().to_vec(),
                Instruction::Op(_) => Vec::new(),
            })
    }

    fn outpoint(txid: &[u8; 32], vout: u32) -> Vec<u8> {
        let mut stream = Vec::new();
        stream.extend_from_slice(txid);
        stream.extend_from_slice(&vout.to_le_bytes());
        stream
    }

    pub fn is_relevant_and_update(&mut self, tx: &Transaction) -> bool {
        if self.data.is_empty() {
            return true;
        }
        let hash = tx.txid();
        let mut found = self.contains(&hash);
        for (i, txout) in tx.outputs.iter().enumerate() {
            for data in Self::pushes(&txout.script_pubkey) {
                if !data.is_empty() && self.contains(&data) {
                    found = true;
                    if self.update_all {
                        self.insert(&Self::outpoint(&hash, i as u32));
                    }
                    break;
                }
            }
        }
        if found {
            return true;
        }
        tx.inputs.iter().any(|txin| {
            let prevout = Self::outpoint(&txin.prevout.txid, txin.prevout.vout);
            self.contains(&prevout)
                || Self::pushes(&txin.script_sig)
                    .any(|data| !data.is_empty() && self.contains(&data))
        })
    }
}
