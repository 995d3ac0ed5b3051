//! Inputs and outputs of the message operations: `filterload` and `filteradd` payloads
//! decoded alone (`*Decode`) or decoded and then checked against the protocol limits the
//! way a node does before it accepts them (`*Accept`).

use crate::hex::Hex;
use serde::{Deserialize, Serialize};

/// The input of every message operation: the raw payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PayloadInput {
    pub payload: Hex,
}

/// The fields of an accepted `filterload`; `flags` is the raw byte.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FilterloadOutput {
    pub data: Hex,
    pub hash_funcs: u32,
    pub tweak: u32,
    pub flags: u8,
}

/// The element of an accepted `filteradd`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FilteraddOutput {
    pub data: Hex,
}
