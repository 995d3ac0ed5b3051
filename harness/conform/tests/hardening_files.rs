//! Hostile file situations end with a clear error and leave every user file as it was: a
//! write that fails half-way (a file size limit standing in for a full disk), a report aimed
//! at the expectations file, a missing expectations file or vector directory, and inputs that
//! are not regular files (a FIFO, a link to `/dev/zero`).

mod common;

use common::{code, conform, text};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn tempdir(name: &str) -> PathBuf {
    common::tempdir(&format!("hardening-files-{name}"))
}

/// Every entry of `dir` with its bytes (a FIFO or link by its kind): to show nothing changed.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let kind = e.file_type().unwrap();
            let bytes = if kind.is_file() {
                std::fs::read(e.path()).unwrap()
            } else {
                format!("{kind:?}").into_bytes()
            };
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

const HAND_WRITTEN: &str = "\
[failures.\"murmur3/core-00000000-0011\"]
state = \"wrongValue\"
reason = \"hand-written: our tail bug, issue #12\"
";

#[test]
fn a_failed_expectations_update_leaves_the_file_byte_for_byte_and_says_so() {
    let dir = tempdir("update-fails");
    let file = dir.join("expectations.toml");
    std::fs::write(&file, HAND_WRITTEN).unwrap();
    let before = snapshot(&dir);
    // A file size limit of 1 KiB makes the write of the new (larger) file fail with EFBIG
    // half-way, as a full disk would; SIGXFSZ is ignored so the write returns the error.
    let update = [
        "run",
        "--builtin",
        "mutant:murmur-tail",
        "--expectations",
        file.to_str().unwrap(),
        "--update-expectations",
    ];
    let limited = [
        "-c",
        "trap '' XFSZ; ulimit -f 2; exec \"$@\"",
        "sh",
        common::conform_binary(),
    ];
    let out = Command::new("sh")
        .args([&limited[..], &update].concat())
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("NOT updated"), "{err}");
    assert!(err.contains("previous contents"), "{err}");
    assert_eq!(snapshot(&dir), before, "the directory changed");
    // Without the limit the same update succeeds and keeps the hand-written reason.
    let out = conform(&update);
    assert!(text(&out.stderr).contains("wrote"), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains("hand-written: our tail bug"), "{written}");
    assert!(
        written.len() > 2048,
        "the failing case wrote less than the limit"
    );
}

#[test]
fn a_report_over_an_input_file_is_refused() {
    let dir = tempdir("output-over-input");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let file = dir.join("expectations.toml");
    std::fs::write(&file, HAND_WRITTEN).unwrap();
    let vectors = dir.join("vectors");
    std::fs::create_dir_all(&vectors).unwrap();
    std::fs::copy(
        common::fixture("vectors/mini_test.json"),
        vectors.join("mini_test.json"),
    )
    .unwrap();
    let before = snapshot(&dir);
    let vectors_before = snapshot(&vectors);
    let path = |p: PathBuf| p.to_str().unwrap().to_string();
    let expectations = path(file.clone());
    let expectations_spelt_otherwise = path(dir.join("sub/../expectations.toml"));
    let vector_dir = path(vectors.clone());
    let vector_file = path(vectors.join("mini_test.json"));
    let matrix = path(dir.join("matrix.md"));
    let matrix_spelt_otherwise = path(dir.join("sub/../matrix.md"));
    let (run, output) = (["run", "--builtin", "reference"], "--output");
    let refused = [
        [
            &run[..],
            &[
                "--expectations",
                &expectations,
                output,
                &expectations_spelt_otherwise,
            ],
        ],
        [&run[..], &["--vectors", &vector_dir, output, &vector_file]],
        [
            &run[..],
            &[
                "--expectations",
                &expectations,
                "--report",
                &format!("junit:{expectations_spelt_otherwise}"),
            ],
        ],
        [
            &["matrix", "--impl", "a=true"],
            &["--markdown", &matrix, "--json", &matrix_spelt_otherwise],
        ],
    ];
    for parts in refused {
        let args = parts.concat();
        let out = conform(&args);
        assert_eq!(code(&out), 2, "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains("same file"), "{args:?}: {err}");
    }
    assert_eq!(snapshot(&dir), before);
    assert_eq!(snapshot(&vectors), vectors_before);
}

#[test]
fn a_missing_expectations_file_is_an_error_unless_the_update_creates_it() {
    let dir = tempdir("missing-expectations");
    let file = dir.join("expectations.toml");
    let args = [
        "run",
        "--builtin",
        "reference",
        "--id",
        "murmur3/*",
        "--expectations",
        file.to_str().unwrap(),
    ];
    let out = conform(&args);
    assert_eq!(code(&out), 2);
    assert!(
        text(&out.stderr).contains("expectations.toml"),
        "{}",
        text(&out.stderr)
    );
    assert!(!file.exists());
    let out = conform(&[&args[..], &["--update-expectations"]].concat());
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    assert!(file.exists());
}

#[test]
fn a_missing_vector_directory_is_a_usage_error() {
    for command in ["run", "list", "lint", "mutants", "matrix"] {
        let mut args = vec![command, "--vectors", "/nonexistent/vectors"];
        match command {
            "run" => args.extend(["--builtin", "reference"]),
            "matrix" => args.extend(["--impl", "a=true"]),
            _ => {}
        }
        let out = conform(&args);
        let err = text(&out.stderr);
        assert_eq!(code(&out), 2, "{command}: {err}");
        assert!(err.contains("/nonexistent/vectors"), "{command}: {err}");
        assert!(!err.contains(":0:0"), "{command}: {err}");
    }
}

#[test]
fn inputs_that_are_not_regular_files_are_refused_at_once() {
    let dir = tempdir("not-regular");
    let vectors = dir.join("vectors");
    std::fs::create_dir_all(&vectors).unwrap();
    common::mkfifo(&vectors.join("fifo_test.json"));
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.toml")).unwrap();
    let started = Instant::now();
    let out = conform(&[
        "run",
        "--builtin",
        "reference",
        "--vectors",
        vectors.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 4, "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("not a regular file"),
        "{}",
        text(&out.stderr)
    );
    let out = conform(&[
        "run",
        "--builtin",
        "reference",
        "--expectations",
        dir.join("zero.toml").to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 2);
    assert!(
        text(&out.stderr).contains("not a regular file"),
        "{}",
        text(&out.stderr)
    );
    assert!(started.elapsed() < Duration::from_secs(20));
}

/// The limit of `a_failed_expectations_update_leaves_the_file_byte_for_byte_and_says_so`
/// without the shell's `trap '' XFSZ`: the tool itself must keep SIGXFSZ from killing it, so
/// the write fails with EFBIG and its temporary file is removed.
#[test]
fn a_file_size_limit_leaves_no_temporary_file() {
    let dir = tempdir("efbig");
    let file = dir.join("expectations.toml");
    std::fs::write(&file, HAND_WRITTEN).unwrap();
    let before = snapshot(&dir);
    let out = Command::new("sh")
        .args([
            "-c",
            "ulimit -f 2; exec \"$@\"",
            "sh",
            common::conform_binary(),
            "run",
            "--builtin",
            "mutant:murmur-tail",
            "--expectations",
            file.to_str().unwrap(),
            "--update-expectations",
        ])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("NOT updated"), "{err}");
    assert_eq!(snapshot(&dir), before, "the directory changed");
}

/// A reader on the FIFO gets the report; the FIFO stays a FIFO.
#[test]
fn a_report_into_a_fifo_reaches_its_reader() {
    let dir = tempdir("fifo-output");
    let fifo = dir.join("report.fifo");
    common::mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = conform(&[
        "run",
        "--builtin",
        "reference",
        "--id",
        "murmur3/*",
        "--format",
        "junit",
        "--output",
        fifo.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    let report = reader.join().unwrap();
    assert!(report.starts_with("<?xml"), "{report}");
    assert!(report.contains("</testsuites>"), "{report}");
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

/// Device nodes of this test's own, like `/dev/null` (1, 3) and `/dev/full` (1, 7), made in a
/// temporary directory; `None` (the test is skipped, saying so) where they cannot be made or
/// opened (not root, or a `nodev` filesystem).
fn device_nodes(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    let make = |name: &str, minor: u32| {
        let path = dir.join(name);
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        let dev = libc::makedev(1, minor);
        // SAFETY: a valid NUL-terminated path.
        let made = unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, dev) } == 0;
        let opens = made && std::fs::OpenOptions::new().write(true).open(&path).is_ok();
        opens.then_some(path)
    };
    match (make("null", 3), make("full", 7)) {
        (Some(null), Some(full)) => Some((null, full)),
        _ => {
            eprintln!(
                "SKIPPED: cannot make and open device nodes in {} (needs root and a filesystem \
                 without nodev)",
                dir.display()
            );
            None
        }
    }
}

fn is_char_device(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path)
        .unwrap()
        .file_type()
        .is_char_device()
}

/// `--output`, `--report` and `matrix --markdown` naming a character device write into it and
/// leave the node in place: as root, replacing it would replace the system's `/dev/null`.
#[test]
fn a_report_into_a_character_device_leaves_the_device_node() {
    let dir = tempdir("devices");
    let Some((null, full)) = device_nodes(&dir) else {
        return;
    };
    let (null_path, full_path) = (null.to_str().unwrap(), full.to_str().unwrap());
    let run = ["run", "--builtin", "reference", "--id", "murmur3/*"];
    let out = conform(&[&run[..], &["--output", null_path]].concat());
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    let out = conform(&[&run[..], &["--report", &format!("junit:{null_path}")]].concat());
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    let out = conform(&[
        "matrix",
        "--impl",
        &format!("ref={} serve", common::conform_binary()),
        "--id",
        "murmur3/*",
        "--markdown",
        null_path,
    ]);
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    let out = conform(&[&run[..], &["--output", full_path]].concat());
    assert_eq!(code(&out), 2, "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("No space left"),
        "{}",
        text(&out.stderr)
    );
    assert!(is_char_device(&null) && is_char_device(&full));
    let mut names: Vec<String> = snapshot(&dir).into_keys().collect();
    names.sort();
    assert_eq!(
        names,
        ["full", "null"],
        "a file was left beside the devices"
    );
}

/// A report on stdout that cannot be written whole (`> /dev/full`) is exit 2 with the cause,
/// never 0.
#[test]
fn a_failed_write_to_stdout_is_exit_2() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(common::conform_binary())
        .args(["run", "--builtin", "reference", "--format", "junit"])
        .stdout(full)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot write to stdout"), "{err}");
    assert!(err.contains("No space left"), "{err}");
}

/// `bip37-conform ARGS` under a file size limit of `blocks` (dash's 512-byte blocks).
fn limited(blocks: u64, args: &[&str]) -> std::process::Output {
    let limit = format!("ulimit -f {blocks}; exec \"$@\"");
    let mut argv = vec!["-c", &limit, "sh", common::conform_binary()];
    argv.extend_from_slice(args);
    Command::new("sh").args(argv).output().unwrap()
}

/// Issue 32: with room for the Markdown only, `matrix --markdown M --json J` left the new M
/// beside the old J; the pair is written together, so both stay old.
#[test]
fn the_matrix_pair_is_written_both_or_neither() {
    let dir = tempdir("matrix-pair");
    let (markdown, json) = (dir.join("matrix.md"), dir.join("matrix.json"));
    let serve = format!("ref={} serve", common::conform_binary());
    let vectors = common::fixture_vectors();
    let args = [
        "matrix",
        "--impl",
        &serve,
        "--vectors",
        vectors.to_str().unwrap(),
        "--markdown",
        markdown.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ];
    let out = conform(&args);
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    let sizes = [&markdown, &json].map(|f| std::fs::metadata(f).unwrap().len());
    let blocks = sizes[0].div_ceil(512);
    assert!(sizes[1] > blocks * 512, "the JSON must not fit: {sizes:?}");
    std::fs::write(&markdown, "old markdown").unwrap();
    std::fs::write(&json, "old json").unwrap();
    let before = snapshot(&dir);
    let out = limited(blocks, &args);
    let err = text(&out.stderr);
    assert_eq!(code(&out), 2, "{err}");
    assert!(err.contains("none of them changed"), "{err}");
    assert_eq!(snapshot(&dir), before, "the pair changed");
}

/// Issue 32: an update that cannot create a new expectations file said the file "keeps its
/// previous contents"; there were none.
#[test]
fn a_failed_update_of_a_new_expectations_file_says_none_was_created() {
    let dir = tempdir("new-expectations");
    let file = dir.join("expectations.toml");
    let args = [
        "run",
        "--builtin",
        "mutant:murmur-tail",
        "--expectations",
        file.to_str().unwrap(),
        "--update-expectations",
    ];
    let out = limited(1, &args);
    let err = text(&out.stderr);
    assert_eq!(code(&out), 2, "{err}");
    assert!(
        err.contains("NOT updated") && err.contains("no file was created"),
        "{err}"
    );
    assert!(!err.contains("previous contents"), "{err}");
    assert!(snapshot(&dir).is_empty());
}
