//! rust-bitcoin against the whole suite, in-process and through `bip37-rust-bitcoin`, held to
//! `expectations.toml` (see `adapters/rust_suite.rs`).

#[path = "../../rust_suite.rs"]
mod rust_suite;

use bip37_adapter_rust_bitcoin::RustBitcoin;

#[test]
fn rust_bitcoin_fails_exactly_as_its_expectations_say() {
    rust_suite::check(RustBitcoin, env!("CARGO_MANIFEST_DIR"));
}

#[test]
fn its_server_gives_the_same_verdicts_over_the_protocol() {
    rust_suite::check_served(
        RustBitcoin,
        env!("CARGO_BIN_EXE_bip37-rust-bitcoin"),
        env!("CARGO_MANIFEST_DIR"),
    );
}
