//! `regen` against a running regtest node: opt-in, because it needs the node.
//!
//! Set `BIP37_REGEN_RPC` (e.g. `127.0.0.1:18443`), `BIP37_REGEN_P2P` (e.g. `127.0.0.1:18444`),
//! `BIP37_REGEN_RPC_USER` and `BIP37_REGEN_RPC_PASSWORD`; without them each test prints why it
//! is skipped and passes. `scripts/live-node.sh` runs `regen` against a real node in CI.

use bip37_harness::regen::record::ProbeRecord;
use bip37_harness::regen::rpc::RpcConfig;
use bip37_harness::regen::session::{run, Options};
use bip37_harness::regen::RegenError;
use serde_json::json;
use std::path::PathBuf;
use std::time::Duration;

fn options(record: PathBuf, check: bool) -> Option<Options> {
    let var = |name: &str| std::env::var(name).ok();
    let (Some(rpc), Some(p2p)) = (var("BIP37_REGEN_RPC"), var("BIP37_REGEN_P2P")) else {
        eprintln!("skipped: set BIP37_REGEN_RPC and BIP37_REGEN_P2P to a running regtest node");
        return None;
    };
    Some(Options {
        rpc: RpcConfig {
            address: rpc,
            user: var("BIP37_REGEN_RPC_USER").unwrap_or_default(),
            password: var("BIP37_REGEN_RPC_PASSWORD").unwrap_or_default(),
            timeout: Duration::from_secs(120),
        },
        p2p,
        magic: None,
        timeout: Duration::from_secs(30),
        vectors: None,
        record,
        check,
    })
}

fn probe<'a>(probes: &'a [ProbeRecord], id: &str) -> &'a ProbeRecord {
    probes
        .iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("no probe {id}"))
}

#[test]
fn the_node_agrees_with_the_reference_and_a_second_run_reads_the_same() {
    let record = std::env::temp_dir().join(format!("regen-live-{}.json", std::process::id()));
    let Some(write) = options(record.clone(), false) else {
        return;
    };
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

    let check = options(record.clone(), true).unwrap();
    let second = run(&check, &mut std::io::stderr()).unwrap();
    assert!(second.passed(), "{:#?}", second.differences);
    std::fs::remove_file(record).unwrap();
}

#[test]
fn wrong_credentials_are_named_and_nothing_is_written() {
    let record = std::env::temp_dir().join(format!("regen-live-creds-{}.json", std::process::id()));
    let Some(mut options) = options(record.clone(), false) else {
        return;
    };
    options.rpc.password.push_str("-wrong");
    let err = run(&options, &mut std::io::sink()).unwrap_err();
    assert!(matches!(err, RegenError::RpcCredentials { .. }), "{err}");
    assert!(!record.exists());
}
