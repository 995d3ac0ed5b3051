//! The committed vector files are exactly what the generator writes (no file of the generator
//! missing, none on the top level it does not write), and the harness embeds exactly the
//! directory: the generated files and the imported ones.

use bip37_harness::vectors::{embedded, imported, vector_paths};
use bip37_vectorgen::{check_dir, generate};
use std::path::{Path, PathBuf};

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors")
}

#[test]
fn committed_files_equal_the_generator_output() {
    let files = generate().unwrap_or_else(|e| panic!("the generator fails: {e}"));
    let problems = check_dir(&vectors_dir(), &files).unwrap();
    assert!(
        problems.is_empty(),
        "{}\nregenerate with `cargo run -p bip37-vectorgen`",
        problems.join("\n")
    );
}

#[test]
fn check_notices_a_changed_a_missing_and_a_stray_file() {
    let files = generate().unwrap();
    let dir = std::env::temp_dir().join(format!("bip37-vectorgen-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    bip37_vectorgen::write_dir(&dir, &files).unwrap();
    assert_eq!(check_dir(&dir, &files).unwrap(), Vec::<String>::new());
    std::fs::write(dir.join(&files[0].name), "{}").unwrap();
    std::fs::remove_file(dir.join(&files[1].name)).unwrap();
    std::fs::write(dir.join("stray_test.json"), "{}").unwrap();
    let problems = check_dir(&dir, &files).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems[0].contains("differs"));
    assert!(problems[1].contains("cannot be read"));
    assert!(problems[2].contains("stray_test.json is not written by the generator"));
}

#[test]
fn the_embedded_files_are_the_vector_directory() {
    let on_disk: Vec<(String, String)> = vector_paths(&vectors_dir())
        .unwrap()
        .into_iter()
        .map(|p| (imported::name_of(&p), std::fs::read_to_string(&p).unwrap()))
        .collect();
    let embedded: Vec<(String, String)> = embedded::FILES
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    let names = |files: &[(String, String)]| files.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(&embedded),
        names(&on_disk),
        "harness/build.rs derives the embedded list from the directory"
    );
    assert!(
        embedded == on_disk,
        "an embedded file differs from its copy on disk"
    );
    assert_eq!(embedded::load().unwrap().len(), on_disk.len());
}

#[test]
fn the_binary_writes_checks_and_refuses_bad_arguments() {
    let bin = env!("CARGO_BIN_EXE_bip37-vectorgen");
    let dir = std::env::temp_dir().join(format!("bip37-vectorgen-bin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |args: &[&str]| std::process::Command::new(bin).args(args).output().unwrap();
    let dir_arg = dir.to_str().unwrap();
    assert_eq!(
        run(&["--check", dir_arg]).status.code(),
        Some(1),
        "an empty directory is not up to date"
    );
    assert_eq!(run(&[dir_arg]).status.code(), Some(0));
    assert_eq!(run(&["--check", dir_arg]).status.code(), Some(0));
    assert_eq!(run(&["--bogus"]).status.code(), Some(2));
    assert_eq!(run(&[dir_arg, dir_arg]).status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_oracle_that_differs_from_the_vectors_fails_the_check() {
    // The reference with MurmurHash3's tail read big-endian: the generated murmur3 tests
    // change, and Core's printed hashes contradict it.
    use bip37_harness::mutants::{Bug, Mutant};
    use bip37_vectorgen::oracle::with_oracle;
    let mutant = Box::new(Mutant {
        bug: Bug::MurmurTail,
    });
    let (files, report) = with_oracle(mutant, generate);
    assert!(report.answered > 0, "{report:?}");
    match files {
        Err(e) => assert!(e.0.contains("the oracle answers"), "{e}"),
        Ok(files) => assert!(!check_dir(&vectors_dir(), &files).unwrap().is_empty()),
    }
}

#[test]
fn the_reference_as_oracle_gives_the_committed_files() {
    let oracle = Box::new(bip37_harness::reference_impl::Reference);
    let (files, report) = bip37_vectorgen::oracle::with_oracle(oracle, generate);
    assert!(report.unsupported.is_empty() && report.faults.is_empty());
    let problems = check_dir(&vectors_dir(), &files.unwrap()).unwrap();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
