//! The declared `rust-version` is the truth: the oldest Rust the locked dependency tree builds
//! with, i.e. the highest `rust-version` any locked package declares (`cargo metadata`). A
//! dependency update that needs a newer compiler fails here until the workspace says so, and a
//! declared version above what the tree needs fails too, so the claim stays the oldest one.
//! The project's own code is held to the same version by clippy's `incompatible_msrv` lint,
//! which reads `rust-version` (`cargo clippy --all-targets` is part of every commit).

use serde_json::Value;
use std::process::Command;

fn version(text: &str) -> Vec<u64> {
    let mut parts: Vec<u64> = text.split('.').map(|p| p.parse().unwrap()).collect();
    // "1.88" and "1.88.0" are the same version.
    parts.resize(3, 0);
    parts
}

#[test]
fn rust_version_is_the_oldest_the_locked_tree_builds_with() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml");
    let output = Command::new(cargo)
        .args(["metadata", "--locked", "--format-version", "1"])
        .args(["--manifest-path", manifest])
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let members: Vec<&Value> = packages.iter().filter(|p| p["source"].is_null()).collect();
    let declared = members
        .iter()
        .map(|p| {
            p["rust_version"]
                .as_str()
                .expect("every member declares it")
        })
        .collect::<Vec<_>>();
    assert!(
        declared.windows(2).all(|w| w[0] == w[1]),
        "the members declare different rust-versions: {declared:?}"
    );
    let (declared, declared_text) = (version(declared[0]), declared[0]);
    let (needed, by) = packages
        .iter()
        .filter(|p| !p["source"].is_null())
        .filter_map(|p| {
            let v = p["rust_version"].as_str()?;
            let name = format!("{} {}", p["name"].as_str()?, p["version"].as_str()?);
            Some((version(v), format!("{name} (rust-version {v})")))
        })
        .max()
        .expect("some locked dependency declares a rust-version");
    assert!(
        needed <= declared,
        "{by} needs a newer Rust than Cargo.toml's rust-version {declared_text}: raise it"
    );
    assert!(
        needed == declared,
        "Cargo.toml declares rust-version {declared_text}, but the locked tree needs no more \
         than {by}: lower it to that"
    );
}
