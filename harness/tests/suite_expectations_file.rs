//! README's `cargo test` snippet works in a crate that has no expectations file yet: a missing
//! file counts as empty and the run says how to record it; `BIP37_UPDATE_EXPECTATIONS=1`
//! records it from the run (the failures with their states, the exercised operations), judges
//! the run against the file as it was, and a second run against the recorded file conforms.
//! One test, because it sets an environment variable every test of this binary would see.

use bip37_harness::mutants;
use bip37_harness::runner::{Conformance, State};
use bip37_harness::suite::UPDATE_ENV;
use bip37_harness::Suite;

#[test]
fn a_missing_file_is_empty_and_the_update_variable_records_it() {
    let dir = std::env::temp_dir().join(format!("bip37-suite-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bip37-expectations.toml");
    let planted = || mutants::by_name("murmur-tail").expect("the mutant exists");

    // Missing: empty, with a note naming the variable; the planted bug still fails the run.
    let run = Suite::new(planted())
        .id("murmur3/*")
        .expectations(&path)
        .run()
        .expect("a missing file is not an error");
    assert_eq!(run.conformance(), Conformance::Failures);
    let note = run.warnings.join("\n");
    assert!(note.contains("does not exist"), "{note}");
    assert!(
        note.contains("BIP37_UPDATE_EXPECTATIONS=1 cargo test"),
        "{note}"
    );
    assert!(!path.exists());

    // Recording: the run is judged against the file as it was (missing), then it is written.
    std::env::set_var(UPDATE_ENV, "1");
    let recorded = Suite::new(planted())
        .id("murmur3/*")
        .expectations(&path)
        .run()
        .expect("the file is written");
    std::env::remove_var(UPDATE_ENV);
    assert_eq!(recorded.conformance(), Conformance::Failures);
    let failed = recorded.failures().count();
    let text = std::fs::read_to_string(&path).expect("the file was recorded");
    assert_eq!(
        text.matches("state = \"wrongValue\"").count(),
        failed,
        "{text}"
    );
    assert!(
        text.contains("operations = [\"murmur3\", \"hashSeed\"]"),
        "{text}"
    );
    let said = recorded.warnings.join("\n");
    assert!(
        said.contains(&format!("wrote {failed} expected failures")),
        "{said}"
    );

    // Against the recorded file the same implementation conforms, its failures expected.
    let again = Suite::new(planted())
        .id("murmur3/*")
        .expectations(&path)
        .run()
        .unwrap();
    assert_eq!(again.conformance(), Conformance::Conformant);
    assert_eq!(again.counts()[&State::ExpectedFailure], failed);
    std::fs::remove_dir_all(dir).unwrap();
}
