//! README's prerequisites are the list `.ci/run` checks (`.ci/prerequisites`), so a new user's
//! list cannot fall behind CI's: the `cargo test --workspace` line names exactly the `test`
//! entries, the CI line exactly the `ci` entries, and the Rust version is `rust-version`.

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;

fn repo_file(path: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The names `.ci/prerequisites` gives for `who` (`test` or `ci`).
fn checked(who: &str) -> BTreeSet<String> {
    (repo_file(".ci/prerequisites").lines())
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            assert_eq!(fields.len(), 3, "not `name | who | check`: {line:?}");
            (fields[1] == who).then(|| fields[0].to_string())
        })
        .collect()
}

/// The names README lists after `- for <label>` up to a parenthesis.
fn documented(label: &str) -> BTreeSet<String> {
    let readme = repo_file("README.md");
    let line = (readme.lines())
        .find(|line| line.starts_with(&format!("- for {label}")))
        .unwrap_or_else(|| panic!("README has no `- for {label}` prerequisites line"));
    let list = line.rsplit_once(": ").unwrap().1;
    let list = list.split(" (").next().unwrap();
    list.split(", ")
        .map(|name| name.trim().to_string())
        .collect()
}

#[test]
fn readme_lists_what_ci_checks() {
    assert_eq!(documented("`cargo test --workspace`"), checked("test"));
    assert_eq!(documented("CI (`.ci/run`)"), checked("ci"));
}

#[test]
fn readme_names_the_declared_rust_version() {
    let manifest = repo_file("Cargo.toml");
    let version = (manifest.lines())
        .find_map(|line| line.strip_prefix("rust-version = "))
        .expect("Cargo.toml declares rust-version")
        .trim_matches('"');
    let wanted = format!("- Rust {version} or newer");
    assert!(
        repo_file("README.md").contains(&wanted),
        "README's prerequisites should say {wanted:?}"
    );
}
