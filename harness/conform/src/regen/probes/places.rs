//! Which parts of a transaction a node tests: each place an element can sit (an output push,
//! an `OP_RETURN` push, a non-minimal push, a scriptSig push, the txid, the spent outpoint,
//! the coinbase's null outpoint) and the places it must not be found (the txid in display
//! order, an empty push, a small-number opcode, bytes after a truncated push).
//!
//! Every step uses nFlags 0 (the filter never changes) and one block holding one transaction
//! per place.

use super::scenario::{run_step, Element, NamedBlock, Step};
use super::Findings;
use crate::regen::chain::{self, carrier_script, take_coin, Coin, MinedBlock, OP_RETURN, OP_TRUE};
use crate::regen::error::RegenError;
use crate::regen::oracle::Oracle;
use crate::regen::record::ProbeRecord;
use bip37_harness::scripts::push;
use bip37_reference::tx::OutPoint;

/// Coins spent with an empty scriptSig.
pub const OP_TRUE_COINS: usize = 6;
/// Coins spent with one scriptSig push.
pub const DROP_TRUE_COINS: usize = 1;

const OUTPUT_PUSH: [u8; 20] = [0xa1; 20];
const SCRIPT_SIG_PUSH: [u8; 33] = [0xb2; 33];
const OP_RETURN_PUSH: [u8; 40] = [0xc3; 40];
const NON_MINIMAL_PUSH: [u8; 20] = [0xd4; 20];
const BEFORE_TRUNCATION: [u8; 20] = [0xe5; 20];
const AFTER_TRUNCATION: [u8; 3] = [0xf6; 3];
/// `OP_10`: an opcode that pushes a number, which is not a data push.
const OP_10: u8 = 0x5a;

/// Mines the block of places and asks each step; `plain` must hold [`OP_TRUE_COINS`] coins
/// and `one_push` [`DROP_TRUE_COINS`]. Returns the records and the block (the limit probes
/// reuse it).
pub fn run(
    rpc: &mut crate::regen::rpc::RpcClient,
    oracle: &mut Oracle,
    plain: &mut Vec<Coin>,
    one_push: &mut Vec<Coin>,
    findings: &mut Findings,
) -> Result<(Vec<ProbeRecord>, MinedBlock), RegenError> {
    let mut truncated = push(&BEFORE_TRUNCATION);
    truncated.extend_from_slice(&[0x4c, 0x05]); // PUSHDATA1 of 5 bytes, only 3 follow
    truncated.extend_from_slice(&AFTER_TRUNCATION);
    let mut non_minimal = vec![0x4c, NON_MINIMAL_PUSH.len() as u8];
    non_minimal.extend_from_slice(&NON_MINIMAL_PUSH);
    non_minimal.extend_from_slice(&chain::DROP_TRUE);
    let mut op_return = vec![OP_RETURN];
    op_return.extend_from_slice(&push(&OP_RETURN_PUSH));
    let txs = vec![
        chain::spend(&take_coin(plain)?, None, vec![carrier_script(&OUTPUT_PUSH)])?,
        chain::spend(
            &take_coin(one_push)?,
            Some(&SCRIPT_SIG_PUSH),
            vec![vec![OP_TRUE]],
        )?,
        chain::spend(&take_coin(plain)?, None, vec![vec![OP_TRUE], op_return])?,
        chain::spend(&take_coin(plain)?, None, vec![non_minimal])?,
        chain::spend(&take_coin(plain)?, None, vec![vec![0x00, 0x75, OP_TRUE]])?,
        chain::spend(&take_coin(plain)?, None, vec![vec![OP_10, 0x75, OP_TRUE]])?,
        chain::spend(&take_coin(plain)?, None, vec![truncated])?,
    ];
    let txid = txs[0].txid();
    let spent = txs[0].inputs[0].prevout;
    let mut display = txid;
    display.reverse();
    let unknown_index = OutPoint {
        txid: spent.txid,
        vout: 1_000_000,
    };
    let block = NamedBlock::new(
        "places",
        chain::mine(rpc, &txs)?,
        &[
            "outputPush",
            "scriptSigPush",
            "opReturnPush",
            "nonMinimalPush",
            "emptyPush",
            "smallNumber",
            "truncatedPush",
        ],
    );
    let step = |id, what, elements| Step {
        id,
        what,
        flags: 0,
        elements,
        blocks: vec![0],
    };
    let steps = vec![
        step(
            "places/output-push",
            "a push in an output script is tested",
            vec![Element::fixed(&OUTPUT_PUSH)],
        ),
        step(
            "places/script-sig-push",
            "a push in a scriptSig is tested",
            vec![Element::fixed(&SCRIPT_SIG_PUSH)],
        ),
        step(
            "places/op-return-push",
            "the push after OP_RETURN is tested",
            vec![Element::fixed(&OP_RETURN_PUSH)],
        ),
        step(
            "places/non-minimal-push",
            "a non-minimal push (PUSHDATA1 of 20 bytes) is tested on its data",
            vec![Element::fixed(&NON_MINIMAL_PUSH)],
        ),
        step(
            "places/empty-push",
            "an empty push (OP_0) is never tested",
            vec![Element::fixed(&[])],
        ),
        step(
            "places/small-number",
            "OP_10 is not a data push: neither 0a nor 5a is tested",
            vec![Element::fixed(&[0x0a]), Element::fixed(&[OP_10])],
        ),
        step(
            "places/before-truncation",
            "a push before a truncated push is tested",
            vec![Element::fixed(&BEFORE_TRUNCATION)],
        ),
        step(
            "places/after-truncation",
            "the bytes of a truncated push are not tested",
            vec![Element::fixed(&AFTER_TRUNCATION)],
        ),
        step(
            "places/txid-internal-order",
            "the txid is tested in internal byte order",
            vec![Element::role("txid(outputPush)", txid.to_vec())],
        ),
        step(
            "places/txid-display-order",
            "the txid in display (RPC) order is not tested",
            vec![Element::role("reversed txid(outputPush)", display.to_vec())],
        ),
        step(
            "places/spent-outpoint",
            "the spent outpoint (txid || LE32 index) is tested",
            vec![Element::role(
                "prevout(outputPush)",
                spent.to_bytes().to_vec(),
            )],
        ),
        step(
            "places/unspent-outpoint",
            "an outpoint no input spends matches nothing",
            vec![Element::role(
                "outpoint(prevout txid, 1000000)",
                unknown_index.to_bytes().to_vec(),
            )],
        ),
        step(
            "places/coinbase-null-outpoint",
            "the coinbase's null prevout (32 zero bytes, ffffffff) is tested",
            vec![Element::fixed(&OutPoint::NULL.to_bytes())],
        ),
    ];
    let blocks = [block];
    let records = steps
        .iter()
        .map(|s| run_step(oracle, &blocks, s, findings))
        .collect::<Result<Vec<_>, _>>()?;
    let [block] = blocks;
    Ok((records, block.mined))
}
