//! The payloads of the control messages `regen` exchanges: `version` (sent and read),
//! `ping`/`pong` nonces and `getdata` of one filtered block.

use bip37_reference::compact_size;

/// The protocol version `regen` announces: the one Bitcoin Core 30 and the Bitcoin SV node
/// speak (the `merkleblock` and `tx` formats are the same for all BIP 37 versions).
pub const PROTOCOL_VERSION: i32 = 70016;
/// `getdata` inventory type of a filtered block.
pub const MSG_FILTERED_BLOCK: u32 = 3;
/// The service bit a node sets when it serves BIP 37.
pub const NODE_BLOOM: u64 = 1 << 2;
/// The longest user agent read from a node's `version` (Core's `MAX_SUBVERSION_LENGTH`).
const MAX_USER_AGENT_BYTES: u64 = 256;

/// What a node says about itself in its `version` message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeVersion {
    pub protocol_version: i32,
    pub services: u64,
    pub user_agent: String,
    pub start_height: i32,
}

/// Our `version`: no services, relay off (no transaction announcements before `filterload`),
/// both addresses unspecified.
pub fn version_payload(nonce: u64, timestamp: i64, user_agent: &str) -> Vec<u8> {
    version_payload_relaying(nonce, timestamp, user_agent, false)
}

/// Our `version` with the relay flag (`fRelay`) as given: the node suite asks for
/// transaction announcements from the start on some connections.
pub fn version_payload_relaying(
    nonce: u64,
    timestamp: i64,
    user_agent: &str,
    relay: bool,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(110);
    out.extend_from_slice(&PROTOCOL_VERSION.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes()); // services
    out.extend_from_slice(&timestamp.to_le_bytes());
    for _ in 0..2 {
        // addr_recv, addr_from: services, IPv6-mapped address, port
        out.extend_from_slice(&0u64.to_le_bytes());
        out.extend_from_slice(&[0u8; 16]);
        out.extend_from_slice(&0u16.to_be_bytes());
    }
    out.extend_from_slice(&nonce.to_le_bytes());
    compact_size::write(&mut out, user_agent.len() as u64);
    out.extend_from_slice(user_agent.as_bytes());
    out.extend_from_slice(&0i32.to_le_bytes()); // start height
    out.push(u8::from(relay));
    out
}

/// Reads a node's `version` payload up to the start height (the relay byte is optional).
pub fn parse_version(payload: &[u8]) -> Result<NodeVersion, String> {
    let mut input = payload;
    let protocol_version = i32::from_le_bytes(take::<4>(&mut input)?);
    let services = u64::from_le_bytes(take::<8>(&mut input)?);
    take::<8>(&mut input)?; // timestamp
    take::<26>(&mut input)?; // addr_recv
    take::<26>(&mut input)?; // addr_from
    take::<8>(&mut input)?; // nonce
    let length = compact_size::read(&mut input).map_err(|e| format!("user agent: {e}"))?;
    if length > MAX_USER_AGENT_BYTES || length > input.len() as u64 {
        return Err(format!("user agent of {length} bytes"));
    }
    let (agent, rest) = input.split_at(length as usize);
    input = rest;
    let start_height = i32::from_le_bytes(take::<4>(&mut input)?);
    Ok(NodeVersion {
        protocol_version,
        services,
        user_agent: String::from_utf8_lossy(agent).into_owned(),
        start_height,
    })
}

fn take<const N: usize>(input: &mut &[u8]) -> Result<[u8; N], String> {
    if input.len() < N {
        return Err(format!(
            "version payload truncated ({} bytes left, {N} needed)",
            input.len()
        ));
    }
    let (head, rest) = input.split_at(N);
    *input = rest;
    let mut out = [0u8; N];
    out.copy_from_slice(head);
    Ok(out)
}

/// `getdata` for the filtered block with hash `block_hash` (internal byte order).
pub fn getdata_filtered_block(block_hash: &[u8; 32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(37);
    compact_size::write(&mut out, 1);
    out.extend_from_slice(&MSG_FILTERED_BLOCK.to_le_bytes());
    out.extend_from_slice(block_hash);
    out
}

/// The nonce of a `ping` or `pong` payload (8 bytes little-endian).
pub fn nonce(payload: &[u8]) -> Option<u64> {
    <[u8; 8]>::try_from(payload).ok().map(u64::from_le_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(text: &str) -> Vec<u8> {
        bip37_harness::hex::Hex::parse(text).unwrap().0
    }

    #[test]
    fn reads_the_captured_version_of_the_bitcoin_sv_node() {
        // The version payload the Bitcoin SV 1.0.13 regtest node sent on 127.0.0.1.
        let captured = hex(concat!(
            "80110100",                                             // 70016
            "2500000000000000",                                     // services
            "c1cd0c6b00000000",                                     // timestamp
            "0000000000000000000000000000000000000000000000000000", // addr_recv
            "2500000000000000000000000000000000000000000000000000", // addr_from
            "6158e1790f5a4dca",                                     // nonce
            "132f426974636f696e2053563a312e302e31332f",             // "/Bitcoin SV:1.0.13/"
            "00000000",                                             // start height
            "01"                                                    // relay
        ));
        let version = parse_version(&captured).unwrap();
        assert_eq!(version.protocol_version, 70016);
        assert_eq!(version.services & NODE_BLOOM, NODE_BLOOM);
        assert_eq!(version.user_agent, "/Bitcoin SV:1.0.13/");
        assert_eq!(version.start_height, 0);
    }

    #[test]
    fn our_version_reads_back() {
        let payload = version_payload(7, 1_700_000_000, "/bip37-conform:0.1.0/");
        let version = parse_version(&payload).unwrap();
        assert_eq!(version.protocol_version, PROTOCOL_VERSION);
        assert_eq!(version.services, 0);
        assert_eq!(version.user_agent, "/bip37-conform:0.1.0/");
        assert_eq!(*payload.last().unwrap(), 0, "relay must be off");
    }

    #[test]
    fn truncated_or_oversized_version_is_an_error() {
        let payload = version_payload(7, 0, "/x/");
        assert!(parse_version(&payload[..50]).is_err());
        let mut huge = payload[..80].to_vec();
        huge.extend_from_slice(&[0xfe, 0xff, 0xff, 0xff, 0x00]);
        assert!(parse_version(&huge).unwrap_err().contains("user agent"));
    }

    #[test]
    fn getdata_is_one_filtered_block() {
        let payload = getdata_filtered_block(&[0xab; 32]);
        assert_eq!(&payload[..5], &[1, 3, 0, 0, 0]);
        assert_eq!(payload.len(), 37);
    }

    #[test]
    fn nonce_needs_eight_bytes() {
        assert_eq!(nonce(&5u64.to_le_bytes()), Some(5));
        assert_eq!(nonce(&[1, 2, 3]), None);
    }
}
