//! The update modes on real blocks: which matched outputs get their outpoint inserted.
//!
//! Block `parents` holds a parent paying to `<E> OP_DROP OP_TRUE` and a child spending it
//! (no element anywhere in the child), and parents paying to pay-to-pubkey, bare multisig and
//! P2PKH scripts. Block `witnesses` holds one transaction per parent whose output pushes that
//! parent's outpoint: it matches exactly when the node inserted the outpoint, which shows
//! the insertion even for outputs nobody can spend without a signature.

use super::scenario::{run_step, Element, NamedBlock, Step};
use super::Findings;
use crate::regen::chain::{self, carrier_script, take_coin, Coin, Lock, OP_TRUE};
use crate::regen::error::RegenError;
use crate::regen::oracle::Oracle;
use crate::regen::record::ProbeRecord;
use crate::regen::rpc::RpcClient;
use bip37_harness::scripts::{multisig_1_of, p2pk, p2pkh};
use bip37_reference::tx::OutPoint;

/// Coins spent with an empty scriptSig.
pub const OP_TRUE_COINS: usize = 8;

const PARENT_PUSH: [u8; 20] = [0x44; 20];
/// A 33-byte push starting 02: a compressed public key to Core's Solver (no curve check).
const PUBKEY: [u8; 33] = {
    let mut key = [0x11; 33];
    key[0] = 0x02;
    key
};
const MULTISIG_KEY: [u8; 33] = {
    let mut key = [0x22; 33];
    key[0] = 0x03;
    key
};
const PUBKEY_HASH: [u8; 20] = [0x33; 20];

/// Mines the two blocks and asks each step.
pub fn run(
    rpc: &mut RpcClient,
    oracle: &mut Oracle,
    plain: &mut Vec<Coin>,
    findings: &mut Findings,
) -> Result<Vec<ProbeRecord>, RegenError> {
    let p2pk = p2pk(&PUBKEY);
    let multisig = multisig_1_of(&[MULTISIG_KEY.to_vec()]);
    let p2pkh = p2pkh(&PUBKEY_HASH);

    let parent = chain::spend(&take_coin(plain)?, None, vec![carrier_script(&PARENT_PUSH)])?;
    let parent_coin = Coin {
        outpoint: OutPoint {
            txid: parent.txid(),
            vout: 0,
        },
        value: parent.outputs[0].value,
        lock: Lock::OpTrue,
    };
    let child = chain::spend(&parent_coin, None, vec![vec![OP_TRUE]])?;
    let pay_to_pubkey = chain::spend(&take_coin(plain)?, None, vec![p2pk])?;
    let pay_to_multisig = chain::spend(&take_coin(plain)?, None, vec![multisig])?;
    let pay_to_pubkey_hash = chain::spend(&take_coin(plain)?, None, vec![p2pkh])?;
    let outpoint = |tx: &bip37_reference::Transaction| {
        OutPoint {
            txid: tx.txid(),
            vout: 0,
        }
        .to_bytes()
    };
    let witnesses = vec![
        chain::spend(
            &take_coin(plain)?,
            None,
            vec![carrier_script(&outpoint(&pay_to_pubkey))],
        )?,
        chain::spend(
            &take_coin(plain)?,
            None,
            vec![carrier_script(&outpoint(&pay_to_multisig))],
        )?,
        chain::spend(
            &take_coin(plain)?,
            None,
            vec![carrier_script(&outpoint(&pay_to_pubkey_hash))],
        )?,
    ];
    let parent_txid = parent.txid();
    let blocks = [
        NamedBlock::new(
            "parents",
            chain::mine(
                rpc,
                &[
                    parent,
                    child,
                    pay_to_pubkey,
                    pay_to_multisig,
                    pay_to_pubkey_hash,
                ],
            )?,
            &[
                "parent",
                "child",
                "payToPubkey",
                "payToMultisig",
                "payToPubkeyHash",
            ],
        ),
        NamedBlock::new(
            "witnesses",
            chain::mine(rpc, &witnesses)?,
            &[
                "pushesPayToPubkeyOutpoint",
                "pushesPayToMultisigOutpoint",
                "pushesPayToPubkeyHashOutpoint",
            ],
        ),
    ];
    let step = |id, what, flags, elements: Vec<Element>| Step {
        id,
        what,
        flags,
        elements,
        blocks: vec![0, 1],
    };
    let parent_push = || vec![Element::fixed(&PARENT_PUSH)];
    let steps = vec![
        step("update/all-parent-and-child", "UPDATE_ALL: the parent's outpoint is inserted, so the child spending it matches", 1, parent_push()),
        Step {
            blocks: vec![0, 0],
            ..step("update/all-asked-twice", "UPDATE_ALL: the same block asked twice after one filterload matches parent and child both times", 1, parent_push())
        },
        step("update/none", "UPDATE_NONE: only the parent matches", 0, parent_push()),
        step("update/flags-3-is-none", "nFlags 3 masks to neither ALL nor P2PUBKEY_ONLY: only the parent", 3, parent_push()),
        step("update/flags-high-bits-ignored", "nFlags 0xfd masks to 1 (UPDATE_ALL): parent and child", 0xfd, parent_push()),
        step("update/p2pubkey-only-not-p2pk", "P2PUBKEY_ONLY with a <push> OP_DROP OP_TRUE output: nothing inserted", 2, parent_push()),
        step("update/p2pubkey-only-p2pk", "P2PUBKEY_ONLY inserts the outpoint of a pay-to-pubkey output", 2, vec![Element::fixed(&PUBKEY)]),
        step("update/p2pubkey-only-multisig", "P2PUBKEY_ONLY inserts the outpoint of a bare multisig output", 2, vec![Element::fixed(&MULTISIG_KEY)]),
        step("update/p2pubkey-only-p2pkh", "P2PUBKEY_ONLY does not insert the outpoint of a P2PKH output", 2, vec![Element::fixed(&PUBKEY_HASH)]),
        step("update/all-p2pkh", "UPDATE_ALL inserts the outpoint of a P2PKH output", 1, vec![Element::fixed(&PUBKEY_HASH)]),
        step("update/none-p2pk", "UPDATE_NONE never inserts, even for pay-to-pubkey", 0, vec![Element::fixed(&PUBKEY)]),
        step("update/txid-match-still-scans-outputs", "UPDATE_ALL with the parent's txid and its push: outputs are scanned after the txid matched, so the child matches", 1, vec![Element::role("txid(parent)", parent_txid.to_vec()), Element::fixed(&PARENT_PUSH)]),
    ];
    steps
        .iter()
        .map(|s| run_step(oracle, &blocks, s, findings))
        .collect()
}
