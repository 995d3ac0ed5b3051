//! A test's duration (`durationMs` in the JSON report) is the time the implementation took to
//! answer it: a restart of the adapter before the request (after the previous test timed out
//! or crashed) is left out, so a timed-out test reads about `--timeout`, not the restart too.

mod common;

use bip37_harness::runner::{run_tests, RunOptions, State};
use bip37_harness::subprocess::{ClientConfig, Subprocess};
use std::time::Duration;

#[test]
fn a_restart_is_not_counted_into_a_timed_out_test() {
    let tests = common::mini_tests();
    let murmur: Vec<_> = tests
        .iter()
        .filter(|t| t.case.id.starts_with("mini/murmur3-"))
        .take(3)
        .collect();
    let timeout = Duration::from_millis(300);
    let config = ClientConfig {
        request_timeout: timeout,
        ..ClientConfig::new(common::adapter("slow_start_hang"))
    };
    let mut child = Subprocess::start(config).expect("the adapter starts");
    let run = run_tests(&murmur, &mut child, &RunOptions::default());
    assert_eq!(child.restarts(), 2);
    for result in &run.results {
        assert_eq!(result.state, State::Timeout, "{}", result.test.case.id);
        // The restart takes a second; the answer's time is the timeout and a little.
        assert!(
            result.duration >= timeout && result.duration < timeout + Duration::from_millis(500),
            "{}: {:?}",
            result.test.case.id,
            result.duration
        );
    }
}
