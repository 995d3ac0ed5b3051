//! The check every Rust adapter's `tests/suite.rs` makes (included there with `#[path]`): the
//! whole built-in suite against the implementation in-process through the `Implementation`
//! trait and through its server binary over the subprocess protocol, each run judged against
//! the adapter's `expectations.toml`. It must fail exactly the listed tests in the listed
//! states and keep answering the pinned operations: a new failure, a listed test that passes,
//! a stale entry or a dropped operation (the library's behaviour changed) fails the test with
//! the report `bip37-conform run` prints.

use bip37_harness::expectations::Expectations;
use bip37_harness::implementation::Implementation;
use bip37_harness::report::{render, Format};
use bip37_harness::runner::{Conformance, Run, State};
use bip37_harness::subprocess::{ClientConfig, Subprocess};
use bip37_harness::Suite;
use std::path::Path;
use std::time::Duration;

/// Runs the suite on `implementation` with `bip37_harness::Suite` (what README shows a Rust
/// implementer) and asserts it matches `expectations.toml` in the adapter's directory; returns
/// the judged run.
pub fn check<I: Implementation>(implementation: I, manifest_dir: &str) -> Run {
    let path = Path::new(manifest_dir).join("expectations.toml");
    let expectations = Expectations::load(&path).expect("expectations.toml loads");
    let run = Suite::new(implementation)
        .expectations(&path)
        .run()
        .unwrap_or_else(|e| panic!("the suite runs: {e}"));
    let report = render(&run, Format::Human, false);
    assert_eq!(run.conformance(), Conformance::Conformant, "{report}");
    let counts = run.counts();
    let count = |state| counts.get(&state).copied().unwrap_or(0);
    assert_eq!(
        count(State::ExpectedFailure),
        expectations.failures.len(),
        "{report}"
    );
    assert!(count(State::Pass) > 0, "{report}");
    run
}

/// [`check`] through `server` (the adapter's binary), which must say the same hello as
/// `in_process` and reach the same verdict on every test. Requests get a minute, not the
/// default 5 s: an answer that takes long (sv returns a 32 MB element for a truncated
/// `filteradd`) must end in the same verdict as in-process, not in a timeout that depends on
/// the machine's speed.
pub fn check_served<I: Implementation>(in_process: I, server: &str, manifest_dir: &str) {
    let hello = (
        format!("{} {}", in_process.name(), in_process.version()),
        in_process.notes(),
        in_process.operations(),
    );
    let direct = check(in_process, manifest_dir);
    let config = ClientConfig {
        request_timeout: Duration::from_secs(60),
        ..ClientConfig::new(vec![server.into()])
    };
    let child = Subprocess::start(config).unwrap_or_else(|e| panic!("{server} starts: {e}"));
    assert_eq!((child.name(), child.notes(), child.operations()), hello);
    let served = check(child, manifest_dir);
    let states = |run: &Run| -> Vec<(String, State)> {
        run.results
            .iter()
            .map(|r| (r.test.case.id.clone(), r.state))
            .collect()
    };
    assert_eq!(states(&direct), states(&served));
}
