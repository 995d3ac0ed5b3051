//! The committed vectors against their JSON Schema and the lint (whose re-derivation means the
//! reference passes every vector), and proof that the schema and the lint catch each problem
//! they exist for: each negative test breaks one thing in a file that is otherwise clean.

use bip37_harness::ops::OpName;
use bip37_harness::vectors::lint::{lint, lint_texts, Problem};
use bip37_harness::vectors::{load_file, vector_paths};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors")
}

fn compiled_schema() -> (boon::Schemas, boon::SchemaIndex) {
    let path = vectors_dir().join("vectors.schema.json");
    let mut schemas = boon::Schemas::new();
    let index = boon::Compiler::new()
        .compile(&path.to_string_lossy(), &mut schemas)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (schemas, index)
}

fn schema_errors(value: &Value) -> Option<String> {
    let (schemas, index) = compiled_schema();
    schemas
        .validate(value, index)
        .err()
        .map(|e| format!("{e:#}"))
}

#[test]
fn every_committed_file_matches_the_schema() {
    let paths = vector_paths(&vectors_dir()).unwrap();
    assert!(paths.len() >= 4, "{paths:?}");
    for path in paths {
        let value: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        if let Some(errors) = schema_errors(&value) {
            panic!("{}: {errors}", path.display());
        }
    }
}

#[test]
fn reference_passes_every_vector_and_the_lint_is_clean() {
    let files: Vec<_> = vector_paths(&vectors_dir())
        .unwrap()
        .iter()
        .map(|p| load_file(p).unwrap())
        .collect();
    let tests: usize = files.iter().map(|f| f.tests.len()).sum();
    assert!(tests > 100, "only {tests} tests");
    let problems = lint(&files);
    assert!(problems.is_empty(), "{}", lines(&problems));
}

#[test]
fn the_schema_lists_every_operation_and_ties_each_to_its_types() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(vectors_dir().join("vectors.schema.json")).unwrap(),
    )
    .unwrap();
    let ops: Vec<&str> = OpName::ALL.iter().map(|op| op.as_str()).collect();
    let consts = |values: &Value| -> Vec<String> {
        values
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["const"].as_str().unwrap().to_owned())
            .collect()
    };
    let listed = consts(&schema["$defs"]["OpName"]["oneOf"]);
    assert_eq!(listed, ops);
    let tied: Vec<String> = schema["$defs"]["TestGroup"]["allOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tie| {
            tie["if"]["properties"]["operation"]["const"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(tied, ops);
}

fn lines(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A small file with one test of each result, clean for the schema and the lint.
fn clean_file() -> Value {
    json!({
        "suite": "bip37-conformance",
        "formatVersion": 1,
        "schema": "vectors.schema.json",
        "numberOfTests": 3,
        "header": ["a file for the lint's own tests"],
        "notes": {
            "SignExtendedTail": {"bugType": "WRONG_ARITHMETIC", "description": "d", "effect": "e"},
            "RawFlagsByte": {"bugType": "DIVERGENCE", "description": "d", "effect": "e", "policy": "p"}
        },
        "testGroups": [
            {
                "operation": "murmur3",
                "source": {"kind": "generated", "generator": "g", "targets": "t"},
                "input": {"seed": 0},
                "tests": [
                    {"id": "mini/ff", "comment": "c", "flags": ["SignExtendedTail"], "result": "valid",
                     "phase": "hash", "input": {"data": "ff"}, "expected": {"hash": 4_251_775_245u32}}
                ]
            },
            {
                "operation": "filterloadDecode",
                "source": {"kind": "generated", "generator": "g", "targets": "t"},
                "tests": [
                    {"id": "mini/truncated", "comment": "c", "flags": [], "result": "invalid",
                     "phase": "decode", "input": {"payload": "03614e"}},
                    {"id": "mini/flags-255", "comment": "c", "flags": ["RawFlagsByte"], "result": "acceptable",
                     "phase": "decode", "input": {"payload": "01000100000000000000ff"},
                     "expected": {"data": "00", "hashFuncs": 1, "tweak": 0, "flags": 255}}
                ]
            }
        ]
    })
}

fn lint_one(file: &Value) -> Vec<Problem> {
    lint_texts(&[("mini_test.json", &file.to_string())])
}

/// The clean file with `edit` applied: exactly one lint problem, whose message contains `needle`.
fn assert_one_problem(edit: impl FnOnce(&mut Value), needle: &str) {
    let mut file = clean_file();
    edit(&mut file);
    let problems = lint_one(&file);
    assert_eq!(problems.len(), 1, "{}", lines(&problems));
    assert!(
        problems[0].to_string().contains(needle),
        "{} does not mention {needle:?}",
        problems[0]
    );
}

fn test_at(file: &mut Value, group: usize, test: usize) -> &mut Value {
    &mut file["testGroups"][group]["tests"][test]
}

#[test]
fn the_clean_file_is_clean() {
    assert_eq!(lint_one(&clean_file()), vec![]);
    assert_eq!(schema_errors(&clean_file()), None);
}

#[test]
fn lint_catches_a_duplicate_id_across_files() {
    let a = clean_file().to_string();
    let problems = lint_texts(&[("mini_test.json", &a), ("mini_test.json", &a)]);
    assert_eq!(problems.len(), 3, "{}", lines(&problems));
    assert!(problems
        .iter()
        .all(|p| p.message.contains("id already used")));
}

#[test]
fn lint_catches_an_id_outside_the_files_area() {
    assert_one_problem(
        |f| test_at(f, 0, 0)["id"] = json!("other/ff"),
        "start with mini/",
    );
}

#[test]
fn lint_catches_an_undefined_flag() {
    assert_one_problem(
        |f| test_at(f, 1, 0)["flags"] = json!(["Undefined"]),
        "flag Undefined is not defined",
    );
}

#[test]
fn lint_catches_an_unused_note() {
    assert_one_problem(
        |f| test_at(f, 0, 0)["flags"] = json!([]),
        "note SignExtendedTail is used by no test",
    );
}

#[test]
fn lint_catches_an_acceptable_test_without_a_divergence_flag() {
    assert_one_problem(
        |f| {
            f["notes"]["RawFlagsByte"]["bugType"] = json!("EDGE_CASE");
        },
        "needs a DIVERGENCE flag",
    );
}

#[test]
fn lint_catches_a_divergence_note_that_does_not_state_its_policy() {
    assert_one_problem(
        |f| {
            f["notes"]["RawFlagsByte"]
                .as_object_mut()
                .unwrap()
                .remove("policy");
        },
        "note RawFlagsByte: a DIVERGENCE or UNDEFINED note states its policy",
    );
}

#[test]
fn lint_catches_a_wrong_number_of_tests() {
    assert_one_problem(|f| f["numberOfTests"] = json!(4), "numberOfTests is 4");
}

#[test]
fn lint_catches_a_wrong_schema_name() {
    assert_one_problem(|f| f["schema"] = json!("other.json"), "schema is");
}

#[test]
fn lint_catches_a_valid_test_the_reference_answers_differently() {
    assert_one_problem(
        |f| test_at(f, 0, 0)["expected"] = json!({"hash": 1}),
        "the reference answers",
    );
}

#[test]
fn lint_catches_an_invalid_test_the_reference_accepts() {
    assert_one_problem(
        |f| test_at(f, 1, 0)["input"]["payload"] = json!("01000100000000000000ff"),
        "the test is invalid but the reference answers",
    );
}

#[test]
fn lint_catches_a_valid_test_the_reference_rejects() {
    assert_one_problem(
        |f| {
            let t = test_at(f, 1, 1);
            t["result"] = json!("valid");
            t["flags"] = json!([]);
            t["input"]["payload"] = json!("0100");
            f["notes"].as_object_mut().unwrap().remove("RawFlagsByte");
        },
        "the reference rejects it",
    );
}

#[test]
fn lint_catches_an_acceptable_test_with_a_wrong_answer() {
    assert_one_problem(
        |f| test_at(f, 1, 1)["expected"]["flags"] = json!(3),
        "the reference answers",
    );
}

#[test]
fn lint_reports_a_file_that_does_not_parse() {
    assert_one_problem(
        |f| test_at(f, 0, 0)["input"]["data"] = json!("f"),
        "odd length",
    );
}

/// The clean file with `edit` applied fails the schema.
fn assert_schema_refuses(edit: impl FnOnce(&mut Value)) {
    let mut file = clean_file();
    edit(&mut file);
    assert!(schema_errors(&file).is_some(), "{file:#}");
}

#[test]
fn schema_refuses_unknown_fields_everywhere() {
    assert_schema_refuses(|f| f["extra"] = json!(1));
    assert_schema_refuses(|f| f["testGroups"][0]["extra"] = json!(1));
    assert_schema_refuses(|f| test_at(f, 0, 0)["extra"] = json!(1));
    assert_schema_refuses(|f| f["notes"]["RawFlagsByte"]["extra"] = json!(1));
    assert_schema_refuses(|f| f["testGroups"][0]["source"]["extra"] = json!(1));
}

#[test]
fn schema_refuses_values_outside_the_enums() {
    assert_schema_refuses(|f| test_at(f, 0, 0)["result"] = json!("maybe"));
    assert_schema_refuses(|f| test_at(f, 0, 0)["phase"] = json!("everything"));
    assert_schema_refuses(|f| f["notes"]["RawFlagsByte"]["bugType"] = json!("OOPS"));
    assert_schema_refuses(|f| f["testGroups"][0]["operation"] = json!("sha256"));
}

#[test]
fn schema_checks_each_operations_fields() {
    assert_schema_refuses(|f| test_at(f, 0, 0)["input"]["tweak"] = json!(1));
    assert_schema_refuses(|f| test_at(f, 0, 0)["expected"] = json!({"seed": 1}));
    assert_schema_refuses(|f| test_at(f, 0, 0)["input"]["data"] = json!("FF"));
    assert_schema_refuses(|f| test_at(f, 0, 0)["expected"]["hash"] = json!(4_294_967_296u64));
    assert_schema_refuses(|f| test_at(f, 1, 1)["expected"]["flags"] = json!(256));
}

#[test]
fn schema_refuses_what_the_format_forbids() {
    assert_schema_refuses(|f| f["suite"] = json!("other"));
    assert_schema_refuses(|f| f["formatVersion"] = json!(2));
    assert_schema_refuses(|f| f["schema"] = json!("other.json"));
    assert_schema_refuses(|f| f["notes"]["lowercase"] = f["notes"]["RawFlagsByte"].clone());
    assert_schema_refuses(|f| f["notes"]["RawFlagsByte"]["description"] = json!(""));
    assert_schema_refuses(|f| f["notes"]["RawFlagsByte"]["policy"] = json!(null));
    assert_schema_refuses(|f| f["notes"]["RawFlagsByte"]["cves"] = json!(["CVE-13-1"]));
    assert_schema_refuses(|f| f["testGroups"][0]["source"]["targets"] = json!(""));
    assert_schema_refuses(|f| {
        f["testGroups"][0]["source"] = json!({"kind": "core", "commit": "abc", "file": "f",
            "line": 1, "testCase": "t"})
    });
    assert_schema_refuses(|f| test_at(f, 0, 0)["id"] = json!("Mini/FF"));
    assert_schema_refuses(|f| test_at(f, 0, 0)["flags"] = json!(["A", "A"]));
    assert_schema_refuses(|f| test_at(f, 1, 1)["expected"] = json!(null));
    assert_schema_refuses(|f| {
        test_at(f, 0, 0).as_object_mut().unwrap().remove("phase");
    });
}

#[test]
fn schema_ties_expected_to_the_result() {
    assert_schema_refuses(|f| test_at(f, 1, 0)["expected"] = json!({"data": "00"}));
    assert_schema_refuses(|f| {
        test_at(f, 0, 0).as_object_mut().unwrap().remove("expected");
    });
}
