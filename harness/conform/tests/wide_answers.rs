//! An answer with an integer wider than 32 bits is the natural form of the seed not wrapped
//! (Python's unbounded `int`, a Java `long`, a JavaScript number past 2^32) and of a tweak read
//! as signed: a wrong value named by its class, in `run` and in `fuzz`, with the value as sent
//! on the `actual` line, never a protocol error ("adapter fault, no bug class").
//!
//! Each test copies adapters/template.py (and the protocol module beside it) out of the
//! checkout, plants the mistake in its `hashSeed`, and runs it as a real subprocess.

mod common;

use common::{code, conform, text};
use std::path::{Path, PathBuf};

/// A copy of the Python template in a fresh directory `name`, with `planted` in place of the
/// body of its `hashSeed`; the argv-as-one-string that runs it.
fn planted_template(name: &str, planted: &str) -> String {
    let dir = common::tempdir(name);
    let adapters = common::adapters_dir();
    std::fs::create_dir_all(dir.join("py-protocol")).unwrap();
    std::fs::copy(
        adapters.join("py-protocol/bip37_protocol.py"),
        dir.join("py-protocol/bip37_protocol.py"),
    )
    .unwrap();
    let template = std::fs::read_to_string(adapters.join("template.py")).unwrap();
    let body = "    seed = request_input[\"hashIndex\"] * 0xFBA4C795 + request_input[\"tweak\"]\n    return {\"seed\": seed & 0xFFFFFFFF}\n";
    assert!(template.contains(body), "the template's hashSeed changed");
    let script: PathBuf = dir.join("template.py");
    std::fs::write(&script, template.replace(body, planted)).unwrap();
    format!("python3 {}", Path::new(&script).display())
}

/// The seed computed in Python's unbounded `int` and sent without `& 0xFFFFFFFF`.
const UNWRAPPED: &str =
    "    return {\"seed\": request_input[\"hashIndex\"] * 0xFBA4C795 + request_input[\"tweak\"]}\n";

/// The tweak read as a signed 32-bit number (a Java `int`), the sum sent as it is.
const SIGNED: &str = "    tweak = request_input[\"tweak\"]\n    tweak = tweak - (1 << 32) if tweak >= 1 << 31 else tweak\n    return {\"seed\": request_input[\"hashIndex\"] * 0xFBA4C795 + tweak}\n";

/// The human report of `run --op hashSeed` against `implementation`.
fn run_hash_seed(implementation: &str) -> String {
    let out = conform(&["run", "--impl", implementation, "--op", "hashSeed"]);
    let report = text(&out.stdout);
    assert_eq!(code(&out), 1, "{report}{}", text(&out.stderr));
    report
}

#[test]
fn an_unwrapped_seed_is_a_wrong_value_named_seed_not_wrapped() {
    let report = run_hash_seed(&planted_template("wide-unwrapped", UNWRAPPED));
    assert!(!report.contains("protocol error"), "{report}");
    assert!(!report.contains("adapter fault"), "{report}");
    // Hash function 2, tweak 7: 2 * 0xFBA4C795 + 7, the right seed plus 2^32.
    assert!(
        report.contains("actual     {\"seed\":8443760433}"),
        "{report}"
    );
    assert!(report.contains("not wrapped to 32 bits"), "{report}");
    let failures = report.matches("\nwrongValue ").count();
    assert!(failures > 0, "{report}");
    assert_eq!(
        report.matches("diagnosis  likely SeedNotWrapped:").count(),
        failures,
        "{report}"
    );
}

#[test]
fn a_negative_tweak_is_a_wrong_value_named_signed_tweak() {
    let report = run_hash_seed(&planted_template("wide-signed", SIGNED));
    assert!(!report.contains("adapter fault"), "{report}");
    // Hash function 0, tweak 0x80000000: the seed sent negative.
    assert!(
        report.contains("actual     {\"seed\":-2147483648}"),
        "{report}"
    );
    let failures = report.matches("\nwrongValue ").count();
    assert_eq!(
        report.matches("diagnosis  likely SignedTweak:").count(),
        failures,
        "{report}"
    );
}

#[test]
fn the_fuzzer_names_an_unwrapped_seed() {
    let out = conform(&[
        "fuzz",
        "--impl",
        &planted_template("wide-fuzz", UNWRAPPED),
        "--time",
        "2s",
        "--seed",
        "1",
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(code(&out), 1, "{stderr}");
    assert!(
        stderr.contains("MISMATCH reference-template-python-hashSeed-seed-not-wrapped"),
        "{stderr}"
    );
    assert!(!stderr.contains("unclassified"), "{stderr}");
    assert!(stderr.contains("wider than 32 bits"), "{stderr}");
}
