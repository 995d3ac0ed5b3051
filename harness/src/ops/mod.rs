//! The operations of the suite: one name, one input type and one output type each.
//!
//! The same JSON objects appear in three places: a vector's `input` and `expected`, a
//! subprocess request's `input` and answer's `output`, and the arguments and results of the
//! [`crate::implementation::Implementation`] trait. The table in [`operations!`] is the
//! single list of them.

pub mod ceilings;
pub mod filter;
pub mod matching;
pub mod sequence;
pub mod wire;

pub use filter::*;
pub use matching::*;
pub use sequence::*;
pub use wire::*;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

macro_rules! operations {
    ($( $variant:ident = $name:literal ($input:ty => $output:ty): $doc:literal; )*) => {
        /// The name of an operation, as written in vectors and the protocol.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
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

operations! {
    Murmur3 = "murmur3" (Murmur3Input => Murmur3Output): "MurmurHash3 x86_32 of bytes with a seed.";
    HashSeed = "hashSeed" (HashSeedInput => HashSeedOutput): "The seed of hash function i for a tweak.";
    Sizing = "sizing" (SizingInput => SizingOutput): "Filter bytes and hash functions for (n, p).";
    BitIndexes = "bitIndexes" (BitIndexesInput => BitIndexesOutput): "The bit index of each hash function for an element.";
    BuildFilter = "buildFilter" (BuildFilterInput => BuildFilterOutput): "Build, insert, serialize and query a filter.";
    FilterloadDecode = "filterloadDecode" (PayloadInput => FilterloadOutput): "Decode a filterload payload (no limits).";
    FilterloadAccept = "filterloadAccept" (PayloadInput => FilterloadOutput): "Decode a filterload payload and apply the node's limits.";
    FilteraddDecode = "filteraddDecode" (PayloadInput => FilteraddOutput): "Decode a filteradd payload (no limits).";
    FilteraddAccept = "filteraddAccept" (PayloadInput => FilteraddOutput): "Decode a filteradd payload and apply the node's limits.";
    MatchTx = "matchTx" (MatchTxInput => MatchTxOutput): "Evaluate transactions with IsRelevantAndUpdate.";
    MerkleBlock = "merkleBlock" (MerkleBlockInput => MerkleBlockOutput): "Build the merkleblock of a block for a filter.";
    PmtBuild = "pmtBuild" (PmtBuildInput => PmtBuildOutput): "Build a partial merkle tree from txids and match flags.";
    PmtExtract = "pmtExtract" (PmtExtractInput => PmtExtractOutput): "Parse a partial merkle tree and extract its matches.";
    Sequence = "sequence" (SequenceInput => SequenceOutput): "Run a session of filter messages, transactions and blocks against one node.";
}

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
