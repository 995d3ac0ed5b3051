//! One loader for vectors: every command that reads vector files loads and lints them the same
//! way, and refuses a broken directory with exit code 4 before running anything, whatever
//! it is: a vector with a wrong expected value, an imported file that is a FIFO or a link to
//! `/dev/zero` (which must neither hang nor be read).

mod common;

use common::{code, conform, text};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn tempdir(name: &str) -> PathBuf {
    common::tempdir(&format!("hardening-loader-{name}"))
}

/// A vector directory whose one file expects a wrong murmur3 hash of one byte.
fn wrong_expected_value(dir: &Path) -> PathBuf {
    let vectors = dir.join("vectors");
    std::fs::create_dir_all(&vectors).unwrap();
    let original = std::fs::read_to_string(common::fixture("vectors/mini_test.json")).unwrap();
    let wrong = original.replace("{\"hash\": 1364076727}", "{\"hash\": 1364076728}");
    assert_ne!(wrong, original);
    std::fs::write(vectors.join("mini_test.json"), wrong).unwrap();
    vectors
}

#[test]
fn a_wrong_expected_value_is_refused_by_every_command_with_exit_4() {
    let dir = tempdir("wrong-value");
    let vectors = wrong_expected_value(&dir);
    let vectors = vectors.to_str().unwrap();
    let reference = format!("{} serve", common::conform_binary());
    let matrix = dir.join("matrix.md");
    let commands: [&[&str]; 5] = [
        &["run", "--builtin", "reference", "--vectors", vectors],
        &[
            "matrix",
            "--impl",
            &format!("ref={reference}"),
            "--vectors",
            vectors,
        ],
        &[
            "matrix",
            "--impl",
            &format!("ref={reference}"),
            "--vectors",
            vectors,
            "--markdown",
            matrix.to_str().unwrap(),
        ],
        &["lint", "--vectors", vectors],
        &["mutants", "--vectors", vectors],
    ];
    for args in commands {
        let out = conform(args);
        let all = text(&out.stderr) + &text(&out.stdout);
        assert_eq!(code(&out), 4, "{args:?}: {all}");
        assert!(all.contains("mini/murmur3-one-byte"), "{args:?}: {all}");
    }
    assert!(
        !matrix.exists(),
        "the matrix was written from refused vectors"
    );
}

#[test]
fn an_imported_file_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = tempdir("import-into");
    let fifo = dir.join("fifo/imported/fuzz_test.json");
    std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
    common::mkfifo(&fifo);
    let zero = dir.join("zero/imported/fuzz_test.json");
    std::fs::create_dir_all(zero.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    for vectors in [dir.join("fifo"), dir.join("zero")] {
        let started = Instant::now();
        let out = conform(&[
            "fuzz",
            "--builtin",
            "mutant:truncation-not-detected",
            "--op",
            "filteraddDecode",
            "--seed",
            "1",
            "--time",
            "20s",
            "--import-into",
            vectors.to_str().unwrap(),
        ]);
        let err = text(&out.stderr);
        assert_eq!(code(&out), 4, "{}: {err}", vectors.display());
        assert!(err.contains("not a regular file"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(10), "{err}");
    }
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}
