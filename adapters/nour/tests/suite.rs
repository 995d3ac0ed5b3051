//! nour against the whole suite, in-process and through `bip37-nour`, held to
//! `expectations.toml` (see `adapters/rust_suite.rs`).

#[path = "../../rust_suite.rs"]
mod rust_suite;

use bip37_adapter_nour::Nour;

#[test]
fn nour_fails_exactly_as_its_expectations_say() {
    rust_suite::check(Nour, env!("CARGO_MANIFEST_DIR"));
}

#[test]
fn its_server_gives_the_same_verdicts_over_the_protocol() {
    rust_suite::check_served(
        Nour,
        env!("CARGO_BIN_EXE_bip37-nour"),
        env!("CARGO_MANIFEST_DIR"),
    );
}
