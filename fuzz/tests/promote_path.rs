//! The documented crash-to-vector path (fuzz/README.md) end to end on real findings: the
//! inputs that find the planted bugs of two mutant targets and a committed regression input
//! of a differential target are promoted into a temporary copy of `vectors/`, and the copy
//! then passes what `cargo test` demands of the real directory: the JSON Schema, the loader,
//! the lint (ids unique across files, the reference re-derives every expected result) and the
//! generator's check (which owns the top level only).

use bip37_fuzz::promote::{promote_into, repository_vectors};
use bip37_harness::vectors::lint::lint;
use bip37_harness::vectors::{load_file, test_files, vector_paths};
use std::fs;
use std::path::{Path, PathBuf};

/// A fresh copy of the repository's vector directory (its files, not `imported/`).
fn copy_of_vectors(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bip37-promote-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    for entry in fs::read_dir(repository_vectors()).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

/// The first committed regression input of `target`.
fn finding(target: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus-regression")
        .join(target);
    let mut inputs: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    inputs.sort();
    inputs.into_iter().next().unwrap()
}

fn schema_errors(dir: &Path, file: &Path) -> Option<String> {
    let mut schemas = boon::Schemas::new();
    let schema = dir.join("vectors.schema.json");
    let index = boon::Compiler::new()
        .compile(&schema.to_string_lossy(), &mut schemas)
        .unwrap();
    let value: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
    schemas
        .validate(&value, index)
        .err()
        .map(|e| format!("{e:#}"))
}

#[test]
fn promoted_findings_pass_what_cargo_test_checks() {
    let dir = copy_of_vectors("path");
    let generated = test_files(&dir).unwrap();
    let targets = [
        "mutants_limit_off_by_one",
        "mutants_seed_not_wrapped",
        "differential_filterload",
    ];
    let mut imported = None;
    for target in targets {
        let path = promote_into(target, &finding(target), &dir)
            .unwrap_or_else(|e| panic!("{target}: {e}"));
        assert_eq!(path, dir.join("imported/fuzz_test.json"));
        imported = Some(path);
    }
    let imported = imported.unwrap();
    // Promoting the same input again changes nothing.
    let before = fs::read_to_string(&imported).unwrap();
    promote_into(targets[0], &finding(targets[0]), &dir).unwrap();
    assert_eq!(fs::read_to_string(&imported).unwrap(), before);

    let paths = vector_paths(&dir).unwrap();
    assert_eq!(paths.len(), generated.len() + 1);
    assert_eq!(paths.last(), Some(&imported));
    assert_eq!(schema_errors(&dir, &imported), None);
    let files: Vec<_> = paths.iter().map(|p| load_file(p).unwrap()).collect();
    assert_eq!(files.last().unwrap().tests.len(), targets.len());
    let problems = lint(&files);
    assert!(problems.is_empty(), "{problems:?}");
    let written = bip37_vectorgen::generate().unwrap();
    assert_eq!(
        bip37_vectorgen::check_dir(&dir, &written).unwrap(),
        Vec::<String>::new()
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// `promote` goes through the suite's one load-and-lint step: a directory `bip37-conform run`
/// refuses (a vector with a wrong expected value, an imported file that is a FIFO, which must
/// not hang) is refused, and nothing is merged into it.
#[test]
fn promote_refuses_a_directory_the_suite_refuses() {
    use bip37_fuzz::promote::PromoteError;
    let dir = copy_of_vectors("wrong-value");
    let murmur = dir.join("murmur3_test.json");
    let text = fs::read_to_string(&murmur).unwrap();
    let wrong = text.replacen("\"hash\": 0", "\"hash\": 1", 1);
    assert_ne!(wrong, text);
    fs::write(&murmur, wrong).unwrap();
    let target = "differential_filterload";
    let refused = promote_into(target, &finding(target), &dir);
    assert!(
        matches!(refused, Err(PromoteError::InvalidVectors(_))),
        "{refused:?}"
    );
    assert!(!dir.join("imported").exists());

    let dir = copy_of_vectors("fifo");
    fs::create_dir_all(dir.join("imported")).unwrap();
    let fifo = dir.join("imported/fuzz_test.json");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let refused = promote_into(target, &finding(target), &dir);
    let Err(PromoteError::InvalidVectors(problems)) = refused else {
        panic!("{refused:?}");
    };
    assert!(problems.contains("not a regular file"), "{problems}");
}
