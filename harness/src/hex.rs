//! Byte strings as lowercase hex in JSON: the one encoding of bytes in vectors, the
//! subprocess protocol and reports. The `hex` crate does the encoding; [`Hex`] gives it serde
//! and the suite's error messages.

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Bytes that serialize as a lowercase hex string.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Hex(pub Vec<u8>);

impl Hex {
    /// Decodes hex text (either case), or says why it is not hex.
    pub fn parse(text: &str) -> Result<Self, String> {
        ::hex::decode(text).map(Hex).map_err(|e| match e {
            ::hex::FromHexError::OddLength => format!("hex string has odd length {}", text.len()),
            ::hex::FromHexError::InvalidHexCharacter { index, .. } => {
                format!("invalid hex digit at offset {index}")
            }
            other => other.to_string(),
        })
    }

    /// The lowercase hex text.
    pub fn to_hex(&self) -> String {
        encode(&self.0)
    }
}

/// Lowercase hex of any bytes.
pub use ::hex::encode;

impl From<Vec<u8>> for Hex {
    fn from(bytes: Vec<u8>) -> Self {
        Hex(bytes)
    }
}

impl From<&[u8]> for Hex {
    fn from(bytes: &[u8]) -> Self {
        Hex(bytes.to_vec())
    }
}

impl std::ops::Deref for Hex {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\"", self.to_hex())
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl de::Visitor<'_> for Visitor {
            type Value = Hex;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a hex string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Hex, E> {
                Hex::parse(v).map_err(E::custom)
            }
        }
        d.deserialize_str(Visitor)
    }
}

/// Hex text in the JSON Schema of the vectors (with the `schema` feature).
#[cfg(feature = "schema")]
impl schemars::JsonSchema for Hex {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Hex".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Bytes as lowercase hex, two digits per byte.",
            "type": "string",
            "pattern": "^([0-9a-f]{2})*$"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip_and_errors() {
        assert_eq!(Hex::parse("00aBff").unwrap().0, vec![0, 0xab, 0xff]);
        assert_eq!(Hex(vec![0, 0xab, 0xff]).to_hex(), "00abff");
        assert!(Hex::parse("abc").unwrap_err().contains("odd length"));
        assert!(Hex::parse("zz").unwrap_err().contains("offset 0"));
        assert!(Hex::parse("0g").unwrap_err().contains("offset 1"));
    }
}
