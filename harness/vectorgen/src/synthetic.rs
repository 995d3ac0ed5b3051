//! Made-up transactions and blocks for the generated matching, merkle and sequence vectors:
//! small, deterministic, and shaped so one element sits exactly where a test needs it.

pub use bip37_harness::scripts::{multisig_1_of, p2pk, p2pkh, p2sh, p2wpkh, push};
use bip37_reference::block::merkle_root;
use bip37_reference::tx::{OutPoint, TxIn, TxOut};
use bip37_reference::{Block, BlockHeader, MutableTransaction, Transaction};

/// A 20-byte element made of one repeated byte: easy to spot in hex.
pub fn element(byte: u8) -> Vec<u8> {
    vec![byte; 20]
}

/// A 33-byte compressed key (prefix 02) of one repeated byte; no curve point is needed.
pub fn compressed_key(byte: u8) -> Vec<u8> {
    let mut key = vec![byte; 33];
    key[0] = 0x02;
    key
}

/// An input spending `prevout` with `script_sig` and no witness.
pub fn input(prevout: OutPoint, script_sig: Vec<u8>) -> TxIn {
    TxIn {
        prevout,
        script_sig,
        sequence: u32::MAX,
        witness: Vec::new(),
    }
}

/// An outpoint of an unrelated, made-up transaction.
pub fn foreign_outpoint(byte: u8, vout: u32) -> OutPoint {
    OutPoint {
        txid: [byte; 32],
        vout,
    }
}

/// Output `vout` of `parent`.
pub fn output_of(parent: &Transaction, vout: u32) -> OutPoint {
    OutPoint {
        txid: parent.txid(),
        vout,
    }
}

/// A version 1 transaction with these inputs and output scripts (1000 satoshis each).
pub fn tx(inputs: Vec<TxIn>, output_scripts: Vec<Vec<u8>>) -> Transaction {
    Transaction::from(MutableTransaction {
        version: 1,
        inputs,
        outputs: output_scripts
            .into_iter()
            .map(|script_pubkey| TxOut {
                value: 1000,
                script_pubkey,
            })
            .collect(),
        lock_time: 0,
    })
}

/// A coinbase whose scriptSig is `script_sig`, paying to `output_script`.
pub fn coinbase(script_sig: Vec<u8>, output_script: Vec<u8>) -> Transaction {
    tx(vec![input(OutPoint::NULL, script_sig)], vec![output_script])
}

/// A block of `transactions` with a correct merkle root (no proof of work).
pub fn block(transactions: Vec<Transaction>) -> Block {
    let txids: Vec<[u8; 32]> = transactions.iter().map(Transaction::txid).collect();
    Block {
        header: BlockHeader {
            version: 0x2000_0000,
            prev_block: [0x11; 32],
            merkle_root: merkle_root(&txids).unwrap_or([0; 32]),
            time: 1_700_000_000,
            bits: 0x207f_ffff,
            nonce: 0,
        },
        transactions,
    }
}

/// `CBloomFilter(10, 0.000001, 0, flags)`: 35 bytes and 19 hash functions, the filter of every
/// Core `bloom_tests` case; false positives among a handful of made-up elements are negligible
/// (and the modules check every expected answer against the mistaken ones anyway).
pub fn core_filter(flags: u8) -> bip37_harness::ops::FilterInit {
    bip37_harness::ops::FilterInit::Sized {
        n_elements: 10,
        fp_rate: bip37_harness::ops::FpRate(0.000_001),
        tweak: 0,
        flags,
    }
}
