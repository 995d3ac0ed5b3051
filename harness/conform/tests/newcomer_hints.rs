//! What a newcomer's first mistakes get: an exit code that says what happened and a message
//! that says what to do. A missing adapter file cannot start (2, not a crash); an unquoted
//! `--impl`, shell syntax inside `--impl` and repository-only commands outside a checkout are
//! explained; a crash shows the end of the adapter's stderr, where the exception is named,
//! once per test; stray stdout gets a hint to use stderr; adapter faults are diagnosed as
//! adapter faults, not against the bug classes; a missing expectations file is one that
//! `--update-expectations` creates; and a value cut short says where it is whole.

mod common;

use common::{code, conform, text};
use std::process::Command;

fn vectors() -> String {
    common::fixture_vectors().to_string_lossy().into_owned()
}

fn adapter(name: &str) -> String {
    common::adapter(name).join(" ")
}

#[test]
fn a_missing_adapter_file_cannot_start() {
    let out = conform(&["run", "--impl", "python3 no/such/adapter.py"]);
    let stderr = text(&out.stderr);
    assert_eq!(code(&out), 2, "{stderr}");
    assert!(
        stderr.contains("cannot start the implementation"),
        "{stderr}"
    );
    assert!(stderr.contains("can't open file"), "{stderr}");
    // A crash before the hello that names no missing file is still a breakdown.
    let out = conform(&["run", "--impl", "python3 -c 'raise SystemExit(3)'"]);
    assert_eq!(code(&out), 3, "{}", text(&out.stderr));
}

#[test]
fn an_unquoted_impl_gets_a_hint() {
    let out = conform(&["run", "--impl", "python3", "adapter.py", "--format", "json"]);
    let stderr = text(&out.stderr);
    assert_eq!(code(&out), 2, "{stderr}");
    assert!(
        stderr.contains("hint: --impl takes the whole command line as one argument; quote it: --impl \"python3 adapter.py\""),
        "{stderr}"
    );
}

#[test]
fn shell_syntax_in_impl_is_refused_with_the_reason() {
    for command in [
        "python3 a.py 2>/dev/null",
        "python3 a.py | tee log",
        "cd x && python3 a.py",
    ] {
        let out = conform(&["run", "--impl", command]);
        let stderr = text(&out.stderr);
        assert_eq!(code(&out), 2, "{command}: {stderr}");
        assert!(stderr.contains("no shell runs --impl"), "{stderr}");
        assert!(stderr.contains("script"), "{stderr}");
    }
}

#[test]
fn repository_commands_outside_a_checkout_say_so() {
    let outside = common::tempdir("outside-checkout");
    let out = Command::new(common::conform_binary())
        .args(["adapters", "list"])
        .current_dir(&outside)
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(code(&out), 2, "{stderr}");
    assert!(stderr.contains("root of a checkout"), "{stderr}");
    assert!(stderr.contains("--adapters DIR"), "{stderr}");
}

#[test]
fn a_crash_shows_the_exception_once_and_is_an_adapter_fault() {
    let out = conform(&[
        "run",
        "--impl",
        &adapter("deep_exception"),
        "--vectors",
        &vectors(),
        "--op",
        "murmur3",
    ]);
    assert_eq!(code(&out), 3);
    let report = text(&out.stdout);
    let crashes = report.matches("\ncrash mini/murmur3-").count();
    assert_eq!(crashes, 4, "{report}");
    // The last line of the traceback, far beyond the first 400 characters of stderr, in each
    // test's block; the stderr said once per test (not in `why` and again in `actual`).
    for block in report.split("\ncrash mini/").skip(1) {
        assert!(
            block.contains("ZeroDivisionError: planted: the exception the report must name"),
            "{block}"
        );
    }
    assert_eq!(report.matches("  stderr     ").count(), crashes, "{report}");
    assert!(!report.contains("  actual "), "{report}");
    assert_eq!(report.matches("crashed: ").count(), crashes, "{report}");
    assert!(!report.contains("no known bug class"), "{report}");
    assert_eq!(
        report
            .matches("diagnosis  adapter fault: the implementation crashed")
            .count(),
        crashes,
        "{report}"
    );
}

#[test]
fn junit_says_a_crash_once() {
    let out = conform(&[
        "run",
        "--impl",
        &adapter("deep_exception"),
        "--vectors",
        &vectors(),
        "--id",
        "mini/murmur3-empty",
        "--format",
        "junit",
    ]);
    let report = text(&out.stdout);
    assert!(
        report.contains("<error type=\"crash\" message=\"crashed: exit status: 1\">"),
        "{report}"
    );
    assert_eq!(
        report.matches("ZeroDivisionError: planted").count(),
        2,
        "{report}"
    );
}

#[test]
fn stray_stdout_gets_a_hint_to_use_stderr() {
    let out = conform(&[
        "run",
        "--impl",
        &adapter("noisy"),
        "--vectors",
        &vectors(),
        "--op",
        "murmur3",
    ]);
    let report = text(&out.stdout);
    assert_eq!(code(&out), 1, "{report}");
    assert!(report.contains("protocolError mini/murmur3-"), "{report}");
    assert!(
        report.contains("write diagnostics (prints, logs) to stderr"),
        "{report}"
    );
    assert!(
        report.contains("diagnosis  adapter fault: the answer broke the subprocess protocol"),
        "{report}"
    );
}

#[test]
fn a_missing_expectations_file_says_the_update_creates_it() {
    let missing = common::tempdir("missing-expectations").join("expectations.toml");
    let template = common::adapters_dir().join("template.py");
    let out = conform(&[
        "run",
        "--impl",
        &format!("python3 {}", template.display()),
        "--expectations",
        &missing.to_string_lossy(),
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(code(&out), 2, "{stderr}");
    assert!(
        stderr.contains("hint: --update-expectations creates it"),
        "{stderr}"
    );
}

#[test]
fn a_cut_value_says_where_it_is_whole() {
    use bip37_harness::implementation::Answer;
    let test = &common::mini_tests()[0];
    let mut result =
        bip37_harness::runner::verdict::judge(test, Answer::Unsupported, Default::default());
    result.diagnosis = Some("x".repeat(651));
    let details = bip37_harness::report::details(&result, Some(400));
    let (_, diagnosis) = details.iter().find(|(k, _)| *k == "diagnosis").unwrap();
    assert!(
        diagnosis.ends_with("... (651 characters; whole in the JSON report: --report json:FILE)"),
        "{diagnosis}"
    );
}
