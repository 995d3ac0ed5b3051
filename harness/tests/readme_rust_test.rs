//! README's section "Test a Rust implementation with `cargo test`", run as written: the lines
//! between the markers below are that section's ```rust block, character for character
//! (`readme_shows_exactly_this_test` compares them), with the reference standing in for the
//! reader's `MyFilter` and `tests/bip37-expectations.toml` as its expectations file.

// The reference is a unit struct; a reader's filter type usually is not, hence `default()`.
#![allow(clippy::default_constructed_unit_structs)]

use bip37_harness::reference_impl::Reference as MyFilter;

// README begin
#[test]
fn conforms_to_bip37() {
    bip37_harness::Suite::new(MyFilter::default())
        .expectations("tests/bip37-expectations.toml")
        .assert_conforms();
}
// README end

/// The first block of `fence` (e.g. ```` ```rust ````) in README's section `heading`.
fn readme_block(heading: &str, fence: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let section = readme
        .split_once(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("README has no section {heading:?}"))
        .1;
    let section = section.split("\n## ").next().unwrap_or_default();
    let block = section
        .split_once(&format!("```{fence}\n"))
        .unwrap_or_else(|| panic!("README's {heading:?} has no ```{fence} block"))
        .1;
    block.split("```").next().unwrap_or_default().to_string()
}

const HEADING: &str = "## Test a Rust implementation with `cargo test`";

#[test]
fn readme_shows_exactly_this_test() {
    let this = include_str!("readme_rust_test.rs");
    let shown = this
        .split_once("// README begin\n")
        .and_then(|(_, rest)| rest.split_once("// README end\n"))
        .expect("the markers")
        .0;
    assert_eq!(readme_block(HEADING, "rust"), shown);
}

#[test]
fn readme_depends_on_this_crate() {
    let manifest: toml::Table = toml::from_str(&readme_block(HEADING, "toml")).unwrap();
    let ours: toml::Table = toml::from_str(include_str!("../Cargo.toml")).unwrap();
    let name = ours["package"]["name"].as_str().unwrap();
    assert!(
        manifest["dev-dependencies"].get(name).is_some(),
        "README's Cargo.toml lines do not add {name} as a dev-dependency: {manifest}"
    );
}
