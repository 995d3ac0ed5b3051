//! Turns a crash artifact of a fuzz target into a ready-to-commit vector file on stdout.
//!
//! Usage: `cargo run --manifest-path fuzz/Cargo.toml --example promote -- TARGET ARTIFACT`

use bip37_fuzz::promote::promote;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [target, artifact] = args.as_slice() else {
        eprintln!("usage: promote TARGET ARTIFACT");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(artifact) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("promote: cannot read {artifact}: {e}");
            return ExitCode::from(2);
        }
    };
    match promote(target, &bytes) {
        Ok(json) => {
            print!("{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("promote: {e}");
            ExitCode::from(2)
        }
    }
}
