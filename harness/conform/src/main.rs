//! `bip37-conform`: the BIP 37 conformance suite on the command line (see `--help`).

fn main() -> std::process::ExitCode {
    bip37_conform::signals::install();
    let code = bip37_conform::cli::main(std::env::args_os());
    // A tear-down under way (a signal came while the command ended) exits with its own code.
    bip37_harness::teardown::wait_for_tear_down();
    std::process::ExitCode::from(code)
}
