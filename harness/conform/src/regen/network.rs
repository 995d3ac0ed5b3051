//! The test networks `regen` and the node suite mine on, and what a node tells about itself over
//! RPC, where nodes differ.
//!
//! Bitcoin Core, the Bitcoin SV node and bcoin run regtest. btcd runs on its simulation network
//! instead (scripts/btcd-node.sh says why): as cheap to mine (proof-of-work limit 0x207fffff),
//! coinbases mature after 100 blocks as on regtest, but its own magic (`16 1c 14 12` on the wire)
//! and genesis, and a subsidy halving every 210,000 blocks instead of 150. btcd also has no
//! `getnetworkinfo` (it answers "Command unimplemented") and no ban list RPC (`listbanned`,
//! `clearbanned`): [`network_info`] falls back to its `getinfo`, and callers treat a missing
//! ban list as no ban ([`RegenError::is_unimplemented`]).

use super::error::RegenError;
use super::rpc::RpcClient;
use super::session::regtest_magic;
use serde_json::{json, Value};

/// btcd's simnet magic as it appears on the wire (0x12141c16 little-endian).
pub const SIMNET_MAGIC: [u8; 4] = [0x16, 0x1c, 0x14, 0x12];

/// A chain where blocks cost nothing to mine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestChain {
    /// Bitcoin Core's regtest (and its namesakes in SV, bcoin, btcd).
    Regtest,
    /// btcd's simulation network.
    Simnet,
}

impl TestChain {
    /// The chain the node runs, refusing every other (`regen` mines blocks).
    pub fn of(rpc: &mut RpcClient) -> Result<TestChain, RegenError> {
        let info = rpc.call("getblockchaininfo", json!([]))?;
        match info.get("chain").and_then(Value::as_str) {
            Some("regtest") => Ok(TestChain::Regtest),
            Some("simnet") => Ok(TestChain::Simnet),
            Some(chain) => Err(RegenError::NotRegtest {
                chain: chain.to_string(),
            }),
            None => Err(RegenError::Setup {
                detail: "getblockchaininfo did not name the chain".into(),
            }),
        }
    }

    /// Blocks between halvings of the subsidy.
    pub fn halving_interval(self) -> u64 {
        match self {
            TestChain::Regtest => 150,
            TestChain::Simnet => 210_000,
        }
    }

    /// The network magic of a node of this chain whose user agent is `subversion`.
    pub fn magic(self, subversion: &str) -> [u8; 4] {
        match self {
            TestChain::Regtest => regtest_magic(subversion),
            TestChain::Simnet => SIMNET_MAGIC,
        }
    }
}

/// What the node says of itself: `getnetworkinfo`, or btcd's `getinfo` where it has none.
#[derive(Debug, Clone, Default)]
pub struct NetworkInfo {
    /// The user agent (empty when the node does not say).
    pub subversion: String,
    pub version: i64,
    /// The services it offers, when it says.
    pub services: Option<u64>,
}

/// The node's [`NetworkInfo`].
pub fn network_info(rpc: &mut RpcClient) -> Result<NetworkInfo, RegenError> {
    let info = match rpc.call("getnetworkinfo", json!([])) {
        Ok(info) => info,
        Err(e) if e.is_unimplemented() => {
            let info = rpc.call("getinfo", json!([]))?;
            return Ok(NetworkInfo {
                version: info.get("version").and_then(Value::as_i64).unwrap_or(0),
                ..NetworkInfo::default()
            });
        }
        Err(e) => return Err(e),
    };
    Ok(NetworkInfo {
        subversion: info
            .get("subversion")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        version: info.get("version").and_then(Value::as_i64).unwrap_or(0),
        services: info
            .get("localservices")
            .and_then(Value::as_str)
            .and_then(|s| u64::from_str_radix(s, 16).ok()),
    })
}

/// The node's ban list, or `None` when it has no such RPC (btcd).
pub fn banned(rpc: &mut RpcClient) -> Result<Option<Vec<Value>>, RegenError> {
    match rpc.call("listbanned", json!([])) {
        Ok(list) => Ok(Some(list.as_array().cloned().unwrap_or_default())),
        Err(e) if e.is_unimplemented() => Ok(None),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simnet_has_its_own_magic_and_halving() {
        assert_eq!(
            TestChain::Simnet.magic("/btcwire:0.5.0/btcd:0.26.2/"),
            SIMNET_MAGIC
        );
        assert_eq!(
            TestChain::Regtest.magic("/btcd:0.26.2/"),
            [0xfa, 0xbf, 0xb5, 0xda]
        );
        assert_eq!(TestChain::Simnet.halving_interval(), 210_000);
        assert_eq!(TestChain::Regtest.halving_interval(), 150);
    }

    #[test]
    fn a_missing_method_is_told_from_a_failing_one() {
        let call = |code, message: &str| RegenError::RpcCall {
            method: "getnetworkinfo".into(),
            code,
            message: message.into(),
        };
        // btcd's answer to getnetworkinfo, and JSON-RPC's unknown method (btcd's listbanned).
        assert!(call(-1, "Command unimplemented").is_unimplemented());
        assert!(call(-32601, "Method not found").is_unimplemented());
        assert!(!call(-1, "database is locked").is_unimplemented());
        assert!(!call(-26, "tx-size-small").is_unimplemented());
    }
}
