//! `bip37-conform regen`'s command line: out-of-range timeouts are usage errors (not a
//! panic adding them to a clock), `--force` only makes sense when writing, and without
//! `--record` the record is looked for in the checkout of the current directory, never in
//! the tree the binary was built from.

mod common;

use std::fs;
use std::process::{Command, Output};

fn regen(args: &[&str], dir: &std::path::Path) -> Output {
    Command::new(common::conform_binary())
        .arg("regen")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("regen-cli-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A loopback port nothing listens on.
fn closed_port() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().to_string()
}

#[test]
fn timeouts_out_of_range_are_usage_errors() {
    let dir = scratch("timeouts");
    for timeout in ["10000000000000000000", "18446744073709551615", "3601", "0"] {
        let out = regen(&["--timeout", timeout, "--record", "r.json"], &dir);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{timeout}: {stderr}");
        assert!(stderr.contains("--timeout"), "{timeout}: {stderr}");
        assert!(!stderr.contains("panicked"), "{timeout}: {stderr}");
    }
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn force_is_refused_with_check() {
    let dir = scratch("force");
    let out = regen(&["--check", "--force", "--record", "r.json"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn outside_a_checkout_without_record_it_stops_and_writes_nothing() {
    let dir = scratch("outside");
    let rpc = closed_port();
    let out = regen(&["--rpc", &rpc], &dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--record"), "{stderr}");
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn inside_another_checkout_the_record_is_that_checkouts() {
    // A checkout elsewhere: found from its subdirectory, named, and then the run gets as far
    // as the node (absent here).
    let dir = scratch("checkout");
    fs::create_dir_all(dir.join("vectors/live-node")).unwrap();
    fs::create_dir_all(dir.join("docs")).unwrap();
    let rpc = closed_port();
    let out = regen(&["--rpc", &rpc], &dir.join("docs"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let record = dir.join("vectors/live-node/record.json");
    assert!(
        stderr.contains(&format!("regen: record {}", record.display())),
        "{stderr}"
    );
    assert!(stderr.contains("no RPC server answers"), "{stderr}");
    assert_eq!(
        fs::read_dir(dir.join("vectors/live-node")).unwrap().count(),
        0
    );
    fs::remove_dir_all(dir).unwrap();
}
