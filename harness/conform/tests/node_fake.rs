//! The whole node suite against a fake node, to hold the suite's own conduct (not a node's):
//!
//! - every transaction any check builds, offered to the mempool or mined in a block, is at
//!   least 65 bytes without witness (`tx-size-small`, in every policy mode), and every one it
//!   offers to a mempool is standard (Core's default policy, [`core_policy`]). The list is
//!   what the suite itself sends, so a new check is covered;
//! - a node that refuses one setup transaction fails that check alone, with the node's reason
//!   (not a guess about `-acceptnonstdtxn`), and the run goes on to a full report;
//! - a node that crashes (its RPC and P2P ports close) fails the check it was in as a crash,
//!   naming the message sent just before, even where a disconnect is the expected answer;
//! - a node that stops taking P2P connections while its RPC answers (as one that bans the
//!   suite's address does) fails each later check with the refused connection named, and the
//!   run still ends in a full report: the node's conduct, not an error of the harness;
//! - a check expected to crash the node runs after all the others, so that they still run.
//!
//! The fake answers RPC as a regtest node does (it keeps the tip of the blocks submitted to it)
//! and keeps every P2P connection, answering each `ping` with its `pong` and nothing else: it
//! announces nothing and serves no filtered block, so most checks fail or time out, which is
//! beside the point here.

mod core_policy;
mod regen_fakes;

use bip37_conform::node::suite::{run, Options};
use bip37_conform::regen::rpc::RpcConfig;
use bip37_harness::runner::{Run, Selection, State};
use bip37_reference::tx::Transaction;
use bip37_reference::Block;
use regen_fakes::*;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// What the fake saw and how it behaves.
#[derive(Default)]
struct Chain {
    /// Blocks on top of genesis, and the tip's hash (internal byte order).
    height: u64,
    tip: [u8; 32],
    /// Every transaction offered with `sendrawtransaction`, and every one mined (coinbases
    /// left out: they never pass a mempool's policy).
    offered: Vec<Transaction>,
    mined: Vec<Transaction>,
    /// The user agents of the P2P peers (for `getpeerinfo`).
    agents: Vec<String>,
    /// Refuse the offer with this index (0 = the first), as a node's policy would.
    refuse_offer: Option<usize>,
}

/// What the fake does on a `filterload` longer than a limit.
#[derive(Clone, Copy)]
enum Reaction {
    /// Both ports close, as a dead process's do.
    Crash,
    /// The peer is dropped and the P2P port closes; RPC goes on answering.
    Ban,
}

struct Fake {
    chain: Arc<Mutex<Chain>>,
    crashed: Arc<AtomicBool>,
    rpc: String,
    p2p: String,
}

fn display_hex(hash: [u8; 32]) -> String {
    let mut hash = hash;
    hash.reverse();
    bip37_harness::hex::encode(hash)
}

fn answer(chain: &Mutex<Chain>, method: &str, params: &Value) -> Result<Value, (i64, String)> {
    let mut chain = chain.lock().unwrap();
    Ok(match method {
        "getblockchaininfo" => json!({
            "chain": "regtest", "blocks": chain.height,
            "bestblockhash": display_hex(chain.tip), "mediantime": 1_700_000_000u64,
        }),
        "getnetworkinfo" => json!({
            "subversion": "/Satoshi:30.99.0/", "version": 309900, "localservices": "0000000000000c0d",
        }),
        "getpeerinfo" => Value::Array(
            chain
                .agents
                .iter()
                .map(|agent| json!({ "subver": agent }))
                .collect(),
        ),
        "getblockheader" => json!({ "bits": "207fffff" }),
        "getblockcount" => json!(chain.height),
        "listbanned" => json!([]),
        "clearbanned" => Value::Null,
        "submitblock" => {
            let hex = params[0].as_str().unwrap_or_default();
            let block = Block::decode(&bip37_harness::hex::Hex::parse(hex).unwrap().0).unwrap();
            chain.height += 1;
            chain.tip = block.header.hash();
            chain.mined.extend(block.transactions.into_iter().skip(1));
            Value::Null
        }
        "sendrawtransaction" => {
            let hex = params[0].as_str().unwrap_or_default();
            let tx = Transaction::decode(&bip37_harness::hex::Hex::parse(hex).unwrap().0).unwrap();
            let index = chain.offered.len();
            chain.offered.push(tx.clone());
            if chain.refuse_offer == Some(index) {
                return Err((-26, "mempool-policy-of-the-fake".into()));
            }
            json!(display_hex(tx.txid()))
        }
        other => return Err((-32601, format!("Method not found: {other}"))),
    })
}

/// Serves JSON-RPC until the fake crashes; then the listener is dropped (connections are
/// refused, as a dead process's port refuses them).
fn rpc_server(chain: Arc<Mutex<Chain>>, crashed: Arc<AtomicBool>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            if crashed.load(Ordering::SeqCst) {
                return;
            }
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let Some(body) = read_request(&mut reader) else {
                continue;
            };
            let request: Value = serde_json::from_slice(&body).unwrap();
            let method = request["method"].as_str().unwrap_or_default();
            let reply = match answer(&chain, method, &request["params"]) {
                Ok(result) => json!({"result": result, "error": null, "id": request["id"]}),
                Err((code, message)) => json!({"result": null, "error": {"code": code, "message": message}, "id": request["id"]}),
            }
            .to_string();
            let mut stream = stream;
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    address
}

/// Starts a fake that reacts to the first `filterload` longer than the limit of `big_filter`.
fn fake(refuse_offer: Option<usize>, big_filter: Option<(usize, Reaction)>) -> Fake {
    let chain = Arc::new(Mutex::new(Chain {
        refuse_offer,
        ..Chain::default()
    }));
    let crashed = Arc::new(AtomicBool::new(false));
    let banned = Arc::new(AtomicBool::new(false));
    let rpc = rpc_server(chain.clone(), crashed.clone());
    let p2p_listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let p2p = p2p_listener.local_addr().unwrap().to_string();
    let (peers, dead, closed, rpc_address, p2p_address) = (
        chain.clone(),
        crashed.clone(),
        banned,
        rpc.clone(),
        p2p.clone(),
    );
    thread::spawn(move || {
        for stream in p2p_listener.incoming().flatten() {
            if dead.load(Ordering::SeqCst) || closed.load(Ordering::SeqCst) {
                return;
            }
            let ports = Ports {
                crashed: dead.clone(),
                banned: closed.clone(),
                rpc: rpc_address.clone(),
                p2p: p2p_address.clone(),
            };
            let peers = peers.clone();
            thread::spawn(move || peer(stream, &peers, &ports, big_filter));
        }
    });
    Fake {
        chain,
        crashed,
        rpc,
        p2p,
    }
}

/// The fake's ports, as one connection sees them: closed after a crash or a ban.
struct Ports {
    crashed: Arc<AtomicBool>,
    banned: Arc<AtomicBool>,
    rpc: String,
    p2p: String,
}

/// One P2P connection: the handshake, then a `pong` for each `ping`, until the crash or the ban.
fn peer(
    mut stream: TcpStream,
    chain: &Mutex<Chain>,
    ports: &Ports,
    big_filter: Option<(usize, Reaction)>,
) {
    handshake_seeing(&mut stream, |version| {
        let agent = bip37_conform::regen::payloads::parse_version(version)
            .unwrap()
            .user_agent;
        chain.lock().unwrap().agents.push(agent);
    });
    while let Some(message) = read(&mut stream) {
        if ports.crashed.load(Ordering::SeqCst) {
            return;
        }
        match (message.command.as_str(), big_filter) {
            ("ping", _) => {
                send(&mut stream, "pong", message.payload);
            }
            ("filterload", Some((limit, reaction))) if message.payload.len() > limit => {
                // Wake the listeners so that they drop their ports.
                if let Reaction::Crash = reaction {
                    ports.crashed.store(true, Ordering::SeqCst);
                    let _ = TcpStream::connect(&ports.rpc);
                }
                ports.banned.store(true, Ordering::SeqCst);
                let _ = TcpStream::connect(&ports.p2p);
                return;
            }
            _ => {}
        }
    }
}

fn suite(fake: &Fake, ids: &[&str]) -> Run {
    suite_ending_with(fake, ids, &[])
}

/// The suite with the checks of `last` run after the others (as expected crashes are).
fn suite_ending_with(fake: &Fake, ids: &[&str], last: &[&str]) -> Run {
    let rpc = RpcConfig {
        address: fake.rpc.clone(),
        user: String::new(),
        password: String::new(),
        timeout: Duration::from_secs(10),
        tls: None,
    };
    let options = Options {
        rpc,
        p2p: fake.p2p.clone(),
        magic: Some(MAGIC),
        timeout: Duration::from_secs(5),
        announce_timeout: Duration::from_millis(300),
        settle: Duration::from_millis(50),
        selection: Selection {
            ids: ids.iter().map(|s| s.to_string()).collect(),
            ..Selection::default()
        },
        last: last.iter().map(|s| s.to_string()).collect(),
    };
    run(&options, &mut std::io::sink()).expect("a full report")
}

/// Checks run after the oversized `filterload` of `node/filterload/*` and `node/filteradd/*`
/// end in `state`, saying `says`.
fn assert_later_checks(run: &Run, state: State, says: &str) {
    for later in [
        "node/filterload/51-hash-funcs-disconnects",
        "node/filteradd/520-bytes-kept",
    ] {
        let r = result(run, later);
        assert_eq!(r.state, state, "{later}: {}", r.message);
        assert!(r.message.contains(says), "{}", r.message);
    }
}

fn result<'a>(run: &'a Run, id: &str) -> &'a bip37_harness::runner::TestResult {
    run.results
        .iter()
        .find(|r| r.test.case.id == id)
        .unwrap_or_else(|| panic!("{id} in the report"))
}

#[test]
fn every_transaction_the_suite_builds_is_one_core_accepts() {
    let fake = fake(None, None);
    let run = suite(&fake, &[]);
    let checks = bip37_conform::node::checks::checks().unwrap().checks.len();
    assert_eq!(run.results.len(), checks, "every check reported");
    let chain = fake.chain.lock().unwrap();
    assert!(chain.offered.len() >= 16, "{} offered", chain.offered.len());
    assert!(chain.mined.len() >= 100, "{} mined", chain.mined.len());
    for (kind, txs) in [("offered", &chain.offered), ("mined", &chain.mined)] {
        for tx in txs.iter() {
            let bytes = tx.encode_without_witness().len();
            assert!(
                bytes >= 65,
                "an {kind} transaction of {bytes} bytes without witness: Core refuses it \
                 (tx-size-small): {}",
                bip37_harness::hex::encode(tx.encode())
            );
        }
    }
    let known: HashMap<[u8; 32], Transaction> = chain
        .mined
        .iter()
        .chain(&chain.offered)
        .map(|tx| (tx.txid(), tx.clone()))
        .collect();
    for tx in &chain.offered {
        if let Some(why) = core_policy::refusal(tx, &known) {
            panic!(
                "an offered transaction Core refuses under its default policy ({why}): {}",
                bip37_harness::hex::encode(tx.encode())
            );
        }
    }
}

#[test]
fn a_refused_setup_transaction_fails_its_check_alone_with_the_nodes_reason() {
    let fake = fake(Some(0), None);
    let run = suite(&fake, &["node/relay/*", "node/filterload/*"]);
    let refused = &run.results[run
        .results
        .iter()
        .position(|r| r.state == State::RejectedValid)
        .expect("one check failed on its setup")];
    assert_eq!(
        refused.test.case.id,
        "node/relay/filter-announces-only-matching"
    );
    assert!(
        refused.message.contains("mempool-policy-of-the-fake"),
        "{}",
        refused.message
    );
    assert!(
        !refused.message.contains("acceptnonstdtxn"),
        "{}",
        refused.message
    );
    // The run went on: every selected check has its own result.
    assert_eq!(run.results.len(), 3 + 4);
    let rejected = run
        .results
        .iter()
        .filter(|r| r.state == State::RejectedValid)
        .count();
    assert_eq!(rejected, 1, "only the check whose offer was refused");
    assert_eq!(
        result(&run, "node/filterload/oversized-36001-disconnects").state,
        State::WrongValue,
        "the fake keeps the peer"
    );
}

#[test]
fn a_node_that_crashes_fails_the_check_it_was_in_and_names_the_last_message() {
    // The largest filterload Core takes is 36,012 payload bytes (36,000 filter bytes).
    let fake = fake(None, Some((36_012, Reaction::Crash)));
    let run = suite(&fake, &["node/filterload/*", "node/filteradd/*"]);
    assert!(fake.crashed.load(Ordering::SeqCst));
    // A crash looks like a disconnect, the answer this check expects: still a crash.
    let crash = result(&run, "node/filterload/oversized-36001-disconnects");
    assert_eq!(crash.state, State::Crash, "{}", crash.message);
    assert!(
        crash.message.contains("`filterload` (36013-byte payload)"),
        "{}",
        crash.message
    );
    assert_eq!(
        result(&run, "node/filterload/max-36000-bytes-50-funcs-kept").state,
        State::Pass
    );
    assert_later_checks(&run, State::NotRun, "oversized-36001");
}

#[test]
fn an_expected_crash_runs_last_so_every_other_check_still_runs() {
    let fake = fake(None, Some((36_012, Reaction::Crash)));
    let crashing = "node/filterload/oversized-36001-disconnects";
    let run = suite_ending_with(
        &fake,
        &["node/filterload/*", "node/filteradd/*"],
        &[crashing],
    );
    assert!(fake.crashed.load(Ordering::SeqCst));
    let last = run.results.last().expect("results");
    assert_eq!(last.test.case.id, crashing);
    assert_eq!(last.state, State::Crash, "{}", last.message);
    assert_eq!(run.results.len(), 4 + 3, "every selected check reported");
    for r in &run.results[..run.results.len() - 1] {
        assert_ne!(r.state, State::NotRun, "{}: {}", r.test.case.id, r.message);
        assert_ne!(r.state, State::Crash, "{}: {}", r.test.case.id, r.message);
    }
}

#[test]
fn a_node_that_stops_taking_connections_fails_each_later_check_and_the_report_is_whole() {
    let fake = fake(None, Some((36_012, Reaction::Ban)));
    let run = suite(&fake, &["node/filterload/*", "node/filteradd/*"]);
    assert!(!fake.crashed.load(Ordering::SeqCst));
    // The ban came as the disconnect this check expects.
    assert_eq!(
        result(&run, "node/filterload/oversized-36001-disconnects").state,
        State::Pass
    );
    assert_later_checks(&run, State::ProtocolError, &fake.p2p);
    assert_eq!(run.results.len(), 4 + 3, "every selected check reported");
}
