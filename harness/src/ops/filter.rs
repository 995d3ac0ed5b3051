//! Inputs and outputs of the hashing, sizing and filter operations.

use crate::hex::Hex;
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

/// `murmur3`: MurmurHash3 x86_32 of `data` with `seed`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Murmur3Input {
    pub seed: u32,
    pub data: Hex,
}

/// The answer to `murmur3`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Murmur3Output {
    pub hash: u32,
}

/// `hashSeed`: the seed of hash function `hashIndex` for `tweak`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HashSeedInput {
    pub hash_index: u32,
    pub tweak: u32,
}

/// The answer to `hashSeed`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HashSeedOutput {
    pub seed: u32,
}

/// A false-positive rate: a JSON number, or one of the strings `"NaN"`, `"Infinity"`,
/// `"-Infinity"` for the values JSON numbers cannot carry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FpRate(pub f64);

impl Serialize for FpRate {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.is_nan() {
            s.serialize_str("NaN")
        } else if v.is_infinite() {
            s.serialize_str(if v > 0.0 { "Infinity" } else { "-Infinity" })
        } else {
            s.serialize_f64(v)
        }
    }
}

impl<'de> Deserialize<'de> for FpRate {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(f64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Number(v) => Ok(FpRate(v)),
            Raw::Text(t) => match t.as_str() {
                "NaN" => Ok(FpRate(f64::NAN)),
                "Infinity" => Ok(FpRate(f64::INFINITY)),
                "-Infinity" => Ok(FpRate(f64::NEG_INFINITY)),
                other => Err(de::Error::custom(format!(
                    "fpRate must be a number, \"NaN\", \"Infinity\" or \"-Infinity\", not {other:?}"
                ))),
            },
        }
    }
}

/// A number or one of the three strings, as [`FpRate`]'s serde reads it (with the `schema`
/// feature).
#[cfg(feature = "schema")]
impl schemars::JsonSchema for FpRate {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "FpRate".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A false-positive rate: a JSON number, or one of the strings for the values JSON numbers cannot carry.",
            "oneOf": [{"type": "number"}, {"enum": ["NaN", "Infinity", "-Infinity"]}]
        })
    }
}

/// `sizing`: Core's constructor arithmetic for `nElements` at `fpRate`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SizingInput {
    pub n_elements: u32,
    pub fp_rate: FpRate,
}

/// The answer to `sizing`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SizingOutput {
    pub filter_bytes: u32,
    pub hash_funcs: u32,
}

/// How a test sets up a filter before it inserts or asks anything.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum FilterInit {
    /// Sized by Core's constructor from (n, p), all bits clear.
    #[serde(rename_all = "camelCase")]
    Sized {
        n_elements: u32,
        fp_rate: FpRate,
        tweak: u32,
        flags: u8,
    },
    /// An explicit size and hash function count, all bits clear.
    #[serde(rename_all = "camelCase")]
    Explicit {
        filter_bytes: u32,
        hash_funcs: u32,
        tweak: u32,
        flags: u8,
    },
    /// A filter as a `filterload` message carries it: explicit bytes.
    #[serde(rename_all = "camelCase")]
    Loaded {
        data: Hex,
        hash_funcs: u32,
        tweak: u32,
        flags: u8,
    },
}

/// `bitIndexes`: the bit each hash function selects for `element`, in hash function order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BitIndexesInput {
    pub filter: FilterInit,
    pub element: Hex,
}

/// The answer to `bitIndexes` (empty for a filter with no bytes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BitIndexesOutput {
    pub indexes: Vec<u32>,
}

/// `buildFilter`: set up a filter, insert every element of `insert` in order, then
/// serialize it and ask `contains` for every element of `queries`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BuildFilterInput {
    pub filter: FilterInit,
    #[serde(default)]
    pub insert: Vec<Hex>,
    #[serde(default)]
    pub queries: Vec<Hex>,
}

/// The answer to `buildFilter`: the `filterload` payload and one answer per query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BuildFilterOutput {
    pub filterload: Hex,
    pub contains: Vec<bool>,
}
