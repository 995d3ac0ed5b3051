//! The node as the suite reaches it: RPC for setup (coins, the mempool) and fresh P2P
//! connections for the checks, with the two ways an answer is waited for.
//!
//! A reaction is read at a `ping` barrier: the node answers `pong` (it kept the connection) or
//! closes the connection first. An announcement has no barrier: a node sends `inv`s on its own
//! timer (Core trickles them to inbound peers on one shared Poisson timer, 5 s on average). So
//! absence is shown against a control: a second connection with relay on and no filter, which
//! must be told of every offered transaction. Once the control has seen them all, the checked
//! connection (an inbound peer on the same timer) has had its chance; it is given `settle` more
//! time, then a barrier, and what it was not told by then counts as not announced.

use crate::regen::chain::{self, Coin, Lock};
use crate::regen::error::RegenError;
use crate::regen::message::Message;
use crate::regen::peer::{Peer, PeerConfig, Reply};
use crate::regen::probes::limits::connect_relaying;
use crate::regen::rpc::RpcClient;
use bip37_reference::compact_size;
use bip37_reference::sha256::Hash256;
use bip37_reference::tx::{OutPoint, Transaction};
use serde_json::json;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// The fee every offered transaction pays: far above any node's minimum relay fee for the
/// ~100 bytes they take.
pub const FEE: i64 = 20_000;
/// `inv` types of a transaction: by txid, and by wtxid (never negotiated here: we send no
/// `wtxidrelay`, so a node announces txids).
const MSG_TX: u32 = 1;
const MSG_WTX: u32 = 5;
/// The most entries of one `inv` read (Core's MAX_INV_SZ).
const MAX_INV_ENTRIES: u64 = 50_000;

/// The node under test.
pub struct Link {
    pub rpc: RpcClient,
    pub config: PeerConfig,
    /// Funded coins not spent yet, for blocks the suite mines (`OP_TRUE`: no scriptSig).
    pub coins: Vec<Coin>,
    /// Funded P2SH coins not spent yet, for the transactions offered to the mempool: standard
    /// in Bitcoin Core whatever its policy flags ([`chain::P2SH_TRUE`]).
    pub relay_coins: Vec<Coin>,
    /// The longest wait for an announcement a conforming node must make.
    pub announce_timeout: Duration,
    /// The time given after the control was told, before absence is concluded.
    pub settle: Duration,
    /// This run's token: mixed into every element, so that no transaction of an earlier run
    /// still in the mempool matches a filter of this one.
    pub token: String,
}

/// What a watched connection was told.
#[derive(Debug, Default)]
pub struct Watched {
    pub announced: BTreeSet<Hash256>,
    pub disconnected: bool,
}

impl Link {
    /// A fresh connection (bans of loopback cleared over RPC should the node ban it).
    pub fn connect(&mut self, relay: bool) -> Result<Peer, RegenError> {
        connect_relaying(&mut self.rpc, &self.config, relay)
    }

    /// Sends one message and waits for the barrier: true if the node kept the connection.
    pub fn kept_after(
        peer: &mut Peer,
        command: &str,
        payload: Vec<u8>,
    ) -> Result<bool, RegenError> {
        if peer.send(command, payload).is_err() {
            return Ok(false);
        }
        Ok(peer.barrier()? != Reply::Disconnected)
    }

    /// Whether 127.0.0.1 is banned now (then the bans are cleared for the next check); false
    /// for a node without a ban list RPC (btcd, run with --nobanning).
    pub fn banned(&mut self) -> Result<bool, RegenError> {
        let any = crate::regen::network::banned(&mut self.rpc)?.is_some_and(|a| !a.is_empty());
        if any {
            self.rpc.call("clearbanned", json!([]))?;
        }
        Ok(any)
    }

    /// A transaction that spends a funded P2SH coin to `script` (value less [`FEE`]).
    pub fn pay_to(&mut self, script: Vec<u8>) -> Result<Transaction, RegenError> {
        let coin = chain::take_coin(&mut self.relay_coins)?;
        spend_with_fee(&coin, &chain::P2SH_TRUE, script)
    }

    /// Offers `txs` to the node's mempool in order (`sendrawtransaction`); a refusal quotes the
    /// node's own reason (Core's reject reason names the rule: `tx-size-small`, ...).
    pub fn offer(&mut self, txs: &[&Transaction]) -> Result<(), RegenError> {
        for tx in txs {
            let bytes = tx.encode();
            match self.rpc.call(
                "sendrawtransaction",
                json!([bip37_harness::hex::encode(&bytes)]),
            ) {
                Ok(_) => {}
                Err(RegenError::RpcCall { code, message, .. }) => {
                    let mut txid = tx.txid();
                    txid.reverse();
                    return Err(RegenError::TxRefused {
                        txid: bip37_harness::hex::encode(txid),
                        bytes: tx.encode_without_witness().len(),
                        reason: format!("RPC error {code}: {message}"),
                    });
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Whether the node still answers RPC: false when it is gone (nothing listens, or no
    /// answer in time), as after a crash.
    pub fn alive(&mut self) -> bool {
        !matches!(
            self.rpc.call("getblockcount", json!([])),
            Err(RegenError::RpcUnreachable { .. } | RegenError::RpcTimeout { .. })
        )
    }

    /// Waits until `control` was told of every one of `txids`; an error names the timeout.
    pub fn await_control(&self, control: &mut Peer, txids: &[Hash256]) -> Result<(), RegenError> {
        let want: BTreeSet<Hash256> = txids.iter().copied().collect();
        let watched = watch(control, Instant::now() + self.announce_timeout, |seen| {
            want.is_subset(seen)
        })?;
        if watched.disconnected || !want.is_subset(&watched.announced) {
            return Err(RegenError::P2pTimeout {
                waiting_for: format!(
                    "the announcement of {} offered transactions to a control peer with relay \
                     on and no filter ({} announced{})",
                    want.len(),
                    want.intersection(&watched.announced).count(),
                    if watched.disconnected {
                        ", then it disconnected"
                    } else {
                        ""
                    }
                ),
                timeout: self.announce_timeout,
            });
        }
        Ok(())
    }

    /// What `peer` is told within `settle` more, ended by a barrier.
    pub fn settle(&self, peer: &mut Peer) -> Result<Watched, RegenError> {
        let mut watched = watch(peer, Instant::now() + self.settle, |_| false)?;
        finish(peer, &mut watched)?;
        Ok(watched)
    }

    /// What `peer` is told until its first `inv` (at most `announce_timeout`), then `settle`
    /// more, ended by a barrier: the reply to a `mempool` message comes in one go.
    pub fn first_inv_then_settle(&self, peer: &mut Peer) -> Result<Watched, RegenError> {
        let mut watched = watch(peer, Instant::now() + self.announce_timeout, |seen| {
            !seen.is_empty()
        })?;
        if !watched.disconnected {
            let more = self.settle(peer)?;
            watched.announced.extend(more.announced);
            watched.disconnected = more.disconnected;
        }
        Ok(watched)
    }
}

/// The P2SH `coin` (redeem script `redeem`) spent to `script` with [`FEE`] left to the miner.
pub fn spend_with_fee(
    coin: &Coin,
    redeem: &[u8],
    script: Vec<u8>,
) -> Result<Transaction, RegenError> {
    let less = Coin {
        value: coin.value - FEE,
        ..*coin
    };
    chain::spend(&less, Some(redeem), vec![script])
}

/// Output `vout` of `tx`, a P2SH output, as a coin.
pub fn output_coin(tx: &Transaction, vout: u32) -> Coin {
    Coin {
        outpoint: OutPoint {
            txid: tx.txid(),
            vout,
        },
        value: tx.outputs[vout as usize].value,
        lock: Lock::P2sh,
    }
}

/// Reads messages until `done(announced so far)` or `deadline`, collecting announced txids.
fn watch(
    peer: &mut Peer,
    deadline: Instant,
    done: impl Fn(&BTreeSet<Hash256>) -> bool,
) -> Result<Watched, RegenError> {
    let mut watched = Watched::default();
    while !done(&watched.announced) {
        match peer.receive(deadline, "announcements") {
            Ok(message) => watched.announced.extend(inv_txids(&message)?),
            Err(RegenError::P2pTimeout { .. }) => break,
            Err(RegenError::Disconnected { .. }) => {
                watched.disconnected = true;
                break;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(watched)
}

/// Ends a watch with a barrier, keeping the `inv`s that arrive before the `pong`.
fn finish(peer: &mut Peer, watched: &mut Watched) -> Result<(), RegenError> {
    if watched.disconnected {
        return Ok(());
    }
    match peer.barrier_keeping(&["inv"])? {
        Reply::Disconnected => watched.disconnected = true,
        Reply::Answered(messages) => {
            for message in &messages {
                watched.announced.extend(inv_txids(message)?);
            }
        }
    }
    Ok(())
}

/// The transaction hashes an `inv` announces (none for any other message).
pub fn inv_txids(message: &Message) -> Result<Vec<Hash256>, RegenError> {
    if message.command != "inv" {
        return Ok(Vec::new());
    }
    let malformed = |detail: String| RegenError::P2pProtocol {
        detail: format!("an inv: {detail}"),
    };
    let mut input = &message.payload[..];
    let count = compact_size::read(&mut input).map_err(|e| malformed(e.to_string()))?;
    if count > MAX_INV_ENTRIES || count.saturating_mul(36) != input.len() as u64 {
        return Err(malformed(format!(
            "{count} entries in {} bytes",
            input.len()
        )));
    }
    Ok(input
        .chunks_exact(36)
        .filter(|entry| {
            let kind = u32::from_le_bytes([entry[0], entry[1], entry[2], entry[3]]);
            kind == MSG_TX || kind == MSG_WTX
        })
        .map(|entry| {
            let mut hash = [0u8; 32];
            hash.copy_from_slice(&entry[4..]);
            hash
        })
        .collect())
}

/// The node's services as `getnetworkinfo` reports them, for messages.
pub fn local_services(rpc: &mut RpcClient) -> Result<String, RegenError> {
    let info = crate::regen::network::network_info(rpc)?;
    Ok(info
        .services
        .map_or_else(|| "?".to_string(), |s| format!("{s:016x}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inv(entries: &[(u32, u8)]) -> Message {
        let mut payload = Vec::new();
        compact_size::write(&mut payload, entries.len() as u64);
        for (kind, byte) in entries {
            payload.extend_from_slice(&kind.to_le_bytes());
            payload.extend_from_slice(&[*byte; 32]);
        }
        Message::new("inv", payload)
    }

    #[test]
    fn invs_name_transactions_and_skip_blocks() {
        let txids = inv_txids(&inv(&[(1, 7), (2, 8), (5, 9)])).unwrap();
        assert_eq!(txids, vec![[7; 32], [9; 32]]);
        assert!(inv_txids(&Message::new("tx", vec![1])).unwrap().is_empty());
    }

    #[test]
    fn a_lying_inv_count_is_refused_without_allocating() {
        let mut message = inv(&[(1, 7)]);
        message.payload[0] = 0xfd;
        assert!(inv_txids(&message).is_err());
        let mut huge = vec![0xfe, 0xff, 0xff, 0xff, 0xff];
        huge.extend_from_slice(&[0; 36]);
        assert!(inv_txids(&Message::new("inv", huge)).is_err());
    }
}
