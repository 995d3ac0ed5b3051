//! `bip37-conform regen`'s command line: out-of-range timeouts are usage errors (not a
//! panic adding them to a clock), and `--force` only makes sense when writing.

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
