//! `bip37-conform`: the BIP 37 conformance suite on the command line (see `--help`).

fn main() -> std::process::ExitCode {
    bip37_conform::signals::install();
    std::process::ExitCode::from(bip37_conform::cli::main(std::env::args_os()))
}
