//! hns-light-wallet against the whole suite, in-process and through `bip37-hns-light-wallet`, held to
//! `expectations.toml` (see `adapters/rust_suite.rs`).

#[path = "../../rust_suite.rs"]
mod rust_suite;

use bip37_adapter_hns_light_wallet::HnsLightWallet;

#[test]
fn hns_light_wallet_fails_exactly_as_its_expectations_say() {
    rust_suite::check(HnsLightWallet, env!("CARGO_MANIFEST_DIR"));
}

#[test]
fn its_server_gives_the_same_verdicts_over_the_protocol() {
    rust_suite::check_served(
        HnsLightWallet,
        env!("CARGO_BIN_EXE_bip37-hns-light-wallet"),
        env!("CARGO_MANIFEST_DIR"),
    );
}
