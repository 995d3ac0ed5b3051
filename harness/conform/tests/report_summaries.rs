//! What the reports summarise: a conformant run lists the expected failures it tolerated (id
//! and reason), in the human and the Markdown report; and Markdown keeps the backticks of a
//! difference (`` `hash`: expected ... ``) instead of turning them into quotes.

mod common;

use common::{code, conform, text};

fn run_murmur_tail(extra: &[&str]) -> std::process::Output {
    let vectors = common::fixture_vectors().to_string_lossy().into_owned();
    let mut args = vec![
        "run",
        "--builtin",
        "mutant:murmur-tail",
        "--vectors",
        &vectors,
        "--op",
        "murmur3",
    ];
    args.extend_from_slice(extra);
    conform(&args)
}

#[test]
fn a_conformant_run_lists_its_expected_failures() {
    let dir = common::tempdir("report-summaries");
    let file = dir.join("expectations.toml");
    std::fs::write(
        &file,
        "[failures.\"mini/murmur3-three-bytes\"]\nstate = \"wrongValue\"\nreason = \"tail reversed; issue 12\"\n",
    )
    .unwrap();
    let file = file.to_string_lossy().into_owned();
    let out = run_murmur_tail(&["--expectations", &file]);
    let report = text(&out.stdout);
    assert_eq!(code(&out), 0, "{report}");
    assert!(
        report.contains("expected failures (1, listed in the expectations file):\n  mini/murmur3-three-bytes  expected failure (tail reversed; issue 12)"),
        "{report}"
    );
    let out = run_murmur_tail(&["--expectations", &file, "--format", "markdown"]);
    let report = text(&out.stdout);
    assert!(
        report.contains("- `mini/murmur3-three-bytes`: expected failure (tail reversed; issue 12)"),
        "{report}"
    );
}

#[test]
fn markdown_keeps_the_backticks_of_a_difference() {
    let out = run_murmur_tail(&["--format", "markdown"]);
    let report = text(&out.stdout);
    assert_eq!(code(&out), 1, "{report}");
    assert!(
        report.contains("- **difference**: `` `hash`: expected 2394233917, actual 4027875731 ``"),
        "{report}"
    );
}
