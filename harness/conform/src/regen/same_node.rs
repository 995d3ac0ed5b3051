//! Proof that `--rpc` and `--p2p` reach the same node, before anything is mined or probed.
//!
//! `regen` mines its blocks over RPC and asks about them over P2P: pointed at two different
//! regtest nodes, every filtered-block request asks one node about blocks only the other has,
//! and the run records nonsense (109 of 117 probes "disagreeing" was seen). Heights and tips
//! cannot tell two nodes apart (two fresh regtest nodes both hold only the genesis block, and
//! two linked nodes share their chain). So each run sends a user agent carrying a random
//! token (a BIP 14 comment, `/bip37-conform:0.1.0(run-<20 decimal digits>)/`) on its P2P
//! connections, and the RPC node's `getpeerinfo` must list a peer with that token: only the
//! node the P2P connection reached has seen it.
//!
//! The token is decimal, not hex: the Bitcoin SV node closes, before its `version`, every
//! connection whose user agent contains `abc`, `bch` or `cash` (its default `-banclientua`
//! list, case-insensitive), and a 16-digit hex token spells `abc` about once in 300 runs. Such
//! a run then failed at its first connection (`regen` and `node` with exit 2, CI's live-node
//! stage): the same run, shown a different token, passed.

use super::error::RegenError;
use super::payloads::NodeVersion;
use super::rpc::RpcClient;
use serde_json::{json, Value};
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

/// A token no other run (and no other node) knows: 64 bits from the process's random hash
/// keys and the clock.
pub fn run_token() -> String {
    let mut hasher = RandomState::new().build_hasher();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hasher.write_u128(nanos);
    hasher.write_u32(std::process::id());
    format!("{:020}", hasher.finish())
}

/// The user agent of a run's P2P connections: the tool's, with `token` as its comment.
/// Letters, digits and `/:.()-` only: nodes keep those unchanged in `getpeerinfo`.
pub fn user_agent(token: &str) -> String {
    format!("/bip37-conform:{}(run-{token})/", env!("CARGO_PKG_VERSION"))
}

/// Checks that the node answering at `rpc` has a P2P peer announcing `user_agent` (a
/// connection of this run, handshaken with the node that described itself as `p2p_node`).
pub fn check(
    rpc: &mut RpcClient,
    rpc_address: &str,
    p2p_address: &str,
    user_agent: &str,
    p2p_node: &NodeVersion,
) -> Result<(), RegenError> {
    let peers = rpc.call("getpeerinfo", json!([]))?;
    let announced = |peer: &Value| peer.get("subver").and_then(Value::as_str) == Some(user_agent);
    if peers
        .as_array()
        .is_some_and(|peers| peers.iter().any(announced))
    {
        return Ok(());
    }
    let network = super::network::network_info(rpc)?;
    let height = rpc.call("getblockcount", json!([]))?;
    Err(RegenError::DifferentNodes {
        rpc: rpc_address.to_string(),
        p2p: p2p_address.to_string(),
        user_agent: user_agent.to_string(),
        rpc_node: format!(
            "{}, {} blocks",
            if network.subversion.is_empty() {
                "?"
            } else {
                &network.subversion
            },
            height
        ),
        p2p_node: format!("{}, {} blocks", p2p_node.user_agent, p2p_node.start_height),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_token_spells_a_word_a_node_bans_in_user_agents() {
        // Bitcoin SV's default -banclientua: a user agent containing one is disconnected.
        for _ in 0..20_000 {
            let agent = user_agent(&run_token()).to_ascii_lowercase();
            for banned in ["abc", "bch", "cash"] {
                assert!(!agent.contains(banned), "{agent} contains {banned}");
            }
        }
    }

    #[test]
    fn tokens_differ_and_keep_to_characters_nodes_do_not_rewrite() {
        let (a, b) = (run_token(), run_token());
        assert_ne!(a, b);
        let agent = user_agent(&a);
        assert!(agent.len() < 256, "{agent}");
        assert!(
            agent
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "/:.()-".contains(c)),
            "{agent}"
        );
    }
}
