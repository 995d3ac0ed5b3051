//! The subprocess client survives misbehaving implementations: each misbehaviour ends in the
//! right state for the right test, and the run ends within its bounds.

mod common;

use bip37_harness::hex::Hex;
use bip37_harness::implementation::{Answer, Fault, Implementation};
use bip37_harness::ops::{Murmur3Input, Request};
use bip37_harness::runner::{run_tests, RunOptions, State};
use bip37_harness::subprocess::{ClientConfig, StartError, Subprocess};
use std::time::{Duration, Instant};

fn config(adapter: &str) -> ClientConfig {
    ClientConfig {
        request_timeout: Duration::from_millis(300),
        start_timeout: Duration::from_secs(5),
        grace: Duration::from_millis(200),
        max_line: 64 * 1024,
        ..ClientConfig::new(common::adapter(adapter))
    }
}

/// The states of the five murmur3 and hashSeed tests (the fixture adapters support only those).
fn states_of(adapter: &str) -> (Vec<State>, Subprocess) {
    let tests = common::mini_tests();
    let selected: Vec<_> = tests.iter().take(5).collect();
    let mut child = Subprocess::start(config(adapter)).expect("the adapter starts");
    let run = run_tests(&selected, &mut child, &RunOptions::default());
    (run.results.iter().map(|r| r.state).collect(), child)
}

#[test]
fn a_hanging_request_times_out_and_the_rest_still_run() {
    let began = Instant::now();
    let (states, child) = states_of("hang");
    assert_eq!(
        states,
        [
            State::Pass,
            State::Pass,
            State::Pass,
            State::Pass,
            State::Timeout
        ]
    );
    drop(child);
    assert!(
        began.elapsed() < Duration::from_secs(5),
        "{:?}",
        began.elapsed()
    );
}

#[test]
fn a_crash_is_charged_to_its_test_and_the_child_restarted() {
    let tests = common::mini_tests();
    let selected: Vec<_> = tests.iter().take(5).collect();
    let mut child = Subprocess::start(config("crash_halfway")).unwrap();
    let run = run_tests(&selected, &mut child, &RunOptions::default());
    let states: Vec<State> = run.results.iter().map(|r| r.state).collect();
    assert_eq!(
        states,
        [
            State::Pass,
            State::Pass,
            State::Crash,
            State::Pass,
            State::Pass
        ]
    );
    assert!(
        run.results[2].message.contains("exit status: 3"),
        "{}",
        run.results[2].message
    );
    assert_eq!(child.restarts(), 1);
}

#[test]
fn garbage_is_a_protocol_error_and_the_stream_resynchronises() {
    let (states, _) = states_of("garbage");
    assert_eq!(states[..4], [State::Pass; 4]);
    assert_eq!(states[4], State::ProtocolError);
}

#[test]
fn a_flood_on_stderr_does_not_block_anything() {
    let began = Instant::now();
    let (states, _) = states_of("stderr_flood");
    assert_eq!(states, [State::Pass; 5]);
    assert!(
        began.elapsed() < Duration::from_secs(5),
        "{:?}",
        began.elapsed()
    );
}

#[test]
fn answers_under_the_wrong_id_are_protocol_errors() {
    let (states, child) = states_of("wrong_id");
    assert_eq!(states, [State::ProtocolError; 5]);
    assert_eq!(child.restarts(), 4);
}

#[test]
fn an_oversized_line_is_a_protocol_error() {
    let tests = common::mini_tests();
    let selected: Vec<_> = tests.iter().take(5).collect();
    let mut child = Subprocess::start(config("oversized")).unwrap();
    let run = run_tests(&selected, &mut child, &RunOptions::default());
    assert_eq!(run.results[3].state, State::Pass);
    assert_eq!(run.results[4].state, State::ProtocolError);
    assert!(
        run.results[4]
            .message
            .contains("longer than the 65536-byte cap"),
        "{}",
        run.results[4].message
    );
}

#[test]
fn an_oversized_answer_where_a_rejection_is_expected_is_a_wrong_accept() {
    let tests = common::mini_tests();
    let must_reject: Vec<_> = tests
        .iter()
        .filter(|t| t.case.id == "mini/load-51-hash-funcs")
        .collect();
    let mut child = Subprocess::start(config("oversized_accept")).unwrap();
    let mut run = run_tests(&must_reject, &mut child, &RunOptions::default());
    let result = &run.results[0];
    assert_eq!(result.state, State::AcceptedInvalid, "{}", result.message);
    assert!(
        result.message.contains("65536-byte cap"),
        "{}",
        result.message
    );
    // No mutant accepts this payload with an answer that long: no class is named.
    let diagnosis = bip37_harness::diagnosis::annotate(&mut run.results);
    assert_eq!(diagnosis.failures, [0]);
    assert_eq!(diagnosis.named(0), []);
}

#[test]
fn a_child_that_stops_reading_cannot_block_a_large_request() {
    let mut child = Subprocess::start(config("deaf")).unwrap();
    // Far more than a pipe holds: the write itself must give up at the deadline.
    let request = Request::Murmur3(Murmur3Input {
        seed: 0,
        data: Hex(vec![0; 1 << 20]),
    });
    let began = Instant::now();
    assert_eq!(child.execute(&request), Answer::Fault(Fault::Timeout));
    assert!(
        began.elapsed() < Duration::from_secs(2),
        "{:?}",
        began.elapsed()
    );
}

#[test]
fn the_overall_bound_ends_a_run_of_hanging_requests() {
    let tests = common::mini_tests();
    let seed_test = tests
        .iter()
        .find(|t| t.case.id == "mini/seed-bip-example")
        .unwrap();
    let selected = vec![seed_test; 20];
    let mut child = Subprocess::start(config("hang")).unwrap();
    let began = Instant::now();
    let options = RunOptions {
        total_time: Some(Duration::from_millis(700)),
    };
    let run = run_tests(&selected, &mut child, &options);
    // The bound stops new tests; the one in flight may take one request timeout more.
    assert!(
        began.elapsed() < Duration::from_millis(700 + 300 + 500),
        "{:?}",
        began.elapsed()
    );
    assert!(run.aborted.is_some());
    assert_eq!(run.results[0].state, State::Timeout);
    assert_eq!(run.results.last().unwrap().state, State::NotRun);
}

#[test]
fn a_child_that_never_says_hello_or_speaks_another_protocol_is_refused() {
    let began = Instant::now();
    let err = Subprocess::start(ClientConfig {
        start_timeout: Duration::from_millis(300),
        ..config("silent")
    })
    .err()
    .unwrap();
    assert!(
        matches!(err, StartError::Timeout(t) if t == Duration::from_millis(300)),
        "{err}"
    );
    assert!(began.elapsed() < Duration::from_secs(2));
    let err = Subprocess::start(config("future_protocol")).err().unwrap();
    assert!(
        matches!(&err, StartError::Handshake(m) if m.contains("protocol 2")),
        "{err}"
    );
    let err = Subprocess::start(ClientConfig::new(vec!["/nonexistent/adapter".into()]))
        .err()
        .unwrap();
    assert!(matches!(err, StartError::Spawn { .. }), "{err}");
    let cause = std::error::Error::source(&err).and_then(|e| e.downcast_ref::<std::io::Error>());
    assert_eq!(
        cause.map(std::io::Error::kind),
        Some(std::io::ErrorKind::NotFound),
        "{err}"
    );
}
