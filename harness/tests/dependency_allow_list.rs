//! The library stays lean: every package in `bip37-harness`'s normal dependency tree (what a
//! Rust implementation that depends on it builds) is on the allow-list below, with the reason
//! it is there. A new dependency, direct or pulled in by an update, fails this test until it is
//! either removed or added here with its reason. Heavy tools belong in `bip37-conform` or
//! `bip37-vectorgen`, which depend on the library, never the other way.

use std::collections::BTreeSet;
use std::process::Command;

/// Each allowed package and why the library needs it.
const ALLOWED: &[(&str, &str)] = &[
    ("bip37-harness", "the library itself"),
    ("bip37-reference", "the Core-exact reference every answer is compared with"),
    // The reference's SHA-256 (txids, merkle roots) and what sha2 is built from.
    ("sha2", "the reference's SHA-256, a well-kept crate over hand-written code"),
    ("digest", "sha2's traits"),
    ("block-buffer", "sha2's block buffering"),
    ("crypto-common", "sha2's traits"),
    ("generic-array", "sha2's fixed-size arrays"),
    ("typenum", "generic-array's type-level sizes"),
    ("cpufeatures", "sha2's runtime detection of SHA instructions"),
    ("cfg-if", "sha2's platform selection"),
    ("libc", "sha2's CPU detection, and the subprocess client's poll(2), waitid(WNOWAIT) and kill(-pgid), and file_lock's flock(2): std has no way to wait on a pipe with a deadline or to signal a process group, and File::lock needs Rust 1.89, above the workspace's rust-version"),
    // JSON: vectors, the subprocess protocol and the reports.
    ("serde", "the vectors', protocol's and reports' types (de)serialize"),
    ("serde_core", "serde's core"),
    ("serde_derive", "serde's derive macros"),
    ("proc-macro2", "serde_derive's macro support"),
    ("quote", "serde_derive's macro support"),
    ("syn", "serde_derive's macro support"),
    ("unicode-ident", "syn's identifiers"),
    ("serde_json", "vectors and the subprocess protocol are JSON"),
    ("itoa", "serde_json's integer formatting"),
    ("memchr", "serde_json's string scanning"),
    ("zmij", "serde_json's float formatting"),
    ("serde_path_to_error", "a bad vector or request names the field at fault (e.g. `tests[3].input.flags`), not only a line and column"),
    // The expectations file is TOML (its documented format, written back by --update-expectations).
    ("toml", "the expectations file is TOML, read and written"),
    ("toml_datetime", "toml's date types"),
    ("toml_parser", "toml's parser"),
    ("toml_writer", "toml's writer (the rewritten expectations file)"),
    ("serde_spanned", "toml's error positions"),
    ("winnow", "toml's parser combinators"),
    ("hex", "bytes as hex text in vectors, the protocol and reports"),
];

/// The package names of the library's normal dependency tree, from `cargo tree`.
fn dependency_tree() -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let output = Command::new(cargo)
        .args([
            "tree",
            "--offline",
            "--locked",
            "-e",
            "normal",
            "--prefix",
            "none",
        ])
        .args(["--manifest-path", manifest, "-p", "bip37-harness"])
        .output()
        .expect("cargo tree runs");
    assert!(
        output.status.success(),
        "cargo tree: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("cargo tree prints UTF-8")
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_library_depends_only_on_allowed_packages() {
    let tree = dependency_tree();
    assert!(
        tree.contains("bip37-reference") && tree.contains("serde_json"),
        "cargo tree's output was not read: {tree:?}"
    );
    let allowed: BTreeSet<&str> = ALLOWED.iter().map(|(name, _)| *name).collect();
    let extra: Vec<&String> = tree
        .iter()
        .filter(|name| !allowed.contains(name.as_str()))
        .collect();
    assert!(
        extra.is_empty(),
        "bip37-harness's normal dependency tree has packages not on the allow-list in {}: {extra:?}; \
         move the code that needs them to bip37-conform or bip37-vectorgen, or add them with a reason",
        file!()
    );
}

#[test]
fn every_allowed_package_is_still_used() {
    let tree = dependency_tree();
    let stale: Vec<&str> = ALLOWED
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| !tree.contains(*name))
        .collect();
    assert!(
        stale.is_empty(),
        "the allow-list in {} names packages the library no longer depends on: {stale:?}; remove them",
        file!()
    );
}
