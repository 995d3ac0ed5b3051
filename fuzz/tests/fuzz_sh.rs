//! The command fuzz/README gives first is the one CI runs: `fuzz/fuzz.sh`, which hands every
//! target the corpora, dictionary and max_len of `oss-fuzz-targets` (checked on its `-n`
//! output, the libFuzzer command line of each target, without building anything), rather than
//! a bare `cargo fuzz run` on an empty corpus with libFuzzer's defaults.

use bip37_fuzz::TARGETS;
use std::path::PathBuf;
use std::process::Command;

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `fuzz.sh -n target`: the libFuzzer command line it would run.
fn planned(target: &str) -> String {
    let out = Command::new(crate_dir().join("fuzz.sh"))
        .args(["-n", target])
        .output()
        .expect("bash runs fuzz.sh");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_target_runs_with_its_corpora_dictionary_and_max_len() {
    let listed = std::fs::read_to_string(crate_dir().join("oss-fuzz-targets")).unwrap();
    for target in TARGETS.iter().filter(|t| !t.name.starts_with("mutants_")) {
        let line = listed
            .lines()
            .find(|line| line.split_whitespace().next() == Some(target.name))
            .unwrap_or_else(|| panic!("{} is not in oss-fuzz-targets", target.name));
        let fields: Vec<&str> = line.split_whitespace().collect();
        let command = planned(target.name);
        assert!(
            command.contains(&format!(" -max_len={} ", fields[2])),
            "{command}"
        );
        if fields[1] != "-" {
            let dict = format!(" -dict=dictionaries/{}.dict ", fields[1]);
            assert!(command.contains(&dict), "{command}");
        }
        let corpora = format!(" corpus/{0} corpus-regression/{0}\n", target.name);
        assert!(command.ends_with(&corpora), "{command}");
    }
}

#[test]
fn the_readme_starts_with_the_wrapper() {
    let readme = std::fs::read_to_string(crate_dir().join("README.md")).unwrap();
    let block = readme
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("fuzz/README.md has a sh block");
    let first = block
        .lines()
        .find(|line| !line.starts_with("cargo install"))
        .expect("a command after the install");
    assert!(first.starts_with("fuzz/fuzz.sh "), "{first}");
}

#[test]
fn core_targets_run_with_their_seeds_dictionary_and_max_len() {
    let listed = std::fs::read_to_string(crate_dir().join("core-targets")).unwrap();
    let rows: Vec<Vec<&str>> = (listed.lines())
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), bip37_fuzz::CORE_TARGET_NAMES.len());
    for fields in rows {
        let command = planned(fields[0]);
        assert!(
            command.contains(&format!(" -max_len={} ", fields[2])),
            "{command}"
        );
        if fields[1] != "-" {
            let dict = format!(" -dict=dictionaries/{}.dict ", fields[1]);
            assert!(command.contains(&dict), "{command}");
        }
        assert!(
            command.contains(&format!(
                " corpus/{0} corpus-regression/{1}",
                fields[0], fields[3]
            )),
            "{command}"
        );
    }
}

#[test]
fn a_planted_bug_needs_the_targets_named() {
    let out = Command::new(crate_dir().join("fuzz.sh"))
        .args(["-P", "murmur-tail", "-n"])
        .output()
        .expect("bash runs fuzz.sh");
    assert_eq!(out.status.code(), Some(2));
    let planned = Command::new(crate_dir().join("fuzz.sh"))
        .args(["-P", "murmur-tail", "-n", "core_murmur3"])
        .output()
        .unwrap();
    let command = String::from_utf8(planned.stdout).unwrap();
    assert!(command.contains(" -len_control=0 "), "{command}");
    assert!(command.contains("-exact_artifact_path=artifacts/core_murmur3/found"));
}
