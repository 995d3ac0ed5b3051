//! Read-modify-write under a lock: two `run --update-expectations` on one file at once end with
//! the entries two runs one after the other leave, because the second waits for the first's
//! lock, then reads what the first wrote.

mod common;

use common::{code, conform_binary, text};
use std::path::{Path, PathBuf};
use std::process::Command;

fn tempdir(name: &str) -> PathBuf {
    common::tempdir(&format!("hardening-locks-{name}"))
}

/// The `run --update-expectations` of `mutant` over `ids`, its adapter started `delay` seconds
/// late (so that two runs started together both read the file before either writes it).
fn update(file: &Path, mutant: &str, ids: &str, delay: &str) -> Command {
    let adapter = format!(
        "sh -c 'sleep {delay}; exec {} serve --mutant {mutant}'",
        conform_binary()
    );
    let mut command = Command::new(conform_binary());
    command.args([
        "run",
        "--impl",
        &adapter,
        "--id",
        ids,
        "--expectations",
        file.to_str().unwrap(),
        "--update-expectations",
    ]);
    command
}

fn entries(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut ids: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("[failures."))
        .map(String::from)
        .collect();
    ids.sort();
    ids
}

#[test]
fn two_updates_at_once_keep_the_entries_of_both() {
    let dir = tempdir("updates");
    let runs = [
        ("murmur-tail", "murmur3/*"),
        ("big-endian-length", "wire/*"),
    ];
    let sequential = dir.join("sequential.toml");
    for (mutant, ids) in runs {
        let out = update(&sequential, mutant, ids, "0").output().unwrap();
        assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    }
    let expected = entries(&sequential);
    assert!(expected.len() > 12, "{expected:?}");

    let together = dir.join("together.toml");
    let mut spawned: Vec<_> = runs
        .iter()
        .map(|(mutant, ids)| {
            update(&together, mutant, ids, "1")
                .stderr(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in spawned.drain(..) {
        let out = child.wait_with_output().unwrap();
        assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    }
    assert_eq!(entries(&together), expected);
}
