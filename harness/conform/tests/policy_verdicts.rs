//! Verdicts that are the suite's policy say so: a failure on an input Core leaves undefined is
//! never reported as "Core rejects it", and p = 1 is Core's defined match-all filter.

mod common;

use common::{code, conform};

#[test]
fn an_undefined_sizing_failure_names_the_policy_not_core() {
    let out = conform(&[
        "run",
        "--builtin",
        "mutant:undefined-sizing",
        "--id",
        "sizing/undefined-bit-count-overflow",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 1);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let result = &json["results"][0];
    assert_eq!(result["state"], "acceptedInvalid");
    assert_eq!(
        result["policy"],
        "undefined in Core; the suite requires a rejection"
    );
    let message = result["message"].as_str().unwrap();
    assert!(!message.contains("Core rejects"), "{message}");
    assert!(message.contains("the suite's policy"), "{message}");
    // An acceptable test's tolerated rejection is policy too; a plain Core test has none.
    let out = conform(&[
        "run",
        "--builtin",
        "reference",
        "--id",
        "wire/filterload-flags-255",
        "--id",
        "sizing/core-n3-p0.01",
        "--format",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let policies: Vec<&serde_json::Value> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["policy"])
        .collect();
    assert!(policies[0].is_null(), "{policies:?}");
    assert!(
        policies[1].as_str().unwrap().contains("suite's policy"),
        "{policies:?}"
    );
}

#[test]
fn p_one_is_the_match_all_filter_core_computes() {
    let tests = bip37_conform::vector_set::load(None).unwrap();
    let p_one = tests
        .iter()
        .find(|t| t.case.id == "sizing/edge-n5-p1.0")
        .expect("the p = 1 vector exists");
    assert_eq!(
        p_one.expected.as_ref().map(|o| o.to_json()),
        Some(serde_json::json!({"filterBytes": 0, "hashFuncs": 0}))
    );
    assert!(tests.iter().all(|t| t.case.id != "sizing/undefined-p-one"));
}
