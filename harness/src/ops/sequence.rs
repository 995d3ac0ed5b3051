//! Input and output of the `sequence` operation: one peer's session with a node that serves
//! BIP 37, step by step, with the node's answer to each step. It checks what single
//! operations cannot: state carried from one message to the next (outpoints inserted by a
//! match, a `filterclear` that really clears, a rejected `filterload` that leaves the old
//! filter in place).
//!
//! Every session starts with no filter loaded. The steps and what a node does (Bitcoin Core,
//! src/net_processing.cpp, for a peer it offers NODE_BLOOM):
//!
//! - `filterload {payload}`: a payload that does not decode (truncated, non-canonical length)
//!   is dropped: `ignored`, nothing changes. Bytes after a complete payload are not read. A
//!   filter over 36,000 bytes or 50 hash functions is `misbehaving` and the previous filter
//!   (or none) stays. Otherwise the filter replaces the previous one: `accepted`.
//! - `filteradd {payload}`: undecodable: `ignored`. An element over 520 bytes, or no filter
//!   loaded: `misbehaving`, nothing changes. Otherwise the element is inserted: `accepted`.
//! - `filterclear`: the filter is removed (the payload is never read): `accepted`.
//! - `matchTx {tx}`: with no filter, `noFilter` (the node relays every transaction). With one,
//!   `IsRelevantAndUpdate(tx)`: `tx` with `relevant` and the filter bytes after the update.
//! - `merkleBlock {block}`: with no filter, `noFilter` (the node sends nothing). With one,
//!   `CMerkleBlock(block, filter)`: `merkleBlock` with the payload, the matches in block
//!   order and the filter bytes after the updates.
//!
//! A `misbehaving` peer would be disconnected; the session goes on as for a `noban` peer,
//! which Core keeps connected with its filter unchanged. A transaction or block that does not
//! decode is a rejection of the whole sequence at the decode stage.

use super::matching::MatchedTx;
use crate::hex::Hex;
use serde::{Deserialize, Serialize};

/// `sequence`: the steps of one session, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SequenceInput {
    pub steps: Vec<Step>,
}

/// One message of the session (see the module documentation for the node's semantics).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "step", rename_all = "camelCase", deny_unknown_fields)]
pub enum Step {
    /// A `filterload` message with this payload.
    Filterload { payload: Hex },
    /// A `filteradd` message with this payload.
    Filteradd { payload: Hex },
    /// A `filterclear` message.
    Filterclear {},
    /// A transaction the node considers relaying (`tx`: its serialization).
    MatchTx { tx: Hex },
    /// A `getdata(MSG_FILTERED_BLOCK)` for this block (`block`: its serialization).
    MerkleBlock { block: Hex },
}

/// The answer to `sequence`: one result per step, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SequenceOutput {
    pub results: Vec<StepResult>,
}

/// What the node did with one step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "outcome", rename_all = "camelCase", deny_unknown_fields)]
pub enum StepResult {
    /// The message took effect.
    Accepted,
    /// The payload did not decode; the node dropped it without penalty.
    Ignored,
    /// The node penalizes the peer; its filter state did not change.
    Misbehaving,
    /// No filter is loaded, so nothing was evaluated.
    NoFilter,
    /// The transaction was evaluated.
    #[serde(rename_all = "camelCase")]
    Tx { relevant: bool, filter_data: Hex },
    /// The merkle block the node sends.
    #[serde(rename_all = "camelCase")]
    MerkleBlock {
        merkleblock: Hex,
        matched: Vec<MatchedTx>,
        filter_data: Hex,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn steps_and_results_have_their_documented_json() {
        let input = json!({"steps": [
            {"step": "filterload", "payload": "00"},
            {"step": "filterclear"},
            {"step": "matchTx", "tx": "ab"},
        ]});
        let parsed: SequenceInput = serde_json::from_value(input.clone()).unwrap();
        assert_eq!(parsed.steps[1], Step::Filterclear {});
        assert_eq!(serde_json::to_value(&parsed).unwrap(), input);
        let output = json!({"results": [
            {"outcome": "misbehaving"},
            {"outcome": "tx", "relevant": true, "filterData": "01"},
        ]});
        let parsed: SequenceOutput = serde_json::from_value(output.clone()).unwrap();
        assert_eq!(serde_json::to_value(&parsed).unwrap(), output);
        assert!(serde_json::from_value::<SequenceInput>(
            json!({"steps": [{"step": "filterclear", "payload": ""}]})
        )
        .is_err());
    }
}
