//! Chain state over RPC without a wallet: blocks `regen` assembles and mines itself, whose
//! coinbases pay to the anyone-can-spend script `OP_TRUE`, holding hand-built transactions
//! that carry the elements a probe needs.
//!
//! The blocks go to the node with `submitblock`, which checks consensus only: no mempool, no
//! fee or standardness policy, no address format (Bitcoin SV refuses new P2SH outputs, Core
//! has segwit addresses), so the same code serves Bitcoin Core and the Bitcoin SV node. One
//! coinbase, matured by 100 empty blocks on top, is split into many small coins that need
//! no scriptSig at all (`OP_TRUE`) or exactly one push (`OP_DROP OP_TRUE`), so a probe
//! transaction carries no tested data besides what the probe puts there.

use super::error::RegenError;
use super::network::TestChain;
use super::rpc::RpcClient;
use bip37_harness::scripts::push;
use bip37_reference::block::merkle_root;
use bip37_reference::sha256::Hash256;
use bip37_reference::tx::{MutableTransaction, OutPoint, Transaction, TxIn, TxOut};
use bip37_reference::{Block, BlockHeader};
use serde_json::{json, Value};

/// `OP_TRUE`: the whole locking script of a coin spent with an empty scriptSig.
pub const OP_TRUE: u8 = 0x51;
/// `OP_RETURN`: an output that starts with it is provably unspendable and carries no value.
pub const OP_RETURN: u8 = 0x6a;
/// `OP_DROP OP_TRUE`: a locking script spent with a scriptSig of one push.
pub const DROP_TRUE: [u8; 2] = [0x75, 0x51];
/// Blocks a coinbase needs on top of it before it can be spent.
const COINBASE_MATURITY: u64 = 100;
/// The subsidy of the first blocks: 50 coins.
const INITIAL_SUBSIDY: i64 = 50 * 100_000_000;
/// The block version `regen` mines (version bits, no deployment signalled).
const BLOCK_VERSION: u32 = 0x2000_0000;
/// Nonces tried before giving up: a regtest block needs two on average.
const MAX_NONCES: u32 = 10_000_000;
/// The value of every output but the one that takes the remainder.
pub const SMALL_VALUE: i64 = 1_000;
/// Bitcoin Core refuses every transaction under 65 bytes without witness
/// (`MIN_STANDARD_TX_NONWITNESS_SIZE`, src/policy/policy.h:37, `tx-size-small`) in every policy
/// mode; btcd has the same rule (mempool/mempool.go:56).
pub const MIN_TX_NONWITNESS_BYTES: usize = 65;

/// How a coin is unlocked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lock {
    /// `OP_TRUE`: empty scriptSig.
    OpTrue,
    /// `OP_DROP OP_TRUE`: a scriptSig of exactly one push.
    DropTrue,
    /// Pay-to-script-hash: a scriptSig of exactly one push, the redeem script. A standard
    /// output and a standard input in Bitcoin Core whatever its policy flags (the coins the node
    /// suite offers to a mempool, [`P2SH_TRUE`]).
    P2sh,
}

/// The redeem script of the anyone-can-spend P2SH coins: `OP_TRUE`.
pub const P2SH_TRUE: [u8; 1] = [OP_TRUE];

/// RIPEMD-160 of SHA-256: what a P2SH output commits to.
pub fn hash160(data: &[u8]) -> [u8; 20] {
    use ripemd::Digest;
    let sha = bip37_reference::sha256::sha256(data);
    ripemd::Ripemd160::digest(sha).into()
}

/// `OP_HASH160 <hash160(redeem)> OP_EQUAL`: the P2SH output of `redeem`, whose one data push
/// (the 20-byte hash) is what a filter matches.
pub fn p2sh(redeem: &[u8]) -> Vec<u8> {
    let mut script = vec![0xa9];
    script.extend(push(&hash160(redeem)));
    script.push(0x87);
    script
}

/// An output `regen` can spend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Coin {
    pub outpoint: OutPoint,
    pub value: i64,
    pub lock: Lock,
}

/// A mined block as the node serves it.
#[derive(Debug, Clone)]
pub struct MinedBlock {
    /// The block hash in internal byte order (what `getdata` carries).
    pub hash: Hash256,
    pub block: Block,
}

/// Takes the last of `coins`, or says the run funded too few.
pub fn take_coin(coins: &mut Vec<Coin>) -> Result<Coin, RegenError> {
    coins.pop().ok_or_else(|| RegenError::Setup {
        detail: "ran out of funded coins".into(),
    })
}

/// `<data> OP_DROP OP_TRUE`: an output that carries `data` as a tested push and stays
/// spendable with an empty scriptSig.
pub fn carrier_script(data: &[u8]) -> Vec<u8> {
    let mut script = push(data);
    script.extend_from_slice(&DROP_TRUE);
    script
}

/// A transaction spending `coin` (with `push_in_script_sig` as the one scriptSig push of a
/// [`Lock::DropTrue`] coin) to `scripts`: an `OP_RETURN` output gets nothing, the others but
/// the first [`SMALL_VALUE`], and the first the rest (no fee: `regen` mines the blocks). One
/// that would be under [`MIN_TX_NONWITNESS_BYTES`] gets a last output of a bare `OP_RETURN`
/// (10 bytes, value 0): standard null data, with no push a filter could match.
pub fn spend(
    coin: &Coin,
    push_in_script_sig: Option<&[u8]>,
    scripts: Vec<Vec<u8>>,
) -> Result<Transaction, RegenError> {
    if scripts.is_empty() {
        return Err(RegenError::Setup {
            detail: "a probe transaction needs at least one output".into(),
        });
    }
    let script_sig = match (coin.lock, push_in_script_sig) {
        (Lock::OpTrue, None) => Vec::new(),
        (Lock::DropTrue, Some(data)) | (Lock::P2sh, Some(data)) => push(data),
        (lock, _) => {
            return Err(RegenError::Setup {
                detail: format!(
                    "a {lock:?} coin cannot be spent with scriptSig {push_in_script_sig:?}"
                ),
            })
        }
    };
    let mut outputs: Vec<TxOut> = scripts
        .into_iter()
        .map(|script_pubkey| TxOut {
            value: if script_pubkey.first() == Some(&OP_RETURN) {
                0
            } else {
                SMALL_VALUE
            },
            script_pubkey,
        })
        .collect();
    let others: i64 = outputs.iter().skip(1).map(|o| o.value).sum();
    if coin.value - others < SMALL_VALUE {
        return Err(RegenError::Setup {
            detail: format!(
                "a coin of {} sat cannot pay {} outputs",
                coin.value,
                outputs.len()
            ),
        });
    }
    outputs[0].value = coin.value - others;
    let mut tx = MutableTransaction {
        version: 1,
        inputs: vec![TxIn {
            prevout: coin.outpoint,
            script_sig,
            sequence: u32::MAX,
            witness: Vec::new(),
        }],
        outputs,
        lock_time: 0,
    };
    if Transaction::from(tx.clone()).encode_without_witness().len() < MIN_TX_NONWITNESS_BYTES {
        tx.outputs.push(TxOut {
            value: 0,
            script_pubkey: vec![OP_RETURN],
        });
    }
    Ok(Transaction::from(tx))
}

/// Mines a coinbase paying its whole subsidy to `OP_TRUE`, lets it mature under 100 empty
/// blocks, and splits it into `op_true` coins of [`Lock::OpTrue`], `drop_true` of
/// [`Lock::DropTrue`] and `p2sh_true` of [`Lock::P2sh`] (redeem script [`P2SH_TRUE`]).
pub fn fund(
    rpc: &mut RpcClient,
    op_true: usize,
    drop_true: usize,
    p2sh_true: usize,
) -> Result<Vec<Coin>, RegenError> {
    let tip = Tip::fetch(rpc)?;
    let subsidy = subsidy(TestChain::of(rpc)?, tip.height + 1);
    let count = (op_true + drop_true + p2sh_true) as i64;
    if subsidy < count * 100 * SMALL_VALUE {
        return Err(RegenError::Setup {
            detail: format!(
                "the block subsidy at height {} is only {subsidy} sat (the regtest chain is too \
                 long): start the node with a fresh -datadir",
                tip.height + 1
            ),
        });
    }
    let funding = mine_with_subsidy(rpc, &[], subsidy)?;
    for _ in 0..COINBASE_MATURITY {
        mine(rpc, &[])?;
    }
    let mut scripts = vec![vec![OP_TRUE]; op_true];
    scripts.extend(vec![DROP_TRUE.to_vec(); drop_true]);
    scripts.extend(vec![p2sh(&P2SH_TRUE); p2sh_true]);
    let each = subsidy / count.max(1);
    let split = Transaction::from(MutableTransaction {
        version: 1,
        inputs: vec![TxIn {
            prevout: OutPoint {
                txid: funding.block.transactions[0].txid(),
                vout: 0,
            },
            script_sig: Vec::new(),
            sequence: u32::MAX,
            witness: Vec::new(),
        }],
        outputs: scripts
            .into_iter()
            .map(|script_pubkey| TxOut {
                value: each,
                script_pubkey,
            })
            .collect(),
        lock_time: 0,
    });
    let txid = split.txid();
    mine(rpc, &[split])?;
    Ok((0..count as u32)
        .map(|vout| Coin {
            outpoint: OutPoint { txid, vout },
            value: each,
            lock: match vout as usize {
                v if v < op_true => Lock::OpTrue,
                v if v < op_true + drop_true => Lock::DropTrue,
                _ => Lock::P2sh,
            },
        })
        .collect())
}

/// The block subsidy of `chain` at `height`.
fn subsidy(chain: TestChain, height: u64) -> i64 {
    match height / chain.halving_interval() {
        halvings @ 0..=63 => INITIAL_SUBSIDY >> halvings,
        _ => 0,
    }
}

/// Mines `txs` into a block on the node's tip whose coinbase claims nothing.
pub fn mine(rpc: &mut RpcClient, txs: &[Transaction]) -> Result<MinedBlock, RegenError> {
    mine_with_subsidy(rpc, txs, 0)
}

/// What the next block builds on.
struct Tip {
    height: u64,
    hash: Hash256,
    bits: u32,
    median_time: u32,
}

impl Tip {
    fn fetch(rpc: &mut RpcClient) -> Result<Tip, RegenError> {
        let info = rpc.call("getblockchaininfo", json!([]))?;
        let bad = |what: &str| RegenError::Setup {
            detail: format!("getblockchaininfo / getblockheader lack {what}"),
        };
        let height = info
            .get("blocks")
            .and_then(Value::as_u64)
            .ok_or_else(|| bad("blocks"))?;
        let best = info
            .get("bestblockhash")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("bestblockhash"))?
            .to_string();
        let median_time = info
            .get("mediantime")
            .and_then(Value::as_u64)
            .ok_or_else(|| bad("mediantime"))? as u32;
        let header = rpc.call("getblockheader", json!([best]))?;
        // Core gives `bits` as 8 hex digits, bcoin as a JSON number.
        let bits = match header.get("bits") {
            Some(Value::String(b)) => u32::from_str_radix(b, 16).ok(),
            Some(b) => b.as_u64().and_then(|b| u32::try_from(b).ok()),
            None => None,
        }
        .ok_or_else(|| bad("bits"))?;
        let mut hash = bip37_harness::hex::Hex::parse(&best)
            .ok()
            .and_then(|h| <[u8; 32]>::try_from(h.0).ok())
            .ok_or_else(|| bad("a 32-byte best block hash"))?;
        hash.reverse();
        Ok(Tip {
            height,
            hash,
            bits,
            median_time,
        })
    }
}

/// A coinbase for `height`: BIP 34 height then `OP_0` in the scriptSig (no data push besides
/// the height), paying `value` to `OP_TRUE`.
fn coinbase(height: u64, value: i64) -> Transaction {
    let mut script_sig = script_number(height);
    script_sig.push(0x00);
    Transaction::from(MutableTransaction {
        version: 1,
        inputs: vec![TxIn {
            prevout: OutPoint::NULL,
            script_sig,
            sequence: u32::MAX,
            witness: Vec::new(),
        }],
        outputs: vec![TxOut {
            value,
            script_pubkey: vec![OP_TRUE],
        }],
        lock_time: 0,
    })
}

/// `CScript() << n` for a block height: `OP_0`, `OP_1`..`OP_16`, or a minimal push of the
/// little-endian number (with a sign byte when the top bit is set).
fn script_number(n: u64) -> Vec<u8> {
    match n {
        0 => vec![0x00],
        1..=16 => vec![0x50 + n as u8],
        _ => {
            let mut bytes: Vec<u8> = n.to_le_bytes().into_iter().collect();
            while bytes.last() == Some(&0) {
                bytes.pop();
            }
            if bytes.last().is_some_and(|b| b & 0x80 != 0) {
                bytes.push(0);
            }
            push(&bytes)
        }
    }
}

/// Whether `hash` meets the compact target `bits`.
fn meets_target(hash: &Hash256, bits: u32) -> bool {
    let exponent = (bits >> 24) as usize;
    let mantissa = bits & 0x007f_ffff;
    // The target as 32 little-endian bytes: mantissa * 256^(exponent - 3).
    let mut target = [0u8; 32];
    for (i, byte) in mantissa.to_le_bytes()[..3].iter().enumerate() {
        if let Some(position) = (exponent + i).checked_sub(3) {
            if position < 32 {
                target[position] = *byte;
            }
        }
    }
    hash.iter().rev().cmp(target.iter().rev()) != std::cmp::Ordering::Greater
}

fn mine_with_subsidy(
    rpc: &mut RpcClient,
    txs: &[Transaction],
    coinbase_value: i64,
) -> Result<MinedBlock, RegenError> {
    let tip = Tip::fetch(rpc)?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as u32);
    let mut transactions = vec![coinbase(tip.height + 1, coinbase_value)];
    transactions.extend_from_slice(txs);
    let txids: Vec<Hash256> = transactions.iter().map(Transaction::txid).collect();
    let mut header = BlockHeader {
        version: BLOCK_VERSION,
        prev_block: tip.hash,
        merkle_root: merkle_root(&txids).unwrap_or_default(),
        time: now.max(tip.median_time + 1),
        bits: tip.bits,
        nonce: 0,
    };
    while !meets_target(&header.hash(), header.bits) {
        header.nonce += 1;
        if header.nonce >= MAX_NONCES {
            return Err(RegenError::Setup {
                detail: format!(
                    "no block found in {MAX_NONCES} nonces at difficulty bits {:08x}: is this a \
                     regtest node?",
                    header.bits
                ),
            });
        }
    }
    let block = Block {
        header,
        transactions,
    };
    let result = rpc.call(
        "submitblock",
        json!([bip37_harness::hex::encode(block.encode())]),
    )?;
    if !result.is_null() {
        return Err(RegenError::Setup {
            detail: format!("the node refused a mined block: {result}"),
        });
    }
    Ok(MinedBlock {
        hash: header.hash(),
        block,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p2sh_commits_to_the_hash160_of_the_redeem_script() {
        // hash160(OP_TRUE), as Bitcoin Core's `decodescript 51` gives its p2sh address's hash.
        assert_eq!(
            bip37_harness::hex::encode(hash160(&P2SH_TRUE)),
            "da1745e9b549bd0bfa1a569971c77eba30cd5a4b"
        );
        let script = p2sh(&P2SH_TRUE);
        assert_eq!(script.len(), 23);
        assert_eq!((script[0], script[1], script[22]), (0xa9, 20, 0x87));
    }

    #[test]
    fn heights_are_script_numbers() {
        assert_eq!(script_number(1), vec![0x51]);
        assert_eq!(script_number(16), vec![0x60]);
        assert_eq!(script_number(17), vec![1, 17]);
        assert_eq!(script_number(128), vec![2, 0x80, 0]);
        assert_eq!(script_number(300), vec![2, 0x2c, 1]);
    }

    #[test]
    fn regtest_target_accepts_about_half_of_all_hashes() {
        // Target 7fffff00..00 (big-endian): a hash up to it passes, one above fails.
        let mut low = [0; 32];
        low[29..].copy_from_slice(&[0xff, 0xff, 0x7f]);
        assert!(meets_target(&low, 0x207f_ffff));
        low[0] = 1;
        assert!(!meets_target(&low, 0x207f_ffff));
        let mut high = [0; 32];
        high[31] = 0x80;
        assert!(!meets_target(&high, 0x207f_ffff));
        assert!(!meets_target(&[1; 32], 0x1d00_ffff), "mainnet difficulty");
    }

    #[test]
    fn subsidy_halves_every_150_blocks_on_regtest_only() {
        assert_eq!(subsidy(TestChain::Regtest, 1), 5_000_000_000);
        assert_eq!(subsidy(TestChain::Regtest, 150), 2_500_000_000);
        assert_eq!(subsidy(TestChain::Regtest, 150 * 64), 0);
        assert_eq!(subsidy(TestChain::Simnet, 150), 5_000_000_000);
        assert_eq!(subsidy(TestChain::Simnet, 210_000), 2_500_000_000);
    }

    #[test]
    fn spend_gives_the_rest_to_the_first_output() {
        let coin = Coin {
            outpoint: OutPoint {
                txid: [1; 32],
                vout: 0,
            },
            value: 1_000_000,
            lock: Lock::OpTrue,
        };
        let tx = spend(
            &coin,
            None,
            vec![carrier_script(&[9; 20]), vec![OP_TRUE], vec![OP_RETURN]],
        )
        .unwrap();
        let values: Vec<i64> = tx.outputs.iter().map(|o| o.value).collect();
        assert_eq!(values, vec![1_000_000 - SMALL_VALUE, SMALL_VALUE, 0]);
        assert!(tx.inputs[0].script_sig.is_empty());
        assert!(spend(&coin, Some(&[1]), vec![vec![OP_TRUE]]).is_err());
        // 61 bytes as asked (1 input, empty scriptSig, one OP_TRUE output): padded to 71.
        let small = spend(&coin, None, vec![vec![OP_TRUE]]).unwrap();
        assert_eq!(small.encode_without_witness().len(), 71);
        assert_eq!(small.outputs[1].script_pubkey, vec![OP_RETURN]);
        assert_eq!(small.outputs[1].value, 0);
        let big = spend(&coin, None, vec![carrier_script(&[9; 20])]).unwrap();
        assert_eq!(big.outputs.len(), 1, "84 bytes need no padding");
        assert!(spend(&coin, None, vec![]).is_err());
    }
}
