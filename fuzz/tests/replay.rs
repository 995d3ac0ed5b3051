//! Replays the committed regression corpora through the same functions the fuzz targets call,
//! so `cargo test` catches a regression without cargo-fuzz, and checks that the target list in
//! the library and the files under `fuzz_targets/` agree.

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

/// Runs every file of `corpus/<target>/` through its target; returns how many ran.
fn replay_dir(corpus: &Path) -> usize {
    let mut replayed = 0;
    for dir in fs::read_dir(corpus).unwrap() {
        let dir = dir.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let Some(target) = target(&name) else {
            panic!("{} is not a fuzz target", dir.display());
        };
        for file in fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            let bytes = fs::read(&file).unwrap();
            let outcome = std::panic::catch_unwind(|| (target.run)(&bytes));
            assert!(outcome.is_ok(), "{} fails {name}", file.display());
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
