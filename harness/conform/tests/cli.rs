//! `bip37-conform` end to end: exit codes, the plan, report formats and expectations files.

mod common;

use common::{code, conform, text};

fn vectors() -> String {
    common::fixture_vectors().to_string_lossy().into_owned()
}

fn adapter(name: &str) -> String {
    common::adapter(name).join(" ")
}

#[test]
fn the_reference_is_conformant_in_process_and_through_serve() {
    let out = conform(&["run", "--builtin", "reference", "--vectors", &vectors()]);
    assert_eq!(code(&out), 0, "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("pass 11"),
        "{}",
        text(&out.stdout)
    );
    let serve = format!("{} serve", common::conform_binary());
    let out = conform(&["run", "--impl", &serve, "--vectors", &vectors()]);
    assert_eq!(code(&out), 0, "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("pass 11"));
}

#[test]
fn exit_codes_follow_the_documentation() {
    let v = vectors();
    let cases: &[(&[&str], i32)] = &[
        (&["run", "--impl", &adapter("garbage"), "--vectors", &v], 1),
        (
            &["run", "--impl", &adapter("crash_halfway"), "--vectors", &v],
            3,
        ),
        (
            &[
                "run",
                "--impl",
                &adapter("hang"),
                "--timeout",
                "300ms",
                "--vectors",
                &v,
            ],
            3,
        ),
        (
            &[
                "run",
                "--impl",
                &adapter("silent"),
                "--start-timeout",
                "300ms",
                "--vectors",
                &v,
            ],
            3,
        ),
        (
            &[
                "run",
                "--impl",
                &adapter("future_protocol"),
                "--vectors",
                &v,
            ],
            2,
        ),
        (
            &["run", "--impl", "/nonexistent/adapter", "--vectors", &v],
            2,
        ),
        (&["run", "--builtin", "no-such-thing", "--vectors", &v], 2),
        (&["run", "--vectors", &v], 2),
        (&["run", "--builtin", "reference", "--phase", "nonsense"], 2),
        (&["frobnicate"], 2),
        (
            &["run", "--impl", &adapter("stderr_flood"), "--vectors", &v],
            0,
        ),
    ];
    for (args, expected) in cases {
        let out = conform(args);
        assert_eq!(
            code(&out),
            *expected,
            "{args:?}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
    }
}

#[test]
fn a_broken_vector_file_is_located_before_anything_runs() {
    let broken = common::fixture("broken").to_string_lossy().into_owned();
    let out = conform(&[
        "run",
        "--impl",
        "/nonexistent/adapter",
        "--vectors",
        &broken,
    ]);
    assert_eq!(code(&out), 4);
    let err = text(&out.stderr);
    assert!(
        err.contains("broken_test.json:26:128: field `testGroups[0].tests[2].input.data`"),
        "{err}"
    );
    assert!(err.contains("odd length"), "{err}");
    let out = conform(&["list", "--vectors", &broken]);
    assert_eq!(code(&out), 4);
    let out = conform(&["lint", "--vectors", &broken]);
    assert_eq!(code(&out), 4);
    assert!(
        text(&out.stdout)
            .starts_with("broken_test.json:26:128: field `testGroups[0].tests[2].input.data`"),
        "{}",
        text(&out.stdout)
    );
    let out = conform(&["lint"]);
    assert_eq!(code(&out), 0, "{}", text(&out.stdout));
}

#[test]
fn the_plan_lists_the_selection_without_running() {
    let out = conform(&[
        "run",
        "--impl",
        "/nonexistent/adapter",
        "--list",
        "--vectors",
        &vectors(),
        "--op",
        "murmur3",
        "--id",
        "*seeded",
    ]);
    assert_eq!(code(&out), 0);
    let plan = text(&out.stdout);
    assert!(
        plan.starts_with("mini/murmur3-seeded\tmurmur3\thash\tvalid\tcore"),
        "{plan}"
    );
    assert!(plan.contains("1 of 11 tests selected"), "{plan}");
    let out = conform(&[
        "list",
        "--vectors",
        &vectors(),
        "--flag",
        "FlagsByte",
        "--source",
        "generated",
    ]);
    assert!(text(&out.stdout).contains("1 of 11 tests selected"));
    let out = conform(&["list", "--vectors", &vectors(), "--phase", "limits"]);
    assert!(text(&out.stdout).starts_with("mini/load-51-hash-funcs"));
}

#[test]
fn every_report_format_carries_the_failure() {
    let dir = tempdir("formats");
    let v = vectors();
    let garbage = adapter("garbage");
    for (format, needle) in [
        ("json", "\"state\": \"protocolError\""),
        ("junit", "<error type=\"protocolError\""),
        ("tap", "not ok 5 - mini/seed-bip-example"),
        ("markdown", "### `mini/seed-bip-example`: protocolError"),
        ("human", "protocolError mini/seed-bip-example"),
    ] {
        let file = dir.join(format!("report.{format}"));
        let out = conform(&[
            "run",
            "--impl",
            &garbage,
            "--vectors",
            &v,
            "--format",
            format,
            "--output",
            file.to_str().unwrap(),
        ]);
        assert_eq!(code(&out), 1, "{format}");
        assert!(text(&out.stderr).contains("report written to"), "{format}");
        let report = std::fs::read_to_string(&file).unwrap();
        assert!(report.contains(needle), "{format}: {report}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["reportVersion"], 1);
    assert_eq!(json["conformance"], "failures");
    assert_eq!(json["summary"]["total"], 11);
    assert_eq!(json["summary"]["protocolError"], 1);
    assert_eq!(json["summary"]["notClaimed"], 6);
    let result = &json["results"][4];
    assert_eq!(result["answer"]["kind"], "protocol");
    assert_eq!(
        result["input"],
        serde_json::json!({"hashIndex": 1, "tweak": 5})
    );
    assert!(result.as_object().unwrap().contains_key("diagnosis"));
}

#[test]
fn expectations_turn_known_failures_into_expected_ones_and_only_shrink() {
    let dir = tempdir("expectations");
    let file = dir.join("garbage.toml");
    let file = file.to_str().unwrap();
    let v = vectors();
    let garbage = adapter("garbage");
    let run = |extra: &[&str]| common::run_with_expectations(&garbage, &v, file, extra);
    // The update run is judged against the file as it was before (none): a failure.
    let out = run(&["--update-expectations"]);
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    let written = std::fs::read_to_string(file).unwrap();
    assert!(
        written.contains("[failures.\"mini/seed-bip-example\"]"),
        "{written}"
    );
    assert!(written.contains("state = \"protocolError\""), "{written}");
    assert_eq!(code(&run(&[])), 0);
    // The implementation is fixed: the listed failure now passes, which fails the run.
    let template = format!(
        "python3 {}/../../adapters/template.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = conform(&[
        "run",
        "--impl",
        &template,
        "--vectors",
        &v,
        "--expectations",
        file,
    ]);
    assert_eq!(code(&out), 1);
    assert!(text(&out.stdout).contains("unexpectedPass mini/seed-bip-example"));
    // An entry for an id no vector has is stale, and fails the run too.
    let with_reference = |contents: &str| {
        std::fs::write(file, contents).unwrap();
        conform(&[
            "run",
            "--builtin",
            "reference",
            "--vectors",
            &v,
            "--expectations",
            file,
        ])
    };
    let out =
        with_reference("[failures.\"mini/gone\"]\nstate = \"wrongValue\"\nreason = \"removed\"\n");
    assert_eq!(code(&out), 1);
    assert!(text(&out.stdout).contains("stale expectations"));
    let out = with_reference("[failures.x]\nstate = \"pass\"\nreason = \"\"\n");
    assert_eq!(code(&out), 2);
}

#[test]
fn the_messages_point_at_the_next_step() {
    let out = conform(&["run", "--builtin", "reference", "--vectors", &vectors()]);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("built-in reference"), "{stderr}");
    assert!(
        stderr.contains("--impl") && stderr.contains("docs/PROTOCOL.md"),
        "{stderr}"
    );
    let silent = adapter("silent");
    let out = conform(&["run", "--impl", &silent, "--start-timeout", "200ms"]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no hello") && stderr.contains("docs/PROTOCOL.md"),
        "{stderr}"
    );
    // An adapter that exits before its hello is noticed at once, not after the start timeout.
    let began = std::time::Instant::now();
    let out = conform(&["run", "--impl", "python3 -c 'raise SystemExit(3)'"]);
    let stderr = text(&out.stderr);
    assert!(
        began.elapsed() < std::time::Duration::from_secs(5),
        "{stderr}"
    );
    assert!(stderr.contains("exited before its hello"), "{stderr}");
    assert!(stderr.contains("docs/PROTOCOL.md"), "{stderr}");
    let out = conform(&["rn", "--builtin", "reference"]);
    assert_eq!(code(&out), 2);
    assert!(text(&out.stderr).contains("'run'"), "{}", text(&out.stderr));
}

#[test]
fn help_documents_the_exit_codes() {
    let out = conform(&["--help"]);
    assert_eq!(code(&out), 0);
    assert!(text(&out.stdout).contains("4  invalid vectors"));
    let out = conform(&["run", "--help"]);
    assert!(text(&out.stdout).contains("3  the implementation crashed or timed out"));
}

fn tempdir(name: &str) -> std::path::PathBuf {
    common::tempdir(&format!("cli-{name}"))
}
