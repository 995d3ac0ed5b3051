//! Replays the committed regression corpora and the seed corpora (made from the vectors on the
//! fly) through the same functions the fuzz targets call, so `cargo test` catches a regression
//! without cargo-fuzz, and checks that the target list in the library and the files under
//! `fuzz_targets/` agree. A mutant target's corpus is the input that finds its planted bug:
//! replaying it must crash.

use bip37_fuzz::seeds::seeds_from_vectors;
use bip37_fuzz::{target, CORE_TARGET_NAMES, TARGETS};
use std::fs;
use std::path::{Path, PathBuf};

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Target names from paths: `fuzz_targets/<area>/<name>.rs` is `<area>_<name>`.
fn names_under(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            names_under(&path, &format!("{prefix}{stem}_"), out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(format!("{prefix}{stem}"));
        }
    }
}

#[test]
fn every_target_file_is_listed_and_every_listed_target_has_a_file() {
    let mut on_disk = Vec::new();
    names_under(&crate_dir().join("fuzz_targets"), "", &mut on_disk);
    on_disk.sort();
    let mut listed: Vec<String> = (TARGETS.iter().map(|t| t.name))
        .chain(CORE_TARGET_NAMES.iter().copied())
        .map(String::from)
        .collect();
    listed.sort();
    assert_eq!(on_disk, listed);
    let manifest = fs::read_to_string(crate_dir().join("Cargo.toml")).unwrap();
    for name in &listed {
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "{name} has no [[bin]]: run fuzz/generate-bins.sh"
        );
    }
}

/// True when the target is a mutant detector, whose corpus inputs must crash it.
fn finds_a_planted_bug(name: &str) -> bool {
    name.starts_with("mutants_")
}

/// Runs `bytes` through the target `name` and checks the outcome its kind calls for.
fn replay(name: &str, bytes: &[u8], origin: &str) {
    let target = target(name).unwrap_or_else(|| panic!("{origin}: {name} is not a fuzz target"));
    let crashed = std::panic::catch_unwind(|| (target.run)(bytes)).is_err();
    match finds_a_planted_bug(name) {
        true => assert!(
            crashed,
            "{origin} no longer finds the planted bug of {name}"
        ),
        false => assert!(!crashed, "{origin} fails {name}"),
    }
}

/// Runs every file of `corpus/<target>/` through its target; returns how many ran.
fn replay_dir(corpus: &Path) -> usize {
    let mut replayed = 0;
    for dir in fs::read_dir(corpus).unwrap() {
        let dir = dir.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        if target(&name).is_none() && CORE_TARGET_NAMES.contains(&name.as_str()) {
            continue; // a Core target, in a build without the `core` feature
        }
        for file in fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            replay(
                &name,
                &fs::read(&file).unwrap(),
                &file.display().to_string(),
            );
            replayed += 1;
        }
    }
    replayed
}

#[test]
fn regression_corpora_replay() {
    let replayed = replay_dir(&crate_dir().join("corpus-regression"));
    assert!(replayed > 0, "the regression corpus is empty");
}

#[test]
fn every_mutant_target_has_an_input_that_finds_its_bug() {
    for t in TARGETS.iter().filter(|t| finds_a_planted_bug(t.name)) {
        let dir = crate_dir().join("corpus-regression").join(t.name);
        let files = fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
        assert!(files > 0, "{} has no committed input", t.name);
    }
}

#[test]
fn seed_corpora_from_the_vectors_replay() {
    let seeds = seeds_from_vectors(&crate_dir().join("../vectors")).unwrap();
    assert!(seeds.len() > 100, "only {} seeds", seeds.len());
    for seed in &seeds {
        replay(seed.target, &seed.bytes, "a seed from the vectors");
    }
}

/// The `core-targets` lines: (target, seeds), comments left out.
fn core_table() -> Vec<(String, String)> {
    let table = fs::read_to_string(crate_dir().join("core-targets")).unwrap();
    (table.lines())
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(fields.len(), 4, "core-targets: {line}");
            (fields[0].to_string(), fields[3].to_string())
        })
        .collect()
}

#[test]
fn core_targets_lists_each_core_target_with_a_committed_seed_corpus() {
    let table = core_table();
    let names: Vec<&str> = table.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, CORE_TARGET_NAMES);
    for (name, seeds) in &table {
        let dir = crate_dir().join("corpus-regression").join(seeds);
        let files = fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
        assert!(files > 0, "{name}: no seeds in {}", dir.display());
    }
}

/// With the `core` feature: Core and the reference agree on every seed of every Core target.
#[cfg(feature = "core")]
#[test]
fn core_targets_agree_on_their_seed_corpora() {
    for (name, seeds) in core_table() {
        let dir = crate_dir().join("corpus-regression").join(seeds);
        for file in fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            replay(
                &name,
                &fs::read(&file).unwrap(),
                &file.display().to_string(),
            );
        }
    }
}
