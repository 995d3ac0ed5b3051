//! The adapters the documentation offers work: `adapters/template.py`, `adapters/template-go/`
//! (skipped where `go` is absent), the JavaScript adapter in `docs/PROTOCOL.md` and
//! `adapters/template-java` (built with Maven, skipped where `java` or `mvn` is absent) pass what
//! they implement (the templates MurmurHash3, the seeds and the sizing) and leave the rest unclaimed; the Java protocol loop passes its own JUnit
//! tests; and the protocol document lists every operation.

mod common;

use bip37_harness::ops::OpName;
use bip37_harness::runner::{run_tests, RunOptions, State};
use bip37_harness::subprocess::{ClientConfig, Subprocess};
use std::path::Path;
use std::process::Command;

fn states(argv: Vec<String>) -> Vec<(String, State)> {
    let tests = common::mini_tests();
    let selected: Vec<_> = tests.iter().collect();
    let mut child = Subprocess::start(ClientConfig::new(argv)).expect("the adapter starts");
    let run = run_tests(&selected, &mut child, &RunOptions::default());
    run.results
        .into_iter()
        .map(|r| (r.test.case.id, r.state))
        .collect()
}

/// The templates implement MurmurHash3, the hash seeds and the sizing: those pass, the rest is
/// not claimed. (The JavaScript adapter of docs/PROTOCOL.md has no sizing.)
fn assert_template_operations(states: &[(String, State)], sizing: bool) {
    for (id, state) in states {
        let hashing = id.contains("murmur3") || id.contains("seed-");
        let wanted = if hashing || (sizing && id.contains("sizing")) {
            State::Pass
        } else {
            State::NotClaimed
        };
        assert_eq!(*state, wanted, "{id}");
    }
}

#[test]
fn the_python_template_passes_its_operations() {
    let template = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../adapters/template.py");
    assert_template_operations(
        &states(vec![
            "python3".into(),
            template.to_string_lossy().into_owned(),
        ]),
        true,
    );
}

#[test]
fn the_go_template_passes_its_operations() {
    let binary = Path::new(env!("CARGO_TARGET_TMPDIR")).join("template-go");
    let dir = common::adapters_dir().join("template-go");
    let binary_arg = binary.to_string_lossy().into_owned();
    let Some(build) = common::go(&dir, &["build", "-trimpath", "-o", &binary_arg, "."]) else {
        return;
    };
    common::assert_success("go build adapters/template-go", &build);
    assert_template_operations(&states(vec![binary_arg.clone()]), true);
    // And as a user runs it: `bip37-conform run` over the whole suite, conformant.
    let out = common::conform(&["run", "--impl", &binary_arg]);
    assert_eq!(common::code(&out), 0, "{}", common::text(&out.stdout));
}

fn repository() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Whether `java` and `mvn` run here; if not, says that the calling test is skipped.
fn jvm_tools(test: &str) -> bool {
    for (tool, flag) in [("java", "-version"), ("mvn", "-v")] {
        let runs = Command::new(tool)
            .arg(flag)
            .output()
            .is_ok_and(|o| o.status.success());
        if !runs {
            eprintln!("{test}: skipped, `{tool}` is not installed (README, Prerequisites)");
            return false;
        }
    }
    true
}

/// Runs a command in the repository and fails the test with its output if it fails.
fn succeeds(argv: &[&str]) {
    let out = Command::new(argv[0])
        .args(&argv[1..])
        .current_dir(repository())
        .output()
        .unwrap_or_else(|e| panic!("{argv:?} does not start: {e}"));
    assert!(
        out.status.success(),
        "{argv:?}: {}\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_java_template_passes_its_operations() {
    if !jvm_tools("the_java_template_passes_its_operations") {
        return;
    }
    succeeds(&["adapters/java-protocol/build.sh", "adapters/template-java"]);
    let args = repository().join("adapters/template-java/target/classpath.args");
    assert_template_operations(
        &states(vec![
            "java".into(),
            format!("@{}", args.to_string_lossy()),
            "template.Template".into(),
        ]),
        true,
    );
}

#[test]
fn the_java_protocol_loop_passes_its_own_tests() {
    if !jvm_tools("the_java_protocol_loop_passes_its_own_tests") {
        return;
    }
    succeeds(&[
        "mvn",
        "-B",
        "-q",
        "-f",
        "adapters/java-protocol/pom.xml",
        "verify",
    ]);
}

fn protocol_document() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/PROTOCOL.md"))
        .unwrap()
}

#[test]
fn the_protocol_document_lists_every_operation() {
    let doc = protocol_document();
    for op in OpName::ALL {
        assert!(
            doc.contains(&format!("`{op}`")),
            "docs/PROTOCOL.md does not list {op}"
        );
    }
}

#[test]
fn the_javascript_adapter_of_the_protocol_document_passes_its_operations() {
    let doc = protocol_document();
    let start = doc.find("```js\n").expect("a js block") + "```js\n".len();
    let end = start + doc[start..].find("```").unwrap();
    let script = Path::new(env!("CARGO_TARGET_TMPDIR")).join("protocol_doc_adapter.js");
    std::fs::write(&script, &doc[start..end]).unwrap();
    assert_template_operations(
        &states(vec!["node".into(), script.to_string_lossy().into_owned()]),
        false,
    );
}
