//! The limits and the misbehaviour rules, each on a fresh connection: send the messages, then
//! `ping`; the node either answers (`pong`) or closes the connection first. After an expected
//! disconnect the next probe reconnects (Core disconnects a local peer without banning it;
//! should a node ban 127.0.0.1 anyway, the ban is cleared over RPC and the connection retried).
//!
//! What Core does decides `agreesWithReference`: the reference's own limits say whether the
//! `filterload` / `filteradd` is acceptable. Behaviour nodes legitimately differ on
//! (`filteradd` with no filter, a filtered-block request with no filter loaded or after
//! `filterclear`, the empty filter) is returned separately: recorded per node and reported,
//! never counted as a mismatch.

use super::Findings;
use crate::regen::chain::MinedBlock;
use crate::regen::error::RegenError;
use crate::regen::payloads;
use crate::regen::peer::{Peer, PeerConfig, Reply};
use crate::regen::predict::{node_matched, predict};
use crate::regen::record::ProbeRecord;
use crate::regen::rpc::RpcClient;
use bip37_reference::limits::{MAX_FILTERADD_BYTES, MAX_FILTER_BYTES, MAX_HASH_FUNCS};
use bip37_reference::{FilterAdd, FilterLoad};
use serde_json::{json, Value};

/// A message of a probe.
enum Send {
    Load(FilterLoad),
    Add(Vec<u8>),
    Clear,
    GetFilteredBlock,
}

impl Send {
    fn command_and_payload(&self, block: &MinedBlock) -> (&'static str, Vec<u8>) {
        match self {
            Send::Load(load) => ("filterload", load.encode()),
            Send::Add(data) => ("filteradd", FilterAdd { data: data.clone() }.encode()),
            Send::Clear => ("filterclear", Vec::new()),
            Send::GetFilteredBlock => ("getdata", payloads::getdata_filtered_block(&block.hash)),
        }
    }

    /// Whether Core keeps the connection after this message (the reference's limits).
    fn acceptable(&self, filter_loaded: bool) -> bool {
        match self {
            Send::Load(load) => load.check_limits().is_ok(),
            Send::Add(data) => {
                filter_loaded && FilterAdd { data: data.clone() }.check_limits().is_ok()
            }
            Send::Clear | Send::GetFilteredBlock => true,
        }
    }
}

fn filter(bytes: u32, hash_funcs: u32, flags: u8) -> FilterLoad {
    FilterLoad {
        data: vec![0x5a; bytes as usize],
        hash_funcs,
        tweak: 0,
        flags,
    }
}

/// What the node did with a probe's messages.
fn outcome(reply: &Reply, block: &MinedBlock) -> Value {
    match reply {
        Reply::Disconnected => json!("disconnected"),
        Reply::Answered(messages) if messages.is_empty() => json!("answered nothing before pong"),
        Reply::Answered(messages) => {
            let commands: Vec<&str> = messages.iter().map(|m| m.command.as_str()).collect();
            json!({"sent": commands, "matchedTransactions": node_matched(block, reply).len()})
        }
    }
}

struct Probe {
    id: &'static str,
    what: &'static str,
    messages: Vec<Send>,
}

/// Runs the limit probes against `block` (a block of several transactions) and returns the
/// node-independent ones and the node-specific ones.
pub fn run(
    rpc: &mut RpcClient,
    config: &PeerConfig,
    block: &MinedBlock,
    findings: &mut Findings,
) -> Result<(Vec<ProbeRecord>, Vec<ProbeRecord>), RegenError> {
    let small = || filter(64, 5, 0);
    let limits = vec![
        Probe {
            id: "limits/filterload-36000-bytes-50-funcs",
            what: "the largest filter Core accepts",
            messages: vec![Send::Load(filter(MAX_FILTER_BYTES, MAX_HASH_FUNCS, 0))],
        },
        Probe {
            id: "limits/filterload-36001-bytes",
            what: "one byte over the filter limit: disconnect",
            messages: vec![Send::Load(filter(MAX_FILTER_BYTES + 1, 1, 0))],
        },
        Probe {
            id: "limits/filterload-51-funcs",
            what: "one hash function over the limit: disconnect",
            messages: vec![Send::Load(filter(64, MAX_HASH_FUNCS + 1, 0))],
        },
        Probe {
            id: "limits/filterload-flags-0xff",
            what: "every nFlags byte is accepted (only the low two bits count)",
            messages: vec![Send::Load(filter(64, 5, 0xff))],
        },
        Probe {
            id: "limits/filteradd-520-bytes",
            what: "the largest element filteradd accepts",
            messages: vec![Send::Load(small()), Send::Add(vec![7; MAX_FILTERADD_BYTES])],
        },
        Probe {
            id: "limits/filteradd-521-bytes",
            what: "one byte over the filteradd limit: disconnect",
            messages: vec![
                Send::Load(small()),
                Send::Add(vec![7; MAX_FILTERADD_BYTES + 1]),
            ],
        },
        Probe {
            id: "limits/filteradd-0-bytes",
            what: "an empty filteradd is accepted",
            messages: vec![Send::Load(small()), Send::Add(Vec::new())],
        },
        Probe {
            id: "limits/filterclear-without-filter",
            what: "filterclear with no filter loaded is accepted",
            messages: vec![Send::Clear],
        },
        Probe {
            id: "limits/hash-funcs-0-matches-all",
            what: "a filter with bytes but no hash functions matches every transaction",
            messages: vec![Send::Load(filter(64, 0, 0)), Send::GetFilteredBlock],
        },
    ];
    let per_node = vec![
        Probe { id: "node/getdata-without-filter", what: "a filtered-block request with no filter ever loaded (Core 30: no reply; Bitcoin SV: a merkleblock matching everything)", messages: vec![Send::GetFilteredBlock] },
        Probe { id: "node/filteradd-without-filter", what: "filteradd with no filter loaded (Core 30: disconnect; Bitcoin SV, bcoin: ignored)", messages: vec![Send::Add(vec![7; 20])] },
        Probe { id: "node/getdata-after-filterclear", what: "a filtered-block request after filterclear (Core 30: no reply; Bitcoin SV: a merkleblock matching everything; bcoin: one matching nothing)", messages: vec![Send::Load(small()), Send::Clear, Send::GetFilteredBlock] },
        Probe { id: "node/empty-filter", what: "a 0-byte filter (Core 30 and Bitcoin SV: matches everything; bcoin: nothing)", messages: vec![Send::Load(filter(0, 1, 0)), Send::GetFilteredBlock] },
    ];
    let mut run_all = |probes: Vec<Probe>, counted: bool, findings: &mut Findings| {
        probes
            .into_iter()
            .map(|p| run_one(rpc, config, block, p, counted, findings))
            .collect::<Result<Vec<_>, _>>()
    };
    let counted = run_all(limits, true, findings)?;
    let node = run_all(per_node, false, findings)?;
    Ok((counted, node))
}

fn run_one(
    rpc: &mut RpcClient,
    config: &PeerConfig,
    block: &MinedBlock,
    probe: Probe,
    counted: bool,
    findings: &mut Findings,
) -> Result<ProbeRecord, RegenError> {
    let mut peer = connect(rpc, config)?;
    let mut filter_loaded = false;
    let mut core_keeps_connection = true;
    let mut predicted_filter = None;
    for message in &probe.messages {
        core_keeps_connection &= message.acceptable(filter_loaded);
        match message {
            Send::Load(load) if load.check_limits().is_ok() => {
                filter_loaded = true;
                predicted_filter = Some(load.clone().into_filter());
            }
            Send::Clear => {
                filter_loaded = false;
                predicted_filter = None;
            }
            _ => {}
        }
        let (command, payload) = message.command_and_payload(block);
        // A send error means the node already hung up; the barrier reports it.
        if peer.send(command, payload).is_err() {
            break;
        }
    }
    let reply = peer.barrier()?;
    let observed = outcome(&reply, block);
    let asks_block = probe
        .messages
        .iter()
        .any(|m| matches!(m, Send::GetFilteredBlock));
    let expected = match (core_keeps_connection, asks_block, predicted_filter) {
        (false, _, _) => Reply::Disconnected,
        (true, false, _) | (true, true, None) => Reply::Answered(Vec::new()),
        (true, true, Some(mut filter)) => Reply::Answered(
            predict(&mut filter, block)
                .map_err(|detail| RegenError::Setup { detail })?
                .messages,
        ),
    };
    let agrees = reply == expected;
    let core = outcome(&expected, block);
    if !agrees {
        let line = format!("the node's answer was {observed}, Core's is {core}");
        if counted {
            findings.disagree(probe.id, line);
        } else {
            findings.note(format!("{} (node-specific, not counted): {line}", probe.id));
        }
    }
    Ok(ProbeRecord {
        id: probe.id.to_string(),
        what: probe.what.to_string(),
        confirms: Vec::new(),
        input: Value::Null,
        observed,
        agrees_with_reference: agrees,
    })
}

/// A fresh connection; if the node refuses it after the previous probe's disconnect (a node
/// that bans loopback peers), clears the bans over RPC and tries once more.
fn connect(rpc: &mut RpcClient, config: &PeerConfig) -> Result<Peer, RegenError> {
    connect_relaying(rpc, config, false)
}

/// `connect` with the `version`'s relay flag as given (the node suite's connections).
pub fn connect_relaying(
    rpc: &mut RpcClient,
    config: &PeerConfig,
    relay: bool,
) -> Result<Peer, RegenError> {
    match Peer::connect_relaying(config, relay) {
        Ok(peer) => Ok(peer),
        Err(
            refused @ (RegenError::ClosedBeforeVersion { .. } | RegenError::Disconnected { .. }),
        ) => match rpc.call("clearbanned", json!([])) {
            Ok(_) => Peer::connect_relaying(config, relay),
            // No ban list to clear (btcd): the refusal stands.
            Err(e) if e.is_unimplemented() => Err(refused),
            Err(e) => Err(e),
        },
        Err(e) => Err(e),
    }
}
