//! Everything that can stop `regen`, each with the cause and the fix in its message.
//!
//! A maintainer meets these when the node is not running, was started without the flags
//! `regen` needs, or is reached at the wrong port or network magic; the message says which
//! and how to fix it, so nobody has to read the code.

use bip37_harness::hex::encode;
use std::fmt;
use std::time::Duration;

/// Why `regen` could not finish. Nothing is written when one of these is returned.
#[derive(Debug)]
pub enum RegenError {
    /// A `host:port` that does not resolve.
    BadAddress(String),
    /// A host name the system resolver did not resolve in time.
    ResolveTimeout { address: String, timeout: Duration },
    /// Nothing accepts connections at the RPC address.
    RpcUnreachable { address: String, detail: String },
    /// The RPC server did not answer in time.
    RpcTimeout { address: String, timeout: Duration },
    /// The TLS session with the RPC server failed (`--rpc-cert`).
    RpcTls {
        address: String,
        cert_file: String,
        detail: String,
    },
    /// The RPC server refused the user name and password.
    RpcCredentials { address: String },
    /// Something answered that is not a JSON-RPC server.
    RpcProtocol { address: String, detail: String },
    /// The RPC server returned an error for a call.
    RpcCall {
        method: String,
        code: i64,
        message: String,
    },
    /// The node does not run regtest: `regen` mines blocks and refuses other chains.
    NotRegtest { chain: String },
    /// The node does not offer NODE_BLOOM.
    BloomDisabled { services: u64 },
    /// The node bans the loopback address `regen` connects from.
    Banned { entries: String },
    /// Nothing accepts P2P connections at the address.
    P2pUnreachable { address: String, detail: String },
    /// The node's messages carry another network magic.
    WrongMagic {
        expected: [u8; 4],
        received: [u8; 4],
    },
    /// The node closed the connection before its `version`: typically a wrong magic.
    ClosedBeforeVersion { address: String, magic: [u8; 4] },
    /// The node closed the connection where no disconnect was expected.
    Disconnected { during: String },
    /// The node did not send what was awaited in time.
    P2pTimeout {
        waiting_for: String,
        timeout: Duration,
    },
    /// The node did not read what `regen` sent in time.
    P2pStalled { command: String, timeout: Duration },
    /// `--rpc` and `--p2p` reach two different nodes.
    DifferentNodes {
        rpc: String,
        p2p: String,
        user_agent: String,
        rpc_node: String,
        p2p_node: String,
    },
    /// The node sent bytes that are not a valid message.
    P2pProtocol { detail: String },
    /// The chain could not be set up (funds, mining, transaction acceptance).
    Setup { detail: String },
    /// The node refused a transaction the suite offered (`sendrawtransaction`), one Bitcoin
    /// Core accepts in every policy mode: the node's reason, quoted.
    TxRefused {
        txid: String,
        bytes: usize,
        reason: String,
    },
    /// The committed vectors or record could not be read.
    Input { path: String, detail: String },
    /// No `--record` given, and no checkout to put it in.
    NoRecordPath { searched_from: String },
    /// The record could not be written; the previous file is untouched.
    Write { path: String, detail: String },
}

impl fmt::Display for RegenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegenError::BadAddress(address) => write!(
                f,
                "`{address}` is not a host:port address; pass e.g. 127.0.0.1:18443"
            ),
            RegenError::ResolveTimeout { address, timeout } => write!(
                f,
                "the host name of `{address}` did not resolve within {} s (the system's DNS \
                 resolver did not answer); pass an IP address, e.g. 127.0.0.1:18443",
                timeout.as_secs()
            ),
            RegenError::RpcUnreachable { address, detail } => write!(
                f,
                "no RPC server answers at {address} ({detail}): start the node in regtest with \
                 -server -rpcbind=127.0.0.1 -rpcport=<port>, or pass --rpc <host:port> matching \
                 its -rpcport"
            ),
            RegenError::RpcTimeout { address, timeout } => write!(
                f,
                "the RPC server at {address} did not answer within {}: the node may still be \
                 starting or is overloaded; retry, or raise --timeout",
                humantime::format_duration(*timeout)
            ),
            RegenError::RpcTls {
                address,
                cert_file,
                detail,
            } => write!(
                f,
                "no TLS session with the RPC server at {address} trusting {cert_file} ({detail}): \
                 pass the certificate the node serves (btcd writes it to rpc.cert, or --rpccert), \
                 or drop --rpc-cert for a node whose RPC is plain HTTP (Bitcoin Core)"
            ),
            RegenError::RpcCredentials { address } => write!(
                f,
                "the RPC server at {address} refused the credentials: pass --rpc-user and \
                 --rpc-password matching the node's -rpcuser/-rpcpassword, or --rpc-cookie \
                 <datadir>/regtest/.cookie"
            ),
            RegenError::RpcProtocol { address, detail } => write!(
                f,
                "{address} did not answer like a JSON-RPC server ({detail}): is --rpc the node's \
                 RPC port (-rpcport) and not its P2P port? (The Bitcoin SV node bans 127.0.0.1 \
                 for a request on its P2P port: `bitcoin-cli -regtest clearbanned` lifts it.)"
            ),
            RegenError::RpcCall {
                method,
                code,
                message,
            } => write!(f, "RPC `{method}` failed with code {code}: {message}"),
            RegenError::NotRegtest { chain } => write!(
                f,
                "the node runs the `{chain}` chain: regen mines blocks, so it only runs against a \
                 regtest node (start it with -regtest) or btcd's simnet (--simnet)"
            ),
            RegenError::BloomDisabled { services } => write!(
                f,
                "the node does not offer bloom filters (services 0x{services:x} lack NODE_BLOOM \
                 0x4): start it with -peerbloomfilters=1"
            ),
            RegenError::Banned { entries } => write!(
                f,
                "the node bans this machine ({entries}), so it will refuse P2P connections: run \
                 `bitcoin-cli -regtest clearbanned` (a connection with the wrong network magic \
                 gets 127.0.0.1 banned on the Bitcoin SV node)"
            ),
            RegenError::P2pUnreachable { address, detail } => write!(
                f,
                "no node accepts P2P connections at {address} ({detail}): start it with \
                 -listen=1 -bind=127.0.0.1:<port>, or pass --p2p <host:port> matching its -port"
            ),
            RegenError::WrongMagic { expected, received } => write!(
                f,
                "the node's messages start with network magic {} but --magic is {}: pass \
                 --magic {} (Bitcoin Core regtest fabfb5da, Bitcoin SV regtest dab5bffa)",
                encode(received),
                encode(expected),
                encode(received)
            ),
            RegenError::ClosedBeforeVersion { address, magic } => write!(
                f,
                "the node at {address} closed the connection before sending its version: either \
                 the network magic {} is wrong (pass --magic: Bitcoin Core regtest fabfb5da, \
                 Bitcoin SV regtest dab5bffa; then run `bitcoin-cli -regtest clearbanned`, as the \
                 Bitcoin SV node bans 127.0.0.1 for it), or --p2p is not the node's P2P port, \
                 or the node refuses this tool's user agent (a -banclientua word in it)",
                encode(magic)
            ),
            RegenError::Disconnected { during } => write!(
                f,
                "the node closed the connection unexpectedly during {during}: see the node's \
                 debug.log (start it with -debug=net) for the reason"
            ),
            RegenError::P2pTimeout {
                waiting_for,
                timeout,
            } => write!(
                f,
                "no {waiting_for} from the node within {}: is --p2p the node's P2P port? If \
                 the node is busy, raise --timeout",
                humantime::format_duration(*timeout)
            ),
            RegenError::P2pStalled { command, timeout } => write!(
                f,
                "the node did not read `{command}` within {}: is --p2p the node's P2P port? If \
                 the node is busy, raise --timeout",
                humantime::format_duration(*timeout)
            ),
            RegenError::DifferentNodes {
                rpc,
                p2p,
                user_agent,
                rpc_node,
                p2p_node,
            } => write!(
                f,
                "--rpc {rpc} and --p2p {p2p} reach two different nodes: the RPC node lists no \
                 peer with this run's user agent {user_agent} (RPC node: {rpc_node}; P2P node: \
                 {p2p_node}). regen mines over RPC and asks over P2P, so both must be the same \
                 node: pass its -rpcport to --rpc and its -port to --p2p"
            ),
            RegenError::P2pProtocol { detail } => {
                write!(f, "the node sent a malformed P2P message: {detail}")
            }
            RegenError::Setup { detail } => write!(f, "setting up the regtest chain: {detail}"),
            RegenError::TxRefused {
                txid,
                bytes,
                reason,
            } => write!(
                f,
                "the node refused the offered transaction {txid} ({bytes} bytes without \
                 witness): {reason}"
            ),
            RegenError::Input { path, detail } => write!(f, "cannot read {path}: {detail}"),
            RegenError::NoRecordPath { searched_from } => write!(
                f,
                "no --record given and no checkout found at or above {searched_from} (no \
                 vectors/live-node directory): run inside a bip37-conformance checkout, or pass \
                 --record FILE (or --vectors DIR for DIR/live-node/record.json)"
            ),
            RegenError::Write { path, detail } => write!(
                f,
                "cannot write {path}: {detail}; the previous file is unchanged"
            ),
        }
    }
}

impl std::error::Error for RegenError {}

impl RegenError {
    /// Whether this is the node saying it has no such RPC method: -32601 (JSON-RPC's "Method
    /// not found") or btcd's "Command unimplemented" (-1).
    pub fn is_unimplemented(&self) -> bool {
        match self {
            RegenError::RpcCall { code, message, .. } => {
                *code == -32601 || (*code == -1 && message.contains("unimplemented"))
            }
            _ => false,
        }
    }
}
