//! Paths and loaders shared by the harness's integration tests.
#![allow(dead_code)] // each test binary uses its own part of this module

pub mod core_steps;
pub mod processes;

use bip37_harness::vectors::{load_file, LoadedTest};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A file under `harness/conform/tests/fixtures/`.
pub fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(path)
}

/// The fixture vector directory.
pub fn fixture_vectors() -> PathBuf {
    fixture("vectors")
}

/// The tests of the fixture vector file.
pub fn mini_tests() -> Vec<LoadedTest> {
    load_file(&fixture("vectors/mini_test.json"))
        .expect("the fixture vectors load")
        .tests
}

/// The argv that runs a misbehaving fixture adapter.
pub fn adapter(name: &str) -> Vec<String> {
    vec![
        "python3".into(),
        fixture(&format!("adapters/{name}.py"))
            .to_string_lossy()
            .into_owned(),
    ]
}

/// Runs the `bip37-conform` binary built for the tests with `args`.
pub fn conform(args: &[&str]) -> Output {
    Command::new(conform_binary())
        .args(args)
        .output()
        .expect("bip37-conform runs")
}

/// The exit code of a command that exited normally.
pub fn code(output: &Output) -> i32 {
    output.status.code().expect("exited normally")
}

/// Lossy UTF-8 text of a command's output.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The `bip37-conform` binary built for the tests.
pub fn conform_binary() -> &'static str {
    env!("CARGO_BIN_EXE_bip37-conform")
}

/// `bip37-conform run` of `implementation` over `vectors` with the expectations file `file`,
/// and `extra` arguments.
pub fn run_with_expectations(
    implementation: &str,
    vectors: &str,
    file: &str,
    extra: &[&str],
) -> Output {
    let mut args = vec![
        "run",
        "--impl",
        implementation,
        "--vectors",
        vectors,
        "--expectations",
        file,
    ];
    args.extend_from_slice(extra);
    conform(&args)
}

/// A fresh, empty directory called `name` under the test target's scratch directory.
pub fn tempdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The repository's `adapters/` directory.
pub fn adapters_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../adapters")
}

/// `go` with `args`, run in `dir` without touching the network (the Go modules these tests
/// build need nothing from the module proxy), or None after saying why when `go` is absent:
/// CI has it (`.ci/prerequisites`), a `cargo test` without Go skips the Go checks.
pub fn go(dir: &Path, args: &[&str]) -> Option<Output> {
    let output = Command::new("go")
        .args(args)
        .current_dir(dir)
        .env("GOFLAGS", "-mod=readonly")
        .env("GOPROXY", "off")
        .env("GOTOOLCHAIN", "local")
        .output();
    match output {
        Ok(output) => Some(output),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("skipped: `go` is not installed (CI installs it: .ci/prerequisites)");
            None
        }
        Err(e) => panic!("go {args:?}: {e}"),
    }
}

/// Asserts that a command succeeded, showing its output otherwise.
pub fn assert_success(what: &str, output: &Output) {
    assert!(
        output.status.success(),
        "{what}: {}\n{}{}",
        output.status,
        text(&output.stdout),
        text(&output.stderr)
    );
}

/// Makes a FIFO at `path` (mkfifo(3), mode 0600).
pub fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(
        unsafe { libc::mkfifo(c.as_ptr(), 0o600) },
        0,
        "mkfifo {}",
        path.display()
    );
}
