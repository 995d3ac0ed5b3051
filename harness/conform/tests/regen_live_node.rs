//! `regen` against a running regtest node. The tests need the node, so they are `#[ignore]`d:
//! `cargo test` lists them as ignored instead of passing them without a node.
//!
//! `scripts/live-node.sh` (run by CI) starts a node and runs them with `-- --ignored` and
//! `BIP37_REGEN_RPC` (e.g. `127.0.0.1:18443`), `BIP37_REGEN_P2P` (e.g. `127.0.0.1:18444`),
//! `BIP37_REGEN_RPC_USER` and `BIP37_REGEN_RPC_PASSWORD` set. Asked for without
//! `BIP37_REGEN_RPC` and `BIP37_REGEN_P2P`, they fail.

use bip37_conform::regen::record::ProbeRecord;
use bip37_conform::regen::rpc::RpcConfig;
use bip37_conform::regen::session::{run, Options};
use bip37_conform::regen::tls::RpcTls;
use bip37_conform::regen::RegenError;
use serde_json::json;
use std::path::PathBuf;
use std::time::Duration;

fn options(record: PathBuf, check: bool) -> Options {
    let var = |name: &str| std::env::var(name).ok();
    let (Some(rpc), Some(p2p)) = (var("BIP37_REGEN_RPC"), var("BIP37_REGEN_P2P")) else {
        panic!("set BIP37_REGEN_RPC and BIP37_REGEN_P2P to a running regtest node");
    };
    Options {
        rpc: RpcConfig {
            address: rpc,
            user: var("BIP37_REGEN_RPC_USER").unwrap_or_default(),
            password: var("BIP37_REGEN_RPC_PASSWORD").unwrap_or_default(),
            timeout: Duration::from_secs(120),
            tls: var("BIP37_REGEN_RPC_CERT")
                .map(|cert| RpcTls::trusting(std::path::Path::new(&cert)).unwrap()),
        },
        p2p,
        magic: None,
        timeout: Duration::from_secs(30),
        vectors: None,
        record,
        check,
        force: false,
    }
}

fn probe<'a>(probes: &'a [ProbeRecord], id: &str) -> &'a ProbeRecord {
    probes
        .iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("no probe {id}"))
}

#[test]
#[ignore = "needs a regtest node: BIP37_REGEN_RPC, BIP37_REGEN_P2P (scripts/live-node.sh)"]
fn the_node_agrees_with_the_reference_and_a_second_run_reads_the_same() {
    let record = std::env::temp_dir().join(format!("regen-live-{}.json", std::process::id()));
    let write = options(record.clone(), false);
    let first = run(&write, &mut std::io::stderr()).unwrap();
    assert!(
        first.findings.disagreements.is_empty(),
        "{:#?}",
        first.findings.disagreements
    );
    let probes = &first.record.probes;
    assert_eq!(
        probe(probes, "update/all-parent-and-child").observed[0],
        json!({"block": "parents", "matched": ["parent", "child"]})
    );
    assert_eq!(
        probe(probes, "places/txid-display-order").observed[0]["matched"],
        json!([])
    );
    assert_eq!(
        probe(probes, "limits/filterload-36001-bytes").observed,
        json!("disconnected")
    );
    assert!(probes
        .iter()
        .filter(|p| p.id.starts_with("bits/"))
        .all(|p| p.observed["confirmed"] == json!(true)));

    let check = options(record.clone(), true);
    let second = run(&check, &mut std::io::stderr()).unwrap();
    assert!(second.passed(), "{:#?}", second.differences);
    std::fs::remove_file(record).unwrap();
}

#[test]
#[ignore = "needs a regtest node: BIP37_REGEN_RPC, BIP37_REGEN_P2P (scripts/live-node.sh)"]
fn wrong_credentials_are_named_and_nothing_is_written() {
    let record = std::env::temp_dir().join(format!("regen-live-creds-{}.json", std::process::id()));
    let mut options = options(record.clone(), false);
    options.rpc.password.push_str("-wrong");
    let err = run(&options, &mut std::io::sink()).unwrap_err();
    assert!(matches!(err, RegenError::RpcCredentials { .. }), "{err}");
    assert!(!record.exists());
}
