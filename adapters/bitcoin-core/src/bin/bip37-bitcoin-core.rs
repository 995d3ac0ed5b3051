//! Bitcoin Core's code over the subprocess protocol on stdin/stdout, for
//! `bip37-conform run --impl` and the matrix.

use bip37_adapter_bitcoin_core::Core;
use std::io::{self, BufWriter};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = io::stdin().lock();
    let stdout = BufWriter::new(io::stdout().lock());
    match bip37_harness::subprocess::serve(&mut Core, stdin, stdout, io::stderr()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bip37-bitcoin-core: {e}");
            ExitCode::FAILURE
        }
    }
}
