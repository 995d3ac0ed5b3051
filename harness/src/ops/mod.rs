//! The operations of the suite: one name, one input type and one output type each.
//!
//! The same JSON objects appear in three places: a vector's `input` and `expected`, a
//! subprocess request's `input` and answer's `output`, and the arguments and results of the
//! [`crate::implementation::Implementation`] trait. The table in `operation_table!` is the
//! single list of them, and what repeats per operation is generated from it.

pub mod ceilings;
pub mod filter;
pub mod matching;
#[cfg(feature = "schema")]
pub mod schema;
pub mod sequence;
pub mod wide;
pub mod wire;

/// The byte strings of the operations' fields, here so that `use bip37_harness::ops::*`
/// brings every type an implementation reads and writes.
pub use crate::hex::Hex;
pub use filter::*;
pub use matching::*;
pub use sequence::*;
pub use wire::*;

use crate::vectors::model::Phase;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// THE table of operations: one row per operation, and the only place an operation is listed.
///
/// A row is `Variant = "wireName" fn trait_method(InputType => OutputType) phase Phase: "doc";`.
/// The table is handed to a macro (`operation_table!(callback)`) that generates from it, so a
/// new operation is one row here plus its types, its reference answer, its fuzz strategy (or
/// none) and its vectors. Generated from the rows:
/// - here: [`OpName`] (with [`OpName::ALL`], the wire names and [`OpName::phase`]), the typed
///   [`Request`] and [`Output`] and their JSON conversions;
/// - in [`crate::implementation`]: the `Implementation` trait's method per operation (default
///   "unsupported") and its `execute` dispatch;
/// - with the `schema` feature, `schema::operations`: each operation's input and output JSON
///   Schema, from which `bip37-vectorgen` writes `vectors/vectors.schema.json`.
macro_rules! operation_table {
    ($callback:ident) => {
        $callback! {
            Murmur3 = "murmur3" fn murmur3(Murmur3Input => Murmur3Output) phase Hash:
                "MurmurHash3 x86_32 of bytes with a seed.";
            HashSeed = "hashSeed" fn hash_seed(HashSeedInput => HashSeedOutput) phase Seed:
                "The seed of hash function i for a tweak.";
            Sizing = "sizing" fn sizing(SizingInput => SizingOutput) phase Sizing:
                "Filter bytes and hash functions for (n, p).";
            BitIndexes = "bitIndexes" fn bit_indexes(BitIndexesInput => BitIndexesOutput) phase Insert:
                "The bit index of each hash function for an element.";
            BuildFilter = "buildFilter" fn build_filter(BuildFilterInput => BuildFilterOutput) phase Serialize:
                "Build, insert, serialize and query a filter.";
            FilterloadDecode = "filterloadDecode" fn filterload_decode(PayloadInput => FilterloadOutput) phase Decode:
                "Decode a filterload payload (no limits).";
            FilterloadAccept = "filterloadAccept" fn filterload_accept(PayloadInput => FilterloadOutput) phase Limits:
                "Decode a filterload payload and apply the node's limits.";
            FilteraddDecode = "filteraddDecode" fn filteradd_decode(PayloadInput => FilteraddOutput) phase Decode:
                "Decode a filteradd payload (no limits).";
            FilteraddAccept = "filteraddAccept" fn filteradd_accept(PayloadInput => FilteraddOutput) phase Limits:
                "Decode a filteradd payload and apply the node's limits.";
            MatchTx = "matchTx" fn match_tx(MatchTxInput => MatchTxOutput) phase Match:
                "Evaluate transactions with IsRelevantAndUpdate.";
            MerkleBlock = "merkleBlock" fn merkle_block(MerkleBlockInput => MerkleBlockOutput) phase Merkle:
                "Build the merkleblock of a block for a filter.";
            PmtBuild = "pmtBuild" fn pmt_build(PmtBuildInput => PmtBuildOutput) phase Merkle:
                "Build a partial merkle tree from txids and match flags.";
            PmtExtract = "pmtExtract" fn pmt_extract(PmtExtractInput => PmtExtractOutput) phase Merkle:
                "Parse a partial merkle tree and extract its matches.";
            Sequence = "sequence" fn sequence(SequenceInput => SequenceOutput) phase Sequence:
                "Run a session of filter messages, transactions and blocks against one node.";
        }
    };
}
pub(crate) use operation_table;

/// Generates the operation name, request and output types from `operation_table!`.
macro_rules! define_operations {
    ($( $variant:ident = $name:literal fn $method:ident ($input:ty => $output:ty) phase $phase:ident : $doc:literal; )*) => {
        /// The name of an operation, as written in vectors and the protocol.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        pub enum OpName {
            $( #[doc = $doc] #[serde(rename = $name)] $variant, )*
        }

        impl OpName {
            /// Every operation, in protocol order.
            pub const ALL: &'static [OpName] = &[$(OpName::$variant),*];

            /// The wire name (`"murmur3"`, `"filterloadAccept"`, ...).
            pub fn as_str(self) -> &'static str {
                match self { $(OpName::$variant => $name,)* }
            }

            /// The operation with this wire name.
            pub fn from_name(name: &str) -> Option<Self> {
                match name { $($name => Some(OpName::$variant),)* _ => None }
            }

            /// The names of its input and output types (`docs/RUST.md` lists them with the
            /// trait's methods).
            pub fn type_names(self) -> (&'static str, &'static str) {
                match self { $(OpName::$variant => (stringify!($input), stringify!($output)),)* }
            }

            /// The operation table's line of documentation (`docs/PROTOCOL.md` shows it).
            pub fn doc(self) -> &'static str {
                match self { $(OpName::$variant => $doc,)* }
            }

            /// The phase a test of this operation exercises when nothing narrows it (a vector
            /// written from a fuzz finding, for one).
            pub fn phase(self) -> Phase {
                match self { $(OpName::$variant => Phase::$phase,)* }
            }
        }
        /// A typed request: an operation with its input.
        #[derive(Debug, Clone, PartialEq)]
        pub enum Request {
            $( #[doc = $doc] $variant($input), )*
        }

        impl Request {
            /// The operation requested.
            pub fn op(&self) -> OpName {
                match self { $(Request::$variant(_) => OpName::$variant,)* }
            }

            /// Parses the JSON input of `op`, naming the path of a bad field; a request beyond
            /// the work [`ceilings`] is refused here, before anything computes with it.
            pub fn from_json(op: OpName, input: &Value) -> Result<Self, FieldError> {
                let request = match op { $(OpName::$variant => Request::$variant(parse(input)?),)* };
                request.check_ceilings()?;
                Ok(request)
            }

            /// The JSON input.
            pub fn input_json(&self) -> Value {
                match self { $(Request::$variant(i) => to_value(i),)* }
            }
        }

        /// A typed successful answer: an operation with its output.
        #[derive(Debug, Clone, PartialEq)]
        pub enum Output {
            $( #[doc = $doc] $variant($output), )*
        }

        impl Output {
            /// The operation answered.
            pub fn op(&self) -> OpName {
                match self { $(Output::$variant(_) => OpName::$variant,)* }
            }

            /// Parses the JSON output of `op`, naming the path of a bad field.
            pub fn from_json(op: OpName, output: &Value) -> Result<Self, FieldError> {
                Ok(match op { $(OpName::$variant => Output::$variant(parse(output)?),)* })
            }

            /// The JSON output.
            pub fn to_json(&self) -> Value {
                match self { $(Output::$variant(o) => to_value(o),)* }
            }
        }
    };
}

operation_table!(define_operations);

impl fmt::Display for OpName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A JSON value that does not fit an operation's input or output type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The path of the offending field, e.g. `filter.fpRate` (`.` for the whole value).
    pub path: String,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field `{}`: {}", self.path, self.message)
    }
}

impl std::error::Error for FieldError {}

fn parse<T: serde::de::DeserializeOwned>(value: &Value) -> Result<T, FieldError> {
    serde_path_to_error::deserialize(value).map_err(|e| FieldError {
        path: e.path().to_string(),
        message: e.inner().to_string(),
    })
}

fn to_value<T: Serialize>(value: &T) -> Value {
    // The operation types hold only strings, numbers, booleans and lists: this cannot fail.
    serde_json::to_value(value).expect("operation types serialize to JSON")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_roundtrip() {
        for &op in OpName::ALL {
            assert_eq!(OpName::from_name(op.as_str()), Some(op));
        }
    }

    #[test]
    fn bad_field_is_named() {
        let err = Request::from_json(
            OpName::BitIndexes,
            &json!({"filter": {"kind": "sized", "nElements": 3, "fpRate": "x", "tweak": 0, "flags": 0}, "element": "00"}),
        )
        .unwrap_err();
        // Internally tagged enums buffer their content, so the path stops at the enum.
        assert_eq!(err.path, "filter");
        assert!(err.message.contains("fpRate"), "{err}");
        let err =
            Request::from_json(OpName::Murmur3, &json!({"seed": 1, "data": "0g"})).unwrap_err();
        assert_eq!(err.path, "data");
    }

    #[test]
    fn input_roundtrips_through_json() {
        let v = json!({"filter": {"kind": "explicit", "filterBytes": 10, "hashFuncs": 5, "tweak": 99, "flags": 1}, "insert": ["48656c6c6f20576f726c64"], "queries": []});
        let req = Request::from_json(OpName::BuildFilter, &v).unwrap();
        assert_eq!(req.input_json(), v);
    }
}
