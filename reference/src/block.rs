//! Blocks: the 80-byte header and the transaction list, with a bounded decoder and Core's
//! merkle root (`ComputeMerkleRoot`: txids pairwise `sha256d`, the last one of an odd level
//! paired with itself).

use crate::compact_size::{self, ensure_consumed, take};
use crate::sha256::{hash_pair, sha256d, Hash256};
use crate::tx::{read_count, Transaction, TxError, MIN_TX_BYTES};
use crate::wire::DecodeError;

/// The size of a serialized block header.
pub const HEADER_BYTES: usize = 80;

/// A block header (`CBlockHeader`). Hashes are in internal byte order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockHeader {
    pub version: u32,
    pub prev_block: Hash256,
    pub merkle_root: Hash256,
    pub time: u32,
    pub bits: u32,
    pub nonce: u32,
}

impl BlockHeader {
    /// Decodes a header from the front of `input`.
    pub fn decode_from(input: &mut &[u8]) -> Result<Self, DecodeError> {
        Ok(Self {
            version: u32::from_le_bytes(take(input, "block version")?),
            prev_block: take(input, "previous block hash")?,
            merkle_root: take(input, "merkle root")?,
            time: u32::from_le_bytes(take(input, "block time")?),
            bits: u32::from_le_bytes(take(input, "block bits")?),
            nonce: u32::from_le_bytes(take(input, "block nonce")?),
        })
    }

    /// The 80 header bytes.
    pub fn encode(&self) -> [u8; HEADER_BYTES] {
        let mut out = [0u8; HEADER_BYTES];
        out[..4].copy_from_slice(&self.version.to_le_bytes());
        out[4..36].copy_from_slice(&self.prev_block);
        out[36..68].copy_from_slice(&self.merkle_root);
        out[68..72].copy_from_slice(&self.time.to_le_bytes());
        out[72..76].copy_from_slice(&self.bits.to_le_bytes());
        out[76..].copy_from_slice(&self.nonce.to_le_bytes());
        out
    }

    /// The block hash (internal byte order).
    pub fn hash(&self) -> Hash256 {
        sha256d(&self.encode())
    }
}

/// A block: a header and its transactions in block order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub header: BlockHeader,
    pub transactions: Vec<Transaction>,
}

impl Block {
    /// Decodes exactly one block: trailing bytes are an error. The header's merkle root is
    /// NOT checked against the transactions (that is validation, not decoding).
    pub fn decode(bytes: &[u8]) -> Result<Self, TxError> {
        let mut input = bytes;
        let header = BlockHeader::decode_from(&mut input)?;
        let count = read_count(&mut input, MIN_TX_BYTES, "transactions")?;
        let transactions = (0..count)
            .map(|_| Transaction::decode_from(&mut input))
            .collect::<Result<Vec<_>, _>>()?;
        ensure_consumed(input)?;
        Ok(Self {
            header,
            transactions,
        })
    }

    /// The serialization (each transaction with its witness, if it has one).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = self.header.encode().to_vec();
        compact_size::write(&mut out, self.transactions.len() as u64);
        for tx in &self.transactions {
            out.extend_from_slice(&tx.encode());
        }
        out
    }

    /// The txids in block order.
    pub fn txids(&self) -> Vec<Hash256> {
        self.transactions.iter().map(Transaction::txid).collect()
    }

    /// The merkle root of the transactions, or `None` for a block without any.
    pub fn computed_merkle_root(&self) -> Option<Hash256> {
        merkle_root(&self.txids())
    }
}

/// Core's `ComputeMerkleRoot` over `hashes`, or `None` for an empty list.
pub fn merkle_root(hashes: &[Hash256]) -> Option<Hash256> {
    let mut level = hashes.to_vec();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| hash_pair(&pair[0], pair.last().unwrap_or(&pair[0])))
            .collect();
    }
    level.first().copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tx::{MutableTransaction, OutPoint, TxIn, TxOut};

    fn coinbase(tag: u8) -> Transaction {
        Transaction::from(MutableTransaction {
            version: 1,
            inputs: vec![TxIn {
                prevout: OutPoint::NULL,
                script_sig: vec![1, tag],
                sequence: u32::MAX,
                witness: Vec::new(),
            }],
            outputs: vec![TxOut {
                value: 50,
                script_pubkey: vec![0x51],
            }],
            lock_time: 0,
        })
    }

    #[test]
    fn roundtrip_and_root() {
        let transactions = vec![coinbase(1), coinbase(2), coinbase(3)];
        let ids: Vec<Hash256> = transactions.iter().map(Transaction::txid).collect();
        let root = hash_pair(&hash_pair(&ids[0], &ids[1]), &hash_pair(&ids[2], &ids[2]));
        let block = Block {
            header: BlockHeader {
                version: 1,
                prev_block: [1; 32],
                merkle_root: root,
                time: 2,
                bits: 3,
                nonce: 4,
            },
            transactions,
        };
        let bytes = block.encode();
        assert_eq!(Block::decode(&bytes), Ok(block.clone()));
        assert_eq!(block.computed_merkle_root(), Some(root));
        assert_eq!(merkle_root(&ids[..1]), Some(ids[0]));
        assert_eq!(merkle_root(&[]), None);
    }

    #[test]
    fn hostile_transaction_count() {
        let mut bytes = vec![0u8; HEADER_BYTES];
        bytes.extend_from_slice(&[0xfe, 0x00, 0x00, 0x00, 0x01]);
        assert!(matches!(
            Block::decode(&bytes),
            Err(TxError::Decode(DecodeError::Truncated {
                field: "transactions",
                ..
            }))
        ));
        assert!(Block::decode(&bytes[..79]).is_err());
    }
}
