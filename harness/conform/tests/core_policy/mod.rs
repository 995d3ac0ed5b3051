//! Bitcoin Core's policy for a transaction offered to its mempool, as the node suite needs to
//! meet it whatever Core's flags: the size floor every mode applies, and the standardness rules
//! that `-acceptnonstdtxn=0` (regtest's default since Core 0.19) adds. Checked on the suite's
//! own transactions by `node_fake.rs`.
//!
//! Rules (Core 30.99, d861c38205): `MIN_STANDARD_TX_NONWITNESS_SIZE` 65 (src/policy/policy.h:37,
//! `tx-size-small`, every mode); from `IsStandardTx` (src/policy/policy.cpp): version 1 to
//! `TX_MAX_STANDARD_VERSION` 3, scriptSig at most 1,650 bytes and push-only, each output of a
//! standard template (P2PKH, P2SH, P2WPKH, P2WSH, P2TR, null data of at most 83 bytes), at most
//! one null data output, no dust (3,000 sat/kvB: 540 sat for P2SH, 546 for P2PKH); from
//! `AreInputsStandard`: every spent output of a standard template, a P2SH redeem script with at
//! most 15 signature operations. And a fee: Core's default minimum relay fee is 100 sat/kvB
//! (checked here at 1 sat/vB).

use bip37_reference::tx::Transaction;
use std::collections::HashMap;

const OP_RETURN: u8 = 0x6a;
const OP_PUSHDATA4: u8 = 0x4e;
const OP_16: u8 = 0x60;

/// The script's push operations, or `None` when a push runs past its end.
fn ops(script: &[u8]) -> Option<Vec<(u8, Vec<u8>)>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < script.len() {
        let op = script[i];
        i += 1;
        let len = match op {
            0x01..=0x4b => op as usize,
            0x4c => *script.get(i)? as usize + 1,
            0x4d => u16::from_le_bytes([*script.get(i)?, *script.get(i + 1)?]) as usize + 2,
            OP_PUSHDATA4 => return None,
            _ => 0,
        };
        let header = match op {
            0x4c => 1,
            0x4d => 2,
            _ => 0,
        };
        let data = script.get(i + header..i + len)?.to_vec();
        i += len;
        out.push((op, data));
    }
    Some(out)
}

/// Core's standard output templates, by name; `None` for a non-standard script.
fn template(script: &[u8]) -> Option<&'static str> {
    match script {
        [0xa9, 0x14, hash @ .., 0x87] if hash.len() == 20 => Some("p2sh"),
        [0x76, 0xa9, 0x14, hash @ .., 0x88, 0xac] if hash.len() == 20 => Some("p2pkh"),
        [0x00, 0x14, rest @ ..] if rest.len() == 20 => Some("p2wpkh"),
        [0x00, 0x20, rest @ ..] if rest.len() == 32 => Some("p2wsh"),
        [0x51, 0x20, rest @ ..] if rest.len() == 32 => Some("p2tr"),
        [OP_RETURN, rest @ ..]
            if script.len() <= 83
                && ops(rest).is_some_and(|ops| ops.iter().all(|(op, _)| *op <= OP_16)) =>
        {
            Some("nulldata")
        }
        _ => None,
    }
}

fn dust_threshold(script: &[u8]) -> i64 {
    // GetDustThreshold: (output size + 148 for the input spending it) * 3 sat/vB.
    let output = 8 + 1 + script.len() as i64;
    (output + 148) * 3
}

/// Signature operations of a redeem script, counted accurately (P2SH).
fn sigops(script: &[u8]) -> usize {
    let Some(ops) = ops(script) else {
        return usize::MAX;
    };
    let mut count = 0;
    let mut last = 0;
    for (op, _) in ops {
        count += match op {
            0xac | 0xad => 1,
            0xae | 0xaf if (0x51..=OP_16).contains(&last) => (last - 0x50) as usize,
            0xae | 0xaf => 20,
            _ => 0,
        };
        last = op;
    }
    count
}

/// Why Core would refuse `tx` (spending outputs of `known` transactions) under its default
/// policy, or `None` when it takes it.
pub fn refusal(tx: &Transaction, known: &HashMap<[u8; 32], Transaction>) -> Option<String> {
    let size = tx.encode_without_witness().len();
    if size < 65 {
        return Some(format!("tx-size-small ({size} bytes)"));
    }
    if !(1..=3).contains(&tx.version) {
        return Some(format!("version {}", tx.version));
    }
    let mut nulldata = 0;
    for output in &tx.outputs {
        match template(&output.script_pubkey) {
            None => {
                return Some(format!(
                    "scriptpubkey {}",
                    bip37_harness::hex::encode(&output.script_pubkey)
                ))
            }
            Some("nulldata") => nulldata += 1,
            Some(_) if output.value < dust_threshold(&output.script_pubkey) => {
                return Some(format!("dust ({} sat)", output.value))
            }
            Some(_) => {}
        }
    }
    if nulldata > 1 {
        return Some("multi-op-return".into());
    }
    let mut spent = 0;
    for input in &tx.inputs {
        if input.script_sig.len() > 1650 {
            return Some("scriptsig-size".into());
        }
        let Some(pushes) = ops(&input.script_sig) else {
            return Some("scriptsig-not-pushonly (truncated)".into());
        };
        if pushes.iter().any(|(op, _)| *op > OP_16) {
            return Some("scriptsig-not-pushonly".into());
        }
        let Some(prev) = known
            .get(&input.prevout.txid)
            .and_then(|t| t.outputs.get(input.prevout.vout as usize))
        else {
            return Some("spends an output the suite did not make".into());
        };
        spent += prev.value;
        match template(&prev.script_pubkey) {
            Some("p2sh") => {
                let redeem = pushes.last().map(|(_, d)| d.as_slice()).unwrap_or_default();
                if sigops(redeem) > 15 {
                    return Some("bad-txns-nonstandard-inputs (sigops)".into());
                }
            }
            Some("nulldata") | None => {
                return Some(format!(
                    "bad-txns-nonstandard-inputs: spends {}",
                    bip37_harness::hex::encode(&prev.script_pubkey)
                ))
            }
            Some(_) => {}
        }
    }
    let fee = spent - tx.outputs.iter().map(|o| o.value).sum::<i64>();
    if fee < size as i64 {
        return Some(format!(
            "min relay fee not met ({fee} sat for {size} bytes)"
        ));
    }
    None
}
