//! Named blocks and the steps asked about them: the shape shared by the tx-part and the
//! update-mode probes.
//!
//! A step loads one filter (fixed size, the step's nFlags, the step's elements inserted) and
//! requests blocks in order. The record names the transactions the node sent ("parent",
//! "child", ...), never their txids, so it reads the same on every run.

use super::Findings;
use crate::regen::chain::MinedBlock;
use crate::regen::error::RegenError;
use crate::regen::oracle::Oracle;
use crate::regen::record::ProbeRecord;
use bip37_reference::{BloomFilter, FilterLoad};
use serde_json::{json, Value};

/// Filter bytes of every step: large enough that chance matches are negligible.
pub const STEP_FILTER_BYTES: u64 = 256;
/// Hash functions of every step.
pub const STEP_HASH_FUNCS: u32 = 10;
/// Tweak of every step.
pub const STEP_TWEAK: u32 = 0x5eed_b137;

/// A mined block whose transactions have names (`coinbase` for the first).
pub struct NamedBlock {
    pub name: &'static str,
    pub mined: MinedBlock,
    pub names: Vec<&'static str>,
}

impl NamedBlock {
    /// `mined` whose non-coinbase transactions are called `names`, in block order.
    pub fn new(name: &'static str, mined: MinedBlock, names: &[&'static str]) -> Self {
        let mut all = vec!["coinbase"];
        all.extend_from_slice(names);
        NamedBlock {
            name,
            mined,
            names: all,
        }
    }

    fn name_of(&self, index: usize) -> String {
        self.names
            .get(index)
            .map_or_else(|| format!("tx{index}"), |n| n.to_string())
    }
}

/// An element a step inserts, with a label that is stable across runs (a role such as
/// `txid(parent)`, or the hex of a fixed element).
pub struct Element {
    pub label: String,
    pub bytes: Vec<u8>,
}

impl Element {
    /// A fixed element, labelled by its hex.
    pub fn fixed(bytes: &[u8]) -> Self {
        Element {
            label: bip37_harness::hex::encode(bytes),
            bytes: bytes.to_vec(),
        }
    }

    /// An element that depends on the run (a txid, an outpoint), labelled by its role.
    pub fn role(label: &str, bytes: Vec<u8>) -> Self {
        Element {
            label: label.to_string(),
            bytes,
        }
    }
}

/// One question: a filter and the blocks requested under it, in order.
pub struct Step {
    pub id: &'static str,
    pub what: &'static str,
    pub flags: u8,
    pub elements: Vec<Element>,
    /// Indexes into the scenario's blocks.
    pub blocks: Vec<usize>,
}

/// Asks `step` and records what the node sent, by transaction name.
pub fn run_step(
    oracle: &mut Oracle,
    blocks: &[NamedBlock],
    step: &Step,
    findings: &mut Findings,
) -> Result<ProbeRecord, RegenError> {
    let mut filter =
        BloomFilter::with_size(STEP_FILTER_BYTES, STEP_HASH_FUNCS, STEP_TWEAK, step.flags)
            .map_err(|e| RegenError::Setup {
                detail: format!("step filter: {e:?}"),
            })?;
    for element in &step.elements {
        filter.insert(&element.bytes);
    }
    let load = FilterLoad {
        data: filter.data().to_vec(),
        hash_funcs: STEP_HASH_FUNCS,
        tweak: STEP_TWEAK,
        flags: step.flags,
    };
    let asked: Vec<&NamedBlock> = step.blocks.iter().map(|&i| &blocks[i]).collect();
    let mined: Vec<&MinedBlock> = asked.iter().map(|b| &b.mined).collect();
    let answers = oracle.ask(&load, &mined)?;
    let mut observed = Vec::with_capacity(answers.len());
    let mut agrees = true;
    for (block, answer) in asked.iter().zip(&answers) {
        let names: Vec<String> = answer.node.iter().map(|&i| block.name_of(i)).collect();
        observed.push(json!({"block": block.name, "matched": names}));
        if let Some(diff) = &answer.difference {
            agrees = false;
            findings.disagree(step.id, format!("block `{}`: {diff}", block.name));
        }
    }
    Ok(ProbeRecord {
        id: step.id.to_string(),
        what: step.what.to_string(),
        confirms: Vec::new(),
        input: json!({
            "flags": step.flags,
            "filterBytes": STEP_FILTER_BYTES,
            "hashFuncs": STEP_HASH_FUNCS,
            "tweak": STEP_TWEAK,
            "elements": step.elements.iter().map(|e| e.label.clone()).collect::<Vec<_>>(),
        }),
        observed: Value::Array(observed),
        agrees_with_reference: agrees,
    })
}
