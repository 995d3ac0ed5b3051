//! `bip37-conform matrix` end to end: two protocol v1 children (the reference and a mutant,
//! both served by the binary) over the real vectors, written as Markdown and JSON.

mod common;

use std::path::Path;
use std::process::{Command, Output};

/// Runs `bip37-conform matrix` with `args`.
fn matrix(args: &[&str]) -> Output {
    Command::new(common::conform_binary())
        .arg("matrix")
        .args(args)
        .output()
        .expect("bip37-conform runs")
}

#[test]
fn a_mutant_column_shows_its_bug_class_next_to_the_reference() {
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let (markdown, json) = (
        out_dir.join("matrix-murmur3.md"),
        out_dir.join("matrix-murmur3.json"),
    );
    let reference = format!("ref={} serve", common::conform_binary());
    let mutant = format!(
        "tail={} serve --mutant murmur-tail",
        common::conform_binary()
    );
    let out = matrix(&[
        "--op",
        "murmur3",
        "--impl",
        &reference,
        "--impl",
        &mutant,
        "--markdown",
        markdown.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let text = std::fs::read_to_string(&markdown).unwrap();
    assert!(
        text.contains("| operation | vectors | ref | tail |"),
        "{text}"
    );
    assert!(
        text.contains("| ✅ pass | wrongValue: MurmurTail |"),
        "{text}"
    );
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let columns = value["columns"].as_array().unwrap();
    assert_eq!(columns.len(), 2);
    assert!(columns[0]["counts"]["wrongValue"].is_null(), "{value}");
    assert!(
        columns[1]["counts"]["wrongValue"].as_u64() > Some(0),
        "{value}"
    );
    let rows = value["rows"].as_array().unwrap();
    assert!(rows.iter().all(|r| r["operation"] == "murmur3"));
    let tests: usize = rows
        .iter()
        .map(|r| r["tests"].as_array().unwrap().len())
        .sum();
    let counted: u64 = columns[0]["counts"]
        .as_object()
        .unwrap()
        .values()
        .filter_map(|n| n.as_u64())
        .sum();
    assert_eq!(
        tests as u64, counted,
        "every selected vector is in exactly one row"
    );
}

#[test]
fn bad_columns_are_usage_errors() {
    let out = matrix(&["--impl", "no-equals-sign"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("name=\"<command>\""));
    let out = matrix(&["--impl", "a=x", "--impl", "a=y"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("used twice"));
    let out = matrix(&["--impl", "gone=/nonexistent/adapter"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gone: cannot start"));
}
