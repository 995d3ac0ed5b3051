//! Byte strings as lowercase hex in JSON: the one encoding of bytes in vectors, the
//! subprocess protocol and reports.

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Bytes that serialize as a lowercase hex string.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Hex(pub Vec<u8>);

impl Hex {
    /// Decodes hex text (either case), or says why it is not hex.
    pub fn parse(text: &str) -> Result<Self, String> {
        if !text.len().is_multiple_of(2) {
            return Err(format!("hex string has odd length {}", text.len()));
        }
        text.as_bytes()
            .chunks_exact(2)
            .enumerate()
            .map(|(i, pair)| match (nibble(pair[0]), nibble(pair[1])) {
                (Some(hi), Some(lo)) => Ok(hi << 4 | lo),
                _ => Err(format!("invalid hex digit at offset {}", 2 * i)),
            })
            .collect::<Result<Vec<u8>, String>>()
            .map(Hex)
    }

    /// The lowercase hex text.
    pub fn to_hex(&self) -> String {
        encode(&self.0)
    }
}

/// Lowercase hex of any bytes.
pub fn encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip_and_errors() {
        assert_eq!(Hex::parse("00aBff").unwrap().0, vec![0, 0xab, 0xff]);
        assert_eq!(Hex(vec![0, 0xab, 0xff]).to_hex(), "00abff");
        assert!(Hex::parse("abc").unwrap_err().contains("odd length"));
        assert!(Hex::parse("zz").unwrap_err().contains("offset 0"));
    }
}
