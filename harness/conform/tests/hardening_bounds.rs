//! Hostile inputs end quickly with a clear rejection: hash function counts and sizes beyond the
//! work ceilings in `serve` requests, in vector files (`lint`, `run`), and in a mutant without
//! Core's limits; and loading a large vector file stays within a small multiple of its size
//! (the child runs under an address-space limit).

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn tempdir(name: &str) -> PathBuf {
    common::tempdir(&format!("hardening-bounds-{name}"))
}

/// Runs `bip37-conform args` with `stdin` under an address-space limit of `max_kib` (an
/// allocation beyond it fails and aborts the child); returns (exit code, stdout, stderr, elapsed).
fn bounded(args: &[&str], stdin: &[u8], max_kib: u64) -> (i32, String, String, Duration) {
    use std::os::unix::process::CommandExt;
    let started = Instant::now();
    let mut command = Command::new(common::conform_binary());
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let limit = libc::rlimit {
        rlim_cur: max_kib * 1024,
        rlim_max: max_kib * 1024,
    };
    // SAFETY: setrlimit is async-signal-safe and touches only the child being started.
    unsafe {
        command.pre_exec(move || match libc::setrlimit(libc::RLIMIT_AS, &limit) {
            0 => Ok(()),
            _ => Err(std::io::Error::last_os_error()),
        });
    }
    let mut child = command.spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        started.elapsed(),
    )
}

/// The address space a small command gets: the debug binary peaks near 16 MiB of it.
const SMALL_KIB: u64 = 100 * 1024;

const HUGE_HASH_FUNCS: &str = r#"{"id": 1, "op": "buildFilter", "input": {"filter": {"kind": "explicit", "filterBytes": 10, "hashFuncs": 4294967295, "tweak": 0, "flags": 0}, "insert": ["00"]}}"#;

#[test]
fn serve_refuses_a_hash_function_count_beyond_the_ceiling_at_once() {
    assert!(HUGE_HASH_FUNCS.len() < 200);
    let request = format!("{HUGE_HASH_FUNCS}\n");
    let (code, out, _, elapsed) = bounded(&["serve"], request.as_bytes(), SMALL_KIB);
    assert_eq!(code, 0);
    let answer: serde_json::Value = serde_json::from_str(out.lines().nth(1).unwrap()).unwrap();
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["status"], "error");
    assert!(
        answer["message"].as_str().unwrap().contains("ceiling"),
        "{answer}"
    );
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
}

#[test]
fn a_mutant_without_the_hash_function_limit_stays_bounded() {
    // filterload: 1 byte of data, 2^32 - 1 hash functions; then a filteradd.
    let request = r#"{"id": 1, "op": "sequence", "input": {"steps": [{"step": "filterload", "payload": "0100ffffffff0000000000"}, {"step": "filteradd", "payload": "01ab"}]}}"#;
    let (code, out, _, elapsed) = bounded(
        &["serve", "--mutant", "no-hash-func-limit"],
        format!("{request}\n").as_bytes(),
        SMALL_KIB,
    );
    assert_eq!(code, 0);
    let answer: serde_json::Value = serde_json::from_str(out.lines().nth(1).unwrap()).unwrap();
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["status"], "error", "{answer}");
    assert!(
        answer["message"].as_str().unwrap().contains("ceiling"),
        "{answer}"
    );
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
}

fn vector_file(tests: &str) -> String {
    format!(
        r#"{{"suite": "bip37-conformance", "formatVersion": 1, "schema": "vectors.schema.json",
  "numberOfTests": 1, "header": ["h"], "notes": {{}},
  "testGroups": [{{"operation": "buildFilter", "source": {{"kind": "generated", "generator": "g", "targets": "t"}},
    "tests": [{tests}]}}]}}"#
    )
}

#[test]
fn lint_and_run_refuse_a_vector_beyond_the_ceiling_at_once() {
    let dir = tempdir("huge-hash-funcs");
    let test = r#"{"id": "huge/1", "comment": "c", "flags": [], "result": "valid", "phase": "insert",
      "input": {"filter": {"kind": "explicit", "filterBytes": 10, "hashFuncs": 4294967295, "tweak": 0, "flags": 0}, "insert": ["00"], "queries": []},
      "expected": {"filterload": "00", "contains": []}}"#;
    std::fs::write(dir.join("huge_test.json"), vector_file(test)).unwrap();
    let before = std::fs::read(dir.join("huge_test.json")).unwrap();
    let dir_arg = dir.to_str().unwrap();
    for args in [
        vec!["lint", "--vectors", dir_arg],
        vec!["run", "--builtin", "reference", "--vectors", dir_arg],
        vec![
            "run",
            "--builtin",
            "mutant:no-hash-func-cap",
            "--vectors",
            dir_arg,
        ],
    ] {
        let (code, out, err, elapsed) = bounded(&args, b"", SMALL_KIB);
        assert_eq!(code, 4, "{args:?}: {out}{err}");
        assert!(
            format!("{out}{err}").contains("hash functions are beyond the ceiling"),
            "{args:?}: {out}{err}"
        );
        assert!(elapsed < Duration::from_secs(5), "{args:?}: {elapsed:?}");
    }
    assert_eq!(std::fs::read(dir.join("huge_test.json")).unwrap(), before);
}

#[test]
fn loading_a_large_vector_file_costs_a_small_multiple_of_its_size() {
    let dir = tempdir("large-file");
    let test = |i: usize| {
        format!(
            r#"{{"id": "large/{i}", "comment": "c", "flags": [], "result": "valid", "phase": "insert",
      "input": {{"filter": {{"kind": "explicit", "filterBytes": 10, "hashFuncs": 5, "tweak": 0, "flags": 0}}, "insert": ["00112233445566778899aabbccddeeff"], "queries": []}},
      "expected": {{"filterload": "00", "contains": []}}}}"#
        )
    };
    let tests: Vec<String> = (0..25_000).map(test).collect();
    let text = vector_file(&tests.join(",\n"));
    std::fs::write(dir.join("large_test.json"), &text).unwrap();
    let size_kib = (text.len() / 1024) as u64;
    // Measured with /usr/bin/time: 37.7 MB resident for this 7.9 MB file; 20 to 100 times
    // the file before the loader parsed tests one at a time and kept a single, typed copy.
    let (code, out, err, _) = bounded(
        &["list", "--vectors", dir.to_str().unwrap(), "--id", "none"],
        b"",
        32 * 1024 + 6 * size_kib,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0 of 25000 tests selected"), "{out}");
}

#[test]
fn the_reference_and_every_mutant_refuse_filters_beyond_the_ceilings_themselves() {
    use bip37_harness::hex::Hex;
    use bip37_harness::implementation::{Answer, Implementation};
    use bip37_harness::ops::{BuildFilterInput, FilterInit, Request};
    // Built directly, without the decoding that checks the ceilings first.
    let beyond = [
        FilterInit::Explicit {
            filter_bytes: 10,
            hash_funcs: u32::MAX,
            tweak: 0,
            flags: 0,
        },
        FilterInit::Explicit {
            filter_bytes: u32::MAX,
            hash_funcs: 1,
            tweak: 0,
            flags: 0,
        },
        FilterInit::Loaded {
            data: Hex(vec![0; 10]),
            hash_funcs: u32::MAX,
            tweak: 0,
            flags: 0,
        },
    ];
    let mut implementations: Vec<Box<dyn Implementation>> =
        vec![Box::new(bip37_harness::reference_impl::Reference)];
    implementations.extend(
        bip37_harness::mutants::all()
            .into_iter()
            .map(|m| Box::new(m) as Box<dyn Implementation>),
    );
    let started = Instant::now();
    for implementation in &mut implementations {
        for filter in &beyond {
            let request = Request::BuildFilter(BuildFilterInput {
                filter: filter.clone(),
                insert: vec![Hex(vec![1, 2, 3])],
                queries: vec![],
            });
            match implementation.execute(&request) {
                Answer::Rejected(r) => assert!(
                    r.message.contains("ceiling"),
                    "{}: {}",
                    implementation.name(),
                    r.message
                ),
                other => panic!("{}: {filter:?}: {other:?}", implementation.name()),
            }
        }
    }
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn serve_answers_an_oversized_line_with_an_error_and_keeps_serving() {
    // 160 MiB without a newline: kept whole, it would not fit the 200 MiB address space.
    let mut input = vec![b'a'; 160 << 20];
    input.extend_from_slice(
        b"\n{\"id\": 2, \"op\": \"murmur3\", \"input\": {\"seed\": 0, \"data\": \"00\"}}\n",
    );
    let (code, out, _, elapsed) = bounded(&["serve"], &input, 200 * 1024);
    assert_eq!(code, 0);
    let answers: Vec<serde_json::Value> = out
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 2, "{out}");
    assert_eq!(answers[0]["id"], serde_json::Value::Null);
    assert!(answers[0]["message"]
        .as_str()
        .unwrap()
        .contains("longer than"));
    assert_eq!(answers[1]["id"], 2);
    assert_eq!(answers[1]["status"], "ok");
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
}
