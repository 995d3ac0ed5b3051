//! The v1 P2P transport framing: a 24-byte header (network magic, NUL-padded command,
//! payload length, first four bytes of the payload's double SHA-256) and the payload.
//!
//! Reading is bounded: a declared length above [`MAX_PAYLOAD_BYTES`] is refused before any
//! payload byte is read, and the payload buffer grows only with the bytes that actually
//! arrive, so a hostile length costs no memory.

use bip37_reference::sha256::sha256d;
use std::io::{self, Read};

/// The largest payload accepted: Bitcoin Core's `MAX_PROTOCOL_MESSAGE_LENGTH` (4 MB). The
/// messages `regen` reads (`merkleblock`, small `tx`s, control messages) are far smaller.
pub const MAX_PAYLOAD_BYTES: u32 = 4_000_000;
/// The size of a message header.
pub const HEADER_BYTES: usize = 24;

/// One P2P message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The command, without its NUL padding (`version`, `merkleblock`, ...).
    pub command: String,
    pub payload: Vec<u8>,
}

impl Message {
    pub fn new(command: &str, payload: Vec<u8>) -> Self {
        Message {
            command: command.to_string(),
            payload,
        }
    }

    /// The framed bytes under `magic`.
    pub fn encode(&self, magic: [u8; 4]) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + self.payload.len());
        out.extend_from_slice(&magic);
        let mut command = [0u8; 12];
        command[..self.command.len()].copy_from_slice(self.command.as_bytes());
        out.extend_from_slice(&command);
        out.extend_from_slice(&(self.payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&checksum(&self.payload));
        out.extend_from_slice(&self.payload);
        out
    }
}

/// The first four bytes of `sha256d(payload)`.
pub fn checksum(payload: &[u8]) -> [u8; 4] {
    let digest = sha256d(payload);
    [digest[0], digest[1], digest[2], digest[3]]
}

/// Why a message could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The stream failed, timed out or ended (`UnexpectedEof`).
    Io(io::Error),
    /// The header carries another network magic.
    WrongMagic([u8; 4]),
    /// The bytes are not a valid message.
    Malformed(String),
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e)
    }
}

/// Reads one message sent under `magic`.
pub fn read_message(reader: &mut impl Read, magic: [u8; 4]) -> Result<Message, ReadError> {
    let mut header = [0u8; HEADER_BYTES];
    reader.read_exact(&mut header)?;
    let received: [u8; 4] = [header[0], header[1], header[2], header[3]];
    if received != magic {
        return Err(ReadError::WrongMagic(received));
    }
    let command = parse_command(&header[4..16])?;
    let length = u32::from_le_bytes([header[16], header[17], header[18], header[19]]);
    if length > MAX_PAYLOAD_BYTES {
        return Err(ReadError::Malformed(format!(
            "`{command}` declares {length} payload bytes, more than the {MAX_PAYLOAD_BYTES} accepted"
        )));
    }
    let mut payload = Vec::new();
    reader.take(u64::from(length)).read_to_end(&mut payload)?;
    // Growing by doubling may have reserved up to twice the payload: a kept message costs
    // its length only.
    payload.shrink_to_fit();
    if payload.len() != length as usize {
        return Err(ReadError::Io(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!(
                "`{command}` ended after {} of {length} bytes",
                payload.len()
            ),
        )));
    }
    if checksum(&payload)[..] != header[20..24] {
        return Err(ReadError::Malformed(format!(
            "`{command}` fails its checksum"
        )));
    }
    Ok(Message { command, payload })
}

/// The command name: printable ASCII, then NUL padding only.
fn parse_command(field: &[u8]) -> Result<String, ReadError> {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    let (name, padding) = field.split_at(end);
    if padding.iter().any(|&b| b != 0) || !name.iter().all(|b| b.is_ascii_graphic()) {
        return Err(ReadError::Malformed(format!(
            "command field {} is not a NUL-padded name",
            bip37_harness::hex::encode(field)
        )));
    }
    Ok(String::from_utf8_lossy(name).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const REGTEST_SV: [u8; 4] = [0xda, 0xb5, 0xbf, 0xfa];

    fn hex(text: &str) -> Vec<u8> {
        bip37_harness::hex::Hex::parse(text).unwrap().0
    }

    #[test]
    fn verack_frame_matches_captured_bytes() {
        // A verack as the Bitcoin SV regtest node sends it: empty payload, checksum
        // 5df6e0e2 (the first bytes of sha256d of nothing).
        let captured = hex("dab5bffa76657261636b000000000000000000005df6e0e2");
        assert_eq!(Message::new("verack", vec![]).encode(REGTEST_SV), captured);
        let read = read_message(&mut &captured[..], REGTEST_SV).unwrap();
        assert_eq!(read, Message::new("verack", vec![]));
    }

    #[test]
    fn ping_roundtrips() {
        let ping = Message::new("ping", 0x0102030405060708u64.to_le_bytes().to_vec());
        let bytes = ping.encode(REGTEST_SV);
        assert_eq!(bytes.len(), HEADER_BYTES + 8);
        assert_eq!(read_message(&mut &bytes[..], REGTEST_SV).unwrap(), ping);
    }

    #[test]
    fn wrong_magic_is_named() {
        let bytes = Message::new("verack", vec![]).encode([0xfa, 0xbf, 0xb5, 0xda]);
        assert!(matches!(
            read_message(&mut &bytes[..], REGTEST_SV),
            Err(ReadError::WrongMagic([0xfa, 0xbf, 0xb5, 0xda]))
        ));
    }

    #[test]
    fn bad_checksum_is_refused() {
        let mut bytes = Message::new("ping", vec![1; 8]).encode(REGTEST_SV);
        bytes[HEADER_BYTES] ^= 1;
        assert!(matches!(
            read_message(&mut &bytes[..], REGTEST_SV),
            Err(ReadError::Malformed(m)) if m.contains("checksum")
        ));
    }

    #[test]
    fn huge_declared_length_is_refused_without_reading() {
        let mut bytes = Message::new("block", vec![]).encode(REGTEST_SV);
        bytes[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            read_message(&mut &bytes[..], REGTEST_SV),
            Err(ReadError::Malformed(m)) if m.contains("4294967295")
        ));
    }

    #[test]
    fn truncated_payload_is_end_of_stream() {
        let bytes = Message::new("ping", vec![1; 8]).encode(REGTEST_SV);
        let err = read_message(&mut &bytes[..bytes.len() - 1], REGTEST_SV).unwrap_err();
        assert!(matches!(err, ReadError::Io(e) if e.kind() == io::ErrorKind::UnexpectedEof));
    }

    #[test]
    fn garbage_command_is_refused() {
        let mut bytes = Message::new("ping", vec![]).encode(REGTEST_SV);
        bytes[10] = b'x'; // a letter after the NUL padding started
        assert!(matches!(
            read_message(&mut &bytes[..], REGTEST_SV),
            Err(ReadError::Malformed(_))
        ));
    }
}
