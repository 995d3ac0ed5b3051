//! An adapter's whole process group goes with it: a shell wrapper without `exec` and a
//! grandchild that keeps stdout open leave no process behind after timeouts, restarts and the
//! end of a run (counted in /proc by a marker on their command lines); and every crash report
//! carries the adapter's last stderr line.

mod common;

use bip37_harness::hex::Hex;
use bip37_harness::implementation::{Answer, Fault, Implementation};
use bip37_harness::ops::{Murmur3Input, Request};
use bip37_harness::runner::{run_tests, RunOptions, State};
use bip37_harness::subprocess::{ClientConfig, Subprocess};
use std::time::{Duration, Instant};

/// A marker unique to this test process and `name`, for the fixtures' command lines.
fn marker(name: &str) -> String {
    format!("bip37-marker-{name}-{}", std::process::id())
}

/// Waits up to two seconds for the count of `marker` to reach `wanted` (the last count).
fn settles_at(marker: &str, wanted: usize) -> usize {
    common::processes::settles_at(marker, wanted, Duration::from_secs(2))
}

fn config(argv: Vec<String>) -> ClientConfig {
    ClientConfig {
        request_timeout: Duration::from_millis(300),
        start_timeout: Duration::from_secs(5),
        grace: Duration::from_millis(200),
        ..ClientConfig::new(argv)
    }
}

fn wrapped(adapter: &str, marker: &str) -> Vec<String> {
    vec![
        common::fixture("adapters/wrapped.sh")
            .to_string_lossy()
            .into_owned(),
        adapter.into(),
        marker.into(),
    ]
}

#[test]
fn a_wrapper_without_exec_leaks_nothing_on_timeouts_and_at_the_end() {
    let marker = marker("wrapped-hang");
    let tests = common::mini_tests();
    let seed_test = tests
        .iter()
        .find(|t| t.case.id == "mini/seed-bip-example")
        .unwrap();
    let mut child = Subprocess::start(config(wrapped("hang", &marker))).unwrap();
    assert_eq!(settles_at(&marker, 2), 2, "the shell and the adapter");
    let run = run_tests(&[seed_test; 4], &mut child, &RunOptions::default());
    assert!(run.results.iter().all(|r| r.state == State::Timeout));
    // Each timeout killed the shell and the adapter under it.
    assert_eq!(settles_at(&marker, 0), 0, "processes left by the timeouts");
    drop(child);
    assert_eq!(settles_at(&marker, 0), 0, "processes left after the run");
}

#[test]
fn a_grandchild_holding_stdout_is_killed_at_the_end() {
    let marker = marker("grandchild");
    let mut argv = common::adapter("grandchild");
    argv.push(marker.clone());
    let started = Instant::now();
    let mut child = Subprocess::start(config(argv)).unwrap();
    let request = Request::Murmur3(Murmur3Input {
        seed: 0,
        data: Hex(vec![0]),
    });
    assert!(matches!(child.execute(&request), Answer::Ok(_)));
    assert_eq!(settles_at(&marker, 2), 2, "the adapter and its grandchild");
    drop(child);
    assert_eq!(settles_at(&marker, 0), 0, "the grandchild was left behind");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn every_crash_report_carries_the_last_stderr_line() {
    let mut child = Subprocess::start(config(common::adapter("last_words"))).unwrap();
    let request = Request::Murmur3(Murmur3Input {
        seed: 0,
        data: Hex(vec![0]),
    });
    for attempt in 0..20 {
        match child.execute(&request) {
            Answer::Fault(Fault::Crash(report)) => assert!(
                report.contains("last words before the crash"),
                "crash {attempt}: {report}"
            ),
            other => panic!("crash {attempt}: {other:?}"),
        }
    }
}

/// Runs `bip37-conform args` to its end and returns how long it took.
fn conform_run(args: &[&str]) -> Duration {
    let started = Instant::now();
    let out = common::conform(args);
    assert!(out.status.code().is_some(), "{args:?}: killed by a signal");
    started.elapsed()
}

#[test]
fn run_and_fuzz_leave_no_process_of_a_wrapped_adapter_behind() {
    let marker = marker("cli-wrapped-hang");
    let command = wrapped("hang", &marker).join(" ");
    let elapsed = conform_run(&[
        "run",
        "--impl",
        &command,
        "--op",
        "hashSeed",
        "--timeout",
        "200ms",
        "--total-timeout",
        "1s",
    ]);
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}");
    assert_eq!(settles_at(&marker, 0), 0, "processes left by run");
    // A fuzz campaign against a wrapped adapter that answers correctly and leaves a helper.
    let command = wrapped("grandchild", &marker).join(" ");
    let elapsed = conform_run(&[
        "fuzz", "--impl", &command, "--op", "murmur3", "--time", "1s",
    ]);
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}");
    assert_eq!(settles_at(&marker, 0), 0, "processes left by fuzz");
}
