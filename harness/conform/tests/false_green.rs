//! A run that tested nothing must never say "conformant": every way the issue found to get a
//! false green ends in a non-zero exit code with a message that says why.

mod common;

use common::{code, conform, run_with_expectations};
use std::path::PathBuf;
use std::process::Output;

fn all_text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn vectors() -> String {
    common::fixture_vectors().to_string_lossy().into_owned()
}

/// The fixture adapter that claims `claimed` and answers every request as `mode` says.
fn hollow(mode: &str, claimed: &[&str]) -> String {
    let mut argv = common::adapter("hollow");
    argv.push(mode.into());
    argv.extend(claimed.iter().map(|s| s.to_string()));
    argv.join(" ")
}

const NOTHING_EXERCISED: i32 = 5;

fn assert_exit(out: &Output, expected: i32, needle: &str) {
    let text = all_text(out);
    assert_eq!(code(out), expected, "{text}");
    assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
}

#[test]
fn a_hello_with_no_known_operation_exercises_nothing() {
    let v = vectors();
    let out = conform(&[
        "run",
        "--impl",
        &hollow("unsupported", &[]),
        "--vectors",
        &v,
    ]);
    assert_exit(
        &out,
        NOTHING_EXERCISED,
        "nothing was exercised: the hello lists no known operation; known: murmur3, hashSeed",
    );
    // Misspelled names are allowed (the adapter may be newer) but warned about, with the
    // known names, and they exercise nothing.
    let misspelled = hollow("unsupported", &["murmur", "hashseed"]);
    let out = conform(&["run", "--impl", &misspelled, "--vectors", &v]);
    assert_exit(
        &out,
        NOTHING_EXERCISED,
        "the hello lists no known operation",
    );
    assert_exit(
        &out,
        NOTHING_EXERCISED,
        "warning: the implementation claims operations this harness does not know, never sent: \
         murmur, hashseed; known: murmur3",
    );
    // In a machine format on stdout, the reason still reaches stderr.
    let out = conform(&[
        "run",
        "--impl",
        &misspelled,
        "--vectors",
        &v,
        "--format",
        "junit",
    ]);
    assert_eq!(code(&out), NOTHING_EXERCISED);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nothing was exercised"), "{err}");
    assert!(err.contains("warning: the implementation claims"), "{err}");
}

#[test]
fn an_implementation_answering_unsupported_to_all_it_claims_fails() {
    let everything = hollow("unsupported", &["murmur3", "hashSeed", "sizing"]);
    let v = vectors();
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "--impl", &everything, "--vectors", &v];
        args.extend_from_slice(extra);
        conform(&args)
    };
    // The hello is a claim: every unanswered one fails, and the verdict line says so.
    let out = run(&[]);
    assert_exit(
        &out,
        1,
        "not conformant: 6 claimed tests answered `unsupported` (an unanswered claim",
    );
    let out = run(&["--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["conformance"], "failures");
    assert_eq!(json["summary"]["unsupported"], 6);
    // Claimed operations none of the selected tests ask.
    let out = run(&["--op", "bitIndexes"]);
    assert_exit(
        &out,
        NOTHING_EXERCISED,
        "none of the 1 selected tests asks an operation the implementation claims",
    );
}

#[test]
fn a_selection_of_no_test_exercises_nothing_unless_allowed() {
    for selection in [["--id", "typo*"], ["--flag", "NoSuchFlag"]] {
        let mut args = vec!["run", "--builtin", "reference"];
        args.extend(selection);
        let out = conform(&args);
        assert_exit(
            &out,
            NOTHING_EXERCISED,
            "nothing was exercised: the selection picks no test",
        );
        let typo = format!("warning: {} {}", selection[0], selection[1]);
        assert_exit(&out, NOTHING_EXERCISED, &typo);
        args.push("--allow-empty");
        assert_exit(&conform(&args), 0, "conformant");
    }
}

#[test]
fn fuzzing_an_implementation_that_answers_its_claim_unsupported_is_a_finding() {
    // As `run` fails a claimed test answered `unsupported`, so does the fuzzer: the claim
    // was murmur3, and its first case is an unanswered claim.
    let out = conform(&[
        "fuzz",
        "--impl",
        &hollow("unsupported", &["murmur3"]),
        "--time",
        "300ms",
        "--seed",
        "1",
    ]);
    assert_exit(&out, 1, "MISMATCH reference-");
    assert!(
        all_text(&out).contains(": unsupported"),
        "{}",
        all_text(&out)
    );
}

#[test]
fn recorded_crashes_never_make_a_green_gate() {
    let file = &expectations_file("crashes");
    let crashing = hollow("crash", &["murmur3", "hashSeed"]);
    let v = vectors();
    let run = |extra: &[&str]| run_with_expectations(&crashing, &v, file, extra);
    // The update run says what the run was before the file: crashes.
    let out = run(&["--update-expectations"]);
    assert_exit(&out, 3, "5 crashes and timeouts left out: --record-crashes");
    let written = std::fs::read_to_string(file).unwrap();
    assert!(!written.contains("crash"), "{written}");
    // The gate still sees the crashes.
    assert_eq!(code(&run(&[])), 3);
    // Asked to, the update records them; the update run itself still fails, and the gate
    // afterwards exercised nothing (every answered test an expected failure).
    let out = run(&["--update-expectations", "--record-crashes"]);
    assert_eq!(code(&out), 3, "{}", all_text(&out));
    assert!(std::fs::read_to_string(file)
        .unwrap()
        .contains("state = \"crash\""));
    assert_exit(
        &run(&[]),
        NOTHING_EXERCISED,
        "no test passed: 5 expected failures",
    );
}

#[test]
fn a_pinned_operation_that_stops_being_answered_fails_the_gate() {
    let file = &expectations_file("pinned");
    let v = vectors();
    let template = format!(
        "python3 {}/../../adapters/template.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let gate = |implementation: &str| run_with_expectations(implementation, &v, file, &[]);
    let out = run_with_expectations(&template, &v, file, &["--update-expectations"]);
    assert_eq!(code(&out), 0, "{}", all_text(&out));
    let written = std::fs::read_to_string(file).unwrap();
    assert!(
        written.contains("operations = [\"murmur3\", \"hashSeed\", \"sizing\"]"),
        "{written}"
    );
    assert_eq!(code(&gate(&template)), 0);
    // The next release drops hashSeed: its one test is now unsupported, and the gate fails.
    let partial = format!(
        "python3 -c \"import sys; sys.argv=['t']; sys.path.insert(0, '{}/../../adapters'); \
         import template as t; t.OPERATIONS.pop('hashSeed'); \
         t.serve(t.IMPLEMENTATION, t.VERSION, t.OPERATIONS)\"",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = gate(&partial);
    assert_exit(
        &out,
        1,
        "coverage dropped: the expectations file requires hashSeed",
    );
    // An unknown pinned name is a broken file.
    std::fs::write(file, "operations = [\"murmur\"]\n").unwrap();
    assert_exit(&gate(&template), 2, "\"murmur\" is not an operation");
}

#[test]
fn run_with_a_vector_directory_lints_it_first() {
    let dir = tempdir("lint-first");
    let text = std::fs::read_to_string(common::fixture("vectors/mini_test.json")).unwrap();
    let mut file: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tests = file["testGroups"][0]["tests"].as_array_mut().unwrap();
    // A valid input marked invalid, and a duplicate id.
    tests[0]["result"] = "invalid".into();
    tests[0].as_object_mut().unwrap().remove("expected");
    tests[1]["id"] = tests[2]["id"].clone();
    std::fs::write(
        dir.join("mini_test.json"),
        serde_json::to_string_pretty(&file).unwrap(),
    )
    .unwrap();
    let d = dir.to_string_lossy().into_owned();
    // An implementation that rejects everything would pass the test marked invalid.
    let always_reject = hollow("reject", &["murmur3", "hashSeed"]);
    let out = conform(&["run", "--impl", &always_reject, "--vectors", &d]);
    assert_exit(&out, 4, "nothing was run");
    let text = all_text(&out);
    assert!(text.contains("mini/murmur3-empty"), "{text}");
    assert!(text.contains("id already used"), "{text}");
    let out = conform(&["run", "--builtin", "reference", "--vectors", &d]);
    assert_eq!(code(&out), 4);
}

/// The path of an expectations file, not yet written, in a fresh directory.
fn expectations_file(name: &str) -> String {
    let path = tempdir(name).join("expectations.toml");
    path.to_string_lossy().into_owned()
}

fn tempdir(name: &str) -> PathBuf {
    common::tempdir(&format!("false-green-{name}"))
}

/// The fixture adapter whose hello says `capabilities` (JSON text).
fn capable(capabilities: &str) -> String {
    let mut argv = common::adapter("capabilities");
    argv.push(shlex::try_quote(capabilities).unwrap().into_owned());
    argv.join(" ")
}

/// Issue 32: capabilities that are not an object were read positionally (`[]` declared nothing,
/// `[["sized"], 10, ["none"]]` three narrowings); the hello is refused with exit 2 and where.
#[test]
fn capabilities_of_the_wrong_kind_are_refused_at_the_hello() {
    for value in ["[]", r#"[["sized"], 10, ["none"]]"#, "\"all\""] {
        let out = conform(&["run", "--impl", &capable(value), "--id", "murmur3_test/*"]);
        assert_exit(&out, 2, "expected an object with the fields filterKinds");
        assert!(all_text(&out).contains("column"), "{}", all_text(&out));
    }
}

/// Issue 32: tests excluded by the hello's capabilities are not expected failures; the verdict
/// says which they are, and "expected failure" only where an expectations file listed one.
#[test]
fn a_verdict_calls_nothing_an_expected_failure_that_no_file_lists() {
    let implementation = capable(r#"{"filterKinds": []}"#);
    let out = conform(&["run", "--impl", &implementation]);
    let text = all_text(&out);
    assert_eq!(code(&out), 0, "{text}");
    assert!(!text.contains("expected failure"), "{text}");
    assert!(
        text.contains("no test passed in bitIndexes (")
            && text.contains("excluded by the hello's capabilities)"),
        "{text}"
    );
}
