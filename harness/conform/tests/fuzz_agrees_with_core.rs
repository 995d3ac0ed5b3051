//! A fuzz campaign never contradicts Core (issue 23): a finding is an answer `run` would fail,
//! so an implementation that behaves as Core does, the reference served over the protocol or
//! a codec that ignores trailing bytes as Core's node does, gives no finding and no vector;
//! `--keep-going` reports every distinct finding of one with two planted mistakes.

mod common;

use common::{code, conform, conform_binary, tempdir, text};
use std::path::Path;

fn fuzz(implementation: &str, dir: &Path, extra: &[&str]) -> std::process::Output {
    let dir = dir.to_string_lossy().into_owned();
    let mut args = vec![
        "fuzz",
        "--impl",
        implementation,
        "--seed",
        "1",
        "--keep-going",
        "--import-into",
        &dir,
    ];
    args.extend_from_slice(extra);
    conform(&args)
}

fn core_like(planted: &str) -> String {
    format!("{} {planted}", common::adapter("core_like_wire").join(" "))
}

#[test]
fn an_implementation_that_behaves_as_core_gives_no_finding_and_writes_nothing() {
    let serve = format!("{} serve", conform_binary());
    for (name, implementation) in [("serve", serve), ("core-like", core_like(""))] {
        let dir = tempdir(&format!("fuzz-core-{name}"));
        let out = fuzz(&implementation, &dir, &["--time", "3s"]);
        let said = text(&out.stderr);
        assert_eq!(code(&out), 0, "{name}: {said}");
        assert!(said.contains("no finding"), "{name}: {said}");
        let written: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert!(written.is_empty(), "{name} wrote {written:?}");
    }
}

#[test]
fn keep_going_reports_each_distinct_finding_and_imports_them_lint_clean() {
    let dir = tempdir("fuzz-two-bugs");
    let out = fuzz(
        &core_like("big-endian-funcs no-element-limit"),
        &dir,
        &[
            "--time",
            "15s",
            "--op",
            "filterloadDecode",
            "--op",
            "filteraddAccept",
        ],
    );
    let said = text(&out.stderr);
    assert_eq!(code(&out), 1, "{said}");
    for op in ["filterloadDecode", "filteraddAccept"] {
        let signature = format!("MISMATCH reference-core-like-wire-{op}-");
        assert!(said.contains(&signature), "no {op} finding in {said}");
    }
    let file = dir.join("imported/fuzz_test.json");
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains("\"filteraddAccept\""), "{written}");
    let lint = conform(&["lint", "--vectors", &dir.to_string_lossy()]);
    assert_eq!(code(&lint), 0, "{}", text(&lint.stderr));
}
