//! The committed node section of the matrix (`adapters/nodes/matrix.json`, made by `bip37-conform
//! matrix --node-report ...` from CI's node runs) agrees with the data it claims to show: its
//! rows are the node suite's checks in order, each node column's expected failures are exactly
//! its expectations file's entries, and no cell is an unexplained failure.

use bip37_conform::adapters::manifest;
use bip37_harness::expectations::Expectations;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_committed_node_section_matches_the_checks_and_the_expectations() {
    let root = repository();
    let text = std::fs::read_to_string(root.join("adapters/nodes/matrix.json")).unwrap();
    let matrix: serde_json::Value = serde_json::from_str(&text).unwrap();
    let section = &matrix["nodes"];
    let ids: Vec<&str> = section["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let checks = bip37_conform::node::checks::checks().unwrap();
    let want: Vec<&str> = checks.checks.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids, want,
        "regenerate adapters/nodes/matrix.json (README, Check a node)"
    );

    let manifests = manifest::load_all(&root.join("adapters/nodes")).unwrap();
    let columns = section["columns"].as_array().unwrap();
    for (i, column) in columns.iter().enumerate() {
        let name = column["name"].as_str().unwrap();
        let m = manifests
            .iter()
            .find(|m| m.column() == name)
            .unwrap_or_else(|| panic!("column {name} is no node manifest's column"));
        let listed: BTreeSet<String> = Expectations::load(&root.join(&m.expectations))
            .unwrap()
            .failures
            .into_keys()
            .collect();
        let cells: Vec<(&str, &str)> = section["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let cell = &r["cells"][i];
                (r["id"].as_str().unwrap(), cell["result"].as_str().unwrap())
            })
            .collect();
        let ran = cells.iter().any(|(_, result)| *result != "notRun");
        if !ran {
            assert!(
                m.start.is_none(),
                "{name} has a start command but no results"
            );
            continue;
        }
        let expected: BTreeSet<String> = cells
            .iter()
            .filter(|(_, result)| *result == "expectedFailure")
            .map(|(id, _)| id.to_string())
            .collect();
        assert_eq!(expected, listed, "{name}: expected failures");
        assert!(
            cells.iter().all(|(_, result)| *result != "failure"),
            "{name}: a failure its expectations file does not list"
        );
    }
}
