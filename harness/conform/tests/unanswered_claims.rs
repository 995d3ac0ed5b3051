//! The hello is a claim (issue 23): the two adapters the issue describes, written from
//! docs/PROTOCOL.md, can get exit 0 only once an expectations file names, with a reason, every
//! claimed test they answered `unsupported`. One claims every operation and answers only
//! `murmur3`; the other turns every exception into `unsupported`, hiding a divide-by-zero on
//! the empty filter.

mod common;

use common::{code, conform, tempdir, text};
use std::process::Output;

fn adapter(name: &str) -> String {
    common::adapter(name).join(" ")
}

fn all_text(out: &Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

/// `run` of `implementation` over the suite's own vectors, held to `expectations`.
fn gate(implementation: &str, expectations: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "run",
        "--impl",
        implementation,
        "--expectations",
        expectations,
    ];
    args.extend_from_slice(extra);
    conform(&args)
}

/// Replaces every placeholder reason `--update-expectations` wrote with a written one.
fn fill_in_reasons(file: &str) {
    let written = std::fs::read_to_string(file).unwrap();
    assert!(
        written.contains(bip37_harness::expectations::FILL_IN),
        "{written}"
    );
    let filled = written.replace(
        bip37_harness::expectations::FILL_IN,
        "the library has no such call yet",
    );
    std::fs::write(file, filled).unwrap();
}

/// Runs the whole cycle on one adapter: the first run fails on unanswered claims, pinned
/// operations alone do not help, the update records them with a reason to fill in (which
/// excuses nothing), and only written reasons make the gate pass. Returns the final verdict.
fn cycle(name: &str, unanswered: usize) -> String {
    let implementation = adapter(name);
    let dir = tempdir(&format!("claims-{name}"));
    let file = dir.join("expectations.toml").to_string_lossy().into_owned();

    let out = conform(&["run", "--impl", &implementation]);
    assert_eq!(code(&out), 1, "{}", all_text(&out));
    let needle = format!("not conformant: {unanswered} claimed tests answered `unsupported`");
    assert!(all_text(&out).contains(&needle), "{}", all_text(&out));

    // Pinning the operations it answers does not excuse the rest of its claim.
    std::fs::write(&file, "operations = [\"murmur3\"]\n").unwrap();
    assert_eq!(code(&gate(&implementation, &file, &[])), 1);

    let out = gate(&implementation, &file, &["--update-expectations"]);
    assert_eq!(code(&out), 1, "{}", all_text(&out));
    let said = format!("({unanswered} claimed tests answered `unsupported`: each excuses nothing");
    assert!(all_text(&out).contains(&said), "{}", all_text(&out));
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        written.matches("state = \"unsupported\"").count(),
        unanswered,
        "{written}"
    );
    // A reason still to be written excuses nothing.
    let out = gate(&implementation, &file, &[]);
    assert_eq!(code(&out), 1, "{}", all_text(&out));
    assert!(
        all_text(&out).contains("its reason is still to be written"),
        "{}",
        all_text(&out)
    );

    fill_in_reasons(&file);
    let out = gate(&implementation, &file, &[]);
    assert_eq!(code(&out), 0, "{}", all_text(&out));
    all_text(&out)
        .lines()
        .find(|line| line.starts_with("conformant"))
        .unwrap_or_else(|| panic!("no verdict in {}", all_text(&out)))
        .to_string()
}

/// How many tests of the suite's vectors are of an operation other than `murmur3`: the claims
/// an adapter that answers only `murmur3` leaves unanswered.
fn tests_beside_murmur3() -> usize {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors");
    let paths = bip37_harness::vectors::vector_paths(&dir).unwrap();
    let loaded = paths
        .iter()
        .flat_map(|p| bip37_harness::vectors::load_file(p).unwrap().tests);
    loaded
        .filter(|t| t.request.op() != bip37_harness::ops::OpName::Murmur3)
        .count()
}

#[test]
fn claiming_everything_and_answering_only_murmur3_is_never_green_by_itself() {
    let unanswered = tests_beside_murmur3();
    let verdict = cycle("claims_everything", unanswered);
    // The verdict says what was checked: one operation of the fourteen it claims.
    assert!(
        verdict.starts_with("conformant in 1 of 14 claimed operations"),
        "{verdict}"
    );
    let listed = format!("{unanswered} expected failures");
    assert!(verdict.contains(&listed), "{verdict}");
}

#[test]
fn an_exception_turned_into_unsupported_is_an_unanswered_claim() {
    let implementation = adapter("except_unsupported");
    let out = conform(&["run", "--impl", &implementation, "--format", "json"]);
    assert_eq!(code(&out), 1, "{}", all_text(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let unanswered: Vec<&str> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["state"] == "unsupported")
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    // The divide-by-zero on the empty filter, which Core guards against.
    assert_eq!(
        unanswered,
        [
            "filter/empty-filter-indexes",
            "filter/empty-filter-match-all",
            "filter/explicit-empty-filter-insert"
        ]
    );
    // Its declared capability (no sized filters) leaves those tests out, unsent.
    let excluded = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "filter/core-insert-key")
        .unwrap();
    assert_eq!(excluded["state"], "notClaimed");
    let message = excluded["message"].as_str().unwrap();
    assert!(
        message.contains("filterKinds are explicit, loaded"),
        "{message}"
    );
    let verdict = cycle("except_unsupported", 3);
    assert!(
        verdict.contains("(the hello's capabilities: filterKinds explicit, loaded)"),
        "{verdict}"
    );
}
