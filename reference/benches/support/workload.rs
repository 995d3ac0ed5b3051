//! The transactions, blocks and filter the matching and merkle benches run on: 2-in/2-out P2PKH
//! transactions (the commonest shape on the network, 374 bytes) with deterministic
//! pseudo-random keys, signatures and prevouts.

use bip37_reference::flags::BLOOM_UPDATE_ALL;
use bip37_reference::tx::{OutPoint, TxIn, TxOut};
use bip37_reference::{Block, BlockHeader, BloomFilter, MutableTransaction, Transaction};

/// Deterministic pseudo-random bytes (xorshift) for `(tag, index)`, the same in every run.
pub fn bytes(tag: u64, index: u64, len: usize) -> Vec<u8> {
    let mut x = (tag << 32 ^ index).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// A wallet's filter: sized for 1000 elements at p = 0.0001 (2,396 bytes, 13 hash functions),
/// UPDATE_ALL, holding 1000 random elements (hash160s, public keys, ...), so about half its
/// bits are set.
pub fn wallet_filter() -> BloomFilter {
    let mut filter = BloomFilter::new(1000, 0.0001, 0x5eed, BLOOM_UPDATE_ALL).expect("legal");
    for i in 0..1000 {
        filter.insert(&bytes(9, i, 20 + (i as usize % 3) * 13));
    }
    filter
}

/// `data` as one push opcode (all elements here are shorter than 76 bytes).
fn push(data: &[u8]) -> Vec<u8> {
    [&[data.len() as u8][..], data].concat()
}

/// `OP_DUP OP_HASH160 <20 bytes> OP_EQUALVERIFY OP_CHECKSIG`.
pub fn p2pkh(hash160: &[u8]) -> Vec<u8> {
    [&[0x76, 0xa9][..], &push(hash160), &[0x88, 0xac]].concat()
}

/// Transaction `index`: two inputs spending unrelated outputs with a 72-byte signature and a
/// 33-byte public key each, and two P2PKH outputs.
pub fn p2pkh_tx(index: u64) -> MutableTransaction {
    let input = |n: u64| {
        let mut txid = [0u8; 32];
        txid.copy_from_slice(&bytes(1, index * 2 + n, 32));
        let mut pubkey = bytes(2, index * 2 + n, 33);
        pubkey[0] = 0x02;
        TxIn {
            prevout: OutPoint {
                txid,
                vout: n as u32,
            },
            script_sig: [push(&bytes(3, index * 2 + n, 72)), push(&pubkey)].concat(),
            sequence: u32::MAX,
            witness: Vec::new(),
        }
    };
    let output = |n: u64| TxOut {
        value: 10_000 + n as i64,
        script_pubkey: p2pkh(&bytes(4, index * 2 + n, 20)),
    };
    MutableTransaction {
        version: 2,
        inputs: vec![input(0), input(1)],
        outputs: vec![output(0), output(1)],
        lock_time: 0,
    }
}

/// A block of `count` such transactions, decoded from its bytes as a node would receive it.
pub fn block(
    count: u64,
    mut spend: impl FnMut(u64, &mut MutableTransaction, &[Transaction]),
) -> Block {
    let mut transactions: Vec<Transaction> = Vec::new();
    for index in 0..count {
        let mut tx = p2pkh_tx(index);
        spend(index, &mut tx, &transactions);
        transactions.push(tx.into());
    }
    let block = Block {
        header: BlockHeader {
            version: 4,
            prev_block: [7; 32],
            merkle_root: [0; 32],
            time: 1_700_000_000,
            bits: 0x1d00_ffff,
            nonce: 42,
        },
        transactions,
    };
    Block::decode(&block.encode()).expect("the block just encoded decodes")
}
