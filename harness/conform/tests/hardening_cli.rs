//! The command line under hostile conditions: a reader that closes the pipe early, durations
//! too long for the clock, and an adapter whose name is crafted to rewrite the report.

mod common;

use common::text;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn a_closed_stdout_ends_quietly_with_the_normal_exit_code() {
    for (args, normal) in [
        (vec!["list"], 0),
        (vec!["run", "--builtin", "mutant:murmur-tail"], 1),
        (vec!["lint"], 0),
    ] {
        let mut child = Command::new(common::conform_binary())
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before anything is written: every write meets a closed pipe.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(normal),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(!text(&out.stderr).contains("panicked"), "{args:?}");
        assert!(!text(&out.stderr).contains("Broken pipe"), "{args:?}");
    }
}

#[test]
fn a_closed_stderr_ends_quietly_with_the_normal_exit_code() {
    let dir = common::tempdir("closed-stderr");
    let report = dir.join("report.json");
    let report = report.to_str().unwrap();
    for (args, normal) in [
        (vec!["run", "--builtin", "reference", "--output", report], 0),
        (vec!["run", "--builtin", "mutant:murmur-tail"], 1),
        (
            vec![
                "fuzz",
                "--builtin",
                "reference",
                "--time",
                "1s",
                "--seed",
                "3",
            ],
            0,
        ),
        (vec!["lint", "--vectors", "/nonexistent/vectors"], 2),
    ] {
        let mut child = Command::new(common::conform_binary())
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Every line the command says on stderr meets a closed pipe.
        drop(child.stderr.take());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(normal), "{args:?}");
    }
    let written = std::fs::read_to_string(report).unwrap();
    let verdict = written.lines().last().unwrap_or_default();
    assert!(verdict.starts_with("conformant in 14 of 14"), "{written}");
}

#[test]
fn a_duration_beyond_the_clock_is_a_usage_error() {
    for args in [
        vec![
            "run",
            "--builtin",
            "reference",
            "--timeout",
            "10000000000000000000s",
        ],
        vec![
            "run",
            "--builtin",
            "reference",
            "--total-timeout",
            "10000000000000000000s",
        ],
        vec![
            "fuzz",
            "--builtin",
            "reference",
            "--time",
            "10000000000000000000s",
        ],
        vec![
            "fuzz",
            "--builtin",
            "reference",
            "--timeout",
            "10000000000000000000s",
        ],
    ] {
        let out = Command::new(common::conform_binary())
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(text(&out.stderr).contains("longest duration"), "{args:?}");
    }
}

#[test]
fn a_crafted_adapter_name_cannot_rewrite_the_reports() {
    let adapter = common::adapter("crafted_name").join(" ");
    let run = |format: &str| {
        let started = Instant::now();
        let out = Command::new(common::conform_binary())
            .args([
                "run",
                "--impl",
                &adapter,
                "--id",
                "murmur3/*",
                "--format",
                format,
                "--color",
                "always",
            ])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{format}: {}",
            text(&out.stderr)
        );
        assert!(started.elapsed() < Duration::from_secs(30));
        text(&out.stdout)
    };
    let markdown = run("markdown");
    let verdicts: Vec<&str> = markdown
        .lines()
        .filter(|l| l.starts_with("**") || l.starts_with('#') && !l.starts_with("###"))
        .collect();
    assert_eq!(verdicts.len(), 2, "{markdown}");
    assert!(verdicts[1].starts_with("**not conformant"), "{markdown}");
    assert!(!markdown.contains("<img"), "{markdown}");
    assert!(!markdown.contains('\x1b'), "{markdown}");
    let human = run("human");
    let first_line = human.lines().next().unwrap();
    assert!(first_line.contains("evil\\u{1b}[2J\\n\\n"), "{first_line}");
    // The only escapes left are the report's own colours.
    assert!(!human.contains("\x1b[2J"), "{human}");
    let tap = run("tap");
    assert!(tap.lines().all(|l| !l.starts_with("## ok")), "{tap}");
}
