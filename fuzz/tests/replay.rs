//! Replays the committed regression corpora and the seed corpora (made from the vectors on the
//! fly) through the same functions the fuzz targets call, so `cargo test` catches a regression
//! without cargo-fuzz, and checks that the target list in the library and the files under
//! `fuzz_targets/` agree. A mutant target's corpus is the input that finds its planted bug:
//! replaying it must crash.

use bip37_fuzz::seeds::seeds_from_vectors;
use bip37_fuzz::{target, TARGETS};
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
    let mut listed: Vec<String> = TARGETS.iter().map(|t| t.name.to_string()).collect();
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
