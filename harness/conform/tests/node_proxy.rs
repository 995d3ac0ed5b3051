//! The node suite catches a broken node and names the right check and bug class: a small TCP
//! proxy between the suite and a real regtest node that either passes everything through, or
//! breaks the node's BIP 37 serving in one way:
//!
//! - `UnfilteredRelay`: the proxy keeps its own connection to the node (relay on, no filter)
//!   and forwards every transaction `inv` the node sends there to every peer behind it, whatever
//!   their filter or relay flag, as a node that ignores filters when relaying would;
//! - `SwallowOversizedFilter`: a `filterload` of more than 36,000 filter bytes is dropped
//!   instead of forwarded, so the node never sees it and keeps the peer, as a node without the
//!   size check would.
//!
//! The tests need the node, so they are `#[ignore]`d; `scripts/live-node.sh` runs them with the
//! environment of `regen_live_node.rs` (`BIP37_REGEN_RPC`, `BIP37_REGEN_P2P`,
//! `BIP37_REGEN_RPC_USER`, `BIP37_REGEN_RPC_PASSWORD`) naming a node with NODE_BLOOM.

use bip37_conform::node::suite::{run, Options};
use bip37_conform::regen::message::{read_message, Message};
use bip37_conform::regen::peer::{Peer, PeerConfig, USER_AGENT};
use bip37_conform::regen::rpc::{RpcClient, RpcConfig};
use bip37_conform::regen::session::regtest_magic;
use bip37_harness::runner::{Run, Selection, State};
use std::collections::BTreeMap;
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mutation {
    None,
    UnfilteredRelay,
    SwallowOversizedFilter,
}

/// The largest filter a node accepts, in bytes.
const MAX_FILTER_BYTES: usize = 36_000;

struct Node {
    rpc: RpcConfig,
    p2p: String,
    magic: [u8; 4],
}

fn node() -> Node {
    let var = |name: &str| std::env::var(name).ok();
    let (Some(rpc), Some(p2p)) = (var("BIP37_REGEN_RPC"), var("BIP37_REGEN_P2P")) else {
        panic!("set BIP37_REGEN_RPC and BIP37_REGEN_P2P to a running regtest node");
    };
    let rpc = RpcConfig {
        address: rpc,
        user: var("BIP37_REGEN_RPC_USER").unwrap_or_default(),
        password: var("BIP37_REGEN_RPC_PASSWORD").unwrap_or_default(),
        timeout: Duration::from_secs(120),
    };
    let info = RpcClient::new(rpc.clone())
        .call("getnetworkinfo", serde_json::json!([]))
        .unwrap();
    let magic = regtest_magic(info["subversion"].as_str().unwrap_or_default());
    Node { rpc, p2p, magic }
}

/// The writers towards the suite's connections, for injected messages.
type Clients = Arc<Mutex<Vec<Arc<Mutex<TcpStream>>>>>;

/// Starts the proxy in front of `node` and returns its address.
fn proxy(node: &Node, mutation: Mutation) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let clients: Clients = Arc::default();
    if mutation == Mutation::UnfilteredRelay {
        spy(node, clients.clone());
    }
    let (upstream, magic) = (node.p2p.clone(), node.magic);
    thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(client) = client else { break };
            let Ok(server) = TcpStream::connect(&upstream) else {
                continue;
            };
            let to_client = Arc::new(Mutex::new(client.try_clone().unwrap()));
            clients.lock().unwrap().push(to_client.clone());
            let server_writer = server.try_clone().unwrap();
            // Suite -> node, with the filterload mutation.
            thread::spawn(move || {
                pump(client, server_writer, magic, |m| match mutation {
                    Mutation::SwallowOversizedFilter => !oversized_filterload(m),
                    _ => true,
                })
            });
            // Node -> suite, unchanged.
            thread::spawn(move || {
                let mut server = server;
                while let Ok(message) = read_message(&mut server, magic) {
                    let bytes = message.encode(magic);
                    if to_client.lock().unwrap().write_all(&bytes).is_err() {
                        break;
                    }
                }
                let _ = to_client.lock().unwrap().shutdown(std::net::Shutdown::Both);
            });
        }
    });
    address
}

/// Copies messages from `from` to `to` while `forward` says so; closes `to` at the end.
fn pump(
    mut from: TcpStream,
    mut to: TcpStream,
    magic: [u8; 4],
    forward: impl Fn(&Message) -> bool,
) {
    while let Ok(message) = read_message(&mut from, magic) {
        if forward(&message) && to.write_all(&message.encode(magic)).is_err() {
            break;
        }
    }
    let _ = to.shutdown(std::net::Shutdown::Both);
}

/// A `filterload` whose filter is over the limit (its payload: a CompactSize length, the
/// filter, 9 bytes of parameters).
fn oversized_filterload(message: &Message) -> bool {
    message.command == "filterload" && message.payload.len() > MAX_FILTER_BYTES + 3 + 9
}

/// The proxy's own peer of the node, relay on and no filter: every transaction `inv` it gets
/// is sent on to every connection behind the proxy.
fn spy(node: &Node, clients: Clients) {
    let config = PeerConfig {
        address: node.p2p.clone(),
        magic: node.magic,
        timeout: Duration::from_secs(30),
        user_agent: USER_AGENT.into(),
    };
    let mut peer = Peer::connect_relaying(&config, true).unwrap();
    let magic = node.magic;
    thread::spawn(move || loop {
        let deadline = Instant::now() + Duration::from_secs(3600);
        let Ok(message) = peer.receive(deadline, "invs") else {
            break;
        };
        if message.command == "inv" {
            let bytes = message.encode(magic);
            for client in clients.lock().unwrap().iter() {
                let _ = client.lock().unwrap().write_all(&bytes);
            }
        }
    });
}

/// One suite run at a time: runs mine on the same chain.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
/// The node's own failures, from one run without a proxy.
static DIRECT: OnceLock<BTreeMap<String, String>> = OnceLock::new();

fn suite(p2p: Option<String>, node: &Node) -> Run {
    let options = Options {
        rpc: node.rpc.clone(),
        p2p: p2p.unwrap_or_else(|| node.p2p.clone()),
        magic: Some(node.magic),
        timeout: Duration::from_secs(30),
        announce_timeout: Duration::from_secs(60),
        settle: Duration::from_secs(3),
        selection: Selection::default(),
    };
    run(&options, &mut std::io::stderr()).unwrap()
}

/// The checks that fail through a proxy with `mutation` and do not fail against the node
/// itself (its own deviations are not the proxy's), with their diagnoses.
fn new_failures(mutation: Mutation) -> BTreeMap<String, String> {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let node = node();
    let direct = DIRECT.get_or_init(|| failures(&suite(None, &node)));
    let proxied = failures(&suite(Some(proxy(&node, mutation)), &node));
    proxied
        .into_iter()
        .filter(|(id, diagnosis)| direct.get(id) != Some(diagnosis))
        .collect()
}

/// The checks that did not pass, with their diagnoses.
fn failures(run: &Run) -> BTreeMap<String, String> {
    assert!(run.results.iter().any(|r| r.state == State::Pass));
    run.results
        .iter()
        .filter(|r| r.state.is_failure())
        .map(|r| {
            (
                r.test.case.id.clone(),
                r.diagnosis.clone().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
#[ignore = "needs a regtest node: BIP37_REGEN_RPC, BIP37_REGEN_P2P (scripts/live-node.sh)"]
fn through_a_faithful_proxy_every_check_reads_as_against_the_node() {
    assert_eq!(new_failures(Mutation::None), BTreeMap::new());
}

#[test]
#[ignore = "needs a regtest node: BIP37_REGEN_RPC, BIP37_REGEN_P2P (scripts/live-node.sh)"]
fn unfiltered_relay_fails_the_relay_checks_as_a_missing_filter() {
    let failed = new_failures(Mutation::UnfilteredRelay);
    let unfiltered = "MISSING_CHECK: announces every transaction regardless of the filter";
    let must = [
        ("node/relay/filter-announces-only-matching", unfiltered),
        ("node/version/relay-0-filterload-enables", unfiltered),
        (
            "node/version/relay-0-silent-before-filter",
            "MISSING_STEP: fRelay=0 is ignored",
        ),
    ];
    for (id, diagnosis) in must {
        let got = failed
            .get(id)
            .unwrap_or_else(|| panic!("{id} passed: {failed:#?}"));
        assert!(got.starts_with(diagnosis), "{id}: {got}");
    }
    // Two more checks may see the injected announcements, each diagnosed for what it saw: a
    // node that ignores a filteradd without a filter (Core disconnects) keeps relay off, so the
    // injected invs read as relay turned on; and the mempool check's own transactions may
    // still be announced to the proxy's peer after the checked peer connected.
    let may = [
        (
            "node/version/relay-0-filteradd-does-not-enable",
            "MISSING_STEP: filteradd turns relay on, unfiltered",
        ),
        (
            "node/mempool/filter-announces-only-matching",
            "MISSING_CHECK: the mempool reply ignores the filter",
        ),
    ];
    for (id, diagnosis) in may {
        if let Some(got) = failed.get(id) {
            assert!(got.starts_with(diagnosis), "{id}: {got}");
        }
    }
    let allowed = must.iter().chain(&may).count();
    assert!(
        failed
            .keys()
            .all(|id| must.iter().chain(&may).any(|(m, _)| m == id)),
        "only the relay checks may fail ({allowed} at most): {failed:#?}"
    );
}

#[test]
#[ignore = "needs a regtest node: BIP37_REGEN_RPC, BIP37_REGEN_P2P (scripts/live-node.sh)"]
fn a_swallowed_oversized_filter_fails_exactly_the_size_check() {
    let failed = new_failures(Mutation::SwallowOversizedFilter);
    assert_eq!(
        failed.keys().collect::<Vec<_>>(),
        ["node/filterload/oversized-36001-disconnects"],
        "{failed:#?}"
    );
    assert!(
        failed["node/filterload/oversized-36001-disconnects"]
            .starts_with("MISSING_CHECK: an oversized filter is served"),
        "{failed:#?}"
    );
}
