//! Transaction matching as mistaken implementations do it: one variant per classic mistake, so
//! the matching, merkle and sequence modules can show that a vector's expected answer differs
//! from the mistaken one.
//!
//! The model lists the elements a transaction offers (txid, then per output its script
//! elements, then per input its prevout and script elements) with the mistake applied, and
//! then walks them the way Core does. With [`MatchMistake::None`] it is Core's
//! `IsRelevantAndUpdate`; the modules check that against the reference before trusting it.

use bip37_reference::pmt::{Match, PartialMerkleTree};
use bip37_reference::script::{OP_1, OP_16, OP_PUSHDATA1, OP_PUSHDATA2, OP_PUSHDATA4};
use bip37_reference::solver::is_pubkey_or_multisig;
use bip37_reference::tx::{OutPoint, Transaction};
use bip37_reference::{Block, BloomFilter, UpdateMode};

/// One mistake, named by its catalog flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchMistake {
    /// Core's behaviour.
    None,
    TxidDisplayOrder,
    BigEndianOutpointIndex,
    AbortAfterTxidMatch,
    AbortAfterOutputMatch,
    OutpointPerPush,
    P2PubkeyOnlyAnyOutput,
    FlagsNotMasked,
    FlagsThreeAsAll,
    EmptyPushTested,
    SmallIntegerTested,
    MalformedPushNotStopping,
    WitnessMatched,
    CoinbasePrevoutSkipped,
    WholeScriptTested,
    /// Each transaction of a block is evaluated against the filter as it was before the block.
    BlockUsesFilterSnapshot,
}

/// Every mistake with its flag, for the modules to offer as mistaken answers.
pub const MATCH_MISTAKES: &[(&str, MatchMistake)] = &[
    ("TxidDisplayOrder", MatchMistake::TxidDisplayOrder),
    (
        "BigEndianOutpointIndex",
        MatchMistake::BigEndianOutpointIndex,
    ),
    ("AbortAfterTxidMatch", MatchMistake::AbortAfterTxidMatch),
    ("AbortAfterOutputMatch", MatchMistake::AbortAfterOutputMatch),
    ("OutpointPerPush", MatchMistake::OutpointPerPush),
    ("P2PubkeyOnlyAnyOutput", MatchMistake::P2PubkeyOnlyAnyOutput),
    ("FlagsNotMasked", MatchMistake::FlagsNotMasked),
    ("FlagsThreeAsAll", MatchMistake::FlagsThreeAsAll),
    ("EmptyPushTested", MatchMistake::EmptyPushTested),
    ("SmallIntegerTested", MatchMistake::SmallIntegerTested),
    (
        "MalformedPushNotStopping",
        MatchMistake::MalformedPushNotStopping,
    ),
    ("WitnessMatched", MatchMistake::WitnessMatched),
    (
        "CoinbasePrevoutSkipped",
        MatchMistake::CoinbasePrevoutSkipped,
    ),
    ("WholeScriptTested", MatchMistake::WholeScriptTested),
    (
        "BlockUsesFilterSnapshot",
        MatchMistake::BlockUsesFilterSnapshot,
    ),
];

/// The outpoint element as the mistaken implementation serializes it.
fn outpoint_element(txid: [u8; 32], vout: u32, mistake: MatchMistake) -> Vec<u8> {
    let mut element = OutPoint { txid, vout }.to_bytes().to_vec();
    if mistake == MatchMistake::BigEndianOutpointIndex {
        element[32..].reverse();
    }
    element
}

/// The elements of a script the mistaken implementation tests, in order.
fn script_elements(script: &[u8], mistake: MatchMistake) -> Vec<Vec<u8>> {
    let mut elements = Vec::new();
    if mistake == MatchMistake::WholeScriptTested {
        elements.push(script.to_vec());
    }
    let mut rest = script;
    while let Some((&opcode, after)) = rest.split_first() {
        let (len_bytes, claimed) = match opcode {
            OP_PUSHDATA1 => (1, after.first().map(|&b| usize::from(b))),
            OP_PUSHDATA2 => (
                2,
                after
                    .get(..2)
                    .map(|b| usize::from(u16::from_le_bytes([b[0], b[1]]))),
            ),
            OP_PUSHDATA4 => (
                4,
                after
                    .get(..4)
                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize),
            ),
            0x00..=0x4b => (0, Some(usize::from(opcode))),
            OP_1..=OP_16 => {
                if mistake == MatchMistake::SmallIntegerTested {
                    elements.push(vec![opcode - OP_1 + 1]);
                }
                rest = after;
                continue;
            }
            _ => {
                rest = after;
                continue;
            }
        };
        let Some(len) = claimed else { break };
        let data_start = &after[len_bytes..];
        if len > data_start.len() {
            if mistake == MatchMistake::MalformedPushNotStopping && !data_start.is_empty() {
                elements.push(data_start.to_vec());
            }
            break;
        }
        let (data, next) = data_start.split_at(len);
        if !data.is_empty() || mistake == MatchMistake::EmptyPushTested {
            elements.push(data.to_vec());
        }
        rest = next;
    }
    elements
}

/// The update mode the mistaken implementation reads from the flags byte.
fn update_mode(flags: u8, mistake: MatchMistake) -> UpdateMode {
    match mistake {
        MatchMistake::FlagsNotMasked => match flags {
            1 => UpdateMode::All,
            2 => UpdateMode::P2PubkeyOnly,
            _ => UpdateMode::None,
        },
        MatchMistake::FlagsThreeAsAll if flags & 1 == 1 => UpdateMode::All,
        _ => UpdateMode::from_flags(flags),
    }
}

/// `IsRelevantAndUpdate` with `mistake`.
pub fn is_relevant_and_update(
    filter: &mut BloomFilter,
    tx: &Transaction,
    mistake: MatchMistake,
) -> bool {
    if filter.is_empty() {
        return true;
    }
    let txid = tx.txid();
    let mut tested_txid = txid;
    if mistake == MatchMistake::TxidDisplayOrder {
        tested_txid.reverse();
    }
    let mut found = filter.contains(&tested_txid);
    if found && mistake == MatchMistake::AbortAfterTxidMatch {
        return true;
    }
    let mode = update_mode(filter.flags(), mistake);
    let mut push_number = 0u32;
    for (vout, output) in (0u32..).zip(&tx.outputs) {
        for element in script_elements(&output.script_pubkey, mistake) {
            push_number += 1;
            if !filter.contains(&element) {
                continue;
            }
            found = true;
            let inserts = match mode {
                UpdateMode::All => true,
                UpdateMode::P2PubkeyOnly => {
                    mistake == MatchMistake::P2PubkeyOnlyAnyOutput
                        || is_pubkey_or_multisig(&output.script_pubkey)
                }
                UpdateMode::None => false,
            };
            let index = if mistake == MatchMistake::OutpointPerPush {
                push_number - 1
            } else {
                vout
            };
            if inserts {
                filter.insert(&outpoint_element(txid, index, mistake));
            }
            if mistake != MatchMistake::OutpointPerPush {
                break;
            }
        }
        if found && mistake == MatchMistake::AbortAfterOutputMatch {
            return true;
        }
    }
    if found {
        return true;
    }
    let coinbase = tx.inputs.len() == 1 && tx.inputs[0].prevout == OutPoint::NULL;
    if coinbase && mistake == MatchMistake::CoinbasePrevoutSkipped {
        return false;
    }
    tx.inputs.iter().any(|input| {
        let prevout = outpoint_element(input.prevout.txid, input.prevout.vout, mistake);
        let mut elements = vec![prevout];
        elements.extend(script_elements(&input.script_sig, mistake));
        if mistake == MatchMistake::WitnessMatched {
            elements.extend(input.witness.iter().cloned());
        }
        elements.iter().any(|e| filter.contains(e))
    })
}

/// The merkle block the mistaken implementation builds: its matches and payload.
pub fn merkle_block(
    filter: &mut BloomFilter,
    block: &Block,
    mistake: MatchMistake,
) -> (Vec<Match>, Vec<u8>) {
    let snapshot = filter.clone();
    let txids = block.txids();
    let flags: Vec<bool> = block
        .transactions
        .iter()
        .map(|tx| {
            if mistake == MatchMistake::BlockUsesFilterSnapshot {
                let relevant =
                    is_relevant_and_update(&mut snapshot.clone(), tx, MatchMistake::None);
                is_relevant_and_update(filter, tx, MatchMistake::None);
                relevant
            } else {
                is_relevant_and_update(filter, tx, mistake)
            }
        })
        .collect();
    let matches = (0u32..)
        .zip(&txids)
        .zip(&flags)
        .filter(|(_, &m)| m)
        .map(|((index, &txid), _)| Match { index, txid })
        .collect();
    // A block always has a transaction here: the modules build them.
    let tree = PartialMerkleTree::build(&txids, &flags).expect("a block with transactions");
    let mut payload = block.header.encode().to_vec();
    payload.extend_from_slice(&tree.encode());
    (matches, payload)
}
