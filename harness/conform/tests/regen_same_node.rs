//! `regen` proves that `--rpc` and `--p2p` reach the same node before it mines or writes
//! anything: with an RPC node and a different P2P node (fakes on 127.0.0.1) it stops with a
//! message naming both, and the record file stays byte for byte as it was.

mod regen_fakes;

use bip37_conform::regen::payloads::parse_version;
use bip37_conform::regen::rpc::RpcConfig;
use bip37_conform::regen::session::{run, Options};
use bip37_conform::regen::RegenError;
use regen_fakes::*;
use serde_json::{json, Value};
use std::fs;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(2);

/// A regtest node's RPC answers before any mining; `getpeerinfo` lists `peers`' user agents.
fn rpc_node(peers: Arc<Mutex<Vec<String>>>) -> (String, Arc<Mutex<Vec<String>>>) {
    rpc_server(move |method| match method {
        "getblockchaininfo" => Ok(json!({"chain": "regtest", "blocks": 0})),
        "getnetworkinfo" => Ok(json!({
            "version": 309900,
            "subversion": "/Satoshi:30.99.0/",
            "localservices": "0000000000000c0d"
        })),
        "listbanned" => Ok(json!([])),
        "getblockcount" => Ok(json!(0)),
        "getpeerinfo" => Ok(Value::Array(
            peers
                .lock()
                .unwrap()
                .iter()
                .map(|agent| json!({"addr": "127.0.0.1:50000", "subver": agent}))
                .collect(),
        )),
        other => Err(format!("{other} is not faked")),
    })
}

/// A P2P node that handshakes each connection and reports the user agent it was sent.
fn p2p_node(seen: Arc<Mutex<Vec<String>>>) -> String {
    serve_each(move |mut s| {
        handshake_seeing(&mut s, |version| {
            let agent = parse_version(version).unwrap().user_agent;
            seen.lock().unwrap().push(agent);
        });
        thread::sleep(Duration::from_secs(5));
    })
}

fn options(rpc: String, p2p: String, record: PathBuf) -> Options {
    Options {
        rpc: RpcConfig {
            address: rpc,
            user: "u".into(),
            password: "p".into(),
            timeout: TIMEOUT,
            tls: None,
        },
        p2p,
        magic: None,
        timeout: TIMEOUT,
        vectors: None,
        record,
        check: false,
        force: false,
    }
}

fn committed_record(name: &str) -> (PathBuf, Vec<u8>) {
    let dir = std::env::temp_dir().join(format!("regen-same-node-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("record.json");
    let bytes = fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../vectors/live-node/record.json"
    ))
    .unwrap();
    fs::write(&path, &bytes).unwrap();
    (path, bytes)
}

#[test]
fn two_different_nodes_are_refused_and_the_record_is_untouched() {
    // The RPC node has a peer of its own (another node, or another regen run); the P2P
    // node is a different one that saw this run's connection.
    let rpc_peers = Arc::new(Mutex::new(vec![
        "/Satoshi:30.99.0/".to_string(),
        "/bip37-conform:0.1.0(run-0000000000000000)/".to_string(),
    ]));
    let (rpc, calls) = rpc_node(rpc_peers);
    let p2p = p2p_node(Arc::new(Mutex::new(Vec::new())));
    let (record, before) = committed_record("different");
    let err = within(TIMEOUT * 2, || {
        run(
            &options(rpc, p2p.clone(), record.clone()),
            &mut std::io::sink(),
        )
        .unwrap_err()
    });
    assert!(matches!(err, RegenError::DifferentNodes { .. }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.contains(&p2p) && message.contains("-rpcport"),
        "{message}"
    );
    assert_eq!(fs::read(&record).unwrap(), before);
    let calls = calls.lock().unwrap();
    assert!(
        !calls.iter().any(|m| m == "submitblock"),
        "mined before the check: {calls:?}"
    );
    fs::remove_dir_all(record.parent().unwrap()).unwrap();
}

#[test]
fn the_same_node_passes_the_check() {
    // One node: what its P2P side saw is what its RPC side lists.
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (rpc, calls) = rpc_node(Arc::clone(&seen));
    let p2p = p2p_node(seen);
    let (record, before) = committed_record("same");
    let err = run(&options(rpc, p2p, record.clone()), &mut std::io::sink()).unwrap_err();
    // Past the check, the run goes on to fund its coins (asking for the tip first), which
    // this fake cannot do.
    assert!(
        matches!(err, RegenError::Setup { .. } | RegenError::RpcCall { .. }),
        "{err:?}"
    );
    let calls = calls.lock().unwrap();
    let checked = calls.iter().position(|m| m == "getpeerinfo").unwrap();
    assert_eq!(
        calls.get(checked + 1).map(String::as_str),
        Some("getblockchaininfo"),
        "{calls:?}"
    );
    assert_eq!(fs::read(&record).unwrap(), before);
    fs::remove_dir_all(record.parent().unwrap()).unwrap();
}
