//! Bitcoin Core's code against the whole suite, in-process and through `bip37-bitcoin-core`,
//! held to `expectations.toml` (see `adapters/rust_suite.rs`): every vector passes but the
//! inputs where Core's code is undefined.

#[path = "../../rust_suite.rs"]
mod rust_suite;

use bip37_adapter_bitcoin_core::Core;

#[test]
fn core_passes_every_vector_it_can_answer() {
    rust_suite::check(Core, env!("CARGO_MANIFEST_DIR"));
}

#[test]
fn its_server_gives_the_same_verdicts_over_the_protocol() {
    rust_suite::check_served(
        Core,
        env!("CARGO_BIN_EXE_bip37-bitcoin-core"),
        env!("CARGO_MANIFEST_DIR"),
    );
}
