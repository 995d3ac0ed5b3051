//! sv against the whole suite, in-process and through `bip37-sv`, held to
//! `expectations.toml` (see `adapters/rust_suite.rs`).

#[path = "../../rust_suite.rs"]
mod rust_suite;

use bip37_adapter_sv::Sv;

#[test]
fn sv_fails_exactly_as_its_expectations_say() {
    rust_suite::check(Sv, env!("CARGO_MANIFEST_DIR"));
}

#[test]
fn its_server_gives_the_same_verdicts_over_the_protocol() {
    rust_suite::check_served(
        Sv,
        env!("CARGO_BIN_EXE_bip37-sv"),
        env!("CARGO_MANIFEST_DIR"),
    );
}
